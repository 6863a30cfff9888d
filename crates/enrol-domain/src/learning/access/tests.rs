//! How long access lasts, in London's calendar, and what it is at each
//! moment around its edges.

use chrono::TimeZone;

use super::*;

fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[test]
fn access_runs_calendar_months_to_the_end_of_a_london_day() {
    let cases = [
        ("twelve months from a winter day", at(2026, 3, 10, 12, 0), 12, day(2027, 3, 10), at(2027, 3, 11, 0, 0)),
        ("a month too short ends on its last day", at(2026, 1, 31, 10, 0), 3, day(2026, 4, 30), at(2026, 4, 30, 23, 0)),
        ("into February", at(2026, 1, 31, 10, 0), 1, day(2026, 2, 28), at(2026, 3, 1, 0, 0)),
        ("into a leap February", at(2028, 1, 31, 10, 0), 1, day(2028, 2, 29), at(2028, 3, 1, 0, 0)),
        ("from a leap day", at(2028, 2, 29, 10, 0), 12, day(2029, 2, 28), at(2029, 3, 1, 0, 0)),
        ("bought after midnight in London, before it in UTC", at(2026, 6, 30, 23, 30), 12, day(2027, 7, 1), at(2027, 7, 1, 23, 0)),
        ("bought late on New Year's Eve", at(2026, 12, 31, 23, 59), 2, day(2027, 2, 28), at(2027, 3, 1, 0, 0)),
        ("sixty months is the most", at(2026, 3, 10, 12, 0), 61, day(2031, 3, 10), at(2031, 3, 11, 0, 0)),
    ];
    for (name, paid_at, months, last_day, ends) in cases {
        assert_eq!((access_last_day(paid_at, months), access_ends(paid_at, months)), (last_day, ends), "{name}");
    }
}

#[test]
fn access_is_what_it_is_at_each_edge() {
    let starts = at(2026, 3, 10, 12, 0);
    let ends = access_ends(starts, 12);
    let second = TimeDelta::seconds(1);
    let active = Access::Active { until: day(2027, 3, 10) };
    let cases = [
        ("before it starts", starts - second, None, Access::NotStarted { opens: day(2026, 3, 10) }),
        ("from its first moment", starts, None, active),
        ("to its last", ends - second, None, active),
        ("not at its end", ends, None, Access::Expired { ended: day(2027, 3, 10) }),
        ("long after", ends + TimeDelta::days(400), None, Access::Expired { ended: day(2027, 3, 10) }),
        ("withdrawn while open", starts + second, Some(starts), Access::Revoked),
        ("withdrawn, dated ahead of now", starts + second, Some(starts + TimeDelta::hours(1)), Access::Revoked),
        ("withdrawn before it started", starts - second, Some(starts - TimeDelta::days(1)), Access::Revoked),
        ("withdrawn after it ended", ends + second, Some(ends + second), Access::Revoked),
    ];
    for (name, now, revoked_at, expected) in cases {
        let access = Access::of(starts, ends, revoked_at, now);
        assert_eq!(access, expected, "{name}");
        assert_eq!(access.may_study(), matches!(expected, Access::Active { .. }), "{name}");
    }
}

#[test]
fn the_last_day_of_an_end_set_by_hand_is_the_day_it_falls_in() {
    let starts = at(2026, 3, 10, 12, 0);
    assert_eq!(Access::of(starts, at(2026, 7, 1, 14, 0), None, starts), Access::Active { until: day(2026, 7, 1) });
    assert_eq!(Access::of(starts, at(2026, 6, 30, 23, 0), None, starts), Access::Active { until: day(2026, 6, 30) });
}

#[test]
fn the_student_is_told_in_one_sentence() {
    assert_eq!(Access::Active { until: day(2027, 3, 10) }.message(), "You have access to this course until Wednesday 10 March 2027.");
    assert_eq!(
        Access::Expired { ended: day(2027, 3, 10) }.message(),
        "Your access to this course ended on Wednesday 10 March 2027. Please contact us if you would like more time."
    );
    assert_eq!(Access::Revoked.message(), "This course is no longer available to you. Please contact us if you think this is a mistake.");
    assert_eq!(Access::NotStarted { opens: day(2026, 3, 10) }.message(), "Your course opens on Tuesday 10 March 2026.");
}

#[test]
fn access_reaches_the_page_tagged_by_state() {
    let json = serde_json::to_value(Access::Active { until: day(2027, 3, 10) }).expect("JSON");
    assert_eq!(json, serde_json::json!({"state": "active", "until": "2027-03-10"}));
    assert_eq!(serde_json::to_value(Access::NotStarted { opens: day(2026, 3, 10) }).expect("JSON")["state"], "notStarted");
}
