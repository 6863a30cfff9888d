use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// `/feedback/?token=…`, the link of the mail sent when attendance is
/// marked (decision 034).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FeedbackPage {
    /// The day asked about; `None` when the link is not known.
    pub asked: Option<FeedbackAsked>,
}

/// The training day a feedback link asks about.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FeedbackAsked {
    pub course_title: String,
    pub course_url: String,
    /// `YYYY-MM-DD`
    pub date: String,
    pub tutor: Option<String>,
    /// The student's first name.
    pub given_name: String,
    /// Feedback is given once: the page thanks, and asks nothing more.
    pub answered: bool,
}
