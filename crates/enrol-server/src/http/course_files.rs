//! `GET /learn/{course}/files/{key}.{extension}`: a course file (decision
//! 028), for a student who may study the course now, and only when the
//! course's published lessons name it; anyone else, and any other file,
//! gets the same 404 as a file that does not exist. Answered in ranges
//! (RFC 9110), so a video plays from wherever the student seeks to, read
//! from the store a range at a time, never whole.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use enrol_db::CourseFileRecord;
use enrol_domain::byte_range::RangeAnswer;
use enrol_domain::learning::course_file::{FILES, parse_file_name};

use crate::AppState;
use crate::accounts::current_session;
use crate::http::ApiError;
use crate::http::learning::may_study;

/// `?download`: given as an attachment under the name it was uploaded
/// with, rather than shown in the page.
#[derive(Deserialize)]
pub struct Disposition {
    download: Option<String>,
}

impl Disposition {
    pub fn wants_download(&self) -> bool {
        self.download.is_some()
    }
}

/// The course file `file` (`<key>.<extension>`), if there is one.
pub async fn course_file(state: &AppState, file: &str) -> Result<CourseFileRecord, ApiError> {
    let (key, _) = parse_file_name(file).ok_or(ApiError::NotFound)?;
    state.db.course_file(key).await?.filter(|record| record.file_name == format!("{FILES}{file}")).ok_or(ApiError::NotFound)
}

pub async fn show_course_file(
    State(state): State<Arc<AppState>>,
    Path((course_id, file)): Path<(String, String)>,
    Query(disposition): Query<Disposition>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let session = current_session(&state, &headers).await?.ok_or(ApiError::NotFound)?;
    may_study(&state, &session.user.id, &course_id).await?;
    let record = course_file(&state, &file).await?;
    let curriculum = state.db.published_course(&course_id).await?.and_then(|course| course.learning).ok_or(ApiError::NotFound)?;
    if !curriculum.names_file(&record.file_name) {
        return Err(ApiError::NotFound);
    }
    serve(&state, &record, &method, &headers, disposition.wants_download()).await
}

/// The answer with `record`'s bytes that `headers` ask for: whole, one
/// range, or 416; only headers for `HEAD`.
pub async fn serve(
    state: &AppState,
    record: &CourseFileRecord,
    method: &Method,
    headers: &HeaderMap,
    download: bool,
) -> Result<Response, ApiError> {
    let length = u64::try_from(record.bytes).map_err(anyhow::Error::from)?;
    let etag = format!("\"{}\"", record.key);
    // A range applies only to the file it was asked of; the key never names other bytes.
    let range = headers
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .filter(|_| headers.get(header::IF_RANGE).is_none_or(|condition| condition.as_bytes() == etag.as_bytes()));
    let answer = RangeAnswer::of(range, length);
    let (status, bytes) = match answer {
        RangeAnswer::Whole => (StatusCode::OK, Some(0..length)),
        RangeAnswer::Part { first, last } => (StatusCode::PARTIAL_CONTENT, Some(first..last + 1)),
        RangeAnswer::Unsatisfiable => (StatusCode::RANGE_NOT_SATISFIABLE, None),
    };
    let body = match (&bytes, *method == Method::HEAD) {
        (Some(bytes), false) => {
            let Some(stream) = state.files.get_range(&record.key, bytes.clone()).await? else {
                tracing::error!(key = record.key, "A course file is missing from the file store");
                return Err(ApiError::NotFound);
            };
            Body::from_stream(stream)
        }
        _ => Body::empty(),
    };
    let mut response = (status, body).into_response();
    let out = response.headers_mut();
    let value = |text: &str| HeaderValue::from_str(text).map_err(anyhow::Error::from);
    out.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    out.insert(header::ETAG, value(&etag)?);
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=3600"));
    out.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    match bytes {
        Some(bytes) => {
            out.insert(header::CONTENT_TYPE, value(&record.content_type)?);
            out.insert(header::CONTENT_LENGTH, value(&(bytes.end - bytes.start).to_string())?);
            if status == StatusCode::PARTIAL_CONTENT {
                out.insert(header::CONTENT_RANGE, value(&format!("bytes {}-{}/{length}", bytes.start, bytes.end - 1))?);
            }
            out.insert(header::CONTENT_DISPOSITION, value(&disposition(record, download))?);
        }
        None => {
            out.insert(header::CONTENT_RANGE, value(&format!("bytes */{length}"))?);
        }
    }
    Ok(response)
}

/// `inline`, or `attachment` with the uploaded name: ASCII as it is, the
/// name in full (RFC 5987) beside it.
fn disposition(record: &CourseFileRecord, download: bool) -> String {
    if !download {
        return "inline".to_owned();
    }
    let ascii: String = record.original_name.chars().map(|c| if c.is_ascii_graphic() || c == ' ' { c } else { '_' }).collect();
    let encoded = percent_encoding::utf8_percent_encode(&record.original_name, percent_encoding::NON_ALPHANUMERIC);
    format!("attachment; filename=\"{}\"; filename*=UTF-8''{encoded}", ascii.replace(['"', '\\'], "_"))
}
