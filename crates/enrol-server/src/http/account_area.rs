//! What a signed-in student changes in the account area (§2 /account/,
//! issue 12): their forms' answers, evidence files (and reading them back),
//! an intake call, their name, phone, email and password. Reads go through
//! `POST /api/graphql`. Every call works on the caller's own rows only; a
//! row of someone else's answers 404, as one that does not exist.
//!
//! Over 300 lines: one handler per call, each with the OpenAPI description
//! the fuzz run checks it against.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use chrono::{NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_db::{EmailChange, EnrollmentRecord, IntakeBooking, IntakeMove, MailedLink, NewUpload, SessionRecord};
use enrol_domain::auth::password_problem;
use enrol_domain::contact::{Field, FieldErrors, PersonFields, check, is_valid_email};
use enrol_domain::intake::{IntakeDay, free_days, is_offered, offered_range};
use enrol_domain::mail::Mail;
use enrol_domain::{evidence, forms, london};

use crate::AppState;
use crate::accounts::{current_session, hash_password, random_token, request_token, reset_token, token_hash, verify_password};
use crate::http::ApiError;
use crate::http::auth::{MailSent, count_password_attempt, mail_sent};
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

/// The caller's session, or 401: every account call starts here.
pub async fn require_session(state: &AppState, headers: &HeaderMap) -> Result<SessionRecord, ApiError> {
    current_session(state, headers).await?.ok_or_else(|| ApiError::Unauthorized("Sign in to see your account.".to_owned()))
}

/// One of the caller's bookings, or 404: another's answers as one that
/// does not exist.
pub(super) async fn own_booking(state: &AppState, headers: &HeaderMap, id: &str) -> Result<EnrollmentRecord, ApiError> {
    let session = require_session(state, headers).await?;
    state.db.enrollment(id).await?.filter(|o| o.user_id.as_deref() == Some(session.user.id.as_str())).ok_or(ApiError::NotFound)
}

/// A JSON answer no cache may keep.
pub(super) fn private(status: StatusCode, body: impl Serialize) -> Response {
    kept_private((status, Json(body)).into_response())
}

/// `response`, marked for no cache to keep.
pub(super) fn kept_private(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    response
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FormAnswers {
    /// Answers by question key; yes/no questions take "yes" or "no".
    answers: BTreeMap<String, String>,
    /// Marks the form answered in full: every required question needs an answer.
    #[serde(default)]
    complete: bool,
}

#[derive(Serialize, ToSchema)]
pub struct FormSaved {
    complete: bool,
}

/// `PUT /api/account/forms/{id}`: saves the answers to one of the caller's
/// forms, as a draft or complete.
#[utoipa::path(
    put,
    path = "/api/account/forms/{id}",
    tag = "account",
    params(("id" = String, Path, description = "The form's id")),
    request_body(content = FormAnswers, example = json!({ "answers": { "conditions": "no" }, "complete": false })),
    responses(
        (status = 200, description = "Saved", body = FormSaved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such form of the caller's", body = ErrorEnvelope),
        (status = 422, description = "A message per question to correct (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn save_form(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<FormAnswers>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
    let kind = state.db.form_kind(&record.user.id, &id).await?.ok_or(ApiError::NotFound)?;
    let answers = forms::check_answers(&kind, &request.answers, request.complete).map_err(ApiError::Invalid)?;
    if !state.db.save_form_answers(&record.user.id, &id, &answers, request.complete, Utc::now()).await? {
        return Err(ApiError::NotFound);
    }
    Ok(private(StatusCode::OK, FormSaved { complete: request.complete }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceFile {
    /// The file's name on the student's device.
    file_name: String,
    /// The file's bytes, base64: a PDF, JPEG, PNG or WebP of at most 5 MB.
    data: String,
}

#[derive(Serialize, ToSchema)]
pub struct UploadSaved {
    id: String,
    file_name: String,
    content_type: String,
}

/// `POST /api/account/upload-requests/{id}/files`: a file for one of the
/// caller's evidence requests. JSON, so the same-site rule of every write
/// holds (decision 009).
#[utoipa::path(
    post,
    path = "/api/account/upload-requests/{id}/files",
    tag = "account",
    params(("id" = String, Path, description = "The evidence request's id")),
    request_body(content = EvidenceFile, example = json!({ "file_name": "level-2.pdf", "data": "JVBERi0xLjcK" })),
    responses(
        (status = 201, description = "Kept", body = UploadSaved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such evidence request of the caller's", body = ErrorEnvelope),
        (status = 413, description = "Larger than the server takes", body = ErrorEnvelope),
        (status = 422, description = "Not a PDF or an image, empty, or over 5 MB (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn upload_evidence(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(request_id): Path<String>,
    JsonBody(file): JsonBody<EvidenceFile>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(file.data.trim())
        .map_err(|_| ApiError::Unprocessable("The file did not arrive whole. Please try again.".to_owned()))?;
    let kind = evidence::check(&bytes).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    let file_name = evidence::file_name(&file.file_name);
    let key = random_token();
    state.files.put(&key, &bytes).await?;
    let upload = NewUpload {
        request_id: &request_id,
        file_name: &file_name,
        content_type: kind.content_type(),
        size_bytes: i64::try_from(bytes.len()).unwrap_or(i64::MAX),
        storage_key: &key,
    };
    let id = state.db.record_upload(&record.user.id, &upload, Utc::now()).await?.ok_or(ApiError::NotFound)?;
    Ok(private(StatusCode::CREATED, UploadSaved { id, file_name, content_type: kind.content_type().to_owned() }))
}

/// `GET /api/account/uploads/{id}`: one of the caller's files, as a download.
#[utoipa::path(
    get,
    path = "/api/account/uploads/{id}",
    tag = "account",
    params(("id" = String, Path, description = "The upload's id")),
    responses(
        (status = 200, description = "The file, as an attachment", content_type = "application/octet-stream"),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No such file of the caller's", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn download_upload(State(state): State<Arc<AppState>>, headers: HeaderMap, Path(id): Path<String>) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
    let upload = state.db.upload_of(&record.user.id, &id).await?.ok_or(ApiError::NotFound)?;
    let bytes = state.files.get(&upload.storage_key).await?.ok_or(ApiError::NotFound)?;
    let disposition = format!("attachment; filename=\"{}\"", evidence::file_name(&upload.file_name).replace(|c: char| !c.is_ascii(), "_"));
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_str(&upload.content_type).map_err(anyhow::Error::from)?),
        (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?),
        // Never run as a page, whatever the file holds.
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox; default-src 'none'")),
    ];
    Ok(kept_private((headers, bytes).into_response()))
}

#[derive(Serialize, ToSchema)]
pub struct IntakeSlots {
    days: Vec<IntakeDay>,
}

/// `GET /api/account/intake-calls/slots`: the call times still free.
#[utoipa::path(
    get,
    path = "/api/account/intake-calls/slots",
    tag = "account",
    responses(
        (status = 200, description = "Weekdays of the next two weeks with their free London times", body = IntakeSlots),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn show_intake_slots(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Result<Response, ApiError> {
    require_session(&state, &headers).await?;
    let today = london::today(Utc::now());
    let (first, last) = offered_range(today);
    let booked = state.db.booked_intake_slots(first, last).await?;
    Ok(private(StatusCode::OK, IntakeSlots { days: free_days(today, &booked) }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IntakeCallRequest {
    /// `YYYY-MM-DD`.
    date: String,
    /// London `HH:MM`, one of the offered times.
    time: String,
}

#[derive(Serialize, ToSchema)]
pub struct IntakeCallBooked {
    id: String,
}

/// `POST /api/account/intake-calls`: books a free call time.
#[utoipa::path(
    post,
    path = "/api/account/intake-calls",
    tag = "account",
    request_body(content = IntakeCallRequest, example = json!({ "date": "2026-12-01", "time": "10:00" })),
    responses(
        (status = 201, description = "Booked", body = IntakeCallBooked),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 409, description = "The time was just taken, or the caller has a call booked already (`conflict`)", body = ErrorEnvelope),
        (status = 422, description = "Not a time calls are offered (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn book_intake_call(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<IntakeCallRequest>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
    let date = offered_date(&request)?;
    match state.db.book_intake_call(&record.user.id, date, &request.time, Utc::now()).await? {
        IntakeBooking::Booked { id } => Ok(private(StatusCode::CREATED, IntakeCallBooked { id })),
        IntakeBooking::SlotTaken => Err(slot_taken()),
        IntakeBooking::AlreadyBooked => Err(ApiError::Conflict("You already have a call booked. Change its time instead.".to_owned())),
    }
}

/// The day of `request`, if calls are offered at its time: else 422.
fn offered_date(request: &IntakeCallRequest) -> Result<NaiveDate, ApiError> {
    let today = london::today(Utc::now());
    request
        .date
        .parse::<NaiveDate>()
        .ok()
        .filter(|date| is_offered(today, *date, &request.time))
        .ok_or_else(|| ApiError::Unprocessable("Please choose one of the times offered.".to_owned()))
}

fn slot_taken() -> ApiError {
    ApiError::Conflict("Someone has just booked that time. Please choose another.".to_owned())
}

#[derive(Serialize, ToSchema)]
pub struct IntakeCallMoved {
    moved: bool,
}

/// `POST /api/account/intake-calls/{id}/move`: gives the caller's booked
/// call another free time; it keeps its old one if the new one is taken.
#[utoipa::path(
    post,
    path = "/api/account/intake-calls/{id}/move",
    tag = "account",
    params(("id" = String, Path, description = "The call's id")),
    request_body(content = IntakeCallRequest, example = json!({ "date": "2026-12-01", "time": "10:00" })),
    responses(
        (status = 200, description = "Moved: its old time is free again", body = IntakeCallMoved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No booked call of the caller's with that id", body = ErrorEnvelope),
        (status = 409, description = "The time was just taken (`conflict`)", body = ErrorEnvelope),
        (status = 422, description = "Not a time calls are offered (`unprocessable`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn move_intake_call(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<IntakeCallRequest>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
    let date = offered_date(&request)?;
    match state.db.move_intake_call(&record.user.id, &id, date, &request.time).await? {
        IntakeMove::Moved => Ok(private(StatusCode::OK, IntakeCallMoved { moved: true })),
        IntakeMove::SlotTaken => Err(slot_taken()),
        IntakeMove::Unknown => Err(ApiError::NotFound),
    }
}

#[derive(Serialize, ToSchema)]
pub struct Cancelled {
    cancelled: bool,
}

/// `POST /api/account/intake-calls/{id}/cancel`: cancels the caller's booked call.
#[utoipa::path(
    post,
    path = "/api/account/intake-calls/{id}/cancel",
    tag = "account",
    params(("id" = String, Path, description = "The call's id")),
    responses(
        (status = 200, description = "Cancelled: its time is free again", body = Cancelled),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No booked call of the caller's with that id", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn cancel_intake_call(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
    if !state.db.cancel_intake_call(&record.user.id, &id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(private(StatusCode::OK, Cancelled { cancelled: true }))
}

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

/// `PUT /api/account/profile`: the caller's name and phone (§5: +44 form).
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
    headers: HeaderMap,
    JsonBody(request): JsonBody<ProfileRequest>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
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
pub struct EmailChangeRequest {
    email: String,
    /// The account's password, so a browser left signed in cannot move the account.
    password: String,
}

/// Checks the caller's current password (counted against the sign-in
/// limit), or says which field is wrong.
async fn check_current_password(state: &AppState, record: &SessionRecord, password: String, field: &'static str) -> Result<(), ApiError> {
    count_password_attempt(state, &record.user.email, Utc::now()).await?;
    let current = state.db.password_hash_of(&record.user.id).await?;
    if !verify_password(password, current).await? {
        return Err(ApiError::Invalid(FieldErrors::from([(field, "Your current password is not right")])));
    }
    Ok(())
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
        (status = 429, description = "Too many attempts: wait 15 minutes", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn change_email(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<EmailChangeRequest>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
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
        state.db.store_mailed_link(link, &record.user.id, &token_hash(&token), expires_at, &mail, now).await?;
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
    headers: HeaderMap,
    JsonBody(request): JsonBody<EmailChangeConfirm>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
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
    headers: HeaderMap,
    JsonBody(request): JsonBody<PasswordChange>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
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
