//! After the booking fee (decision 015): a balance paid in parts from a link
//! that works without signing in, each payment recorded and receipted once
//! whatever the provider replays, an overpayment given back; the reminders
//! of a balance sent once each, by racing job runners and after an outage.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use enrol_db::{BalanceLink, on_pool};
use enrol_domain::money::Money;
use enrol_server::accounts::token_hash;
use enrol_server::reminders::send_balance_reminders;
use serde_json::{Value, json};

use crate::both_backends;
use crate::enrol_checkout::{confirm, count, execute, order, post, prepared, quote};
use crate::helpers::TestApp;
use crate::ownership::deliver;

/// A booking whose £100 booking fee is paid by card: its id.
pub(crate) async fn booked(app: &TestApp) -> String {
    booked_on(app, "chemical-peels-3").await
}

/// A booking of `session` of the demo's Chemical Peels Course whose £100
/// booking fee is paid by card: its id.
pub(crate) async fn booked_on(app: &TestApp, session: &str) -> String {
    let q = quote(false, None);
    let (order_id, intent, secret) = prepared(app, &order(session, false, None, "card", &q), q.deposit, "booking-fee").await;
    let (status, paid) = confirm(app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await;
    assert_eq!(status, 200, "{paid}");
    order_id
}

/// A payment link of `order_id` whose token the test knows.
pub(crate) async fn link(app: &TestApp, order_id: &str, token: &str) {
    let now = Utc::now();
    let link =
        BalanceLink { token_hash: token_hash(token), expires_at: now + Duration::days(30), url: format!("/pay-balance/?token={token}") };
    app.db().create_balance_link(order_id, &link, now).await.unwrap();
}

async fn balance_page(app: &TestApp, query: &str) -> Value {
    let path = format!("/pay-balance/?{query}").replace('&', "%26").replace('?', "%3F").replace('=', "%3D");
    let data: Value = app.get(&format!("/api/page-data?path={path}")).await.json().await.unwrap();
    assert_eq!(data["page"]["kind"], "balance", "{data}");
    data["page"].clone()
}

/// Prepares a payment of `amount` of the balance: the intent (its `id`
/// and `client_secret`).
pub(crate) async fn prepare(app: &TestApp, token: &str, amount: i64) -> Value {
    let (status, intent) = post(app, "/api/balance/intent", &json!({ "token": token, "amount": amount })).await;
    assert_eq!(status, 200, "{intent}");
    intent
}

/// Pays a prepared `intent` by sandbox card: its id.
pub(crate) async fn pay_prepared(app: &TestApp, token: &str, intent: &Value) -> String {
    let id = intent["id"].as_str().unwrap().to_owned();
    let body = json!({ "client_secret": intent["client_secret"], "payment_method": "card",
        "card": { "number": "4242 4242 4242 4242", "expiry": "12 / 34", "cvc": "123" },
        "return_url": format!("/pay-balance/?token={token}") });
    let (status, paid) = post(app, &format!("/sandbox/payment_intents/{id}/confirm"), &body).await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["redirect"], format!("/pay-balance/?token={token}&payment_intent={id}&redirect_status=succeeded"));
    id
}

/// Prepares and pays `amount` of the balance by sandbox card: the intent's id.
pub(crate) async fn pay(app: &TestApp, token: &str, amount: i64) -> String {
    let intent = prepare(app, token, amount).await;
    pay_prepared(app, token, &intent).await
}

pub(crate) async fn status_of(app: &TestApp, order_id: &str) -> String {
    on_pool!(app.db(), pool => sqlx::query_scalar("select status from enrollment where id = $1").bind(order_id).fetch_one(pool).await)
        .unwrap()
}

pub(crate) async fn mails_to_sam(app: &TestApp, subject_starts: &str) -> Vec<String> {
    app.db()
        .outbox(200)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.to_address == "sam.lee@example.com" && m.subject.starts_with(subject_starts))
        .map(|m| m.body_text)
        .collect()
}

fn london_noon(date: NaiveDate) -> DateTime<Utc> {
    Utc.from_utc_datetime(&date.and_hms_opt(12, 0, 0).unwrap())
}

both_backends! {
    async fn a_balance_is_paid_in_parts_from_its_link_and_each_payment_counts_once(app: TestApp) {
        let order_id = booked(&app).await;
        let total = quote(false, None).total.pence();
        let due_on: Option<NaiveDate> = on_pool!(app.db(), pool => sqlx::query_scalar("select balance_due_on from enrollment where id = $1")
            .bind(&order_id).fetch_one(pool).await).unwrap();
        assert!(due_on.is_some(), "the due date is kept when the booking fee is paid");

        assert!(balance_page(&app, "token=not-a-token").await["booking"].is_null(), "an unknown link opens nothing");
        let (status, _) = post(&app, "/api/balance/intent", &json!({ "token": "not-a-token", "amount": 5000 })).await;
        assert_eq!(status, 404);

        link(&app, &order_id, "ab0c3d").await;
        let page = balance_page(&app, "token=ab0c3d").await;
        assert_eq!(page["booking"]["balance"], total - 10_000);
        assert_eq!(page["booking"]["minPayment"], 1_000);
        for (amount, message) in [(999, "Please pay at least £10.00."), (total - 9_999, "The balance is £595.00: please pay no more than that.")] {
            let (status, refused) = post(&app, "/api/balance/intent", &json!({ "token": "ab0c3d", "amount": amount })).await;
            assert_eq!((status, refused["error"]["message"].as_str()), (422, Some(message)), "{refused}");
        }

        // A part-payment, by card only.
        let (status, intent) = post(&app, "/api/balance/intent", &json!({ "token": "ab0c3d", "amount": 20_000 })).await;
        assert_eq!((status, intent["payment_methods"].clone()), (200, json!(["card"])));
        let part = pay(&app, "ab0c3d", 20_000).await;
        assert_eq!(status_of(&app, &order_id).await, "deposit");
        let page = balance_page(&app, &format!("token=ab0c3d&payment_intent={part}&redirect_status=succeeded")).await;
        assert_eq!((page["booking"]["paid"].as_i64(), page["booking"]["returnedPaymentRecorded"].as_bool()), (Some(30_000), Some(true)));
        let receipts = mails_to_sam(&app, "Payment received: £200.00").await;
        assert_eq!(receipts.len(), 1);
        assert!(receipts[0].contains("Balance still to pay: £395.00") && receipts[0].contains("/pay-balance/?token="), "{}", receipts[0]);

        // The provider replaying the part-payment's event changes nothing.
        let event = json!({ "id": "evt_balance_replayed", "object": "event", "type": "payment_intent.succeeded", "data": { "object": {
            "id": part, "object": "payment_intent", "amount": 20_000, "amount_received": 20_000, "currency": "gbp",
            "metadata": { "Order ID": order_id, "type": "balance" }, "status": "succeeded", "payment_method_types": ["card"],
        }}});
        for _ in 0..5 {
            assert_eq!(deliver(&app, &event).await, 200);
        }
        assert_eq!(count(&app, &format!("select count(*) from payment where enrollment_id = '{order_id}'")).await, 2);

        // Two tabs each prepare the rest and both are paid: the second is given back whole.
        let rest = total - 30_000;
        let (status, intent) = post(&app, "/api/balance/intent", &json!({ "token": "ab0c3d", "amount": rest })).await;
        assert_eq!((status, intent["payment_methods"].clone()), (200, json!(["card", "klarna", "afterpay_clearpay"])), "the whole balance: any method");
        pay(&app, "ab0c3d", rest).await;
        assert_eq!(status_of(&app, &order_id).await, "completed");
        let (status, intent) = post(&app, "/api/balance/intent", &json!({ "token": "ab0c3d", "amount": rest })).await;
        assert_eq!((status, intent["error"]["message"].as_str()), (422, Some("This booking has nothing left to pay.")));
        assert!(balance_page(&app, "token=ab0c3d").await["booking"]["balance"] == 0);
        let paid_in_full = mails_to_sam(&app, &format!("Payment received: {}", Money::from_pence(rest))).await;
        assert_eq!(paid_in_full.len(), 1);
        assert!(paid_in_full[0].contains("Your training is now paid in full."), "{}", paid_in_full[0]);

        let overpaid = json!({ "id": "evt_second_tab", "object": "event", "type": "payment_intent.succeeded", "data": { "object": {
            "id": "pi_second_tab", "object": "payment_intent", "amount": rest, "amount_received": rest, "currency": "gbp",
            "metadata": { "Order ID": order_id, "type": "balance" }, "status": "succeeded", "payment_method_types": ["card"],
        }}});
        assert_eq!(deliver(&app, &overpaid).await, 200);
        assert_eq!(count(&app, &format!("select count(*) from refund r join payment p on p.id = r.payment_id where p.transaction_id = 'pi_second_tab' and r.amount = {rest}")).await, 1);
        assert_eq!(count(&app, &format!("select count(*) from payment where enrollment_id = '{order_id}'")).await, 4);
        let page = balance_page(&app, "token=ab0c3d").await;
        assert_eq!((page["booking"]["paid"].as_i64(), page["booking"]["balance"].as_i64()), (Some(total), Some(0)), "payments less refunds");
        assert_eq!(mails_to_sam(&app, "Payment received").await.len(), 2, "one receipt per payment counted");
        app.stop().await;
    }

    async fn each_reminder_is_sent_once_by_racing_runners_and_after_an_outage(app: TestApp) {
        let order_id = booked(&app).await;
        let day = |m, d| NaiveDate::from_ymd_opt(2030, m, d).unwrap();
        execute(&app, &format!(
            "update enrollment set starts_on = '2030-03-30', balance_due_on = '2030-03-16', paid_at = '2030-01-10 10:00:00+00:00' where id = '{order_id}'"
        )).await;
        let other = app.another_instance().await;
        let reminders = || mails_to_sam(&app, "Your balance of £595.00");

        assert_eq!(send_balance_reminders(&app.state, london_noon(day(3, 8))).await.unwrap(), 0, "more than a week before");
        let week_before = london_noon(day(3, 9));
        let (a, b) = tokio::join!(send_balance_reminders(&app.state, week_before), send_balance_reminders(&other.state, week_before));
        assert_eq!(a.unwrap() + b.unwrap(), 1, "two runners racing send it once");
        assert_eq!(send_balance_reminders(&app.state, london_noon(day(3, 12))).await.unwrap(), 0, "the week's reminder is not sent again");
        let sent = reminders().await;
        assert_eq!(sent.len(), 1);
        assert!(sent[0].contains("is due by Saturday 16 March 2030."), "{}", sent[0]);

        // The job was down over the due date: one reminder, the one still true.
        let after_outage = london_noon(day(3, 19));
        let (a, b) = tokio::join!(send_balance_reminders(&app.state, after_outage), send_balance_reminders(&other.state, after_outage));
        assert_eq!(a.unwrap() + b.unwrap(), 1);
        let overdue = mails_to_sam(&app, "Your balance of £595.00 is overdue").await;
        assert_eq!(overdue.len(), 1);
        assert!(mails_to_sam(&app, "Your balance of £595.00 is due today").await.is_empty(), "the missed stage is not sent late");
        assert_eq!(send_balance_reminders(&app.state, london_noon(day(3, 25))).await.unwrap(), 0);
        assert_eq!(send_balance_reminders(&app.state, london_noon(day(3, 30))).await.unwrap(), 0, "training has started");
        assert_eq!(count(&app, &format!("select count(*) from balance_reminder where enrollment_id = '{order_id}'")).await, 2);

        // The mailed link pays without signing in.
        let token = overdue[0].split("/pay-balance/?token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
        let page = balance_page(&app, &format!("token={token}")).await;
        assert_eq!(page["booking"]["orderId"], order_id);
        pay(&app, &token, 59_500).await;
        assert_eq!(status_of(&app, &order_id).await, "completed");
        other.stop().await;
        app.stop().await;
    }

    async fn a_booking_paid_in_full_gets_no_reminder(app: TestApp) {
        let order_id = booked(&app).await;
        execute(&app, &format!(
            "update enrollment set starts_on = '2030-03-30', balance_due_on = '2030-03-16', paid_at = '2030-01-10 10:00:00+00:00' where id = '{order_id}'"
        )).await;
        link(&app, &order_id, "fee1d0").await;
        pay(&app, "fee1d0", 59_500).await;
        let due_day = london_noon(NaiveDate::from_ymd_opt(2030, 3, 16).unwrap());
        assert_eq!(send_balance_reminders(&app.state, due_day).await.unwrap(), 0, "paid in full: no reminder");
        assert_eq!(count(&app, "select count(*) from balance_reminder").await, 0);
        app.stop().await;
    }
}
