//! A student's intake call: the free times, booking one, moving it,
//! cancelling it.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::{Student, private};

use chrono::{NaiveDate, Utc};

use enrol_db::{IntakeBooking, IntakeMove};
use enrol_domain::intake::{IntakeDay, free_days, is_offered, offered_range};
use enrol_domain::london;

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
pub async fn show_intake_slots(State(state): State<Arc<AppState>>, _student: Student) -> Result<Response, ApiError> {
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
    Student(record): Student,
    JsonBody(request): JsonBody<IntakeCallRequest>,
) -> Result<Response, ApiError> {
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
    Student(record): Student,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<IntakeCallRequest>,
) -> Result<Response, ApiError> {
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
    Student(record): Student,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    if !state.db.cancel_intake_call(&record.user.id, &id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(private(StatusCode::OK, Cancelled { cancelled: true }))
}
