//! A person's names, email and phone number, checked by one rule wherever a
//! form takes them: the checkout, the payment-plan form, the enquiry
//! forms and sign-up.

use std::collections::BTreeMap;

use crate::phone;

/// Field name to the message shown beside it.
pub type FieldErrors = BTreeMap<&'static str, &'static str>;

/// The longest name, email or other short text a form takes, in characters.
pub const TEXT_LIMIT: usize = 200;
pub const TOO_LONG: &str = "Please keep this under 200 characters";
const INVALID_EMAIL: &str = "Enter a valid email address";
const INVALID_PHONE: &str = "Enter a valid phone number";

/// `name@domain.tld`, with no spaces and one `@`.
pub fn is_valid_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && email.len() <= 254
}

/// A UK-style number: digits, spaces, an optional leading `+`, and 10 to 15 digits.
pub fn is_valid_phone(raw: &str) -> bool {
    let digits = raw.chars().filter(char::is_ascii_digit).count();
    let allowed = raw.trim().chars().enumerate().all(|(i, c)| c.is_ascii_digit() || c == ' ' || (c == '+' && i == 0));
    allowed && (10..=15).contains(&digits)
}

/// One field as a form sends it: its key in the form's errors, its value,
/// and the message shown when it is required but empty (`None`: optional).
#[derive(Debug, Clone, Copy)]
pub struct Field<'a> {
    pub key: &'static str,
    pub value: &'a str,
    pub required: Option<&'static str>,
}

/// The contact fields of one form; `family_name` is absent on forms with a
/// single name field.
#[derive(Debug, Clone, Copy)]
pub struct PersonFields<'a> {
    pub given_name: Field<'a>,
    pub family_name: Option<Field<'a>>,
    pub email: Field<'a>,
    pub phone: Field<'a>,
}

/// Contact details that passed [`check`], and only those: trimmed, none
/// over [`TEXT_LIMIT`], the email lower-cased and well formed, the phone
/// number valid and in +44 form. Fields that were not given are empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    given_name: String,
    family_name: String,
    email: String,
    phone: String,
}

impl Person {
    pub fn given_name(&self) -> &str {
        &self.given_name
    }

    pub fn family_name(&self) -> &str {
        &self.family_name
    }

    pub fn email(&self) -> &str {
        &self.email
    }

    /// In +44 form, or empty.
    pub fn phone(&self) -> &str {
        &self.phone
    }

    /// The four values, for building a form's checked record.
    pub fn into_parts(self) -> [String; 4] {
        [self.given_name, self.family_name, self.email, self.phone]
    }
}

/// Adds what is wrong with `fields` to `errors` (a form may have found
/// problems with its other fields already); the checked person when these
/// fields are all right.
pub fn check(fields: PersonFields<'_>, errors: &mut FieldErrors) -> Option<Person> {
    let before = errors.len();
    let mut text = |field: Field<'_>| -> String {
        let value = field.value.trim();
        match field.required {
            Some(message) if value.is_empty() => {
                errors.insert(field.key, message);
            }
            _ if value.chars().count() > TEXT_LIMIT => {
                errors.insert(field.key, TOO_LONG);
            }
            _ => {}
        }
        value.to_owned()
    };
    let given_name = text(fields.given_name);
    let family_name = fields.family_name.map(&mut text).unwrap_or_default();
    let email = text(fields.email).to_lowercase();
    let phone = text(fields.phone);
    if !email.is_empty() && !errors.contains_key(fields.email.key) && !is_valid_email(&email) {
        errors.insert(fields.email.key, INVALID_EMAIL);
    }
    if !phone.is_empty() && !errors.contains_key(fields.phone.key) && !is_valid_phone(&phone) {
        errors.insert(fields.phone.key, INVALID_PHONE);
    }
    if errors.len() > before {
        return None;
    }
    let phone = if phone.is_empty() { String::new() } else { phone::to_international(&phone) };
    Some(Person { given_name, family_name, email, phone })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields<'a>(given: &'a str, family: &'a str, email: &'a str, phone: &'a str, required: bool) -> PersonFields<'a> {
        let field = |key, value, message| Field { key, value, required: required.then_some(message) };
        PersonFields {
            given_name: field("name", given, "Name is required"),
            family_name: Some(field("surname", family, "Last name is required")),
            email: field("email", email, "Email is required"),
            phone: field("phone", phone, "Phone number is required"),
        }
    }

    #[test]
    fn a_checked_person_is_trimmed_lower_cased_and_in_international_form() {
        let person = check(fields(" Sam ", " Lee", "Sam@Example.COM ", "07700 900123", true), &mut FieldErrors::new()).unwrap();
        assert_eq!(person.into_parts(), ["Sam", "Lee", "sam@example.com", "+447700900123"]);
    }

    #[test]
    fn required_fields_say_what_is_missing_and_optional_ones_may_be_empty() {
        let mut errors = FieldErrors::new();
        assert!(check(fields("", "", "", "", true), &mut errors).is_none());
        assert_eq!(errors.len(), 4);
        assert_eq!(errors["surname"], "Last name is required");
        let person = check(fields("", "", "", "", false), &mut FieldErrors::new()).unwrap();
        assert_eq!(person.into_parts(), ["", "", "", ""]);
    }

    #[test]
    fn what_is_given_must_be_valid_and_within_the_limit() {
        let mut errors = FieldErrors::new();
        let long = "x".repeat(TEXT_LIMIT + 1);
        assert!(check(fields(&long, "Lee", "sam@", "12ab", false), &mut errors).is_none());
        assert_eq!(errors["name"], TOO_LONG);
        assert_eq!(errors["email"], INVALID_EMAIL);
        assert_eq!(errors["phone"], INVALID_PHONE);
        assert!(check(fields(&"x".repeat(TEXT_LIMIT), "Lee", "", "", false), &mut FieldErrors::new()).is_some());
    }

    #[test]
    fn errors_found_before_are_kept_and_refuse_nothing_here() {
        let mut errors = FieldErrors::from([("message", "Message is required")]);
        assert!(check(fields("Sam", "Lee", "sam@example.com", "", false), &mut errors).is_some());
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn emails_and_phone_numbers() {
        assert!(is_valid_email("ann.lee+course@example.co.uk"));
        for bad in ["", "ann", "ann@", "@example.org", "ann@example", "ann@@example.org", "ann lee@example.org", "ann@.org"] {
            assert!(!is_valid_email(bad), "{bad}");
        }
        assert!(is_valid_phone("+44 7700 900123") && is_valid_phone("07700900123"));
        assert!(!is_valid_phone("0770-090") && !is_valid_phone("12345"));
    }
}
