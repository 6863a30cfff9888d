//! The booking rules that decide what an order may hold and what a payment
//! does to it (decision 009). The database carries the decisions
//! out inside its transactions; the HTTP layer turns refusals into answers.

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};

use crate::calendar::{TrainingEvent, calendar};

use crate::enrollment::{BookedCourse, PaymentMode, Quote, balance_due_at_once, balance_due_on, first_training_day};
use crate::issued_document::IssuedDocument;
use crate::london::long_date;
use crate::mail::{Attachment, Mail};
use crate::money::Money;
use crate::page::{EnrollmentStatus, SessionType};

/// How long an unpaid order keeps its seats and its code use.
pub const SEAT_HOLD: Duration = Duration::minutes(20);
/// The longest an order's seats may be kept in all, however often it is
/// renewed (changed, or its payment prepared again).
pub const HOLD_LIFE: Duration = Duration::minutes(45);
/// Unpaid orders one client may hold seats for at once.
pub const MAX_LIVE_ORDERS_PER_CLIENT: i64 = 5;

/// When a hold made or renewed at `now` runs out: twenty minutes on, but
/// never past `hold_ends_at`. `None` once the hold's life is over.
pub fn renewed_hold(now: DateTime<Utc>, hold_ends_at: DateTime<Utc>) -> Option<DateTime<Utc>> {
    (now < hold_ends_at).then(|| (now + SEAT_HOLD).min(hold_ends_at))
}

/// Why an order could not be made or kept as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookingRefused {
    #[error("session {session_id} has no free seat")]
    SessionFull { session_id: String },
    #[error("the discount code {code} has been used as often as it may be")]
    CodeUsedUp { code: String },
    #[error("this client already holds seats for as many unpaid orders as it may")]
    TooManyHolds,
    #[error("this client has sent as many costly requests as it may for now")]
    TooManyRequests,
    #[error("the order's seats were held for as long as they may be")]
    HoldEnded,
}

/// What a successful checkout payment does to its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckoutPayment {
    /// The order is paid: its new status, and what was paid beyond what
    /// this checkout asked for (given back).
    Paid { status: EnrollmentStatus, excess: Money },
    /// Less than the order asked for: recorded for a person to check.
    Underpaid,
    /// The order was paid already (or paid and then cancelled): this
    /// payment is given back whole.
    AlreadyPaid,
}

/// Decides a checkout payment of `amount` for an order in `status` that
/// had `paid_before` recorded. An order is paid once (pretix: payments −
/// refunds ≥ what is due); anything more is an overpayment to refund.
pub fn checkout_payment(status: EnrollmentStatus, mode: PaymentMode, quote: &Quote, paid_before: Money, amount: Money) -> CheckoutPayment {
    if matches!(status, EnrollmentStatus::Deposit | EnrollmentStatus::Completed | EnrollmentStatus::Cancelled) {
        return CheckoutPayment::AlreadyPaid;
    }
    let paid = paid_before + amount;
    let due = quote.amount_due(mode);
    if paid < due {
        return CheckoutPayment::Underpaid;
    }
    let status = if paid >= quote.total { EnrollmentStatus::Completed } else { EnrollmentStatus::Deposit };
    CheckoutPayment::Paid { status, excess: Money::from_pence(paid.pence() - due.pence()) }
}

/// When and how one booked session runs: its calendar entry and the
/// joining instructions of virtual and blended training.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionTimes {
    pub session_id: String,
    /// London wall-clock times.
    pub starts: NaiveDateTime,
    pub ends: NaiveDateTime,
    pub session_type: SessionType,
    /// The virtual classroom's address, once the college has set it.
    pub joining_link: Option<String>,
}

impl SessionTimes {
    /// Where the training happens, for a calendar entry.
    fn location(&self, venue: &str) -> String {
        match (self.session_type, &self.joining_link) {
            (SessionType::Virtual, Some(link)) => link.clone(),
            (SessionType::Virtual, None) => "Online".to_owned(),
            (SessionType::Onsite | SessionType::Blended, _) => venue.to_owned(),
        }
    }

    /// How to join: on site, where; online, the link and what to have ready.
    pub fn joining_instructions(&self, venue: &str) -> String {
        let online = match &self.joining_link {
            Some(link) => {
                format!("Join online at {link}. Please join ten minutes early on a computer with a camera and microphone, in a quiet room.")
            }
            None => "We will email your joining link and instructions before the day.".to_owned(),
        };
        match self.session_type {
            SessionType::Onsite => format!("At the academy: {venue}. Please arrive fifteen minutes early."),
            SessionType::Virtual => online,
            SessionType::Blended => format!("Online and at the academy ({venue}). {online}"),
        }
    }
}

/// A booking's dated training, for its calendar file.
#[derive(Debug, Clone, Copy)]
pub struct BookedTraining<'a> {
    /// The booking's id, which keeps its calendar entries' UIDs.
    pub order_id: &'a str,
    /// What the student reads: `B-7K3P9`.
    pub reference: &'a str,
    /// How often its dates changed: calendar apps replace an entry whose
    /// sequence grew.
    pub sequence: u32,
    pub courses: &'a [BookedCourse],
    pub times: &'a [SessionTimes],
    /// Where on-site training happens.
    pub venue: &'a str,
}

impl BookedTraining<'_> {
    /// The calendar file: one entry per dated course, whose UID stays the
    /// same when its date changes, so calendar apps move it.
    pub fn calendar(&self, college: &str, college_email: &str, stamp: DateTime<Utc>) -> Option<Attachment> {
        let (order_id, reference, venue) = (self.order_id, self.reference, self.venue);
        let entries: Vec<(String, &BookedCourse, &SessionTimes, String, String)> = self
            .courses
            .iter()
            .filter_map(|course| {
                let session = self.times.iter().find(|t| Some(&t.session_id) == course.session_id.as_ref())?;
                let description = format!("{}\n\nBooking {reference} with {college}.", session.joining_instructions(venue));
                Some((format!("booking-{order_id}-{}@enrol", course.course_id), course, session, description, session.location(venue)))
            })
            .collect();
        if entries.is_empty() {
            return None;
        }
        let events: Vec<TrainingEvent<'_>> = entries
            .iter()
            .map(|(uid, course, session, description, location)| TrainingEvent {
                uid,
                sequence: self.sequence,
                summary: &course.title,
                description,
                location: Some(location),
                url: session.joining_link.as_deref(),
                starts: session.starts,
                ends: session.ends,
            })
            .collect();
        Some(Attachment {
            name: "booking.ics".to_owned(),
            content_type: "text/calendar; charset=utf-8; method=PUBLISH".to_owned(),
            body: calendar(&events, college, college_email, stamp),
        })
    }
}

/// A booking whose payment was accepted ([`CheckoutPayment::Paid`]), as
/// the mails about it tell it.
#[derive(Debug, Clone, Copy)]
pub struct PaidBooking<'a> {
    pub order_id: &'a str,
    /// What the student reads out: `B-7K3P9`.
    pub reference: &'a str,
    pub given_name: &'a str,
    pub family_name: &'a str,
    /// Trimmed and lower-cased; empty when the buyer gave none (Klarna and
    /// Clearpay ask for no contact details).
    pub email: &'a str,
    pub contact_number: &'a str,
    pub courses: &'a [BookedCourse],
    pub quote: &'a Quote,
    pub mode: PaymentMode,
    /// The London day the booking was paid: the balance of a booking made
    /// within 14 days of training is due that day.
    pub paid_on: NaiveDate,
    /// When and how its dated sessions run.
    pub times: &'a [SessionTimes],
    /// The college's address, where on-site training happens.
    pub venue: &'a str,
    /// The payment's receipt.
    pub receipt: &'a IssuedDocument,
    /// Where the balance is paid, signed in or not.
    pub pay_url: &'a str,
    /// What to bring to the training, from the courses' pages.
    pub what_to_bring: &'a [String],
}

impl PaidBooking<'_> {
    /// What the booking keeps of what was paid: anything beyond is refunded.
    pub fn paid(&self) -> Money {
        self.quote.amount_due(self.mode)
    }

    /// The student's booking confirmation (plain text): the courses and
    /// dates, the total, what was paid and what is left to pay by when, and
    /// the payment's receipt.
    pub fn confirmation(&self, college: &str) -> String {
        let greeting = if self.given_name.is_empty() { "Hello".to_owned() } else { format!("Dear {}", self.given_name) };
        let mut body = format!("{greeting},\n\nThank you for enrolling with {college}.\n\nBooking reference {}\n\n", self.reference);
        for course in self.courses {
            let when = course.date.map_or_else(|| "date to be arranged".to_owned(), long_date);
            body.push_str(&format!("{} - {when}", course.title));
            if let Some(kit) = &course.kit_name {
                body.push_str(&format!(", with the {kit}"));
            }
            body.push_str(&format!(": {}\n", course.line_price().amount()));
            if let Some(session) = self.times.iter().find(|t| Some(&t.session_id) == course.session_id.as_ref()) {
                body.push_str(&format!(
                    "  {} to {}. {}\n",
                    session.starts.format("%H:%M"),
                    session.ends.format("%H:%M"),
                    session.joining_instructions(self.venue)
                ));
            }
        }
        if self.quote.discount > Money::ZERO {
            body.push_str(&format!("Discount: -{}\n", self.quote.discount));
        }
        let paid = self.paid();
        body.push_str(&format!("\nTraining total: {}\nPaid today: {paid}\n", self.quote.total));
        let balance = Money::from_pence(self.quote.total.pence() - paid.pence());
        if balance > Money::ZERO {
            let due = match first_training_day(self.courses) {
                None => "due before your training".to_owned(),
                Some(day) if balance_due_at_once(Some(day), self.paid_on) => "due now, as your training starts within 14 days".to_owned(),
                Some(day) => format!("due by {}", long_date(balance_due_on(day, self.paid_on))),
            };
            body.push_str(&format!("Balance to pay: {balance}, {due}.\nPay online: {}\n", self.pay_url));
        } else {
            body.push_str("Your training is paid in full.\n");
        }
        if !self.what_to_bring.is_empty() {
            body.push_str("\nWhat to bring:\n");
            for item in self.what_to_bring {
                body.push_str(&format!("- {item}\n"));
            }
        }
        body.push('\n');
        body.push_str(&self.receipt.mail_line());
        body.push_str(
            "\nWe will be in touch before your training with everything you need to know. If you have any questions, reply to this email.\n",
        );
        body
    }
}

/// The mails a paid booking sends: the buyer's confirmation when there is
/// an address to send it to, and, when a seat could not be taken (`seated`
/// false: a session filled after the order's hold ran out), a request to
/// the college to call the student about another date.
pub fn booking_mails(booking: &PaidBooking<'_>, seated: bool, college: &str, college_address: &str, now: DateTime<Utc>) -> Vec<Mail> {
    let body = booking.confirmation(college);
    let mut mails = Vec::with_capacity(2);
    if !seated {
        mails.push(Mail {
            to: college_address.to_owned(),
            reply_to: None,
            subject: format!("Call needed: booking {} was paid after its seat was taken", booking.reference),
            body: format!(
                "The booking below was paid, but a session had filled up after its seat hold ran out. \
                 Please call {} {} on {} to choose another date.\n\n{body}",
                booking.given_name, booking.family_name, booking.contact_number
            ),
            attachment: None,
        });
    }
    if !booking.email.is_empty() {
        // The calendar invite, once the seats are the booking's.
        let attachment = seated
            .then(|| {
                let training = BookedTraining {
                    order_id: booking.order_id,
                    reference: booking.reference,
                    sequence: 0,
                    courses: booking.courses,
                    times: booking.times,
                    venue: booking.venue,
                };
                training.calendar(college, college_address, now)
            })
            .flatten();
        mails.push(Mail {
            to: booking.email.to_owned(),
            reply_to: None,
            subject: format!("Your {college} booking is confirmed"),
            body,
            attachment,
        });
    }
    mails
}

#[cfg(test)]
mod tests;
