//! "Add to calendar" (decision 015): a paid booking's training as
//! an iCalendar file, for the browser that booked it or its signed-in
//! owner; the same file the confirmation mail carries.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;

use enrol_domain::booking::BookedTraining;
use enrol_domain::page::EnrollmentStatus;

use crate::AppState;
use crate::buyer::Viewer;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;

/// `GET /api/enrollments/{id}/calendar.ics`: the booking's dated training.
#[utoipa::path(
    get,
    path = "/api/enrollments/{id}/calendar.ics",
    tag = "checkout",
    params(("id" = String, Path, description = "The booking's id")),
    responses(
        (status = 200, description = "The calendar file (RFC 5545), as an attachment", content_type = "text/calendar"),
        (status = 404, description = "No paid booking with dated training made by this browser or its signed-in owner", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn download_calendar(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let viewer = Viewer::of(&state, &headers).await?;
    let order = state
        .db
        .enrollment(&id)
        .await?
        .filter(|o| viewer.owns(o.owner_token_hash.as_deref(), o.user_id.as_deref()))
        .filter(|o| matches!(o.status, EnrollmentStatus::Deposit | EnrollmentStatus::Completed))
        .ok_or(ApiError::NotFound)?;
    let sessions: Vec<String> = order.courses.iter().filter_map(|c| c.session_id.clone()).collect();
    let times = state.db.session_times(&sessions).await?;
    let college = state.db.college().await?;
    let training = BookedTraining {
        order_id: &order.id,
        reference: &order.reference,
        sequence: order.calendar_sequence,
        courses: &order.courses,
        times: &times,
        venue: &college.address,
    };
    let invite = training.calendar(&college.name, &college.email_address, Utc::now()).ok_or(ApiError::NotFound)?;
    let disposition = format!("attachment; filename=\"booking-{}.ics\"", order.reference);
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_str(&invite.content_type).map_err(anyhow::Error::from)?),
        (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?),
        (header::CACHE_CONTROL, HeaderValue::from_static("private, no-store")),
    ];
    Ok((headers, invite.body).into_response())
}
