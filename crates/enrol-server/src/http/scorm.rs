//! A SCORM course as its student studies it (decision 026): the player
//! page opens a launch, whose token is in the address of every file the
//! package's frame loads ([`scorm_files`](super::scorm_files)), and sends
//! on what the package's runtime commits, which is checked against the
//! package's SCORM edition and kept. Every call is the signed-in
//! student's own and needs active access to the course: without it the
//! course is "not found", as one that does not exist.

use std::sync::Arc;

use anyhow::Context as _;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use chrono::{Duration, Utc};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use enrol_db::{PackageLaunch, PackageRecord};
use enrol_domain::learning::progress::package_percent;
use enrol_domain::learning::scorm::ScormVersion;
use enrol_domain::learning::scorm::runtime::Cmi;

use crate::AppState;
use crate::accounts::{random_token, request_token, token_hash};
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::learning::{certificate_for, may_study};
use crate::http::student::{Student, private};

/// How long one opening of a package loads its files: a long sitting.
pub const LAUNCH_HOURS: i64 = 12;

/// What a path segment keeps as it is in a package file's address.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// The package of `course_id`, if `user_id` may study it now.
pub(crate) async fn studying_package(state: &AppState, user_id: &str, course_id: &str) -> Result<(PackageRecord, ScormVersion), ApiError> {
    may_study(state, user_id, course_id).await?;
    let package = state.db.course_package(course_id).await?.ok_or(ApiError::NotFound)?;
    let version = ScormVersion::parse(&package.version).with_context(|| format!("A kept package's version is {:?}", package.version))?;
    Ok((package, version))
}

/// `/learn/{course}/package/{token}/{path}`: a package file's address
/// within one launch.
pub fn package_url(course_id: &str, token: &str, path: &str) -> String {
    let (file, query) = path.split_once('?').map_or((path, None), |(file, query)| (file, Some(query)));
    let file: Vec<String> = file.split('/').map(|segment| utf8_percent_encode(segment, SEGMENT).to_string()).collect();
    let query = query.map(|query| format!("?{query}")).unwrap_or_default();
    format!("/learn/{}/package/{token}/{}{query}", utf8_percent_encode(course_id, SEGMENT), file.join("/"))
}

/// A launch opened: the address of the package's first page.
#[derive(Debug, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PackageOpened {
    pub url: String,
    #[schema(value_type = String)]
    pub version: ScormVersion,
}

/// `POST /api/learn/{course}/package/launch`: opens the course's package
/// for the student, in this sign-in, for [`LAUNCH_HOURS`].
#[utoipa::path(
    post,
    path = "/api/learn/{course}/package/launch",
    tag = "learning",
    params(("course" = String, Path, description = "The course's id")),
    responses(
        (status = 201, description = "Opened", body = PackageOpened),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No SCORM course the caller may study", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn launch_package(
    State(state): State<Arc<AppState>>,
    student: Student,
    headers: HeaderMap,
    Path(course_id): Path<String>,
) -> Result<Response, ApiError> {
    let user_id = &student.0.user.id;
    let (package, version) = studying_package(&state, user_id, &course_id).await?;
    let session = request_token(&headers).ok_or_else(|| ApiError::Unauthorized("Sign in to study your course.".to_owned()))?;
    let token = random_token();
    let now = Utc::now();
    let launch = PackageLaunch {
        token_hash: token_hash(&token),
        session_hash: token_hash(&session),
        user_id: user_id.clone(),
        course_id: course_id.clone(),
        expires_at: now + Duration::hours(LAUNCH_HOURS),
    };
    state.db.start_launch(&launch, now).await?;
    Ok(private(StatusCode::CREATED, PackageOpened { url: package_url(&course_id, &token, &package.launch), version }))
}

/// What was kept of a commit, and where the course stands.
#[derive(Debug, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PackageCommitted {
    pub percent: u8,
    /// Whether the course is now complete.
    pub complete: bool,
    /// The course's certificate, once complete.
    pub certificate: Option<String>,
}

/// `POST /api/learn/{course}/package/commit`: what the package's runtime
/// committed, kept as the student's place in the course; `completed` or
/// `passed` completes the course, which issues its certificate the first
/// time, as lessons and quizzes do.
#[utoipa::path(
    post,
    path = "/api/learn/{course}/package/commit",
    tag = "learning",
    params(("course" = String, Path, description = "The course's id")),
    request_body(content = Cmi, example = json!({ "lessonStatus": "incomplete", "location": "lesson-2", "suspendData": "p=2", "sessionTime": "00:04:10" })),
    responses(
        (status = 200, description = "Kept", body = PackageCommitted),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No SCORM course the caller may study", body = ErrorEnvelope),
        (status = 422, description = "An element of the other edition, or out of its vocabulary, range or size (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn commit_package(
    State(state): State<Arc<AppState>>,
    student: Student,
    Path(course_id): Path<String>,
    JsonBody(cmi): JsonBody<Cmi>,
) -> Result<Response, ApiError> {
    let user_id = &student.0.user.id;
    let (package, version) = studying_package(&state, user_id, &course_id).await?;
    let cmi = cmi.checked(version).map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    let kept = state.db.commit_cmi(user_id, &course_id, &package.id, &cmi, cmi.completes(), Utc::now()).await?;
    let complete = kept.completed_at.is_some();
    let certificate = if complete { certificate_for(&state, user_id, &course_id).await? } else { None };
    Ok(private(StatusCode::OK, PackageCommitted { percent: package_percent(Some(&kept.cmi), complete), complete, certificate }))
}
