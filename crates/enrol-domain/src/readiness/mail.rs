//! The mails of readiness for training (decision 033): a document turned
//! down, with the reason, and the reminder of what is still to do. Neither
//! carries an answer to a form: a medical answer never leaves the
//! database by mail.

use chrono::NaiveDate;

use crate::london::long_date;
use crate::mail::Mail;
use crate::readiness::{FormKind, Task};

/// Who a readiness mail goes to, and where they act.
#[derive(Debug, Clone, Copy)]
pub struct Student<'a> {
    pub email: &'a str,
    pub given_name: &'a str,
    /// The site's address, without a trailing slash.
    pub public_url: &'a str,
    pub college: &'a str,
}

/// The mail telling a student a document they sent was turned down, why,
/// and where to send another. The reason is indented under its heading, so
/// that a reason with a colon in it stays a sentence, not a labelled fact.
pub fn document_turned_down(to: Student<'_>, title: &str, reason: &str) -> Mail {
    Mail {
        to: to.email.to_owned(),
        reply_to: None,
        subject: format!("Please send another file for “{title}”"),
        body: format!(
            "Hello {},\n\nWe looked at the file you sent for “{title}” and cannot accept it.\n\nOur reason:\n  {}\n\n\
             Please send another from your account:\n{}/account/documents/\n\nIf you have a question, reply to this email.\n\n{}\n",
            to.given_name,
            reason.replace('\n', " "),
            to.public_url,
            to.college
        ),
        attachment: None,
    }
}

fn task_line(task: &Task) -> String {
    match task {
        Task::Form { form: FormKind::Consultation } => "- Complete the consultation form".to_owned(),
        Task::Form { form: FormKind::Medical } => "- Complete the medical questionnaire".to_owned(),
        Task::Document { title, rejected: false } => format!("- Send “{title}”"),
        Task::Document { title, rejected: true } => format!("- Send another file for “{title}”"),
    }
}

/// The reminder of what is still to do for `course_title` by `due_on`.
pub fn still_to_do(to: Student<'_>, course_title: &str, due_on: NaiveDate, to_do: &[Task]) -> Mail {
    let lines: Vec<String> = to_do.iter().map(task_line).collect();
    let day = long_date(due_on);
    Mail {
        to: to.email.to_owned(),
        reply_to: None,
        subject: format!("Before your {course_title} training: please finish by {day}"),
        body: format!(
            "Hello {},\n\nBefore your {course_title} training, please do the following by {day}:\n\n{}\n\n\
             You can do it all from your account:\n{}/account/\n\nIf anything stops you, reply to this email and we will help.\n\n{}\n",
            to.given_name,
            lines.join("\n"),
            to.public_url,
            to.college
        ),
        attachment: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TO: Student<'static> =
        Student { email: "priya@example.com", given_name: "Priya", public_url: "https://college.example", college: "The College" };

    #[test]
    fn a_turned_down_document_says_why_and_where_to_send_another() {
        let mail = document_turned_down(TO, "Photo ID", "The photo is blurred.\nPlease scan it again.");
        assert_eq!(mail.to, "priya@example.com");
        assert_eq!(mail.subject, "Please send another file for “Photo ID”");
        assert!(mail.body.contains("Our reason:\n  The photo is blurred. Please scan it again.\n"), "{}", mail.body);
        let colon = document_turned_down(TO, "Photo ID", "Blurred: please scan it again.");
        let reason = crate::mail::blocks(&colon.body).into_iter().find(|block| format!("{block:?}").contains("Blurred"));
        assert!(matches!(reason, Some(crate::mail::Block::Paragraph(_))), "a sentence, not a fact: {reason:?}");
        assert!(mail.body.contains("https://college.example/account/documents/"));
    }

    #[test]
    fn the_reminder_lists_what_is_left_and_the_day_it_is_due() {
        let to_do = [Task::Form { form: FormKind::Medical }, Task::Document { title: "Photo ID".to_owned(), rejected: true }];
        let mail = still_to_do(TO, "Dermal Fillers", "2027-03-08".parse().unwrap(), &to_do);
        assert_eq!(mail.subject, "Before your Dermal Fillers training: please finish by Monday 8 March 2027");
        assert!(mail.body.contains("- Complete the medical questionnaire\n- Send another file for “Photo ID”\n"), "{}", mail.body);
    }
}
