//! A plan's card from the balance page (decision 036): a booking whose fee
//! was paid without a plan takes monthly instalments there, the card saved
//! by a setup intent without a payment; a running plan whose card the bank
//! refused takes another card, and the refused part is tried again on it.
//! Only the link's own booking's setup intent is accepted; the
//! provider's `setup_intent.succeeded` starts the plan as the page's
//! confirmation does, once whichever comes first.

use chrono::{Duration, Utc};
use enrol_db::on_pool;
use enrol_domain::enrollment::balance_due_on;
use enrol_domain::instalments::{Instalment, PlanSettings, check_plan_for};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_server::plans::charge_due_parts;
use serde_json::{Value, json};

use crate::balance::{link, mails_to_sam};
use crate::both_backends;
use crate::enrol_checkout::{confirm, intent_update, order, post, put};
use crate::helpers::TestApp;
use crate::instalment_plans::{PRICE, SESSION, far_session, morning, part_statuses, payments, plan_status, planned, quote};
use crate::ownership::deliver;

/// Saves `card` for the plan of the booking link `token` pays, as the
/// balance page does: the setup intent prepared with `plan` (none: change
/// the running plan's card), confirmed at the sandbox, then told to the
/// site. The site's last answer.
async fn save_card(app: &TestApp, token: &str, plan: Option<Value>, card: &str) -> (u16, Value) {
    let mut body = json!({ "token": token });
    if let Some(plan) = plan {
        body["plan"] = plan;
    }
    let (status, setup) = post(app, "/api/balance/card", &body).await;
    assert_eq!(status, 200, "{setup}");
    let id = setup["id"].as_str().unwrap();
    let (status, saved) = post(
        app,
        &format!("/sandbox/setup_intents/{id}/confirm"),
        &json!({
        "client_secret": setup["clientSecret"], "card": { "number": card, "expiry": "12 / 34", "cvc": "123" } }),
    )
    .await;
    assert_eq!((status, saved["status"].as_str()), (200, Some("succeeded")), "{saved}");
    post(app, "/api/balance/card/confirm", &json!({ "token": token, "setupIntent": id })).await
}

/// A booking whose fee was paid without a plan, its balance page's link
/// `token`: its id, and the two instalments its balance may be paid in.
async fn fee_paid_without_a_plan(app: &TestApp, token: &str) -> (String, Vec<Instalment>) {
    let training = far_session(app).await;
    let q = quote();
    let (_, intent) = post(app, "/api/checkout/", &json!({ "amount": 10000 })).await;
    let (_, created) = post(app, "/api/enroll/", &order(SESSION, false, None, "card", &q)).await;
    let order_id = created["id"].as_str().unwrap().to_owned();
    let intent_id = intent["id"].as_str().unwrap();
    let (status, updated) = put(app, "/api/checkout/", &intent_update(intent_id, &order_id, q.deposit, "booking-fee")).await;
    assert_eq!(status, 200, "{updated}");
    let (status, _) =
        confirm(app, intent_id, updated["client_secret"].as_str().unwrap(), &order_id, "card", Some("4242 4242 4242 4242")).await;
    assert_eq!(status, 200);
    link(app, &order_id, token).await;
    let today = london::today(Utc::now());
    let owed = Money::from_pence(PRICE - 10_000);
    (order_id, check_plan_for(q.total, owed, 2, today, balance_due_on(training, today), &PlanSettings::default()).unwrap())
}

both_backends! {
    async fn a_booking_paid_without_a_plan_takes_one_on_its_balance_page(app: TestApp) {
        let (order_id, parts) = fee_paid_without_a_plan(&app, "c0ffee").await;
        let (status, refused) = post(&app, "/api/balance/card", &json!({ "token": "c0ffee" })).await;
        assert_eq!((status, refused["error"]["message"].as_str()), (422, Some("This booking has no payment plan.")));
        let (status, refused) = post(&app, "/api/balance/card", &json!({ "token": "c0ffee", "plan": { "parts": parts, "cardConsent": false } })).await;
        assert_eq!(status, 422, "{refused}");

        let (status, plan) = save_card(&app, "c0ffee", Some(json!({ "parts": parts, "cardConsent": true })), "4242 4242 4242 4242").await;
        assert_eq!((status, plan["status"].as_str(), plan["card"].as_str()), (200, Some("active"), Some("Visa ending 4242")), "{plan}");
        assert_eq!(plan_status(&app, &order_id).await, "active");
        assert_eq!(mails_to_sam(&app, "Your payment plan: 2 instalments").await.len(), 1);
        let (status, refused) = post(&app, "/api/balance/card", &json!({ "token": "c0ffee", "plan": { "parts": parts, "cardConsent": true } })).await;
        assert_eq!((status, refused["error"]["message"].as_str()), (409, Some("This booking already has a payment plan.")));

        assert_eq!(charge_due_parts(&app.state, morning(parts[0].due_on)).await.unwrap(), 1);
        for _ in 0..100 {
            if payments(&app, &order_id).await.len() == 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(payments(&app, &order_id).await, [10_000, parts[0].amount.pence()]);
    }

    async fn a_card_saved_on_the_balance_page_starts_the_plan_once_though_the_page_closed_before_it_confirmed(app: TestApp) {
        let (order_id, parts) = fee_paid_without_a_plan(&app, "5eed01").await;
        let (status, setup) =
            post(&app, "/api/balance/card", &json!({ "token": "5eed01", "plan": { "parts": parts, "cardConsent": true } })).await;
        assert_eq!(status, 200, "{setup}");
        let id = setup["id"].as_str().unwrap();
        // The card is saved at the provider; the page closes before it tells the site.
        let (status, _) = post(&app, &format!("/sandbox/setup_intents/{id}/confirm"), &json!({
            "client_secret": setup["clientSecret"], "card": { "number": "4242 4242 4242 4242", "expiry": "12 / 34", "cvc": "123" } })).await;
        assert_eq!(status, 200);
        // The provider's event started the plan.
        assert_eq!(plan_status(&app, &order_id).await, "active");
        assert_eq!(mails_to_sam(&app, "Your payment plan: 2 instalments").await.len(), 1);

        // The same event again, and the page's confirmation late: still one plan, one mail, the same card.
        let saved: Option<String> = on_pool!(app.db(), pool => sqlx::query_scalar(
            "select payment_method from payment_plan where enrollment_id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        let event = json!({ "id": "evt_replayed_setup", "object": "event", "type": "setup_intent.succeeded", "data": { "object": {
            "id": id, "object": "setup_intent", "status": "succeeded", "payment_method": saved,
            "metadata": { "order_id": order_id, "type": "plan-card" } } } });
        assert_eq!(deliver(&app, &event).await, 200);
        assert_eq!(deliver(&app, &event).await, 200);
        let (status, plan) = post(&app, "/api/balance/card/confirm", &json!({ "token": "5eed01", "setupIntent": id })).await;
        assert_eq!((status, plan["status"].as_str(), plan["card"].as_str()), (200, Some("active"), Some("Visa ending 4242")), "{plan}");
        assert_eq!(mails_to_sam(&app, "Your payment plan: 2 instalments").await.len(), 1);
        let plans: i64 = on_pool!(app.db(), pool => sqlx::query_scalar(
            "select count(*) from payment_plan where enrollment_id = $1").bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(plans, 1);

        // A setup intent of another kind, or for no booking, starts nothing and is acknowledged.
        let other = json!({ "id": "evt_other_setup", "object": "event", "type": "setup_intent.succeeded", "data": { "object": {
            "id": "seti_other", "status": "succeeded", "payment_method": "pm_other", "metadata": {} } } });
        assert_eq!(deliver(&app, &other).await, 200);
    }

    async fn a_refused_card_is_replaced_and_the_refused_part_tried_again_on_the_new_one(app: TestApp) {
        let (order_id, parts) = planned(&app, "4000 0027 6000 3184").await;
        let (other_id, _) = planned(&app, "4242 4242 4242 4242").await;
        charge_due_parts(&app.state, morning(parts[0].due_on)).await.unwrap();
        assert_eq!(part_statuses(&app, &order_id).await, ["retrying", "scheduled", "scheduled"]);
        link(&app, &order_id, "beef01").await;
        link(&app, &other_id, "beef02").await;

        // Another booking's setup intent is not this link's to use.
        let (status, other) = post(&app, "/api/balance/card", &json!({ "token": "beef02" })).await;
        assert_eq!(status, 200, "{other}");
        let (status, _) = post(&app, "/api/balance/card/confirm", &json!({ "token": "beef01", "setupIntent": other["id"] })).await;
        assert_eq!(status, 404);
        // A setup intent not confirmed saves nothing.
        let (_, setup) = post(&app, "/api/balance/card", &json!({ "token": "beef01" })).await;
        let (status, _) = post(&app, "/api/balance/card/confirm", &json!({ "token": "beef01", "setupIntent": setup["id"] })).await;
        assert_eq!(status, 422);
        // A declined card is refused at the sandbox.
        let (status, _) = post(&app, &format!("/sandbox/setup_intents/{}/confirm", setup["id"].as_str().unwrap()), &json!({
            "client_secret": setup["clientSecret"], "card": { "number": "4000 0000 0000 0002", "expiry": "12 / 34", "cvc": "123" } })).await;
        assert_eq!(status, 402);

        let (status, plan) = save_card(&app, "beef01", None, "4242 4242 4242 4242").await;
        assert_eq!((status, plan["card"].as_str()), (200, Some("Visa ending 4242")), "{plan}");
        assert_eq!(plan["parts"][0]["status"], "retrying");
        // The next run tries the refused part again, on the new card.
        let later = morning(parts[0].due_on).max(Utc::now()) + Duration::minutes(1);
        assert_eq!(charge_due_parts(&app.state, later).await.unwrap(), 1);
        for _ in 0..100 {
            if payments(&app, &order_id).await.len() == 2 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(payments(&app, &order_id).await, [10_000, parts[0].amount.pence()]);
        assert_eq!(part_statuses(&app, &order_id).await[0], "paid");
    }
}
