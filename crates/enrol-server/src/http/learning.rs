//! What a student does in the course player (decision 025): open a lesson,
//! mark it completed, submit a quiz. Every call is the signed-in student's
//! own and needs active access to the course; without it the course is
//! "not found", as one that does not exist. Quizzes are marked here: the
//! browser never had the answers.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use enrol_db::{AttemptRecorded, CourseCompletion};
use enrol_domain::learning::access::Access;
use enrol_domain::learning::curriculum::Curriculum;
use enrol_domain::learning::progress::Progress;
use enrol_domain::learning::quiz::{Answers, QuestionResult, attempts_left, grade};

use crate::AppState;
use crate::certificates::complete_course;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::{Student, private};

/// Whether `user_id` may study `course_id` now in Enrol's own player: 404
/// when not, as for a course that does not exist (a registration sold with
/// a hosted LMS's course is studied there, decision 029). Every lesson,
/// quiz and package call asks.
pub(crate) async fn may_study(state: &AppState, user_id: &str, course_id: &str) -> Result<(), ApiError> {
    let registration = state.db.course_registration(user_id, course_id).await?.ok_or(ApiError::NotFound)?;
    if registration.provider().is_some()
        || !Access::of(registration.starts_at, registration.ends_at, registration.revoked_at, Utc::now()).may_study()
    {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// The curriculum of `course_id`, if `student` may study it now.
async fn studying(state: &AppState, student: &Student, course_id: &str) -> Result<Curriculum, ApiError> {
    may_study(state, &student.0.user.id, course_id).await?;
    state.db.published_course(course_id).await?.and_then(|course| course.learning).map(|learning| *learning).ok_or(ApiError::NotFound)
}

/// The curriculum of `course_id`, if `student` may study its lesson `lesson`.
async fn studying_lesson(state: &AppState, student: &Student, course_id: &str, lesson: &str) -> Result<Curriculum, ApiError> {
    let curriculum = studying(state, student, course_id).await?;
    curriculum.lesson(lesson).ok_or(ApiError::NotFound)?;
    Ok(curriculum)
}

/// Where `user_id` now stands in `course_id`, and the number of the
/// course's certificate once their study completes it: the first time, the
/// course is completed and the certificate issued.
async fn studied(
    state: &AppState,
    user_id: &str,
    course_id: &str,
    curriculum: &Curriculum,
) -> Result<(Progress, Option<String>), ApiError> {
    let progress = Progress::of(curriculum, &state.db.study_record(user_id, course_id).await?);
    if !progress.complete {
        return Ok((progress, None));
    }
    Ok((progress, certificate_for(state, user_id, course_id).await?))
}

/// Completes `course_id` for `user_id`, whose study (lessons or package)
/// completes it: the number of its certificate, issued and mailed the
/// first time.
pub(crate) async fn certificate_for(state: &AppState, user_id: &str, course_id: &str) -> Result<Option<String>, ApiError> {
    Ok(match complete_course(state, user_id, course_id).await? {
        CourseCompletion::Issued { number } | CourseCompletion::AlreadyIssued { number } => Some(number),
        CourseCompletion::NotRegistered => None,
    })
}

/// `POST /api/learn/{course}/lessons/{lesson}/visit`: the student opened
/// the lesson, so "Continue" comes back to it.
#[utoipa::path(
    post,
    path = "/api/learn/{course}/lessons/{lesson}/visit",
    tag = "learning",
    params(("course" = String, Path, description = "The course's id"), ("lesson" = String, Path, description = "The lesson's slug")),
    responses(
        (status = 200, description = "Noted", body = LessonVisited),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such lesson the caller may study", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn visit_lesson(
    State(state): State<Arc<AppState>>,
    student: Student,
    Path((course_id, lesson)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    studying_lesson(&state, &student, &course_id, &lesson).await?;
    state.db.visit_lesson(&student.0.user.id, &course_id, &lesson, Utc::now()).await?;
    Ok(private(StatusCode::OK, LessonVisited { visited: true }))
}

/// A lesson's visit noted.
#[derive(Debug, Serialize, ToSchema)]
pub struct LessonVisited {
    pub visited: bool,
}

/// A lesson marked completed, and where the course stands.
#[derive(Debug, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct LessonDone {
    pub done: bool,
    pub percent: u8,
    pub complete: bool,
    /// The course's certificate, once complete.
    pub certificate: Option<String>,
}

/// `POST /api/learn/{course}/lessons/{lesson}/done`: the student completed
/// the lesson; completing it again changes nothing.
#[utoipa::path(
    post,
    path = "/api/learn/{course}/lessons/{lesson}/done",
    tag = "learning",
    params(("course" = String, Path, description = "The course's id"), ("lesson" = String, Path, description = "The lesson's slug")),
    responses(
        (status = 200, description = "Completed", body = LessonDone),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such lesson the caller may study", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn complete_lesson(
    State(state): State<Arc<AppState>>,
    student: Student,
    Path((course_id, lesson)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let curriculum = studying_lesson(&state, &student, &course_id, &lesson).await?;
    let user_id = &student.0.user.id;
    state.db.complete_lesson(user_id, &course_id, &lesson, Utc::now()).await?;
    let (progress, certificate) = studied(&state, user_id, &course_id, &curriculum).await?;
    Ok(private(StatusCode::OK, LessonDone { done: true, percent: progress.percent, complete: progress.complete, certificate }))
}

/// A quiz's answers: the keys of the choices picked, by question key.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuizAnswers {
    pub answers: BTreeMap<String, Vec<String>>,
}

/// A submitted attempt as the server marked it.
#[derive(Debug, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AttemptMarked {
    pub score: u8,
    pub passed: bool,
    #[schema(value_type = Vec<Object>)]
    pub results: Vec<QuestionResult>,
    pub attempts_used: u32,
    /// `None` when attempts are not limited.
    pub attempts_left: Option<u32>,
    /// Whether the course is now complete.
    pub complete: bool,
    /// The course's certificate, once complete.
    pub certificate: Option<String>,
}

/// `POST /api/learn/{course}/quizzes/{quiz}/attempts`: marks an attempt at
/// a quiz. Unanswered questions refuse it without using an attempt.
#[utoipa::path(
    post,
    path = "/api/learn/{course}/quizzes/{quiz}/attempts",
    tag = "learning",
    params(("course" = String, Path, description = "The course's id"), ("quiz" = String, Path, description = "The quiz's slug")),
    request_body(content = QuizAnswers, example = json!({ "answers": { "q1": ["b"], "q2": ["a", "c"] } })),
    responses(
        (status = 201, description = "Marked", body = AttemptMarked),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such quiz the caller may take", body = ErrorEnvelope),
        (status = 409, description = "No attempts left (`conflict`)", body = ErrorEnvelope),
        (status = 422, description = "Questions unanswered or answers the quiz does not have (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn attempt_quiz(
    State(state): State<Arc<AppState>>,
    student: Student,
    Path((course_id, slug)): Path<(String, String)>,
    JsonBody(request): JsonBody<QuizAnswers>,
) -> Result<Response, ApiError> {
    let curriculum = studying(&state, &student, &course_id).await?;
    let quiz = curriculum.quiz(&slug).ok_or(ApiError::NotFound)?;
    let answers = Answers(request.answers);
    let graded = grade(quiz, &answers).map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    let user_id = &student.0.user.id;
    let used = match state.db.record_quiz_attempt(user_id, &course_id, &slug, quiz.max_attempts, &answers, &graded, Utc::now()).await? {
        AttemptRecorded::Kept { used } => used,
        AttemptRecorded::NoneLeft => {
            return Err(ApiError::Conflict("You have used every attempt at this quiz. Please contact us to talk it through.".to_owned()));
        }
    };
    let (progress, certificate) = studied(&state, user_id, &course_id, &curriculum).await?;
    Ok(private(
        StatusCode::CREATED,
        AttemptMarked {
            score: graded.score,
            passed: graded.passed,
            results: graded.results,
            attempts_used: used,
            attempts_left: attempts_left(quiz.max_attempts, used),
            complete: progress.complete,
            certificate,
        },
    ))
}
