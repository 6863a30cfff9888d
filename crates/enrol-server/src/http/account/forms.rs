//! A student's forms and evidence: answers saved as a draft or complete,
//! files sent for an evidence request, and those files read back.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::{Student, kept_private, private};

use std::collections::BTreeMap;

use base64::Engine as _;
use chrono::Utc;

use enrol_db::{FILES_PER_REQUEST, NewUpload, StoredUpload, UploadRecorded, UploadRoom};
use enrol_domain::{evidence, forms};

use crate::accounts::random_token;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FormAnswers {
    /// Answers by question key; yes/no questions take "yes" or "no".
    answers: BTreeMap<String, String>,
    /// Marks the form answered in full: every required question needs an answer.
    #[serde(default)]
    complete: bool,
}

#[derive(Serialize, ToSchema)]
pub struct FormSaved {
    complete: bool,
}

/// `PUT /api/account/forms/{id}`: saves the answers to one of the caller's
/// forms, as a draft or complete.
#[utoipa::path(
    put,
    path = "/api/account/forms/{id}",
    tag = "account",
    params(("id" = String, Path, description = "The form's id")),
    request_body(content = FormAnswers, example = json!({ "answers": { "conditions": "no" }, "complete": false })),
    responses(
        (status = 200, description = "Saved", body = FormSaved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such form of the caller's", body = ErrorEnvelope),
        (status = 422, description = "A message per question to correct (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn save_form(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<FormAnswers>,
) -> Result<Response, ApiError> {
    let kind = state.db.form_kind(&record.user.id, &id).await?.ok_or(ApiError::NotFound)?;
    let answers = forms::check_answers(&kind, &request.answers, request.complete).map_err(ApiError::Invalid)?;
    if !state.db.save_form_answers(&record.user.id, &id, &answers, request.complete, Utc::now()).await? {
        return Err(ApiError::NotFound);
    }
    Ok(private(StatusCode::OK, FormSaved { complete: request.complete }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceFile {
    /// The file's name on the student's device.
    file_name: String,
    /// The file's bytes, base64: a PDF, JPEG, PNG or WebP of at most 5 MB.
    data: String,
}

#[derive(Serialize, ToSchema)]
pub struct UploadSaved {
    id: String,
    file_name: String,
    content_type: String,
}

/// `POST /api/account/upload-requests/{id}/files`: a file for one of the
/// caller's evidence requests. JSON, so the same-site rule of every write
/// holds (decision 009).
#[utoipa::path(
    post,
    path = "/api/account/upload-requests/{id}/files",
    tag = "account",
    params(("id" = String, Path, description = "The evidence request's id")),
    request_body(content = EvidenceFile, example = json!({ "file_name": "level-2.pdf", "data": "JVBERi0xLjcK" })),
    responses(
        (status = 201, description = "Kept", body = UploadSaved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such evidence request of the caller's", body = ErrorEnvelope),
        (status = 409, description = "The request has all the files it takes (`conflict`)", body = ErrorEnvelope),
        (status = 413, description = "Larger than the server takes", body = ErrorEnvelope),
        (status = 422, description = "Not a PDF or an image, empty, or over 5 MB (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn upload_evidence(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    Path(request_id): Path<String>,
    JsonBody(file): JsonBody<EvidenceFile>,
) -> Result<Response, ApiError> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(file.data.trim())
        .map_err(|_| ApiError::Unprocessable("The file did not arrive whole. Please try again.".to_owned()))?;
    let kind = evidence::check(&bytes).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    let file_name = evidence::file_name(&file.file_name);
    // Whose request it is, and whether it has room, before anything is stored.
    match state.db.upload_room(&record.user.id, &request_id).await? {
        UploadRoom::Open => {}
        refused => return Err(no_room(&refused)),
    }
    let key = random_token();
    state.files.put(&key, &bytes).await?;
    let upload = NewUpload {
        request_id: &request_id,
        file_name: &file_name,
        content_type: kind.content_type(),
        size_bytes: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
        storage_key: &key,
    };
    let recorded = state.db.record_upload(&record.user.id, &upload, Utc::now()).await;
    let refused = match recorded {
        Ok(UploadRecorded::Recorded { id }) => {
            return Ok(private(StatusCode::CREATED, UploadSaved { id, file_name, content_type: kind.content_type().to_owned() }));
        }
        Ok(UploadRecorded::Refused(room)) => no_room(&room),
        Err(error) => ApiError::Internal(error),
    };
    // Not recorded (a request filled meanwhile, or the database failed): the file goes too.
    if let Err(error) = state.files.delete(&key).await {
        tracing::error!(error = %format!("{error:#}"), %key, "An evidence file that was not recorded could not be deleted");
    }
    Err(refused)
}

/// Why a file was not taken for an evidence request.
fn no_room(room: &UploadRoom) -> ApiError {
    match room {
        UploadRoom::Full => ApiError::Conflict(format!(
            "You have sent {FILES_PER_REQUEST} files for this already. If one is wrong, please ask the college to remove it."
        )),
        UploadRoom::Open | UploadRoom::NotFound => ApiError::NotFound,
    }
}

/// `GET /api/account/uploads/{id}`: one of the caller's files, as a download.
#[utoipa::path(
    get,
    path = "/api/account/uploads/{id}",
    tag = "account",
    params(("id" = String, Path, description = "The upload's id")),
    responses(
        (status = 200, description = "The file, as an attachment", content_type = "application/octet-stream"),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such file of the caller's", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn download_upload(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let upload = state.db.upload_of(&record.user.id, &id).await?.ok_or(ApiError::NotFound)?;
    sent_file(&state, &upload).await
}

/// A file a student sent, as a private download that never runs as a
/// page, whatever it holds: to the student, or to staff reviewing it.
pub(crate) async fn sent_file(state: &AppState, upload: &StoredUpload) -> Result<Response, ApiError> {
    let bytes = state.files.get(&upload.storage_key).await?.ok_or(ApiError::NotFound)?;
    let disposition = format!("attachment; filename=\"{}\"", evidence::file_name(&upload.file_name).replace(|c: char| !c.is_ascii(), "_"));
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_str(&upload.content_type).map_err(anyhow::Error::from)?),
        (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox; default-src 'none'")),
    ];
    Ok(kept_private((headers, bytes).into_response()))
}
