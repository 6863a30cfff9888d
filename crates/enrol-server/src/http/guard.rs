//! Requests that change something must be JSON from the site's own pages.
//! Browsers cannot send a cross-site JSON request without a CORS preflight,
//! which this server never grants, and a foreign `Origin` is refused
//! outright: cookies can then never be used by another site (CSRF).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::http::ApiError;

pub async fn same_site_json(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    let headers = request.headers();
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
        let origin = origin.to_str().unwrap_or_default();
        let own =
            origin == state.config.public_url || origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) == Some(host);
        if !own {
            return ApiError::CrossSite.into_response();
        }
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json")));
    if !json {
        return ApiError::NotJson.into_response();
    }
    next.run(request).await
}
