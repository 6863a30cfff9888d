//! Server-rendered pages, and the same page data as JSON for client-side
//! navigation.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use chrono::Utc;
use serde::Deserialize;
use utoipa::IntoParams;

use enrol_domain::page::PageEnvelope;
use enrol_domain::tracking::TrackingConfig;

use crate::buyer::Viewer;
use crate::cache::CachedPage;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::{AppState, document, pages};

/// A page path: absolute, without scheme, host or control characters.
fn checked_path(path: &str) -> Result<&str, ApiError> {
    let ok = path.starts_with('/') && !path.starts_with("//") && !path.chars().any(char::is_control) && path.len() <= 512;
    if ok { Ok(path) } else { Err(ApiError::BadRequest("path must be a site path starting with /".to_owned())) }
}

/// Where a page sends its visitor instead of showing itself.
enum Moved {
    /// The path differs from a page's only by its trailing slash, or
    /// was a renamed course's (decision 018).
    Permanently(String),
    /// A path with its own query, for this visit only.
    SeeOther(&'static str),
}

/// The page at `path` as `viewer` may see it, or where it moved.
async fn resolve(state: &AppState, viewer: &Viewer, path: &str, query: &str) -> anyhow::Result<Result<PageEnvelope, Moved>> {
    let envelope = pages::load(state, viewer, path, query, Utc::now()).await?;
    if let Some(location) = pages::payment_failed_redirect(&envelope, query) {
        return Ok(Err(Moved::SeeOther(location)));
    }
    if envelope.status == 404
        && let Some(moved) = state.db.content_redirect(path).await?
    {
        return Ok(Err(Moved::Permanently(moved)));
    }
    if envelope.status == 404 && path != "/" {
        let other = match path.strip_suffix('/') {
            Some(without) => without.to_owned(),
            None => format!("{path}/"),
        };
        if pages::load(state, viewer, &other, query, Utc::now()).await?.status == 200 {
            return Ok(Err(Moved::Permanently(other)));
        }
    }
    Ok(Ok(envelope))
}

fn no_cache(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Pages about one buyer: no cache may keep them, shared or not.
fn private(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    response
}

#[tracing::instrument(skip(state, headers))]
pub async fn show_page(State(state): State<Arc<AppState>>, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    let key = pages::cache_key(path, uri.query().unwrap_or_default());
    let version = state.content_version.load(Ordering::Relaxed);
    if let Some(page) = state.pages.get(&key, version) {
        return no_cache(page_response(&page));
    }
    let viewer = match Viewer::of(&state, &headers).await {
        Ok(viewer) => viewer,
        Err(error) => return failed(&error),
    };
    match render_page(&state, &viewer, path, uri.query().unwrap_or_default(), &key).await {
        Ok(Ok((page, personal))) => {
            let page = Arc::new(page);
            if personal {
                return private(page_response(&page));
            }
            state.pages.put(key, version, Arc::clone(&page));
            no_cache(page_response(&page))
        }
        Ok(Err(Moved::Permanently(location))) => {
            let query = uri.query().map(|q| format!("?{q}")).unwrap_or_default();
            Redirect::permanent(&format!("{location}{query}")).into_response()
        }
        Ok(Err(Moved::SeeOther(location))) => private(Redirect::to(location).into_response()),
        Err(error) => failed(&error),
    }
}

fn failed(error: &anyhow::Error) -> Response {
    tracing::error!(error = %format!("{error:#}"), "Page failed to render");
    crate::telemetry::report(error);
    no_cache(
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            Html("<!doctype html><html lang=\"en-GB\"><title>Something went wrong</title><h1>Something went wrong</h1><p>Please try again in a moment.</p></html>"),
        )
            .into_response(),
    )
}

/// The rendered page, and whether it is personal (not to be cached).
async fn render_page(
    state: &AppState,
    viewer: &Viewer,
    path: &str,
    query: &str,
    url: &str,
) -> anyhow::Result<Result<(CachedPage, bool), Moved>> {
    let envelope = match resolve(state, viewer, path, query).await? {
        Ok(envelope) => envelope,
        Err(location) => return Ok(Err(location)),
    };
    let html = render_envelope(state, &envelope, url).await?;
    Ok(Ok((CachedPage { status: envelope.status, html: html.into() }, pages::is_personal(&envelope.page))))
}

/// `envelope` as the whole HTML document of the page at `url`, as the
/// site serves it.
pub async fn render_envelope(state: &AppState, envelope: &PageEnvelope, url: &str) -> anyhow::Result<String> {
    render_document(state, envelope, url, &state.tracking_json).await
}

/// [`render_envelope`] for staff's previews: with no analytics or
/// marketing tool, whatever is configured (decision 030).
pub async fn render_untracked(state: &AppState, envelope: &PageEnvelope, url: &str) -> anyhow::Result<String> {
    render_document(state, envelope, url, &serde_json::to_string(&TrackingConfig::default())?).await
}

async fn render_document(state: &AppState, envelope: &PageEnvelope, url: &str, tracking_json: &str) -> anyhow::Result<String> {
    let data_json = serde_json::to_string(envelope)?;
    let app_html = state.ssr.render(url.to_owned(), data_json.clone()).await?;
    Ok(document::render(envelope, &state.config.public_url, &state.assets, &app_html, &data_json, tracking_json))
}

/// The site's not-found page at `path`, an address no page has (a form's
/// action), as `viewer` sees it: what a form refused to them answers.
pub(crate) async fn show_not_found(state: &AppState, viewer: &Viewer, path: &str) -> Response {
    let rendered = async {
        let envelope = pages::load(state, viewer, path, "", Utc::now()).await?;
        anyhow::Ok(CachedPage { status: envelope.status, html: render_envelope(state, &envelope, path).await?.into() })
    };
    match rendered.await {
        Ok(page) => private(page_response(&page)),
        Err(error) => failed(&error),
    }
}

/// The public page at `path` as `db` (a preview's, decision 018) would
/// show it to a visitor: the same loader, renderer and document.
pub async fn render_preview(state: &AppState, db: &enrol_db::Db, path: &str) -> anyhow::Result<String> {
    let now = Utc::now();
    let catalogue = db.catalogue(now, None).await?;
    let viewer = Viewer { buyer_hash: None, user_id: None };
    let envelope = pages::load_from(db, &catalogue, state.payments.as_ref(), &viewer, path, "", now).await?;
    render_untracked(state, &envelope, path).await
}

fn page_response(page: &CachedPage) -> Response {
    let status = StatusCode::from_u16(page.status).unwrap_or(StatusCode::OK);
    (status, Html(page.html.clone())).into_response()
}

/// Everything public may be crawled; baskets, accounts and the API may not.
pub async fn show_robots(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    let body = format!(
        "User-agent: *\nAllow: /\nDisallow: /account/\nDisallow: /checkout/\nDisallow: /enrolment/\nDisallow: /e-learning/order/\nDisallow: /sandbox/\nDisallow: /api/\nDisallow: /admin/\n\nSitemap: {}/sitemap.xml\n",
        state.config.public_url
    );
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body)
}

/// `/favicon.ico`, which browsers ask for on a page that names no icon (a
/// receipt, a mail): the college's logo, the icon every page names.
pub async fn show_favicon(State(state): State<Arc<AppState>>) -> Result<Redirect, ApiError> {
    let site = state.db.site().await?.ok_or(ApiError::NotFound)?.site;
    Ok(Redirect::temporary(&site.logo.url))
}

/// `/admin/` and every path below it: the back office's single page
/// (decision 017), never cached or indexed; it routes in the browser.
pub async fn show_admin_app(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let path = state.config.web_dist.join("admin/index.html");
    let html = tokio::fs::read_to_string(&path).await.map_err(|error| {
        tracing::error!(path = %path.display(), %error, "The back office is not built (make web)");
        ApiError::NotFound
    })?;
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        (header::CONTENT_SECURITY_POLICY, crate::http::back_office::BACK_OFFICE_POLICY),
        (header::HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex, nofollow")),
    ];
    Ok((headers, html).into_response())
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageDataQuery {
    /// The page's path on this site, with its own query if any:
    /// `/courses/aesthetics/?sort=price`.
    #[param(pattern = "^/", example = "/courses/")]
    path: String,
}

/// The page data of `?path=`, with the page's own status: what client-side
/// navigation renders. Pages about one buyer are `private, no-store`.
#[utoipa::path(
    get,
    path = "/api/page-data",
    tag = "pages",
    params(PageDataQuery),
    responses(
        (status = 200, description = "The page's data", body = PageEnvelope),
        (status = 404, description = "No page at this path: the not-found page's data", body = PageEnvelope),
        (status = 400, description = "`path` is missing or is not a path on this site", body = ErrorEnvelope),
    )
)]
pub async fn show_page_data(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    query: Result<Query<PageDataQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let without_fragment = query.path.split('#').next().unwrap_or_default();
    let (path, page_query) = without_fragment.split_once('?').unwrap_or((without_fragment, ""));
    let path = checked_path(path)?;
    let viewer = Viewer::of(&state, &headers).await?;
    let load = |path: String, query: String| {
        let viewer = &viewer;
        let state = &state;
        async move { pages::load(state, viewer, &path, &query, Utc::now()).await }
    };
    let envelope = match resolve(&state, &viewer, path, page_query).await? {
        Ok(envelope) => envelope,
        Err(Moved::Permanently(location)) => load(location, page_query.to_owned()).await?,
        Err(Moved::SeeOther(location)) => {
            let (path, query) = location.split_once('?').unwrap_or((location, ""));
            load(path.to_owned(), query.to_owned()).await?
        }
    };
    let status = StatusCode::from_u16(envelope.status).unwrap_or(StatusCode::OK);
    let personal = pages::is_personal(&envelope.page);
    let response = (status, Json(envelope)).into_response();
    Ok(if personal { private(response) } else { no_cache(response) })
}

#[cfg(test)]
mod tests {
    use super::checked_path;

    #[test]
    fn only_site_paths_are_accepted() {
        assert!(checked_path("/courses/").is_ok());
        assert!(checked_path("//evil.example/").is_err());
        assert!(checked_path("https://evil.example/").is_err());
        assert!(checked_path("/a\nb").is_err());
        assert!(checked_path("").is_err());
    }
}
