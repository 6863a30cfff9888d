//! A course delivered by a hosted LMS instead of Enrol's own player
//! (decision 029): the course's content names the provider's course and
//! group, each registration keeps the ids it was sold with, and the player
//! hands the student to the provider. What a college may name, and what the
//! student is told when the provider cannot open the course, are here.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The hosted LMS that teaches an online course, with its own ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
#[ts(export)]
pub enum CourseProvider {
    /// Coassemble's headless API: its course id and, if the college sorts
    /// learners into them, its client identifier (the "group").
    Coassemble(ProviderCourse),
}

/// A provider's course, and the group its learners join.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct ProviderCourse {
    pub course: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub group: Option<String>,
}

impl CourseProvider {
    /// The provider's course and group, whichever provider it is.
    pub fn course(&self) -> &ProviderCourse {
        match self {
            CourseProvider::Coassemble(course) => course,
        }
    }

    /// The provider's name as students read it.
    pub fn name(&self) -> &'static str {
        match self {
            CourseProvider::Coassemble(_) => "Coassemble",
        }
    }

    /// A registration's stored ids (`coassemble_course_id`,
    /// `coassemble_group_id`) as the provider they name; `None` for a
    /// course taught by Enrol's own player.
    pub fn from_columns(course: Option<String>, group: Option<String>) -> Option<Self> {
        course.map(|course| CourseProvider::Coassemble(ProviderCourse { course, group }))
    }

    /// Why a college cannot name this, or `None`: Coassemble's course ids
    /// are numbers; a group is a short identifier of the college's own.
    pub fn problem(&self) -> Option<&'static str> {
        let ProviderCourse { course, group } = self.course();
        let digits = !course.is_empty() && course.len() <= 18 && course.bytes().all(|b| b.is_ascii_digit());
        if !digits {
            return Some("Enter the Coassemble course id: the number in the course's address at Coassemble.");
        }
        let plain =
            |g: &str| !g.is_empty() && g.len() <= 100 && g.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if group.as_deref().is_some_and(|g| !plain(g)) {
            return Some("A group is up to 100 letters, digits, dots, hyphens or underscores, or left blank.");
        }
        None
    }
}

/// Why the provider did not open a course when the student asked, as the
/// player's address carries it back (`?open=…`) after the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaunchProblem {
    /// The site has no provider configured: the college is still setting
    /// the course up.
    NotConfigured,
    /// The provider was down, refused, or answered with an address that
    /// is not its own.
    Failed,
}

impl LaunchProblem {
    /// Its value in the player's query (`open=`).
    pub fn as_str(self) -> &'static str {
        match self {
            LaunchProblem::NotConfigured => "unavailable",
            LaunchProblem::Failed => "failed",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "unavailable" => Some(LaunchProblem::NotConfigured),
            "failed" => Some(LaunchProblem::Failed),
            _ => None,
        }
    }

    /// What the student is told, naming the provider.
    pub fn message(self, provider: &str) -> String {
        match self {
            LaunchProblem::NotConfigured => format!(
                "This course is not open yet: the college is still setting it up on {provider}. Please try again later, or contact us."
            ),
            LaunchProblem::Failed => {
                format!("{provider} could not open your course just now. Please try again in a few minutes; your progress is kept there.")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coassemble(course: &str, group: Option<&str>) -> CourseProvider {
        CourseProvider::Coassemble(ProviderCourse { course: course.to_owned(), group: group.map(str::to_owned) })
    }

    #[test]
    fn the_content_names_a_provider_course_as_the_pack_writes_it() {
        let yaml = r#"{"coassemble": {"course": "4321", "group": "level-4"}}"#;
        let provider: CourseProvider = serde_json::from_str(yaml).unwrap();
        assert_eq!(provider, coassemble("4321", Some("level-4")));
        assert_eq!(serde_json::to_value(coassemble("4321", None)).unwrap(), serde_json::json!({ "coassemble": { "course": "4321" } }));
        assert!(serde_json::from_str::<CourseProvider>(r#"{"moodle": {"course": "1"}}"#).is_err());
        assert!(serde_json::from_str::<CourseProvider>(r#"{"coassemble": {"course": "1", "extra": 2}}"#).is_err());
    }

    #[test]
    fn a_course_id_is_a_number_and_a_group_a_plain_identifier() {
        assert_eq!(coassemble("4321", None).problem(), None);
        assert_eq!(coassemble("4321", Some("clinic_2.north-west")).problem(), None);
        for bad in ["", "12a", "-1", "1234567890123456789", "4321 "] {
            assert!(coassemble(bad, None).problem().is_some_and(|m| m.contains("course id")), "{bad:?}");
        }
        for bad in ["", "a b", "<script>", &"g".repeat(101)] {
            assert!(coassemble("1", Some(bad)).problem().is_some_and(|m| m.contains("group")), "{bad:?}");
        }
    }

    #[test]
    fn stored_ids_name_the_provider_only_when_a_course_is_kept() {
        assert_eq!(CourseProvider::from_columns(Some("7".into()), None), Some(coassemble("7", None)));
        assert_eq!(CourseProvider::from_columns(None, Some("g".into())), None);
    }

    #[test]
    fn a_launch_problem_survives_the_round_trip_through_the_address() {
        for problem in [LaunchProblem::NotConfigured, LaunchProblem::Failed] {
            assert_eq!(LaunchProblem::parse(problem.as_str()), Some(problem));
        }
        assert_eq!(LaunchProblem::parse("<b>"), None);
        assert!(LaunchProblem::Failed.message("Coassemble").starts_with("Coassemble could not open your course"));
    }
}
