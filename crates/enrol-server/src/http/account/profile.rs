//! A student's name, phone and password.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::{Student, private};

use chrono::Utc;

use enrol_db::SessionRecord;
use enrol_domain::auth::password_problem;
use enrol_domain::contact::{Field, FieldErrors, PersonFields, check};

use crate::accounts::{hash_password, request_token, token_hash, verify_password};
use crate::http::auth::count_password_attempt;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileRequest {
    first_name: String,
    last_name: String,
    phone: String,
}

#[derive(Serialize, ToSchema)]
pub struct Saved {
    saved: bool,
}

/// `PUT /api/account/profile`: the caller's name and phone (docs/product.md#contact-details).
#[utoipa::path(
    put,
    path = "/api/account/profile",
    tag = "account",
    request_body(content = ProfileRequest, example = json!({ "first_name": "Amelia", "last_name": "Hart", "phone": "07700 900123" })),
    responses(
        (status = 200, description = "Saved", body = Saved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 422, description = "A message per field to correct (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn update_profile(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    JsonBody(request): JsonBody<ProfileRequest>,
) -> Result<Response, ApiError> {
    let mut errors = FieldErrors::new();
    let field = |key, value, message| Field { key, value, required: Some(message) };
    let person = check(
        PersonFields {
            given_name: field("first_name", &request.first_name, "First name is required"),
            family_name: Some(field("last_name", &request.last_name, "Last name is required")),
            email: Field { key: "email", value: "", required: None },
            phone: field("phone", &request.phone, "Phone number is required"),
        },
        &mut errors,
    );
    let person = person.ok_or(ApiError::Invalid(errors))?;
    state.db.update_profile(&record.user.id, person.given_name(), person.family_name(), person.phone()).await?;
    Ok(private(StatusCode::OK, Saved { saved: true }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    current_password: String,
    new_password: String,
}

/// `POST /api/account/password`: a new password, given the current one.
/// Attempts count against the same per-email limit as sign-in; the
/// caller's other sessions end.
#[utoipa::path(
    post,
    path = "/api/account/password",
    tag = "account",
    request_body(content = PasswordChange, example = json!({ "current_password": "correct horse battery", "new_password": "a new pass phrase" })),
    responses(
        (status = 200, description = "Changed; other browsers are signed out", body = Saved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 422, description = "The current password is wrong, or the new one too short or too long (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many attempts: wait 15 minutes", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn change_password(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    headers: HeaderMap,
    JsonBody(request): JsonBody<PasswordChange>,
) -> Result<Response, ApiError> {
    if let Some(problem) = password_problem(&request.new_password) {
        return Err(ApiError::Invalid(FieldErrors::from([("new_password", problem)])));
    }
    check_current_password(&state, &record, request.current_password, "current_password").await?;
    let hash = hash_password(request.new_password).await?;
    let token = request_token(&headers).ok_or(ApiError::Unauthorized("Sign in to see your account.".to_owned()))?;
    state.db.change_password(&record.user.id, &hash, &token_hash(&token)).await?;
    state.db.clear_sign_in_attempts(&record.user.email).await?;
    Ok(private(StatusCode::OK, Saved { saved: true }))
}

/// Checks the caller's current password (counted against the sign-in
/// limit), or says which field is wrong.
pub(super) async fn check_current_password(
    state: &AppState,
    record: &SessionRecord,
    password: String,
    field: &'static str,
) -> Result<(), ApiError> {
    count_password_attempt(state, &record.user.email, Utc::now()).await?;
    let current = state.db.password_hash_of(&record.user.id).await?;
    if !verify_password(password, current).await? {
        return Err(ApiError::Invalid(FieldErrors::from([(field, "Your current password is not right")])));
    }
    Ok(())
}
