//! A plan's card from the balance page (decision 036): monthly instalments
//! chosen for a booking whose fee is paid, or another card for a running
//! plan, saved by a setup intent (no money taken) through the same link
//! that pays the balance, signed in or from a mail.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_db::{AgreedPlan, EnrollmentRecord};
use enrol_domain::balance::check_owing;
use enrol_domain::checkout::{ORDER_ID_KEY, PlanChoice};
use enrol_domain::instalments::{PLAN_CARD_METADATA_TYPE, PlanStatus, check_plan_for};
use enrol_domain::london;

use crate::accounts::token_hash;
use crate::http::ApiError;
use crate::http::enrol_checkout::gateway_error;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::private;
use crate::{AppState, plans};

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardRequest {
    /// The token of the `/pay-balance/` link.
    token: String,
    /// Monthly instalments agreed to, for a booking without a plan; none to
    /// change the card of its running plan.
    #[serde(default)]
    plan: Option<PlanChoice>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardSetup {
    /// The setup intent the browser confirms with the card.
    id: String,
    client_secret: String,
}

async fn booking_of(state: &AppState, token: &str) -> Result<EnrollmentRecord, ApiError> {
    state.db.balance_link_enrollment(&token_hash(token), Utc::now()).await?.ok_or(ApiError::NotFound)
}

/// `POST /api/balance/card`: prepares saving a card for the plan of the
/// booking a link pays: one agreed now, checked as at checkout, or the
/// running one.
#[utoipa::path(
    post,
    path = "/api/balance/card",
    tag = "checkout",
    request_body = CardRequest,
    responses(
        (status = 200, description = "The setup intent to confirm with the card", body = CardSetup),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 404, description = "The link is unknown or has run out", body = ErrorEnvelope),
        (status = 409, description = "The booking already has a payment plan", body = ErrorEnvelope),
        (status = 422, description = "Nothing owed, no plan to change, a plan the rules do not give, no consent, \
            or refused by the payment provider", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn prepare_card(State(state): State<Arc<AppState>>, JsonBody(request): JsonBody<CardRequest>) -> Result<Response, ApiError> {
    let order = booking_of(&state, &request.token).await?;
    check_owing(order.status, order.owed()).map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    let customer = match &request.plan {
        Some(choice) => agree(&state, &order, choice).await?,
        None => {
            let plan = state.db.booking_plan(&order.id).await?;
            let running = plan.filter(|p| matches!(p.status, PlanStatus::Active | PlanStatus::Paused));
            running.map(|p| p.customer).ok_or_else(|| ApiError::Unprocessable("This booking has no payment plan.".to_owned()))?
        }
    };
    let metadata = BTreeMap::from([(ORDER_ID_KEY.to_owned(), order.id.clone()), ("type".to_owned(), PLAN_CARD_METADATA_TYPE.to_owned())]);
    let setup = state.payments.create_setup_intent(&customer, &metadata, &uuid::Uuid::new_v4().to_string()).await.map_err(gateway_error)?;
    Ok(private(StatusCode::OK, CardSetup { id: setup.id, client_secret: setup.client_secret }))
}

/// Keeps the plan agreed to on the balance page, waiting for its card: the
/// customer the card is saved to.
async fn agree(state: &AppState, order: &EnrollmentRecord, choice: &PlanChoice) -> Result<String, ApiError> {
    if !choice.card_consent {
        return Err(ApiError::Unprocessable("Agree that your card is saved to pay the instalments on the days shown.".to_owned()));
    }
    let now = Utc::now();
    let today = london::today(now);
    let due_on = order.balance_due_on(today).ok_or_else(|| ApiError::Unprocessable("This booking has no date yet.".to_owned()))?;
    let settings = state.db.plan_settings().await?;
    let count = u32::try_from(choice.parts.len()).unwrap_or(u32::MAX);
    let parts = check_plan_for(order.quote.total, order.owed(), count, today, due_on, &settings)
        .map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    if parts != choice.parts {
        return Err(ApiError::Unprocessable(
            "The instalments have changed since the page was loaded. Please check them and try again.".to_owned(),
        ));
    }
    let name = format!("{} {}", order.given_name, order.family_name);
    let customer = state.payments.create_customer(&order.email, &name, &format!("customer-{}", order.id)).await.map_err(gateway_error)?;
    if !state.db.offer_plan(&order.id, &AgreedPlan { customer: customer.clone(), agreed_on: today, parts }, now).await? {
        return Err(ApiError::Conflict("This booking already has a payment plan.".to_owned()));
    }
    Ok(customer)
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardSaved {
    token: String,
    /// The setup intent the browser confirmed.
    setup_intent: String,
}

/// `POST /api/balance/card/confirm`: the card a confirmed setup intent
/// saved pays the plan from now on; a plan agreed on the balance page
/// starts, and a part the old card was refused is tried again.
#[utoipa::path(
    post,
    path = "/api/balance/card/confirm",
    tag = "checkout",
    request_body = CardSaved,
    responses(
        (status = 200, description = "The plan, paid from the new card", body = enrol_domain::records::StudentPlan),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 404, description = "The link or the setup intent is unknown, or the intent is another booking's", body = ErrorEnvelope),
        (status = 422, description = "The card was not saved, or the booking has no plan", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn confirm_card(State(state): State<Arc<AppState>>, JsonBody(request): JsonBody<CardSaved>) -> Result<Response, ApiError> {
    let order = booking_of(&state, &request.token).await?;
    let setup = state.payments.retrieve_setup_intent(&request.setup_intent).await.map_err(|_| ApiError::NotFound)?;
    if setup.metadata.get(ORDER_ID_KEY) != Some(&order.id)
        || setup.metadata.get("type").map(String::as_str) != Some(PLAN_CARD_METADATA_TYPE)
    {
        return Err(ApiError::NotFound);
    }
    let Some(payment_method) = setup.payment_method.filter(|_| setup.status == "succeeded") else {
        return Err(ApiError::Unprocessable("The card was not saved. Please try again.".to_owned()));
    };
    let plan = plans::use_saved_card(&state, &order.id, &payment_method)
        .await?
        .ok_or_else(|| ApiError::Unprocessable("This booking has no payment plan.".to_owned()))?;
    Ok(private(StatusCode::OK, plan))
}
