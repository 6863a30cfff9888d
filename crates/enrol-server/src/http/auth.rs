//! Sign-up, sign-in, sign-out, the session and the account area
//! (decision 008).

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{Duration, Utc};
use serde::Deserialize;
use serde_json::json;

use enrol_db::FormMail;
use enrol_domain::auth::{AccountData, AuthSession, MIN_PASSWORD, SignInRequest, SignUpRequest};
use enrol_domain::enquiry::FieldErrors;

use crate::AppState;
use crate::accounts::{cleared_cookie, current_session, hash_password, request_token, reset_token, start_session, token_hash, verify_password};
use crate::http::ApiError;

/// Failed sign-ins allowed per email in [`THROTTLE_WINDOW_MINUTES`].
const MAX_FAILURES: i64 = 5;
const THROTTLE_WINDOW_MINUTES: i64 = 15;

fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(value)| value).map_err(|rejection| ApiError::BadRequest(rejection.body_text()))
}

/// A session answer that no cache may keep.
fn session_response(status: StatusCode, set_cookie: Option<HeaderValue>, session: AuthSession) -> Response {
    let mut response = (status, Json(session)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(cookie) = set_cookie {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

#[tracing::instrument(skip_all)]
pub async fn sign_up(State(state): State<Arc<AppState>>, request: Result<Json<SignUpRequest>, JsonRejection>) -> Result<Response, ApiError> {
    let account = body(request)?.parse().map_err(ApiError::Invalid)?;
    let hash = hash_password(account.password.clone()).await?;
    let now = Utc::now();
    let user = state.db.create_account(&account, &hash, now).await?.map_err(|_| {
        ApiError::Conflict("An account with this email already exists. Sign in, or reset your password if you have booked with us before.".to_owned())
    })?;
    tracing::info!(user = %user.id, "Account created");
    let (cookie, session) = start_session(&state, user, now).await?;
    Ok(session_response(StatusCode::CREATED, Some(cookie), session))
}

#[tracing::instrument(skip_all)]
pub async fn sign_in(State(state): State<Arc<AppState>>, request: Result<Json<SignInRequest>, JsonRejection>) -> Result<Response, ApiError> {
    let request = body(request)?;
    let email = request.username.trim().to_lowercase();
    let now = Utc::now();
    if email.is_empty() || request.password.is_empty() || email.len() > 254 || request.password.len() > 200 {
        return Err(ApiError::Unauthorized("Email or password is incorrect.".to_owned()));
    }
    if state.db.sign_in_failures(&email, now - Duration::minutes(THROTTLE_WINDOW_MINUTES)).await? >= MAX_FAILURES {
        tracing::warn!("Sign-in throttled");
        return Err(ApiError::TooManyRequests("Too many attempts. Please wait 15 minutes, or reset your password.".to_owned()));
    }
    let found = state.db.user_with_password(&email).await?;
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), hash),
        None => (None, None),
    };
    let matches = verify_password(request.password, hash).await?;
    let Some(user) = user.filter(|_| matches) else {
        state.db.record_sign_in_failure(&email, now).await?;
        return Err(ApiError::Unauthorized("Email or password is incorrect.".to_owned()));
    };
    state.db.clear_sign_in_failures(&email).await?;
    let (cookie, session) = start_session(&state, user, now).await?;
    Ok(session_response(StatusCode::OK, Some(cookie), session))
}

#[tracing::instrument(skip_all)]
pub async fn sign_out(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = request_token(&headers) {
        state.db.delete_session(&token_hash(&token)).await?;
    }
    Ok(session_response(StatusCode::OK, Some(cleared_cookie(&state)), AuthSession::signed_out()))
}

/// `GET /api/auth/session`: signed out is an answer, not an error.
pub async fn show_session(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let session = match current_session(&state, &headers).await? {
        Some(record) => AuthSession::signed_in(record.user, record.created_at.timestamp(), record.expires_at.timestamp()),
        None => AuthSession::signed_out(),
    };
    Ok(session_response(StatusCode::OK, None, session))
}

pub async fn show_account(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let record = current_session(&state, &headers).await?.ok_or_else(|| ApiError::Unauthorized("Sign in to see your account.".to_owned()))?;
    let data: AccountData = state.db.account_data(record.user).await?;
    let mut response = Json(data).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {
    email: String,
}

/// `POST /api/auth/password-reset`: mails a single-use link valid for an
/// hour. The answer is the same whether or not the email has an account.
#[tracing::instrument(skip_all)]
pub async fn request_password_reset(
    State(state): State<Arc<AppState>>,
    request: Result<Json<ResetRequest>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let email = body(request)?.email.trim().to_lowercase();
    if email.is_empty() {
        return Err(ApiError::Invalid(FieldErrors::from([("email", "Email is required")])));
    }
    if let Some((user, _)) = state.db.user_with_password(&email).await? {
        let now = Utc::now();
        let (token, expires_at) = reset_token(now);
        let college = state.db.site().await?.map_or_else(|| "Enrol".to_owned(), |r| r.site.title);
        let link = format!("{}/reset-password/?token={token}", state.config.public_url);
        let mail = FormMail {
            to: &user.email,
            reply_to: None,
            subject: format!("Reset your {college} password"),
            body: format!(
                "Hello {},\n\nUse this link within an hour to choose a new password:\n{link}\n\n\
                 If you did not ask to reset your password, you can ignore this email.\n",
                user.given_name
            ),
        };
        state.db.create_password_reset(&user.id, &token_hash(&token), expires_at, &mail, now).await?;
    }
    Ok(Json(json!({ "sent": true })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetConfirm {
    token: String,
    password: String,
}

/// `POST /api/auth/password-reset/confirm`: a new password from a reset
/// link; every other session ends and this browser is signed in.
#[tracing::instrument(skip_all)]
pub async fn confirm_password_reset(
    State(state): State<Arc<AppState>>,
    request: Result<Json<ResetConfirm>, JsonRejection>,
) -> Result<Response, ApiError> {
    let request = body(request)?;
    let length = request.password.chars().count();
    if length < MIN_PASSWORD || length > 200 {
        return Err(ApiError::Invalid(FieldErrors::from([("password", "Use at least 10 characters")])));
    }
    let hash = hash_password(request.password).await?;
    let now = Utc::now();
    let user = state
        .db
        .reset_password(&token_hash(request.token.trim()), &hash, now)
        .await?
        .ok_or_else(|| ApiError::Unprocessable("This link has expired or was already used. Please ask for a new one.".to_owned()))?;
    state.db.clear_sign_in_failures(&user.email).await?;
    let (cookie, session) = start_session(&state, user, now).await?;
    Ok(session_response(StatusCode::OK, Some(cookie), session))
}
