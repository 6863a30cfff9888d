//! What staff may do to a student's access to an online course (decision
//! 027): give a course without an order, move the last day of a
//! registration, withdraw it and give it back, and give back lines of an
//! online order, which ends the access those lines bought. Pure rules;
//! the database carries each out in the transaction that writes its audit
//! row.

use chrono::{DateTime, NaiveDate, Utc};

use crate::back_office::{RefundRefused, check_refund};
use crate::learning::access::{Access, access_ends};
use crate::london::{long_date, start_of_day, today};
use crate::money::Money;
use crate::online_order::PricedLine;

/// The longest reason kept for a withdrawal or a refund.
pub const REASON_CHARS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccessChangeRefused {
    #[error("Choose a last day from today on.")]
    EndsInPast,
    #[error("Choose a last day no earlier than the day access starts, {}.", long_date(*.0))]
    EndsBeforeStart(NaiveDate),
    #[error("They already have this course until {}: change that registration's last day instead.", long_date(*.0))]
    AlreadyActive(NaiveDate),
    #[error("Access to this course is already withdrawn.")]
    AlreadyRevoked,
    #[error("Access to this course is not withdrawn.")]
    NotRevoked,
    #[error("Say why (up to 200 characters): the audit log keeps it.")]
    Reason,
}

/// When access whose last London day is `last_day` ends, for a
/// registration starting at `starts_at`, decided `now`: a day from today
/// and from the start on.
pub fn end_on(last_day: NaiveDate, starts_at: DateTime<Utc>, now: DateTime<Utc>) -> Result<DateTime<Utc>, AccessChangeRefused> {
    if last_day < today(now) {
        return Err(AccessChangeRefused::EndsInPast);
    }
    if last_day < today(starts_at) {
        return Err(AccessChangeRefused::EndsBeforeStart(today(starts_at)));
    }
    Ok(start_of_day(last_day.succ_opt().unwrap_or(last_day)))
}

/// When a course staff give `now` ends: on `last_day` when they chose
/// one, else after the curriculum's `access_months`, as a purchase's
/// would. Refused while the student's best registration for it
/// (`current`) is still active: that one is extended instead.
pub fn grant_ends(
    current: Option<Access>,
    last_day: Option<NaiveDate>,
    access_months: u32,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, AccessChangeRefused> {
    if let Some(Access::Active { until }) = current {
        return Err(AccessChangeRefused::AlreadyActive(until));
    }
    match last_day {
        Some(day) => end_on(day, now, now),
        None => Ok(access_ends(now, access_months)),
    }
}

/// A reason as kept: trimmed, present and not too long.
pub fn reason(text: &str) -> Result<&str, AccessChangeRefused> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > REASON_CHARS {
        return Err(AccessChangeRefused::Reason);
    }
    Ok(text)
}

/// Whether a registration revoked at `revoked_at` may be withdrawn
/// (`revoke`) or given back (`!revoke`).
pub fn check_revocation(revoked_at: Option<DateTime<Utc>>, revoke: bool) -> Result<(), AccessChangeRefused> {
    match (revoked_at.is_some(), revoke) {
        (true, true) => Err(AccessChangeRefused::AlreadyRevoked),
        (false, false) => Err(AccessChangeRefused::NotRevoked),
        _ => Ok(()),
    }
}

/// Lines of an online order to give back and what they come to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRefund {
    /// Places in the order's lines, from 0, in order.
    pub lines: Vec<usize>,
    pub amount: Money,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineRefundRefused {
    #[error("Choose at least one line to refund.")]
    NoLines,
    #[error("This order has no such line.")]
    UnknownLine,
    #[error("{0} has been refunded already.")]
    AlreadyRefunded(String),
    #[error(transparent)]
    Money(#[from] RefundRefused),
}

/// Gives back `chosen` of `lines`, of which `refunded` were given back
/// before, from an order holding `paid` (payments less refunds): each line
/// once, never more than is held.
pub fn line_refund(lines: &[PricedLine], refunded: &[usize], chosen: &[usize], paid: Money) -> Result<LineRefund, LineRefundRefused> {
    let mut chosen = chosen.to_vec();
    chosen.sort_unstable();
    chosen.dedup();
    if chosen.is_empty() {
        return Err(LineRefundRefused::NoLines);
    }
    let mut amount = Money::ZERO;
    for &index in &chosen {
        let line = lines.get(index).ok_or(LineRefundRefused::UnknownLine)?;
        if refunded.contains(&index) {
            return Err(LineRefundRefused::AlreadyRefunded(line.title.clone()));
        }
        amount = amount + line.amount;
    }
    check_refund(paid, amount)?;
    Ok(LineRefund { lines: chosen, amount })
}

#[cfg(test)]
mod tests;
