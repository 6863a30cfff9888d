//! What staff do to an order (decision 017): refund, move,
//! cancel, record money taken by hand, move the balance's due day, send a
//! mail again. Each is one transaction with its audit row, through the
//! same `Db` function as the student's own action where there is one, and
//! answers the order as `GET /api/admin/orders/{id}` does.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use chrono::{NaiveDate, Utc};
use serde::Deserialize;
use ts_rs::TS;

use enrol_db::{Actor, BalanceDueChange, BalanceFulfilment, BalancePaid, BookingRefund, Cancellation, OfflinePayment, RefundRecorded};
use enrol_domain::back_office::OfflineMethod;
use enrol_domain::cancellation::{CancellationRefund, CancellationRefused};
use enrol_domain::money::Money;

use super::Staff;
use super::orders::order_answer;
use crate::accounts::new_balance_link;
use crate::http::ApiError;
use crate::http::cancellation::settle_booking_change;
use crate::http::date_change::moved_or_refused;
use crate::http::json_body::JsonBody;
use crate::print::receipt::{issuer, new_document_link};
use crate::{AppState, refunds};

/// The longest reason or reference kept.
const NOTE_CHARS: usize = 200;

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct RefundRequest {
    #[ts(type = "number")]
    amount: Money,
    reason: String,
}

/// `POST /api/admin/orders/{id}/refund`: gives back any amount up to what
/// was paid and not yet refunded; the booking stays as it is.
pub async fn refund_order(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<RefundRequest>,
) -> Result<Response, ApiError> {
    let reason = request.reason.trim();
    if reason.is_empty() || reason.chars().count() > NOTE_CHARS {
        return Err(ApiError::field("reason", "Say why (up to 200 characters): the credit note shows it."));
    }
    match state.db.refund_booking(&id, request.amount, reason, &staff.id, Utc::now()).await? {
        BookingRefund::Refunded { refunds } => {
            tracing::info!(order = %id, staff = %staff.id, amount = request.amount.pence(), refunds = refunds.len(), "Order refunded");
            refunds::give_back_now(&state).await;
        }
        BookingRefund::Refused(refused) => return Err(ApiError::Unprocessable(refused.to_string())),
        BookingRefund::UnknownOrder => return Err(ApiError::NotFound),
    }
    order_answer(&state, &id).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MoveRequest {
    from_session_id: String,
    to_session_id: String,
}

/// `POST /api/admin/orders/{id}/move`: moves the course booked on one
/// session to another session of it with a free seat (409 when full),
/// whenever; the price difference as for a student's move.
pub async fn move_order(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    let order = state.db.enrollment(&id).await?.ok_or(ApiError::NotFound)?;
    let course =
        order.courses.iter().find(|c| c.session_id.as_deref() == Some(request.from_session_id.as_str())).ok_or(ApiError::NotFound)?;
    let college = state.db.college().await?;
    let actor = Actor::Staff(staff.id.clone());
    let now = Utc::now();
    let pay_link = new_balance_link(&state, now);
    let moved = state.db.move_booking(&id, &course.course_id, &request.to_session_id, &actor, &college, &pay_link, now).await?;
    moved_or_refused(&state, &id, &request.to_session_id, moved).await?;
    order_answer(&state, &id).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct CancelRequest {
    refund: CancellationRefund,
}

/// `POST /api/admin/orders/{id}/cancel`: cancels the booking, giving back
/// what the terms give the student, everything or nothing.
pub async fn cancel_order(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<CancelRequest>,
) -> Result<Response, ApiError> {
    let college = state.db.college().await?;
    let actor = Actor::Staff(staff.id.clone());
    match state.db.cancel_enrollment(&id, request.refund, &actor, &college.name, Utc::now()).await? {
        Cancellation::Cancelled { quote, refunds } => {
            tracing::info!(order = %id, staff = %staff.id, refund = quote.refund.pence(), "Order cancelled");
            settle_booking_change(&state, !refunds.is_empty()).await;
        }
        Cancellation::Refused(CancellationRefused::TrainingStarted) => {
            return Err(ApiError::Unprocessable(
                "Training has started, so the terms no longer apply: choose a full refund or none.".to_owned(),
            ));
        }
        Cancellation::Refused(refused) => return Err(ApiError::Unprocessable(refused.to_string())),
        Cancellation::UnknownOrder => return Err(ApiError::NotFound),
    }
    order_answer(&state, &id).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct PaymentRequest {
    #[ts(type = "number")]
    amount: Money,
    method: OfflineMethod,
    reference: String,
}

/// `POST /api/admin/orders/{id}/payments`: records money the college took
/// towards the balance by hand, as a balance payment: its receipt is
/// issued and mailed, and the booking is completed once paid in full.
pub async fn record_payment(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<PaymentRequest>,
) -> Result<Response, ApiError> {
    let reference = request.reference.trim();
    if reference.chars().count() > NOTE_CHARS {
        return Err(ApiError::field("reference", "Up to 200 characters."));
    }
    let now = Utc::now();
    let payment = OfflinePayment {
        order_id: id.clone(),
        amount: request.amount,
        method: request.method,
        reference: reference.to_owned(),
        staff_id: staff.id.clone(),
    };
    let issuer = issuer(&state.db, &state.config).await?;
    let link = new_balance_link(&state, now);
    match state.db.pay_balance(BalancePaid::Offline(&payment), &link, &issuer, &new_document_link(&state.config), now).await? {
        BalanceFulfilment::Paid { status, .. } => {
            tracing::info!(order = %id, staff = %staff.id, amount = request.amount.pence(), status = status.as_str(), "Payment recorded");
        }
        BalanceFulfilment::Refused(refused) => return Err(ApiError::Unprocessable(refused.to_string())),
        BalanceFulfilment::UnknownOrder => return Err(ApiError::NotFound),
        outcome @ (BalanceFulfilment::NotOwed { .. } | BalanceFulfilment::AlreadyHandled) => {
            return Err(ApiError::Internal(anyhow::anyhow!("A payment checked against the balance was not counted: {outcome:?}")));
        }
    }
    order_answer(&state, &id).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeadlineRequest {
    balance_due_on: NaiveDate,
}

/// `POST /api/admin/orders/{id}/deadline`: the balance is due on another
/// day, from today up to the first day of training; reminders the new day
/// makes untrue go again on its schedule.
pub async fn change_deadline(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<DeadlineRequest>,
) -> Result<Response, ApiError> {
    match state.db.change_balance_due(&id, request.balance_due_on, &staff.id, Utc::now()).await? {
        BalanceDueChange::Changed { forgotten } => {
            tracing::info!(order = %id, staff = %staff.id, due_on = %request.balance_due_on, ?forgotten, "Balance due day changed");
        }
        BalanceDueChange::Refused(refused) => return Err(ApiError::Unprocessable(refused.to_string())),
        BalanceDueChange::UnknownOrder => return Err(ApiError::NotFound),
    }
    order_answer(&state, &id).await
}

/// `POST /api/admin/orders/{id}/mails/{mailId}/resend`: queues a copy of a
/// mail that went to the order's address.
pub async fn resend_mail(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, mail_id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    if !state.db.resend_order_mail(&id, &mail_id, &staff.id, Utc::now()).await? {
        return Err(ApiError::NotFound);
    }
    order_answer(&state, &id).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct RefundMade {
    reference: String,
}

/// `POST /api/admin/orders/{id}/refunds/{refundId}/made`: money taken by
/// hand, which the payment provider cannot give back, was given back by a
/// person (a bank transfer, say): the refund is recorded as made, with its
/// credit note and mail, as the provider's refunds are.
pub async fn mark_refund_made(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, refund_id)): Path<(String, String)>,
    JsonBody(request): JsonBody<RefundMade>,
) -> Result<Response, ApiError> {
    let reference = request.reference.trim();
    if reference.is_empty() || reference.chars().count() > NOTE_CHARS {
        return Err(ApiError::field("reference", "Say how it was paid back (up to 200 characters)."));
    }
    if !state.db.hand_refund_pending(&id, &refund_id).await? {
        return Err(ApiError::NotFound);
    }
    let entry = enrol_db::AuditEntry::new(&staff.id, "order.refund_made", "order", &id)
        .before(serde_json::json!({ "refund": refund_id, "status": "pending" }))
        .after(serde_json::json!({ "refund": refund_id, "status": "succeeded", "reference": reference }));
    let issuer = issuer(&state.db, &state.config).await?;
    let made_as = format!("by-hand: {reference}");
    let link = new_document_link(&state.config);
    match state.db.complete_refund(&refund_id, &made_as, Some(&entry), &issuer, &link, Utc::now()).await? {
        RefundRecorded::Made(_) => order_answer(&state, &id).await,
        // Recorded by another request since the check above.
        RefundRecorded::Before => Err(ApiError::NotFound),
    }
}
