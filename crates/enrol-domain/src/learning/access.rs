//! Whether a student may study an online course now: access runs from
//! payment for the curriculum's months, unless the college withdraws it.
//!
//! **How long.** Access runs from the London day of payment for that many
//! calendar months, to the end of the London day that date falls on; a
//! month too short for the day ends on its last day (chrono's
//! `checked_add_months`). So twelve months bought on 10 March 2026 run
//! to the end of 10 March 2027, and three bought on 31 January to the end
//! of 30 April. A student is never given less than the months promised,
//! and the last day can be named in one date.

use chrono::{DateTime, Months, NaiveDate, TimeDelta, Utc};
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use super::curriculum::MAX_ACCESS_MONTHS;
use crate::london::{long_date, start_of_day, today};

/// The months an online course is sold for before its curriculum says.
pub const DEFAULT_ACCESS_MONTHS: u32 = 12;

/// The last London day of access bought at `paid_at` for `access_months`
/// (at most the [`MAX_ACCESS_MONTHS`] a curriculum may sell).
pub fn access_last_day(paid_at: DateTime<Utc>, access_months: u32) -> NaiveDate {
    let bought_on = today(paid_at);
    bought_on.checked_add_months(Months::new(access_months.min(MAX_ACCESS_MONTHS))).unwrap_or(bought_on)
}

/// When access bought at `paid_at` for `access_months` ends: the start of
/// the London day after [`access_last_day`].
pub fn access_ends(paid_at: DateTime<Utc>, access_months: u32) -> DateTime<Utc> {
    let last_day = access_last_day(paid_at, access_months);
    start_of_day(last_day.succ_opt().unwrap_or(last_day))
}

/// Where a student's access to a course stands now, with the day to tell
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(tag = "state", rename_all = "camelCase")]
#[ts(export)]
pub enum Access {
    /// They may study it; `until` is the last day (London).
    Active {
        #[ts(type = "string")]
        #[schema(value_type = String)]
        until: NaiveDate,
    },
    /// Its time ran out; `ended` was the last day.
    Expired {
        #[ts(type = "string")]
        #[schema(value_type = String)]
        ended: NaiveDate,
    },
    /// The college withdrew it (a refund, say).
    Revoked,
    /// It opens on `opens` (London).
    NotStarted {
        #[ts(type = "string")]
        #[schema(value_type = String)]
        opens: NaiveDate,
    },
}

impl Access {
    /// Access from `starts_at` until `ends_at`, as it stands at `now`. A
    /// withdrawal counts whenever it is dated, so one recorded by a server
    /// whose clock runs ahead still closes the course at once.
    pub fn of(starts_at: DateTime<Utc>, ends_at: DateTime<Utc>, revoked_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> Access {
        if revoked_at.is_some() {
            Access::Revoked
        } else if now < starts_at {
            Access::NotStarted { opens: today(starts_at) }
        } else if now >= ends_at {
            Access::Expired { ended: last_day(ends_at) }
        } else {
            Access::Active { until: last_day(ends_at) }
        }
    }

    /// Whether the course's lessons and quizzes open.
    pub fn may_study(self) -> bool {
        matches!(self, Access::Active { .. })
    }

    /// What the student is told.
    pub fn message(self) -> String {
        match self {
            Access::Active { until } => format!("You have access to this course until {}.", long_date(until)),
            Access::Expired { ended } => {
                format!("Your access to this course ended on {}. Please contact us if you would like more time.", long_date(ended))
            }
            Access::Revoked => "This course is no longer available to you. Please contact us if you think this is a mistake.".to_owned(),
            Access::NotStarted { opens } => format!("Your course opens on {}.", long_date(opens)),
        }
    }
}

/// The London day of the last moment before `ends_at`: the last day of
/// access that ends then.
pub fn last_day(ends_at: DateTime<Utc>) -> NaiveDate {
    today(ends_at.checked_sub_signed(TimeDelta::nanoseconds(1)).unwrap_or(ends_at))
}

#[cfg(test)]
mod tests;
