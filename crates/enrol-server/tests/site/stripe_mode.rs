//! The enrol checkout with Stripe as the gateway: the same handlers talk to
//! Stripe's API (here a local server answering with recorded Stripe JSON)
//! and fulfil from Stripe-signed events.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::http::{HeaderMap, Uri};
use enrol_db::on_pool;
use enrol_server::config::PaymentsConfig;
use serde_json::{Value, json};

use crate::helpers::{Backend, spawn_app_with};

const WEBHOOK_SECRET: &str = "whsec_test_enrol";
const INTENT: &str = include_str!("../../../enrol-payments/tests/fixtures/payment_intent.json");
const SUCCEEDED: &str = include_str!("../../../enrol-payments/tests/fixtures/event_payment_intent_succeeded.json");

/// What the fake Stripe API received: path, idempotency key, form fields.
type Received = Arc<Mutex<Vec<(String, Option<String>, Vec<(String, String)>)>>>;

/// Answers every call with the recorded payment intent.
async fn fake_stripe() -> (String, Received) {
    let received: Received = Arc::default();
    let log = Arc::clone(&received);
    let app = axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap, body: Bytes| {
        let log = Arc::clone(&log);
        async move {
            let key = headers.get("idempotency-key").map(|v| v.to_str().unwrap().to_owned());
            let form: Vec<(String, String)> = serde_urlencoded::from_bytes(&body).unwrap();
            log.lock().unwrap().push((uri.path().to_owned(), key, form));
            ([("content-type", "application/json")], INTENT)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, received)
}

fn field<'a>(form: &'a [(String, String)], key: &str) -> Option<&'a str> {
    form.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checkout_pays_through_stripe_and_fulfils_from_its_signed_event() {
    let (base, received) = fake_stripe().await;
    let app = spawn_app_with(Backend::Sqlite, |config| {
        config.payments = PaymentsConfig::Stripe {
            secret_key: "sk_test_enrol".into(),
            publishable_key: "pk_test_enrol".into(),
            webhook_secret: WEBHOOK_SECRET.into(),
            api_base: Some(base),
        };
    })
    .await
    .expect("SQLite is always available");

    let response = app.get("/api/page-data?path=/checkout/").await;
    let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let boot = enrol_server::document::boot_script_source();
    assert!(csp.contains(&format!("script-src 'self' {boot} https://js.stripe.com;")), "{csp}");
    let data: Value = response.json().await.unwrap();
    assert_eq!((data["page"]["gateway"].as_str(), data["page"]["publishableKey"].as_str()), (Some("stripe"), Some("pk_test_enrol")));
    assert_eq!(app.get("/sandbox/checkout/cs_anything").await.status().as_u16(), 404, "no sandbox pages with Stripe");

    let intent: Value =
        app.client.post(app.url("/api/checkout/")).json(&json!({ "amount": 10000 })).send().await.unwrap().json().await.unwrap();
    assert_eq!(intent["id"], "pi_3PtX2bHk3dQx7Lm20ZxCvBnM");
    let order = json!({ "data": {
        "discount": null, "contact": { "name": "Sam", "surname": "Lee", "email": "sam@example.com", "phone": "07700900123" },
        "selected": "card", "mode": "fee",
        "enrollment": { "total": 69500, "deposit": 10000, "balance": 59500, "deposit_required": true,
            "metadata": [{ "courseId": "chemical-peels", "sessionId": "chemical-peels-1", "includeKit": false }],
            "method": "stripe", "acct": null, "status": "pending", "type": "student", "organization": null },
        "agreed": crate::enrol_checkout::agreed(),
        "metadata": {},
    }});
    let created: Value = app.client.post(app.url("/api/enroll/")).json(&order).send().await.unwrap().json().await.unwrap();
    let order_id = created["id"].as_str().expect("an order").to_owned();
    let update = json!({ "intent": intent["id"], "amount": 10000, "customerId": null, "email": null, "metadata": {
        "Order ID": order_id, "name": "Sam", "surname": "Lee", "phone": "+447700900123", "email": "sam@example.com", "type": "booking-fee" } });
    assert_eq!(app.client.put(app.url("/api/checkout/")).json(&update).send().await.unwrap().status().as_u16(), 200);

    {
        let calls = received.lock().unwrap();
        assert_eq!(calls.len(), 2, "{calls:?}");
        let (path, key, form) = &calls[0];
        assert_eq!(path, "/v1/payment_intents");
        assert!(key.is_some(), "creates carry an idempotency key");
        assert_eq!(field(form, "amount"), Some("10000"));
        assert_eq!(field(form, "currency"), Some("gbp"));
        let (path, _, form) = &calls[1];
        assert_eq!(path, "/v1/payment_intents/pi_3PtX2bHk3dQx7Lm20ZxCvBnM");
        assert_eq!(field(form, "amount"), Some("10000"));
        assert_eq!(field(form, "metadata[Order ID]"), Some(order_id.as_str()));
        assert_eq!(field(form, "metadata[type]"), Some("booking-fee"));
        assert_eq!(field(form, "payment_method_types[0]"), Some("card"));
        assert_eq!(field(form, "payment_method_types[1]"), None, "the booking fee is paid by card only");
    }

    let mut event: Value = serde_json::from_str(SUCCEEDED).unwrap();
    event["data"]["object"]["metadata"] = json!({ "Order ID": order_id, "type": "booking-fee" });
    event["data"]["object"]["amount"] = json!(10000);
    event["data"]["object"]["amount_received"] = json!(10000);
    // As the update above left it: the booking fee by card only.
    event["data"]["object"]["payment_method_types"] = json!(["card"]);
    let body = serde_json::to_vec(&event).unwrap();
    let sign = |secret: &str| enrol_payments::signature::sign(&body, secret, chrono::Utc::now().timestamp());
    let post = |header: String| app.client.post(app.url("/webhooks/payments")).header("stripe-signature", header).body(body.clone()).send();
    assert_eq!(post(sign("whsec_someone_else")).await.unwrap().status().as_u16(), 400);
    assert_eq!(post(sign(WEBHOOK_SECRET)).await.unwrap().status().as_u16(), 200);
    let status: String =
        on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(&order_id).fetch_one(pool).await)
            .unwrap();
    assert_eq!(status, "deposit");
    let (amount, method): (i64, String) = on_pool!(app.db(), pool => sqlx::query_as("select amount, method from payment where enrollment_id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
    assert_eq!((amount, method.as_str()), (10000, "card"));
    app.stop().await;
}
