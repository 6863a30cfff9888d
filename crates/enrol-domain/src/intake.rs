//! Intake calls (`intake_call`): the times an adviser can call a student
//! before their programme starts, on weekdays in the next two weeks.

use chrono::{Datelike, Duration, NaiveDate, Weekday};
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// The London times a call can start.
pub const CALL_TIMES: [&str; 6] = ["10:00", "11:00", "12:00", "14:00", "15:00", "16:00"];
const DAYS_AHEAD: i64 = 14;

/// A day with the call times still free on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct IntakeDay {
    /// `YYYY-MM-DD`.
    pub date: String,
    pub times: Vec<String>,
}

/// The first and last day calls are offered on, from London's `today`.
pub fn offered_range(today: NaiveDate) -> (NaiveDate, NaiveDate) {
    (today + Duration::days(1), today + Duration::days(DAYS_AHEAD))
}

/// Whether a call can be booked at `time` on `date`, seen from `today`.
pub fn is_offered(today: NaiveDate, date: NaiveDate, time: &str) -> bool {
    let (first, last) = offered_range(today);
    (first..=last).contains(&date) && !matches!(date.weekday(), Weekday::Sat | Weekday::Sun) && CALL_TIMES.contains(&time)
}

/// The weekdays from tomorrow for two weeks with their free times; a day
/// with none left is left out.
pub fn free_days(today: NaiveDate, booked: &[(NaiveDate, String)]) -> Vec<IntakeDay> {
    let (first, last) = offered_range(today);
    first
        .iter_days()
        .take_while(|day| *day <= last)
        .filter_map(|day| {
            let times: Vec<String> = CALL_TIMES
                .iter()
                .filter(|time| is_offered(today, day, time) && !booked.iter().any(|(d, t)| *d == day && t == *time))
                .map(|time| (*time).to_owned())
                .collect();
            (!times.is_empty()).then(|| IntakeDay { date: day.to_string(), times })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn weekdays_of_the_next_two_weeks_without_the_booked_times() {
        // Tuesday 24 November 2026.
        let today = day("2026-11-24");
        let days = free_days(today, &[(day("2026-11-25"), "10:00".to_owned())]);
        assert_eq!(days.len(), 10, "two working weeks");
        assert_eq!(
            days[0],
            IntakeDay {
                date: "2026-11-25".into(),
                times: vec!["11:00".into(), "12:00".into(), "14:00".into(), "15:00".into(), "16:00".into()]
            }
        );
        assert!(days.iter().all(|d| !["2026-11-28", "2026-11-29"].contains(&d.date.as_str())), "no weekends");
        assert_eq!(days.last().unwrap().date, "2026-12-08");
    }

    #[test]
    fn only_offered_times_can_be_booked() {
        let today = day("2026-11-24");
        assert!(is_offered(today, day("2026-11-25"), "14:00"));
        assert!(!is_offered(today, day("2026-11-24"), "14:00"), "not today");
        assert!(!is_offered(today, day("2026-11-28"), "14:00"), "not on a Saturday");
        assert!(!is_offered(today, day("2026-11-25"), "13:00"), "not at lunch");
        assert!(!is_offered(today, day("2026-12-09"), "10:00"), "not beyond two weeks");
    }
}
