//! The sandbox gateway's hosted checkout page: what Stripe Checkout is in
//! production, without money. Test cards decide the outcome; a paid
//! checkout is delivered as a signed `checkout.session.completed` event
//! through the same webhook handler Stripe's events use.

use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use chrono::Utc;
use serde::Deserialize;
use serde_json::json;

use enrol_db::SandboxCheckout;
use enrol_domain::html::escape_html;
use enrol_domain::money::Money;
use enrol_payments::signature;

use crate::AppState;
use crate::gateway::{SAVED_CARD_AUTHENTICATES, SAVED_CARD_DECLINED, SAVED_CARD_PAYS, SandboxEvent, checkout_object};
use crate::http::{ApiError, webhooks};

/// The test cards of ARCHITECTURE.md and what they do.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum TestCard {
    Succeeds,
    Declined,
    InsufficientFunds,
    /// Pays with its owner present (who confirms at once in the sandbox);
    /// once saved, its charges without the owner want the owner to confirm.
    AuthenticatesOffSession,
    /// Saved without a payment, then declined when charged.
    DeclinedOnceSaved,
}

impl TestCard {
    pub(super) fn parse(number: &str) -> Option<Self> {
        let digits: String = number.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
        match digits.as_str() {
            "4242424242424242" => Some(TestCard::Succeeds),
            "4000000000000002" => Some(TestCard::Declined),
            "4000000000009995" => Some(TestCard::InsufficientFunds),
            "4000002760003184" => Some(TestCard::AuthenticatesOffSession),
            "4000000000000341" => Some(TestCard::DeclinedOnceSaved),
            _ => None,
        }
    }

    /// What the card does when charged once saved.
    pub(super) fn when_saved(&self) -> &'static str {
        match self {
            TestCard::Succeeds => SAVED_CARD_PAYS,
            TestCard::AuthenticatesOffSession => SAVED_CARD_AUTHENTICATES,
            TestCard::Declined | TestCard::InsufficientFunds | TestCard::DeclinedOnceSaved => SAVED_CARD_DECLINED,
        }
    }

    pub(super) fn last4(&self) -> &'static str {
        match self {
            TestCard::Succeeds => "4242",
            TestCard::Declined => "0002",
            TestCard::InsufficientFunds => "9995",
            TestCard::AuthenticatesOffSession => "3184",
            TestCard::DeclinedOnceSaved => "0341",
        }
    }
}

#[derive(Deserialize, Default)]
pub struct PaymentForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    card_number: String,
    #[serde(default)]
    expiry: String,
    #[serde(default)]
    cvc: String,
}

/// The message a card's outcome shows the buyer; `None` when it pays.
impl TestCard {
    pub(super) fn refusal(&self) -> Option<&'static str> {
        match self {
            TestCard::Succeeds | TestCard::AuthenticatesOffSession => None,
            TestCard::Declined | TestCard::DeclinedOnceSaved => Some("Your card was declined."),
            TestCard::InsufficientFunds => Some("Your card has insufficient funds."),
        }
    }
}

const STYLE: &str = include_str!("sandbox.css");

pub async fn show_style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=3600")], STYLE)
}

async fn find(state: &AppState, id: &str) -> Result<SandboxCheckout, ApiError> {
    state.db.sandbox_checkout(id).await?.ok_or(ApiError::NotFound)
}

pub async fn show_checkout(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let checkout = find(&state, &id).await?;
    if checkout.complete {
        return Ok(Redirect::to(&checkout.success_url).into_response());
    }
    Ok(page(&checkout, &PaymentForm::default(), None).into_response())
}

pub async fn pay_checkout(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Form(form): Form<PaymentForm>,
) -> Result<Response, ApiError> {
    let checkout = find(&state, &id).await?;
    if checkout.complete {
        return Ok(Redirect::to(&checkout.success_url).into_response());
    }
    let email = form.email.trim();
    let problem = if email.is_empty() || !email.contains('@') {
        Some("Enter your email address, like name@example.com.")
    } else {
        match TestCard::parse(&form.card_number) {
            None => Some("Use one of the sandbox test cards listed below."),
            Some(card) if card.refusal().is_some() => card.refusal(),
            Some(_) if form.expiry.trim().is_empty() || form.cvc.trim().is_empty() => {
                Some("Enter the card's expiry date and security code.")
            }
            Some(_) => None,
        }
    };
    if let Some(problem) = problem {
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, page(&checkout, &form, Some(problem))).into_response());
    }
    // The provider's own record first, then its event: a crash between
    // the two leaves a paid checkout that reconciliation finds.
    let name = Some(form.name.trim()).filter(|n| !n.is_empty());
    if state.db.complete_sandbox_checkout(&checkout.id, email, name).await? {
        let paid =
            SandboxCheckout { complete: true, customer_email: Some(email.to_owned()), customer_name: name.map(str::to_owned), ..checkout };
        deliver_completion(&state, &paid).await?;
        return Ok(Redirect::to(&paid.success_url).into_response());
    }
    Ok(Redirect::to(&checkout.success_url).into_response())
}

/// Sends the paid checkout to the webhook handler as Stripe would.
async fn deliver_completion(state: &AppState, checkout: &SandboxCheckout) -> Result<(), ApiError> {
    let session = checkout_object(checkout);
    deliver(
        state,
        "checkout.session.completed",
        json!({
            "id": session.id,
            "object": "checkout.session",
            "mode": "payment",
            "status": "complete",
            "payment_status": session.payment_status,
            "client_reference_id": session.client_reference_id,
            "metadata": session.metadata,
            "amount_total": session.amount_total,
            "currency": session.currency,
            "customer_email": null,
            "customer_details": { "email": session.customer_email, "name": session.customer_name },
            "payment_intent": session.payment_intent,
        }),
    )
    .await
}

/// Signs an event of `event_type` about `object` and hands it to the same
/// handler Stripe's events reach.
pub(super) async fn deliver(state: &AppState, event_type: &str, object: serde_json::Value) -> Result<(), ApiError> {
    let now = Utc::now().timestamp();
    let event = json!({
        "id": format!("evt_sandbox_{}", uuid::Uuid::new_v4().simple()),
        "object": "event",
        "type": event_type,
        "created": now,
        "livemode": false,
        "data": { "object": object },
    });
    let body = serde_json::to_vec(&event).map_err(anyhow::Error::new)?;
    let header = signature::sign(&body, state.payments.webhook_secret(), now);
    webhooks::handle(state, &header, &body).await.map_err(|error| ApiError::Internal(anyhow::anyhow!("Sandbox event refused: {error}")))
}

/// Takes the events the sandbox sends later (a saved card's charge) to
/// the webhook, as Stripe does, while the server runs.
pub async fn deliver_events(state: std::sync::Weak<AppState>, mut events: tokio::sync::mpsc::UnboundedReceiver<SandboxEvent>) {
    while let Some((event_type, object)) = events.recv().await {
        let Some(state) = state.upgrade() else { return };
        if let Err(error) = deliver(&state, event_type, object).await {
            tracing::error!(%error, event_type, "The sandbox's event was refused; reconciliation will find the payment");
        }
    }
}

/// A page of the sandbox gateway: its own look, never indexed. `title` and
/// `main` are HTML the caller has escaped.
pub(super) fn sandbox_page(title: &str, main: &str) -> Html<String> {
    Html(format!(
        r#"<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>{title} | Sandbox</title>
<link rel="stylesheet" href="/sandbox/sandbox.css">
</head>
<body>
<header><p class="badge">Sandbox: no real money moves</p></header>
<main>
{main}
</main>
</body>
</html>"#
    ))
}

fn page(checkout: &SandboxCheckout, form: &PaymentForm, problem: Option<&str>) -> Html<String> {
    let mut lines = String::new();
    for line in &checkout.lines {
        lines.push_str(&format!("<tr><th scope=\"row\">{}</th><td>{}</td></tr>", escape_html(&line.name), Money::from_pence(line.amount)));
    }
    let error =
        problem.map(|p| format!("<p class=\"error\" role=\"alert\" id=\"payment-error\">{}</p>", escape_html(p))).unwrap_or_default();
    let described = if problem.is_some() { " aria-describedby=\"payment-error\"" } else { "" };
    let total = Money::from_pence(checkout.total);
    let main = format!(
        r#"<h1>Pay {total}</h1>
<table><caption>Your order</caption>
<tbody>{lines}</tbody>
<tfoot><tr><th scope="row">Total</th><td>{total}</td></tr></tfoot>
</table>
<form method="post" novalidate>
{error}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="{email}"{described}>
<label for="name">Name on card</label>
<input id="name" name="name" autocomplete="cc-name" value="{name}">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required value="{card}"{described}>
<div class="pair">
<div><label for="expiry">Expiry (MM / YY)</label>
<input id="expiry" name="expiry" autocomplete="cc-exp" required value="{expiry}"></div>
<div><label for="cvc">Security code</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required value="{cvc}"></div>
</div>
<button type="submit">Pay {total}</button>
</form>
<p><a href="{cancel}">Cancel and return to the site</a></p>
<section aria-labelledby="test-cards"><h2 id="test-cards">Sandbox test cards</h2>
<ul><li>4242 4242 4242 4242: payment succeeds</li><li>4000 0000 0000 0002: card declined</li><li>4000 0000 0000 9995: insufficient funds</li></ul>
<p>Any future expiry date and any three digits as the security code.</p></section>"#,
        email = escape_html(&form.email),
        name = escape_html(&form.name),
        card = escape_html(&form.card_number),
        expiry = escape_html(&form.expiry),
        cvc = escape_html(&form.cvc),
        cancel = escape_html(&checkout.cancel_url),
    );
    sandbox_page(&format!("Pay {total}"), &main)
}

#[cfg(test)]
mod tests {
    use super::TestCard;

    #[test]
    fn test_cards_are_read_with_spaces_or_dashes() {
        assert_eq!(TestCard::parse("4242 4242 4242 4242"), Some(TestCard::Succeeds));
        assert_eq!(TestCard::parse("4000-0000-0000-0002"), Some(TestCard::Declined));
        assert_eq!(TestCard::parse("4000000000009995"), Some(TestCard::InsufficientFunds));
        assert_eq!(TestCard::parse("5555 5555 5555 4444"), None);
    }
}
