//! Buying e-learning: the basket priced by the server, the sandbox's hosted
//! checkout, fulfilment by signed webhook, once.

use enrol_db::on_pool;
use enrol_domain::online_order::OnlineOffer;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::TestApp;

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await).expect(sql)
}

/// The terms and the request to start at once, as the drawer sends them.
pub(crate) fn agreed_online() -> Value {
    json!({ "version": enrol_domain::consent::CONSENT_VERSION, "terms": true, "digitalContent": true })
}

/// `POST /api/e-learning/create-checkout` with `body`, agreed as the drawer does unless `body` says otherwise.
async fn create_checkout(app: &TestApp, mut body: Value) -> reqwest::Response {
    if body.get("agreed").is_none() {
        body["agreed"] = agreed_online();
    }
    app.client.post(app.url("/api/e-learning/create-checkout")).json(&body).send().await.expect("request")
}

/// Two online courses, the first with an upsell.
async fn two_courses(app: &TestApp) -> (OnlineOffer, OnlineOffer) {
    let offers = app.db().online_offers().await.unwrap();
    let with = offers.iter().find(|o| o.upsell.is_some()).expect("an online course with an upsell").clone();
    let other = offers.iter().find(|o| o.course_id != with.course_id).expect("a second online course").clone();
    (with, other)
}

async fn pay(app: &TestApp, checkout_path: &str, card: &str) -> reqwest::Response {
    let form = [("email", "Sam.Buyer@Example.com"), ("name", "Sam Buyer"), ("card_number", card), ("expiry", "12 / 34"), ("cvc", "123")];
    app.client.post(app.url(checkout_path)).form(&form).send().await.expect("pay")
}

fn signed(app: &TestApp, event: &Value) -> (Vec<u8>, String) {
    let body = serde_json::to_vec(event).unwrap();
    let header = enrol_payments::signature::sign(&body, app.state.payments.webhook_secret(), chrono::Utc::now().timestamp());
    (body, header)
}

async fn post_event(app: &TestApp, body: Vec<u8>, header: &str) -> reqwest::Response {
    app.client
        .post(app.url("/webhooks/payments"))
        .header("content-type", "application/json")
        .header("stripe-signature", header)
        .body(body)
        .send()
        .await
        .expect("webhook")
}

async fn order_status(app: &TestApp, id: &str) -> String {
    on_pool!(app.db(), pool => sqlx::query_scalar("select status from online_order where id = $1").bind(id).fetch_one(pool).await).unwrap()
}

both_backends! {
    async fn an_online_order_is_paid_on_the_sandbox_and_fulfilled_once(app: TestApp) {
        let (with, other) = two_courses(&app).await;
        let upsell = with.upsell.clone().unwrap();
        let response = create_checkout(&app, json!({
            "priceIds": [with.price_id, other.price_id],
            "additional": [upsell.price_data],
        })).await;
        assert_eq!(response.status().as_u16(), 200);
        let url = response.json::<Value>().await.unwrap()["url"].as_str().unwrap().to_owned();
        assert!(url.starts_with("/sandbox/checkout/cs_sandbox_"), "{url}");
        let total = with.unit_amount.pence() + other.unit_amount.pence() + upsell.price_data.unit_amount.pence();

        let (status, page) = app.text(&url).await;
        assert_eq!(status, 200);
        assert!(page.contains(&with.title) && page.contains(&upsell.title) && page.contains(&other.title));
        assert!(page.contains(&format!("Pay {}", enrol_domain::money::Money::from_pence(total))));

        let declined = pay(&app, &url, "4000 0000 0000 0002").await;
        assert_eq!(declined.status().as_u16(), 422);
        assert!(declined.text().await.unwrap().contains("Your card was declined."));
        let poor = pay(&app, &url, "4000000000009995").await;
        assert!(poor.text().await.unwrap().contains("Your card has insufficient funds."));
        assert_eq!(count(&app, "select count(*) from payment").await, 0);
        assert_eq!(count(&app, "select count(*) from online_registration").await, 0);

        let paid = pay(&app, &url, "4242 4242 4242 4242").await;
        assert_eq!(paid.status().as_u16(), 303);
        let success = paid.headers()["location"].to_str().unwrap().to_owned();
        let order_path = success.strip_prefix(&app.address).expect("success is on this site").to_owned();
        assert!(order_path.starts_with("/e-learning/order/"), "{order_path}");

        // Paying twice (a second click) charges nothing more.
        let again = pay(&app, &url, "4242 4242 4242 4242").await;
        assert_eq!(again.status().as_u16(), 303);
        assert_eq!(count(&app, "select count(*) from payment").await, 1);
        let amount: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select amount from payment").fetch_one(pool).await).unwrap();
        assert_eq!(amount, total);
        assert_eq!(count(&app, "select count(*) from online_registration").await, 2);
        let buyer: String = on_pool!(app.db(), pool => sqlx::query_scalar("select email from online_order").fetch_one(pool).await).unwrap();
        assert_eq!(buyer, "sam.buyer@example.com");
        // The account the start link will open waits, without a password, and owns nothing until the link proves the address.
        assert_eq!(count(&app, "select count(*) from user_account where password_hash is not null or email_verified_at is not null").await, 0);
        assert_eq!(count(&app, "select count(*) from online_order where user_id is not null").await, 0, "a guest's order joins no account until it is proven");
        assert_eq!(count(&app, "select count(*) from online_registration where user_id is not null").await, 0);

        let mails = app.db().outbox(10).await.unwrap();
        let receipt = mails.iter().find(|m| m.to_address == "sam.buyer@example.com").expect("a receipt to the buyer");
        assert!(receipt.body_text.contains(&with.title) && receipt.body_text.contains(&upsell.title));
        assert!(receipt.body_text.contains(&format!("Total paid: {}", enrol_domain::money::Money::from_pence(total))));
        // The payment's receipt, linked in the mail, opens without signing in.
        let link = receipt.body_text.lines().find_map(|l| l.strip_prefix("Your receipt RCT-000001: ")).expect("the receipt's link");
        let document = reqwest::get(link).await.unwrap().text().await.unwrap();
        assert!(document.contains("Sam Buyer<br>sam.buyer@example.com") && document.contains(&format!("<td>Add-on: {}</td>", upsell.title)), "{document}");

        let data: Value = app.get(&format!("/api/page-data?path={order_path}")).await.json().await.unwrap();
        assert_eq!(data["page"]["kind"], "onlineOrder");
        assert_eq!(data["page"]["status"], "paid");
        assert_eq!(data["page"]["total"], total);
        assert_eq!(data["page"]["email"], "sam.buyer@example.com");
        let (status, _) = app.text(&order_path).await;
        assert_eq!(status, 200);
        app.stop().await;
    }

    async fn tampered_baskets_are_refused_and_nothing_is_stored(app: TestApp) {
        let (with, other) = two_courses(&app).await;
        let upsell = with.upsell.clone().unwrap();
        let cases = [
            (json!({ "priceIds": ["price_made_up"], "additional": [] }), "no longer sold online"),
            (json!({ "priceIds": [other.price_id], "additional": [upsell.price_data] }), "is not offered with the courses"),
            (
                json!({ "priceIds": [with.price_id], "additional": [{ "currency": "gbp", "product": upsell.price_data.product, "unit_amount": 1 }] }),
                "has changed",
            ),
            (json!({ "priceIds": [], "additional": [] }), "at least one online course"),
        ];
        for (body, message) in cases {
            let response = create_checkout(&app, body.clone()).await;
            assert_eq!(response.status().as_u16(), 422, "{body}");
            let error: Value = response.json().await.unwrap();
            assert!(error["error"]["message"].as_str().unwrap().contains(message), "{body}: {error}");
        }
        // A client-sent total is not part of the contract at all.
        let response = create_checkout(&app, json!({ "priceIds": [with.price_id], "additional": [], "amount": 1 })).await;
        assert_eq!(response.status().as_u16(), 400);
        // An in-person course cannot be bought through the online basket.
        let in_person: String = on_pool!(app.db(), pool => sqlx::query_scalar("select price_id from course where not online limit 1").fetch_one(pool).await).unwrap();
        let response = create_checkout(&app, json!({ "priceIds": [in_person], "additional": [] })).await;
        assert_eq!(response.status().as_u16(), 422);
        assert_eq!(count(&app, "select count(*) from online_order").await, 0);
        app.stop().await;
    }

    async fn a_payment_given_back_in_full_at_the_provider_ends_the_courses_it_paid_for(app: TestApp) {
        let (with, other) = two_courses(&app).await;
        let response = create_checkout(&app, json!({ "priceIds": [with.price_id, other.price_id], "additional": [] })).await;
        let url = response.json::<Value>().await.unwrap()["url"].as_str().unwrap().to_owned();
        assert_eq!(pay(&app, &url, "4242 4242 4242 4242").await.status().as_u16(), 303);
        let (intent, amount): (String, i64) =
            on_pool!(app.db(), pool => sqlx::query_as("select transaction_id, amount from payment").fetch_one(pool).await).unwrap();
        let refunded = |id: &str, pence: i64| json!({ "id": id, "object": "event", "type": "charge.refunded", "data": { "object": {
            "id": "ch_dashboard", "object": "charge", "payment_intent": intent, "amount_refunded": pence,
        }}});
        let active = "select count(*) from online_registration where revoked_at is null";
        assert_eq!(count(&app, active).await, 2);
        // A part given back in the provider's dashboard: only staff know which course it was for.
        let (body, header) = signed(&app, &refunded("evt_dashboard_part", amount / 2));
        assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        assert_eq!(count(&app, active).await, 2);
        // The rest, replayed: both courses end, once.
        for _ in 0..3 {
            let (body, header) = signed(&app, &refunded("evt_dashboard_all", amount));
            assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        }
        assert_eq!(count(&app, active).await, 0);
        assert_eq!(count(&app, "select count(*) from online_registration where revoke_reason = 'Refunded at the payment provider'").await, 2);
        app.stop().await;
    }

    async fn a_replayed_webhook_records_one_payment(app: TestApp) {
        let (with, _) = two_courses(&app).await;
        let response = create_checkout(&app, json!({ "priceIds": [with.price_id], "additional": [] })).await;
        assert_eq!(response.status().as_u16(), 200);
        let order_id: String = on_pool!(app.db(), pool => sqlx::query_scalar("select id from online_order").fetch_one(pool).await).unwrap();
        let event = |id: &str| json!({
            "id": id, "object": "event", "type": "checkout.session.completed", "created": 1_700_000_000, "livemode": false,
            "data": { "object": {
                "id": "cs_test_replay", "object": "checkout.session", "mode": "payment", "status": "complete",
                "payment_status": "paid", "client_reference_id": order_id, "metadata": { "order_id": order_id },
                "amount_total": with.unit_amount.pence(), "currency": "gbp", "customer_email": null,
                "customer_details": { "email": "replay@example.com", "name": "Re Play" }, "payment_intent": "pi_test_replay",
            }},
        });
        for _ in 0..10 {
            let (body, header) = signed(&app, &event("evt_test_replay"));
            assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        }
        // The same payment under a new event id changes nothing either.
        let (body, header) = signed(&app, &event("evt_test_other"));
        assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        assert_eq!(count(&app, "select count(*) from payment").await, 1);
        assert_eq!(count(&app, "select count(*) from online_registration").await, 1);
        let receipts = app.db().outbox(50).await.unwrap().into_iter().filter(|m| m.to_address == "replay@example.com").count();
        assert_eq!(receipts, 1);

        // Unsigned, wrongly signed or altered events are refused.
        let (body, _) = signed(&app, &event("evt_test_forged"));
        let forged = enrol_payments::signature::sign(&body, "whsec_wrong", chrono::Utc::now().timestamp());
        assert_eq!(post_event(&app, body.clone(), &forged).await.status().as_u16(), 400);
        assert_eq!(post_event(&app, body, "").await.status().as_u16(), 400);
        assert_eq!(count(&app, "select count(*) from webhook_event where id = 'evt_test_forged'").await, 0);
        app.stop().await;
    }

    async fn a_delayed_payment_is_fulfilled_when_it_arrives_or_fails(app: TestApp) {
        let (with, other) = two_courses(&app).await;
        let mut orders = Vec::new();
        for offer in [&with, &other] {
            assert_eq!(create_checkout(&app, json!({ "priceIds": [offer.price_id], "additional": [] })).await.status().as_u16(), 200);
            let id: String = on_pool!(app.db(), pool => sqlx::query_scalar("select id from online_order order by created_at desc, id desc limit 1").fetch_one(pool).await).unwrap();
            let total: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select total from online_order where id = $1").bind(&id).fetch_one(pool).await).unwrap();
            orders.push((id, total));
        }
        let session = |order: &(String, i64), payment_status: &str| json!({
            "id": format!("cs_test_{}", order.0.replace('-', "")), "object": "checkout.session", "client_reference_id": order.0,
            "metadata": { "order_id": order.0 }, "amount_total": order.1, "currency": "gbp", "customer_email": null,
            "customer_details": { "email": "sam.buyer@example.com", "name": "Sam Buyer" },
            "payment_intent": format!("pi_test_{}", order.0.replace('-', "")), "payment_status": payment_status,
        });
        let event = |id: &str, kind: &str, object: Value| json!({ "id": id, "object": "event", "type": kind, "data": { "object": object } });

        // A bank debit: the checkout completes before the money arrives.
        let (body, header) = signed(&app, &event("evt_completed_unpaid", "checkout.session.completed", session(&orders[0], "unpaid")));
        assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        assert_eq!(order_status(&app, &orders[0].0).await, "processing");
        assert_eq!(count(&app, "select count(*) from online_registration").await, 0, "nothing before the money");
        for _ in 0..2 {
            let (body, header) = signed(&app, &event("evt_async_paid", "checkout.session.async_payment_succeeded", session(&orders[0], "paid")));
            assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        }
        assert_eq!(order_status(&app, &orders[0].0).await, "paid");
        assert_eq!(count(&app, "select count(*) from online_registration").await, 1);
        assert_eq!(count(&app, "select count(*) from payment").await, 1);

        let (body, header) = signed(&app, &event("evt_second_unpaid", "checkout.session.completed", session(&orders[1], "unpaid")));
        assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        let (body, header) = signed(&app, &event("evt_async_failed", "checkout.session.async_payment_failed", session(&orders[1], "unpaid")));
        assert_eq!(post_event(&app, body, &header).await.status().as_u16(), 200);
        assert_eq!(order_status(&app, &orders[1].0).await, "failed");
        assert_eq!(count(&app, "select count(*) from payment").await, 1);
        app.stop().await;
    }

    async fn a_paid_online_order_whose_webhook_was_lost_is_found(app: TestApp) {
        use enrol_server::reconcile::reconcile;
        let (with, _) = two_courses(&app).await;
        let response = create_checkout(&app, json!({ "priceIds": [with.price_id], "additional": [] })).await;
        let url = response.json::<Value>().await.unwrap()["url"].as_str().unwrap().to_owned();
        let checkout_id = url.trim_start_matches("/sandbox/checkout/").to_owned();
        // The provider took the money; its event never came.
        assert!(app.db().complete_sandbox_checkout(&checkout_id, "sam.buyer@example.com", Some("Sam Buyer")).await.unwrap());
        let later = chrono::Utc::now() + chrono::Duration::minutes(11);
        let report = reconcile(&app.state, later).await.unwrap();
        assert_eq!((report.checked, report.fulfilled), (1, 1));
        assert_eq!(count(&app, "select count(*) from online_order where status = 'paid'").await, 1);
        assert_eq!(count(&app, "select count(*) from online_registration").await, 1);
        assert_eq!(count(&app, "select count(*) from mail_outbox where to_address = 'sam.buyer@example.com'").await, 1);
        let again = reconcile(&app.state, later).await.unwrap();
        assert_eq!((again.checked, again.fulfilled), (0, 0), "found once");
        assert_eq!(count(&app, "select count(*) from payment").await, 1);
        app.stop().await;
    }
}
