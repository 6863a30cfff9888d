//! The content pack's file formats beyond the documents' bodies
//! (`enrol_domain::content`): what a course file seeds, and the discount
//! codes. Unknown fields are refused.

use chrono::NaiveDate;
use serde::Deserialize;

use enrol_domain::content::CourseBody;
use enrol_domain::page::SessionType;

/// `courses/<id>.yaml`: the course's document, and the dates and offer
/// the pack seeds (the back office runs them after). The two are taken out
/// before the rest is read as the document, which refuses unknown fields.
pub(super) struct CourseFile {
    pub(super) course: CourseBody,
    pub(super) sessions: Vec<SessionFile>,
    pub(super) upsell: Option<UpsellFile>,
}

impl CourseFile {
    pub(super) fn parse(text: &str) -> anyhow::Result<Self> {
        let mut file: serde_yaml::Mapping = serde_yaml::from_str(text)?;
        let mut take = |name: &str| file.remove(name).unwrap_or(serde_yaml::Value::Null);
        let sessions = match take("sessions") {
            serde_yaml::Value::Null => Vec::new(),
            sessions => serde_yaml::from_value(sessions)?,
        };
        let upsell = serde_yaml::from_value(take("upsell"))?;
        Ok(CourseFile { course: serde_yaml::from_value(serde_yaml::Value::Mapping(file))?, sessions, upsell })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SessionFile {
    pub(super) id: String,
    pub(super) offset_days: i64,
    pub(super) start: String,
    pub(super) end: String,
    #[serde(rename = "type")]
    pub(super) session_type: SessionType,
    pub(super) seats: i64,
    pub(super) registrations: i64,
    pub(super) price: i64,
    pub(super) seat_price: Option<i64>,
    /// The virtual classroom of a virtual or blended session.
    pub(super) joining_link: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UpsellFile {
    pub(super) title: String,
    pub(super) description: String,
    pub(super) cta: String,
    pub(super) product_id: String,
    pub(super) price: i64,
    /// The online course the add-on is, when it is one: buying it gives
    /// that course's access (decision 025).
    #[serde(default)]
    pub(super) course: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
pub(super) struct DiscountFile {
    pub(super) code: String,
    #[serde(rename = "type")]
    pub(super) kind: DiscountKind,
    pub(super) value: i64,
    pub(super) expires: Option<NaiveDate>,
    pub(super) max_uses: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum DiscountKind {
    Pound,
    Percent,
}
