//! Feedback after the day in the back office (decision 034): the answers
//! per course, date and tutor (a tutor reads their own sessions' only), and
//! a comment published on the course page, only with the student's
//! consent, or withdrawn from it.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::Utc;
use serde::Serialize;
use ts_rs::TS;

use enrol_db::{FeedbackDay, FeedbackPublished};

use super::Staff;
use super::sessions::own_sessions_of;
use crate::AppState;
use crate::http::ApiError;

/// Every date that asked for feedback, newest first.
#[derive(Serialize, TS)]
#[ts(export)]
pub struct FeedbackResults {
    days: Vec<FeedbackDay>,
}

/// `GET /api/admin/feedback`.
pub async fn list_feedback(State(state): State<Arc<AppState>>, staff: Staff) -> Result<Json<FeedbackResults>, ApiError> {
    let tutor = own_sessions_of(&staff);
    Ok(Json(FeedbackResults { days: state.db.feedback_days(tutor.as_deref()).await? }))
}

/// `POST /api/admin/feedback/{id}/publish`.
pub async fn publish_feedback(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    change(&state, &staff, &id, true).await
}

/// `POST /api/admin/feedback/{id}/withdraw`.
pub async fn withdraw_feedback(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    change(&state, &staff, &id, false).await
}

/// Publishes or withdraws answer `id`'s comment; this instance's cached
/// pages are dropped at once, the others' within seconds.
async fn change(state: &AppState, staff: &Staff, id: &str, publish: bool) -> Result<StatusCode, ApiError> {
    match state.db.publish_feedback(id, publish, &staff.id, Utc::now()).await? {
        FeedbackPublished::Done => {
            crate::notice_versions(state, Utc::now()).await?;
            Ok(StatusCode::NO_CONTENT)
        }
        FeedbackPublished::NotFound => Err(ApiError::NotFound),
        FeedbackPublished::NotAnswered => Err(ApiError::Conflict("The student has not answered yet.".to_owned())),
        FeedbackPublished::NoConsent => Err(ApiError::Conflict("The student did not agree to their comment being published.".to_owned())),
        FeedbackPublished::NoComment => Err(ApiError::Unprocessable("There is no comment to publish.".to_owned())),
    }
}
