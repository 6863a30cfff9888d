//! What staff do to a booking beyond the student's own paths (decision 017):
//! give back any amount up to what was paid, record money
//! the college took outside the payment provider, and move the day the
//! balance is due. Pure rules; the database carries each out in the
//! transaction that writes its audit row.

use chrono::NaiveDate;
use serde::Deserialize;
use ts_rs::TS;

use crate::balance::{BalanceRefused, BalanceReminder, check_owing};
use crate::london::long_date;
use crate::money::Money;
use crate::page::EnrollmentStatus;

/// How the college took a payment outside the payment provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum OfflineMethod {
    BankTransfer,
    CardByPhone,
    Cash,
}

impl OfflineMethod {
    pub const ALL: [OfflineMethod; 3] = [OfflineMethod::BankTransfer, OfflineMethod::CardByPhone, OfflineMethod::Cash];

    /// As the payment row keeps it.
    pub fn as_str(self) -> &'static str {
        match self {
            OfflineMethod::BankTransfer => "bank_transfer",
            OfflineMethod::CardByPhone => "card_by_phone",
            OfflineMethod::Cash => "cash",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        OfflineMethod::ALL.into_iter().find(|m| m.as_str() == raw)
    }

    /// Its name in the buyer's words, as the receipt says it.
    pub fn label(self) -> &'static str {
        match self {
            OfflineMethod::BankTransfer => "Bank transfer",
            OfflineMethod::CardByPhone => "Card by phone",
            OfflineMethod::Cash => "Cash",
        }
    }
}

/// Checks a payment of `amount` the college took for a booking in
/// `status` with `owed` left: any positive amount up to what is owed (no
/// card minimum: the money is already in hand, and nothing beyond the
/// balance is taken, as there is no provider to give it back).
pub fn check_offline_payment(status: EnrollmentStatus, owed: Money, amount: Money) -> Result<(), BalanceRefused> {
    if amount <= Money::ZERO {
        return Err(BalanceRefused::NotPositive);
    }
    check_owing(status, owed)?;
    if amount > owed {
        return Err(BalanceRefused::TooMuch(owed));
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RefundRefused {
    #[error("Enter an amount above £0.00.")]
    NotPositive,
    #[error("{0} is paid and not yet refunded: refund no more than that.")]
    MoreThanPaid(Money),
}

/// Checks a refund of `amount` of a booking that holds `paid` (payments
/// less refunds made or being made): anything up to that.
pub fn check_refund(paid: Money, amount: Money) -> Result<(), RefundRefused> {
    if amount <= Money::ZERO {
        return Err(RefundRefused::NotPositive);
    }
    if amount > paid {
        return Err(RefundRefused::MoreThanPaid(paid));
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DueDateRefused {
    #[error(transparent)]
    NoBalance(#[from] BalanceRefused),
    #[error("This booking has no training date, so its balance has no due date.")]
    NotDated,
    #[error("Choose a day from today on.")]
    Past,
    #[error("Choose a day no later than the first day of training, {}.", long_date(*.0))]
    AfterTraining(NaiveDate),
}

/// Checks a new due day `due_on`, chosen `today`, for the balance of a
/// booking in `status` with `owed` left whose training starts `starts_on`:
/// a day from today up to the first day of training.
pub fn check_balance_due_on(
    status: EnrollmentStatus,
    owed: Money,
    today: NaiveDate,
    starts_on: Option<NaiveDate>,
    due_on: NaiveDate,
) -> Result<(), DueDateRefused> {
    check_owing(status, owed)?;
    let starts_on = starts_on.ok_or(DueDateRefused::NotDated)?;
    if due_on < today {
        return Err(DueDateRefused::Past);
    }
    if due_on > starts_on {
        return Err(DueDateRefused::AfterTraining(starts_on));
    }
    Ok(())
}

/// The reminder stages a balance due on `due_on` has not reached `today`:
/// any reminder sent of them told of the old day, so it is forgotten and
/// goes again when the new day brings its stage round.
pub fn stages_not_reached(today: NaiveDate, due_on: NaiveDate) -> Vec<BalanceReminder> {
    BalanceReminder::ALL.into_iter().filter(|stage| !stage.reached(today, due_on)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pounds(p: i64) -> Money {
        Money::from_pounds(p)
    }

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2027, m, d).unwrap()
    }

    #[test]
    fn an_offline_payment_is_anything_positive_up_to_the_balance() {
        let owed = pounds(500);
        assert_eq!(check_offline_payment(EnrollmentStatus::Deposit, owed, Money::from_pence(1)), Ok(()), "no card minimum");
        assert_eq!(check_offline_payment(EnrollmentStatus::Deposit, owed, owed), Ok(()));
        assert_eq!(check_offline_payment(EnrollmentStatus::Deposit, owed, Money::from_pence(50_001)), Err(BalanceRefused::TooMuch(owed)));
        assert_eq!(check_offline_payment(EnrollmentStatus::Deposit, owed, Money::ZERO), Err(BalanceRefused::NotPositive));
        assert_eq!(check_offline_payment(EnrollmentStatus::Deposit, owed, Money::from_pence(-100)), Err(BalanceRefused::NotPositive));
        assert_eq!(check_offline_payment(EnrollmentStatus::Completed, Money::ZERO, pounds(1)), Err(BalanceRefused::NothingOwed));
        assert_eq!(check_offline_payment(EnrollmentStatus::Pending, owed, pounds(1)), Err(BalanceRefused::NotBooked));
    }

    #[test]
    fn methods_round_trip_and_have_names() {
        for method in OfflineMethod::ALL {
            assert_eq!(OfflineMethod::parse(method.as_str()), Some(method));
        }
        assert_eq!(OfflineMethod::parse("card"), None, "a provider's method is not an offline one");
        assert_eq!(OfflineMethod::CardByPhone.label(), "Card by phone");
    }

    #[test]
    fn a_refund_is_anything_positive_up_to_what_is_held() {
        assert_eq!(check_refund(pounds(300), pounds(300)), Ok(()));
        assert_eq!(check_refund(pounds(300), Money::from_pence(1)), Ok(()));
        assert_eq!(check_refund(pounds(300), Money::from_pence(30_001)), Err(RefundRefused::MoreThanPaid(pounds(300))));
        assert_eq!(check_refund(pounds(300), Money::ZERO), Err(RefundRefused::NotPositive));
        assert_eq!(RefundRefused::MoreThanPaid(pounds(300)).to_string(), "£300.00 is paid and not yet refunded: refund no more than that.");
    }

    #[test]
    fn a_due_day_runs_from_today_to_the_first_day_of_training() {
        let check = |due_on| check_balance_due_on(EnrollmentStatus::Deposit, pounds(500), day(3, 1), Some(day(4, 1)), due_on);
        assert_eq!(check(day(3, 1)), Ok(()));
        assert_eq!(check(day(4, 1)), Ok(()));
        assert_eq!(check(day(2, 28)), Err(DueDateRefused::Past));
        assert_eq!(check(day(4, 2)), Err(DueDateRefused::AfterTraining(day(4, 1))));
        assert_eq!(
            DueDateRefused::AfterTraining(day(4, 1)).to_string(),
            "Choose a day no later than the first day of training, Thursday 1 April 2027."
        );
        assert_eq!(check_balance_due_on(EnrollmentStatus::Deposit, pounds(500), day(3, 1), None, day(3, 5)), Err(DueDateRefused::NotDated));
        assert_eq!(
            check_balance_due_on(EnrollmentStatus::Completed, Money::ZERO, day(3, 1), Some(day(4, 1)), day(3, 5)),
            Err(DueDateRefused::NoBalance(BalanceRefused::NothingOwed))
        );
    }

    #[test]
    fn a_later_due_day_forgets_the_stages_it_makes_untrue() {
        // Due on 10 March; on 12 March the overdue reminder has gone. Moved to 20 March:
        // not overdue, not due today, not yet within a week.
        assert_eq!(stages_not_reached(day(3, 12), day(3, 20)), [BalanceReminder::Overdue, BalanceReminder::Due, BalanceReminder::Upcoming]);
        assert_eq!(stages_not_reached(day(3, 15), day(3, 20)), [BalanceReminder::Overdue, BalanceReminder::Due], "within the week");
        assert_eq!(stages_not_reached(day(3, 20), day(3, 20)), [BalanceReminder::Overdue], "due today");
        assert!(stages_not_reached(day(3, 21), day(3, 20)).is_empty());
    }
}
