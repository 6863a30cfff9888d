//! A booked student's readiness for training, from a roster (issue 29,
//! decision 033): their forms and documents opened by staff whose role
//! allows it (tutors on their own sessions only; medical answers only for
//! the roles that may read them), each opening audited, and the verdict
//! on a document, turned down only with a reason the student is mailed.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::Deserialize;
use ts_rs::TS;

use enrol_db::{BookingReadiness, Reader, Review};
use enrol_domain::readiness::Verdict;
use enrol_domain::readiness::mail::{Student, document_turned_down};
use enrol_domain::staff::Permission;

use super::Staff;
use super::rosters::readable_session;
use crate::AppState;
use crate::http::ApiError;
use crate::http::account::forms::sent_file;
use crate::http::json_body::JsonBody;
use crate::http::student::kept_private;

/// `GET /api/admin/sessions/{id}/readiness/{enrollmentId}`.
pub async fn show_readiness(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, enrollment_id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    readable_session(&state, &staff, &id).await?;
    let reader = Reader { staff_id: &staff.id, medical_answers: staff.role.allows(Permission::MedicalAnswers) };
    let found: BookingReadiness =
        state.db.open_booking_readiness(&id, &enrollment_id, reader, Utc::now()).await?.ok_or(ApiError::NotFound)?;
    Ok(kept_private(Json(found).into_response()))
}

/// `GET /api/admin/sessions/{id}/readiness/{enrollmentId}/uploads/{uploadId}`:
/// a file the student sent, as a download that never runs as a page.
pub async fn download_upload(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, enrollment_id, upload_id)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    readable_session(&state, &staff, &id).await?;
    let upload = state.db.open_student_upload(&id, &enrollment_id, &upload_id, &staff.id, Utc::now()).await?.ok_or(ApiError::NotFound)?;
    sent_file(&state, &upload).await
}

/// Staff's verdict on a document.
#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct DocumentVerdict {
    accepted: bool,
    /// Required when the document is turned down: mailed to the student.
    #[serde(default)]
    reason: String,
}

/// `PUT /api/admin/sessions/{id}/readiness/{enrollmentId}/documents/{requestId}`.
pub async fn review_document(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, enrollment_id, request_id)): Path<(String, String, String)>,
    JsonBody(body): JsonBody<DocumentVerdict>,
) -> Result<StatusCode, ApiError> {
    readable_session(&state, &staff, &id).await?;
    let verdict = Verdict::new(body.accepted, &body.reason).map_err(|problem| ApiError::field("reason", problem))?;
    let college = state.db.college().await?.name;
    let public_url = &state.config.public_url;
    let mail_for = |email: &str, given_name: &str, title: &str, reason: &str| {
        document_turned_down(Student { email, given_name, public_url, college: &college }, title, reason)
    };
    match state.db.review_document(&id, &enrollment_id, &request_id, &verdict, mail_for, &staff.id, Utc::now()).await? {
        Review::Done => Ok(StatusCode::NO_CONTENT),
        Review::NotFound => Err(ApiError::NotFound),
        Review::NothingToJudge => Err(ApiError::Conflict("Nothing has been sent for this document yet.".to_owned())),
    }
}
