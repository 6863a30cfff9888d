//! Waiting lists (decision 015): people wait for a full session in the
//! order they confirmed their place by a mailed link; a freed seat is
//! offered to the first, held for them for 48 hours behind a single-use
//! claim link (if they open it within a day), then passes on. The request
//! that joins a list, its limits, and the mails; the pages are
//! `crate::page`'s.

use chrono::{Duration, NaiveDate};
use serde::Deserialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::contact::{Field, FieldErrors, Person, PersonFields, check};
use crate::london::long_date;
use crate::mail::Mail;

/// How long a freed seat is kept for the person it is offered to.
pub const OFFER_LIFE: Duration = Duration::hours(48);
/// An offer whose link is not opened within this passes to the next
/// person: an address that never reads its mail holds a seat for a day,
/// not two.
pub const OFFER_OPEN_WITHIN: Duration = Duration::hours(24);
/// How long the link that confirms a place works; an unconfirmed place
/// is never offered anything, and lapses after it.
pub const CONFIRM_WITHIN: Duration = Duration::hours(24);
/// A confirmation asked for again is mailed again only after this, so
/// nobody can fill someone's inbox by asking.
pub const CONFIRM_RESEND_AFTER: Duration = Duration::minutes(15);
/// Places one client (an address, an IPv6 /64) may ask for in a day.
pub const JOINS_PER_CLIENT_PER_DAY: i64 = 5;
/// People one date's list holds: waiting, offered, or asked within a day
/// and not yet confirmed.
pub const LIST_LIMIT: i64 = 50;

/// `POST /api/waiting-list`: someone asks to wait for a full session.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(export)]
pub struct WaitingListRequest {
    pub session_id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    /// Optional: for a call when a seat frees.
    pub phone: String,
}

impl WaitingListRequest {
    /// The person's checked details, with the checkout's messages; the phone is optional.
    pub fn person(&self) -> Result<Person, FieldErrors> {
        let mut errors = FieldErrors::new();
        let person = check(
            PersonFields {
                given_name: Field { key: "firstName", value: &self.first_name, required: Some("Name is required") },
                family_name: Some(Field { key: "lastName", value: &self.last_name, required: Some("Last name is required") }),
                email: Field { key: "email", value: &self.email, required: Some("Email is required") },
                phone: Field { key: "phone", value: &self.phone, required: None },
            },
            &mut errors,
        );
        person.filter(|_| errors.is_empty()).ok_or(errors)
    }
}

/// The course and date a waiting-list mail is about.
#[derive(Debug, Clone, Copy)]
pub struct WaitedSession<'a> {
    pub given_name: &'a str,
    pub email: &'a str,
    pub title: &'a str,
    pub date: NaiveDate,
}

impl WaitedSession<'_> {
    fn what(&self) -> String {
        format!("{} on {}", self.title, long_date(self.date))
    }

    fn greeting(&self) -> String {
        if self.given_name.is_empty() { "Hello".to_owned() } else { format!("Dear {}", self.given_name) }
    }

    /// The link that confirms a place asked for: until it is opened,
    /// nobody waits.
    pub fn confirm(&self, confirm_url: &str, college: &str) -> Mail {
        Mail {
            to: self.email.to_owned(),
            reply_to: None,
            subject: format!("Confirm your place on the waiting list for {}", self.title),
            body: format!(
                "{},\n\nPlease confirm that you want to wait for a seat on {}: open this link within 24 hours and press \
                 \"Confirm my place\".\n{confirm_url}\n\nYour place in the queue counts from when you confirm. If you did not ask \
                 to join, ignore this mail: nobody is added without the link.\n\n{college}\n",
                self.greeting(),
                self.what()
            ),
            attachment: None,
        }
    }

    /// The confirmation of joining, with the link to leave.
    pub fn joined(&self, leave_url: &str, college: &str) -> Mail {
        Mail {
            to: self.email.to_owned(),
            reply_to: None,
            subject: format!("You are on the waiting list for {}", self.title),
            body: format!(
                "{},\n\nYou are on the waiting list for {}. If a seat frees, we offer it to the people waiting in the order they \
                 confirmed, by email, and keep it for them for 48 hours if they open the offer's link within 24 hours.\n\n\
                 No longer interested? Leave the list here:\n{leave_url}\n\n{college}\n",
                self.greeting(),
                self.what()
            ),
            attachment: None,
        }
    }

    /// The offer of a freed seat, kept until `expires` if the link is
    /// opened by `open_by` (London times, as words).
    pub fn offer(&self, claim_url: &str, open_by: &str, expires: &str, college: &str) -> Mail {
        Mail {
            to: self.email.to_owned(),
            reply_to: None,
            subject: format!("A seat is free for you: {}", self.title),
            body: format!(
                "{},\n\nGood news: a seat has freed on {}, and it is yours if you want it. Open this link by {open_by}, and we keep \
                 the seat for you until {expires}.\n\nClaim it and book here (the link works once):\n{claim_url}\n\nIf the link is not \
                 opened by then, or the seat not claimed in time, it is offered to the next person waiting. Not coming? Open the same \
                 link and give up your place, so that someone else can have it.\n\n{college}\n",
                self.greeting(),
                self.what()
            ),
            attachment: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joining_needs_a_name_and_an_email_and_takes_a_phone_in_plus_44_form() {
        let request = |first: &str, email: &str, phone: &str| WaitingListRequest {
            session_id: "s".to_owned(),
            first_name: first.to_owned(),
            last_name: "Lee".to_owned(),
            email: email.to_owned(),
            phone: phone.to_owned(),
        };
        let person = request("Sam", " Sam@Example.com ", "07700 900123").person().unwrap();
        assert_eq!((person.email(), person.phone()), ("sam@example.com", "+447700900123"));
        assert!(request("Sam", "sam@example.com", "").person().is_ok(), "the phone is optional");
        let errors = request("", "", "").person().unwrap_err();
        assert_eq!((errors.get("firstName"), errors.get("email")), (Some(&"Name is required"), Some(&"Email is required")));
    }

    #[test]
    fn the_mails_say_what_is_waited_for_and_how_to_claim_or_leave() {
        let waited = WaitedSession {
            given_name: "Sam",
            email: "sam@example.com",
            title: "Chemical Peels",
            date: NaiveDate::from_ymd_opt(2027, 1, 12).unwrap(),
        };
        let confirm = waited.confirm("https://college.example/waiting-list/confirm/?token=k", "Example Academy");
        assert_eq!(confirm.subject, "Confirm your place on the waiting list for Chemical Peels");
        assert!(confirm.body.contains("within 24 hours") && confirm.body.contains("confirm/?token=k"), "{}", confirm.body);
        let joined = waited.joined("https://college.example/waiting-list/leave/?token=l", "Example Academy");
        assert_eq!(joined.subject, "You are on the waiting list for Chemical Peels");
        assert!(joined.body.contains("Chemical Peels on Tuesday 12 January 2027") && joined.body.contains("leave/?token=l"));
        let offer = waited.offer(
            "https://c.example/waiting-list/claim/?token=c",
            "Thursday 7 January 2027 at 10:00",
            "Friday 8 January 2027 at 10:00",
            "Example Academy",
        );
        assert_eq!(offer.subject, "A seat is free for you: Chemical Peels");
        assert!(offer.body.contains("by Thursday 7 January 2027 at 10:00"), "{}", offer.body);
        assert!(offer.body.contains("until Friday 8 January 2027 at 10:00") && offer.body.contains("claim/?token=c"), "{}", offer.body);
    }
}
