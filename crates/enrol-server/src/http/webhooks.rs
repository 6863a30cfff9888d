//! `POST /webhooks/payments`: the payment provider's events. Stripe's and
//! the sandbox's arrive here alike, signed with the `Stripe-Signature`
//! scheme; fulfilment happens only here, once per event.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde_json::json;

use enrol_db::{BalanceFulfilment, BalancePaid, CheckoutCompletion, EnrollmentFulfilment, Fulfilment, IntentOutcome};
use enrol_domain::balance::BALANCE_METADATA_TYPE;
use enrol_domain::checkout::ORDER_ID_KEY;
use enrol_domain::instalments::{INSTALMENT_METADATA_TYPE, PLAN_CARD_METADATA_TYPE};
use enrol_payments::event::{ChargeObject, CheckoutSessionObject, EventKind, PaymentIntentObject, SetupIntentObject, parse_event};
use enrol_payments::signature;

use crate::accounts::new_balance_link;
use crate::accounts::start_link;
use crate::print::receipt::{issuer, new_document_link};
use crate::{AppState, plans, refunds};

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
pub async fn receive_event(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<serde_json::Value>, WebhookError> {
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
        EventKind::CheckoutSessionCompleted(session) => checkout_completed(state, event.id, "checkout.session.completed", session).await,
        EventKind::CheckoutSessionAsyncSucceeded(session) => {
            checkout_completed(state, event.id, "checkout.session.async_payment_succeeded", session).await
        }
        EventKind::CheckoutSessionAsyncFailed(session) => checkout_failed(state, event.id, session).await,
        EventKind::PaymentIntentSucceeded(intent) => intent_succeeded(state, event.id, intent).await,
        EventKind::PaymentIntentFailed(intent) => intent_failed(state, event.id, intent).await,
        EventKind::SetupIntentSucceeded(setup) => setup_succeeded(state, &event.id, setup).await,
        EventKind::ChargeRefunded(charge) => charge_refunded(state, event.id, charge).await,
        EventKind::Other(kind) => {
            tracing::debug!(event = %event.id, %kind, "Event ignored");
            Ok(())
        }
    }
}

/// A card saved on the balance page for a plan: the plan pays from it, as
/// when the browser confirms it (`POST /api/balance/card/confirm`), so a
/// student who closes the page before that still has the plan they agreed.
async fn setup_succeeded(state: &AppState, event_id: &str, setup: SetupIntentObject) -> Result<(), WebhookError> {
    let order = setup.metadata.get(ORDER_ID_KEY);
    let for_plan = setup.metadata.get("type").map(String::as_str) == Some(PLAN_CARD_METADATA_TYPE);
    let (Some(order_id), Some(payment_method), true) = (order, &setup.payment_method_id, for_plan && setup.status == "succeeded") else {
        tracing::debug!(event = %event_id, setup = %setup.id, "A setup intent not for a plan's card: ignored");
        return Ok(());
    };
    if plans::use_saved_card(state, order_id, payment_method).await?.is_none() {
        tracing::warn!(event = %event_id, setup = %setup.id, order = %order_id, "A plan's card was saved for a booking with no plan to pay");
    }
    Ok(())
}

/// The enrollment an intent pays, from the metadata `PUT /api/checkout/` set.
fn order_of(intent: &PaymentIntentObject) -> Option<&String> {
    intent.metadata.get(ORDER_ID_KEY)
}

async fn intent_succeeded(state: &AppState, event_id: String, intent: PaymentIntentObject) -> Result<(), WebhookError> {
    let Some(order_id) = order_of(&intent).cloned() else {
        tracing::warn!(%event_id, intent = %intent.id, "A payment without an order: check it by hand");
        return Ok(());
    };
    let paid = IntentOutcome {
        event_id,
        event_type: "payment_intent.succeeded".to_owned(),
        order_id,
        intent_id: intent.id.clone(),
        amount: intent.amount_received,
        currency: intent.currency.clone(),
        method: intent.payment_method_type.clone().unwrap_or_else(|| state.payments.kind().as_str().to_owned()),
    };
    match intent.metadata.get("type").map(String::as_str) {
        Some(BALANCE_METADATA_TYPE | INSTALMENT_METADATA_TYPE) => {
            balance_paid(state, &paid).await?;
        }
        _ => {
            fulfil_paid_intent(state, &paid).await?;
            // A booking fee that saved its card starts the plan agreed with it; once, however often the event comes.
            if let Some(payment_method) = &intent.payment_method_id {
                plans::start(state, &paid.order_id, payment_method).await?;
            }
        }
    }
    Ok(())
}

/// Records a paid balance intent (from its event or from reconciliation),
/// logs what happened and gives back any overpayment at once.
pub async fn balance_paid(state: &AppState, paid: &IntentOutcome) -> anyhow::Result<BalanceFulfilment> {
    let issuer = issuer(&state.db, &state.config).await?;
    let now = Utc::now();
    let outcome = state
        .db
        .pay_balance(BalancePaid::Provider(paid), &new_balance_link(state, now), &issuer, &new_document_link(&state.config), now)
        .await?;
    match &outcome {
        BalanceFulfilment::Paid { status, refund } => {
            tracing::info!(order = %paid.order_id, amount = paid.amount.pence(), status = status.as_str(), "Balance paid");
            if refund.is_some() {
                tracing::error!(order = %paid.order_id, intent = %paid.intent_id, "Balance paid beyond what was owed: the excess is refunded");
            }
        }
        BalanceFulfilment::NotOwed { .. } => {
            tracing::error!(order = %paid.order_id, intent = %paid.intent_id, "Balance paid when nothing was owed: refunded")
        }
        BalanceFulfilment::AlreadyHandled => tracing::info!(event = %paid.event_id, "Event already handled"),
        BalanceFulfilment::UnknownOrder => {
            tracing::error!(order = %paid.order_id, intent = %paid.intent_id, "Balance payment for an unknown enrollment: check it by hand")
        }
        BalanceFulfilment::Refused(refused) => {
            tracing::error!(order = %paid.order_id, intent = %paid.intent_id, %refused, "A provider's balance payment was refused: check it by hand")
        }
    }
    if matches!(outcome, BalanceFulfilment::NotOwed { .. } | BalanceFulfilment::Paid { refund: Some(_), .. }) {
        refunds::give_back_now(state).await;
    }
    Ok(outcome)
}

/// Fulfils a paid intent (from its event or from reconciliation), logs
/// what happened and gives back any overpayment at once.
pub async fn fulfil_paid_intent(state: &AppState, paid: &IntentOutcome) -> anyhow::Result<EnrollmentFulfilment> {
    let issuer = issuer(&state.db, &state.config).await?;
    let now = Utc::now();
    let pay_link = new_balance_link(state, now);
    let outcome = state.db.fulfil_enrollment(paid, &issuer, &new_document_link(&state.config), &pay_link, now).await?;
    match &outcome {
        EnrollmentFulfilment::Fulfilled { status, refund } => {
            tracing::info!(order = %paid.order_id, amount = paid.amount.pence(), status = status.as_str(), "Enrollment paid");
            if refund.is_some() {
                tracing::error!(order = %paid.order_id, intent = %paid.intent_id, "Enrollment paid more than was due: the excess is refunded");
            }
        }
        EnrollmentFulfilment::Overpaid { .. } => {
            tracing::error!(order = %paid.order_id, intent = %paid.intent_id, amount = paid.amount.pence(), "Enrollment paid twice: the second payment is refunded");
        }
        EnrollmentFulfilment::PaidWithoutSeat => {
            tracing::error!(order = %paid.order_id, "Enrollment paid after its seat was taken: the college must call")
        }
        EnrollmentFulfilment::AlreadyHandled => tracing::info!(event = %paid.event_id, "Event already handled"),
        EnrollmentFulfilment::UnknownOrder => {
            tracing::error!(order = %paid.order_id, intent = %paid.intent_id, "Payment for an unknown enrollment: check it by hand")
        }
        EnrollmentFulfilment::Underpaid => {
            tracing::error!(order = %paid.order_id, paid = paid.amount.pence(), "Enrollment underpaid: check it by hand")
        }
    }
    if matches!(outcome, EnrollmentFulfilment::Overpaid { .. } | EnrollmentFulfilment::Fulfilled { refund: Some(_), .. }) {
        refunds::give_back_now(state).await;
    }
    Ok(outcome)
}

async fn intent_failed(state: &AppState, event_id: String, intent: PaymentIntentObject) -> Result<(), WebhookError> {
    let Some(order_id) = order_of(&intent) else { return Ok(()) };
    if intent.metadata.get("type").map(String::as_str) == Some(INSTALMENT_METADATA_TYPE) {
        let message = intent.last_payment_error_message.as_deref().unwrap_or("The payment failed.");
        plans::charge_failed(state, &intent.id, message).await?;
        return Ok(());
    }
    let failed = state.db.fail_enrollment(&event_id, "payment_intent.payment_failed", order_id, Utc::now()).await?;
    tracing::info!(
        order = %order_id, failed, reason = intent.last_payment_error_message.as_deref().unwrap_or("-"),
        "Enrollment payment failed"
    );
    Ok(())
}

/// Money given back at the provider. Refunds of ours still waiting are made
/// now (each with its own idempotency key, so a replayed event never gives
/// twice); anything refunded beyond what Enrol recorded was done by a person
/// at the provider, and is left in the log for staff. An online order's
/// payment given back there in full ends the courses it gave.
async fn charge_refunded(state: &AppState, event_id: String, charge: ChargeObject) -> Result<(), WebhookError> {
    let Some(intent) = charge.payment_intent else { return Ok(()) };
    refunds::make_due_refunds(state).await?;
    let recorded = state.db.refunded_of(&intent).await?;
    if charge.amount_refunded > recorded {
        tracing::error!(
            %event_id, %intent, provider = charge.amount_refunded.pence(), recorded = recorded.pence(),
            "Money was refunded at the payment provider beyond what Enrol recorded: check it by hand"
        );
        let ended = state.db.end_access_refunded_at_provider(&intent, charge.amount_refunded, Utc::now()).await?;
        if !ended.is_empty() {
            tracing::warn!(%event_id, %intent, courses = ?ended, "Online courses paid for by a payment refunded at the provider have ended");
        }
    }
    Ok(())
}

/// The order a checkout session pays.
fn order_of_checkout(session: &CheckoutSessionObject) -> Result<String, WebhookError> {
    session
        .client_reference_id
        .clone()
        .or_else(|| session.metadata.get("order_id").cloned())
        .ok_or_else(|| WebhookError::Malformed("the checkout session names no order".to_owned()))
}

async fn checkout_completed(
    state: &AppState,
    event_id: String,
    event_type: &str,
    session: CheckoutSessionObject,
) -> Result<(), WebhookError> {
    let order_id = order_of_checkout(&session)?;
    if session.payment_status != "paid" {
        // A delayed payment method: the money comes with a later event.
        let moved = state.db.online_order_processing(&event_id, event_type, &order_id, Utc::now()).await?;
        tracing::info!(%event_id, %order_id, session = %session.id, status = %session.payment_status, moved, "Checkout completed; payment on its way");
        return Ok(());
    }
    fulfil_checkout(state, event_id, event_type, order_id, &session).await?;
    Ok(())
}

/// Fulfils a paid checkout session (from its event or reconciliation).
pub async fn fulfil_checkout(
    state: &AppState,
    event_id: String,
    event_type: &str,
    order_id: String,
    session: &CheckoutSessionObject,
) -> Result<Fulfilment, WebhookError> {
    let email =
        session.customer_email.clone().ok_or_else(|| WebhookError::Malformed("the checkout session has no customer email".to_owned()))?;
    let issuer = issuer(&state.db, &state.config).await?;
    let completion = CheckoutCompletion {
        event_type: event_type.to_owned(),
        transaction_id: session.payment_intent.clone().unwrap_or_else(|| session.id.clone()),
        amount: session.amount_total,
        currency: session.currency.clone(),
        email,
        name: session.customer_name.clone(),
        method: state.payments.kind().as_str().to_owned(),
        order_id,
        event_id,
    };
    let now = Utc::now();
    let start_link = start_link(&state.config.public_url, now);
    let outcome = state.db.fulfil_online_order(&completion, &issuer, &new_document_link(&state.config), &start_link, now).await?;
    match outcome {
        Fulfilment::Fulfilled => tracing::info!(order = %completion.order_id, amount = completion.amount.pence(), "Online order paid"),
        Fulfilment::AlreadyHandled => tracing::info!(event = %completion.event_id, "Event already handled"),
        Fulfilment::UnknownOrder => {
            tracing::error!(order = %completion.order_id, event = %completion.event_id, "Payment for an unknown order: check it by hand")
        }
        Fulfilment::Underpaid => {
            tracing::error!(order = %completion.order_id, paid = completion.amount.pence(), "Order underpaid: check it by hand")
        }
    }
    Ok(outcome)
}

async fn checkout_failed(state: &AppState, event_id: String, session: CheckoutSessionObject) -> Result<(), WebhookError> {
    let order_id = order_of_checkout(&session)?;
    let failed = state.db.fail_online_order(&event_id, "checkout.session.async_payment_failed", &order_id, Utc::now()).await?;
    tracing::info!(%order_id, failed, "Online order's delayed payment failed");
    Ok(())
}
