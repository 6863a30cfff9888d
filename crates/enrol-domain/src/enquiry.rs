//! Enquiries sent through the site's forms: contact, callback request,
//! business training and model sign-up. Parsed into a checked shape or a
//! message per field that a person can act on.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::contact::{self, FieldErrors, PersonFields, TEXT_LIMIT, TOO_LONG};
use crate::mail::Mail;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum EnquiryKind {
    Contact,
    Callback,
    Business,
    Models,
}

impl EnquiryKind {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "contact" => Some(Self::Contact),
            "callback" => Some(Self::Callback),
            "business" => Some(Self::Business),
            "models" => Some(Self::Models),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Contact => "contact",
            Self::Callback => "callback",
            Self::Business => "business",
            Self::Models => "models",
        }
    }

    /// How the college's inbox names it.
    pub fn subject(self) -> &'static str {
        match self {
            Self::Contact => "Website enquiry",
            Self::Callback => "Callback request",
            Self::Business => "Business training enquiry",
            Self::Models => "Model sign-up",
        }
    }

    fn required(self) -> &'static [Field] {
        use Field::*;
        match self {
            Self::Contact => &[Name, Email, Message],
            Self::Callback => &[Name, Phone],
            Self::Business => &[Company, Name, Email, Phone, Message],
            Self::Models => &[Name, Email, Phone, Treatment],
        }
    }
}

/// What a form sends; which fields matter depends on the kind.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct EnquiryInput {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: String,
    pub message: String,
    pub treatment: String,
    pub best_time: String,
    pub course: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Name,
    Email,
    Phone,
    Company,
    Message,
    Treatment,
}

impl Field {
    fn key(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Email => "email",
            Field::Phone => "phone",
            Field::Company => "company",
            Field::Message => "message",
            Field::Treatment => "treatment",
        }
    }

    fn required_message(self) -> &'static str {
        match self {
            Field::Name => "Name is required",
            Field::Email => "Email is required",
            Field::Phone => "Phone number is required",
            Field::Company => "Company is required",
            Field::Message => "Message is required",
            Field::Treatment => "Please choose a treatment",
        }
    }

    fn value(self, input: &EnquiryInput) -> &str {
        match self {
            Field::Name => &input.name,
            Field::Email => &input.email,
            Field::Phone => &input.phone,
            Field::Company => &input.company,
            Field::Message => &input.message,
            Field::Treatment => &input.treatment,
        }
    }
}

/// A checked enquiry: trimmed text, phone in +44 form, email lower-cased.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Enquiry {
    pub kind: EnquiryKind,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub company: String,
    pub message: String,
    pub treatment: String,
    pub best_time: String,
    pub course: String,
}

const MESSAGE_LIMIT: usize = 5000;

impl Enquiry {
    pub fn parse(kind: EnquiryKind, input: EnquiryInput) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let required = kind.required();
        let field = |field: Field| contact::Field {
            key: field.key(),
            value: field.value(&input),
            required: required.contains(&field).then(|| field.required_message()),
        };
        for &other in required.iter().filter(|f| ![Field::Name, Field::Email, Field::Phone].contains(f)) {
            if other.value(&input).trim().is_empty() {
                errors.insert(other.key(), other.required_message());
            }
        }
        for (key, value, limit, message) in [
            ("company", &input.company, TEXT_LIMIT, TOO_LONG),
            ("treatment", &input.treatment, TEXT_LIMIT, TOO_LONG),
            ("bestTime", &input.best_time, TEXT_LIMIT, TOO_LONG),
            ("course", &input.course, TEXT_LIMIT, TOO_LONG),
            ("message", &input.message, MESSAGE_LIMIT, "Please keep your message under 5,000 characters"),
        ] {
            if !errors.contains_key(key) && value.chars().count() > limit {
                errors.insert(key, message);
            }
        }
        let person = contact::check(
            PersonFields { given_name: field(Field::Name), family_name: None, email: field(Field::Email), phone: field(Field::Phone) },
            &mut errors,
        );
        let Some(person) = person.filter(|_| errors.is_empty()) else { return Err(errors) };
        let [name, _, email, phone] = person.into_parts();
        Ok(Enquiry {
            kind,
            name,
            email,
            phone,
            company: input.company.trim().to_owned(),
            message: input.message.trim().to_owned(),
            treatment: input.treatment.trim().to_owned(),
            best_time: input.best_time.trim().to_owned(),
            course: input.course.trim().to_owned(),
        })
    }

    /// The mail that tells the enquirer the college has their enquiry,
    /// when they gave an address. It repeats nothing they typed, not even
    /// their name: the form cannot be used to send someone else words of
    /// the sender's choosing from the college.
    pub fn acknowledgement(&self, college: &str, phone: &str) -> Option<Mail> {
        if self.email.is_empty() {
            return None;
        }
        let (subject, lead) = match self.kind {
            EnquiryKind::Contact => {
                ("We have your message", "Thank you for your message. One of our team will reply within one working day.")
            }
            EnquiryKind::Callback => {
                ("We will call you back", "Thank you for asking us to call. One of our team will call you within one working day.")
            }
            EnquiryKind::Business => (
                "We have your business training enquiry",
                "Thank you for your enquiry about training for your business. Our business team will reply within one working day.",
            ),
            EnquiryKind::Models => (
                "We have your model sign-up",
                "Thank you for signing up as a model. When a course needs a model for the treatment you chose, we will contact you with dates.",
            ),
        };
        Some(Mail {
            to: self.email.clone(),
            reply_to: None,
            subject: format!("{subject}: {college}"),
            body: format!(
                "Hello,\n\n{lead}\n\nIf it is urgent, call us on {phone}. If you did not contact {college}, you can ignore this email.\n\n{college}\n"
            ),
            attachment: None,
        })
    }

    /// The plain-text mail to the college.
    pub fn mail_body(&self) -> String {
        let mut body = format!("{} from the website\n\n", self.kind.subject());
        for (label, value) in [
            ("Name", &self.name),
            ("Email", &self.email),
            ("Phone", &self.phone),
            ("Company", &self.company),
            ("Treatment", &self.treatment),
            ("Best time to call", &self.best_time),
            ("Course", &self.course),
        ] {
            if !value.is_empty() {
                body.push_str(&format!("{label}: {value}\n"));
            }
        }
        if !self.message.is_empty() {
            body.push_str(&format!("\nMessage:\n{}\n", self.message));
        }
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: &str, email: &str, phone: &str, message: &str) -> EnquiryInput {
        EnquiryInput { name: name.into(), email: email.into(), phone: phone.into(), message: message.into(), ..Default::default() }
    }

    #[test]
    fn a_contact_needs_name_email_and_message() {
        let errors = Enquiry::parse(EnquiryKind::Contact, EnquiryInput::default()).unwrap_err();
        assert_eq!(errors.get("name"), Some(&"Name is required"));
        assert_eq!(errors.get("email"), Some(&"Email is required"));
        assert_eq!(errors.get("message"), Some(&"Message is required"));
        assert!(!errors.contains_key("phone"));
    }

    #[test]
    fn a_callback_needs_a_phone_number() {
        let errors = Enquiry::parse(EnquiryKind::Callback, input("Ann", "", "", "")).unwrap_err();
        assert_eq!(errors.get("phone"), Some(&"Phone number is required"));
        assert_eq!(errors.len(), 1);
        let ok = Enquiry::parse(EnquiryKind::Callback, input(" Ann ", "", "07700 900123", "")).unwrap();
        assert_eq!(ok.phone, "+447700900123");
        assert_eq!(ok.name, "Ann");
    }

    #[test]
    fn bad_email_and_phone_are_explained() {
        let errors = Enquiry::parse(EnquiryKind::Contact, input("Ann", "ann@", "12ab", "Hi")).unwrap_err();
        assert_eq!(errors.get("email"), Some(&"Enter a valid email address"));
        assert_eq!(errors.get("phone"), Some(&"Enter a valid phone number"));
    }

    #[test]
    fn business_and_models_have_their_own_required_fields() {
        let errors = Enquiry::parse(EnquiryKind::Business, input("Ann", "ann@example.org", "07700900123", "Hi")).unwrap_err();
        assert_eq!(errors.keys().copied().collect::<Vec<_>>(), ["company"]);
        let errors = Enquiry::parse(EnquiryKind::Models, input("Ann", "ann@example.org", "07700900123", "")).unwrap_err();
        assert_eq!(errors.keys().copied().collect::<Vec<_>>(), ["treatment"]);
    }

    #[test]
    fn overlong_text_is_refused() {
        let errors = Enquiry::parse(EnquiryKind::Contact, input("Ann", "ann@example.org", "", &"x".repeat(5001))).unwrap_err();
        assert!(errors.contains_key("message"));
    }

    #[test]
    fn the_mail_lists_what_was_given() {
        let enquiry = Enquiry::parse(EnquiryKind::Contact, input("Ann", "Ann@Example.org", "", "About lip fillers")).unwrap();
        let body = enquiry.mail_body();
        assert!(body.contains("Name: Ann\n") && body.contains("Email: ann@example.org\n"));
        assert!(body.contains("About lip fillers") && !body.contains("Phone:"));
    }
}
