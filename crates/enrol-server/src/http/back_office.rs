//! Which origin answers what (decision 030). With `ENROL_ADMIN_ORIGIN`
//! set, the back office's pages and API answer only on that origin, and
//! the public site only on the others: a script on a public page (an
//! analytics or marketing tool) is then never same-origin with the staff
//! cookie. Each origin sends a page of the other there; the API of the
//! other is not found. The back office's origin still serves the files its
//! previews load (scripts, styles, images). The strict policy of the back
//! office's own page is here too.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};

use crate::AppState;
use crate::http::ApiError;

/// What the back office's page may load: its own scripts, styles, images
/// and frames (the previews), and nothing from any other host.
pub(crate) const BACK_OFFICE_POLICY: HeaderValue = HeaderValue::from_static(
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
);

/// Whether `path` is the back office's: its pages (`/admin/…`) or its API.
fn is_back_office(path: &str) -> bool {
    ["/admin", "/api/admin"].iter().any(|root| path.strip_prefix(root).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')))
}

/// The public files a preview on the back office's origin loads.
fn is_shared_file(path: &str) -> bool {
    ["/assets/", "/media/", "/_next/image", "/favicon.ico", "/healthz"].iter().any(|prefix| path.starts_with(prefix))
}

/// The host a request was sent to: its `Host` header, or its HTTP/2
/// authority. The proxy in front passes the browser's own on.
fn host_of(request: &Request) -> &str {
    request
        .headers()
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()))
        .unwrap_or_default()
}

pub async fn keep_origins_apart(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let Some(admin) = &state.config.admin_origin else {
        return next.run(request).await;
    };
    let on_admin = admin.is_host(host_of(&request));
    let path = request.uri().path();
    if is_back_office(path) == on_admin || on_admin && is_shared_file(path) {
        return next.run(request).await;
    }
    let is_page = matches!(*request.method(), Method::GET | Method::HEAD) && !path.starts_with("/api/");
    if !is_page {
        return ApiError::NotFound.into_response();
    }
    let other = if on_admin { state.config.public_url.as_str() } else { admin.as_str() };
    let query = request.uri().query().map(|q| format!("?{q}")).unwrap_or_default();
    Redirect::permanent(&format!("{other}{path}{query}")).into_response()
}

#[cfg(test)]
mod tests {
    use super::is_back_office;

    #[test]
    fn the_back_office_is_its_pages_and_its_api_and_nothing_named_like_them() {
        for path in ["/admin", "/admin/", "/admin/assets/app.js", "/api/admin", "/api/admin/session"] {
            assert!(is_back_office(path), "{path}");
        }
        for path in ["/", "/administration/", "/api/adminx", "/api/account", "/courses/admin/"] {
            assert!(!is_back_office(path), "{path}");
        }
    }
}
