//! Staff's changes to access: last days, grants, withdrawals and refunds
//! of an online order's lines.

use chrono::TimeZone;

use super::*;
use crate::online_order::LineItem;

fn at(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn line(title: &str, pence: i64) -> PricedLine {
    PricedLine {
        item: LineItem::Course { course_id: title.to_lowercase(), price_id: format!("price_{title}"), url: String::new() },
        title: title.to_owned(),
        amount: Money::from_pence(pence),
    }
}

#[test]
fn a_last_day_runs_to_the_end_of_that_london_day_from_today_and_the_start_on() {
    let now = at(2026, 7, 1, 12);
    let started = at(2026, 3, 1, 9);
    // In summer London is an hour ahead: its day ends at 23:00 UTC.
    assert_eq!(end_on(day(2026, 9, 30), started, now), Ok(at(2026, 9, 30, 23)));
    assert_eq!(end_on(day(2026, 7, 1), started, now), Ok(at(2026, 7, 1, 23)), "today is the earliest");
    assert_eq!(end_on(day(2026, 6, 30), started, now), Err(AccessChangeRefused::EndsInPast));
    let starts_later = at(2026, 8, 1, 9);
    assert_eq!(end_on(day(2026, 7, 20), starts_later, now), Err(AccessChangeRefused::EndsBeforeStart(day(2026, 8, 1))));
    assert_eq!(end_on(day(2026, 8, 1), starts_later, now), Ok(at(2026, 8, 1, 23)));
}

#[test]
fn a_grant_runs_the_curriculum_months_or_to_the_day_chosen_unless_access_is_active() {
    let now = at(2026, 3, 10, 12);
    assert_eq!(grant_ends(None, None, 12, now), Ok(access_ends(now, 12)));
    assert_eq!(grant_ends(Some(Access::Revoked), Some(day(2026, 4, 30)), 12, now), Ok(at(2026, 4, 30, 23)));
    assert_eq!(grant_ends(Some(Access::Expired { ended: day(2026, 1, 1) }), None, 3, now), Ok(access_ends(now, 3)));
    assert_eq!(grant_ends(None, Some(day(2026, 3, 9)), 12, now), Err(AccessChangeRefused::EndsInPast));
    let active = Access::Active { until: day(2026, 12, 1) };
    assert_eq!(grant_ends(Some(active), None, 12, now), Err(AccessChangeRefused::AlreadyActive(day(2026, 12, 1))));
}

#[test]
fn withdrawing_and_giving_back_each_need_the_other_state() {
    let revoked = Some(at(2026, 3, 10, 12));
    assert_eq!(check_revocation(None, true), Ok(()));
    assert_eq!(check_revocation(revoked, false), Ok(()));
    assert_eq!(check_revocation(revoked, true), Err(AccessChangeRefused::AlreadyRevoked));
    assert_eq!(check_revocation(None, false), Err(AccessChangeRefused::NotRevoked));
}

#[test]
fn a_reason_is_trimmed_and_between_one_and_two_hundred_characters() {
    assert_eq!(reason("  chargeback  "), Ok("chargeback"));
    assert_eq!(reason("   "), Err(AccessChangeRefused::Reason));
    assert_eq!(reason(&"x".repeat(REASON_CHARS)).map(str::len), Ok(REASON_CHARS));
    assert_eq!(reason(&"x".repeat(REASON_CHARS + 1)), Err(AccessChangeRefused::Reason));
}

#[test]
fn lines_are_refunded_once_each_and_never_beyond_what_is_held() {
    let lines = [line("Anatomy", 9_900), line("Workbook", 2_500), line("Hygiene", 4_000)];
    let paid = Money::from_pence(16_400);
    assert_eq!(line_refund(&lines, &[], &[1], paid), Ok(LineRefund { lines: vec![1], amount: Money::from_pence(2_500) }));
    assert_eq!(
        line_refund(&lines, &[], &[2, 0, 2], paid),
        Ok(LineRefund { lines: vec![0, 2], amount: Money::from_pence(13_900) }),
        "each line counted once, in order"
    );
    assert_eq!(line_refund(&lines, &[], &[], paid), Err(LineRefundRefused::NoLines));
    assert_eq!(line_refund(&lines, &[], &[3], paid), Err(LineRefundRefused::UnknownLine));
    assert_eq!(line_refund(&lines, &[1], &[0, 1], paid), Err(LineRefundRefused::AlreadyRefunded("Workbook".to_owned())));
    let held = Money::from_pence(5_000);
    assert_eq!(
        line_refund(&lines, &[], &[0], held),
        Err(LineRefundRefused::Money(RefundRefused::MoreThanPaid(held))),
        "an order paid in part gives back no more than it holds"
    );
}
