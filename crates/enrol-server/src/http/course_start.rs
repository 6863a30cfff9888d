//! The link that starts a guest's online course (decision 025): mailed with
//! the order to a buyer without an account, it shows what it opens, then,
//! once, takes the names for the certificate and a password, signs the
//! buyer in and hands the browser the course's address.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use enrol_db::StartingCourse;
use enrol_domain::auth::CourseStartRequest;

use crate::AppState;
use crate::accounts::{hash_password, start_session, token_hash};
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

const LINK_USED: &str =
    "This link has expired or was already used. If you chose your password with it, sign in; if not, ask for a password link.";

/// What a start link opens, to show before it is used.
#[derive(Debug, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseStartLink {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub course_title: String,
}

/// A start link's token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartLinkToken {
    pub token: String,
}

/// The course a used start link opened.
#[derive(Debug, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseStarted {
    /// The course player's address.
    pub course_url: String,
}

/// `POST /api/auth/course-start/check`: what a live start link opens,
/// without using it.
#[utoipa::path(
    post,
    path = "/api/auth/course-start/check",
    tag = "accounts",
    request_body = StartLinkToken,
    responses(
        (status = 200, description = "The link is live", body = CourseStartLink),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "A link expired or already used (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn check_start_link(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<StartLinkToken>,
) -> Result<Response, ApiError> {
    let StartingCourse { user, course_title, .. } = state
        .db
        .start_link(&token_hash(request.token.trim()), Utc::now())
        .await?
        .ok_or_else(|| ApiError::Unprocessable(LINK_USED.to_owned()))?;
    let link = CourseStartLink { email: user.email, first_name: user.given_name, last_name: user.family_name, course_title };
    Ok((StatusCode::OK, Json(link)).into_response())
}

/// `POST /api/auth/course-start`: uses a start link once: the account gets
/// the names and password, its address is proven, its purchases join it,
/// every other session of it ends and this browser is signed in.
#[utoipa::path(
    post,
    path = "/api/auth/course-start",
    tag = "accounts",
    request_body(content = CourseStartRequest, example = json!({
        "token": "…", "first_name": "Amelia", "last_name": "Hart", "password": "correct horse battery"
    })),
    responses(
        (status = 200, description = "Signed in; the course to open", body = CourseStarted,
            headers(("set-cookie" = String, description = "The `enrol_session` cookie"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "A name or password refused (`invalid`), or a link expired or already used", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn start_course(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<CourseStartRequest>,
) -> Result<Response, ApiError> {
    let start = request.parse().map_err(ApiError::Invalid)?;
    let hash = hash_password(start.password).await?;
    let now = Utc::now();
    let StartingCourse { user, course_id, .. } = state
        .db
        .use_start_link(&token_hash(&start.token), &start.given_name, &start.family_name, &hash, now)
        .await?
        .ok_or_else(|| ApiError::Unprocessable(LINK_USED.to_owned()))?;
    state.db.clear_sign_in_attempts(&user.email).await?;
    let (cookie, _) = start_session(&state, user, now).await?;
    let started = CourseStarted { course_url: format!("/learn/{course_id}/") };
    let headers = [(header::SET_COOKIE, cookie), (header::CACHE_CONTROL, HeaderValue::from_static("no-store"))];
    Ok((StatusCode::OK, headers, Json(started)).into_response())
}
