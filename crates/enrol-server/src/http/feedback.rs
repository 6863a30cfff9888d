//! Feedback after the day (decision 034): the mail sent when attendance is
//! first marked, and the answer given once through its link.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_db::{FeedbackGiven, FeedbackInvite};
use enrol_domain::feedback::FeedbackAnswer;
use enrol_domain::mail::Mail;

use crate::AppState;
use crate::accounts::token_hash;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

/// The mail asking `invite`'s student how their day went, with the link
/// (its `token`) that answers.
pub fn feedback_mail(invite: &FeedbackInvite, token: &str, college: &str, public_url: &str) -> Mail {
    Mail {
        to: invite.email.clone(),
        reply_to: None,
        subject: format!("How was your {} training?", invite.course_title),
        body: format!(
            "Hello {},\n\nThank you for training with us on {} ({}). How did it go? Rate your day from 1 to 5 and tell us \
             what you thought; it takes a minute:\n{public_url}/feedback/?token={token}\n\n\
             If you agree, we may share your comment on the course's page.\n\n{college}\n",
            invite.given_name,
            invite.date.format("%-d %B %Y"),
            invite.course_title,
        ),
        attachment: None,
    }
}

/// A student's answer through the feedback mail's link.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FeedbackRequest {
    /// The token of the mailed link.
    token: String,
    /// From 1 to 5.
    rating: i64,
    #[serde(default)]
    comment: String,
    /// The college may publish the comment on the course's page.
    #[serde(default)]
    may_publish: bool,
}

#[derive(Serialize, ToSchema)]
pub struct FeedbackRecorded {
    recorded: bool,
}

/// `POST /api/feedback`: records a student's rating and comment for the
/// day their link asks about, once.
#[utoipa::path(
    post,
    path = "/api/feedback",
    tag = "enquiries",
    request_body = FeedbackRequest,
    responses(
        (status = 200, description = "Recorded", body = FeedbackRecorded),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 404, description = "The link is not known", body = ErrorEnvelope),
        (status = 409, description = "Feedback for this day was given already", body = ErrorEnvelope),
        (status = 422, description = "The rating is not 1 to 5, or the comment is too long", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn give_feedback(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<FeedbackRequest>,
) -> Result<Json<FeedbackRecorded>, ApiError> {
    let answer = FeedbackAnswer::parse(request.rating, &request.comment, request.may_publish)
        .map_err(|refused| ApiError::Unprocessable(refused.message().to_owned()))?;
    match state.db.give_feedback(&token_hash(request.token.trim()), &answer, Utc::now()).await? {
        FeedbackGiven::Recorded => Ok(Json(FeedbackRecorded { recorded: true })),
        FeedbackGiven::AlreadyGiven => {
            Err(ApiError::Conflict("You have already sent your feedback for this day: it is given once. Thank you.".to_owned()))
        }
        FeedbackGiven::Unknown => Err(ApiError::NotFound),
    }
}
