//! Webhook events in Stripe's JSON shape, as Stripe and the sandbox send them.
//!
//! Only the events that move an order on are read in full; every other type
//! is kept by name so the endpoint can acknowledge it and move on. Verify the
//! signature ([`crate::signature::verify`]) before parsing.

use std::collections::BTreeMap;

use enrol_domain::money::Money;
use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookEvent {
    /// `evt_…`: fulfilment is deduplicated on it, as Stripe may deliver an
    /// event more than once.
    pub id: String,
    pub kind: EventKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// `checkout.session.completed`: the e-learning hosted checkout finished.
    CheckoutSessionCompleted(CheckoutSessionObject),
    /// `checkout.session.async_payment_succeeded`: a delayed payment of a
    /// completed checkout arrived.
    CheckoutSessionAsyncSucceeded(CheckoutSessionObject),
    /// `checkout.session.async_payment_failed`
    CheckoutSessionAsyncFailed(CheckoutSessionObject),
    /// `payment_intent.succeeded`
    PaymentIntentSucceeded(PaymentIntentObject),
    /// `payment_intent.payment_failed`
    PaymentIntentFailed(PaymentIntentObject),
    /// `setup_intent.succeeded`: a card saved for later payments, no money
    /// taken.
    SetupIntentSucceeded(SetupIntentObject),
    /// `charge.refunded`: money given back on a payment, by us or by a
    /// person at the provider.
    ChargeRefunded(ChargeObject),
    /// Any other event type, by name.
    Other(String),
}

/// The parts of a Checkout Session the order needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutSessionObject {
    pub id: String,
    /// Our order id, as given when the session was created.
    pub client_reference_id: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub amount_total: Money,
    pub currency: String,
    /// What the buyer typed at checkout, else what we prefilled.
    pub customer_email: Option<String>,
    pub customer_name: Option<String>,
    pub payment_intent: Option<String>,
    /// `paid`, or `unpaid` while a delayed payment method is still settling.
    pub payment_status: String,
}

/// The parts of a Charge a refund event needs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ChargeObject {
    pub id: String,
    /// The payment intent the charge paid.
    pub payment_intent: Option<String>,
    /// Everything refunded of the charge so far.
    pub amount_refunded: Money,
}

/// The parts of a SetupIntent a plan's card needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupIntentObject {
    pub id: String,
    pub status: String,
    pub metadata: BTreeMap<String, String>,
    /// The id of the card saved.
    pub payment_method_id: Option<String>,
}

/// The parts of a PaymentIntent the order needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentIntentObject {
    pub id: String,
    pub amount: Money,
    pub amount_received: Money,
    pub currency: String,
    pub metadata: BTreeMap<String, String>,
    pub status: String,
    /// The types that were offered: `card`, `klarna`, `afterpay_clearpay`.
    pub payment_method_types: Vec<String>,
    /// Stripe's message for the last failed attempt, fit to show the buyer.
    pub last_payment_error_message: Option<String>,
    /// The type the buyer used, when the event tells: an expanded
    /// `payment_method`, the method of the failed attempt, or the only type
    /// offered. `None` when several were offered and `payment_method` is an id.
    pub payment_method_type: Option<String>,
    /// The id of the payment method used (saved to `customer` when the
    /// intent asked for it to be).
    pub payment_method_id: Option<String>,
    pub customer: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// Not JSON, or missing `id`, `type` or `data.object`.
    #[error("The webhook body is not a Stripe event: {0}")]
    NotAnEvent(serde_json::Error),
    /// A known event type whose object lacks a field we rely on.
    #[error("The {event_type} event {event_id} does not carry the expected object: {source}")]
    UnexpectedObject { event_id: String, event_type: String, source: serde_json::Error },
}

pub fn parse_event(body: &[u8]) -> Result<WebhookEvent, EventError> {
    let raw: RawEvent = serde_json::from_slice(body).map_err(EventError::NotAnEvent)?;
    let object = raw.data.object;
    let kind = match raw.event_type.as_str() {
        "checkout.session.completed" => {
            serde_json::from_value::<RawCheckoutSession>(object).map(|session| EventKind::CheckoutSessionCompleted(session.into()))
        }
        "checkout.session.async_payment_succeeded" => {
            serde_json::from_value::<RawCheckoutSession>(object).map(|session| EventKind::CheckoutSessionAsyncSucceeded(session.into()))
        }
        "checkout.session.async_payment_failed" => {
            serde_json::from_value::<RawCheckoutSession>(object).map(|session| EventKind::CheckoutSessionAsyncFailed(session.into()))
        }
        "payment_intent.succeeded" => {
            serde_json::from_value::<RawPaymentIntent>(object).map(|intent| EventKind::PaymentIntentSucceeded(intent.into()))
        }
        "payment_intent.payment_failed" => {
            serde_json::from_value::<RawPaymentIntent>(object).map(|intent| EventKind::PaymentIntentFailed(intent.into()))
        }
        "setup_intent.succeeded" => {
            serde_json::from_value::<RawSetupIntent>(object).map(|setup| EventKind::SetupIntentSucceeded(setup.into()))
        }
        "charge.refunded" => serde_json::from_value::<ChargeObject>(object).map(EventKind::ChargeRefunded),
        _ => Ok(EventKind::Other(raw.event_type.clone())),
    }
    .map_err(|source| EventError::UnexpectedObject { event_id: raw.id.clone(), event_type: raw.event_type, source })?;
    Ok(WebhookEvent { id: raw.id, kind })
}

// Stripe's shapes, only as far as we read them. Nullable fields are
// `Option`; fields Stripe always sends are required so a malformed sandbox
// event fails loudly instead of fulfilling a zero-pound order.

#[derive(Deserialize)]
struct RawEvent {
    id: String,
    #[serde(rename = "type")]
    event_type: String,
    data: RawEventData,
}

#[derive(Deserialize)]
struct RawEventData {
    object: serde_json::Value,
}

/// A Checkout Session as Stripe's API returns it (reconciliation reads one).
pub fn parse_checkout_session(body: &[u8]) -> Result<CheckoutSessionObject, serde_json::Error> {
    serde_json::from_slice::<RawCheckoutSession>(body).map(Into::into)
}

#[derive(Deserialize)]
struct RawCheckoutSession {
    id: String,
    client_reference_id: Option<String>,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
    amount_total: Money,
    currency: String,
    customer_details: Option<RawCustomerDetails>,
    customer_email: Option<String>,
    payment_intent: Option<String>,
    payment_status: String,
}

#[derive(Deserialize)]
struct RawCustomerDetails {
    email: Option<String>,
    name: Option<String>,
}

impl From<RawCheckoutSession> for CheckoutSessionObject {
    fn from(raw: RawCheckoutSession) -> Self {
        let (details_email, customer_name) = raw.customer_details.map_or((None, None), |details| (details.email, details.name));
        CheckoutSessionObject {
            id: raw.id,
            client_reference_id: raw.client_reference_id,
            metadata: raw.metadata,
            amount_total: raw.amount_total,
            currency: raw.currency,
            customer_email: details_email.or(raw.customer_email),
            customer_name,
            payment_intent: raw.payment_intent,
            payment_status: raw.payment_status,
        }
    }
}

#[derive(Deserialize)]
struct RawPaymentIntent {
    id: String,
    amount: Money,
    amount_received: Money,
    currency: String,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
    status: String,
    #[serde(default)]
    payment_method_types: Vec<String>,
    /// An id, or the object when expanded.
    payment_method: Option<serde_json::Value>,
    last_payment_error: Option<RawPaymentError>,
    /// An id, or the object when expanded.
    customer: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct RawSetupIntent {
    id: String,
    status: String,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
    /// An id, or the object when expanded.
    payment_method: Option<serde_json::Value>,
}

impl From<RawSetupIntent> for SetupIntentObject {
    fn from(raw: RawSetupIntent) -> Self {
        SetupIntentObject {
            id: raw.id,
            status: raw.status,
            metadata: raw.metadata,
            payment_method_id: raw.payment_method.as_ref().and_then(id_of),
        }
    }
}

/// The id of a reference that is an id, or an expanded object.
fn id_of(value: &serde_json::Value) -> Option<String> {
    value.as_str().or_else(|| value.get("id")?.as_str()).map(str::to_owned)
}

#[derive(Deserialize)]
struct RawPaymentError {
    message: Option<String>,
    payment_method: Option<RawPaymentMethod>,
    /// Sent by newer API versions instead of the whole payment method.
    payment_method_type: Option<String>,
}

#[derive(Deserialize)]
struct RawPaymentMethod {
    #[serde(rename = "type")]
    method_type: String,
}

impl From<RawPaymentIntent> for PaymentIntentObject {
    fn from(raw: RawPaymentIntent) -> Self {
        let payment_method_id = raw.payment_method.as_ref().and_then(id_of);
        let customer = raw.customer.as_ref().and_then(id_of);
        let expanded_type = raw.payment_method.and_then(|method| method.get("type")?.as_str().map(str::to_owned));
        let (last_payment_error_message, failed_type) = match raw.last_payment_error {
            Some(error) => (error.message, error.payment_method_type.or(error.payment_method.map(|method| method.method_type))),
            None => (None, None),
        };
        let only_type_offered = match raw.payment_method_types.as_slice() {
            [only] => Some(only.clone()),
            _ => None,
        };
        PaymentIntentObject {
            id: raw.id,
            amount: raw.amount,
            amount_received: raw.amount_received,
            currency: raw.currency,
            metadata: raw.metadata,
            status: raw.status,
            payment_method_types: raw.payment_method_types,
            last_payment_error_message,
            payment_method_type: expanded_type.or(failed_type).or(only_type_offered),
            payment_method_id,
            customer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKOUT_COMPLETED: &str = include_str!("../tests/fixtures/event_checkout_session_completed.json");
    const INTENT_SUCCEEDED: &str = include_str!("../tests/fixtures/event_payment_intent_succeeded.json");
    const INTENT_FAILED: &str = include_str!("../tests/fixtures/event_payment_intent_payment_failed.json");

    /// A fixture with one JSON pointer replaced (or removed, for `None`).
    fn edited(fixture: &str, pointer: &str, value: Option<serde_json::Value>) -> Vec<u8> {
        let mut event: serde_json::Value = serde_json::from_str(fixture).unwrap();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let parent = event.pointer_mut(parent).unwrap().as_object_mut().unwrap();
        match value {
            Some(value) => parent.insert(key.to_owned(), value),
            None => parent.remove(key),
        };
        serde_json::to_vec(&event).unwrap()
    }

    #[test]
    fn reads_a_completed_checkout_session() {
        let event = parse_event(CHECKOUT_COMPLETED.as_bytes()).unwrap();
        assert_eq!(event.id, "evt_1PtW8cHk3dQx7Lm2aB9cD0eF");
        let EventKind::CheckoutSessionCompleted(session) = event.kind else { panic!("{:?}", event.kind) };
        assert_eq!(
            session,
            CheckoutSessionObject {
                id: "cs_test_a1Zx9YwVuT8sR7qP6oN5mL4kJ3iH2gF1eD0cB9aZ8yX7wV6uT5sR4qP3".into(),
                client_reference_id: Some("ord_01J6Z4K8N2QX5V7B9C3D".into()),
                metadata: BTreeMap::from([("basket".into(), "online".into()), ("order_id".into(), "ord_01J6Z4K8N2QX5V7B9C3D".into())]),
                amount_total: Money::from_pence(13998),
                currency: "gbp".into(),
                customer_email: Some("sam.taylor@example.co.uk".into()),
                customer_name: Some("Sam Taylor".into()),
                payment_intent: Some("pi_3PtW8aHk3dQx7Lm21AbCdEfG".into()),
                payment_status: "paid".into(),
            }
        );
    }

    #[test]
    fn checkout_email_falls_back_to_the_prefilled_one() {
        let body = edited(CHECKOUT_COMPLETED, "/data/object/customer_details", Some(serde_json::Value::Null));
        let body = edited(std::str::from_utf8(&body).unwrap(), "/data/object/customer_email", Some("prefilled@example.co.uk".into()));
        let EventKind::CheckoutSessionCompleted(session) = parse_event(&body).unwrap().kind else { panic!() };
        assert_eq!(session.customer_email.as_deref(), Some("prefilled@example.co.uk"));
        assert_eq!(session.customer_name, None);
    }

    #[test]
    fn reads_a_succeeded_payment_intent() {
        let event = parse_event(INTENT_SUCCEEDED.as_bytes()).unwrap();
        assert_eq!(event.id, "evt_3PtX2bHk3dQx7Lm20QwErTyU");
        let EventKind::PaymentIntentSucceeded(intent) = event.kind else { panic!("{:?}", event.kind) };
        assert_eq!(
            intent,
            PaymentIntentObject {
                id: "pi_3PtX2bHk3dQx7Lm20ZxCvBnM".into(),
                amount: Money::from_pence(125_000),
                amount_received: Money::from_pence(125_000),
                currency: "gbp".into(),
                metadata: BTreeMap::from([
                    ("course".into(), "level-3-award-in-education-and-training".into()),
                    ("enrollment_id".into(), "enr_4821".into()),
                ]),
                status: "succeeded".into(),
                payment_method_types: vec!["card".into(), "klarna".into(), "afterpay_clearpay".into()],
                last_payment_error_message: None,
                // Three types offered and `payment_method` not expanded: unknown.
                payment_method_type: None,
                payment_method_id: Some("pm_1PtX3cHk3dQx7Lm2KlZxCvBn".into()),
                customer: Some("cus_QkL9mN8bV7cX6z".into()),
            }
        );
    }

    #[test]
    fn payment_method_type_comes_from_an_expanded_method_or_the_only_type_offered() {
        let expanded = edited(
            INTENT_SUCCEEDED,
            "/data/object/payment_method",
            Some(serde_json::json!({"id": "pm_1", "object": "payment_method", "type": "klarna"})),
        );
        let EventKind::PaymentIntentSucceeded(intent) = parse_event(&expanded).unwrap().kind else { panic!() };
        assert_eq!(intent.payment_method_type.as_deref(), Some("klarna"));

        let card_only = edited(INTENT_SUCCEEDED, "/data/object/payment_method_types", Some(serde_json::json!(["card"])));
        let EventKind::PaymentIntentSucceeded(intent) = parse_event(&card_only).unwrap().kind else { panic!() };
        assert_eq!(intent.payment_method_type.as_deref(), Some("card"));
    }

    #[test]
    fn reads_a_failed_payment_intent() {
        let event = parse_event(INTENT_FAILED.as_bytes()).unwrap();
        let EventKind::PaymentIntentFailed(intent) = event.kind else { panic!("{:?}", event.kind) };
        assert_eq!(intent.id, "pi_3PtX9kHk3dQx7Lm21LkJhGfD");
        assert_eq!(intent.amount, Money::from_pence(49_900));
        assert_eq!(intent.amount_received, Money::ZERO);
        assert_eq!(intent.status, "requires_payment_method");
        assert_eq!(intent.metadata.get("enrollment_id").map(String::as_str), Some("enr_4822"));
        assert_eq!(intent.last_payment_error_message.as_deref(), Some("Your card has insufficient funds."));
        assert_eq!(intent.payment_method_type.as_deref(), Some("card"));
    }

    #[test]
    fn newer_api_versions_name_the_failed_method_type_directly() {
        let body = edited(
            INTENT_FAILED,
            "/data/object/last_payment_error",
            Some(serde_json::json!({"message": "Klarna declined.", "payment_method_type": "klarna", "type": "card_error"})),
        );
        let EventKind::PaymentIntentFailed(intent) = parse_event(&body).unwrap().kind else { panic!() };
        assert_eq!(intent.payment_method_type.as_deref(), Some("klarna"));
    }

    #[test]
    fn unknown_types_are_kept_by_name() {
        let body = edited(INTENT_SUCCEEDED, "/type", Some("payment_intent.created".into()));
        assert_eq!(
            parse_event(&body).unwrap(),
            WebhookEvent { id: "evt_3PtX2bHk3dQx7Lm20QwErTyU".into(), kind: EventKind::Other("payment_intent.created".into()) }
        );
        // The object of an event we do not read is not inspected at all.
        let body = br#"{"id":"evt_1","object":"event","type":"charge.dispute.created","data":{"object":{"id":"dp_1"}}}"#;
        assert_eq!(parse_event(body).unwrap().kind, EventKind::Other("charge.dispute.created".into()));
    }

    #[test]
    fn a_succeeded_setup_intent_names_its_card_whether_expanded_or_not() {
        let body = br#"{"id":"evt_3","object":"event","type":"setup_intent.succeeded","data":{"object":{"id":"seti_1",
            "object":"setup_intent","status":"succeeded","customer":"cus_1","payment_method":"pm_1",
            "metadata":{"order_id":"o1","type":"plan-card"}}}}"#;
        let expected = SetupIntentObject {
            id: "seti_1".into(),
            status: "succeeded".into(),
            metadata: BTreeMap::from([("order_id".into(), "o1".into()), ("type".into(), "plan-card".into())]),
            payment_method_id: Some("pm_1".into()),
        };
        assert_eq!(parse_event(body).unwrap().kind, EventKind::SetupIntentSucceeded(expected.clone()));
        let expanded = br#"{"id":"evt_4","object":"event","type":"setup_intent.succeeded","data":{"object":{"id":"seti_1",
            "status":"succeeded","payment_method":{"id":"pm_1","type":"card"},"metadata":{"order_id":"o1","type":"plan-card"}}}}"#;
        assert_eq!(parse_event(expanded).unwrap().kind, EventKind::SetupIntentSucceeded(expected));
    }

    #[test]
    fn a_refunded_charge_names_its_payment_and_what_was_refunded() {
        let body = br#"{"id":"evt_2","object":"event","type":"charge.refunded","data":{"object":{"id":"ch_1","object":"charge",
            "payment_intent":"pi_1","amount":50000,"amount_refunded":20000,"refunded":false}}}"#;
        assert_eq!(
            parse_event(body).unwrap().kind,
            EventKind::ChargeRefunded(ChargeObject {
                id: "ch_1".into(),
                payment_intent: Some("pi_1".into()),
                amount_refunded: Money::from_pence(20_000)
            })
        );
    }

    #[test]
    fn a_missing_required_field_names_the_event_and_the_field() {
        let body = edited(INTENT_SUCCEEDED, "/data/object/amount_received", None);
        let error = parse_event(&body).unwrap_err();
        assert!(matches!(error, EventError::UnexpectedObject { .. }));
        let message = error.to_string();
        assert!(
            message.starts_with("The payment_intent.succeeded event evt_3PtX2bHk3dQx7Lm20QwErTyU does not carry the expected object"),
            "{message}"
        );
        assert!(message.contains("missing field `amount_received`"), "{message}");

        let body = edited(CHECKOUT_COMPLETED, "/data/object/amount_total", Some(serde_json::Value::Null));
        assert!(matches!(parse_event(&body), Err(EventError::UnexpectedObject { .. })));
    }

    #[test]
    fn a_body_that_is_not_an_event_is_refused() {
        for body in [
            &b"not json"[..],
            br#"{"id":"evt_1","type":"payment_intent.succeeded"}"#,
            br#"{"type":"charge.refunded","data":{"object":{}}}"#,
        ] {
            assert!(matches!(parse_event(body), Err(EventError::NotAnEvent(_))), "{}", String::from_utf8_lossy(body));
        }
        let message = parse_event(br#"{"type":"charge.refunded","data":{"object":{}}}"#).unwrap_err().to_string();
        assert!(message.contains("missing field `id`"), "{message}");
    }
}
