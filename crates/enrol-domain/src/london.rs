//! The college keeps UK time. Wall-clock dates and times are passed to the
//! pages as naive `YYYY-MM-DDTHH:MM:SS` strings so that no time-zone database
//! is needed on either side.

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Utc};

/// British Summer Time runs from 01:00 UTC on the last Sunday of March to
/// 01:00 UTC on the last Sunday of October.
pub fn to_london(utc: DateTime<Utc>) -> NaiveDateTime {
    let year = utc.year();
    let starts = last_sunday(year, 3).and_hms_opt(1, 0, 0).expect("valid time");
    let ends = last_sunday(year, 10).and_hms_opt(1, 0, 0).expect("valid time");
    let naive = utc.naive_utc();
    if naive >= starts && naive < ends { naive + Duration::hours(1) } else { naive }
}

fn last_sunday(year: i32, month: u32) -> NaiveDate {
    let last_day = if month == 12 { NaiveDate::from_ymd_opt(year + 1, 1, 1) } else { NaiveDate::from_ymd_opt(year, month + 1, 1) }
        .expect("valid date")
        .pred_opt()
        .expect("valid date");
    let back = last_day.weekday().num_days_from_sunday();
    last_day - Duration::days(i64::from(back))
}

/// Today's date in London.
pub fn today(utc: DateTime<Utc>) -> NaiveDate {
    to_london(utc).date()
}

/// The instant London's `day` begins (midnight, in BST an hour before
/// midnight UTC): where a range of days starts and ends.
pub fn start_of_day(day: NaiveDate) -> DateTime<Utc> {
    let midnight = day.and_hms_opt(0, 0, 0).expect("valid time");
    let summer = midnight.and_utc() - Duration::hours(1);
    if to_london(summer) == midnight { summer } else { midnight.and_utc() }
}

/// The wire form of a London wall-clock time.
pub fn wall_clock(utc: DateTime<Utc>) -> String {
    to_london(utc).format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// `Tuesday 15 December 2026`: dates in mails and documents, which no browser formats.
pub fn long_date(date: NaiveDate) -> String {
    date.format("%A %-d %B %Y").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
    }

    #[test]
    fn a_day_starts_at_london_midnight() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(start_of_day(day(2026, 1, 10)), at(2026, 1, 10, 0, 0));
        assert_eq!(start_of_day(day(2026, 7, 10)), at(2026, 7, 9, 23, 0));
        // The clocks go forward at 01:00 UTC on 29 March 2026: that day starts in GMT.
        assert_eq!(start_of_day(day(2026, 3, 29)), at(2026, 3, 29, 0, 0));
        assert_eq!(start_of_day(day(2026, 3, 30)), at(2026, 3, 29, 23, 0));
    }

    #[test]
    fn winter_is_utc() {
        assert_eq!(wall_clock(at(2026, 11, 22, 15, 30)), "2026-11-22T15:30:00");
        assert_eq!(wall_clock(at(2027, 1, 1, 0, 0)), "2027-01-01T00:00:00");
    }

    #[test]
    fn summer_is_utc_plus_one() {
        assert_eq!(wall_clock(at(2026, 7, 1, 12, 0)), "2026-07-01T13:00:00");
        assert_eq!(today(at(2026, 6, 30, 23, 30)), NaiveDate::from_ymd_opt(2026, 7, 1).unwrap());
    }

    #[test]
    fn changes_at_one_in_the_morning_utc_on_the_last_sundays() {
        // 2026: clocks go forward on 29 March and back on 25 October.
        assert_eq!(wall_clock(at(2026, 3, 29, 0, 59)), "2026-03-29T00:59:00");
        assert_eq!(wall_clock(at(2026, 3, 29, 1, 0)), "2026-03-29T02:00:00");
        assert_eq!(wall_clock(at(2026, 10, 25, 0, 59)), "2026-10-25T01:59:00");
        assert_eq!(wall_clock(at(2026, 10, 25, 1, 0)), "2026-10-25T01:00:00");
    }
}
