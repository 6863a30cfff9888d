//! Staff sign-in, sign-out and set-up (decision 017): email, password and
//! a TOTP code (or one of the staff member's single-use recovery codes) in
//! one step, throttled per email; a set-up link shows the new secret once
//! and asks for a password and a first code, and its answer carries the
//! recovery codes, shown once; a new set voids the last.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_domain::auth::password_problem;
use enrol_domain::staff::Role;

use super::{Staff, StaffView};
use crate::AppState;
use crate::accounts::{hash_password, token_hash, verify_password};
use crate::http::ApiError;
use crate::http::auth::count_password_attempt;
use crate::http::json_body::JsonBody;
use crate::staff_auth;

const INCORRECT: &str = "Email, password or code is incorrect.";

/// Who is signed in to the back office: nobody (`null`) is an answer.
#[derive(Serialize, TS)]
#[ts(export)]
struct StaffSession {
    staff: Option<StaffView>,
}

/// The session answer (`None`: signed out), never cached, with the cookie
/// when one is set.
fn session_response(member: Option<&enrol_db::StaffMember>, set_cookie: Option<HeaderValue>) -> Response {
    unstored(Json(StaffSession { staff: member.map(StaffView::from) }).into_response(), set_cookie)
}

/// `response`, never cached, with the cookie when one is set.
fn unstored(mut response: Response, set_cookie: Option<HeaderValue>) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(cookie) = set_cookie {
        headers.insert(header::SET_COOKIE, cookie);
    }
    response
}

/// `GET /api/admin/session`: who is signed in, if anyone; signed out is
/// an answer, not an error. Reading it keeps the session alive.
pub async fn show_session(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let member = match staff_auth::session_hash(&headers) {
        Some(hash) => state.db.staff_session(&hash, Utc::now()).await?,
        None => None,
    };
    Ok(session_response(member.as_ref(), None))
}

/// `POST /api/admin/sign-out`.
pub async fn sign_out(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(hash) = staff_auth::session_hash(&headers) {
        state.db.end_staff_session(&hash).await?;
    }
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, staff_auth::cleared_cookie(&state))]).into_response())
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct SignIn {
    email: String,
    password: String,
    code: String,
}

/// `POST /api/admin/sign-in`: the attempt is counted before anything is
/// checked; the password hash runs for unknown emails too; the code is
/// accepted once.
pub async fn sign_in(State(state): State<Arc<AppState>>, JsonBody(request): JsonBody<SignIn>) -> Result<Response, ApiError> {
    let email = request.email.trim().to_lowercase();
    let now = Utc::now();
    if email.is_empty() || email.len() > 254 || request.password.is_empty() || request.password.len() > 200 {
        return Err(ApiError::Unauthorized(INCORRECT.to_owned()));
    }
    count_password_attempt(&state, &format!("staff:{email}"), now).await?;
    let credentials = state.db.staff_credentials(&email).await?;
    let hash = credentials.as_ref().and_then(|c| c.password_hash.clone());
    let password_matches = verify_password(request.password, hash).await?;
    let Some(credentials) = credentials.filter(|_| password_matches) else {
        return Err(ApiError::Unauthorized(INCORRECT.to_owned()));
    };
    let (cookie, session_hash) = staff_auth::new_session(&state);
    let staff_id = &credentials.member.id;
    if let Some(recovery_hash) = staff_auth::recovery_code_hash(&request.code) {
        // Spent or unknown read alike: a recovery code says nothing of itself.
        if !state.db.use_recovery_code(staff_id, &recovery_hash, &session_hash, now).await? {
            return Err(ApiError::Unauthorized(INCORRECT.to_owned()));
        }
        tracing::info!(staff = %staff_id, "Signed in with a recovery code");
    } else {
        let Some(step) = staff_auth::check_code(&credentials.totp_secret, &request.code, now)? else {
            return Err(ApiError::Unauthorized(INCORRECT.to_owned()));
        };
        if !state.db.accept_staff_code(staff_id, step, &session_hash, now).await? {
            // The same words as a wrong password: a used code must not
            // confirm that the password before it was right.
            return Err(ApiError::Unauthorized(INCORRECT.to_owned()));
        }
    }
    state.db.clear_sign_in_attempts(&format!("staff:{email}")).await?;
    Ok(session_response(Some(&credentials.member), Some(cookie)))
}

/// A set-up link's new staff member and the secret for their authenticator app.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct StaffInvitation {
    email: String,
    name: String,
    role: Role,
    secret: String,
    otpauth_uri: String,
    qr_svg: String,
}

/// `GET /api/admin/invitations/{token}`: who the link is for and the
/// secret to add to an authenticator app.
pub async fn show_invitation(State(state): State<Arc<AppState>>, Path(token): Path<String>) -> Result<Response, ApiError> {
    let setup = state.db.staff_setup(&token_hash(&token), Utc::now()).await?.ok_or(ApiError::NotFound)?;
    let college = state.db.college().await?.name;
    let (otpauth_uri, qr_svg) = staff_auth::enrolment(&setup.totp_secret, &setup.member.email, &college)?;
    let body = StaffInvitation {
        email: setup.member.email,
        name: setup.member.name,
        role: setup.member.role,
        secret: setup.totp_secret,
        otpauth_uri,
        qr_svg,
    };
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(body)).into_response())
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Acceptance {
    password: String,
    code: String,
}

/// `POST /api/admin/invitations/{token}`: a password and a first code
/// finish set-up and sign in.
pub async fn accept_invitation(
    State(state): State<Arc<AppState>>,
    Path(token): Path<String>,
    JsonBody(request): JsonBody<Acceptance>,
) -> Result<Response, ApiError> {
    let now = Utc::now();
    let hash = token_hash(&token);
    let setup = state.db.staff_setup(&hash, now).await?.ok_or(ApiError::NotFound)?;
    let mut fields = std::collections::BTreeMap::new();
    if let Some(problem) = password_problem(&request.password) {
        fields.insert("password", problem);
    }
    let step = staff_auth::check_code(&setup.totp_secret, &request.code, now)?;
    if step.is_none() {
        fields.insert("code", "That code is not right. Enter the six digits your authenticator app shows now.");
    }
    let Some(step) = step.filter(|_| fields.is_empty()) else {
        return Err(ApiError::Invalid(fields));
    };
    let password_hash = hash_password(request.password).await?;
    let (recovery_codes, recovery_hashes) = staff_auth::new_recovery_codes();
    let member = state.db.finish_staff_setup(&hash, &password_hash, step, &recovery_hashes, now).await?.ok_or(ApiError::NotFound)?;
    let (cookie, session_hash) = staff_auth::new_session(&state);
    state.db.create_staff_session(&session_hash, &member.id, now).await?;
    Ok(unstored(Json(SetUp { staff: StaffView::from(&member), recovery_codes }).into_response(), Some(cookie)))
}

/// A finished set-up: the session, and the recovery codes, shown once.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct SetUp {
    staff: StaffView,
    recovery_codes: Vec<String>,
}

/// `GET /api/admin/recovery-codes`: how many of the signed-in staff
/// member's recovery codes are unused.
pub async fn show_recovery_codes(State(state): State<Arc<AppState>>, staff: Staff) -> Result<Response, ApiError> {
    let left = state.db.recovery_codes_left(&staff.id).await?;
    Ok(unstored(Json(RecoveryCodesLeft { left }).into_response(), None))
}

/// How many recovery codes are unused.
#[derive(Serialize, TS)]
#[ts(export)]
struct RecoveryCodesLeft {
    #[ts(type = "number")]
    left: i64,
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct PasswordCheck {
    password: String,
}

/// `POST /api/admin/recovery-codes` `{password}`: a new set, shown once,
/// which voids every code of the last; the password is asked again (and
/// counted as a sign-in attempt), so a session left open cannot take them.
#[tracing::instrument(skip_all, fields(staff = %staff.id))]
pub async fn renew_recovery_codes(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    JsonBody(request): JsonBody<PasswordCheck>,
) -> Result<Response, ApiError> {
    let now = Utc::now();
    let attempt = format!("staff:{}", staff.email);
    count_password_attempt(&state, &attempt, now).await?;
    let hash = state.db.staff_credentials(&staff.email).await?.and_then(|credentials| credentials.password_hash);
    if request.password.is_empty() || request.password.len() > 200 || !verify_password(request.password, hash).await? {
        return Err(ApiError::field("password", "That password is not right."));
    }
    state.db.clear_sign_in_attempts(&attempt).await?;
    let (codes, hashes) = staff_auth::new_recovery_codes();
    state.db.replace_recovery_codes(&staff.id, &hashes, now).await?;
    Ok(unstored((StatusCode::CREATED, Json(RecoveryCodes { codes })).into_response(), None))
}

/// A new set of recovery codes, shown once.
#[derive(Serialize, TS)]
#[ts(export)]
struct RecoveryCodes {
    codes: Vec<String>,
}
