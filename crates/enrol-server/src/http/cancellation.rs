//! A student cancels a booking from the account (decision 015):
//! first what the terms would give back, shown before they confirm, then
//! the cancellation, whose refunds are made at the payment provider at
//! once (and retried by the scheduled jobs if that fails).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use enrol_db::{Actor, Cancellation};
use enrol_domain::cancellation::{CancellationQuote, CancellationRefund};
use enrol_domain::london;

use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::student::{Student, private};
use crate::{AppState, refunds};

#[derive(Serialize, ToSchema)]
pub struct CancellationAnswer {
    #[serde(flatten)]
    quote: CancellationQuote,
    /// The terms that apply, in the student's words.
    explanation: String,
}

impl From<CancellationQuote> for CancellationAnswer {
    fn from(quote: CancellationQuote) -> Self {
        CancellationAnswer { explanation: quote.explanation(), quote }
    }
}

/// `GET /api/account/enrollments/{id}/cancellation`: what cancelling now
/// would give back, and why.
#[utoipa::path(
    get,
    path = "/api/account/enrollments/{id}/cancellation",
    tag = "account",
    params(("id" = String, Path, description = "The booking's id")),
    responses(
        (status = 200, description = "What cancelling now would refund and keep, under which terms", body = CancellationAnswer),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No booking of the caller's with that id", body = ErrorEnvelope),
        (status = 422, description = "Not a confirmed booking, or training has started", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn show_cancellation(State(state): State<Arc<AppState>>, student: Student, Path(id): Path<String>) -> Result<Response, ApiError> {
    let order = student.booking(&state, &id).await?;
    let quote = order
        .cancellation(london::today(Utc::now()), CancellationRefund::Terms)
        .map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    Ok(private(StatusCode::OK, CancellationAnswer::from(quote)))
}

/// `POST /api/account/enrollments/{id}/cancel`: cancels one of the
/// caller's bookings under the terms; its seats go back on sale.
#[utoipa::path(
    post,
    path = "/api/account/enrollments/{id}/cancel",
    tag = "account",
    params(("id" = String, Path, description = "The booking's id")),
    responses(
        (status = 200, description = "Cancelled: what is refunded and kept", body = CancellationAnswer),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No booking of the caller's with that id", body = ErrorEnvelope),
        (status = 422, description = "Not a confirmed booking (cancelled already, say), or training has started", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn cancel_booking(State(state): State<Arc<AppState>>, student: Student, Path(id): Path<String>) -> Result<Response, ApiError> {
    let order = student.booking(&state, &id).await?;
    let college = state.db.college().await?;
    match state.db.cancel_enrollment(&order.id, CancellationRefund::Terms, &Actor::Student, &college.name, Utc::now()).await? {
        Cancellation::Cancelled { quote, refunds } => {
            tracing::info!(order = %order.id, refund = quote.refund.pence(), refunds = refunds.len(), "Booking cancelled");
            settle_booking_change(&state, !refunds.is_empty()).await;
            Ok(private(StatusCode::OK, CancellationAnswer::from(quote)))
        }
        Cancellation::Refused(refused) => Err(ApiError::Unprocessable(refused.to_string())),
        Cancellation::UnknownOrder => Err(ApiError::NotFound),
    }
}

/// After a booking was cancelled or moved, by the student or by staff: the
/// refunds it decided (if `refunded`) are made at once, and the seats it
/// freed are offered to the waiting lists.
pub(super) async fn settle_booking_change(state: &AppState, refunded: bool) {
    if refunded {
        refunds::give_back_now(state).await;
    }
    crate::http::waiting_list::offer_freed_seats(state).await;
}
