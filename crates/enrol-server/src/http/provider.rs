//! The player's way into a course a hosted LMS teaches (decision 029):
//! "Open your course" posts here, the provider gives the student's launch
//! address and the browser is sent there; the provider's completion
//! webhook completes the course and issues its certificate, once.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use chrono::Utc;
use serde_json::json;

use enrol_domain::learning::access::Access;
use enrol_domain::learning::provider::LaunchProblem;

use crate::AppState;
use crate::buyer::Viewer;
use crate::certificates::complete_course;
use crate::http::ApiError;
use crate::http::guard::is_own_form_post;
use crate::http::pages::show_not_found;
use crate::provider::{Learner, WebhookRefused};

/// `POST /learn/{course}/open`, the player's form: 303 to the student's
/// launch address at the provider. Anyone who may not study the course
/// there gets the site's not-found page; a student whose access ended, the
/// player (which says so); a provider that fails, the player again with
/// what to do.
#[tracing::instrument(skip(state, headers))]
pub async fn open_course(
    State(state): State<Arc<AppState>>,
    Path(course_id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if !is_own_form_post(&state, &headers) {
        return Err(ApiError::CrossSite);
    }
    let viewer = Viewer::of(&state, &headers).await?;
    let player = format!("/learn/{course_id}/");
    let taught = match viewer.user_id.as_deref() {
        Some(user_id) => state.db.course_registration(user_id, &course_id).await?.and_then(|r| Some((user_id, r.provider()?, r))),
        None => None,
    };
    let Some((user_id, taught_by, registration)) = taught else {
        return Ok(show_not_found(&state, &viewer, &format!("{player}open")).await);
    };
    if !Access::of(registration.starts_at, registration.ends_at, registration.revoked_at, Utc::now()).may_study() {
        return Ok(Redirect::to(&player).into_response());
    }
    let problem = |problem: LaunchProblem| Ok(Redirect::to(&format!("{player}?open={}", problem.as_str())).into_response());
    let Some(provider) = &state.provider else {
        tracing::warn!(course = %course_id, provider = taught_by.name(), "A course's provider is not configured");
        return problem(LaunchProblem::NotConfigured);
    };
    match provider.launch_address(taught_by.course(), Learner { id: user_id }).await {
        Ok(address) => {
            let mut response = Redirect::to(address.as_str()).into_response();
            // The address is the student's own for this sitting: kept by no
            // cache, and not told to the provider's pages as a referrer.
            response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response.headers_mut().insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
            Ok(response)
        }
        Err(error) => {
            tracing::error!(course = %course_id, provider = taught_by.name(), %error, "The provider did not open the course");
            problem(LaunchProblem::Failed)
        }
    }
}

/// `POST /webhooks/coassemble`: the provider's signed events. A learner's
/// completion completes each course their registrations in force sold
/// with that provider course, issuing its certificate once however often
/// it is delivered; other events are taken and ignored.
#[tracing::instrument(skip_all)]
pub async fn receive_completion(State(state): State<Arc<AppState>>, headers: HeaderMap, body: Bytes) -> Result<Response, ApiError> {
    let provider = state.provider.as_ref().filter(|p| p.takes_webhooks()).ok_or(ApiError::NotFound)?;
    let completion = match provider.completion(&headers, &body, Utc::now().timestamp()) {
        Ok(completion) => completion,
        Err(refused) => {
            tracing::warn!(%refused, "A provider's webhook delivery was refused");
            let status = match refused {
                WebhookRefused::Signature(_) => StatusCode::UNAUTHORIZED,
                WebhookRefused::Malformed(_) => StatusCode::BAD_REQUEST,
            };
            return Ok((status, Json(json!({ "error": { "message": refused.to_string() } }))).into_response());
        }
    };
    let Some(completion) = completion else { return Ok(Json(json!({ "received": true })).into_response()) };
    let courses = state.db.courses_taught_by(&completion.learner, &completion.course, Utc::now()).await?;
    if courses.is_empty() {
        tracing::warn!(course = %completion.course, "A provider reported a completion no registration in force is sold with");
    }
    for course_id in &courses {
        complete_course(&state, &completion.learner, course_id).await?;
    }
    Ok(Json(json!({ "received": true, "completed": courses })).into_response())
}
