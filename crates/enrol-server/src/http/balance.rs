//! Paying a booking's balance (decision 015): the signed-in
//! owner asks for a payment link from the account; a reminder mail carries
//! one; either opens `/pay-balance/?token=…`, which prepares a payment
//! intent for the amount the student chooses. The payment is recorded only
//! by the provider's webhook (`webhooks::balance_paid`), as at checkout.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_domain::balance::{BALANCE_METADATA_TYPE, check_balance_amount};
use enrol_domain::checkout::{IntentResponse, ORDER_ID_KEY};
use enrol_domain::enrollment::payment_methods;
use enrol_domain::money::Money;

use crate::AppState;
use crate::accounts::{new_balance_link, token_hash};
use crate::http::ApiError;
use crate::http::enrol_checkout::gateway_error;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::{Student, private};

#[derive(Serialize, ToSchema)]
pub struct BalanceLinkResponse {
    /// `/pay-balance/?token=…` on this site.
    url: String,
}

/// `POST /api/account/enrollments/{id}/balance-link`: a link that pays the
/// balance of one of the caller's bookings.
#[utoipa::path(
    post,
    path = "/api/account/enrollments/{id}/balance-link",
    tag = "account",
    params(("id" = String, Path, description = "The booking's id")),
    responses(
        (status = 200, description = "The link", body = BalanceLinkResponse),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No booking of the caller's with that id", body = ErrorEnvelope),
        (status = 422, description = "Nothing left to pay, or the booking fee not paid", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create_balance_link(
    State(state): State<Arc<AppState>>,
    student: Student,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let order = student.booking(&state, &id).await?;
    let owed = order.owed();
    check_balance_amount(order.status, owed, owed).map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    let now = Utc::now();
    let link = new_balance_link(&state, now);
    state.db.create_balance_link(&order.id, &link, now).await?;
    let path = link.url.strip_prefix(state.config.public_url.as_str()).unwrap_or(&link.url).to_owned();
    Ok(private(StatusCode::OK, BalanceLinkResponse { url: path }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BalanceIntentRequest {
    /// The token of the `/pay-balance/` link.
    token: String,
    /// What to pay now, in pence: the whole balance or part of it.
    #[schema(value_type = i64)]
    amount: Money,
}

#[derive(Serialize, ToSchema)]
pub struct BalanceIntentResponse {
    #[serde(flatten)]
    intent: IntentResponse,
    /// The methods offered for this amount: Klarna and Clearpay only for the whole balance.
    payment_methods: Vec<String>,
}

/// `POST /api/balance/intent`: a payment intent for `amount` of the
/// balance of the booking a link pays.
#[utoipa::path(
    post,
    path = "/api/balance/intent",
    tag = "checkout",
    request_body(content = BalanceIntentRequest, example = json!({ "token": "0f3a…", "amount": 50000 })),
    responses(
        (status = 200, description = "The payment intent", body = BalanceIntentResponse),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 404, description = "The link is unknown or has run out", body = ErrorEnvelope),
        (status = 422, description = "An amount below the least part-payment or above the balance, nothing left to pay, \
            or refused by the payment provider", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create_balance_intent(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<BalanceIntentRequest>,
) -> Result<Response, ApiError> {
    let now = Utc::now();
    let order = state.db.balance_link_enrollment(&token_hash(&request.token), now).await?.ok_or(ApiError::NotFound)?;
    let mode =
        check_balance_amount(order.status, order.owed(), request.amount).map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    let methods: Vec<String> = payment_methods(mode, request.amount).into_iter().map(|m| m.as_str().to_owned()).collect();
    let metadata = BTreeMap::from([
        (ORDER_ID_KEY.to_owned(), order.id.clone()),
        ("name".to_owned(), order.given_name.clone()),
        ("surname".to_owned(), order.family_name.clone()),
        ("email".to_owned(), order.email.clone()),
        ("phone".to_owned(), order.contact_number.clone()),
        ("type".to_owned(), BALANCE_METADATA_TYPE.to_owned()),
    ]);
    let intent = state
        .payments
        .create_payment_intent(&enrol_payments::IntentRequest {
            idempotency_key: uuid::Uuid::new_v4().to_string(),
            amount: request.amount,
            customer: None,
            receipt_email: Some(order.email.clone()).filter(|e| !e.is_empty()),
            payment_method_types: methods.clone(),
            metadata,
        })
        .await
        .map_err(gateway_error)?;
    state.db.record_balance_intent(&intent.id, &order.id, request.amount, now).await?;
    tracing::info!(order = %order.id, intent = %intent.id, amount = request.amount.pence(), "Balance payment prepared");
    Ok(private(
        StatusCode::OK,
        BalanceIntentResponse { intent: IntentResponse { client_secret: intent.client_secret, id: intent.id }, payment_methods: methods },
    ))
}
