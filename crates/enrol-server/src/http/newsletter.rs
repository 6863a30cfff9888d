//! The newsletter sign-up of the footer: double opt-in. The answer
//! is the same for every address, so it tells nobody who has signed up.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_domain::contact::{FieldErrors, is_valid_email};
use enrol_domain::mail::Mail;

use crate::AppState;
use crate::accounts::{token_hash, verification_token};
use crate::http::ApiError;
use crate::http::auth::{MailSent, mail_sent};
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

/// What the visitor agrees to, as the form shows it; kept with their address.
pub const NEWSLETTER_CONSENT: &str = "Email me news, offers and new course dates. I can unsubscribe at any time.";

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsletterRequest {
    email: String,
    /// The visitor ticked the consent box.
    consent: bool,
}

/// `POST /api/newsletter`: mails a link that confirms the subscription.
#[utoipa::path(
    post,
    path = "/api/newsletter",
    tag = "newsletter",
    request_body(content = NewsletterRequest, example = json!({ "email": "amelia@example.org", "consent": true })),
    responses(
        (status = 202, description = "A confirmation link is on its way: the same answer for every address", body = MailSent),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "No valid email, or no consent (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn ask_newsletter(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<NewsletterRequest>,
) -> Result<Response, ApiError> {
    let email = request.email.trim().to_lowercase();
    let mut errors = FieldErrors::new();
    if !is_valid_email(&email) {
        errors.insert("email", "Enter a valid email address");
    }
    if !request.consent {
        errors.insert("consent", "Please tick the box to agree to our emails");
    }
    if !errors.is_empty() {
        return Err(ApiError::Invalid(errors));
    }
    let now = Utc::now();
    let college = state.db.college().await?.name;
    let (token, expires_at) = verification_token(now);
    let link = format!("{}/newsletter/confirm/?token={token}", state.config.public_url);
    let mail = Mail {
        to: email.clone(),
        reply_to: None,
        subject: format!("Confirm your subscription to {college}'s newsletter"),
        body: format!(
            "Hello,\n\nPlease confirm that you would like {college}'s news, offers and new course dates by opening this link:\n{link}\n\n\
             If you did not ask for this, ignore this email: you will not be subscribed.\n"
        ),
        attachment: None,
    };
    state.db.ask_newsletter(&email, NEWSLETTER_CONSENT, &token_hash(&token), expires_at, &mail, now).await?;
    Ok(mail_sent())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewsletterConfirm {
    token: String,
}

#[derive(Serialize, ToSchema)]
pub struct Subscribed {
    subscribed: bool,
}

/// `POST /api/newsletter/confirm`: the mailed link, opened.
#[utoipa::path(
    post,
    path = "/api/newsletter/confirm",
    tag = "newsletter",
    request_body(content = NewsletterConfirm, example = json!({ "token": "3f2a…" })),
    responses(
        (status = 200, description = "Subscribed", body = Subscribed),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "The link expired or was used (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn confirm_newsletter(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<NewsletterConfirm>,
) -> Result<Response, ApiError> {
    match state.db.confirm_newsletter(&token_hash(request.token.trim()), Utc::now()).await? {
        Some(_) => Ok(Json(Subscribed { subscribed: true }).into_response()),
        None => Err(ApiError::Unprocessable(
            "This link has expired or was already used. Please sign up again from the bottom of any page.".to_owned(),
        )),
    }
}
