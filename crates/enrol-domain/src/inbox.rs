//! The back office's enquiry inbox (decision 017): what each of
//! the site's forms asked, read from what it stored, and where staff are
//! with it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::mail::Mail;

/// The forms whose submissions the inbox lists (`form_submission.kind`),
/// and low ratings after training (decision 034).
pub const FORM_KINDS: [&str; 6] = ["contact", "callback", "business", "models", "finance", crate::feedback::INBOX_KIND];

/// The longest note staff may keep on an enquiry, in characters.
pub const NOTE_LIMIT: usize = 2000;

/// Where staff are with an enquiry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum EnquiryStatus {
    New,
    InProgress,
    Done,
}

impl EnquiryStatus {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "new" => Some(Self::New),
            "in_progress" => Some(Self::InProgress),
            "done" => Some(Self::Done),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::New => "new",
            Self::InProgress => "in_progress",
            Self::Done => "done",
        }
    }
}

/// The longest reply staff may mail an enquirer, in characters.
pub const REPLY_LIMIT: usize = 5000;

/// A note as staff typed it: trimmed, 1 to [`NOTE_LIMIT`] characters.
pub fn note_text(raw: &str) -> Option<String> {
    typed_text(raw, NOTE_LIMIT)
}

/// A reply as staff typed it: trimmed, 1 to [`REPLY_LIMIT`] characters.
pub fn reply_text(raw: &str) -> Option<String> {
    typed_text(raw, REPLY_LIMIT)
}

fn typed_text(raw: &str, limit: usize) -> Option<String> {
    let text = raw.trim();
    (!text.is_empty() && text.chars().count() <= limit).then(|| text.to_owned())
}

/// The mail that takes staff member `staff_name`'s reply `text` (already
/// checked) to whoever sent `enquiry`, from `college`, whose address
/// (`college_address`) takes any answer; with what they wrote below it.
/// `None` when they left no email address.
pub fn reply_mail(enquiry: &EnquiryDetails, text: &str, staff_name: &str, college: &str, college_address: &str) -> Option<Mail> {
    if enquiry.email.trim().is_empty() {
        return None;
    }
    let greeting = enquiry.name.split_whitespace().next().map_or_else(|| "Hello,".to_owned(), |first| format!("Hello {first},"));
    let mut body = format!("{greeting}\n\n{text}\n\n{staff_name}\n{college}\n");
    if !enquiry.message.trim().is_empty() {
        let quoted: Vec<String> = enquiry.message.lines().map(|line| format!("> {line}").trim_end().to_owned()).collect();
        body.push_str(&format!("\nYou wrote:\n{}\n", quoted.join("\n")));
    }
    Some(Mail {
        to: enquiry.email.trim().to_owned(),
        reply_to: (!college_address.is_empty()).then(|| college_address.to_owned()),
        subject: format!("Your enquiry to {college}"),
        body,
        attachment: None,
    })
}

/// Who asked what, whichever form it came through.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
pub struct EnquiryDetails {
    pub name: String,
    pub email: String,
    pub phone: String,
    /// The message, after the form's other answers (company, treatment,
    /// best time to call), one a line.
    pub message: String,
    /// The courses asked about: a payment-plan request's, or the one an
    /// enquiry names.
    pub courses: Vec<String>,
}

/// What the forms store (`form_submission.data`): an enquiry as
/// [`Enquiry`](crate::enquiry::Enquiry) serializes, or a payment-plan
/// request as `POST /api/callback/` keeps it.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct StoredForm {
    name: String,
    email: String,
    phone: String,
    message: String,
    company: String,
    treatment: String,
    best_time: String,
    course: String,
    first_name: String,
    last_name: String,
    phone_number: String,
    courses: Vec<String>,
}

impl EnquiryDetails {
    /// The details of a form of `kind` that stored `data`; what cannot be
    /// read is left empty, so one odd row never hides the inbox.
    pub fn read(kind: &str, data: &str) -> Self {
        let form: StoredForm = serde_json::from_str(data).unwrap_or_default();
        if kind == "finance" {
            return EnquiryDetails {
                name: format!("{} {}", form.first_name.trim(), form.last_name.trim()).trim().to_owned(),
                email: form.email,
                phone: form.phone_number,
                message: String::new(),
                courses: form.courses,
            };
        }
        let answers = [("Company", &form.company), ("Treatment", &form.treatment), ("Best time to call", &form.best_time)];
        let mut message: Vec<String> =
            answers.iter().filter(|(_, value)| !value.is_empty()).map(|(label, value)| format!("{label}: {value}")).collect();
        if !form.message.is_empty() {
            if !message.is_empty() {
                message.push(String::new());
            }
            message.push(form.message);
        }
        EnquiryDetails {
            name: form.name,
            email: form.email,
            phone: form.phone,
            message: message.join("\n"),
            courses: (!form.course.is_empty()).then_some(form.course).into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enquiry::{Enquiry, EnquiryInput, EnquiryKind};

    #[test]
    fn a_reply_greets_by_first_name_signs_off_and_quotes_what_was_asked() {
        let enquiry = EnquiryDetails {
            name: "Amelia Hart".into(),
            email: " amelia@example.org ".into(),
            message: "Do you run lip filler courses at weekends?\n\nThanks".into(),
            ..EnquiryDetails::default()
        };
        let mail =
            reply_mail(&enquiry, "Yes: every other Saturday.", "Sam Staff", "Calderbrook Academy", "hello@calderbrook.test").unwrap();
        assert_eq!(mail.to, "amelia@example.org");
        assert_eq!(mail.reply_to.as_deref(), Some("hello@calderbrook.test"));
        assert_eq!(mail.subject, "Your enquiry to Calderbrook Academy");
        assert_eq!(
            mail.body,
            "Hello Amelia,\n\nYes: every other Saturday.\n\nSam Staff\nCalderbrook Academy\n\nYou wrote:\n\
             > Do you run lip filler courses at weekends?\n>\n> Thanks\n"
        );
        let phone_only = EnquiryDetails { name: "Bo".into(), phone: "07700 900123".into(), ..EnquiryDetails::default() };
        assert_eq!(reply_mail(&phone_only, "Hi", "Sam", "College", "a@b.test"), None, "no email, no mail");
    }

    #[test]
    fn a_reply_is_trimmed_and_kept_within_its_limit() {
        assert_eq!(reply_text("  Thank you  "), Some("Thank you".to_owned()));
        assert_eq!(reply_text(" \n "), None);
        assert!(reply_text(&"a".repeat(REPLY_LIMIT)).is_some());
        assert_eq!(reply_text(&"a".repeat(REPLY_LIMIT + 1)), None);
    }

    #[test]
    fn an_enquiry_reads_as_its_form_stored_it() {
        let input = EnquiryInput {
            name: "Ann".into(),
            email: "ann@example.org".into(),
            phone: "07700 900123".into(),
            company: "Glow Ltd".into(),
            message: "Training for four".into(),
            course: "Chemical Peels Course".into(),
            ..Default::default()
        };
        let stored = serde_json::to_string(&Enquiry::parse(EnquiryKind::Business, input).unwrap()).unwrap();
        let details = EnquiryDetails::read("business", &stored);
        assert_eq!((details.name.as_str(), details.phone.as_str()), ("Ann", "+447700900123"));
        assert_eq!(details.message, "Company: Glow Ltd\n\nTraining for four");
        assert_eq!(details.courses, ["Chemical Peels Course"]);
    }

    #[test]
    fn a_payment_plan_request_names_its_courses() {
        let stored = r#"{"first_name":"Sam","last_name":"Lee","email":"sam@example.com","phone_number":"+447700900123",
            "courses":["Chemical Peels Course","Dermaplaning"],"type":"finance"}"#;
        let details = EnquiryDetails::read("finance", stored);
        assert_eq!((details.name.as_str(), details.phone.as_str()), ("Sam Lee", "+447700900123"));
        assert_eq!(details.courses, ["Chemical Peels Course", "Dermaplaning"]);
        assert_eq!(EnquiryDetails::read("contact", "not json"), EnquiryDetails::default());
    }

    #[test]
    fn statuses_and_notes() {
        for status in [EnquiryStatus::New, EnquiryStatus::InProgress, EnquiryStatus::Done] {
            assert_eq!(EnquiryStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(EnquiryStatus::parse("closed"), None);
        assert_eq!(note_text("  Called back, booked  ").as_deref(), Some("Called back, booked"));
        assert_eq!(note_text(" "), None);
        assert_eq!(note_text(&"x".repeat(NOTE_LIMIT + 1)), None);
        assert!(note_text(&"é".repeat(NOTE_LIMIT)).is_some());
    }
}
