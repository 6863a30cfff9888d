//! After the booking fee (decision 015): what may be paid towards
//! a booking's balance, what a balance payment does to it, which reminder a
//! booking is due and what each mail says. Pure rules; the database carries
//! them out in the transactions of the payment and of the reminder job.

use chrono::{Days, NaiveDate};

use crate::enrollment::{BookedCourse, PaymentMode};
use crate::issued_document::IssuedDocument;
use crate::london::long_date;
use crate::mail::Mail;
use crate::money::Money;
use crate::page::EnrollmentStatus;

/// The least a part-payment may be, unless less than that is left to pay.
pub const MIN_PART_PAYMENT: Money = Money::from_pence(1_000);
/// The first reminder goes this many days before the balance is due.
pub const UPCOMING_REMINDER_DAYS: u64 = 7;
/// The metadata `type` of a payment intent that pays a balance.
pub const BALANCE_METADATA_TYPE: &str = "balance";
/// How long a mailed payment link works.
pub const BALANCE_LINK_DAYS: i64 = 30;

/// What is left to pay of `total` once `paid` (payments less refunds) is counted; never below zero.
pub fn outstanding(total: Money, paid: Money) -> Money {
    Money::from_pence((total.pence() - paid.pence()).max(0))
}

/// Why a balance payment cannot be prepared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BalanceRefused {
    #[error("This booking has nothing left to pay.")]
    NothingOwed,
    #[error("This booking is not confirmed (its booking fee is unpaid, or it was cancelled), so it has no balance to pay.")]
    NotBooked,
    #[error("Please pay at least {0}.")]
    TooLittle(Money),
    #[error("Enter an amount above £0.00.")]
    NotPositive,
    #[error("The balance is {0}: please pay no more than that.")]
    TooMuch(Money),
}

/// Checks a payment of `amount` towards a booking in `status` with
/// `owed` left to pay. Paying everything left is paying in full (Klarna
/// and Clearpay pay the college in full, so they are offered only then);
/// anything less is a part-payment by card.
pub fn check_balance_amount(status: EnrollmentStatus, owed: Money, amount: Money) -> Result<PaymentMode, BalanceRefused> {
    check_owing(status, owed)?;
    if amount > owed {
        return Err(BalanceRefused::TooMuch(owed));
    }
    let least = if owed < MIN_PART_PAYMENT { owed } else { MIN_PART_PAYMENT };
    if amount < least {
        return Err(BalanceRefused::TooLittle(least));
    }
    Ok(if amount == owed { PaymentMode::Full } else { PaymentMode::Fee })
}

/// Whether a booking in `status` with `owed` left to pay has a balance to
/// pay at all: confirmed, and not paid in full.
pub fn check_owing(status: EnrollmentStatus, owed: Money) -> Result<(), BalanceRefused> {
    match status {
        EnrollmentStatus::Deposit if owed > Money::ZERO => Ok(()),
        EnrollmentStatus::Deposit | EnrollmentStatus::Completed => Err(BalanceRefused::NothingOwed),
        EnrollmentStatus::Pending | EnrollmentStatus::Failed | EnrollmentStatus::Cancelled => Err(BalanceRefused::NotBooked),
    }
}

/// What a balance payment that arrived does to its booking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BalancePayment {
    /// Counted towards the balance: the booking's new status, and what was
    /// paid beyond the balance (given back).
    Applied { status: EnrollmentStatus, applied: Money, excess: Money },
    /// Nothing was owed (paid in full already, or not a confirmed booking):
    /// the payment is given back whole.
    NotOwed,
}

/// Decides a balance payment of `amount` for a booking in `status` whose
/// payments so far (less refunds) are `paid_before`. The balance never goes
/// below zero: anything beyond it is an overpayment to refund.
pub fn balance_payment(status: EnrollmentStatus, total: Money, paid_before: Money, amount: Money) -> BalancePayment {
    let owed = outstanding(total, paid_before);
    if !matches!(status, EnrollmentStatus::Deposit | EnrollmentStatus::Completed) || owed == Money::ZERO {
        return BalancePayment::NotOwed;
    }
    let applied = if amount < owed { amount } else { owed };
    let status = if applied == owed { EnrollmentStatus::Completed } else { EnrollmentStatus::Deposit };
    BalancePayment::Applied { status, applied, excess: Money::from_pence(amount.pence() - applied.pence()) }
}

/// The reminders a booking with a balance gets, each once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BalanceReminder {
    /// A week before the balance is due.
    Upcoming,
    /// On the day it is due.
    Due,
    /// After the day it was due, before training starts.
    Overdue,
}

impl BalanceReminder {
    /// Latest first, as `reminder_due` looks for them.
    pub const ALL: [BalanceReminder; 3] = [BalanceReminder::Overdue, BalanceReminder::Due, BalanceReminder::Upcoming];

    pub fn as_str(self) -> &'static str {
        match self {
            BalanceReminder::Upcoming => "upcoming",
            BalanceReminder::Due => "due",
            BalanceReminder::Overdue => "overdue",
        }
    }

    /// Whether a balance due on `due_on` has reached this stage `today`:
    /// a reminder of a stage not reached says something untrue.
    pub fn reached(self, today: NaiveDate, due_on: NaiveDate) -> bool {
        match self {
            BalanceReminder::Upcoming => due_on.checked_sub_days(Days::new(UPCOMING_REMINDER_DAYS)).unwrap_or(due_on) <= today,
            BalanceReminder::Due => due_on <= today,
            BalanceReminder::Overdue => due_on < today,
        }
    }
}

/// The reminder a booking whose balance is due on `due_on`, whose training
/// starts on `starts_on` and which was paid on `paid_on`, is due `today`.
/// Only the latest stage reached is sent, so a job that was down for a
/// while sends one reminder that is still true, not every one it missed;
/// none once training has started (the college calls instead), and none on
/// the day of booking, whose confirmation already says what is due.
pub fn reminder_due(today: NaiveDate, due_on: NaiveDate, starts_on: NaiveDate, paid_on: NaiveDate) -> Option<BalanceReminder> {
    if today >= starts_on || today <= paid_on {
        return None;
    }
    BalanceReminder::ALL.into_iter().find(|stage| stage.reached(today, due_on))
}

/// `due by Sunday 27 December 2026`, or `due now` on or after the day.
pub fn due_words(due_on: NaiveDate, today: NaiveDate) -> String {
    if due_on <= today { "due now".to_owned() } else { format!("due by {}", long_date(due_on)) }
}

/// A booking's balance, as a mail tells it.
#[derive(Debug, Clone, Copy)]
pub struct BalanceNotice<'a> {
    /// What the student reads out: `B-7K3P9`.
    pub reference: &'a str,
    pub given_name: &'a str,
    pub email: &'a str,
    pub courses: &'a [BookedCourse],
    pub owed: Money,
    pub due_on: NaiveDate,
    /// Where the student pays, signed in or not.
    pub pay_url: &'a str,
}

impl BalanceNotice<'_> {
    fn greeting(&self) -> String {
        if self.given_name.is_empty() { "Hello".to_owned() } else { format!("Dear {}", self.given_name) }
    }

    fn courses(&self) -> String {
        self.courses
            .iter()
            .map(|c| format!("{} - {}\n", c.title, c.date.map_or_else(|| "date to be arranged".to_owned(), long_date)))
            .collect()
    }

    /// The reminder of `stage`, sent `today`.
    pub fn reminder(&self, stage: BalanceReminder, today: NaiveDate, college: &str) -> Mail {
        let (subject, lead) = match stage {
            BalanceReminder::Upcoming => (
                format!("Your balance of {} is due on {}", self.owed, long_date(self.due_on)),
                format!("This is a friendly reminder that the balance of your booking is {}.", due_words(self.due_on, today)),
            ),
            BalanceReminder::Due => {
                (format!("Your balance of {} is due today", self.owed), "The balance of your booking is due today.".to_owned())
            }
            BalanceReminder::Overdue => (
                format!("Your balance of {} is overdue", self.owed),
                format!(
                    "The balance of your booking was due on {}. Under our terms and conditions, a place whose balance is not paid \
                     before training starts may be offered to another student, and the booking fee is not refundable. Please pay \
                     now, or reply to this email if you would like to talk about a payment plan.",
                    long_date(self.due_on)
                ),
            ),
        };
        let body = format!(
            "{},\n\n{lead}\n\nBooking reference {}\n{}\nBalance to pay: {}\n\nPay securely online (you do not need to sign in):\n{}\n\n\
             You can pay the whole balance or part of it. If you have already paid, thank you: please ignore this email.\n\n{college}\n",
            self.greeting(),
            self.reference,
            self.courses(),
            self.owed,
            self.pay_url,
        );
        Mail { to: self.email.to_owned(), reply_to: None, subject, body, attachment: None }
    }
}

/// The student's mail of a balance payment of `applied` (and any `excess`
/// given back) made `today`, leaving `owed`, linking the payment's `receipt`.
pub fn balance_receipt(
    notice: &BalanceNotice<'_>,
    applied: Money,
    excess: Money,
    receipt: &IssuedDocument,
    college: &str,
    today: NaiveDate,
) -> Mail {
    let mut body = format!(
        "{},\n\nThank you: we have received your payment of {applied}.\n\nBooking reference {}\n{}\n",
        notice.greeting(),
        notice.reference,
        notice.courses()
    );
    if excess > Money::ZERO {
        body.push_str(&format!("You paid {excess} more than your balance: it is being refunded to you.\n"));
    }
    if notice.owed == Money::ZERO {
        body.push_str("Your training is now paid in full.\n");
    } else {
        body.push_str(&format!(
            "Balance still to pay: {}, {}.\nPay online: {}\n",
            notice.owed,
            due_words(notice.due_on, today),
            notice.pay_url
        ));
    }
    body.push_str(&format!("\n{}\n{college}\n", receipt.mail_line()));
    Mail { to: notice.email.to_owned(), reply_to: None, subject: format!("Payment received: {applied}"), body, attachment: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pounds(p: i64) -> Money {
        Money::from_pounds(p)
    }

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(if m < 6 { 2027 } else { 2026 }, m, d).unwrap()
    }

    #[test]
    fn a_part_payment_is_by_card_and_the_whole_balance_is_paying_in_full() {
        let owed = pounds(900);
        assert_eq!(check_balance_amount(EnrollmentStatus::Deposit, owed, pounds(900)), Ok(PaymentMode::Full));
        assert_eq!(check_balance_amount(EnrollmentStatus::Deposit, owed, pounds(10)), Ok(PaymentMode::Fee));
        assert_eq!(
            check_balance_amount(EnrollmentStatus::Deposit, owed, Money::from_pence(999)),
            Err(BalanceRefused::TooLittle(pounds(10)))
        );
        assert_eq!(check_balance_amount(EnrollmentStatus::Deposit, owed, Money::from_pence(90_001)), Err(BalanceRefused::TooMuch(owed)));
        let small = Money::from_pence(500);
        assert_eq!(check_balance_amount(EnrollmentStatus::Deposit, small, small), Ok(PaymentMode::Full), "less than £10 left: all of it");
        assert_eq!(check_balance_amount(EnrollmentStatus::Deposit, small, Money::from_pence(499)), Err(BalanceRefused::TooLittle(small)));
    }

    #[test]
    fn only_a_confirmed_booking_with_something_owed_takes_a_balance_payment() {
        assert_eq!(check_balance_amount(EnrollmentStatus::Completed, Money::ZERO, pounds(10)), Err(BalanceRefused::NothingOwed));
        assert_eq!(check_balance_amount(EnrollmentStatus::Deposit, Money::ZERO, pounds(10)), Err(BalanceRefused::NothingOwed));
        for status in [EnrollmentStatus::Pending, EnrollmentStatus::Failed] {
            assert_eq!(check_balance_amount(status, pounds(900), pounds(10)), Err(BalanceRefused::NotBooked));
        }
    }

    #[test]
    fn payments_count_towards_the_balance_which_never_goes_below_zero() {
        let total = pounds(1_000);
        assert_eq!(
            balance_payment(EnrollmentStatus::Deposit, total, pounds(100), pounds(400)),
            BalancePayment::Applied { status: EnrollmentStatus::Deposit, applied: pounds(400), excess: Money::ZERO }
        );
        assert_eq!(
            balance_payment(EnrollmentStatus::Deposit, total, pounds(500), pounds(500)),
            BalancePayment::Applied { status: EnrollmentStatus::Completed, applied: pounds(500), excess: Money::ZERO }
        );
        assert_eq!(
            balance_payment(EnrollmentStatus::Deposit, total, pounds(500), pounds(900)),
            BalancePayment::Applied { status: EnrollmentStatus::Completed, applied: pounds(500), excess: pounds(400) },
            "two tabs paid the same balance: the second is mostly given back"
        );
        assert_eq!(balance_payment(EnrollmentStatus::Completed, total, total, pounds(900)), BalancePayment::NotOwed);
        assert_eq!(balance_payment(EnrollmentStatus::Failed, total, Money::ZERO, pounds(900)), BalancePayment::NotOwed);
    }

    #[test]
    fn a_reminder_a_week_before_on_the_day_and_after_it() {
        let (due, starts, paid) = (day(1, 10), day(1, 24), day(11, 20));
        assert_eq!(reminder_due(day(1, 2), due, starts, paid), None);
        assert_eq!(reminder_due(day(1, 3), due, starts, paid), Some(BalanceReminder::Upcoming));
        assert_eq!(reminder_due(day(1, 9), due, starts, paid), Some(BalanceReminder::Upcoming));
        assert_eq!(reminder_due(day(1, 10), due, starts, paid), Some(BalanceReminder::Due));
        assert_eq!(reminder_due(day(1, 11), due, starts, paid), Some(BalanceReminder::Overdue));
        assert_eq!(reminder_due(day(1, 23), due, starts, paid), Some(BalanceReminder::Overdue));
    }

    #[test]
    fn no_reminder_once_training_starts_nor_on_the_day_of_booking() {
        let (due, starts) = (day(1, 10), day(1, 24));
        assert_eq!(reminder_due(day(1, 24), due, starts, day(11, 20)), None, "training has started");
        assert_eq!(reminder_due(day(2, 20), due, starts, day(11, 20)), None, "weeks late: nothing");
        // Booked 10 days before training: due at once, overdue the next day.
        let late = day(1, 14);
        assert_eq!(reminder_due(late, late, starts, late), None);
        assert_eq!(reminder_due(day(1, 15), late, starts, late), Some(BalanceReminder::Overdue));
    }

    fn notice<'a>(courses: &'a [BookedCourse], owed: Money) -> BalanceNotice<'a> {
        BalanceNotice {
            reference: "B-Z20KM",
            given_name: "Sam",
            email: "sam@example.com",
            courses,
            owed,
            due_on: day(1, 10),
            pay_url: "https://college.example/pay/t0k3n/",
        }
    }

    fn courses() -> Vec<BookedCourse> {
        vec![BookedCourse {
            course_id: "botox".to_owned(),
            event_id: "botox".to_owned(),
            session_id: Some("s1".to_owned()),
            title: "Botox".to_owned(),
            url: "/courses/injectables/botox/".to_owned(),
            date: Some(day(1, 24)),
            session_type: Some(crate::page::SessionType::Onsite),
            kit_name: None,
            kit_pounds: None,
            price: pounds(1_000),
        }]
    }

    #[test]
    fn each_reminder_says_what_is_owed_by_when_and_links_to_pay() {
        let courses = courses();
        let n = notice(&courses, pounds(900));
        let upcoming = n.reminder(BalanceReminder::Upcoming, day(1, 3), "Example Academy");
        assert_eq!(upcoming.subject, "Your balance of £900.00 is due on Sunday 10 January 2027");
        assert!(upcoming.body.contains("is due by Sunday 10 January 2027."), "{}", upcoming.body);
        assert!(upcoming.body.contains("Botox - Sunday 24 January 2027") && upcoming.body.contains("https://college.example/pay/t0k3n/"));
        assert_eq!(n.reminder(BalanceReminder::Due, day(1, 10), "Example Academy").subject, "Your balance of £900.00 is due today");
        let overdue = n.reminder(BalanceReminder::Overdue, day(1, 12), "Example Academy");
        assert_eq!(overdue.subject, "Your balance of £900.00 is overdue");
        assert!(overdue.body.contains("may be offered to another student"), "{}", overdue.body);
    }

    #[test]
    fn a_receipt_says_what_was_received_refunded_and_left() {
        let courses = courses();
        let receipt = IssuedDocument {
            kind: crate::issued_document::DocumentKind::Receipt,
            number: "RCT-000002".to_owned(),
            url: "https://college.example/api/receipts/RCT-000002?token=t".to_owned(),
        };
        let part = balance_receipt(&notice(&courses, pounds(500)), pounds(400), Money::ZERO, &receipt, "Example Academy", day(1, 3));
        assert_eq!(part.subject, "Payment received: £400.00");
        assert!(part.body.contains("Balance still to pay: £500.00, due by Sunday 10 January 2027."), "{}", part.body);
        let late = balance_receipt(&notice(&courses, pounds(500)), pounds(400), Money::ZERO, &receipt, "Example Academy", day(1, 12));
        assert!(late.body.contains("Balance still to pay: £500.00, due now."), "a past day is never named: {}", late.body);
        assert!(part.body.contains("Your receipt RCT-000002: https://college.example/api/receipts/RCT-000002?token=t\n"), "{}", part.body);
        let full = balance_receipt(&notice(&courses, Money::ZERO), pounds(500), pounds(400), &receipt, "Example Academy", day(1, 3));
        assert!(full.body.contains("paid in full") && full.body.contains("You paid £400.00 more than your balance"), "{}", full.body);
    }

    #[test]
    fn due_now_on_or_after_the_day() {
        assert_eq!(due_words(day(1, 10), day(1, 10)), "due now");
        assert_eq!(due_words(day(1, 10), day(1, 3)), "due by Sunday 10 January 2027");
    }
}
