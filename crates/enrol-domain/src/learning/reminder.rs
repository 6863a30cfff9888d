//! The reminder a student booked on an in-person course gets a week before
//! training when its pre-course online theory is not finished (decision
//! 025): when the training starts, what to finish and where.

use chrono::NaiveDateTime;

use crate::london::long_date;
use crate::mail::Mail;

/// Who is reminded of which theory, before which training.
#[derive(Debug, Clone, Copy)]
pub struct TheoryDue<'a> {
    pub email: &'a str,
    pub given_name: &'a str,
    pub course_title: &'a str,
    /// London wall clock.
    pub training_starts: NaiveDateTime,
    /// The course player's address on the site.
    pub player_url: &'a str,
    pub college: &'a str,
}

impl TheoryDue<'_> {
    pub fn mail(&self) -> Mail {
        let day = long_date(self.training_starts.date());
        let time = self.training_starts.format("%-H:%M");
        Mail {
            to: self.email.to_owned(),
            reply_to: None,
            subject: format!("Finish your online theory before {day}"),
            body: format!(
                "Hello {},\n\nYour training starts on {day} at {time}. Before then, please finish {}, the online theory that \
                 comes with your place: the practical day builds on it.\n\nContinue where you left off:\n{}\n\n\
                 If anything stops you finishing it, reply to this email and we will help.\n\n{}\n",
                self.given_name, self.course_title, self.player_url, self.college
            ),
            attachment: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;

    #[test]
    fn the_reminder_says_when_training_starts_what_to_finish_and_where() {
        let starts = NaiveDate::from_ymd_opt(2026, 12, 8).and_then(|day| day.and_hms_opt(9, 30, 0)).unwrap();
        let mail = TheoryDue {
            email: "grace@example.com",
            given_name: "Grace",
            course_title: "Level 3 Anatomy and Physiology for Aesthetics Online",
            training_starts: starts,
            player_url: "https://academy.example/learn/anatomy-and-physiology-online/",
            college: "Example Academy",
        }
        .mail();
        assert_eq!(mail.to, "grace@example.com");
        assert_eq!(mail.subject, "Finish your online theory before Tuesday 8 December 2026");
        assert!(mail.body.starts_with("Hello Grace,\n\nYour training starts on Tuesday 8 December 2026 at 9:30."), "{}", mail.body);
        assert!(mail.body.contains("please finish Level 3 Anatomy and Physiology for Aesthetics Online"), "{}", mail.body);
        assert!(mail.body.contains("\nhttps://academy.example/learn/anatomy-and-physiology-online/\n"), "{}", mail.body);
    }
}
