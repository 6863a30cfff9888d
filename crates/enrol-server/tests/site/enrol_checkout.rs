//! Enrolling on in-person courses: the server prices every order, holds
//! seats while the visitor pays, and fulfils once by signed webhook.

use enrol_db::on_pool;
use enrol_domain::enrollment::{Discount, DiscountType, LinePrice, Quote};
use enrol_domain::money::Money;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::TestApp;

/// The demo's Chemical Peels Course: a priced kit, sessions 1 and 3 with
/// free seats, session 2 full.
pub(crate) const COURSE: &str = "chemical-peels";
const PRICE: i64 = 69_500;
const KIT_POUNDS: i64 = 120;

pub(crate) async fn count(app: &TestApp, sql: &str) -> i64 {
    let sql = sql.to_owned();
    on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.clone())).fetch_one(pool).await).expect("count")
}

pub(crate) async fn execute(app: &TestApp, sql: &str) {
    let sql = sql.to_owned();
    on_pool!(app.db(), pool => sqlx::query(sqlx::AssertSqlSafe(sql.clone())).execute(pool).await.map(drop)).expect("statement");
}

pub(crate) async fn post(app: &TestApp, path: &str, body: &Value) -> (u16, Value) {
    let response = app.client.post(app.url(path)).json(body).send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

pub(crate) async fn put(app: &TestApp, path: &str, body: &Value) -> (u16, Value) {
    let response = app.client.put(app.url(path)).json(body).send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

pub(crate) fn quote(kit: bool, discount: Option<Discount>) -> Quote {
    Quote::new(&[LinePrice { price: Money::from_pence(PRICE), kit_pounds: kit.then_some(KIT_POUNDS), code_applies: true }], discount)
}

fn contact() -> Value {
    json!({ "name": "Sam", "surname": "Lee", "email": "Sam.Lee@Example.com", "phone": "07700 900123" })
}

/// What the checkout page sends as agreed for [`COURSE`], whose entry
/// requirements are confirmed with the terms.
pub(crate) fn agreed() -> Value {
    json!({ "version": enrol_domain::consent::CONSENT_VERSION, "terms": true, "entryRequirements": [COURSE] })
}

/// The `POST /api/enroll/` body as the checkout page sends it.
pub(crate) fn order(session: &str, kit: bool, code: Option<&str>, selected: &str, q: &Quote) -> Value {
    let mode = if selected == "card" { "fee" } else { "full" };
    json!({ "data": {
        "discount": code,
        "contact": contact(),
        "selected": selected,
        "mode": mode,
        "enrollment": {
            "total": q.total, "deposit": q.deposit, "balance": q.balance, "deposit_required": mode == "fee",
            "metadata": [{ "courseId": COURSE, "sessionId": session, "includeKit": kit }],
            "method": "stripe", "acct": null, "status": "pending", "type": "student", "organization": null,
        },
        "agreed": agreed(),
        "metadata": { "utm_source": "newsletter" },
    }})
}

pub(crate) fn intent_update(intent: &str, order_id: &str, amount: Money, kind: &str) -> Value {
    json!({
        "intent": intent, "amount": amount, "customerId": null, "email": "sam.lee@example.com",
        "metadata": { "Order ID": order_id, "name": "Sam", "surname": "Lee", "phone": "+447700900123", "email": "sam.lee@example.com", "type": kind },
    })
}

/// Creates the booking-fee intent, the order and prepares the payment.
pub(crate) async fn prepared(app: &TestApp, body: &Value, amount: Money, kind: &str) -> (String, String, String) {
    let (status, intent) = post(app, "/api/checkout/", &json!({ "amount": 10000 })).await;
    assert_eq!(status, 200, "{intent}");
    let (status, created) = post(app, "/api/enroll/", body).await;
    assert_eq!(status, 200, "{created}");
    let order_id = created["id"].as_str().unwrap().to_owned();
    let intent_id = intent["id"].as_str().unwrap().to_owned();
    let (status, updated) = put(app, "/api/checkout/", &intent_update(&intent_id, &order_id, amount, kind)).await;
    assert_eq!(status, 200, "{updated}");
    (order_id, intent_id, updated["client_secret"].as_str().unwrap().to_owned())
}

pub(crate) async fn confirm(app: &TestApp, intent: &str, secret: &str, order_id: &str, method: &str, card: Option<&str>) -> (u16, Value) {
    let card = card.map(|number| json!({ "number": number, "expiry": "12 / 34", "cvc": "123" }));
    let body = json!({ "client_secret": secret, "payment_method": method, "card": card, "return_url": format!("{}/enrolment/{order_id}", app.address) });
    post(app, &format!("/sandbox/payment_intents/{intent}/confirm"), &body).await
}

async fn registrations(app: &TestApp, session: &str) -> i64 {
    count(app, &format!("select registrations from session where id = '{session}'")).await
}

both_backends! {
    async fn a_booking_fee_is_paid_by_card_and_fulfilled_once(app: TestApp) {
        let (status, basket) = post(&app, "/api/checkout/basket", &json!({ "courses": [
            { "courseId": COURSE, "sessionId": "chemical-peels-2", "includeKit": true },
            { "courseId": "no-such-course", "sessionId": null, "includeKit": false },
        ]})).await;
        assert_eq!(status, 200);
        assert_eq!(basket["removed"], json!(["no-such-course"]));
        let line = &basket["lines"][0];
        let offered: Vec<&str> = line["sessions"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
        assert_eq!(offered, ["chemical-peels-1", "chemical-peels-3"], "the full session is not offered");
        assert_eq!(line["sessionId"], "chemical-peels-1");
        assert!(line["notice"].as_str().unwrap().contains("fully booked"));
        assert_eq!((line["price"].as_i64(), line["wasPrice"].as_i64(), line["includeKit"].as_bool()), (Some(PRICE), Some(89_500), Some(true)));

        let (status, code) = post(&app, "/api/code", &json!({ "code": "welcome10" })).await;
        assert_eq!(status, 200);
        assert_eq!(code, json!({ "valid": true, "code": "WELCOME10", "value": 10, "type": "percent", "id": "WELCOME10" }));

        let q = quote(true, Some(Discount { kind: DiscountType::Percent, value: 10 }));
        let before = registrations(&app, "chemical-peels-3").await;
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-3", true, Some("WELCOME10"), "card", &q), q.deposit, "booking-fee").await;
        assert_eq!(count(&app, &format!("select count(*) from seat_hold where enrollment_id = '{order_id}'")).await, 1);

        let (status, paid) = confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 200, "{paid}");
        let redirect = paid["redirect"].as_str().unwrap();
        assert!(redirect.starts_with(&format!("/enrolment/{order_id}?payment_intent={intent}")) && redirect.ends_with("redirect_status=succeeded"), "{redirect}");

        let status: String = on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(status, "deposit");
        let amount: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select amount from payment where enrollment_id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(amount, 10_000);
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}' and session_id = 'chemical-peels-3' and type = 'STUDENT'")).await, 1);
        assert_eq!(registrations(&app, "chemical-peels-3").await, before + 1);
        assert_eq!(count(&app, "select count(*) from seat_hold").await, 0);
        assert_eq!(count(&app, "select uses from discount_code where code = 'WELCOME10'").await, 1);
        let mail = app.db().outbox(10).await.unwrap().into_iter().find(|m| m.to_address == "sam.lee@example.com").expect("a confirmation");
        assert!(mail.body_text.contains("Chemical Peels Course"), "{}", mail.body_text);
        assert!(mail.body_text.contains(&format!("Paid today: {}", Money::from_pence(10_000))));
        assert!(mail.body_text.contains(&format!("Balance to pay: {}", q.balance)));

        let (status, page) = app.text(redirect).await;
        assert_eq!(status, 200);
        assert!(page.contains("Chemical Peels Course"));
        let data: Value = app.get(&format!("/api/page-data?path=/enrolment/{order_id}")).await.json().await.unwrap();
        assert_eq!(data["page"]["kind"], "enrollment");
        assert_eq!(data["page"]["status"], "deposit");
        assert_eq!(data["page"]["paid"], 10_000);
        assert_eq!(data["page"]["balance"], q.total.pence() - 10_000);
        assert_eq!(data["page"]["lines"][0]["kitName"], "Professional peel kit");

        // The provider delivering the same event again, or paying twice, changes nothing.
        let event = json!({ "id": "evt_replayed", "object": "event", "type": "payment_intent.succeeded", "data": { "object": {
            "id": intent, "object": "payment_intent", "amount": 10_000, "amount_received": 10_000, "currency": "gbp",
            "metadata": { "Order ID": order_id, "type": "booking-fee" }, "status": "succeeded", "payment_method_types": ["card"],
        }}});
        let body = serde_json::to_vec(&event).unwrap();
        for _ in 0..10 {
            let header = enrol_payments::signature::sign(&body, app.state.payments.webhook_secret(), chrono::Utc::now().timestamp());
            let response = app.client.post(app.url("/webhooks/payments")).header("stripe-signature", header).body(body.clone()).send().await.unwrap();
            assert_eq!(response.status().as_u16(), 200);
        }
        let (status, again) = confirm(&app, &intent, &secret, &order_id, "card", Some("4242424242424242")).await;
        assert_eq!(status, 200, "{again}");
        assert_eq!(count(&app, &format!("select count(*) from payment where enrollment_id = '{order_id}'")).await, 1);
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}'")).await, 1);
        assert_eq!(registrations(&app, "chemical-peels-3").await, before + 1);
        assert_eq!(count(&app, "select count(*) from mail_outbox where to_address = 'sam.lee@example.com'").await, 1);
        app.stop().await;
    }

    async fn klarna_pays_the_full_total_after_approval(app: TestApp) {
        let q = quote(false, Some(Discount { kind: DiscountType::Pound, value: 5000 }));
        let mut body = order("chemical-peels-1", false, Some("SAVE50"), "klarna", &q);
        body["data"]["contact"] = json!({ "name": "", "surname": "", "email": "", "phone": "" });
        let (order_id, intent, secret) = prepared(&app, &body, q.total, "full-amount").await;
        let methods: String = on_pool!(app.db(), pool => sqlx::query_scalar("select payment_method_types from sandbox_payment_intent where id = $1").bind(&intent).fetch_one(pool).await).unwrap();
        assert_eq!(methods, r#"["card","klarna","afterpay_clearpay"]"#, "Clearpay is offered up to £1,200");

        let (status, answer) = confirm(&app, &intent, &secret, &order_id, "klarna", None).await;
        assert_eq!(status, 200, "{answer}");
        let provider_page = answer["redirect"].as_str().unwrap().to_owned();
        assert!(provider_page.starts_with(&format!("/sandbox/redirect/{intent}?method=klarna")));
        let (status, page) = app.text(&provider_page).await;
        assert_eq!(status, 200);
        assert!(page.contains(&format!("Pay {} with Klarna", q.total)));
        assert_eq!(count(&app, "select count(*) from payment").await, 0, "nothing is paid before approval");

        let form = [("decision", "approve"), ("method", "klarna"), ("return_url", &format!("/enrolment/{order_id}")), ("client_secret", &secret)];
        let response = app.client.post(app.url(&format!("/sandbox/redirect/{intent}"))).form(&form).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 303);
        assert!(response.headers()["location"].to_str().unwrap().ends_with("redirect_status=succeeded"));
        let status: String = on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(status, "completed");
        let amount: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select amount from payment where enrollment_id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(amount, q.total.pence());
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}'")).await, 1);
        app.stop().await;
    }

    async fn a_declined_card_or_a_denied_klarna_frees_the_seat(app: TestApp) {
        let q = quote(false, None);
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-1", false, None, "card", &q), q.deposit, "booking-fee").await;
        let (status, declined) = confirm(&app, &intent, &secret, &order_id, "card", Some("4000 0000 0000 0002")).await;
        assert_eq!(status, 402);
        assert_eq!(declined["error"]["message"], "Your card was declined.");
        let status: String = on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(status, "failed");
        assert_eq!(count(&app, "select count(*) from seat_hold").await, 0);
        assert_eq!(count(&app, "select count(*) from payment").await, 0);
        let response = app.get(&format!("/enrolment/{order_id}")).await;
        assert_eq!(response.status().as_u16(), 303);
        assert_eq!(response.headers()["location"], "/checkout/?status=failed");
        let (status, failed_page) = app.text("/checkout/?status=failed").await;
        assert_eq!(status, 200);
        assert!(failed_page.contains("Checkout"));

        let q = quote(false, None);
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-1", false, None, "klarna", &q), q.total, "full-amount").await;
        let without_secret = [("decision", "approve"), ("method", "klarna"), ("return_url", &format!("/enrolment/{order_id}"))];
        let response = app.client.post(app.url(&format!("/sandbox/redirect/{intent}"))).form(&without_secret).send().await.unwrap();
        assert_ne!(response.status().as_u16(), 303, "approving needs the intent's client secret");
        assert_eq!(count(&app, "select count(*) from payment").await, 0);
        let form = [("decision", "deny"), ("method", "klarna"), ("return_url", &format!("/enrolment/{order_id}")), ("client_secret", &secret)];
        let response = app.client.post(app.url(&format!("/sandbox/redirect/{intent}"))).form(&form).send().await.unwrap();
        let back = response.headers()["location"].to_str().unwrap().to_owned();
        assert!(back.ends_with("redirect_status=failed"), "{back}");
        let response = app.get(&back).await;
        assert_eq!(response.headers()["location"], "/checkout/?status=failed");
        assert_eq!(count(&app, "select count(*) from seat_hold").await, 0);
        assert_eq!(count(&app, "select count(*) from registration").await, 0);
        app.stop().await;
    }

    async fn tampered_amounts_foreign_sessions_and_spent_codes_are_refused(app: TestApp) {
        let q = quote(true, None);
        let foreign_session: String = on_pool!(app.db(), pool => sqlx::query_scalar(
            "select id from session where event_id <> 'chemical-peels' and registrations < seats limit 1"
        ).fetch_one(pool).await).unwrap();
        let cases: Vec<(Value, u16, &str)> = vec![
            ({ let mut b = order("chemical-peels-1", true, None, "card", &q); b["data"]["enrollment"]["total"] = json!(q.total.pence() - 1); b }, 422, "has changed"),
            ({ let mut b = order("chemical-peels-1", true, None, "card", &q); b["data"]["enrollment"]["deposit"] = json!(1); b }, 422, "has changed"),
            (order("chemical-peels-1", false, None, "card", &q), 422, "has changed"),
            (order(&foreign_session, true, None, "card", &q), 409, "no longer available"),
            (order("chemical-peels-2", true, None, "card", &q), 409, "Please choose another date"),
            (order("chemical-peels-1", true, Some("EXPIRED5"), "card", &q), 422, "can no longer be used"),
            ({ let mut b = order("chemical-peels-1", true, None, "card", &q); b["data"]["mode"] = json!("full"); b }, 400, "Card payments pay the booking fee"),
        ];
        for (body, status, message) in cases {
            let (got, answer) = post(&app, "/api/enroll/", &body).await;
            assert_eq!(got, status, "{body}: {answer}");
            assert!(answer["error"]["message"].as_str().unwrap().contains(message), "{message}: {answer}");
        }
        let mut online = order("chemical-peels-1", true, None, "card", &q);
        online["data"]["enrollment"]["metadata"] = json!([{ "courseId": "anatomy-and-physiology-online", "sessionId": null, "includeKit": false }]);
        assert_eq!(post(&app, "/api/enroll/", &online).await.0, 422);

        let mut nobody = order("chemical-peels-1", true, None, "card", &q);
        nobody["data"]["contact"] = json!({ "name": " ", "surname": "", "email": "", "phone": "" });
        let (status, answer) = post(&app, "/api/enroll/", &nobody).await;
        assert_eq!(status, 422);
        assert_eq!(answer["error"]["fields"], json!({
            "name": "Name is required", "surname": "Last name is required", "email": "Email is required", "phone": "Phone number is required",
        }));
        assert_eq!(count(&app, "select count(*) from enrollment").await, 0);
        assert_eq!(count(&app, "select count(*) from seat_hold").await, 0);

        // Codes: empty, unknown, expired and used up.
        let (status, answer) = post(&app, "/api/code", &json!({ "code": "  " })).await;
        assert_eq!((status, answer["error"]["message"].as_str()), (400, Some("Discount code required")));
        for code in ["NOPE", "EXPIRED5"] {
            assert_eq!(post(&app, "/api/code", &json!({ "code": code })).await.1["valid"], false, "{code}");
        }
        execute(&app, "update discount_code set uses = max_uses where code = 'FRIEND100'").await;
        assert_eq!(post(&app, "/api/code", &json!({ "code": "FRIEND100" })).await.1["valid"], false);

        // The intent: only the booking fee first, then only the order's own amount.
        assert_eq!(post(&app, "/api/checkout/", &json!({ "amount": 1 })).await.0, 422);
        assert_eq!(post(&app, "/api/checkout/", &json!({ "amount": 10000, "customerId": "cus_unknown" })).await.0, 422);
        execute(&app, "insert into user_account (id, email, stripe_id) values ('u1', 'known@example.com', 'cus_known')").await;
        let (status, intent) = post(&app, "/api/checkout/", &json!({ "amount": 10000, "customerId": "cus_known", "email": "known@example.com" })).await;
        assert_eq!(status, 200, "{intent}");
        let (_, created) = post(&app, "/api/enroll/", &order("chemical-peels-1", true, None, "card", &q)).await;
        let order_id = created["id"].as_str().unwrap();
        let intent_id = intent["id"].as_str().unwrap();
        for (amount, kind) in [(q.deposit.pence() - 1, "booking-fee"), (q.total.pence(), "full-amount"), (q.total.pence(), "booking-fee")] {
            let (status, answer) = put(&app, "/api/checkout/", &intent_update(intent_id, order_id, Money::from_pence(amount), kind)).await;
            assert_eq!(status, 422, "{amount} {kind}: {answer}");
        }
        let (status, _) = put(&app, "/api/checkout/", &intent_update(intent_id, "not-an-order", q.deposit, "booking-fee")).await;
        assert_eq!(status, 404);
        let amount: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select amount from sandbox_payment_intent where id = $1").bind(intent_id).fetch_one(pool).await).unwrap();
        assert_eq!(amount, 10_000, "refused updates leave the intent alone");
        app.stop().await;
    }

    async fn two_hundred_orders_for_ten_seats_hold_exactly_ten(app: TestApp) {
        execute(&app, "update session set seats = 10, registrations = 0 where id = 'chemical-peels-1'").await;
        let second = app.another_instance().await;
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let mut requests = tokio::task::JoinSet::new();
        for i in 0..200 {
            let target = if i % 2 == 0 { &app } else { &second };
            let client = format!("10.2.{}.{}", i / 100, i % 100);
            let request = target.client.post(target.url("/api/enroll/")).header("x-forwarded-for", client).json(&body);
            requests.spawn(async move { request.send().await.expect("request").status().as_u16() });
        }
        let statuses = requests.join_all().await;
        assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 10, "{statuses:?}");
        assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 190, "{statuses:?}");
        assert_eq!(count(&app, "select count(*) from seat_hold where session_id = 'chemical-peels-1'").await, 10);
        assert_eq!(count(&app, "select count(*) from enrollment").await, 10);
        let (_, basket) = post(&app, "/api/checkout/basket", &json!({ "courses": [{ "courseId": COURSE, "sessionId": "chemical-peels-1", "includeKit": false }] })).await;
        assert_eq!(basket["lines"][0]["sessionId"], "chemical-peels-3", "a held session is not offered");
        second.stop().await;
        app.stop().await;
    }

    async fn orders_of_two_dates_racing_for_the_last_seat_of_one_hold_both_seats_or_neither(app: TestApp) {
        // Chemical peels 1 has room; the fillers' second date one seat left.
        execute(&app, "update session set seats = 8, registrations = 7 where id = 'foundation-dermal-fillers-2'").await;
        let q = Quote::new(
            &[
                LinePrice { price: Money::from_pence(PRICE), kit_pounds: None, code_applies: true },
                LinePrice { price: Money::from_pence(125_000), kit_pounds: None, code_applies: true },
            ],
            None,
        );
        let mut body = order("chemical-peels-1", false, None, "card", &q);
        body["data"]["enrollment"]["metadata"] = json!([
            { "courseId": COURSE, "sessionId": "chemical-peels-1", "includeKit": false },
            { "courseId": "foundation-dermal-fillers", "sessionId": "foundation-dermal-fillers-2", "includeKit": false },
        ]);
        body["data"]["agreed"]["entryRequirements"] = json!([COURSE, "foundation-dermal-fillers"]);
        let second = app.another_instance().await;
        let mut requests = tokio::task::JoinSet::new();
        for i in 0..12 {
            let target = if i % 2 == 0 { &app } else { &second };
            let request = target.client.post(target.url("/api/enroll/")).header("x-forwarded-for", format!("10.3.0.{i}")).json(&body);
            requests.spawn(async move {
                let answer = request.send().await.expect("request");
                (answer.status().as_u16(), answer.text().await.expect("body"))
            });
        }
        let answers = requests.join_all().await;
        let placed: Vec<&String> = answers.iter().filter(|(status, _)| *status == 200).map(|(_, body)| body).collect();
        assert_eq!(placed.len(), 1, "{answers:?}");
        assert!(answers.iter().all(|(status, _)| [200, 409].contains(status)), "{answers:?}");
        let id = serde_json::from_str::<Value>(placed[0]).unwrap()["id"].as_str().unwrap().to_owned();
        assert_eq!(count(&app, &format!("select count(*) from seat_hold where enrollment_id = '{id}'")).await, 2, "a seat of each date");
        assert_eq!(count(&app, "select count(*) from seat_hold").await, 2, "a refused order keeps no seat of the date that had room");
        assert_eq!(count(&app, "select count(*) from enrollment").await, 1);
        assert_eq!(count(&app, "select holds from session where id = 'chemical-peels-1'").await, 1);
        second.stop().await;
        app.stop().await;
    }

    async fn a_payment_after_the_hold_ran_out_never_takes_a_held_seat(app: TestApp) {
        execute(&app, "update session set seats = 1, registrations = 0 where id = 'chemical-peels-1'").await;
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let (late, late_intent, late_secret) = prepared(&app, &body, q.deposit, "booking-fee").await;
        execute(&app, &format!("update seat_hold set expires_at = '2000-01-01T00:00:00Z' where enrollment_id = '{late}'")).await;
        let (first, first_intent, first_secret) = prepared(&app, &body, q.deposit, "booking-fee").await;

        let (status, _) = confirm(&app, &late_intent, &late_secret, &late, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 200);
        assert_eq!(count(&app, &format!("select count(*) from payment where enrollment_id = '{late}'")).await, 1, "the money is recorded");
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{late}'")).await, 0);
        assert_eq!(count(&app, &format!("select count(*) from enrollment where id = '{late}' and call")).await, 1);
        let college = app.db().site().await.unwrap().unwrap().site.email_address;
        let reference = app.db().enrollment(&late).await.unwrap().unwrap().reference;
        assert!(app.db().outbox(10).await.unwrap().iter().any(|m| m.to_address == college && m.subject.contains(&reference)));

        let (status, _) = confirm(&app, &first_intent, &first_secret, &first, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 200);
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{first}'")).await, 1);
        assert_eq!(registrations(&app, "chemical-peels-1").await, 1, "never oversold");
        app.stop().await;
    }

    async fn a_payment_whose_webhook_never_came_is_found_and_fulfilled_once(app: TestApp) {
        use enrol_server::reconcile::{Report, reconcile};
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let (lost, lost_intent, _) = prepared(&app, &body, q.deposit, "booking-fee").await;
        let (unpaid, _, _) = prepared(&app, &body, q.deposit, "booking-fee").await;
        // The provider took the money, but its event never arrived.
        execute(&app, &format!("update sandbox_payment_intent set status = 'succeeded' where id = '{lost_intent}'")).await;

        let now = chrono::Utc::now();
        assert_eq!(reconcile(&app.state, now).await.unwrap(), Report { checked: 0, fulfilled: 0 }, "webhooks get ten minutes first");
        let later = now + chrono::Duration::minutes(11);
        assert_eq!(reconcile(&app.state, later).await.unwrap(), Report { checked: 2, fulfilled: 1 });
        let status: String = on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(&lost).fetch_one(pool).await).unwrap();
        assert_eq!(status, "deposit");
        assert_eq!(count(&app, &format!("select count(*) from payment where enrollment_id = '{lost}' and amount = 10000")).await, 1);
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{lost}'")).await, 1);
        let status: String = on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(&unpaid).fetch_one(pool).await).unwrap();
        assert_eq!(status, "pending", "an unpaid order is left alone");

        assert_eq!(reconcile(&app.state, later).await.unwrap(), Report { checked: 1, fulfilled: 0 });
        assert_eq!(count(&app, "select count(*) from payment").await, 1);
        app.stop().await;
    }

    async fn a_payment_plan_request_is_stored_and_mailed(app: TestApp) {
        let (status, answer) = post(&app, "/api/callback/", &json!({
            "first_name": "", "last_name": "", "email": "", "phone_number": "", "courses": ["Chemical Peels Course"], "type": "finance",
        })).await;
        assert_eq!(status, 422);
        assert_eq!(answer["error"]["fields"]["last_name"], "Last name is required");
        let (status, answer) = post(&app, "/api/callback/", &json!({
            "first_name": "Sam", "last_name": "Lee", "email": "sam@example.com", "phone_number": "07700 900123",
            "courses": ["Chemical Peels Course"], "type": "finance",
        })).await;
        assert_eq!((status, answer), (200, json!({ "success": true })));
        assert_eq!(count(&app, "select count(*) from form_submission where kind = 'finance'").await, 1);
        let college = app.db().site().await.unwrap().unwrap().site.email_address;
        let mail = app.db().outbox(5).await.unwrap().into_iter().find(|m| m.to_address == college).expect("a mail to the college");
        assert!(mail.subject.contains("Sam Lee") && mail.body_text.contains("- Chemical Peels Course"));
        app.stop().await;
    }
}
