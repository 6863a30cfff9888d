//! Certificates issued (decision 021): their numbers and the mail that
//! tells the holder, for a session attended (the roster) and for an online
//! course completed (decision 025).

use chrono::{NaiveDate, Utc};

use enrol_db::{CertificateHolder, CourseCompletion};
use enrol_domain::london;
use enrol_domain::mail::Mail;

use crate::AppState;

/// A certificate number: the college's initials, the year and eight random
/// letters and digits (so numbers say nothing about one another), e.g.
/// `EA-2026-K7Q2M9XD`.
pub fn certificate_number(college: &str, today: NaiveDate) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let initials: String = college.split_whitespace().filter_map(|w| w.chars().next()).filter(char::is_ascii_alphabetic).take(3).collect();
    let initials = if initials.is_empty() { "C".to_owned() } else { initials.to_ascii_uppercase() };
    let random: String =
        uuid::Uuid::new_v4().as_bytes()[..8].iter().map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()])).collect();
    format!("{initials}-{}-{random}", today.format("%Y"))
}

/// The mail telling `holder` their certificate is issued, with where it is
/// kept and where others check it.
pub fn certificate_mail(holder: &CertificateHolder, college: &str, public_url: &str) -> Mail {
    Mail {
        to: holder.email.clone(),
        reply_to: None,
        subject: format!("Your {} certificate", holder.course_title),
        body: format!(
            "Hello {},\n\nCongratulations on completing {}. Your certificate, number {}, is in your account:\n{public_url}/account/\n\n\
             Employers and insurers can check it at:\n{public_url}/certificates/{}\n\n{college}\n",
            holder.given_name, holder.course_title, holder.number, holder.number
        ),
        attachment: None,
    }
}

/// Completes `course_id` for `user_id`, whose study of it is complete: its
/// certificate is issued and mailed the first time, and stands after.
pub async fn complete_course(state: &AppState, user_id: &str, course_id: &str) -> anyhow::Result<CourseCompletion> {
    let now = Utc::now();
    let college = state.db.college().await?.name;
    let number = certificate_number(&college, london::today(now));
    let public_url = &state.config.public_url;
    state.db.complete_course(user_id, course_id, &number, |holder| certificate_mail(holder, &college, public_url), now).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_carries_the_initials_and_year_and_eight_unambiguous_characters() {
        let number = certificate_number("Enrol Aesthetics Academy", NaiveDate::from_ymd_opt(2026, 11, 27).unwrap_or_default());
        let (prefix, random) = number.split_at("EAA-2026-".len());
        assert_eq!(prefix, "EAA-2026-");
        assert_eq!(random.len(), 8);
        assert!(random.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()), "{number}");
        assert!(!random.contains(['O', '0', 'I', '1']), "{number}");
    }
}
