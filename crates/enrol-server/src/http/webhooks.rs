//! `POST /webhooks/payments`: the payment provider's events. Stripe's and
//! the sandbox's arrive here alike, signed with the `Stripe-Signature`
//! scheme; fulfilment happens only here, once per event.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::Utc;
use serde_json::json;

use enrol_db::{CheckoutCompletion, EnrolmentFulfilment, Fulfilment, IntentOutcome};
use enrol_payments::event::{CheckoutSessionObject, EventKind, PaymentIntentObject, parse_event};
use enrol_payments::signature;

use crate::AppState;

pub const SIGNATURE_HEADER: &str = "stripe-signature";

/// Why an event was not accepted; the provider will retry server errors.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    #[error("The event's signature is not valid: {0}")]
    Signature(String),
    #[error("The event could not be read: {0}")]
    Malformed(String),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl IntoResponse for WebhookError {
    fn into_response(self) -> Response {
        let status = match &self {
            WebhookError::Signature(_) | WebhookError::Malformed(_) => StatusCode::BAD_REQUEST,
            WebhookError::Internal(error) => {
                tracing::error!(error = %format!("{error:#}"), "Webhook failed");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let message = match &self {
            WebhookError::Internal(_) => "Internal error".to_owned(),
            other => other.to_string(),
        };
        (status, Json(json!({ "error": { "message": message } }))).into_response()
    }
}

#[tracing::instrument(skip_all)]
pub async fn receive_event(State(state): State<Arc<AppState>>, headers: HeaderMap, body: Bytes) -> Result<Json<serde_json::Value>, WebhookError> {
    let signature = headers.get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or_default();
    handle(&state, signature, &body).await?;
    Ok(Json(json!({ "received": true })))
}

/// Verifies, parses and acts on one event.
pub async fn handle(state: &AppState, signature_header: &str, body: &[u8]) -> Result<(), WebhookError> {
    signature::verify(signature_header, body, state.payments.webhook_secret(), Utc::now().timestamp())
        .map_err(|e| WebhookError::Signature(e.to_string()))?;
    let event = parse_event(body).map_err(|e| WebhookError::Malformed(e.to_string()))?;
    match event.kind {
        EventKind::CheckoutSessionCompleted(session) => checkout_completed(state, event.id, session).await,
        EventKind::PaymentIntentSucceeded(intent) => intent_succeeded(state, event.id, intent).await,
        EventKind::PaymentIntentFailed(intent) => intent_failed(state, event.id, intent).await,
        EventKind::Other(kind) => {
            tracing::debug!(event = %event.id, %kind, "Event ignored");
            Ok(())
        }
    }
}

/// The enrollment an intent pays, from the metadata `PUT /api/checkout/` set.
fn order_of(intent: &PaymentIntentObject) -> Option<&String> {
    intent.metadata.get("Order ID")
}

async fn intent_succeeded(state: &AppState, event_id: String, intent: PaymentIntentObject) -> Result<(), WebhookError> {
    let Some(order_id) = order_of(&intent).cloned() else {
        tracing::warn!(%event_id, intent = %intent.id, "A payment without an order: check it by hand");
        return Ok(());
    };
    let site = state.db.site().await?.map(|r| r.site);
    let (college, address) = site.map_or_else(|| ("Enrol".to_owned(), String::new()), |s| (s.title, s.email_address));
    let paid = IntentOutcome {
        event_id,
        event_type: "payment_intent.succeeded".to_owned(),
        order_id,
        intent_id: intent.id.clone(),
        amount: intent.amount_received,
        currency: intent.currency.clone(),
        method: intent.payment_method_type.clone().unwrap_or_else(|| state.payments.name().to_owned()),
    };
    match state.db.fulfil_enrollment(&paid, &college, &address, Utc::now()).await? {
        EnrolmentFulfilment::Fulfilled(status) => {
            tracing::info!(order = %paid.order_id, amount = paid.amount.pence(), status = status.as_str(), "Enrollment paid");
        }
        EnrolmentFulfilment::PaidWithoutSeat => tracing::error!(order = %paid.order_id, "Enrollment paid after its seat was taken: the college must call"),
        EnrolmentFulfilment::AlreadyHandled => tracing::info!(event = %paid.event_id, "Event already handled"),
        EnrolmentFulfilment::UnknownOrder => tracing::error!(order = %paid.order_id, intent = %paid.intent_id, "Payment for an unknown enrollment: check it by hand"),
        EnrolmentFulfilment::Underpaid => tracing::error!(order = %paid.order_id, paid = paid.amount.pence(), "Enrollment underpaid: check it by hand"),
    }
    Ok(())
}

async fn intent_failed(state: &AppState, event_id: String, intent: PaymentIntentObject) -> Result<(), WebhookError> {
    let Some(order_id) = order_of(&intent) else { return Ok(()) };
    let failed = state.db.fail_enrollment(&event_id, "payment_intent.payment_failed", order_id, Utc::now()).await?;
    tracing::info!(
        order = %order_id, failed, reason = intent.last_payment_error_message.as_deref().unwrap_or("-"),
        "Enrollment payment failed"
    );
    Ok(())
}

async fn checkout_completed(state: &AppState, event_id: String, session: CheckoutSessionObject) -> Result<(), WebhookError> {
    if session.payment_status != "paid" {
        tracing::info!(%event_id, session = %session.id, status = %session.payment_status, "Checkout completed without payment yet");
        return Ok(());
    }
    let order_id = session
        .client_reference_id
        .clone()
        .or_else(|| session.metadata.get("order_id").cloned())
        .ok_or_else(|| WebhookError::Malformed("the checkout session names no order".to_owned()))?;
    let email = session
        .customer_email
        .clone()
        .ok_or_else(|| WebhookError::Malformed("the checkout session has no customer email".to_owned()))?;
    let college = state.db.site().await?.map_or_else(|| "Enrol".to_owned(), |r| r.site.title);
    let completion = CheckoutCompletion {
        event_type: "checkout.session.completed".to_owned(),
        transaction_id: session.payment_intent.clone().unwrap_or_else(|| session.id.clone()),
        amount: session.amount_total,
        currency: session.currency.clone(),
        email,
        name: session.customer_name.clone(),
        method: state.payments.name().to_owned(),
        order_id,
        event_id,
    };
    let outcome = state.db.fulfil_online_order(&completion, &college, Utc::now()).await?;
    match outcome {
        Fulfilment::Fulfilled => tracing::info!(order = %completion.order_id, amount = completion.amount.pence(), "Online order paid"),
        Fulfilment::AlreadyHandled => tracing::info!(event = %completion.event_id, "Event already handled"),
        Fulfilment::UnknownOrder => tracing::error!(order = %completion.order_id, event = %completion.event_id, "Payment for an unknown order: check it by hand"),
        Fulfilment::Underpaid => tracing::error!(order = %completion.order_id, paid = completion.amount.pence(), "Order underpaid: check it by hand"),
    }
    Ok(())
}
