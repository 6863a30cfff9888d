//! A course's own files in the back office (decision 028), for staff with
//! `Permission::Content`: listed with the courses that use them,
//! uploaded, read back and removed.
//!
//! An upload is the file's bytes as the body (`application/octet-stream`),
//! its name in the address (`?name=`), not JSON: a lesson's video may be a
//! gigabyte, which goes to the store as it arrives rather than through
//! memory as base64. Such a body, like JSON, cannot be sent across sites
//! without a CORS preflight, which this server never grants (the same-site
//! guard allows it on this route only).

use std::sync::Arc;

use anyhow::Context as _;
use axum::Json;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use futures_util::TryStreamExt as _;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{CourseFileRecord, CourseFileRemoved, CourseFileUse};
use enrol_domain::evidence::sent_file_name;
use enrol_domain::learning::course_file::{CourseFileKind, file_name, kind_label};

use super::Staff;
use crate::AppState;
use crate::accounts::random_token;
use crate::course_files::{NotStored, store};
use crate::http::ApiError;
use crate::http::course_files::{course_file, serve};

/// The address of uploads, below `/api/admin`: the one route whose body is not JSON.
pub const UPLOAD_PATH: &str = "/course-files";

/// A course file with the courses whose lessons name it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseFileListing {
    #[serde(flatten)]
    #[ts(flatten)]
    file: CourseFileRecord,
    /// "MP4", "PDF": what staff and students call its kind.
    format: &'static str,
    used_by: Vec<CourseFileUse>,
}

impl CourseFileListing {
    fn of(file: CourseFileRecord, used_by: Vec<CourseFileUse>) -> Self {
        let format = CourseFileKind::of_content_type(&file.content_type).map_or("File", CourseFileKind::format);
        CourseFileListing { file, format, used_by }
    }
}

#[derive(Serialize, TS)]
#[ts(export)]
struct CourseFileLibrary {
    files: Vec<CourseFileListing>,
}

/// `GET /api/admin/course-files`: every course file, newest first, with where it is used.
pub async fn list_course_files(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let mut uses = state.db.course_file_uses().await?;
    let files = state
        .db
        .course_files()
        .await?
        .into_iter()
        .map(|file| {
            let used_by = uses.remove(&file.file_name).unwrap_or_default();
            CourseFileListing::of(file, used_by)
        })
        .collect();
    Ok(Json(CourseFileLibrary { files }).into_response())
}

#[derive(Deserialize)]
pub struct UploadName {
    name: String,
}

/// `POST /api/admin/course-files?name=…`: 201 with the file as kept.
#[tracing::instrument(skip_all, fields(staff = %staff.id))]
pub async fn upload_course_file(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Query(upload): Query<UploadName>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let original_name = sent_file_name(&upload.name).ok_or_else(|| ApiError::field("name", "Give the file a name."))?;
    let announced = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok());
    let stream = Box::pin(body.into_data_stream().map_err(std::io::Error::other));
    let key = random_token();
    let stored = store(state.files.as_ref(), &key, stream, announced).await.map_err(|refused| match refused {
        NotStored::Failed(error) => ApiError::Internal(error.context("Failed to store a course file")),
        refused => ApiError::Unprocessable(refused.to_string()),
    })?;
    let file = CourseFileRecord {
        file_name: file_name(&key, stored.kind),
        content_type: stored.kind.content_type().to_owned(),
        bytes: i64::try_from(stored.bytes).context("size")?,
        original_name,
        uploaded_by: Some(staff.id.clone()),
        created_at: Utc::now(),
        key,
    };
    if let Err(error) = state.db.add_course_file(&file).await {
        // No row names the bytes: they go too.
        state.files.delete(&file.key).await?;
        return Err(error.into());
    }
    tracing::info!(key = %file.key, kind = kind_label(stored.kind), bytes = file.bytes, "Course file uploaded");
    Ok((StatusCode::CREATED, Json(CourseFileListing::of(file, Vec::new()))).into_response())
}

/// `GET /api/admin/course-files/{key}.{ext}`: the file, as a student would
/// get it, for staff to check what they uploaded.
pub async fn show_course_file(
    State(state): State<Arc<AppState>>,
    Path(file): Path<String>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    serve(&state, &course_file(&state, &file).await?, &method, &headers, false).await
}

/// `DELETE /api/admin/course-files/{key}.{ext}`: 204, the row and the
/// bytes gone; 409 naming the courses whose lessons or materials use it.
pub async fn remove_course_file(State(state): State<Arc<AppState>>, staff: Staff, Path(file): Path<String>) -> Result<Response, ApiError> {
    let key = course_file(&state, &file).await?.key;
    match state.db.remove_course_file(&key, &staff.id, Utc::now()).await? {
        CourseFileRemoved::Removed(_) => {
            // The row is gone, so nothing names the bytes: a failure here leaves them unreachable, not broken.
            if let Err(error) = state.files.delete(&key).await {
                tracing::error!(key, error = %error, "A removed course file's bytes could not be deleted from the store");
            }
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        CourseFileRemoved::NotFound => Err(ApiError::NotFound),
        CourseFileRemoved::InUse(uses) => Err(ApiError::Conflict(in_use(&uses))),
    }
}

/// "Used by Anatomy and physiology (published) and …: remove it from their lessons and materials first."
fn in_use(uses: &[CourseFileUse]) -> String {
    let courses: Vec<String> =
        uses.iter().map(|used| format!("{} ({})", used.title, if used.published { "published" } else { "draft" })).collect();
    format!("This file is used by {}: take it out of their lessons and materials first.", courses.join(", "))
}
