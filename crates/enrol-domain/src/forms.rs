//! The forms a course needs before training (`user_form`, decision 014): a
//! consultation form and a medical form, their questions, and what makes a
//! set of answers one the college can keep or one that is complete.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::contact::FieldErrors;

/// The longest answer kept.
pub const MAX_ANSWER: usize = 2000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::Enum), graphql(rename_items = "snake_case"))]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum AnswerKind {
    /// One line.
    Text,
    /// A paragraph.
    LongText,
    /// "yes" or "no".
    YesNo,
}

/// One question of a form, as the page asks it.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct FormQuestion {
    pub key: &'static str,
    pub label: &'static str,
    pub kind: AnswerKind,
    pub required: bool,
    /// Shown under the label.
    pub hint: Option<&'static str>,
}

const fn question(key: &'static str, label: &'static str, kind: AnswerKind, required: bool, hint: Option<&'static str>) -> FormQuestion {
    FormQuestion { key, label, kind, required, hint }
}

const CONSULTATION: &[FormQuestion] = &[
    question("experience", "Your experience in beauty or aesthetics", AnswerKind::LongText, true, None),
    question(
        "qualifications",
        "Your highest beauty or medical qualification",
        AnswerKind::Text,
        true,
        Some("For example NVQ Level 3 in Beauty Therapy"),
    ),
    question("goals", "What you want from this course", AnswerKind::LongText, true, None),
];

const MEDICAL: &[FormQuestion] = &[
    question("conditions", "Do you have a medical condition we should know about?", AnswerKind::YesNo, true, None),
    question("condition_details", "If so, tell us about it", AnswerKind::LongText, false, None),
    question("medication", "Medication you take", AnswerKind::Text, false, Some("Leave blank if none")),
    question("allergies", "Do you have any allergies (for example to latex or lidocaine)?", AnswerKind::YesNo, true, None),
    question("pregnant", "Are you pregnant or breastfeeding?", AnswerKind::YesNo, true, None),
    question("emergency_contact", "Emergency contact: name and phone number", AnswerKind::Text, true, None),
];

/// The yes/no questions of the medical form whose "yes" asks the college
/// to call the student before training.
const CALL_IF_YES: &[&str] = &["conditions", "allergies", "pregnant"];

/// Whether `answers` to a form of `kind` ask the college to call before
/// training: staff see that they do, never the answer itself.
pub fn asks_for_a_call(kind: &str, answers: &[(&'static str, String)]) -> bool {
    kind == "medical" && answers.iter().any(|(key, answer)| CALL_IF_YES.contains(key) && answer == "yes")
}

/// consultation or medical, as stored in `user_form.kind`.
pub fn questions(kind: &str) -> &'static [FormQuestion] {
    match kind {
        "consultation" => CONSULTATION,
        "medical" => MEDICAL,
        _ => &[],
    }
}

/// Checks `answers` to a form of `kind`: every key must be one of its
/// questions, a yes/no answer "yes" or "no", no answer over
/// [`MAX_ANSWER`]; to `complete` the form, every required question needs an
/// answer. Returns the answers to keep, trimmed, empty ones left out.
pub fn check_answers(kind: &str, answers: &BTreeMap<String, String>, complete: bool) -> Result<Vec<(&'static str, String)>, FieldErrors> {
    let asked = questions(kind);
    let mut errors = FieldErrors::new();
    if answers.keys().any(|key| !asked.iter().any(|q| q.key == key.as_str())) {
        errors.insert("answers", "This form does not ask that question.");
        return Err(errors);
    }
    let mut kept = Vec::new();
    for q in asked {
        let answer = answers.get(q.key).map_or("", |a| a.trim());
        if answer.is_empty() {
            if complete && q.required {
                errors.insert(q.key, "Please answer this question");
            }
            continue;
        }
        if answer.chars().count() > MAX_ANSWER {
            errors.insert(q.key, "Please keep this answer under 2,000 characters");
        } else if q.kind == AnswerKind::YesNo && !matches!(answer, "yes" | "no") {
            errors.insert(q.key, "Choose yes or no");
        } else {
            kept.push((q.key, answer.to_owned()));
        }
    }
    if errors.is_empty() { Ok(kept) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn a_yes_to_a_condition_an_allergy_or_pregnancy_asks_for_a_call() {
        let said = |pairs: &[(&'static str, &str)]| pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect::<Vec<_>>();
        assert!(asks_for_a_call("medical", &said(&[("conditions", "no"), ("allergies", "yes")])));
        assert!(asks_for_a_call("medical", &said(&[("pregnant", "yes")])));
        assert!(!asks_for_a_call("medical", &said(&[("conditions", "no"), ("allergies", "no"), ("pregnant", "no")])));
        assert!(!asks_for_a_call("consultation", &said(&[("conditions", "yes")])), "only the medical form asks");
    }

    #[test]
    fn a_draft_keeps_what_is_answered_and_completing_needs_every_required_answer() {
        let draft = answers(&[("conditions", "no"), ("medication", "  ")]);
        assert_eq!(check_answers("medical", &draft, false).unwrap(), vec![("conditions", "no".to_owned())]);
        let errors = check_answers("medical", &draft, true).unwrap_err();
        assert_eq!(errors.keys().copied().collect::<Vec<_>>(), ["allergies", "emergency_contact", "pregnant"]);
        let full = answers(&[("conditions", "no"), ("allergies", "yes"), ("pregnant", "no"), ("emergency_contact", "Sam 07700 900123")]);
        assert_eq!(check_answers("medical", &full, true).unwrap().len(), 4);
    }

    #[test]
    fn answers_are_checked_against_the_questions() {
        assert_eq!(check_answers("medical", &answers(&[("conditions", "maybe")]), false).unwrap_err()["conditions"], "Choose yes or no");
        assert!(check_answers("medical", &answers(&[("favourite_colour", "blue")]), false).unwrap_err().contains_key("answers"));
        let long = "x".repeat(MAX_ANSWER + 1);
        assert!(check_answers("consultation", &answers(&[("goals", &long)]), false).unwrap_err().contains_key("goals"));
        assert!(questions("unknown").is_empty());
    }
}
