//! Moving a booked course to another date (decision 015): when
//! the terms allow it (and when a cancelled date or a staff member goes
//! beyond them, decision 017), what the price difference does to the
//! booking, and the mail that confirms the new date with its updated
//! calendar entry.

use chrono::{Days, NaiveDate};

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::balance::due_words;
use crate::enrollment::BookedCourse;
use crate::london::long_date;
use crate::money::Money;
use crate::page::{EnrollmentStatus, SessionType};

/// The terms: a date can be changed online until this many days before the
/// booked date; later, a person arranges it (an administration fee may apply).
pub const DATE_CHANGE_CUTOFF_DAYS: u64 = 14;

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DateChangeRefused {
    #[error("Only a confirmed booking can change its date.")]
    NotBooked,
    #[error("This course has no date to change. Please contact us to arrange one.")]
    NotDated,
    #[error(
        "Your course is less than 14 days away, so its date can no longer be changed online. Please contact us: we will always try to help."
    )]
    TooLate,
    #[error("Please choose a date that has not passed.")]
    Past,
    #[error("That is the date you are already booked on.")]
    SameDate,
    #[error("That date is now fully booked. Please choose another date.")]
    Full,
}

/// On what grounds a date changes (decision 017): the terms, or beyond them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateChangeGrounds {
    /// The student online, under the terms: until 14 days before the booked date.
    Terms,
    /// The college cancelled the session booked: the student may move to
    /// any date not passed, however close.
    SessionCancelled,
    /// A staff member: the 14-day limit does not bind them.
    Staff,
}

/// Whether a course booked for `from_day` may move to another date, asked
/// `today` on `grounds`: what the dates offered and every move check first.
pub fn date_can_change(
    status: EnrollmentStatus,
    today: NaiveDate,
    from_day: Option<NaiveDate>,
    grounds: DateChangeGrounds,
) -> Result<(), DateChangeRefused> {
    if !matches!(status, EnrollmentStatus::Deposit | EnrollmentStatus::Completed) {
        return Err(DateChangeRefused::NotBooked);
    }
    let from_day = from_day.ok_or(DateChangeRefused::NotDated)?;
    let cutoff = from_day.checked_sub_days(Days::new(DATE_CHANGE_CUTOFF_DAYS)).unwrap_or(from_day);
    if grounds == DateChangeGrounds::Terms && today >= cutoff {
        return Err(DateChangeRefused::TooLate);
    }
    Ok(())
}

/// Checks a move, asked `today` on `grounds`, of a course booked for
/// `from_day` to a session of the same course on `to_day`.
pub fn check_date_change(
    status: EnrollmentStatus,
    today: NaiveDate,
    from_day: Option<NaiveDate>,
    to_day: NaiveDate,
    grounds: DateChangeGrounds,
) -> Result<(), DateChangeRefused> {
    date_can_change(status, today, from_day, grounds)?;
    if to_day <= today {
        return Err(DateChangeRefused::Past);
    }
    Ok(())
}

/// What a move from a session priced `old_price` to one priced `new_price`
/// does to a booking of `total`, of which `paid` (less refunds) is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateChangeMoney {
    pub total: Money,
    /// Paid beyond the new total: given back.
    pub refund: Money,
    pub status: EnrollmentStatus,
}

pub fn date_change_money(total: Money, paid: Money, old_price: Money, new_price: Money) -> DateChangeMoney {
    let total = Money::from_pence((total.pence() + new_price.pence() - old_price.pence()).max(0));
    let refund = Money::from_pence((paid.pence() - total.pence()).max(0));
    let kept = Money::from_pence(paid.pence() - refund.pence());
    let status = if kept >= total { EnrollmentStatus::Completed } else { EnrollmentStatus::Deposit };
    DateChangeMoney { total, refund, status }
}

/// Another date a booked course could move to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OtherDate {
    pub session_id: String,
    /// `YYYY-MM-DD`, and London wall-clock `YYYY-MM-DDTHH:MM:SS` times.
    pub date: String,
    pub start: String,
    pub end: String,
    pub session_type: SessionType,
    /// What the booking's total changes by (negative: it costs less).
    #[ts(type = "number")]
    #[schema(value_type = i64)]
    pub difference: Money,
}

/// Who asked for a change to a booking (a new date, a cancellation): the
/// student, or the college for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangedBy {
    Student,
    College,
}

/// A booking moved to a new date, as the student's mail tells it.
#[derive(Debug, Clone, Copy)]
pub struct MovedBooking<'a> {
    pub given_name: &'a str,
    /// What the student reads out: `B-7K3P9`.
    pub reference: &'a str,
    pub course: &'a BookedCourse,
    pub from_day: NaiveDate,
    pub money: &'a DateChangeMoney,
    /// What is left to pay, when, and where to pay it signed in or not.
    pub owed: Money,
    pub due_on: Option<NaiveDate>,
    pub pay_url: &'a str,
    pub moved_by: ChangedBy,
}

impl MovedBooking<'_> {
    /// The student's confirmation of the new date, sent `today`: a
    /// balance due on a day already reached reads "due now", with the link.
    pub fn mail_body(&self, college: &str, today: NaiveDate) -> String {
        let greeting = if self.given_name.is_empty() { "Hello".to_owned() } else { format!("Dear {}", self.given_name) };
        let to_day = self.course.date.map_or_else(|| "a date to be arranged".to_owned(), long_date);
        let moved = match self.moved_by {
            ChangedBy::Student => "as you asked",
            ChangedBy::College => "a change made by our team",
        };
        let mut body = format!(
            "{greeting},\n\nYour {} (booking {}) has moved from {} to {to_day}, {moved}. The calendar invite attached \
             replaces the one we sent before.\n\nTraining total: {}\n",
            self.course.title,
            self.reference,
            long_date(self.from_day),
            self.money.total
        );
        if self.money.refund > Money::ZERO {
            body.push_str(&format!(
                "The new date costs less: we are refunding {} to the card or account you paid with.\n",
                self.money.refund
            ));
        }
        if self.owed > Money::ZERO {
            let due = self.due_on.map_or_else(|| "due before your training".to_owned(), |day| due_words(day, today));
            body.push_str(&format!("Balance to pay: {}, {due}.\nPay online: {}\n", self.owed, self.pay_url));
        } else {
            body.push_str("Your training is paid in full.\n");
        }
        body.push_str(&format!("\n{college}\n"));
        body
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

    #[test]
    fn a_date_changes_online_until_fourteen_days_before_training() {
        let ok = |today, from, to| check_date_change(EnrollmentStatus::Deposit, today, Some(from), to, DateChangeGrounds::Terms);
        assert_eq!(ok(day(1, 1), day(3, 1), day(4, 1)), Ok(()));
        assert_eq!(ok(day(2, 14), day(3, 1), day(4, 1)), Ok(()), "15 days before");
        assert_eq!(ok(day(2, 15), day(3, 1), day(4, 1)), Err(DateChangeRefused::TooLate));
        assert_eq!(ok(day(1, 1), day(3, 1), day(1, 1)), Err(DateChangeRefused::Past));
        assert_eq!(
            check_date_change(EnrollmentStatus::Deposit, day(1, 1), None, day(4, 1), DateChangeGrounds::Terms),
            Err(DateChangeRefused::NotDated)
        );
        assert_eq!(
            check_date_change(EnrollmentStatus::Cancelled, day(1, 1), Some(day(3, 1)), day(4, 1), DateChangeGrounds::Terms),
            Err(DateChangeRefused::NotBooked)
        );
    }

    #[test]
    fn a_cancelled_date_or_a_staff_member_moves_after_the_limit_but_never_to_a_past_date() {
        for grounds in [DateChangeGrounds::SessionCancelled, DateChangeGrounds::Staff] {
            let ok = |today, from, to| check_date_change(EnrollmentStatus::Deposit, today, Some(from), to, grounds);
            assert_eq!(ok(day(2, 28), day(3, 1), day(4, 1)), Ok(()), "{grounds:?}: the day before");
            assert_eq!(ok(day(3, 5), day(3, 1), day(4, 1)), Ok(()), "{grounds:?}: the booked date has passed");
            assert_eq!(ok(day(3, 5), day(3, 1), day(3, 5)), Err(DateChangeRefused::Past), "{grounds:?}");
            assert_eq!(
                check_date_change(EnrollmentStatus::Pending, day(2, 28), Some(day(3, 1)), day(4, 1), grounds),
                Err(DateChangeRefused::NotBooked)
            );
            assert_eq!(date_can_change(EnrollmentStatus::Completed, day(2, 28), None, grounds), Err(DateChangeRefused::NotDated));
        }
    }

    #[test]
    fn a_dearer_date_adds_to_the_balance_and_a_cheaper_one_refunds_what_was_paid_beyond_it() {
        assert_eq!(
            date_change_money(pounds(600), pounds(600), pounds(600), pounds(700)),
            DateChangeMoney { total: pounds(700), refund: Money::ZERO, status: EnrollmentStatus::Deposit },
            "paid in full before: now owes the difference"
        );
        assert_eq!(
            date_change_money(pounds(600), pounds(600), pounds(600), pounds(450)),
            DateChangeMoney { total: pounds(450), refund: pounds(150), status: EnrollmentStatus::Completed }
        );
        assert_eq!(
            date_change_money(pounds(600), pounds(100), pounds(600), pounds(450)),
            DateChangeMoney { total: pounds(450), refund: Money::ZERO, status: EnrollmentStatus::Deposit },
            "only the booking fee paid: a smaller balance"
        );
    }

    #[test]
    fn a_move_by_the_college_says_so_and_a_balance_now_due_has_its_link() {
        let course = BookedCourse {
            course_id: "c".to_owned(),
            event_id: "c".to_owned(),
            session_id: Some("s2".to_owned()),
            title: "Botox".to_owned(),
            url: "/courses/injectables/botox/".to_owned(),
            date: Some(day(3, 5)),
            session_type: Some(SessionType::Onsite),
            kit_name: None,
            kit_pounds: None,
            price: pounds(1250),
        };
        let money = DateChangeMoney { total: pounds(1250), refund: Money::ZERO, status: EnrollmentStatus::Deposit };
        let moved = MovedBooking {
            given_name: "Amara",
            reference: "B-7K3P9",
            course: &course,
            from_day: day(4, 1),
            money: &money,
            owed: pounds(1150),
            due_on: Some(day(2, 19)),
            pay_url: "https://college.example/pay-balance/?token=t",
            moved_by: ChangedBy::College,
        };
        let body = moved.mail_body("Example Academy", day(2, 25));
        assert!(body.contains("a change made by our team") && !body.contains("as you asked"), "{body}");
        assert!(body.contains("(booking B-7K3P9)"), "{body}");
        assert!(body.contains("Balance to pay: £1,150.00, due now.\nPay online: https://college.example/pay-balance/?token=t"), "{body}");
        let asked = MovedBooking { moved_by: ChangedBy::Student, ..moved }.mail_body("Example Academy", day(2, 1));
        assert!(asked.contains("as you asked") && asked.contains("due by Friday 19 February 2027"), "{asked}");
    }
}
