//! Staff's preview of an online course's draft lessons and quizzes
//! (decisions 018 and 025): the course player's own pages, rendered by its
//! own loaders and the site's renderer from the draft (or, without one, the
//! published body), as a student who has just started sees them. Served
//! under the staff cookie's path like every preview, never kept or indexed,
//! and marked as a preview on the page. A quiz is marked as the player
//! marks it, and nothing is recorded: no attempt, no progress.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;

use enrol_domain::content::{ContentBody, ContentKind, CourseBody};
use enrol_domain::learning::quiz::{Answers, attempts_left, grade};

use super::content::preview_page;
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;
use crate::http::learning::{AttemptMarked, QuizAnswers};

/// The course `key` as staff are editing it: its draft, else its published
/// body; only an online course with lessons is previewed so.
async fn edited_course(state: &AppState, kind: &str, key: &str) -> Result<CourseBody, ApiError> {
    if ContentKind::parse(kind) != Some(ContentKind::Course) {
        return Err(ApiError::NotFound);
    }
    let detail = state.db.content_document(ContentKind::Course, key).await?.ok_or(ApiError::NotFound)?;
    match detail.draft.unwrap_or(detail.summary.body) {
        ContentBody::Course(course) if course.online && course.learning.is_some() => Ok(course),
        _ => Err(ApiError::NotFound),
    }
}

/// Where the preview of course `key`'s contents is; its steps are below it.
fn player_url(key: &str) -> String {
    format!("/api/admin/content/course/{key}/preview/learn/")
}

async fn preview(state: &AppState, kind: &str, key: &str, step: Option<&str>) -> Result<Response, ApiError> {
    let body = edited_course(state, kind, key).await?;
    let contents = player_url(key);
    let path = step.map_or_else(|| contents.clone(), |slug| format!("{contents}{slug}/"));
    let envelope = crate::pages::load_learning_preview(state, key, body, contents, step, &path, Utc::now()).await?;
    if envelope.status == 404 {
        return Err(ApiError::NotFound);
    }
    preview_page(crate::http::pages::render_untracked(state, &envelope, &path).await?)
}

/// `GET /api/admin/content/{kind}/{key}/preview/learn/`: the course's
/// contents in the player, as the draft makes them.
pub async fn preview_contents(State(state): State<Arc<AppState>>, Path((kind, key)): Path<(String, String)>) -> Result<Response, ApiError> {
    preview(&state, &kind, &key, None).await
}

/// `GET /api/admin/content/{kind}/{key}/preview/learn/{step}/`: one
/// lesson or quiz of the draft, in the player.
pub async fn preview_step(
    State(state): State<Arc<AppState>>,
    Path((kind, key, step)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    preview(&state, &kind, &key, Some(&step)).await
}

/// `POST /api/admin/content/{kind}/{key}/preview/learn/{step}/attempts`:
/// the draft's quiz `step` marked as the player marks it, recording
/// nothing, so staff can check its right answers before publishing.
pub async fn mark_preview_attempt(
    State(state): State<Arc<AppState>>,
    Path((kind, key, step)): Path<(String, String, String)>,
    JsonBody(request): JsonBody<QuizAnswers>,
) -> Result<Response, ApiError> {
    let body = edited_course(&state, &kind, &key).await?;
    let quiz = body.learning.as_ref().and_then(|curriculum| curriculum.quiz(&step)).ok_or(ApiError::NotFound)?;
    let graded = grade(quiz, &Answers(request.answers)).map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    let marked = AttemptMarked {
        score: graded.score,
        passed: graded.passed,
        results: graded.results,
        attempts_used: 0,
        attempts_left: attempts_left(quiz.max_attempts, 0),
        complete: false,
        certificate: None,
    };
    Ok((StatusCode::OK, [(axum::http::header::CACHE_CONTROL, "no-store")], Json(marked)).into_response())
}
