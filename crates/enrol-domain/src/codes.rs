//! Discount codes as staff set them up in the back office (decision 017):
//! the code itself, what it takes off, until when, how
//! often, and which courses it reaches. What a code takes off a booking is
//! worked out by [`Quote`](crate::enrollment::Quote) alone.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::contact::FieldErrors;
use crate::enrollment::{BookedCourse, Discount, DiscountType, LinePrice};

/// Which courses a code takes money off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeReach {
    /// Every course: the code has no limits.
    Every,
    /// Only these: the courses listed on the code and those of the
    /// sections listed on it (through `course.section_slug` or
    /// `course_section`).
    Only(BTreeSet<String>),
}

impl CodeReach {
    pub fn reaches(&self, course_id: &str) -> bool {
        match self {
            CodeReach::Every => true,
            CodeReach::Only(courses) => courses.contains(course_id),
        }
    }

    /// The courses it is limited to, for the checkout page's own figures;
    /// `None` for every course.
    pub fn course_ids(&self) -> Option<Vec<String>> {
        match self {
            CodeReach::Every => None,
            CodeReach::Only(courses) => Some(courses.iter().cloned().collect()),
        }
    }

    /// `courses` priced with the code applying to those it reaches, or
    /// `None` when it reaches none of them: the code does not apply to
    /// this booking.
    pub fn line_prices(&self, courses: &[BookedCourse]) -> Option<Vec<LinePrice>> {
        let prices: Vec<LinePrice> =
            courses.iter().map(|course| LinePrice { code_applies: self.reaches(&course.course_id), ..course.line_price() }).collect();
        (*self == CodeReach::Every || prices.iter().any(|line| line.code_applies)).then_some(prices)
    }
}

/// The shortest and longest code.
const CODE_LENGTH: std::ops::RangeInclusive<usize> = 3..=32;

/// `raw` as a code is stored: trimmed and upper-cased, 3 to 32 letters
/// A–Z, digits and hyphens; `None` for anything else.
pub fn code_name(raw: &str) -> Option<String> {
    let code = raw.trim().to_ascii_uppercase();
    (CODE_LENGTH.contains(&code.len()) && code.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-')).then_some(code)
}

/// A code as the back office sends it (`POST` and `PUT /api/admin/codes`):
/// `code` names a new one, and is left out (or the same) when editing.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct CodeForm {
    #[serde(default)]
    pub code: Option<String>,
    /// `percent` or `pound`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A whole percentage, or pence.
    #[ts(type = "number")]
    pub value: i64,
    /// `YYYY-MM-DD`, the last day it can be used.
    #[serde(default)]
    pub expires_on: Option<String>,
    #[serde(default)]
    #[ts(type = "number | null")]
    pub max_uses: Option<i64>,
    #[serde(default = "active_by_default")]
    pub active: bool,
    #[serde(default)]
    pub course_ids: Vec<String>,
    #[serde(default)]
    pub section_slugs: Vec<String>,
}

fn active_by_default() -> bool {
    true
}

/// A code's terms, checked. Whether its courses and sections exist is for
/// the database to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeTerms {
    pub discount: Discount,
    pub expires_on: Option<NaiveDate>,
    /// At least 1 when set; `None`: no limit.
    pub max_uses: Option<i64>,
    pub active: bool,
    /// Sorted, without repeats. Both empty: every course.
    pub course_ids: Vec<String>,
    pub section_slugs: Vec<String>,
}

impl CodeForm {
    /// The code it names, if any, and its terms; or a message per field.
    pub fn parse(self) -> Result<(Option<String>, CodeTerms), FieldErrors> {
        let mut errors = FieldErrors::new();
        let code = match self.code.as_deref().map(code_name) {
            Some(None) => {
                errors.insert("code", "Use 3 to 32 letters, digits or hyphens.");
                None
            }
            Some(name) => name,
            None => None,
        };
        let kind = DiscountType::parse(&self.kind);
        match kind {
            None => {
                errors.insert("type", "Choose percent or pound.");
            }
            Some(DiscountType::Percent) if !(1..=100).contains(&self.value) => {
                errors.insert("value", "Enter a percentage from 1 to 100.");
            }
            Some(DiscountType::Pound) if self.value <= 0 => {
                errors.insert("value", "Enter an amount in pence above 0.");
            }
            Some(_) => {}
        }
        let expires_on = match self.expires_on.as_deref().map(str::trim).filter(|day| !day.is_empty()) {
            Some(day) => {
                let parsed = NaiveDate::parse_from_str(day, "%Y-%m-%d").ok();
                if parsed.is_none() {
                    errors.insert("expiresOn", "Enter a date as YYYY-MM-DD.");
                }
                parsed
            }
            None => None,
        };
        if self.max_uses.is_some_and(|max| max < 1) {
            errors.insert("maxUses", "Enter a usage limit of at least 1, or none.");
        }
        let (Some(kind), true) = (kind, errors.is_empty()) else { return Err(errors) };
        let tidy = |list: Vec<String>| -> Vec<String> {
            list.into_iter().map(|s| s.trim().to_owned()).collect::<BTreeSet<_>>().into_iter().collect()
        };
        let terms = CodeTerms {
            discount: Discount { kind, value: self.value },
            expires_on,
            max_uses: self.max_uses,
            active: self.active,
            course_ids: tidy(self.course_ids),
            section_slugs: tidy(self.section_slugs),
        };
        Ok((code, terms))
    }
}

/// Whether a code can be used today, as staff read it in the back office.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum CodeState {
    /// A new booking may use it.
    Active,
    /// Its last day has passed, or staff ended it (`active` off).
    Expired,
    /// Every use its limit allows has been counted.
    UsedUp,
}

/// What a code's switch, last day and uses make of it on `today` (the
/// London day): an expired code is expired whatever its uses; a code is
/// usable on its last day.
pub fn code_state(active: bool, expires_on: Option<NaiveDate>, max_uses: Option<i64>, uses: i64, today: NaiveDate) -> CodeState {
    if !active || expires_on.is_some_and(|last_day| last_day < today) {
        CodeState::Expired
    } else if max_uses.is_some_and(|max| uses >= max) {
        CodeState::UsedUp
    } else {
        CodeState::Active
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Money;

    fn form(kind: &str, value: i64) -> CodeForm {
        CodeForm {
            code: Some(" spring-25 ".to_owned()),
            kind: kind.to_owned(),
            value,
            expires_on: None,
            max_uses: None,
            active: true,
            course_ids: Vec::new(),
            section_slugs: Vec::new(),
        }
    }

    #[test]
    fn a_code_is_stored_upper_case_from_letters_digits_and_hyphens() {
        assert_eq!(code_name(" spring-25 ").as_deref(), Some("SPRING-25"));
        assert_eq!(code_name("AB").as_deref(), None);
        assert_eq!(code_name(&"A".repeat(33)).as_deref(), None);
        assert_eq!(code_name(&"A".repeat(32)).as_deref(), Some("A".repeat(32).as_str()));
        for bad in ["TEN OFF", "TEN_OFF", "TENÖFF", "10%"] {
            assert_eq!(code_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn values_are_whole_percentages_or_pence() {
        assert_eq!(form("percent", 100).parse().unwrap().1.discount, Discount { kind: DiscountType::Percent, value: 100 });
        assert_eq!(form("pound", 1).parse().unwrap().1.discount, Discount { kind: DiscountType::Pound, value: 1 });
        assert!(form("percent", 101).parse().unwrap_err().contains_key("value"));
        assert!(form("percent", 0).parse().unwrap_err().contains_key("value"));
        assert!(form("pound", 0).parse().unwrap_err().contains_key("value"));
        assert_eq!(form("euro", 5).parse().unwrap_err().keys().copied().collect::<Vec<_>>(), ["type"]);
    }

    #[test]
    fn every_problem_is_named_at_once() {
        let bad =
            CodeForm { code: Some("x".to_owned()), expires_on: Some("31/12/2027".to_owned()), max_uses: Some(0), ..form("percent", 150) };
        assert_eq!(bad.parse().unwrap_err().keys().copied().collect::<Vec<_>>(), ["code", "expiresOn", "maxUses", "value"]);
    }

    #[test]
    fn limits_are_sorted_without_repeats_and_a_code_may_be_left_out() {
        let edited = CodeForm {
            code: None,
            expires_on: Some("2027-12-31".to_owned()),
            course_ids: vec!["peels".into(), " fillers".into(), "peels".into()],
            ..form("pound", 5000)
        };
        let (code, terms) = edited.parse().unwrap();
        assert_eq!(code, None);
        assert_eq!(terms.expires_on, NaiveDate::from_ymd_opt(2027, 12, 31));
        assert_eq!(terms.course_ids, ["fillers", "peels"]);
    }

    #[test]
    fn a_code_is_expired_after_its_last_day_or_when_ended_and_used_up_at_its_limit() {
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        let today = day(20);
        assert_eq!(code_state(true, None, None, 500, today), CodeState::Active);
        assert_eq!(code_state(true, Some(day(20)), None, 0, today), CodeState::Active, "usable on its last day");
        assert_eq!(code_state(true, Some(day(19)), None, 0, today), CodeState::Expired);
        assert_eq!(code_state(false, Some(day(30)), None, 0, today), CodeState::Expired, "ended by staff");
        assert_eq!(code_state(true, Some(day(30)), Some(5), 4, today), CodeState::Active);
        assert_eq!(code_state(true, Some(day(30)), Some(5), 5, today), CodeState::UsedUp);
        assert_eq!(code_state(true, Some(day(19)), Some(5), 5, today), CodeState::Expired, "expired says more than used up");
    }

    fn course(id: &str, pence: i64) -> BookedCourse {
        BookedCourse {
            course_id: id.to_owned(),
            event_id: id.to_owned(),
            session_id: None,
            title: id.to_owned(),
            url: format!("/courses/{id}/"),
            date: None,
            session_type: None,
            kit_name: None,
            kit_pounds: None,
            price: Money::from_pence(pence),
        }
    }

    #[test]
    fn a_limited_code_applies_to_the_courses_it_reaches_and_to_no_booking_without_them() {
        let courses = [course("peels", 69_500), course("fades", 59_500)];
        let only_peels = CodeReach::Only(BTreeSet::from(["peels".to_owned()]));
        let lines = only_peels.line_prices(&courses).unwrap();
        assert_eq!(lines.iter().map(|l| l.code_applies).collect::<Vec<_>>(), [true, false]);
        assert_eq!(CodeReach::Every.line_prices(&courses).unwrap().iter().filter(|l| l.code_applies).count(), 2);
        assert_eq!(only_peels.line_prices(&courses[1..]), None);
        assert_eq!(only_peels.course_ids(), Some(vec!["peels".to_owned()]));
        assert_eq!(CodeReach::Every.course_ids(), None);
    }
}
