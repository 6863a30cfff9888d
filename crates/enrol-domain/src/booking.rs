//! The booking rules that decide what an order may hold and what a payment
//! does to it (decision 009). The database carries the decisions
//! out inside its transactions; the HTTP layer turns refusals into answers.

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};

use crate::calendar::{TrainingEvent, calendar};

use crate::enrollment::{BookedCourse, PaymentMode, Quote, balance_due_at_once, balance_due_on, first_training_day};
use crate::london::long_date;
use crate::mail::{Attachment, Mail};
use crate::money::Money;
use crate::page::{EnrollmentStatus, SessionType};
use crate::receipt::IssuedDocument;

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
mod tests {
    use super::*;
    use crate::enrollment::LinePrice;

    fn at(minutes: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
    }

    #[test]
    fn a_hold_is_renewed_for_twenty_minutes_but_never_past_its_life() {
        let ends = at(45);
        assert_eq!(renewed_hold(at(0), ends), Some(at(20)));
        assert_eq!(renewed_hold(at(30), ends), Some(at(45)));
        assert_eq!(renewed_hold(at(45), ends), None);
        assert_eq!(renewed_hold(at(90), ends), None);
    }

    fn quote() -> Quote {
        Quote::new(&[LinePrice { price: Money::from_pence(69_500), kit_pounds: None, code_applies: true }], None)
    }

    #[test]
    fn a_booking_fee_pays_a_deposit_and_a_full_payment_completes() {
        let q = quote();
        assert_eq!(
            checkout_payment(EnrollmentStatus::Pending, PaymentMode::Fee, &q, Money::ZERO, q.deposit),
            CheckoutPayment::Paid { status: EnrollmentStatus::Deposit, excess: Money::ZERO }
        );
        assert_eq!(
            checkout_payment(EnrollmentStatus::Pending, PaymentMode::Full, &q, Money::ZERO, q.total),
            CheckoutPayment::Paid { status: EnrollmentStatus::Completed, excess: Money::ZERO }
        );
    }

    #[test]
    fn too_little_is_underpaid_and_too_much_is_given_back() {
        let q = quote();
        let short = Money::from_pence(q.deposit.pence() - 1);
        assert_eq!(checkout_payment(EnrollmentStatus::Pending, PaymentMode::Fee, &q, Money::ZERO, short), CheckoutPayment::Underpaid);
        assert_eq!(
            checkout_payment(EnrollmentStatus::Pending, PaymentMode::Fee, &q, short, q.deposit),
            CheckoutPayment::Paid { status: EnrollmentStatus::Deposit, excess: short }
        );
    }

    #[test]
    fn a_second_payment_of_a_paid_order_is_given_back_whole() {
        let q = quote();
        for status in [EnrollmentStatus::Deposit, EnrollmentStatus::Completed, EnrollmentStatus::Cancelled] {
            assert_eq!(checkout_payment(status, PaymentMode::Fee, &q, q.deposit, q.deposit), CheckoutPayment::AlreadyPaid);
        }
    }

    #[test]
    fn a_failed_order_paid_later_is_still_paid() {
        let q = quote();
        assert_eq!(
            checkout_payment(EnrollmentStatus::Failed, PaymentMode::Fee, &q, Money::ZERO, q.deposit),
            CheckoutPayment::Paid { status: EnrollmentStatus::Deposit, excess: Money::ZERO }
        );
    }

    static RECEIPT: std::sync::LazyLock<IssuedDocument> = std::sync::LazyLock::new(|| IssuedDocument {
        kind: crate::receipt::DocumentKind::Receipt,
        number: "RCT-000001".to_owned(),
        url: "https://academy.example/api/receipts/RCT-000001?token=t0k3n".to_owned(),
    });

    fn booking<'a>(email: &'a str, courses: &'a [BookedCourse], quote: &'a Quote) -> PaidBooking<'a> {
        PaidBooking {
            order_id: "o-1",
            reference: "B-Z20KM",
            given_name: "Sam",
            family_name: "Lee",
            email,
            contact_number: "+447700900123",
            courses,
            quote,
            mode: PaymentMode::Fee,
            paid_on: NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
            times: &[],
            venue: "27 Larkspur Row, Manchester",
            receipt: &RECEIPT,
            pay_url: "https://academy.example/pay-balance/?token=p4y",
            what_to_bring: &[],
        }
    }

    fn booked(title: &str, day: Option<(i32, u32, u32)>, kit: Option<(&str, i64)>, price: i64) -> BookedCourse {
        BookedCourse {
            course_id: title.to_lowercase(),
            event_id: title.to_lowercase(),
            session_id: day.map(|_| format!("{title}-s1")),
            title: title.to_owned(),
            url: format!("/courses/aesthetics/{}/", title.to_lowercase()),
            date: day.map(|(y, m, d)| NaiveDate::from_ymd_opt(y, m, d).unwrap()),
            session_type: day.map(|_| crate::page::SessionType::Onsite),
            kit_name: kit.map(|(name, _)| name.to_owned()),
            kit_pounds: kit.map(|(_, pounds)| pounds),
            price: Money::from_pence(price),
        }
    }

    fn course() -> BookedCourse {
        booked("Chemical peels", Some((2027, 1, 12)), None, 69_500)
    }

    #[test]
    fn the_confirmation_states_the_booking_the_payment_and_the_balance() {
        let courses =
            [booked("Botox", Some((2027, 1, 20)), Some(("starter kit", 95)), 125_000), booked("Peels", Some((2027, 1, 12)), None, 45_000)];
        let prices: Vec<LinePrice> = courses.iter().map(BookedCourse::line_price).collect();
        let quote = Quote::new(&prices, Some(crate::enrollment::Discount { kind: crate::enrollment::DiscountType::Percent, value: 10 }));
        let body = booking("sam@example.com", &courses, &quote).confirmation("Example Academy");
        assert!(body.starts_with("Dear Sam,"));
        assert!(body.contains("Botox - Wednesday 20 January 2027, with the starter kit: £1,345.00"), "{body}");
        assert!(body.contains("Peels - Tuesday 12 January 2027: £450.00"));
        assert!(body.contains("Discount: -£179.50"));
        assert!(body.contains("Paid today: £200.00"));
        assert!(body.contains("Balance to pay: £1,415.50, due by Tuesday 29 December 2026."), "{body}");
        assert!(body.contains("\nYour receipt RCT-000001: https://academy.example/api/receipts/RCT-000001?token=t0k3n\n"), "{body}");
        let late = PaidBooking { paid_on: NaiveDate::from_ymd_opt(2027, 1, 2).unwrap(), ..booking("sam@example.com", &courses, &quote) };
        assert!(
            late.confirmation("Example Academy")
                .contains("due now, as your training starts within 14 days.\nPay online: https://academy.example/pay-balance/?token=p4y\n"),
            "a balance due now comes with the link to pay it"
        );
        let full = PaidBooking { given_name: "", mode: PaymentMode::Full, ..booking("", &courses, &quote) }.confirmation("Example Academy");
        assert!(full.starts_with("Hello,") && full.contains("Your training is paid in full."));
        assert!(!full.contains("What to bring"), "nothing to bring, no heading");
        let bring = ["Photo ID".to_owned(), "A notepad and pen".to_owned()];
        let listed = PaidBooking { what_to_bring: &bring, ..booking("sam@example.com", &courses, &quote) }.confirmation("Example Academy");
        assert!(listed.contains("\nWhat to bring:\n- Photo ID\n- A notepad and pen\n"), "{listed}");
    }

    fn times(session_type: SessionType, joining_link: Option<&str>) -> SessionTimes {
        let day = NaiveDate::from_ymd_opt(2027, 1, 12).unwrap();
        SessionTimes {
            session_id: "Chemical peels-s1".to_owned(),
            starts: day.and_hms_opt(9, 30, 0).unwrap(),
            ends: day.and_hms_opt(16, 30, 0).unwrap(),
            session_type,
            joining_link: joining_link.map(str::to_owned),
        }
    }

    #[test]
    fn a_seated_booking_confirms_to_the_buyer_only_with_its_calendar_invite() {
        let (q, courses, times) = (quote(), [course()], [times(SessionType::Onsite, None)]);
        let booking = PaidBooking { times: &times, ..booking("sam@example.com", &courses, &q) };
        let mails = booking_mails(&booking, true, "Example Academy", "office@example.com", at(0));
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0].to, "sam@example.com");
        assert_eq!(mails[0].subject, "Your Example Academy booking is confirmed");
        assert!(mails[0].body.contains("Paid today: £100.00"), "{}", mails[0].body);
        assert!(mails[0].body.contains("Booking reference B-Z20KM"), "{}", mails[0].body);
        assert!(mails[0].body.contains("09:30 to 16:30. At the academy: 27 Larkspur Row, Manchester."), "{}", mails[0].body);
        let invite = mails[0].attachment.as_ref().expect("a calendar invite");
        assert_eq!((invite.name.as_str(), invite.content_type.as_str()), ("booking.ics", "text/calendar; charset=utf-8; method=PUBLISH"));
        assert!(invite.body.contains("UID:booking-o-1-chemical peels@enrol\r\n"), "{}", invite.body);
        assert!(invite.body.contains("DTSTART;TZID=Europe/London:20270112T093000\r\n"), "{}", invite.body);
        assert!(invite.body.contains("LOCATION:27 Larkspur Row\\, Manchester\r\n"), "{}", invite.body);
        let unseated = booking_mails(&booking, false, "Example Academy", "office@example.com", at(0));
        assert!(unseated.iter().all(|m| m.attachment.is_none()), "no invite for a seat the booking does not have");
    }

    fn training<'a>(order_id: &'a str, courses: &'a [BookedCourse], times: &'a [SessionTimes], venue: &'a str) -> BookedTraining<'a> {
        BookedTraining { order_id, reference: "B-Z20KM", sequence: 0, courses, times, venue }
    }

    #[test]
    fn virtual_training_says_how_to_join() {
        let venue = "27 Larkspur Row, Manchester";
        let link = "https://meet.example.com/peels";
        let online = times(SessionType::Virtual, Some(link));
        assert_eq!(
            online.joining_instructions(venue),
            "Join online at https://meet.example.com/peels. Please join ten minutes early on a computer with a camera and microphone, in a quiet room."
        );
        assert_eq!(
            times(SessionType::Virtual, None).joining_instructions(venue),
            "We will email your joining link and instructions before the day."
        );
        assert!(
            times(SessionType::Blended, Some(link))
                .joining_instructions(venue)
                .starts_with("Online and at the academy (27 Larkspur Row, Manchester). Join online at")
        );
        let courses = [course()];
        let invite = training("o-1", &courses, std::slice::from_ref(&online), venue)
            .calendar("Example Academy", "office@example.com", at(0))
            .unwrap();
        assert!(
            invite.body.contains("URL:https://meet.example.com/peels\r\n")
                && invite.body.contains("LOCATION:https://meet.example.com/peels\r\n"),
            "{}",
            invite.body
        );
        assert!(
            training("o-1", &courses, &[], venue).calendar("Example Academy", "office@example.com", at(0)).is_none(),
            "undated: no invite"
        );
    }

    #[test]
    fn a_booking_without_its_seat_asks_the_college_to_call() {
        let (q, courses) = (quote(), [course()]);
        let mails = booking_mails(&booking("sam@example.com", &courses, &q), false, "Example Academy", "office@example.com", at(0));
        assert_eq!(mails.iter().map(|m| m.to.as_str()).collect::<Vec<_>>(), ["office@example.com", "sam@example.com"]);
        assert!(mails[0].subject.contains("B-Z20KM") && mails[0].body.contains("call Sam Lee on +447700900123"), "{}", mails[0].body);
        let unnamed = booking_mails(&booking("", &courses, &q), false, "Example Academy", "office@example.com", at(0));
        assert_eq!(unnamed.len(), 1, "no confirmation without an address");
        assert!(booking_mails(&booking("", &courses, &q), true, "Example Academy", "office@example.com", at(0)).is_empty());
    }
}
