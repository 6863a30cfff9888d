//! A student moves their account to another email address: a link to the
//! new address proves it, and the old one is told.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::{Student, private};

use chrono::Utc;

use enrol_db::{EmailChange, MailedLink};
use enrol_domain::contact::{FieldErrors, is_valid_email};
use enrol_domain::mail::Mail;

use crate::accounts::{reset_token, token_hash};
use crate::http::account::profile::check_current_password;
use crate::http::auth::{MailSent, mail_sent};

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailChangeRequest {
    email: String,
    /// The account's password, so a browser left signed in cannot move the account.
    password: String,
}

/// `POST /api/account/email`: mails a link to the new address; the account
/// moves only once it is opened (the address is proven). An address that
/// has an account already gets a note instead; the answer is the same.
#[utoipa::path(
    post,
    path = "/api/account/email",
    tag = "account",
    request_body(content = EmailChangeRequest, example = json!({ "email": "amelia.hart@example.org", "password": "correct horse battery" })),
    responses(
        (status = 202, description = "A mail is on its way to the new address", body = MailSent),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 422, description = "Not a valid new email, or the password is wrong (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many attempts: wait 15 minutes; or three links are live already", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn change_email(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    JsonBody(request): JsonBody<EmailChangeRequest>,
) -> Result<Response, ApiError> {
    let email = request.email.trim().to_lowercase();
    if !is_valid_email(&email) {
        return Err(ApiError::Invalid(FieldErrors::from([("email", "Enter a valid email address")])));
    }
    if email == record.user.email {
        return Err(ApiError::Invalid(FieldErrors::from([("email", "That is already your email address")])));
    }
    check_current_password(&state, &record, request.password, "password").await?;
    let now = Utc::now();
    let college = state.db.college().await?.name;
    if state.db.account_id_by_email(&email).await?.is_some() {
        let note = Mail {
            to: email,
            reply_to: None,
            subject: format!("Your {college} account"),
            body: format!(
                "Hello,\n\nSomeone asked to move another {college} account to this email address, but it has an account of its own, \
                 so nothing was changed. If it was you, sign in with this address instead.\n"
            ),
            attachment: None,
        };
        state.db.queue_lone_mail(&note, now).await?;
    } else {
        let (token, expires_at) = reset_token(now);
        let link = format!("{}/account/profile/?token={token}", state.config.public_url);
        let mail = Mail {
            to: email.clone(),
            reply_to: None,
            subject: format!("Confirm your new email for {college}"),
            body: format!(
                "Hello {},\n\nTo use this address for your {college} account, open this link while signed in:\n{link}\n\n\
                 The link works for an hour. If you did not ask for this, ignore this email: nothing changes without it.\n",
                record.user.given_name
            ),
            attachment: None,
        };
        let link = MailedLink::EmailChange { new_email: email };
        if !state.db.store_mailed_link(link, &record.user.id, &token_hash(&token), expires_at, &mail, now).await? {
            return Err(crate::http::auth::links_live());
        }
    }
    Ok(mail_sent())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailChangeConfirm {
    token: String,
}

#[derive(Serialize, ToSchema)]
pub struct EmailChanged {
    email: String,
}

/// `POST /api/account/email/confirm`: the mailed link, opened by the
/// signed-in owner, moves the account to the new address and tells the old one.
#[utoipa::path(
    post,
    path = "/api/account/email/confirm",
    tag = "account",
    request_body(content = EmailChangeConfirm, example = json!({ "token": "3f2a…" })),
    responses(
        (status = 200, description = "The account's email is the new address", body = EmailChanged),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 409, description = "Another account took the address meanwhile (`conflict`)", body = ErrorEnvelope),
        (status = 422, description = "The link expired, was used, or is another account's (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn confirm_email_change(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    JsonBody(request): JsonBody<EmailChangeConfirm>,
) -> Result<Response, ApiError> {
    let college = state.db.college().await?.name;
    let notice = |old: &str, new: &str| Mail {
        to: old.to_owned(),
        reply_to: None,
        subject: format!("Your {college} email address has changed"),
        body: format!(
            "Hello {},\n\nYour {college} account now uses {new} instead of this address. If you did not make this change, \
             call us straight away.\n",
            record.user.given_name
        ),
        attachment: None,
    };
    match state.db.confirm_email_change(&record.user.id, &token_hash(request.token.trim()), Utc::now(), notice).await? {
        EmailChange::Changed { new_email, .. } => Ok(private(StatusCode::OK, EmailChanged { email: new_email })),
        EmailChange::Unknown => Err(ApiError::Unprocessable(
            "This link has expired or was already used, or is for another account. Please ask for a new one from your profile.".to_owned(),
        )),
        EmailChange::Taken => {
            Err(ApiError::Conflict("That address now has an account of its own, so your email was not changed.".to_owned()))
        }
    }
}
