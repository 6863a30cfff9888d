//! [`PaymentGateway`] over Stripe's REST API.
//!
//! Stripe takes form-encoded bodies with nested keys in brackets
//! (`line_items[0][price_data][currency]=gbp`) and answers JSON. Only the
//! fields this college uses are sent or read.

use std::collections::BTreeMap;
use std::time::Duration;

use enrol_domain::money::Money;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::event::{CheckoutSessionObject, parse_checkout_session};
use crate::{
    ChargeOutcome, CheckoutLine, CheckoutRequest, CheckoutSession, GatewayError, GatewayKind, IntentRequest, IntentUpdate, PaymentGateway,
    PaymentIntent, RefundMade, SavedCard, SavedCardCharge, SetupIntent,
};

mod saved_cards;

const DEFAULT_API_BASE: &str = "https://api.stripe.com";
/// Long enough for a slow Stripe day, short enough that a buyer waiting on
/// the checkout page gets an answer.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// The college charges in pounds only.
const CURRENCY: &str = "gbp";

/// A form body: ordered key/value pairs, keys already bracket-encoded.
type Form = Vec<(String, String)>;

pub struct StripeGateway {
    http: reqwest::Client,
    api_base: String,
    secret_key: String,
    publishable_key: String,
    webhook_secret: String,
}

impl StripeGateway {
    pub fn new(secret_key: String, publishable_key: String, webhook_secret: String) -> Self {
        let http = reqwest::Client::builder().timeout(REQUEST_TIMEOUT).build().expect("the HTTP client's settings are fixed and valid");
        StripeGateway { http, api_base: DEFAULT_API_BASE.to_owned(), secret_key, publishable_key, webhook_secret }
    }

    /// Talk to another server than `https://api.stripe.com` (a mock in tests).
    pub fn with_api_base(mut self, api_base: impl Into<String>) -> Self {
        self.api_base = api_base.into().trim_end_matches('/').to_owned();
        self
    }

    async fn post<T: DeserializeOwned>(&self, path: &str, form: &Form, idempotency_key: Option<&str>) -> Result<T, GatewayError> {
        let mut request = self.http.post(format!("{}{path}", self.api_base)).form(form);
        if let Some(key) = idempotency_key {
            request = request.header("Idempotency-Key", key);
        }
        self.send(request).await
    }

    async fn send<T: DeserializeOwned>(&self, request: reqwest::RequestBuilder) -> Result<T, GatewayError> {
        let (status, request_id, body) = self.exchange(request).await?;
        if status.is_success() {
            return serde_json::from_slice(&body)
                .map_err(|error| GatewayError::Unavailable(format!("Stripe answered with an unexpected body: {error}")));
        }
        Err(refusal(status, &request_id, &body))
    }

    /// Sends `request`: Stripe's status, request id and body.
    async fn exchange(&self, request: reqwest::RequestBuilder) -> Result<(reqwest::StatusCode, String, Vec<u8>), GatewayError> {
        let response = request
            .bearer_auth(&self.secret_key)
            .send()
            .await
            .map_err(|error| GatewayError::Unavailable(format!("could not reach Stripe: {error}")))?;
        let status = response.status();
        let request_id = response.headers().get("request-id").and_then(|value| value.to_str().ok()).unwrap_or("unknown").to_owned();
        let body = response.bytes().await.map_err(|error| GatewayError::Unavailable(format!("Stripe's answer was cut short: {error}")))?;
        Ok((status, request_id, body.to_vec()))
    }
}

/// Turns a Stripe error answer into a [`GatewayError`]. Only card and
/// invalid-request errors are the buyer's to see; a bad key (401, whose
/// message quotes the masked key), a rate limit or an outage is ours, and
/// only the log has the details.
fn refusal(status: reqwest::StatusCode, request_id: &str, body: &[u8]) -> GatewayError {
    let unavailable = || GatewayError::Unavailable(format!("Stripe answered {status} (request {request_id})"));
    let Ok(StripeErrorBody { error }) = serde_json::from_slice(body) else {
        tracing::warn!(status = status.as_u16(), request_id, "Stripe answered an error without an error object");
        return unavailable();
    };
    tracing::warn!(
        status = status.as_u16(),
        request_id,
        error_type = error.error_type,
        code = error.code,
        decline_code = error.decline_code,
        message = error.message,
        "Stripe refused a request"
    );
    let buyers_to_see = status.is_client_error()
        && !matches!(status, reqwest::StatusCode::UNAUTHORIZED | reqwest::StatusCode::FORBIDDEN)
        && matches!(error.error_type.as_str(), "card_error" | "invalid_request_error");
    match error.message {
        Some(message) if buyers_to_see => GatewayError::Refused(message),
        _ => unavailable(),
    }
}

/// Stripe ids are letters, digits and underscores; anything else would
/// change the request path.
fn checked_id(id: &str) -> Result<&str, GatewayError> {
    if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(id)
    } else {
        Err(GatewayError::Refused(format!("{id:?} is not a Stripe payment intent id.")))
    }
}

#[async_trait::async_trait]
impl PaymentGateway for StripeGateway {
    fn kind(&self) -> GatewayKind {
        GatewayKind::Stripe
    }

    fn publishable_key(&self) -> Option<&str> {
        Some(&self.publishable_key)
    }

    async fn create_checkout_session(&self, request: &CheckoutRequest) -> Result<CheckoutSession, GatewayError> {
        let session: StripeCheckoutSession =
            self.post("/v1/checkout/sessions", &checkout_session_form(request), Some(&request.idempotency_key)).await?;
        Ok(CheckoutSession { id: session.id, url: session.url })
    }

    async fn create_payment_intent(&self, request: &IntentRequest) -> Result<PaymentIntent, GatewayError> {
        let intent: StripePaymentIntent = self.post("/v1/payment_intents", &intent_form(request), Some(&request.idempotency_key)).await?;
        Ok(intent.into())
    }

    async fn update_payment_intent(&self, id: &str, update: &IntentUpdate) -> Result<PaymentIntent, GatewayError> {
        let path = format!("/v1/payment_intents/{}", checked_id(id)?);
        let intent: StripePaymentIntent = self.post(&path, &update_form(update), None).await?;
        Ok(intent.into())
    }

    async fn retrieve_payment_intent(&self, id: &str) -> Result<PaymentIntent, GatewayError> {
        let url = format!("{}/v1/payment_intents/{}", self.api_base, checked_id(id)?);
        let intent: StripePaymentIntent = self.send(self.http.get(url)).await?;
        Ok(intent.into())
    }

    async fn cancel_payment_intent(&self, id: &str) -> Result<PaymentIntent, GatewayError> {
        let path = format!("/v1/payment_intents/{}/cancel", checked_id(id)?);
        let intent: StripePaymentIntent = self.post(&path, &Form::new(), None).await?;
        Ok(intent.into())
    }

    async fn refund_payment(&self, payment_intent: &str, amount: Money, idempotency_key: &str) -> Result<RefundMade, GatewayError> {
        // Our refund's id goes with it, so a person at Stripe sees which one it is.
        let form = vec![
            field("payment_intent", checked_id(payment_intent)?),
            field("amount", amount.pence().to_string()),
            field("metadata[refund_id]", idempotency_key.to_owned()),
        ];
        let refund: StripeRefund = self.post("/v1/refunds", &form, Some(idempotency_key)).await?;
        Ok(RefundMade { id: refund.id })
    }

    async fn retrieve_checkout_session(&self, id: &str) -> Result<CheckoutSessionObject, GatewayError> {
        let url = format!("{}/v1/checkout/sessions/{}", self.api_base, checked_id(id)?);
        let raw: serde_json::Value = self.send(self.http.get(url)).await?;
        parse_checkout_session(raw.to_string().as_bytes())
            .map_err(|error| GatewayError::Unavailable(format!("Stripe answered with an unexpected checkout session: {error}")))
    }

    async fn create_customer(&self, email: &str, name: &str, idempotency_key: &str) -> Result<String, GatewayError> {
        let customer: saved_cards::StripeCustomer =
            self.post("/v1/customers", &saved_cards::customer_form(email, name), Some(idempotency_key)).await?;
        Ok(customer.id)
    }

    /// Stripe answers a charge the bank refuses or wants confirmed with a
    /// card error (402), which is an outcome here, not a failure.
    async fn charge_saved_card(&self, charge: &SavedCardCharge) -> Result<ChargeOutcome, GatewayError> {
        let request = self
            .http
            .post(format!("{}/v1/payment_intents", self.api_base))
            .form(&saved_cards::charge_form(charge))
            .header("Idempotency-Key", &charge.idempotency_key);
        let (status, request_id, body) = self.exchange(request).await?;
        if status.is_success() {
            let intent: saved_cards::StripeChargedIntent = serde_json::from_slice(&body)
                .map_err(|error| GatewayError::Unavailable(format!("Stripe answered with an unexpected body: {error}")))?;
            return Ok(intent.outcome());
        }
        saved_cards::refused_charge(&body).ok_or_else(|| refusal(status, &request_id, &body))
    }

    async fn saved_card(&self, payment_method: &str) -> Result<SavedCard, GatewayError> {
        let url = format!("{}/v1/payment_methods/{}", self.api_base, checked_id(payment_method)?);
        let method: saved_cards::StripePaymentMethod = self.send(self.http.get(url)).await?;
        Ok(method.into())
    }

    async fn create_setup_intent(
        &self,
        customer: &str,
        metadata: &BTreeMap<String, String>,
        idempotency_key: &str,
    ) -> Result<SetupIntent, GatewayError> {
        let setup: saved_cards::StripeSetupIntent =
            self.post("/v1/setup_intents", &saved_cards::setup_form(customer, metadata), Some(idempotency_key)).await?;
        Ok(setup.into())
    }

    async fn retrieve_setup_intent(&self, id: &str) -> Result<SetupIntent, GatewayError> {
        let url = format!("{}/v1/setup_intents/{}", self.api_base, checked_id(id)?);
        let setup: saved_cards::StripeSetupIntent = self.send(self.http.get(url)).await?;
        Ok(setup.into())
    }

    fn webhook_secret(&self) -> &str {
        &self.webhook_secret
    }
}

/// Never prints the secret key or the webhook secret.
impl std::fmt::Debug for StripeGateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeGateway")
            .field("api_base", &self.api_base)
            .field("publishable_key", &self.publishable_key)
            .finish_non_exhaustive()
    }
}

fn checkout_session_form(request: &CheckoutRequest) -> Form {
    let mut form = vec![
        field("mode", "payment"),
        field("client_reference_id", &request.client_reference_id),
        field("success_url", &request.success_url),
        field("cancel_url", &request.cancel_url),
    ];
    for (index, line) in request.lines.iter().enumerate() {
        let prefix = format!("line_items[{index}]");
        match line {
            CheckoutLine::Price { price_id, .. } => form.push(field(format!("{prefix}[price]"), price_id)),
            // An upsell's price is ours, not a catalogue price: Stripe must
            // get `price_data` and no `price`, or it rejects the line.
            CheckoutLine::Inline { product, unit_amount, .. } => form.extend([
                field(format!("{prefix}[price_data][currency]"), CURRENCY),
                field(format!("{prefix}[price_data][product]"), product),
                field(format!("{prefix}[price_data][unit_amount]"), unit_amount.pence().to_string()),
            ]),
        }
        form.push(field(format!("{prefix}[quantity]"), "1"));
    }
    push_metadata(&mut form, &request.metadata);
    form
}

fn intent_form(request: &IntentRequest) -> Form {
    let mut form = vec![field("amount", request.amount.pence().to_string()), field("currency", CURRENCY)];
    if let Some(customer) = &request.customer {
        form.push(field("customer", customer));
    }
    if let Some(email) = &request.receipt_email {
        form.push(field("receipt_email", email));
    }
    push_payment_method_types(&mut form, &request.payment_method_types);
    push_metadata(&mut form, &request.metadata);
    form
}

fn update_form(update: &IntentUpdate) -> Form {
    let mut form = vec![field("amount", update.amount.pence().to_string())];
    if let Some(customer) = &update.save_card_for {
        form.extend([field("customer", customer), field("setup_future_usage", "off_session")]);
    }
    push_payment_method_types(&mut form, &update.payment_method_types);
    push_metadata(&mut form, &update.metadata);
    form
}

fn push_payment_method_types(form: &mut Form, types: &[String]) {
    form.extend(types.iter().enumerate().map(|(index, method)| field(format!("payment_method_types[{index}]"), method)));
}

fn push_metadata(form: &mut Form, metadata: &BTreeMap<String, String>) {
    form.extend(metadata.iter().map(|(key, value)| field(format!("metadata[{key}]"), value)));
}

fn field(key: impl Into<String>, value: impl Into<String>) -> (String, String) {
    (key.into(), value.into())
}

// Stripe's answers, only as far as we read them.

#[derive(Deserialize)]
struct StripeRefund {
    id: String,
}

#[derive(Deserialize)]
struct StripeCheckoutSession {
    id: String,
    url: String,
}

#[derive(Deserialize)]
struct StripePaymentIntent {
    id: String,
    client_secret: String,
    amount: Money,
    status: String,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
}

impl From<StripePaymentIntent> for PaymentIntent {
    fn from(intent: StripePaymentIntent) -> Self {
        PaymentIntent {
            id: intent.id,
            client_secret: intent.client_secret,
            amount: intent.amount,
            status: intent.status,
            metadata: intent.metadata,
        }
    }
}

#[derive(Deserialize)]
struct StripeErrorBody {
    error: StripeError,
}

#[derive(Deserialize)]
struct StripeError {
    #[serde(rename = "type")]
    error_type: String,
    message: Option<String>,
    code: Option<String>,
    decline_code: Option<String>,
    /// The intent a refused charge made, when it made one.
    payment_intent: Option<StripeIntentRef>,
}

#[derive(Deserialize)]
struct StripeIntentRef {
    id: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_stripe_could_have_issued_reach_the_path() {
        assert!(checked_id("pi_3PtX2bHk3dQx7Lm20ZxCvBnM").is_ok());
        for id in ["", "pi_1/cancel", "pi_1?expand[]=customer", "../v1/charges", "pi 1"] {
            assert!(matches!(checked_id(id), Err(GatewayError::Refused(_))), "{id:?}");
        }
    }

    #[test]
    fn debug_output_hides_the_secrets() {
        let gateway = StripeGateway::new("sk_test_secret".into(), "pk_test_public".into(), "whsec_secret".into());
        let debug = format!("{gateway:?}");
        assert!(debug.contains("pk_test_public"), "{debug}");
        assert!(!debug.contains("sk_test_secret") && !debug.contains("whsec_secret"), "{debug}");
    }

    #[test]
    fn authentication_and_server_errors_are_not_shown_to_the_buyer() {
        let invalid_key = br#"{"error":{"message":"Invalid API Key provided: sk_test_****1234","type":"invalid_request_error"}}"#;
        assert!(matches!(refusal(reqwest::StatusCode::UNAUTHORIZED, "req_1", invalid_key), GatewayError::Unavailable(_)));
        let rate_limited = br#"{"error":{"message":"Too many requests","type":"rate_limit_error"}}"#;
        assert!(matches!(refusal(reqwest::StatusCode::TOO_MANY_REQUESTS, "req_1", rate_limited), GatewayError::Unavailable(_)));
        assert!(matches!(refusal(reqwest::StatusCode::BAD_REQUEST, "req_1", b"<html>"), GatewayError::Unavailable(_)));
    }
}
