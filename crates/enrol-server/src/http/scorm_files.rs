//! `GET /learn/{course}/package/{token}/{path}`: a file of a course's
//! SCORM package, for the student whose launch the token names
//! (decision 026).
//!
//! The package runs in a frame sandboxed to an opaque origin, so its
//! scripts cannot reach the site's pages, cookies or API; for the same
//! reason the browser sends the frame's requests without the student's
//! cookie, so the launch's token in the address is what names the
//! student. It opens the files only while the sign-in that started it
//! lasts and the student may study the course; a request that carries
//! another account's cookie, or opens a file as a page of its own outside
//! the frame, finds nothing. Each page of the package gets one script of
//! the site's: the SCORM runtime, seeded with what the student's last
//! commit kept, which posts each commit to the player page.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::Serialize;

use enrol_db::PackageRecord;
use enrol_domain::learning::scorm::ScormVersion;
use enrol_domain::learning::scorm::package::is_page;
use enrol_domain::learning::scorm::runtime::Cmi;

use crate::AppState;
use crate::accounts::{current_session, token_hash};
use crate::http::ApiError;
use crate::http::scorm::studying_package;
use crate::scorm::with_runtime;

/// What a package's files may do: scripts and forms in an origin of
/// their own, framed only by the site's player page.
const PACKAGE_POLICY: &str = "sandbox allow-scripts allow-forms; frame-ancestors 'self'";

/// What the runtime starts from, in the script's `data-seed`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Seed<'a> {
    version: ScormVersion,
    /// Where the player page is: the runtime posts its commits only there.
    origin: &'a str,
    learner_id: &'a str,
    /// "Family, Given", as SCORM writes a learner's name.
    learner_name: String,
    /// `resume` when there is a place to resume from, else `ab-initio`.
    entry: &'static str,
    cmi: Cmi,
}

pub async fn show_package_file(
    State(state): State<Arc<AppState>>,
    Path((course_id, token, path)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if headers.get("sec-fetch-dest").is_some_and(|dest| dest == "document") {
        return Err(ApiError::NotFound);
    }
    let now = Utc::now();
    let launch = state.db.package_launch(&token_hash(&token), &course_id, now).await?.ok_or(ApiError::NotFound)?;
    let signed_in = state.db.session(&launch.session_hash, now).await?.filter(|session| session.user.id == launch.user_id);
    let Some(session) = signed_in else { return Err(ApiError::NotFound) };
    if current_session(&state, &headers).await?.is_some_and(|caller| caller.user.id != launch.user_id) {
        return Err(ApiError::NotFound);
    }
    let (package, version) = studying_package(&state, &launch.user_id, &course_id).await?;
    let file = state.db.package_file(&package.id, &path).await?.ok_or(ApiError::NotFound)?;
    let Some(bytes) = state.files.get(&file.file_key).await? else {
        tracing::error!(key = file.file_key, path, "A SCORM package's file is missing from the file store");
        return Err(ApiError::NotFound);
    };
    let page = is_page(&file.path);
    let body = if page {
        let user = &session.user;
        let seed = seed(&state, &package, version, &user.id, format!("{}, {}", user.family_name, user.given_name)).await?;
        let runtime = state.assets.scorm_runtime(version);
        with_runtime(&bytes, runtime, &serde_json::to_string(&seed).map_err(anyhow::Error::from)?)
    } else {
        bytes
    };
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(&file.content_type).map_err(anyhow::Error::from)?);
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(PACKAGE_POLICY));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    // The package's own scripts read its files from an opaque origin. No
    // cookie is involved and the token is in the address, so this lets no
    // page read more than that address already gives.
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    // Seeded pages are the student's own at this moment; files are theirs for the launch.
    let cache = if page { "private, no-store" } else { "private, max-age=3600" };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Ok(response)
}

/// The runtime's seed: what the student's last commit kept of this
/// package (a new package starts afresh, keeping only whether they finished).
async fn seed<'a>(
    state: &'a AppState,
    package: &PackageRecord,
    version: ScormVersion,
    learner_id: &'a str,
    learner_name: String,
) -> Result<Seed<'a>, ApiError> {
    let kept = state.db.course_cmi(learner_id, &package.course_id).await?;
    let cmi = kept.filter(|kept| kept.package_id == package.id).map(|kept| kept.cmi).unwrap_or_default();
    let resumes = [&cmi.suspend_data, &cmi.location].iter().any(|value| value.as_deref().is_some_and(|v| !v.is_empty()));
    Ok(Seed {
        version,
        origin: &state.config.public_url,
        learner_id,
        learner_name,
        entry: if resumes { "resume" } else { "ab-initio" },
        cmi,
    })
}
