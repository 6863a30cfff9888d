//! What a buyer agrees to at checkout (decision 020): the terms and the
//! cancellation policy for every order; for online courses, the express
//! request to start at once and the acknowledgement that the 14-day right
//! to cancel is then lost (Consumer Contracts Regulations 2013, reg. 37,
//! digital content); for a course with entry requirements, that the buyer
//! meets them. The wording is versioned and recorded with the order, word
//! for word, when it was agreed. The web shows the same words, checked
//! against `consent-texts.json` by both sides.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::contact::FieldErrors;

/// The version of the wording below; a change of wording is a new version.
pub const CONSENT_VERSION: &str = "2026-11-26";
/// Every order: the terms and the cancellation policy.
pub const TERMS: &str = "I accept the terms and conditions, including the cancellation policy.";
/// An online order: the express request to start at once, and its cost.
pub const DIGITAL_CONTENT: &str =
    "I want access to my online course straight away. I understand that once my access starts I lose my right to cancel within 14 days.";
/// Refused without the terms accepted.
pub const TERMS_MISSING: &str = "Please accept the terms and conditions to continue";
/// Refused without the digital content request.
pub const DIGITAL_CONTENT_MISSING: &str = "Please confirm you want access straight away to continue";
/// Refused without each entry requirement confirmed.
pub const ENTRY_REQUIREMENTS_MISSING: &str = "Please confirm you meet the entry requirements of each course";
/// Refused when the page was made with older wording.
pub const VERSION_CHANGED: &str = "Our terms have changed since this page loaded: please reload it, read them and accept them again";

/// The confirmation for a course with entry requirements.
pub fn entry_requirements(course_title: &str) -> String {
    format!("I meet the entry requirements of {course_title}, and I will send proof of them before training.")
}

/// What the buyer ticked, as the checkout sends it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct Agreed {
    /// The [`CONSENT_VERSION`] of the wording the buyer read.
    pub version: String,
    pub terms: bool,
    /// Online orders: the request to start at once ([`DIGITAL_CONTENT`]).
    #[serde(default)]
    pub digital_content: bool,
    /// In-person orders: the ids of the courses whose entry requirements
    /// the buyer confirmed meeting.
    #[serde(default)]
    pub entry_requirements: Vec<String>,
}

/// One thing agreed, as it is kept with the order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Consent {
    /// `terms`, `digital_content` or `entry_requirements`.
    pub kind: &'static str,
    /// The course it is about, for entry requirements.
    pub course_id: Option<String>,
    pub version: &'static str,
    /// The words agreed to, as shown.
    pub wording: String,
}

/// A course of the order with entry requirements to confirm.
#[derive(Debug, Clone, Copy)]
pub struct WithRequirements<'a> {
    pub course_id: &'a str,
    pub title: &'a str,
}

/// What an order must have agreed to, from what the buyer sent: the
/// records to keep, or the field errors to show beside the boxes.
pub fn check_agreed(agreed: &Agreed, online: bool, requiring: &[WithRequirements<'_>]) -> Result<Vec<Consent>, FieldErrors> {
    let mut errors = FieldErrors::new();
    if agreed.version != CONSENT_VERSION {
        errors.insert("agreed", VERSION_CHANGED);
        return Err(errors);
    }
    if !agreed.terms {
        errors.insert("agreed.terms", TERMS_MISSING);
    }
    if online && !agreed.digital_content {
        errors.insert("agreed.digitalContent", DIGITAL_CONTENT_MISSING);
    }
    if requiring.iter().any(|course| !agreed.entry_requirements.iter().any(|id| id == course.course_id)) {
        errors.insert("agreed.entryRequirements", ENTRY_REQUIREMENTS_MISSING);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let record = |kind, course_id: Option<&str>, wording: String| Consent {
        kind,
        course_id: course_id.map(str::to_owned),
        version: CONSENT_VERSION,
        wording,
    };
    let mut kept = vec![record("terms", None, TERMS.to_owned())];
    if online {
        kept.push(record("digital_content", None, DIGITAL_CONTENT.to_owned()));
    }
    kept.extend(requiring.iter().map(|course| record("entry_requirements", Some(course.course_id), entry_requirements(course.title))));
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    /// The wording the web shows, kept beside this file.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Texts {
        version: String,
        terms: String,
        digital_content: String,
        entry_requirements: Example,
    }

    #[derive(Deserialize)]
    struct Example {
        title: String,
        text: String,
    }

    #[test]
    fn the_web_shows_the_words_recorded() {
        let texts: Texts = serde_json::from_str(include_str!("consent-texts.json")).expect("valid texts");
        assert_eq!(texts.version, CONSENT_VERSION);
        assert_eq!(texts.terms, TERMS);
        assert_eq!(texts.digital_content, DIGITAL_CONTENT);
        assert_eq!(entry_requirements(&texts.entry_requirements.title), texts.entry_requirements.text);
    }

    fn agreed(terms: bool, digital: bool, courses: &[&str]) -> Agreed {
        Agreed {
            version: CONSENT_VERSION.to_owned(),
            terms,
            digital_content: digital,
            entry_requirements: courses.iter().map(|c| (*c).to_owned()).collect(),
        }
    }

    const LIPS: WithRequirements<'static> = WithRequirements { course_id: "lip-fillers", title: "Lip Fillers" };

    #[test]
    fn an_order_keeps_each_thing_agreed_word_for_word() {
        let kept = check_agreed(&agreed(true, false, &["lip-fillers"]), false, &[LIPS]).expect("agreed");
        assert_eq!(kept.iter().map(|c| c.kind).collect::<Vec<_>>(), ["terms", "entry_requirements"]);
        assert_eq!(kept[1].course_id.as_deref(), Some("lip-fillers"));
        assert!(kept[1].wording.contains("entry requirements of Lip Fillers"));
        let online = check_agreed(&agreed(true, true, &[]), true, &[]).expect("agreed");
        assert_eq!(online.iter().map(|c| c.kind).collect::<Vec<_>>(), ["terms", "digital_content"]);
        assert_eq!(online[1].wording, DIGITAL_CONTENT);
    }

    #[test]
    fn what_is_not_ticked_is_refused_beside_its_box() {
        let errors = check_agreed(&agreed(false, false, &[]), true, &[LIPS]).unwrap_err();
        assert_eq!(errors.get("agreed.terms"), Some(&TERMS_MISSING));
        assert_eq!(errors.get("agreed.digitalContent"), Some(&DIGITAL_CONTENT_MISSING));
        assert_eq!(errors.get("agreed.entryRequirements"), Some(&ENTRY_REQUIREMENTS_MISSING));
        let other_course = check_agreed(&agreed(true, false, &["botox"]), false, &[LIPS]).unwrap_err();
        assert_eq!(other_course.len(), 1, "confirming another course does not confirm this one");
    }

    #[test]
    fn older_wording_is_read_again() {
        let mut old = agreed(true, true, &[]);
        old.version = "2020-01-01".to_owned();
        assert_eq!(check_agreed(&old, true, &[]).unwrap_err().get("agreed"), Some(&VERSION_CHANGED));
    }
}
