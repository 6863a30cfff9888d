//! Requests that change something must be JSON from the site's own pages.
//! Browsers cannot send a cross-site JSON request without a CORS preflight,
//! which this server never grants, and a foreign `Origin` is refused
//! outright: cookies can then never be used by another site (CSRF). The
//! one plain form post with the session (the player's "Open your course",
//! decision 029) must name the site as its origin. The one upload too large
//! for JSON, a course file (decision 028), is a raw
//! `application/octet-stream` body, which needs a preflight just the same.

use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::http::ApiError;

/// Whether `origin` is this site's: its public address, or the host the
/// request was sent to. The back office's own origin, when it has one
/// (decision 030), is the only one its requests may come from.
fn is_own_origin(state: &AppState, headers: &HeaderMap, origin: &HeaderValue) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let origin = origin.to_str().unwrap_or_default();
    match &state.config.admin_origin {
        Some(admin) if admin.is_host(host) => origin == admin.as_str(),
        _ => origin == state.config.public_url || origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) == Some(host),
    }
}

/// Whether a form post came from one of the site's own pages: browsers
/// name the page's origin on every form post (and send the `SameSite=Lax`
/// session cookie on none from another site), so a post without it, or
/// from elsewhere, is not one the student made here.
pub(crate) fn is_own_form_post(state: &AppState, headers: &HeaderMap) -> bool {
    headers.get(header::ORIGIN).is_some_and(|origin| is_own_origin(state, headers, origin))
}

/// The route that takes a file as its body, as axum matches it.
const RAW_UPLOAD: &str = "/api/admin/course-files";

pub async fn same_site_json(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let headers = request.headers();
    if let Some(origin) = headers.get(header::ORIGIN)
        && !is_own_origin(&state, headers, origin)
    {
        return ApiError::CrossSite.into_response();
    }
    let media_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).and_then(|v| v.split(';').next()).map(str::trim);
    let is = |expected: &str| media_type.is_some_and(|m| m.eq_ignore_ascii_case(expected));
    let raw_upload = request.extensions().get::<MatchedPath>().is_some_and(|path| path.as_str() == RAW_UPLOAD);
    if !(is("application/json") || raw_upload && *request.method() == Method::POST && is("application/octet-stream")) {
        return ApiError::NotJson.into_response();
    }
    next.run(request).await
}
