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

use enrol_db::{CheckoutCompletion, Fulfilment};
use enrol_payments::event::{CheckoutSessionObject, EventKind, parse_event};
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
        EventKind::Other(kind) => {
            tracing::debug!(event = %event.id, %kind, "Event ignored");
            Ok(())
        }
        other => {
            tracing::info!(event = %event.id, kind = ?std::mem::discriminant(&other), "Event not handled yet");
            Ok(())
        }
    }
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
