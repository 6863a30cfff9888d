//! `POST /api/e-learning/create-checkout` (docs/product.md#online-checkout): the online basket becomes an
//! order priced by the server and a hosted checkout at the payment gateway.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_db::NewOnlineOrder;
use enrol_domain::consent::{Agreed, check_agreed};
use enrol_domain::online_order::{LineItem, price_online_order};
use enrol_domain::page::PriceData;
use enrol_payments::{CheckoutLine, CheckoutRequest, GatewayError};

use crate::AppState;
use crate::buyer::{Viewer, buyer};
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

/// The online basket: course prices by id, and the add-ons taken.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateCheckout {
    price_ids: Vec<String>,
    #[serde(default)]
    additional: Vec<PriceData>,
    /// The terms, and the request to start at once (digital content).
    agreed: Agreed,
}

#[derive(Serialize, ToSchema)]
pub struct CheckoutCreated {
    /// The payment gateway's hosted checkout page.
    url: String,
}

/// Where the buyer lands after paying, and after giving up.
pub fn order_path(order_id: &str) -> String {
    format!("/e-learning/order/{order_id}/")
}

pub const CANCEL_PATH: &str = "/courses/elearning/?checkout=cancelled";

#[utoipa::path(
    post,
    path = "/api/e-learning/create-checkout",
    tag = "e-learning",
    request_body(content = CreateCheckout, example = json!({ "priceIds": ["price_brow_lamination_online"], "additional": [],
        "agreed": { "version": "2026-11-26", "terms": true, "digitalContent": true } })),
    responses(
        (status = 200, description = "The order is made: pay on the hosted checkout page", body = CheckoutCreated,
            headers(("set-cookie" = String, description = "The browser's `enrol_buyer` cookie, when it has none yet"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "Terms not agreed (`invalid`), a price or add-on the college does not sell, or refused by the payment provider", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip(state, request))]
pub async fn create_checkout(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<CreateCheckout>,
) -> Result<Response, ApiError> {
    let consents = check_agreed(&request.agreed, true, &[]).map_err(ApiError::Invalid)?;
    let offers = state.db.online_offers().await?;
    let order = price_online_order(&offers, &request.price_ids, &request.additional).map_err(|error| {
        tracing::warn!(%error, price_ids = ?request.price_ids, additional = ?request.additional, "Online checkout refused");
        ApiError::Unprocessable(error.to_string())
    })?;
    let order_id = enrol_db::public_id();
    let gateway = &state.payments;
    // The order page is for the browser that bought, or the buyer's account.
    let (owner, set_cookie) = buyer(&state, &headers);
    let user_id = Viewer::of(&state, &headers).await?.user_id;
    let new = NewOnlineOrder {
        id: &order_id,
        order: &order,
        gateway: gateway.kind().as_str(),
        owner_token_hash: &owner,
        user_id: user_id.as_deref(),
        consents: &consents,
    };
    state.db.create_online_order(&new, Utc::now()).await?;

    let lines = order
        .lines
        .iter()
        .map(|line| match &line.item {
            LineItem::Course { price_id, .. } => {
                CheckoutLine::Price { price_id: price_id.clone(), name: line.title.clone(), unit_amount: line.amount }
            }
            LineItem::Upsell { product, .. } => {
                CheckoutLine::Inline { product: product.clone(), name: line.title.clone(), unit_amount: line.amount }
            }
        })
        .collect();
    let public_url = &state.config.public_url;
    let checkout = CheckoutRequest {
        idempotency_key: order_id.clone(),
        client_reference_id: order_id.clone(),
        lines,
        success_url: format!("{public_url}{}", order_path(&order_id)),
        cancel_url: format!("{public_url}{CANCEL_PATH}"),
        metadata: BTreeMap::from([("order_id".to_owned(), order_id.clone())]),
    };
    let session = gateway.create_checkout_session(&checkout).await.map_err(|error| match error {
        GatewayError::Refused(message) => ApiError::Unprocessable(message),
        GatewayError::Unavailable(_) => ApiError::Internal(anyhow::Error::new(error).context("Failed to create the checkout session")),
    })?;
    state.db.set_online_order_checkout(&order_id, &session.id).await?;
    tracing::info!(%order_id, total = order.total.pence(), session = %session.id, "Online checkout created");
    let mut response = Json(CheckoutCreated { url: session.url }).into_response();
    if let Some(cookie) = set_cookie {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    Ok(response)
}
