//! Orders that nobody else can take over (decision 009): an
//! order, its intent and its pages belong to the browser that made them or
//! to its signed-in owner; an order is paid once; a request sent twice
//! makes one order; the sandbox and the dev mailbox keep their secrets.

use enrol_db::on_pool;
use serde_json::{Value, json};

use crate::both_backends;
use crate::enrol_checkout::{confirm, count, intent_update, order, post, prepared, put, quote};
use crate::helpers::{TestApp, browser};

async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

async fn enrollment_email(app: &TestApp, id: &str) -> String {
    on_pool!(app.db(), pool => sqlx::query_scalar("select email from enrollment where id = $1").bind(id).fetch_one(pool).await).unwrap()
}

/// A payment intent's event, signed as the provider signs it.
pub(crate) async fn deliver(app: &TestApp, event: &Value) -> u16 {
    let body = serde_json::to_vec(event).unwrap();
    let header = enrol_payments::signature::sign(&body, app.state.payments.webhook_secret(), chrono::Utc::now().timestamp());
    app.client.post(app.url("/webhooks/payments")).header("stripe-signature", header).body(body).send().await.unwrap().status().as_u16()
}

both_backends! {
    async fn an_order_opens_only_for_the_browser_that_made_it(app: TestApp) {
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let (order_id, intent, _) = prepared(&app, &body, q.deposit, "booking-fee").await;
        let page = format!("/api/page-data?path=/enrolment/{order_id}");

        let mine = app.client.get(app.url(&page)).send().await.unwrap();
        assert_eq!(mine.status().as_u16(), 200);
        assert_eq!(mine.headers()["cache-control"], "private, no-store", "no cache may keep a buyer's page");
        let html = app.client.get(app.url(&format!("/enrolment/{order_id}"))).send().await.unwrap();
        assert_eq!((html.status().as_u16(), html.headers()["cache-control"].to_str().unwrap()), (200, "private, no-store"));

        let stranger = browser();
        let (status, answer) = send(stranger.get(app.url(&page))).await;
        assert_eq!(status, 404);
        assert!(!answer.to_string().contains("sam.lee@example.com") && !answer.to_string().contains("Sam"), "{answer}");
        assert_eq!(stranger.get(app.url(&format!("/enrolment/{order_id}"))).send().await.unwrap().status().as_u16(), 404);

        // The stranger cannot change the order's contact, nor its payment.
        let mut hijack = body.clone();
        hijack["data"]["contact"]["email"] = json!("thief@example.com");
        let (status, _) = send(stranger.put(app.url("/api/enroll/")).json(&json!({ "id": order_id, "data": hijack["data"] }))).await;
        assert_eq!(status, 404);
        assert_eq!(enrollment_email(&app, &order_id).await, "sam.lee@example.com");
        let update = intent_update(&intent, &order_id, q.deposit, "booking-fee");
        assert_eq!(send(stranger.put(app.url("/api/checkout/")).json(&update)).await.0, 404, "an intent id alone opens nothing");
        let (_, own_intent) = send(stranger.post(app.url("/api/checkout/")).json(&json!({ "amount": 10000 }))).await;
        let repoint = intent_update(own_intent["id"].as_str().unwrap(), &order_id, q.deposit, "booking-fee");
        assert_eq!(send(stranger.put(app.url("/api/checkout/")).json(&repoint)).await.0, 404, "nor does its own intent");
        let attached: Option<String> = on_pool!(app.db(), pool => sqlx::query_scalar("select payment_intent_id from enrollment where id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(attached.as_deref(), Some(intent.as_str()));

        // The browser that made it may still change it.
        let mut changed = body.clone();
        changed["data"]["contact"]["email"] = json!("sam@example.org");
        let (status, answer) = put(&app, "/api/enroll/", &json!({ "id": order_id, "data": changed["data"] })).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(enrollment_email(&app, &order_id).await, "sam@example.org");

        // The same holds for e-learning orders.
        let offers = app.db().online_offers().await.unwrap();
        let (status, created) = post(&app, "/api/e-learning/create-checkout", &json!({ "priceIds": [offers[0].price_id], "additional": [], "agreed": crate::online_checkout::agreed_online() })).await;
        assert_eq!(status, 200, "{created}");
        let online_id: String = on_pool!(app.db(), pool => sqlx::query_scalar("select id from online_order").fetch_one(pool).await).unwrap();
        let online_page = format!("/api/page-data?path=/e-learning/order/{online_id}/");
        assert_eq!(app.client.get(app.url(&online_page)).send().await.unwrap().status().as_u16(), 200);
        assert_eq!(stranger.get(app.url(&online_page)).send().await.unwrap().status().as_u16(), 404);
        app.stop().await;
    }

    async fn an_order_is_paid_once(app: TestApp) {
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let (order_id, first, first_secret) = prepared(&app, &body, q.deposit, "booking-fee").await;
        // A second tab prepares another payment for the same order: the
        // first, unpaid, is cancelled at the provider and can never be paid.
        let (_, second) = post(&app, "/api/checkout/", &json!({ "amount": 10000 })).await;
        let second_id = second["id"].as_str().unwrap();
        let (status, answer) = put(&app, "/api/checkout/", &intent_update(second_id, &order_id, q.deposit, "booking-fee")).await;
        assert_eq!(status, 200, "{answer}");
        let (status, refused) = confirm(&app, &first, &first_secret, &order_id, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 402, "{refused}");
        let (status, _) = confirm(&app, second_id, second["client_secret"].as_str().unwrap(), &order_id, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 200);
        // Once paid, no other intent can be attached.
        let (_, third) = post(&app, "/api/checkout/", &json!({ "amount": 10000 })).await;
        let (status, _) = put(&app, "/api/checkout/", &intent_update(third["id"].as_str().unwrap(), &order_id, q.deposit, "booking-fee")).await;
        assert_eq!(status, 422);

        // Should money arrive twice all the same (the provider took both in
        // a race), the second is given back.
        crate::enrol_checkout::execute(&app, &format!("update sandbox_payment_intent set status = 'succeeded' where id = '{first}'")).await;
        let event = json!({ "id": "evt_second_payment", "object": "event", "type": "payment_intent.succeeded", "data": { "object": {
            "id": first, "object": "payment_intent", "amount": 10_000, "amount_received": 10_000, "currency": "gbp",
            "metadata": { "Order ID": order_id, "type": "booking-fee" }, "status": "succeeded", "payment_method_types": ["card"],
        }}});
        assert_eq!(deliver(&app, &event).await, 200);
        assert_eq!(deliver(&app, &event).await, 200, "a replay changes nothing");
        assert_eq!(count(&app, &format!("select count(*) from payment where enrollment_id = '{order_id}'")).await, 2, "both payments are recorded");
        let refunds: Vec<(i64, String, Option<String>)> = on_pool!(app.db(), pool => sqlx::query_as(
            "select r.amount, r.status, r.provider_refund_id from refund r join payment p on p.id = r.payment_id where p.transaction_id = $1"
        ).bind(&first).fetch_all(pool).await).unwrap();
        assert_eq!(refunds.len(), 1, "{refunds:?}");
        assert_eq!((refunds[0].0, refunds[0].1.as_str()), (10_000, "succeeded"));
        assert!(refunds[0].2.as_deref().is_some_and(|id| id.starts_with("re_sandbox_")));
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}'")).await, 1);
        let status: String = on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(status, "deposit");
        let mails = async |subject: &str| {
            count(&app, &format!("select count(*) from mail_outbox where to_address = 'sam.lee@example.com' and subject {subject}")).await
        };
        assert_eq!(mails("like '%confirmed'").await, 1, "one confirmation");
        assert_eq!(mails("= 'Your refund of £100.00'").await, 1, "the refund's mail, with its credit note");
        assert_eq!(mails("is not null").await, 2);
        app.stop().await;
    }

    async fn a_refund_the_provider_refuses_is_tried_again_until_made(app: TestApp) {
        let q = quote(false, None);
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-1", false, None, "card", &q), q.deposit, "booking-fee").await;
        assert_eq!(confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await.0, 200);
        // A second payment the provider has no record of yet: it refuses the refund.
        let event = json!({ "id": "evt_unknown_payment", "object": "event", "type": "payment_intent.succeeded", "data": { "object": {
            "id": "pi_sandbox_not_yet_known", "object": "payment_intent", "amount": 10_000, "amount_received": 10_000, "currency": "gbp",
            "metadata": { "Order ID": order_id, "type": "booking-fee" }, "status": "succeeded", "payment_method_types": ["card"],
        }}});
        assert_eq!(deliver(&app, &event).await, 200);
        let pending = || async { count(&app, "select count(*) from refund where status = 'pending' and attempts >= 1 and last_error is not null").await };
        assert_eq!(pending().await, 1, "not recorded as done");
        assert_eq!(enrol_server::refunds::make_due_refunds(&app.state).await.unwrap(), 0);
        assert_eq!(count(&app, "select cast(attempts as bigint) from refund").await, 2, "tried again");
        // Once the provider knows the payment, the retry makes the refund, once.
        crate::enrol_checkout::execute(
            &app,
            "insert into sandbox_payment_intent (id, idempotency_key, client_secret, amount, status, payment_method_types, metadata) \
             values ('pi_sandbox_not_yet_known', 'k-unknown', 's', 10000, 'succeeded', '[\"card\"]', '{}')",
        )
        .await;
        assert_eq!(enrol_server::refunds::make_due_refunds(&app.state).await.unwrap(), 1);
        assert_eq!(enrol_server::refunds::make_due_refunds(&app.state).await.unwrap(), 0);
        assert_eq!(count(&app, "select count(*) from refund where status = 'succeeded' and amount = 10000").await, 1);
        app.stop().await;
    }

    async fn the_same_order_sent_twice_is_made_once(app: TestApp) {
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        // As on the page: the payment is prepared on load, which gives the
        // browser its buyer cookie; keys are scoped to it.
        assert_eq!(post(&app, "/api/checkout/", &json!({ "amount": 10000 })).await.0, 200);
        // The page sends the same request twice at once (a double click).
        let send_once = || app.client.post(app.url("/api/enroll/")).header("idempotency-key", "order-attempt-1").json(&body).send();
        let (first, second) = tokio::join!(send_once(), send_once());
        let answers = [first.unwrap(), second.unwrap()];
        let statuses: Vec<u16> = answers.iter().map(|a| a.status().as_u16()).collect();
        assert!(statuses.contains(&200), "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == 200 || *s == 409), "the copy waits or gets the first answer: {statuses:?}");
        assert_eq!(count(&app, "select count(*) from enrollment").await, 1);
        // Retried after a timeout: the first answer again.
        let (status, replayed) = send(app.client.post(app.url("/api/enroll/")).header("idempotency-key", "order-attempt-1").json(&body)).await;
        assert_eq!(status, 200);
        let id: String = on_pool!(app.db(), pool => sqlx::query_scalar("select id from enrollment").fetch_one(pool).await).unwrap();
        assert_eq!(replayed["id"], id.as_str());
        assert_eq!(count(&app, "select count(*) from enrollment").await, 1);
        // The same key for a different booking is refused.
        let other = order("chemical-peels-3", false, None, "card", &q);
        let (status, _) = send(app.client.post(app.url("/api/enroll/")).header("idempotency-key", "order-attempt-1").json(&other)).await;
        assert_eq!(status, 422);
        assert_eq!(count(&app, "select count(*) from enrollment").await, 1);
        app.stop().await;
    }

    async fn the_sandbox_approval_and_the_mailbox_keep_their_secrets(app: TestApp) {
        let q = quote(false, None);
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-1", false, None, "klarna", &q), q.total, "full-amount").await;
        let return_url = format!("/enrolment/{order_id}");
        let page = format!("/sandbox/redirect/{intent}?method=klarna&return_url={return_url}");
        assert_eq!(app.get(&page).await.status().as_u16(), 400, "the approval page needs the client secret");
        assert_eq!(app.get(&format!("{page}&client_secret=pi_wrong_secret_0")).await.status().as_u16(), 404);
        assert_eq!(app.get(&format!("{page}&client_secret={secret}")).await.status().as_u16(), 200);
        let forged = [("decision", "approve"), ("method", "klarna"), ("return_url", &return_url), ("client_secret", "pi_wrong_secret_0")];
        let response = app.client.post(app.url(&format!("/sandbox/redirect/{intent}"))).form(&forged).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 404);
        assert_eq!(count(&app, "select count(*) from payment").await, 0);
        // The outbox holds reset links: not served unless asked for.
        assert_eq!(app.get("/dev/mailbox").await.status().as_u16(), 404);
        app.stop().await;
    }
}

#[tokio::test]
async fn the_dev_mailbox_is_served_only_when_asked_for() {
    let app = crate::helpers::spawn_app_with(crate::helpers::Backend::Sqlite, |config| config.dev_mailbox = true).await.unwrap();
    let response = app.get("/dev/mailbox").await;
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.text().await.unwrap().contains("<h1>Mailbox</h1>"));
    app.stop().await;
}

#[test]
fn public_ids_say_nothing_about_the_next() {
    let ids: Vec<uuid::Uuid> = (0..2000).map(|_| enrol_db::public_id().parse().unwrap()).collect();
    for pair in ids.windows(2) {
        let (a, b) = (pair[0].as_u128(), pair[1].as_u128());
        // Below the 48-bit millisecond: 74 random bits (version and variant
        // aside); two ids made in the same millisecond share almost none.
        let random = (1u128 << 80) - 1;
        let differing = ((a ^ b) & random).count_ones();
        assert!(differing >= 12, "{} and {} differ in {differing} bits", pair[0], pair[1]);
    }
    assert_eq!(ids[0].get_version_num(), 7, "still time-ordered for the indexes");
}
