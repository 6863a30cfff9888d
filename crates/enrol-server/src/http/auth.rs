//! Sign-up, sign-in, sign-out, the session and the account area
//! (decision 008).

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_db::{MailedLink, SignUp};
use enrol_domain::auth::{AccountData, AuthSession, SignInRequest, SignUpRequest, UserData, password_problem};
use enrol_domain::contact::FieldErrors;
use enrol_domain::mail::Mail;

use crate::AppState;
use crate::accounts::{
    cleared_cookie, current_session, hash_password, request_token, reset_token, start_session, token_hash, verification_token,
    verify_password,
};
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::Student;

/// Sign-in attempts allowed per email in [`THROTTLE_WINDOW_MINUTES`].
const MAX_ATTEMPTS: i64 = 5;
const WRONG_PASSWORD: &str = "Email or password is incorrect.";
const THROTTLE_WINDOW_MINUTES: i64 = 15;

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

/// The college's name for mails.
async fn college(state: &AppState) -> Result<String, ApiError> {
    Ok(state.db.college().await?.name)
}

/// The verification mail of a new account.
fn verification_mail(state: &AppState, to: &str, given_name: &str, college: &str, token: &str) -> Mail {
    let link = format!("{}/verify-email/?token={token}", state.config.public_url);
    Mail {
        to: to.to_owned(),
        reply_to: None,
        subject: format!("Confirm your email for {college}"),
        body: format!(
            "Hello {given_name},\n\nPlease confirm your email address for your {college} account, so that the bookings you make \
             with it show in your account: open this link and enter the password you chose.\n{link}\n\n\
             The link works for two days. If you did not sign up, ignore this email: no booking made with this address joins \
             that account without it.\n"
        ),
        attachment: None,
    }
}

/// Mails a single-use link to choose a password, valid for an hour.
async fn mail_password_link(state: &AppState, user: &UserData, subject: String, opening: &str) -> Result<(), ApiError> {
    let now = Utc::now();
    let (token, expires_at) = reset_token(now);
    let link = format!("{}/reset-password/?token={token}", state.config.public_url);
    let mail = Mail {
        to: user.email.clone(),
        reply_to: None,
        subject,
        body: format!(
            "Hello {},\n\n{opening}\n{link}\n\nThe link works for an hour. If you did not ask for this, you can ignore this email.\n",
            user.given_name
        ),
        attachment: None,
    };
    // Beyond three live links nothing is mailed, and the answer is the same.
    if !state.db.store_mailed_link(MailedLink::PasswordReset, &user.id, &token_hash(&token), expires_at, &mail, now).await? {
        tracing::info!(user = %user.id, "A password link was asked for again; three are live, so none is mailed");
    }
    Ok(())
}

/// The answer to a password reset request (the same whether or not the
/// email has an account, so it never tells who is a customer), to a
/// sign-up with an email that has an account, and to asking for a new
/// verification link.
#[derive(Serialize, ToSchema)]
pub struct MailSent {
    sent: bool,
}

pub(super) fn mail_sent() -> Response {
    (StatusCode::ACCEPTED, Json(MailSent { sent: true })).into_response()
}

/// `POST /api/auth/sign-up`: a new account is signed in at once (docs/product.md#accounts),
/// and its email is proven by the link mailed to
/// it; until then no purchase joins it (decision 009). An email that has an
/// account already gets a mail saying so, with a link to choose a password,
/// and nobody is signed in.
#[utoipa::path(
    post,
    path = "/api/auth/sign-up",
    tag = "accounts",
    request_body(content = SignUpRequest, example = json!({
        "email": "amelia@example.org", "password": "correct horse battery", "first_name": "Amelia", "last_name": "Hart",
        "phone": "07700 900123"
    })),
    responses(
        (status = 201, description = "Created and signed in; the email waits for the mailed link", body = AuthSession,
            headers(("set-cookie" = String, description = "The `enrol_session` cookie"))),
        (status = 202, description = "The email has an account: its owner is mailed a link to choose a password", body = MailSent),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "A message per field to correct (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn sign_up(State(state): State<Arc<AppState>>, JsonBody(request): JsonBody<SignUpRequest>) -> Result<Response, ApiError> {
    let account = request.parse().map_err(ApiError::Invalid)?;
    let hash = hash_password(account.password.clone()).await?;
    let now = Utc::now();
    let college = college(&state).await?;
    let (token, expires_at) = verification_token(now);
    let mail = verification_mail(&state, &account.email, &account.given_name, &college, &token);
    match state.db.sign_up(&account, &hash, &token_hash(&token), expires_at, &mail, now).await? {
        SignUp::Created(user) => {
            tracing::info!(user = %user.id, "Account created and signed in; waiting for its email to be confirmed");
            let (cookie, session) = start_session(&state, *user, now).await?;
            Ok(session_response(StatusCode::CREATED, Some(cookie), session))
        }
        SignUp::Existing(user) => {
            let opening = format!(
                "Someone, probably you, tried to create a {college} account with this email address, but you already have one. \
                 To sign in, choose a password here:"
            );
            mail_password_link(&state, &user, format!("Your {college} account"), &opening).await?;
            Ok(mail_sent())
        }
    }
}

/// `POST /api/auth/verify`: the link from the sign-up mail proves the
/// email; the purchases made with it join the account, and the browser is
/// signed in (docs/product.md#accounts).
#[utoipa::path(
    post,
    path = "/api/auth/verify",
    tag = "accounts",
    request_body = VerifyRequest,
    responses(
        (status = 200, description = "Signed in", body = AuthSession,
            headers(("set-cookie" = String, description = "The `enrol_session` cookie"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not the password chosen at sign-up", body = ErrorEnvelope),
        (status = 422, description = "The link has expired or was already used", body = ErrorEnvelope),
        (status = 429, body = ErrorEnvelope,
            description = "Too many requests from this address, or too many password attempts for this email: wait 15 minutes"),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn verify_email(State(state): State<Arc<AppState>>, JsonBody(request): JsonBody<VerifyRequest>) -> Result<Response, ApiError> {
    let token = token_hash(request.token.trim());
    let now = Utc::now();
    let expired =
        || ApiError::Unprocessable("This link has expired or was already used. Sign in and ask for a new one in your account.".to_owned());
    let (user, hash) = state.db.verification_account(&token, now).await?.ok_or_else(expired)?;
    // The link proves the mailbox; the password proves the one who signed
    // up. Both are needed, so an owner who clicks a link an impostor's
    // sign-up sent never confirms the impostor's account.
    count_password_attempt(&state, &user.email, now).await?;
    if request.password.len() > 200 || !verify_password(request.password, hash).await? {
        return Err(ApiError::Unauthorized(
            "That is not the password you chose when you signed up. If you did not sign up, ignore this link.".to_owned(),
        ));
    }
    let user = state.db.verify_email(&token, now).await?.ok_or_else(expired)?;
    state.db.clear_sign_in_attempts(&user.email).await?;
    tracing::info!(user = %user.id, "Email confirmed");
    let (cookie, session) = start_session(&state, user, now).await?;
    Ok(session_response(StatusCode::OK, Some(cookie), session))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The token of the link mailed at sign-up.
    token: String,
    /// The password chosen at sign-up.
    password: String,
}

/// `POST /api/account/verification-link`: mails the signed-in user a new
/// link proving their email (the first may be lost, or out of date).
#[utoipa::path(
    post,
    path = "/api/account/verification-link",
    tag = "accounts",
    security(("session_cookie" = []), ("bearer" = [])),
    responses(
        (status = 202, description = "A new link is on its way to the account's email", body = MailSent),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 409, description = "The email is proven already (`conflict`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address, or three links are live already", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn resend_verification(State(state): State<Arc<AppState>>, Student(record): Student) -> Result<Response, ApiError> {
    let user = record.user;
    if user.email_verified {
        return Err(ApiError::Conflict("Your email address is confirmed already.".to_owned()));
    }
    let now = Utc::now();
    let college = college(&state).await?;
    let (token, expires_at) = verification_token(now);
    let mail = verification_mail(&state, &user.email, &user.given_name, &college, &token);
    if !state.db.store_mailed_link(MailedLink::EmailVerification, &user.id, &token_hash(&token), expires_at, &mail, now).await? {
        return Err(links_live());
    }
    Ok(mail_sent())
}

/// A signed-in student asked for a fourth live link of one kind.
pub(super) fn links_live() -> ApiError {
    ApiError::TooManyRequests("We have emailed you three links already: please use the newest, or ask again later.".to_owned())
}

/// Counts one password attempt for `email` before the password is checked
/// (sign-in and confirming an email share the count): 429 once there have
/// been more than [`MAX_ATTEMPTS`] in the window.
pub(super) async fn count_password_attempt(state: &AppState, email: &str, now: DateTime<Utc>) -> Result<(), ApiError> {
    let attempts = state.db.count_sign_in_attempt(email, now, now - Duration::minutes(THROTTLE_WINDOW_MINUTES)).await?;
    if attempts > MAX_ATTEMPTS {
        tracing::warn!("Password attempts throttled");
        return Err(ApiError::TooManyRequests("Too many attempts. Please wait 15 minutes, or reset your password.".to_owned()));
    }
    Ok(())
}

/// `POST /api/auth/sign-in`, throttled per email: the attempt is counted
/// before the password is checked, in one statement, so a burst of guesses
/// cannot slip past the limit; the password hash runs whether or not the
/// account exists, so timing tells nothing.
#[utoipa::path(
    post,
    path = "/api/auth/sign-in",
    tag = "accounts",
    request_body(content = SignInRequest, example = json!({ "username": "amelia@example.org", "password": "correct horse battery" })),
    responses(
        (status = 200, description = "Signed in", body = AuthSession,
            headers(("set-cookie" = String, description = "The `enrol_session` cookie"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Wrong email or password", body = ErrorEnvelope),
        (status = 429, body = ErrorEnvelope,
            description = "Too many requests from this address, or too many attempts for this email: wait 15 minutes"),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn sign_in(State(state): State<Arc<AppState>>, JsonBody(request): JsonBody<SignInRequest>) -> Result<Response, ApiError> {
    let email = request.username.trim().to_lowercase();
    let now = Utc::now();
    if email.is_empty() || request.password.is_empty() || email.len() > 254 || request.password.len() > 200 {
        return Err(ApiError::Unauthorized(WRONG_PASSWORD.to_owned()));
    }
    count_password_attempt(&state, &email, now).await?;
    let (user, hash) = state.db.user_with_password(&email).await?.unzip();
    let matches = verify_password(request.password, hash.flatten()).await?;
    let Some(user) = user.filter(|_| matches) else {
        return Err(ApiError::Unauthorized(WRONG_PASSWORD.to_owned()));
    };
    state.db.clear_sign_in_attempts(&email).await?;
    let (cookie, session) = start_session(&state, user, now).await?;
    Ok(session_response(StatusCode::OK, Some(cookie), session))
}

/// `POST /api/auth/sign-out`: the session ends; signed out is the answer.
#[utoipa::path(
    post,
    path = "/api/auth/sign-out",
    tag = "accounts",
    responses((status = 200, description = "Signed out", body = AuthSession,
        headers(("set-cookie" = String, description = "The cleared `enrol_session` cookie")))),
)]
#[tracing::instrument(skip_all)]
pub async fn sign_out(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = request_token(&headers) {
        state.db.delete_session(&token_hash(&token)).await?;
    }
    Ok(session_response(StatusCode::OK, Some(cleared_cookie(&state)), AuthSession::signed_out()))
}

/// `GET /api/auth/session`: signed out is an answer, not an error.
#[utoipa::path(
    get,
    path = "/api/auth/session",
    tag = "accounts",
    responses((status = 200, description = "The signed-in user, or nulls when signed out", body = AuthSession)),
)]
pub async fn show_session(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let session = match current_session(&state, &headers).await? {
        Some(record) => AuthSession::signed_in(&record.user, record.created_at.timestamp(), record.expires_at.timestamp()),
        None => AuthSession::signed_out(),
    };
    Ok(session_response(StatusCode::OK, None, session))
}

/// `GET /api/account`: the signed-in user's bookings, payments and online courses.
#[utoipa::path(
    get,
    path = "/api/account",
    tag = "accounts",
    security(("session_cookie" = []), ("bearer" = [])),
    responses(
        (status = 200, description = "What the account area shows", body = AccountData),
        (status = 401, description = "Not signed in", body = ErrorEnvelope),
    )
)]
pub async fn show_account(State(state): State<Arc<AppState>>, Student(record): Student) -> Result<Response, ApiError> {
    let data: AccountData = state.db.account_data(record.user, Utc::now()).await?;
    let mut response = Json(data).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {
    email: String,
}

/// `POST /api/auth/password-reset`: mails a single-use link valid for an
/// hour. The answer is the same whether or not the email has an account.
#[utoipa::path(
    post,
    path = "/api/auth/password-reset",
    tag = "accounts",
    request_body(content = ResetRequest, example = json!({ "email": "amelia@example.org" })),
    responses(
        (status = 202, description = "A mail is on its way if the email has an account: the same answer either way", body = MailSent),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "No email given (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn request_password_reset(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<ResetRequest>,
) -> Result<Response, ApiError> {
    let email = request.email.trim().to_lowercase();
    if email.is_empty() {
        return Err(ApiError::Invalid(FieldErrors::from([("email", "Email is required")])));
    }
    if let Some((user, _)) = state.db.user_with_password(&email).await? {
        // Made after the answer, so an address with an account is answered
        // as fast as one without: the timing tells nothing either.
        tokio::spawn(async move {
            let mailed = async {
                let college = college(&state).await?;
                mail_password_link(&state, &user, format!("Reset your {college} password"), "Use this link to choose a new password:").await
            };
            if let Err(error) = mailed.await {
                tracing::error!(?error, "Failed to mail a password reset link");
            }
        });
    }
    Ok(mail_sent())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetConfirm {
    /// The token of the link mailed for the reset.
    token: String,
    /// 10 to 200 characters.
    password: String,
}

/// `POST /api/auth/password-reset/confirm`: a new password from a reset
/// link; every other session ends and this browser is signed in.
#[utoipa::path(
    post,
    path = "/api/auth/password-reset/confirm",
    tag = "accounts",
    request_body = ResetConfirm,
    responses(
        (status = 200, description = "The new password is set and this browser signed in", body = AuthSession,
            headers(("set-cookie" = String, description = "The `enrol_session` cookie"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "A password too short or too long (`invalid`), or a link expired or already used", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn confirm_password_reset(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<ResetConfirm>,
) -> Result<Response, ApiError> {
    if let Some(problem) = password_problem(&request.password) {
        return Err(ApiError::Invalid(FieldErrors::from([("password", problem)])));
    }
    let hash = hash_password(request.password).await?;
    let now = Utc::now();
    let user = state
        .db
        .reset_password(&token_hash(request.token.trim()), &hash, now)
        .await?
        .ok_or_else(|| ApiError::Unprocessable("This link has expired or was already used. Please ask for a new one.".to_owned()))?;
    state.db.clear_sign_in_attempts(&user.email).await?;
    let (cookie, session) = start_session(&state, user, now).await?;
    Ok(session_response(StatusCode::OK, Some(cookie), session))
}
