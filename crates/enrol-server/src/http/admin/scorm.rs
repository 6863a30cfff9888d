//! A course's SCORM package in the back office (decision 026), for staff
//! with `Permission::Content`: what the course has, and a new package
//! uploaded in its place. The zip is checked whole against the limits of
//! `enrol_domain::learning::scorm::package` before anything is kept; a
//! refused package leaves no file and no row, and says why.
//!
//! The upload is JSON with the zip as base64, as the media library's is
//! ([`super::media`]): every write to the API is JSON from the site's
//! own pages.

use std::sync::Arc;

use anyhow::Context as _;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::PackageRecord;
use enrol_domain::evidence::sent_file_name;
use enrol_domain::learning::scorm::package::LIMITS;

use super::Staff;
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;

/// The body limit of an upload: the largest zip as base64, with room.
pub const UPLOAD_BODY_BYTES: usize = 70 * 1024 * 1024;

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct PackageUpload {
    /// The zip's name on the uploader's computer, kept for display.
    name: String,
    /// The zip's bytes, base64.
    data: String,
}

/// What a course's package is, and how large one may be.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct CoursePackage {
    package: Option<PackageRecord>,
    limits: PackageLimitsShown,
}

/// The limits, as the upload form tells staff.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct PackageLimitsShown {
    #[ts(type = "number")]
    upload_megabytes: u64,
    #[ts(type = "number")]
    unpacked_megabytes: u64,
    #[ts(type = "number")]
    files: u64,
}

const MIB: u64 = 1024 * 1024;

/// The online course `course_id` as published, or 404 for anything else.
async fn online_course(state: &AppState, course_id: &str) -> Result<(), ApiError> {
    match state.db.published_course(course_id).await? {
        Some(course) if course.online => Ok(()),
        Some(_) => Err(ApiError::Unprocessable("Only an online course is taught by a SCORM package.".to_owned())),
        None => Err(ApiError::NotFound),
    }
}

/// `GET /api/admin/courses/{id}/package`.
pub async fn show_package(State(state): State<Arc<AppState>>, Path(course_id): Path<String>) -> Result<Response, ApiError> {
    online_course(&state, &course_id).await?;
    let limits = PackageLimitsShown {
        upload_megabytes: LIMITS.upload_bytes / MIB,
        unpacked_megabytes: LIMITS.unpacked_bytes / MIB,
        files: LIMITS.files as u64,
    };
    Ok(Json(CoursePackage { package: state.db.course_package(&course_id).await?, limits }).into_response())
}

/// `POST /api/admin/courses/{id}/package`: 201 with the package as kept,
/// or 422 saying why it was refused.
#[tracing::instrument(skip_all, fields(staff = %staff.id, course = %course_id))]
pub async fn upload_package(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(course_id): Path<String>,
    JsonBody(upload): JsonBody<PackageUpload>,
) -> Result<Response, ApiError> {
    online_course(&state, &course_id).await?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(upload.data.trim())
        .map_err(|_| ApiError::Unprocessable("The file did not arrive whole. Please try again.".to_owned()))?;
    let unpacked = tokio::task::spawn_blocking(move || crate::scorm::unpack(&bytes)).await.context("Unpacking the package stopped")?;
    let unpacked = unpacked.map_err(|refused| {
        tracing::warn!(%refused, "A SCORM package was refused");
        ApiError::Unprocessable(refused.to_string())
    })?;
    let name = sent_file_name(&upload.name).unwrap_or_else(|| "package.zip".to_owned());
    let package = crate::scorm::keep(&state.db, state.files.as_ref(), &course_id, unpacked, &name, Some(&staff.id)).await?;
    Ok((StatusCode::CREATED, Json(package)).into_response())
}
