//! What a package's runtime may commit for a student (decision 026): the
//! few `cmi` elements an LMS keeps so a student resumes on any device and
//! the college knows who finished, each checked against its edition's
//! vocabulary and size. Nothing else a package sets is kept.
//!
//! **Complete.** A SCORM 1.2 `lesson_status` of `completed` or `passed`,
//! or a SCORM 2004 `completion_status` of `completed` or
//! `success_status` of `passed`, completes the course, once and for good:
//! a later commit that says otherwise (the student reopening it) changes
//! what resumes, not that they finished.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::ScormVersion;

/// The longest suspend data kept, in characters: SCORM 2004's 64,000
/// for either edition (1.2's 4,096 is too little for the tools that
/// export 1.2 today, and its runtime decides what it accepts).
pub const MAX_SUSPEND_DATA_CHARS: usize = 64_000;
/// The longest location kept (SCORM 2004's 1,000; 1.2 allows 255).
pub const MAX_LOCATION_CHARS: usize = 1_000;
const MAX_NUMBER_CHARS: usize = 20;
const MAX_TIME_CHARS: usize = 64;

/// The elements kept, by the names of SCORM 1.2 (`cmi.core.*`) and 2004
/// (`cmi.*`): `location` is 1.2's `lesson_location`, `scoreRaw` is
/// `score.raw`, and so on. Values are the strings the runtime holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct Cmi {
    /// 1.2 only: passed, completed, failed, incomplete, browsed, not attempted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub lesson_status: Option<String>,
    /// 2004 only: completed, incomplete, not attempted, unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub completion_status: Option<String>,
    /// 2004 only: passed, failed, unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub success_status: Option<String>,
    /// 2004 only: how much of the SCO is done, 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub progress_measure: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub score_raw: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub score_min: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub score_max: Option<String>,
    /// 2004 only: -1 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub score_scaled: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub suspend_data: Option<String>,
    /// 1.2: `HHHH:MM:SS.SS`; 2004: an ISO 8601 duration (`PT1M30S`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session_time: Option<String>,
    /// As the runtime adds it up, in the same form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total_time: Option<String>,
}

/// Why a commit is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommitRefusal {
    #[error("{element} is not an element of a SCORM {version} package.")]
    WrongEdition { element: &'static str, version: &'static str },
    #[error("{element} cannot be {value:?}.")]
    NotInVocabulary { element: &'static str, value: String },
    #[error("{element} is not a number in range.")]
    NotANumber { element: &'static str },
    #[error("{element} is not a time.")]
    NotATime { element: &'static str },
    #[error("{element} is longer than {limit} characters.")]
    TooLong { element: &'static str, limit: usize },
}

const LESSON_STATUS: &[&str] = &["passed", "completed", "failed", "incomplete", "browsed", "not attempted"];
const COMPLETION_STATUS: &[&str] = &["completed", "incomplete", "not attempted", "unknown"];
const SUCCESS_STATUS: &[&str] = &["passed", "failed", "unknown"];

impl Cmi {
    /// `self` if every element belongs to `version` and is within its
    /// vocabulary, range and size.
    pub fn checked(self, version: ScormVersion) -> Result<Cmi, CommitRefusal> {
        let (only, other) = match version {
            ScormVersion::V12 => (
                [
                    ("completion_status", &self.completion_status),
                    ("success_status", &self.success_status),
                    ("progress_measure", &self.progress_measure),
                    ("score.scaled", &self.score_scaled),
                ]
                .to_vec(),
                "1.2",
            ),
            ScormVersion::V2004 => ([("lesson_status", &self.lesson_status)].to_vec(), "2004"),
        };
        if let Some((element, _)) = only.iter().find(|(_, value)| value.is_some()) {
            return Err(CommitRefusal::WrongEdition { element, version: other });
        }
        in_vocabulary("lesson_status", &self.lesson_status, LESSON_STATUS)?;
        in_vocabulary("completion_status", &self.completion_status, COMPLETION_STATUS)?;
        in_vocabulary("success_status", &self.success_status, SUCCESS_STATUS)?;
        number("progress_measure", &self.progress_measure, 0.0..=1.0)?;
        number("score.scaled", &self.score_scaled, -1.0..=1.0)?;
        for (element, value) in [("score.raw", &self.score_raw), ("score.min", &self.score_min), ("score.max", &self.score_max)] {
            number(element, value, -1e7..=1e7)?;
        }
        for (element, value) in [("session_time", &self.session_time), ("total_time", &self.total_time)] {
            time(element, value, version)?;
        }
        within("location", &self.location, MAX_LOCATION_CHARS)?;
        within("suspend_data", &self.suspend_data, MAX_SUSPEND_DATA_CHARS)?;
        Ok(self)
    }

    /// Whether these values complete the course (see the module's doc).
    pub fn completes(&self) -> bool {
        let is = |value: &Option<String>, wanted: &[&str]| value.as_deref().is_some_and(|v| wanted.contains(&v));
        is(&self.lesson_status, &["completed", "passed"])
            || is(&self.completion_status, &["completed"])
            || is(&self.success_status, &["passed"])
    }

    /// Whether the student has begun: anything beyond "not attempted".
    pub fn started(&self) -> bool {
        let untouched = |value: &Option<String>| value.as_deref().is_none_or(|v| v == "not attempted" || v == "unknown");
        !(untouched(&self.lesson_status)
            && untouched(&self.completion_status)
            && untouched(&self.success_status)
            && self.location.as_deref().is_none_or(str::is_empty)
            && self.suspend_data.as_deref().is_none_or(str::is_empty))
    }

    /// 2004's `progress_measure` in per cent, rounded down.
    pub fn progress_percent(&self) -> Option<u8> {
        let measure: f64 = self.progress_measure.as_deref()?.trim().parse().ok()?;
        // In 0..=1 once checked, so the cast cannot overflow.
        Some((measure.clamp(0.0, 1.0) * 100.0).floor() as u8)
    }
}

fn in_vocabulary(element: &'static str, value: &Option<String>, vocabulary: &[&str]) -> Result<(), CommitRefusal> {
    match value {
        Some(value) if !vocabulary.contains(&value.as_str()) => {
            Err(CommitRefusal::NotInVocabulary { element, value: value.chars().take(MAX_NUMBER_CHARS).collect() })
        }
        _ => Ok(()),
    }
}

/// An empty value is the runtime's "not set".
fn number(element: &'static str, value: &Option<String>, range: std::ops::RangeInclusive<f64>) -> Result<(), CommitRefusal> {
    let Some(value) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) else { return Ok(()) };
    let parsed: Option<f64> = (value.len() <= MAX_NUMBER_CHARS).then(|| value.parse().ok()).flatten();
    match parsed {
        Some(n) if n.is_finite() && range.contains(&n) => Ok(()),
        _ => Err(CommitRefusal::NotANumber { element }),
    }
}

/// 1.2's `HHHH:MM:SS.SS` or 2004's `P…T…H…M…S`, loosely: the characters
/// of the form, within a length.
fn time(element: &'static str, value: &Option<String>, version: ScormVersion) -> Result<(), CommitRefusal> {
    let Some(value) = value.as_deref().filter(|v| !v.is_empty()) else { return Ok(()) };
    let ok = value.len() <= MAX_TIME_CHARS
        && match version {
            ScormVersion::V12 => value.chars().all(|c| c.is_ascii_digit() || c == ':' || c == '.') && value.contains(':'),
            ScormVersion::V2004 => value.starts_with('P') && value.chars().all(|c| c.is_ascii_digit() || "PYMWDTHS.".contains(c)),
        };
    if ok { Ok(()) } else { Err(CommitRefusal::NotATime { element }) }
}

fn within(element: &'static str, value: &Option<String>, limit: usize) -> Result<(), CommitRefusal> {
    if value.as_deref().is_some_and(|v| v.chars().count() > limit) {
        return Err(CommitRefusal::TooLong { element, limit });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
