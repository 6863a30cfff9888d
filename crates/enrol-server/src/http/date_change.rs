//! A student moves a booked course to another date from the account
//! (decision 015): the dates offered, each with what it changes
//! the total by, then the move itself.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_db::{Actor, DateChange};
use enrol_domain::date_change::{DateChangeRefused, OtherDate, date_can_change};
use enrol_domain::london;
use enrol_domain::money::Money;

use crate::AppState;
use crate::accounts::new_balance_link;
use crate::http::ApiError;
use crate::http::cancellation::settle_booking_change;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::{Student, private};

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CourseDates {
    course_id: String,
    title: String,
    /// `YYYY-MM-DD`.
    date: String,
    /// Why its date cannot change online, if it cannot.
    refused: Option<String>,
    dates: Vec<OtherDate>,
}

#[derive(Serialize, ToSchema)]
pub struct BookingDates {
    courses: Vec<CourseDates>,
}

/// `GET /api/account/enrollments/{id}/dates`: each dated course of one of
/// the caller's bookings, with the other dates it could move to.
#[utoipa::path(
    get,
    path = "/api/account/enrollments/{id}/dates",
    tag = "account",
    params(("id" = String, Path, description = "The booking's id")),
    responses(
        (status = 200, description = "The booking's dated courses and the dates with a free seat", body = BookingDates),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No booking of the caller's with that id", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn show_dates(State(state): State<Arc<AppState>>, student: Student, Path(id): Path<String>) -> Result<Response, ApiError> {
    let order = student.booking(&state, &id).await?;
    let now = Utc::now();
    let mut courses = Vec::new();
    for course in &order.courses {
        let (Some(date), Some(session)) = (course.date, course.session_id.as_deref()) else { continue };
        let grounds = order.date_change_grounds(course, &Actor::Student);
        let refused = date_can_change(order.status, london::today(now), Some(date), grounds).err();
        let dates = match refused {
            None => state.db.other_dates(&order.id, &course.event_id, session, course.price, now).await?,
            Some(_) => Vec::new(),
        };
        courses.push(CourseDates {
            course_id: course.course_id.clone(),
            title: course.title.clone(),
            date: date.to_string(),
            refused: refused.map(|r| r.to_string()),
            dates,
        });
    }
    Ok(private(StatusCode::OK, BookingDates { courses }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MoveRequest {
    course_id: String,
    session_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct Moved {
    /// The booking's new total, and what is refunded of what was paid.
    #[schema(value_type = i64)]
    total: Money,
    #[schema(value_type = i64)]
    refund: Money,
}

/// `POST /api/account/enrollments/{id}/move`: moves a course of one of the
/// caller's bookings to another session of it with a free seat.
#[utoipa::path(
    post,
    path = "/api/account/enrollments/{id}/move",
    tag = "account",
    params(("id" = String, Path, description = "The booking's id")),
    request_body(content = MoveRequest, example = json!({ "courseId": "chemical-peels", "sessionId": "chemical-peels-1" })),
    responses(
        (status = 200, description = "Moved: the new total and any refund", body = Moved),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No booking of the caller's with that id, course or session", body = ErrorEnvelope),
        (status = 409, description = "The new date is fully booked", body = ErrorEnvelope),
        (status = 422, description = "The terms do not allow it online (too close to training, a past date, the same date)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn move_booking(
    State(state): State<Arc<AppState>>,
    student: Student,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    let order = student.booking(&state, &id).await?;
    let college = state.db.college().await?;
    let now = Utc::now();
    let pay_link = new_balance_link(&state, now);
    let moved =
        state.db.move_booking(&order.id, &request.course_id, &request.session_id, &Actor::Student, &college, &pay_link, now).await?;
    let (total, refund) = moved_or_refused(&state, &order.id, &request.session_id, moved).await?;
    Ok(private(StatusCode::OK, Moved { total, refund }))
}

/// What a move did, for the student or a staff member: once moved, its
/// refund is made and the seat it freed offered; a full date is a 409.
pub(super) async fn moved_or_refused(
    state: &AppState,
    order_id: &str,
    session_id: &str,
    moved: DateChange,
) -> Result<(Money, Money), ApiError> {
    match moved {
        DateChange::Moved { total, refund } => {
            tracing::info!(order = %order_id, session = %session_id, refund = refund.pence(), "Booking moved");
            settle_booking_change(state, refund > Money::ZERO).await;
            Ok((total, refund))
        }
        DateChange::Refused(DateChangeRefused::Full) => Err(ApiError::Conflict(DateChangeRefused::Full.to_string())),
        DateChange::Refused(refused) => Err(ApiError::Unprocessable(refused.to_string())),
        DateChange::NotFound => Err(ApiError::NotFound),
    }
}
