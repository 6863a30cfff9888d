//! `GET /mail/logo.png`: the college's logo at the top of its mails. Mail
//! clients draw no SVG and not all draw WebP, so it is a PNG, drawn at
//! twice the 180 px it is shown at for sharp screens.

use std::sync::Arc;

use anyhow::Context as _;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::http::{ApiError, images};

const WIDTH: u32 = 360;

pub async fn show_mail_logo(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let site = state.db.site().await?.ok_or(ApiError::NotFound)?.site;
    let pixels = images::site_image_pixels(&state, &site.logo.url, WIDTH).await?;
    let png = tokio::task::spawn_blocking(move || enrol_images::encode_png(&pixels))
        .await
        .context("The logo task failed")?
        .context("Failed to encode the logo")?;
    let mut response = png.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    // Mails opened days later still show it; a new logo shows within a day.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
    Ok(response)
}
