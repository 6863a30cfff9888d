//! `GET /media/uploads/<key>.<extension>`: an image staff uploaded
//! (decision 018), from the file store. The key never names other bytes, so
//! it may be cached for a year. An SVG is cleaned when it is uploaded, and
//! is served under a policy that would stop a script anyway.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use enrol_db::MediaRecord;
use enrol_images::SourceFormat;

use crate::AppState;
use crate::http::ApiError;
use crate::http::IMMUTABLE;

pub use enrol_db::content::UPLOADS;

/// The file store key in an uploaded image's file name (`<key>.<ext>`).
pub fn upload_key(file: &str) -> Option<&str> {
    enrol_db::content::upload_key(file).map(|(key, _)| key)
}

/// The uploaded image named `file` (below `/media/uploads/`) and its
/// bytes; 404 when no image has that name.
pub async fn read_upload(state: &AppState, file: &str) -> Result<(MediaRecord, Vec<u8>), ApiError> {
    let key = upload_key(file).ok_or(ApiError::NotFound)?;
    let media = state.db.media(key).await?.filter(|media| media.file_name == format!("{UPLOADS}{file}")).ok_or(ApiError::NotFound)?;
    let Some(bytes) = state.files.get(key).await? else {
        tracing::error!(key, "An uploaded image is missing from the file store");
        return Err(ApiError::NotFound);
    };
    Ok((media, bytes))
}

pub async fn show_upload(State(state): State<Arc<AppState>>, Path(file): Path<String>) -> Result<Response, ApiError> {
    let (media, bytes) = read_upload(&state, &file).await?;
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(&media.content_type).map_err(anyhow::Error::from)?);
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CACHE_CONTROL, IMMUTABLE);
    if media.content_type == SourceFormat::Svg.content_type() {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"));
        headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("inline"));
    }
    Ok(response)
}
