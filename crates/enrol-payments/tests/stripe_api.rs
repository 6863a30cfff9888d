//! `StripeGateway` against a local server that answers with recorded Stripe
//! JSON and records exactly what it was sent. No network.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use enrol_domain::money::Money;
use enrol_payments::{
    ChargeOutcome, CheckoutLine, CheckoutRequest, CheckoutSession, GatewayError, GatewayKind, IntentRequest, IntentUpdate, PaymentGateway,
    PaymentIntent, SavedCardCharge, StripeGateway,
};

const SECRET_KEY: &str = "sk_test_51Hx0TestSecretKey";

/// What the mock received.
#[derive(Debug)]
struct Received {
    method: Method,
    path: String,
    headers: HeaderMap,
    form: Vec<(String, String)>,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|value| value.to_str().unwrap())
    }

    fn fields(&self) -> Vec<(&str, &str)> {
        self.form.iter().map(|(key, value)| (key.as_str(), value.as_str())).collect()
    }
}

/// Starts a server on 127.0.0.1:0 that answers every request with `status`
/// and `body`; returns a gateway pointed at it and the requests it received.
async fn mock_stripe(status: StatusCode, body: &'static str) -> (StripeGateway, Arc<Mutex<Vec<Received>>>) {
    let received = Arc::new(Mutex::new(Vec::new()));
    let log = received.clone();
    let app = axum::Router::new().fallback(move |method: Method, uri: Uri, headers: HeaderMap, body_bytes: Bytes| {
        let log = log.clone();
        async move {
            let form = serde_urlencoded::from_bytes(&body_bytes).unwrap();
            log.lock().unwrap().push(Received { method, path: uri.to_string(), headers, form });
            (status, [("content-type", "application/json"), ("request-id", "req_mock")], body)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let gateway = StripeGateway::new(SECRET_KEY.into(), "pk_test_51Hx0Public".into(), "whsec_test".into()).with_api_base(base);
    (gateway, received)
}

fn only_request(received: &Mutex<Vec<Received>>) -> Received {
    let mut received = received.lock().unwrap();
    assert_eq!(received.len(), 1, "expected exactly one request: {received:?}");
    received.pop().unwrap()
}

fn checkout_request() -> CheckoutRequest {
    CheckoutRequest {
        idempotency_key: "checkout-ord_01J6Z4K8N2QX5V7B9C3D".into(),
        client_reference_id: "ord_01J6Z4K8N2QX5V7B9C3D".into(),
        lines: vec![
            CheckoutLine::Price {
                price_id: "price_1PfoodHygieneL2".into(),
                name: "Food Hygiene Level 2".into(),
                unit_amount: Money::from_pence(9999),
            },
            CheckoutLine::Inline {
                product: "prod_QkCertificatePost".into(),
                name: "Printed certificate".into(),
                unit_amount: Money::from_pence(3999),
            },
        ],
        success_url: "https://enrol.example/e-learning/thank-you?session_id={CHECKOUT_SESSION_ID}".into(),
        cancel_url: "https://enrol.example/e-learning/basket".into(),
        metadata: BTreeMap::from([("order_id".into(), "ord_01J6Z4K8N2QX5V7B9C3D".into())]),
    }
}

fn intent_request() -> IntentRequest {
    IntentRequest {
        idempotency_key: "intent-enr_4821-1".into(),
        amount: Money::from_pence(125_000),
        customer: Some("cus_QkL9mN8bV7cX6z".into()),
        receipt_email: Some("sam.taylor@example.co.uk".into()),
        payment_method_types: vec!["card".into(), "klarna".into(), "afterpay_clearpay".into()],
        metadata: BTreeMap::from([("enrollment_id".into(), "enr_4821".into())]),
    }
}

fn expected_intent() -> PaymentIntent {
    PaymentIntent {
        id: "pi_3PtX2bHk3dQx7Lm20ZxCvBnM".into(),
        client_secret: "pi_3PtX2bHk3dQx7Lm20ZxCvBnM_secret_Qw1Er2Ty3Ui4Op5As6Df7Gh8J".into(),
        amount: Money::from_pence(125_000),
        status: "requires_payment_method".into(),
        metadata: BTreeMap::from([("enrollment_id".into(), "enr_4821".into())]),
    }
}

#[tokio::test]
async fn creates_a_checkout_session_with_bracket_encoded_lines() {
    let (stripe, received) = mock_stripe(StatusCode::OK, include_str!("fixtures/checkout_session.json")).await;

    let session = stripe.create_checkout_session(&checkout_request()).await.unwrap();

    assert_eq!(
        session,
        CheckoutSession {
            id: "cs_test_b1Qw2Er3Ty4Ui5Op6As7Df8Gh9Jk0Lz1Xc2Vb3Nm4Qw5Er6Ty7Ui8Op9".into(),
            url: "https://checkout.stripe.com/c/pay/cs_test_b1Qw2Er3Ty4Ui5Op6As7Df8Gh9Jk0Lz1Xc2Vb3Nm4Qw5Er6Ty7Ui8Op9#fidkdWxOYHwnPyd1blpxYHZxWjA0TjVTcH1QYWNNMnJhbTdEV2NiZnRnSXRPQW9EYE1LYk9XR1Q0UUxAVlBxR0c2XF8xQE1UfScpJ2N3amhWYHdzYHcnP3F3cGApJ2lkfGpwcVF8dWAnPyd2bGtiaWBabHFgaCcpJ2BrZGdpYFVpZGZgbWppYWB3dic%2FcXdwYHgl".into(),
        }
    );
    let request = only_request(&received);
    assert_eq!(request.method, Method::POST);
    assert_eq!(request.path, "/v1/checkout/sessions");
    assert_eq!(request.header("authorization"), Some("Bearer sk_test_51Hx0TestSecretKey"));
    assert_eq!(request.header("idempotency-key"), Some("checkout-ord_01J6Z4K8N2QX5V7B9C3D"));
    assert_eq!(request.header("content-type"), Some("application/x-www-form-urlencoded"));
    assert_eq!(
        request.fields(),
        [
            ("mode", "payment"),
            ("client_reference_id", "ord_01J6Z4K8N2QX5V7B9C3D"),
            ("success_url", "https://enrol.example/e-learning/thank-you?session_id={CHECKOUT_SESSION_ID}"),
            ("cancel_url", "https://enrol.example/e-learning/basket"),
            ("line_items[0][price]", "price_1PfoodHygieneL2"),
            ("line_items[0][quantity]", "1"),
            ("line_items[1][price_data][currency]", "gbp"),
            ("line_items[1][price_data][product]", "prod_QkCertificatePost"),
            ("line_items[1][price_data][unit_amount]", "3999"),
            ("line_items[1][quantity]", "1"),
            ("metadata[order_id]", "ord_01J6Z4K8N2QX5V7B9C3D"),
        ]
    );
}

#[tokio::test]
async fn an_inline_upsell_line_never_sends_a_price() {
    let (stripe, received) = mock_stripe(StatusCode::OK, include_str!("fixtures/checkout_session.json")).await;
    let request = CheckoutRequest {
        lines: vec![CheckoutLine::Inline {
            product: "prod_QkCertificatePost".into(),
            name: "Printed certificate".into(),
            unit_amount: Money::from_pence(3999),
        }],
        ..checkout_request()
    };

    stripe.create_checkout_session(&request).await.unwrap();

    let request = only_request(&received);
    let line_keys: Vec<&str> = request.fields().into_iter().map(|(key, _)| key).filter(|key| key.starts_with("line_items[0]")).collect();
    assert_eq!(
        line_keys,
        [
            "line_items[0][price_data][currency]",
            "line_items[0][price_data][product]",
            "line_items[0][price_data][unit_amount]",
            "line_items[0][quantity]"
        ]
    );
}

#[tokio::test]
async fn creates_a_payment_intent() {
    let (stripe, received) = mock_stripe(StatusCode::OK, include_str!("fixtures/payment_intent.json")).await;

    let intent = stripe.create_payment_intent(&intent_request()).await.unwrap();

    assert_eq!(intent, expected_intent());
    let request = only_request(&received);
    assert_eq!(request.method, Method::POST);
    assert_eq!(request.path, "/v1/payment_intents");
    assert_eq!(request.header("authorization"), Some("Bearer sk_test_51Hx0TestSecretKey"));
    assert_eq!(request.header("idempotency-key"), Some("intent-enr_4821-1"));
    assert_eq!(
        request.fields(),
        [
            ("amount", "125000"),
            ("currency", "gbp"),
            ("customer", "cus_QkL9mN8bV7cX6z"),
            ("receipt_email", "sam.taylor@example.co.uk"),
            ("payment_method_types[0]", "card"),
            ("payment_method_types[1]", "klarna"),
            ("payment_method_types[2]", "afterpay_clearpay"),
            ("metadata[enrollment_id]", "enr_4821"),
        ]
    );
}

#[tokio::test]
async fn a_guest_intent_sends_no_customer_or_receipt_email() {
    let (stripe, received) = mock_stripe(StatusCode::OK, include_str!("fixtures/payment_intent.json")).await;
    let request = IntentRequest {
        customer: None,
        receipt_email: None,
        payment_method_types: vec!["card".into()],
        metadata: BTreeMap::new(),
        ..intent_request()
    };

    stripe.create_payment_intent(&request).await.unwrap();

    assert_eq!(only_request(&received).fields(), [("amount", "125000"), ("currency", "gbp"), ("payment_method_types[0]", "card")]);
}

#[tokio::test]
async fn updates_a_payment_intent() {
    let (stripe, received) = mock_stripe(StatusCode::OK, include_str!("fixtures/payment_intent.json")).await;
    let update = IntentUpdate {
        amount: Money::from_pence(30_000),
        payment_method_types: vec!["card".into()],
        metadata: BTreeMap::from([("enrollment_id".into(), "enr_4821".into()), ("deposit".into(), "true".into())]),
        save_card_for: None,
    };

    let intent = stripe.update_payment_intent("pi_3PtX2bHk3dQx7Lm20ZxCvBnM", &update).await.unwrap();

    assert_eq!(intent, expected_intent());
    let request = only_request(&received);
    assert_eq!(request.method, Method::POST);
    assert_eq!(request.path, "/v1/payment_intents/pi_3PtX2bHk3dQx7Lm20ZxCvBnM");
    assert_eq!(request.header("authorization"), Some("Bearer sk_test_51Hx0TestSecretKey"));
    assert_eq!(request.header("idempotency-key"), None, "an update is not a create");
    assert_eq!(
        request.fields(),
        [("amount", "30000"), ("payment_method_types[0]", "card"), ("metadata[deposit]", "true"), ("metadata[enrollment_id]", "enr_4821")]
    );
}

#[tokio::test]
async fn a_booking_fee_with_a_plan_saves_its_card_to_the_customer() {
    let (stripe, received) = mock_stripe(StatusCode::OK, include_str!("fixtures/payment_intent.json")).await;
    let update = IntentUpdate {
        amount: Money::from_pence(10_000),
        payment_method_types: vec!["card".into()],
        metadata: BTreeMap::new(),
        save_card_for: Some("cus_QkL9mN8bV7cX6z".into()),
    };

    stripe.update_payment_intent("pi_3PtX2bHk3dQx7Lm20ZxCvBnM", &update).await.unwrap();

    assert_eq!(
        only_request(&received).fields(),
        [
            ("amount", "10000"),
            ("customer", "cus_QkL9mN8bV7cX6z"),
            ("setup_future_usage", "off_session"),
            ("payment_method_types[0]", "card")
        ]
    );
}

#[tokio::test]
async fn an_instalment_charges_the_saved_card_off_session_and_reads_the_banks_answer() {
    let charge = SavedCardCharge {
        idempotency_key: "instalment-part1-1".into(),
        amount: Money::from_pence(63_168),
        customer: "cus_QkL9mN8bV7cX6z".into(),
        payment_method: "pm_1PtX3cHk3dQx7Lm2KlZxCvBn".into(),
        metadata: BTreeMap::from([("type".into(), "instalment".into())]),
    };
    let wants_owner = r#"{"error":{"type":"card_error","code":"authentication_required","message":"This payment requires authentication.",
        "payment_intent":{"id":"pi_3PtX2bHk3dQx7Lm20ZxCvBnM","status":"requires_payment_method"}}}"#;
    let (stripe, received) = mock_stripe(StatusCode::PAYMENT_REQUIRED, wants_owner).await;

    let outcome = stripe.charge_saved_card(&charge).await.unwrap();

    assert_eq!(outcome, ChargeOutcome::NeedsAuthentication { intent_id: Some("pi_3PtX2bHk3dQx7Lm20ZxCvBnM".into()) });
    let request = only_request(&received);
    assert_eq!(request.path, "/v1/payment_intents");
    assert_eq!(request.header("idempotency-key"), Some("instalment-part1-1"), "a retried request never charges twice");
    assert_eq!(
        request.fields(),
        [
            ("amount", "63168"),
            ("currency", "gbp"),
            ("customer", "cus_QkL9mN8bV7cX6z"),
            ("payment_method", "pm_1PtX3cHk3dQx7Lm2KlZxCvBn"),
            ("confirm", "true"),
            ("off_session", "true"),
            ("metadata[type]", "instalment"),
        ]
    );

    let (stripe, _) = mock_stripe(StatusCode::OK, r#"{"id":"pi_paid","object":"payment_intent","status":"succeeded"}"#).await;
    assert_eq!(stripe.charge_saved_card(&charge).await.unwrap(), ChargeOutcome::Accepted { intent_id: "pi_paid".into() });
    let (stripe, _) =
        mock_stripe(StatusCode::UNAUTHORIZED, r#"{"error":{"type":"invalid_request_error","message":"Invalid API Key"}}"#).await;
    assert!(matches!(stripe.charge_saved_card(&charge).await, Err(GatewayError::Unavailable(_))), "our key is not the bank's refusal");
}

#[tokio::test]
async fn retrieves_a_payment_intent() {
    let (stripe, received) = mock_stripe(StatusCode::OK, include_str!("fixtures/payment_intent.json")).await;

    let intent = stripe.retrieve_payment_intent("pi_3PtX2bHk3dQx7Lm20ZxCvBnM").await.unwrap();

    assert_eq!(intent, expected_intent());
    let request = only_request(&received);
    assert_eq!(request.method, Method::GET);
    assert_eq!(request.path, "/v1/payment_intents/pi_3PtX2bHk3dQx7Lm20ZxCvBnM");
    assert_eq!(request.header("authorization"), Some("Bearer sk_test_51Hx0TestSecretKey"));
    assert!(request.form.is_empty());
}

#[tokio::test]
async fn a_declined_card_is_refused_with_stripes_message() {
    let (stripe, _) = mock_stripe(StatusCode::PAYMENT_REQUIRED, include_str!("fixtures/error_card_declined.json")).await;

    let error = stripe.create_payment_intent(&intent_request()).await.unwrap_err();

    assert!(matches!(&error, GatewayError::Refused(message) if message == "Your card was declined."), "{error:?}");
    assert_eq!(error.to_string(), "Your card was declined.");
}

#[tokio::test]
async fn a_stripe_server_error_is_unavailable() {
    let (stripe, _) = mock_stripe(StatusCode::INTERNAL_SERVER_ERROR, include_str!("fixtures/error_api.json")).await;

    let error = stripe.create_checkout_session(&checkout_request()).await.unwrap_err();

    assert!(matches!(&error, GatewayError::Unavailable(_)), "{error:?}");
    assert!(error.to_string().contains("500"), "{error}");
}

#[tokio::test]
async fn a_bad_api_key_is_unavailable_and_its_message_is_not_passed_on() {
    let body = r#"{"error":{"message":"Invalid API Key provided: sk_test_****tKey","type":"invalid_request_error"}}"#;
    let (stripe, _) = mock_stripe(StatusCode::UNAUTHORIZED, body).await;

    let error = stripe.retrieve_payment_intent("pi_3PtX2bHk3dQx7Lm20ZxCvBnM").await.unwrap_err();

    assert!(matches!(&error, GatewayError::Unavailable(_)), "{error:?}");
    assert!(!error.to_string().contains("sk_test"), "{error}");
}

#[tokio::test]
async fn an_unexpected_success_body_is_unavailable() {
    let (stripe, _) = mock_stripe(StatusCode::OK, r#"{"id":"pi_1","object":"payment_intent"}"#).await;

    let error = stripe.retrieve_payment_intent("pi_1").await.unwrap_err();

    assert!(matches!(&error, GatewayError::Unavailable(message) if message.contains("unexpected body")), "{error:?}");
}

#[tokio::test]
async fn an_unreachable_stripe_is_unavailable() {
    // A port that was free a moment ago and has no listener now.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let stripe = StripeGateway::new(SECRET_KEY.into(), "pk".into(), "whsec".into()).with_api_base(format!("http://127.0.0.1:{port}/"));

    let error = stripe.create_payment_intent(&intent_request()).await.unwrap_err();

    assert!(matches!(&error, GatewayError::Unavailable(message) if message.starts_with("could not reach Stripe")), "{error:?}");
    assert!(!error.to_string().contains(SECRET_KEY));
}

#[test]
fn names_itself_and_its_keys() {
    let stripe = StripeGateway::new(SECRET_KEY.into(), "pk_test_51Hx0Public".into(), "whsec_live_endpoint".into());
    assert_eq!(stripe.kind(), GatewayKind::Stripe);
    assert_eq!(stripe.publishable_key(), Some("pk_test_51Hx0Public"));
    assert_eq!(stripe.webhook_secret(), "whsec_live_endpoint");
}
