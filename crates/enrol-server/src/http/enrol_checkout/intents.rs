//! The payment intent that pays an order: prepared with the booking fee,
//! then set to what the order asks for once it exists.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use chrono::Utc;

use enrol_db::{AgreedPlan, EnrollmentRecord};
use enrol_domain::checkout::{IntentRequest, IntentResponse, IntentUpdateRequest, ORDER_ID_KEY};
use enrol_domain::enrollment::{BOOKING_FEE, PaymentMethod, PaymentMode, payment_methods};
use enrol_domain::instalments::check_plan;
use enrol_domain::london;
use enrol_domain::page::EnrollmentStatus;
use enrol_payments::{GatewayError, IntentUpdate};

use super::{gateway_error, own_order, payment_account, refused, with_cookie};
use crate::AppState;
use crate::buyer::{Viewer, buyer};
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

/// `POST /api/checkout/`: the booking-fee intent the page prepares on load,
/// bound to the browser that asked for it.
#[utoipa::path(
    post,
    path = "/api/checkout/",
    tag = "checkout",
    request_body(content = IntentRequest, example = json!({ "amount": 10000, "email": "amelia@example.org" })),
    responses(
        (status = 200, description = "The payment intent, bound to this browser", body = IntentResponse,
            headers(("set-cookie" = String, description = "The browser's `enrol_buyer` cookie, when it has none yet"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, body = ErrorEnvelope,
            description = "An amount other than the booking fee, an unknown payment account, or refused by the payment provider"),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create_intent(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<IntentRequest>,
) -> Result<Response, ApiError> {
    if request.amount != BOOKING_FEE {
        return Err(ApiError::Unprocessable(format!("The first payment prepared is always the booking fee of {BOOKING_FEE}.")));
    }
    payment_account(&state, request.customer_id.as_deref()).await?;
    let (owner, set_cookie) = buyer(&state, &headers);
    let intent = state
        .payments
        .create_payment_intent(&enrol_payments::IntentRequest {
            idempotency_key: uuid::Uuid::new_v4().to_string(),
            amount: request.amount,
            customer: request.customer_id.filter(|c| !c.is_empty()),
            receipt_email: request.email.filter(|e| !e.is_empty()),
            payment_method_types: payment_methods(PaymentMode::Full, BOOKING_FEE).into_iter().map(|m| m.as_str().to_owned()).collect(),
            metadata: BTreeMap::new(),
        })
        .await
        .map_err(gateway_error)?;
    state.db.record_checkout_intent(&intent.id, &owner, Utc::now()).await?;
    Ok(with_cookie(Json(IntentResponse { client_secret: intent.client_secret, id: intent.id }), set_cookie))
}

/// `PUT /api/checkout/`: the intent takes the order's amount for its mode.
/// Only the browser that prepared the intent, for an order it made or its
/// owner's, may; an order has one live intent, and a new one replaces an
/// unpaid one only after the provider has cancelled it.
#[utoipa::path(
    put,
    path = "/api/checkout/",
    tag = "checkout",
    request_body = IntentUpdateRequest,
    responses(
        (status = 200, description = "The intent, now for the order's amount", body = IntentResponse),
        (status = 400, description = "Not JSON of this shape, or an unknown `metadata.type`", body = ErrorEnvelope),
        (status = 404, description = "No such intent or order made by this browser or its signed-in owner", body = ErrorEnvelope),
        (status = 409, description = "A payment already under way, or a seat or code use no longer held", body = ErrorEnvelope),
        (status = 422, body = ErrorEnvelope,
            description = "An order already paid or failed, an amount other than the one due, an unknown payment account"),
        (status = 429, description = "Too many requests from this address, or too many unpaid bookings held", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn update_intent(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<IntentUpdateRequest>,
) -> Result<Json<IntentResponse>, ApiError> {
    let viewer = Viewer::of(&state, &headers).await?;
    let intent_owner = state.db.checkout_intent_owner(&request.intent).await?;
    if intent_owner.is_none() || intent_owner != viewer.buyer_hash {
        return Err(ApiError::NotFound);
    }
    let order_id = &request.metadata.order_id;
    let order = own_order(&state, &viewer, Some(order_id)).await?.ok_or(ApiError::NotFound)?;
    match order.status {
        EnrollmentStatus::Pending => {}
        EnrollmentStatus::Deposit | EnrollmentStatus::Completed => {
            return Err(ApiError::Unprocessable("This booking has already been paid.".to_owned()));
        }
        EnrollmentStatus::Failed | EnrollmentStatus::Cancelled => {
            return Err(ApiError::Unprocessable("This booking can no longer be paid. Please try again.".to_owned()));
        }
    }
    let mode = PaymentMode::from_metadata_type(&request.metadata.kind)
        .ok_or_else(|| ApiError::BadRequest("metadata.type must be full-amount or booking-fee".to_owned()))?;
    let due = order.quote.amount_due(order.mode);
    if mode != order.mode || request.amount != due {
        tracing::warn!(%order_id, sent = request.amount.pence(), due = due.pence(), "Intent amount refused");
        return Err(ApiError::Unprocessable(format!(
            "The amount to pay for your booking is {due}. Please check your booking and try again."
        )));
    }
    payment_account(&state, request.customer_id.as_deref()).await?;
    let replacing = order.payment_intent_id.as_deref().filter(|previous| *previous != request.intent);
    if let Some(previous) = replacing {
        state.payments.cancel_payment_intent(previous).await.map_err(|error| match error {
            GatewayError::Refused(_) => {
                ApiError::Conflict("A payment for this booking is already under way. Please wait for it to finish.".to_owned())
            }
            unavailable @ GatewayError::Unavailable(_) => gateway_error(unavailable),
        })?;
        tracing::info!(%order_id, %previous, intent = %request.intent, "An unpaid intent was replaced");
    }
    match state.db.attach_payment_intent(order_id, &request.intent, replacing, Utc::now()).await? {
        None => {
            return Err(ApiError::Conflict("A payment for this booking is already under way. Please wait for it to finish.".to_owned()));
        }
        Some(Err(refusal)) => return Err(refused(&order.courses, &refusal)),
        Some(Ok(())) => {}
    }
    let save_card_for = agree_plan(&state, &order, mode, &request).await?;
    let m = &request.metadata;
    let metadata = BTreeMap::from([
        (ORDER_ID_KEY.to_owned(), m.order_id.clone()),
        ("name".to_owned(), m.name.clone()),
        ("surname".to_owned(), m.surname.clone()),
        ("phone".to_owned(), m.phone.clone()),
        ("email".to_owned(), m.email.clone()),
        ("type".to_owned(), mode.metadata_type().to_owned()),
    ]);
    let update = IntentUpdate {
        amount: due,
        payment_method_types: if save_card_for.is_some() {
            vec![PaymentMethod::Card.as_str().to_owned()]
        } else {
            payment_methods(mode, order.quote.total).into_iter().map(|m| m.as_str().to_owned()).collect()
        },
        metadata,
        save_card_for,
    };
    let intent = state.payments.update_payment_intent(&request.intent, &update).await.map_err(gateway_error)?;
    tracing::info!(%order_id, intent = %intent.id, amount = due.pence(), mode = mode.metadata_type(), "Payment prepared");
    Ok(Json(IntentResponse { client_secret: intent.client_secret, id: intent.id }))
}

/// Keeps the instalment plan the buyer agreed to with order `order`, or
/// forgets one agreed before: the provider customer the fee's card is to
/// be saved to, when there is a plan. The parts the buyer saw must be the
/// ones the college's rules give today (decision 036).
async fn agree_plan(
    state: &AppState,
    order: &EnrollmentRecord,
    mode: PaymentMode,
    request: &IntentUpdateRequest,
) -> Result<Option<String>, ApiError> {
    let now = Utc::now();
    let Some(choice) = &request.plan else {
        state.db.agree_plan(&order.id, None, now).await?;
        return Ok(None);
    };
    if mode != PaymentMode::Fee {
        return Err(ApiError::Unprocessable(
            "A payment plan spreads the balance after the booking fee: pay the booking fee now.".to_owned(),
        ));
    }
    if !choice.card_consent {
        return Err(ApiError::Unprocessable("Agree that your card is saved to pay the instalments on the days shown.".to_owned()));
    }
    let today = london::today(now);
    let due_on = order
        .balance_due_on(today)
        .ok_or_else(|| ApiError::Unprocessable("This booking has no date yet, so it has no payment plan.".to_owned()))?;
    let settings = state.db.plan_settings().await?;
    let count = u32::try_from(choice.parts.len()).unwrap_or(u32::MAX);
    let parts =
        check_plan(&order.quote, count, today, due_on, &settings).map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    if parts != choice.parts {
        tracing::warn!(order = %order.id, "Payment plan refused: the parts shown are not the ones the rules give today");
        return Err(ApiError::Unprocessable(
            "The instalments have changed since the page was loaded. Please check them and try again.".to_owned(),
        ));
    }
    let name = format!("{} {}", order.given_name, order.family_name);
    let customer = match request.customer_id.as_deref().filter(|c| !c.is_empty()) {
        Some(customer) => customer.to_owned(),
        None => state.payments.create_customer(&order.email, &name, &format!("customer-{}", order.id)).await.map_err(gateway_error)?,
    };
    let plan = AgreedPlan { customer: customer.clone(), agreed_on: today, parts };
    if !state.db.agree_plan(&order.id, Some(&plan), now).await? {
        return Err(ApiError::Unprocessable("This booking has already been paid.".to_owned()));
    }
    Ok(Some(customer))
}
