//! Cancelling a booking (decision 015): what the college's terms
//! (`content/pages/terms-and-conditions.md`) give back, or, beyond them,
//! a date the college cancelled or a staff member's decision (decision
//! 017); how a refund is spread over the payments it returns, and the mail
//! that says so.

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::date_change::ChangedBy;
use crate::enrollment::BookedCourse;
use crate::london::long_date;
use crate::mail::Mail;
use crate::money::Money;

/// The Consumer Contracts Regulations' cancellation period, from booking.
pub const COOLING_OFF_DAYS: u64 = 14;
/// After the cooling-off period, payments beyond the booking fee are given
/// back only when cancelling more than this many days before training.
pub const REFUND_BEFORE_TRAINING_DAYS: u64 = 14;

/// Which of the terms a cancellation falls under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum CancellationTerms {
    /// Within 14 days of booking and before training: everything back.
    CoolingOff,
    /// Later, but more than 14 days before training: all but the booking fee.
    BeforeTraining,
    /// Within 14 days of training: nothing back.
    Late,
    /// The college cancelled a date booked: everything back, whenever.
    SessionCancelled,
    /// A staff member chose the refund instead of the terms.
    Arranged,
}

/// What a cancellation gives back (decision 017): what the terms give the
/// student, or what a staff member chooses instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum CancellationRefund {
    /// What the student would get cancelling themselves.
    Terms,
    /// Everything paid, whatever the terms say.
    Full,
    /// Nothing.
    #[serde(rename = "none")]
    Nothing,
}

/// What cancelling now would give back, shown before the student confirms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CancellationQuote {
    pub terms: CancellationTerms,
    #[ts(type = "number")]
    #[schema(value_type = i64)]
    pub refund: Money,
    /// What the college keeps.
    #[ts(type = "number")]
    #[schema(value_type = i64)]
    pub kept: Money,
}

impl CancellationQuote {
    /// The terms in the student's words.
    pub fn explanation(&self) -> String {
        match self.terms {
            CancellationTerms::CoolingOff => format!(
                "You booked within the last 14 days, so under the Consumer Contracts Regulations we refund everything you paid: {}, \
                 booking fee included.",
                self.refund
            ),
            CancellationTerms::BeforeTraining => format!(
                "Your 14-day cancellation period has ended, so the booking fee of {} is not refundable. Your training is more than \
                 14 days away, so we refund the rest: {}.",
                self.kept, self.refund
            ),
            CancellationTerms::Late => format!(
                "Your training starts within 14 days, so under our terms nothing is refunded ({} is kept). We can often offer \
                 another date instead: please contact us before cancelling.",
                self.kept
            ),
            CancellationTerms::SessionCancelled => {
                format!("We cancelled a date you booked, so we refund everything you paid: {}.", self.refund)
            }
            CancellationTerms::Arranged if self.kept == Money::ZERO => {
                format!("As arranged with us, we refund everything you paid: {}.", self.refund)
            }
            CancellationTerms::Arranged => format!("As arranged with us, nothing is refunded ({} is kept).", self.kept),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CancellationRefused {
    #[error("Only a confirmed booking can be cancelled here.")]
    NotBooked,
    #[error("Your training has started, so this booking can no longer be cancelled online. Please contact us.")]
    TrainingStarted,
}

/// What cancelling `today` gives back of a booking made on `booked_on`
/// whose training starts on `starts_on` (`None`: no date yet), of which
/// `paid` (less refunds) was paid, `booking_fee` of it the booking fee.
/// When the college cancelled one of its dates (`session_cancelled`), the
/// terms give everything back whenever it is; a staff member may choose a
/// full refund or none instead of the terms, also once training started.
pub fn cancellation_quote(
    booked_on: NaiveDate,
    today: NaiveDate,
    starts_on: Option<NaiveDate>,
    session_cancelled: bool,
    paid: Money,
    booking_fee: Money,
    refund: CancellationRefund,
) -> Result<CancellationQuote, CancellationRefused> {
    match refund {
        CancellationRefund::Full => return Ok(CancellationQuote { terms: CancellationTerms::Arranged, refund: paid, kept: Money::ZERO }),
        CancellationRefund::Nothing => {
            return Ok(CancellationQuote { terms: CancellationTerms::Arranged, refund: Money::ZERO, kept: paid });
        }
        CancellationRefund::Terms => {}
    }
    if session_cancelled {
        return Ok(CancellationQuote { terms: CancellationTerms::SessionCancelled, refund: paid, kept: Money::ZERO });
    }
    if starts_on.is_some_and(|day| today >= day) {
        return Err(CancellationRefused::TrainingStarted);
    }
    let cooling_off_ends = booked_on.checked_add_days(Days::new(COOLING_OFF_DAYS)).unwrap_or(booked_on);
    let far_from_training =
        starts_on.is_none_or(|day| today.checked_add_days(Days::new(REFUND_BEFORE_TRAINING_DAYS)).is_some_and(|fortnight| fortnight < day));
    let (terms, kept) = if today <= cooling_off_ends {
        (CancellationTerms::CoolingOff, Money::ZERO)
    } else if far_from_training {
        (CancellationTerms::BeforeTraining, if paid < booking_fee { paid } else { booking_fee })
    } else {
        (CancellationTerms::Late, paid)
    };
    Ok(CancellationQuote { terms, refund: Money::from_pence(paid.pence() - kept.pence()), kept })
}

/// Spreads `refund` over payments that can still give back `refundable`
/// (each `(payment, refundable)`), newest first: the pieces to refund.
pub fn spread_refund(payments: &[(String, Money)], refund: Money) -> Vec<(&str, Money)> {
    let mut left = refund.pence();
    let mut pieces = Vec::new();
    for (payment, refundable) in payments.iter().rev() {
        if left <= 0 {
            break;
        }
        let piece = left.min(refundable.pence());
        if piece > 0 {
            pieces.push((payment.as_str(), Money::from_pence(piece)));
            left -= piece;
        }
    }
    pieces
}

/// The student's confirmation of a cancellation.
pub fn cancellation_mail(
    reference: &str,
    given_name: &str,
    email: &str,
    courses: &[BookedCourse],
    quote: &CancellationQuote,
    by: ChangedBy,
    college: &str,
) -> Mail {
    let greeting = if given_name.is_empty() { "Hello".to_owned() } else { format!("Dear {given_name}") };
    let lines: String =
        courses.iter().map(|c| format!("{} - {}\n", c.title, c.date.map_or_else(|| "date to be arranged".to_owned(), long_date))).collect();
    let refund = if quote.refund > Money::ZERO {
        format!("We are refunding {} to the card or account you paid with; it usually arrives within 5 to 10 working days.", quote.refund)
    } else {
        "No refund is due.".to_owned()
    };
    let asked = match by {
        ChangedBy::Student => "as you asked",
        ChangedBy::College => "by our team",
    };
    Mail {
        to: email.to_owned(),
        reply_to: None,
        subject: format!("Your {college} booking is cancelled"),
        body: format!(
            "{greeting},\n\nYour booking {reference} is cancelled, {asked}.\n\n{lines}\n{}\n{refund}\n\nWe hope to train you another time.\n\n{college}\n",
            quote.explanation()
        ),
        attachment: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2027, m, d).unwrap()
    }

    fn pounds(p: i64) -> Money {
        Money::from_pounds(p)
    }

    /// What the terms give back, no date cancelled, of a booking whose booking fee was £100.
    fn terms(
        booked_on: NaiveDate,
        today: NaiveDate,
        starts_on: Option<NaiveDate>,
        paid: Money,
    ) -> Result<CancellationQuote, CancellationRefused> {
        cancellation_quote(booked_on, today, starts_on, false, paid, pounds(100), CancellationRefund::Terms)
    }

    #[test]
    fn within_fourteen_days_of_booking_everything_comes_back() {
        let quote = terms(day(1, 1), day(1, 15), Some(day(3, 1)), pounds(600)).unwrap();
        assert_eq!(quote, CancellationQuote { terms: CancellationTerms::CoolingOff, refund: pounds(600), kept: Money::ZERO });
        assert!(quote.explanation().contains("booking fee included"));
        let soon = terms(day(1, 1), day(1, 5), Some(day(1, 8)), pounds(100)).unwrap();
        assert_eq!(soon.terms, CancellationTerms::CoolingOff, "the regulations' right holds even close to training");
    }

    #[test]
    fn later_the_booking_fee_is_kept_and_close_to_training_everything_is() {
        let before = terms(day(1, 1), day(1, 16), Some(day(3, 1)), pounds(600)).unwrap();
        assert_eq!(before, CancellationQuote { terms: CancellationTerms::BeforeTraining, refund: pounds(500), kept: pounds(100) });
        let only_fee = terms(day(1, 1), day(1, 16), None, pounds(100)).unwrap();
        assert_eq!((only_fee.refund, only_fee.kept), (Money::ZERO, pounds(100)));
        let late = terms(day(1, 1), day(2, 15), Some(day(3, 1)), pounds(600)).unwrap();
        assert_eq!(late, CancellationQuote { terms: CancellationTerms::Late, refund: Money::ZERO, kept: pounds(600) });
        let edge = terms(day(1, 1), day(2, 14), Some(day(3, 1)), pounds(600)).unwrap();
        assert_eq!(edge.terms, CancellationTerms::BeforeTraining, "15 days before training");
    }

    #[test]
    fn training_that_started_is_not_cancelled_online() {
        assert_eq!(terms(day(1, 1), day(3, 1), Some(day(3, 1)), pounds(600)), Err(CancellationRefused::TrainingStarted));
    }

    #[test]
    fn a_date_the_college_cancelled_gives_everything_back_whenever() {
        let late = cancellation_quote(day(1, 1), day(2, 25), Some(day(3, 1)), true, pounds(600), pounds(100), CancellationRefund::Terms);
        assert_eq!(late, Ok(CancellationQuote { terms: CancellationTerms::SessionCancelled, refund: pounds(600), kept: Money::ZERO }));
        let after = cancellation_quote(day(1, 1), day(3, 2), Some(day(3, 1)), true, pounds(600), pounds(100), CancellationRefund::Terms);
        assert_eq!(after.map(|q| q.refund), Ok(pounds(600)), "the cancelled date has passed: training never started");
        assert!(late.unwrap().explanation().starts_with("We cancelled a date you booked"));
    }

    #[test]
    fn staff_may_give_everything_or_nothing_back_instead_of_the_terms() {
        let full = cancellation_quote(day(1, 1), day(3, 2), Some(day(3, 1)), false, pounds(600), pounds(100), CancellationRefund::Full);
        assert_eq!(full, Ok(CancellationQuote { terms: CancellationTerms::Arranged, refund: pounds(600), kept: Money::ZERO }));
        assert!(full.unwrap().explanation().contains("we refund everything you paid: £600.00"));
        let none = cancellation_quote(day(1, 1), day(1, 2), Some(day(3, 1)), true, pounds(600), pounds(100), CancellationRefund::Nothing);
        assert_eq!(none, Ok(CancellationQuote { terms: CancellationTerms::Arranged, refund: Money::ZERO, kept: pounds(600) }));
        assert!(none.unwrap().explanation().contains("nothing is refunded (£600.00 is kept)"));
        let by_terms = terms(day(1, 1), day(2, 15), Some(day(3, 1)), pounds(600));
        assert_eq!(by_terms.map(|q| q.terms), Ok(CancellationTerms::Late), "the terms: what the student would get");
    }

    #[test]
    fn a_refund_is_spread_over_the_newest_payments_first() {
        let payments = vec![("fee".to_owned(), pounds(100)), ("part".to_owned(), pounds(200)), ("rest".to_owned(), pounds(300))];
        assert_eq!(spread_refund(&payments, pounds(450)), [("rest", pounds(300)), ("part", pounds(150))]);
        assert_eq!(spread_refund(&payments, pounds(600)).len(), 3);
        assert!(spread_refund(&payments, Money::ZERO).is_empty());
        let partly_refunded = vec![("fee".to_owned(), pounds(100)), ("part".to_owned(), Money::ZERO)];
        assert_eq!(spread_refund(&partly_refunded, pounds(100)), [("fee", pounds(100))]);
    }

    #[test]
    fn the_mail_says_what_is_cancelled_and_refunded() {
        let quote = CancellationQuote { terms: CancellationTerms::CoolingOff, refund: pounds(600), kept: Money::ZERO };
        let mail = cancellation_mail("B-Z20KM", "Sam", "sam@example.com", &[], &quote, ChangedBy::Student, "Example Academy");
        assert_eq!(mail.subject, "Your Example Academy booking is cancelled");
        assert!(
            mail.body.contains("Your booking B-Z20KM is cancelled, as you asked.") && mail.body.contains("We are refunding £600.00"),
            "{}",
            mail.body
        );
        let late = CancellationQuote { terms: CancellationTerms::Late, refund: Money::ZERO, kept: pounds(600) };
        let by_staff = cancellation_mail("B-Z20KM", "", "sam@example.com", &[], &late, ChangedBy::College, "Example Academy");
        assert!(by_staff.body.contains("No refund is due.") && by_staff.body.contains("is cancelled, by our team."), "{}", by_staff.body);
        assert!(!by_staff.body.contains("as you asked"), "{}", by_staff.body);
    }
}
