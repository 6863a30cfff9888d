//! The content media library (decision 018), for staff with
//! `Permission::Content`: images uploaded for the site's pages, listed
//! newest first, and their alt text changed. What an image may be and how
//! it is cleaned is `enrol_images` ([`Renderer::clean_upload`]); where the
//! bytes go is the file store, the one that keeps the students' files
//! (disk or bucket); they are served at `/media/uploads/…` ([`crate::http::media`]).
//!
//! The list also names the content pack's own images, which content may
//! name as well, so one picker offers both.
//!
//! An upload is JSON, `{alt, name, data}` with the file as base64, not a
//! multipart form or a raw body: every write to the API must be JSON from
//! the site's own pages (the same-site guard, decision 009), and the
//! back office then sends it with `postJson` like every other form, its
//! field errors placed the same way. Base64 costs a third more bytes on
//! the wire, for a file of at most 10 MB.
//!
//! [`Renderer::clean_upload`]: enrol_images::Renderer::clean_upload

use std::sync::Arc;

use anyhow::Context as _;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::content::{PackImage, pack_images};
use enrol_db::{MEDIA_LISTED, MediaRecord};
use enrol_domain::evidence::sent_file_name;
use enrol_domain::media::alt_text;
use enrol_images::UploadError;

use super::Staff;
use crate::AppState;
use crate::accounts::random_token;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;
use crate::http::media::UPLOADS;
use crate::images::clean_image;

/// The body limit of an upload: 10 MB as base64 is about 13.4 MB.
pub const UPLOAD_BODY_BYTES: usize = 14 * 1024 * 1024;

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct MediaUpload {
    alt: String,
    /// The file's name on the uploader's computer, kept for display.
    name: String,
    /// The file's bytes, base64: a JPEG, PNG, WebP or SVG of at most 10 MB.
    data: String,
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct AltChange {
    alt: String,
}

fn checked_alt(typed: &str) -> Result<String, ApiError> {
    alt_text(typed).map_err(|message| ApiError::field("alt", message))
}

/// `GET /api/admin/media`: the newest images, newest first, how many at
/// most are listed, and the content pack's images by file name.
pub async fn list_media(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let root = state.config.content_dir.clone();
    let pack = tokio::task::spawn_blocking(move || pack_images(&root)).await.context("Listing the pack's images stopped")??;
    Ok(Json(MediaLibrary { media: state.db.media_library().await?, limit: MEDIA_LISTED, pack }).into_response())
}

/// The newest uploads, how many at most are listed, and the pack's images.
#[derive(Serialize, TS)]
#[ts(export)]
struct MediaLibrary {
    media: Vec<MediaRecord>,
    #[ts(type = "number")]
    limit: i64,
    pack: Vec<PackImage>,
}

/// `POST /api/admin/media`: 201 with the image as kept.
#[tracing::instrument(skip_all, fields(staff = %staff.id))]
pub async fn upload_media(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    JsonBody(upload): JsonBody<MediaUpload>,
) -> Result<Response, ApiError> {
    let alt = checked_alt(&upload.alt)?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(upload.data.trim())
        .map_err(|_| ApiError::Unprocessable("The file did not arrive whole. Please try again.".to_owned()))?;
    let cleaned = clean_image(bytes, state.config.image_deadline).await?.map_err(|error| match error {
        UploadError::Encode(_) => anyhow::Error::new(error).context("Failed to clean an uploaded image").into(),
        refused => ApiError::Unprocessable(refused.to_string()),
    })?;
    let key = random_token();
    state.files.put(&key, &cleaned.bytes).await?;
    let media = MediaRecord {
        file_name: format!("{UPLOADS}{key}.{}", cleaned.format.extension()),
        content_type: cleaned.format.content_type().to_owned(),
        width: i64::from(cleaned.width),
        height: i64::from(cleaned.height),
        bytes: i64::try_from(cleaned.bytes.len()).context("size")?,
        alt,
        original_name: sent_file_name(&upload.name),
        uploaded_by: Some(staff.id.clone()),
        created_at: Utc::now(),
        key,
    };
    state.db.add_media(&media).await?;
    tracing::info!(key = %media.key, content_type = %media.content_type, bytes = media.bytes, "Image uploaded");
    Ok((StatusCode::CREATED, Json(media)).into_response())
}

/// `PUT /api/admin/media/{key}`: new alt text; the image as kept.
pub async fn edit_media(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(key): Path<String>,
    JsonBody(change): JsonBody<AltChange>,
) -> Result<Response, ApiError> {
    let alt = checked_alt(&change.alt)?;
    let media = state.db.edit_media_alt(&key, &alt, &staff.id, Utc::now()).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(media).into_response())
}
