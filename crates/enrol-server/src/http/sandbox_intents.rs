//! The sandbox's payment intents: what Stripe's Payment Element and
//! `confirmPayment` do in production, without money. Cards decide at once;
//! Klarna and Clearpay send the buyer to an approve-or-deny page first.
//! Outcomes reach the webhook handler as signed `payment_intent.*` events,
//! then the buyer returns to `return_url` with `redirect_status`, as with Stripe.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::Deserialize;

use chrono::Utc;

use enrol_db::SandboxIntent;
use enrol_domain::checkout::{SandboxCard, SandboxConfirmRequest, SandboxConfirmResponse};
use enrol_domain::enrollment::PaymentMethod;
use enrol_domain::html::escape_html;
use enrol_domain::money::Money;

use crate::AppState;
use crate::accounts::random_token;
use crate::gateway::intent_event;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;
use crate::http::sandbox::{TestCard, deliver, sandbox_page};

/// Only this site's own confirmation pages may be returned to: a booking's
/// page, or the balance page with its link's token.
fn checked_return_url(state: &AppState, url: &str) -> Result<String, ApiError> {
    let path = url.strip_prefix(state.config.public_url.as_str()).unwrap_or(url);
    let booking = path
        .strip_prefix("/enrolment/")
        .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '/'));
    let balance =
        path.strip_prefix("/pay-balance/?token=").is_some_and(|token| !token.is_empty() && token.chars().all(|c| c.is_ascii_hexdigit()));
    if booking || balance {
        Ok(path.to_owned())
    } else {
        Err(ApiError::BadRequest("return_url must be this site's /enrolment/ or /pay-balance/ page".to_owned()))
    }
}

fn returned(return_url: &str, intent_id: &str, status: &str) -> String {
    let join = if return_url.contains('?') { '&' } else { '?' };
    format!("{return_url}{join}payment_intent={intent_id}&redirect_status={status}")
}

/// The intent, for a caller who knows its client secret (as Stripe.js
/// does); anyone else learns nothing, not even whether it exists.
async fn find(state: &AppState, id: &str, client_secret: &str) -> Result<SandboxIntent, ApiError> {
    let intent = state.db.sandbox_intent(id).await?.ok_or(ApiError::NotFound)?;
    if secrets_match(&intent.client_secret, client_secret) { Ok(intent) } else { Err(ApiError::NotFound) }
}

/// Whether `given` is `secret`, compared in constant time.
fn secrets_match(secret: &str, given: &str) -> bool {
    secret.as_bytes().iter().zip(given.as_bytes()).fold(secret.len() == given.len(), |same, (a, b)| same & (a == b))
}

fn offered(intent: &SandboxIntent) -> Vec<String> {
    serde_json::from_str(&intent.payment_method_types).unwrap_or_default()
}

fn is_offered(intent: &SandboxIntent, method: PaymentMethod) -> bool {
    offered(intent).iter().any(|offered| offered == method.as_str())
}

/// The intent as Stripe's events carry it.
fn intent_object(intent: &SandboxIntent, status: &str, method: PaymentMethod, error: Option<&str>) -> serde_json::Value {
    intent_event(intent, status, method.as_str(), error)
}

/// Pays the intent once and tells the webhook handler.
async fn succeed(state: &AppState, intent: &SandboxIntent, method: PaymentMethod, card: Option<&TestCard>) -> Result<(), ApiError> {
    // A card paying an intent that asked for it to be saved is saved to its customer.
    let saved = match (card, intent.save_card, &intent.customer) {
        (Some(card), true, Some(customer)) => Some(save_card(state, card, customer).await?),
        _ => None,
    };
    if state.db.succeed_sandbox_intent(&intent.id, saved.as_deref()).await? {
        let paid = SandboxIntent { payment_method: saved, ..intent.clone() };
        deliver(state, "payment_intent.succeeded", intent_object(&paid, "succeeded", method, None)).await?;
    }
    Ok(())
}

/// Saves `card` to `customer`: the saved card's id.
pub(super) async fn save_card(state: &AppState, card: &TestCard, customer: &str) -> Result<String, ApiError> {
    let saved = enrol_db::SandboxCard {
        id: format!("pm_sandbox_{}", random_token().get(..24).unwrap_or_default()),
        customer: Some(customer.to_owned()),
        behaviour: card.when_saved().to_owned(),
        last4: card.last4().to_owned(),
    };
    state.db.save_sandbox_card(&saved, Utc::now()).await?;
    Ok(saved.id)
}

async fn fail(state: &AppState, intent: &SandboxIntent, method: PaymentMethod, message: &str) -> Result<(), ApiError> {
    deliver(state, "payment_intent.payment_failed", intent_object(intent, "requires_payment_method", method, Some(message))).await
}

/// `POST /sandbox/payment_intents/{id}/confirm`.
#[tracing::instrument(skip_all, fields(intent = %id))]
pub async fn confirm_intent(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<SandboxConfirmRequest>,
) -> Result<Json<SandboxConfirmResponse>, ApiError> {
    let intent = find(&state, &id, &request.client_secret).await?;
    let return_url = checked_return_url(&state, &request.return_url)?;
    if intent.status == "succeeded" {
        return Ok(Json(SandboxConfirmResponse { redirect: returned(&return_url, &intent.id, "succeeded") }));
    }
    if intent.status == "canceled" {
        return Err(ApiError::PaymentFailed("This payment was replaced by a newer one. Please try again.".to_owned()));
    }
    let method = request.payment_method;
    if !is_offered(&intent, method) {
        return Err(ApiError::PaymentFailed(format!("{} is not available for this payment.", method.label())));
    }
    if method != PaymentMethod::Card {
        // Every value is made only of URL-safe characters (checked above, or
        // made so by the sandbox).
        let redirect = format!(
            "/sandbox/redirect/{}?method={}&return_url={return_url}&client_secret={}",
            intent.id,
            method.as_str(),
            intent.client_secret
        );
        return Ok(Json(SandboxConfirmResponse { redirect }));
    }
    let card = request.card.ok_or_else(|| ApiError::PaymentFailed("Enter your card details.".to_owned()))?;
    let Some(test_card) = TestCard::parse(&card.number) else {
        return Err(ApiError::PaymentFailed("Your card number is not one of the sandbox test cards.".to_owned()));
    };
    if card.expiry.trim().is_empty() || card.cvc.trim().is_empty() {
        return Err(ApiError::PaymentFailed("Enter the card's expiry date and security code.".to_owned()));
    }
    if let Some(refusal) = test_card.refusal() {
        fail(&state, &intent, PaymentMethod::Card, refusal).await?;
        return Err(ApiError::PaymentFailed(refusal.to_owned()));
    }
    succeed(&state, &intent, PaymentMethod::Card, Some(&test_card)).await?;
    Ok(Json(SandboxConfirmResponse { redirect: returned(&return_url, &intent.id, "succeeded") }))
}

#[derive(Deserialize)]
pub struct RedirectQuery {
    method: PaymentMethod,
    return_url: String,
    client_secret: String,
}

/// `GET /sandbox/redirect/{id}`: the buy-now-pay-later provider's page.
pub async fn show_redirect(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(query): Query<RedirectQuery>,
) -> Result<Response, ApiError> {
    let intent = find(&state, &id, &query.client_secret).await?;
    let return_url = checked_return_url(&state, &query.return_url)?;
    if intent.status == "succeeded" {
        return Ok(Redirect::to(&returned(&return_url, &intent.id, "succeeded")).into_response());
    }
    let provider = query.method.label();
    let amount = Money::from_pence(intent.amount);
    let main = format!(
        r#"<h1>Pay {amount} with {provider}</h1>
<p>In production {provider} asks the buyer to sign in and agree their plan here. In the sandbox, choose the outcome.</p>
<form method="post">
<input type="hidden" name="method" value="{method}">
<input type="hidden" name="return_url" value="{return_url}">
<input type="hidden" name="client_secret" value="{client_secret}">
<button type="submit" name="decision" value="approve">Approve payment</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny payment</button>
</form>"#,
        method = query.method.as_str(),
        return_url = escape_html(&return_url),
        client_secret = escape_html(&intent.client_secret),
    );
    Ok(sandbox_page(&format!("{provider}: pay {amount}"), &main).into_response())
}

#[derive(Deserialize)]
pub struct Decision {
    decision: String,
    method: PaymentMethod,
    return_url: String,
    client_secret: String,
}

/// `POST /sandbox/redirect/{id}`: the buyer approved or denied.
pub async fn decide_redirect(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Form(form): Form<Decision>,
) -> Result<Redirect, ApiError> {
    let intent = find(&state, &id, &form.client_secret).await?;
    let return_url = checked_return_url(&state, &form.return_url)?;
    if form.method == PaymentMethod::Card || !is_offered(&intent, form.method) {
        return Err(ApiError::BadRequest("This payment method is not available for this payment.".to_owned()));
    }
    let status = if form.decision == "approve" || intent.status == "succeeded" {
        succeed(&state, &intent, form.method, None).await?;
        "succeeded"
    } else {
        fail(&state, &intent, form.method, &format!("{} did not approve the payment.", form.method.label())).await?;
        "failed"
    };
    Ok(Redirect::to(&returned(&return_url, &intent.id, status)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupConfirm {
    client_secret: String,
    card: SandboxCard,
}

/// `POST /sandbox/setup_intents/{id}/confirm`: what Stripe.js's
/// `confirmSetup` does: the card saved to the intent's customer, for its
/// caller who knows the client secret; a card the bank declines outright
/// is refused.
#[tracing::instrument(skip_all, fields(setup = %id))]
pub async fn confirm_setup(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<SetupConfirm>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let setup = state.db.sandbox_setup(&id).await?.ok_or(ApiError::NotFound)?;
    if !secrets_match(&setup.client_secret, &request.client_secret) {
        return Err(ApiError::NotFound);
    }
    if setup.status == "succeeded" {
        return Ok(Json(serde_json::json!({ "id": setup.id, "status": "succeeded" })));
    }
    let card = TestCard::parse(&request.card.number)
        .ok_or_else(|| ApiError::PaymentFailed("Your card number is not one of the sandbox test cards.".to_owned()))?;
    if request.card.expiry.trim().is_empty() || request.card.cvc.trim().is_empty() {
        return Err(ApiError::PaymentFailed("Enter the card's expiry date and security code.".to_owned()));
    }
    if matches!(card, TestCard::Declined | TestCard::InsufficientFunds) {
        return Err(ApiError::PaymentFailed("Your card was declined.".to_owned()));
    }
    let saved = save_card(&state, &card, &setup.customer).await?;
    if state.db.succeed_sandbox_setup(&setup.id, &saved).await? {
        let object = serde_json::json!({
            "id": setup.id,
            "object": "setup_intent",
            "status": "succeeded",
            "customer": setup.customer,
            "payment_method": saved,
            "metadata": serde_json::from_str::<serde_json::Value>(&setup.metadata).map_err(anyhow::Error::new)?,
        });
        deliver(&state, "setup_intent.succeeded", object).await?;
    }
    Ok(Json(serde_json::json!({ "id": setup.id, "status": "succeeded" })))
}
