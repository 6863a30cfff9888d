//! A student cancels a booking from the account (decision 015): the terms are
//! shown first; within 14 days of booking everything paid comes back,
//! later the booking fee is kept; refunds go through the gateway once,
//! whatever is retried; the seat goes back on sale; only the owner can; a
//! date the college cancelled gives everything back (decision 017).

use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::balance::{booked, link, pay, status_of};
use crate::both_backends;
use crate::enrol_checkout::{count, execute};
use crate::helpers::TestApp;
use crate::ownership::deliver;

async fn call(app: &TestApp, method: reqwest::Method, path: &str, token: Option<&str>) -> (u16, Value) {
    let mut request = app.client.request(method, app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.header("content-type", "application/json").body("{}").send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

async fn registrations(app: &TestApp) -> i64 {
    count(app, "select registrations from session where id = 'chemical-peels-3'").await
}

both_backends! {
    async fn cancelling_within_fourteen_days_refunds_everything_and_frees_the_seat(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked(&app).await;
        link(&app, &order_id, "c0ffee").await;
        let part = pay(&app, "c0ffee", 20_000).await;
        let seats_taken = registrations(&app).await;
        let quote_path = format!("/api/account/enrollments/{order_id}/cancellation");
        let cancel_path = format!("/api/account/enrollments/{order_id}/cancel");

        // Only the owner, signed in, may ask or cancel.
        let someone = verified_account(&app, "someone@example.com").await;
        assert_eq!(call(&app, reqwest::Method::GET, &quote_path, Some(&someone)).await.0, 404);
        assert_eq!(call(&app, reqwest::Method::POST, &cancel_path, Some(&someone)).await.0, 404);
        assert_eq!(call(&app, reqwest::Method::POST, &cancel_path, None).await.0, 401);
        assert_eq!(status_of(&app, &order_id).await, "deposit");

        let (status, quote) = call(&app, reqwest::Method::GET, &quote_path, Some(&sam)).await;
        assert_eq!(status, 200, "{quote}");
        assert_eq!((quote["terms"].as_str(), quote["refund"].as_i64(), quote["kept"].as_i64()), (Some("coolingOff"), Some(30_000), Some(0)));
        assert!(quote["explanation"].as_str().unwrap().contains("booking fee included"));

        // Sent twice at once (a double click, a retry): cancelled once.
        let (a, b) = tokio::join!(
            call(&app, reqwest::Method::POST, &cancel_path, Some(&sam)),
            call(&app, reqwest::Method::POST, &cancel_path, Some(&sam))
        );
        let mut statuses = [a.0, b.0];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 422], "{} {}", a.1, b.1);
        assert_eq!(status_of(&app, &order_id).await, "cancelled");
        assert_eq!(registrations(&app).await, seats_taken - 1, "the seat is back on sale");
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}' and type = 'CANCELLED'")).await, 1);

        // Each payment refunded in full at the gateway, once.
        let refunds = format!("select count(*) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{order_id}'");
        assert_eq!(count(&app, &refunds).await, 2);
        assert_eq!(count(&app, &format!("{refunds} and r.status = 'succeeded' and r.provider_refund_id is not null")).await, 2);
        assert_eq!(count(&app, &format!("select cast(sum(r.amount) as bigint) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{order_id}'")).await, 30_000);
        assert_eq!(count(&app, &format!("select count(*) from payment where enrollment_id = '{order_id}' and status = 'refunded'")).await, 2);
        assert_eq!(enrol_server::refunds::make_due_refunds(&app.state).await.unwrap(), 0, "nothing is refunded twice");
        let refunded = json!({ "id": "evt_charge_refunded", "object": "event", "type": "charge.refunded", "data": { "object": {
            "id": "ch_part", "object": "charge", "payment_intent": part, "amount_refunded": 20_000,
        }}});
        for _ in 0..5 {
            assert_eq!(deliver(&app, &refunded).await, 200, "the provider's refund events, replayed");
        }
        assert_eq!(count(&app, &refunds).await, 2);
        let mails = app.db().outbox(50).await.unwrap();
        let cancelled: Vec<_> = mails.iter().filter(|m| m.subject.ends_with("booking is cancelled")).collect();
        assert_eq!(cancelled.len(), 1);
        assert!(cancelled[0].body_text.contains("We are refunding £300.00"), "{}", cancelled[0].body_text);
        // The account says what was paid and what came back.
        let (_, account) = call(&app, reqwest::Method::GET, "/api/account", Some(&sam)).await;
        let booking = &account["enrollments"][0];
        assert_eq!((booking["status"].as_str(), booking["paid"].as_i64(), booking["refunded"].as_i64()), (Some("cancelled"), Some(0), Some(30_000)));
        assert_eq!((booking["discount"].as_i64(), booking["balance"].as_i64()), (Some(0), Some(0)));

        // A cancelled booking takes no more payments and gets no reminders.
        let (status, refused) = crate::enrol_checkout::post(&app, "/api/balance/intent", &json!({ "token": "c0ffee", "amount": 10_000 })).await;
        assert_eq!(status, 422, "{refused}");
        assert_eq!(call(&app, reqwest::Method::POST, &cancel_path, Some(&sam)).await.0, 422);
        app.stop().await;
    }

    async fn after_fourteen_days_the_booking_fee_is_kept_and_close_to_training_everything_is(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked(&app).await;
        link(&app, &order_id, "feed01").await;
        pay(&app, "feed01", 20_000).await;
        let today = enrol_domain::london::today(chrono::Utc::now());
        let set_dates = |paid_days_ago: i64, starts_in: i64| {
            format!(
                "update enrollment set paid_at = '{}', starts_on = '{}' where id = '{order_id}'",
                (chrono::Utc::now() - chrono::Duration::days(paid_days_ago)).format("%Y-%m-%d %H:%M:%S+00:00"),
                today + chrono::Duration::days(starts_in)
            )
        };
        let quote_path = format!("/api/account/enrollments/{order_id}/cancellation");

        execute(&app, &set_dates(20, 10)).await;
        let (_, late) = call(&app, reqwest::Method::GET, &quote_path, Some(&sam)).await;
        assert_eq!((late["terms"].as_str(), late["refund"].as_i64(), late["kept"].as_i64()), (Some("late"), Some(0), Some(30_000)));
        execute(&app, &set_dates(20, 0)).await;
        let (status, started) = call(&app, reqwest::Method::GET, &quote_path, Some(&sam)).await;
        assert_eq!((status, started["error"]["message"].as_str().map(|m| m.starts_with("Your training has started"))), (422, Some(true)));

        execute(&app, &set_dates(20, 40)).await;
        let (status, cancelled) = call(&app, reqwest::Method::POST, &format!("/api/account/enrollments/{order_id}/cancel"), Some(&sam)).await;
        assert_eq!(status, 200, "{cancelled}");
        assert_eq!((cancelled["terms"].as_str(), cancelled["refund"].as_i64(), cancelled["kept"].as_i64()), (Some("beforeTraining"), Some(20_000), Some(10_000)));
        let refunded = format!(
            "select count(*) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{order_id}' \
             and r.amount = 20000 and p.amount = 20000 and r.status = 'succeeded'"
        );
        assert_eq!(count(&app, &refunded).await, 1, "the balance payment comes back, the booking fee stays");
        assert_eq!(count(&app, &format!("select count(*) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{order_id}'")).await, 1);
        app.stop().await;
    }

    async fn a_date_the_college_cancelled_gives_everything_back_whatever_the_terms(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked(&app).await;
        link(&app, &order_id, "ca11ed").await;
        pay(&app, "ca11ed", 20_000).await;
        // Booked 20 days ago, training in 10 days: the terms give nothing back.
        execute(&app, &format!(
            "update enrollment set paid_at = '{}', starts_on = '{}' where id = '{order_id}'",
            (chrono::Utc::now() - chrono::Duration::days(20)).format("%Y-%m-%d %H:%M:%S+00:00"),
            enrol_domain::london::today(chrono::Utc::now()) + chrono::Duration::days(10)
        )).await;
        let quote_path = format!("/api/account/enrollments/{order_id}/cancellation");
        let (_, late) = call(&app, reqwest::Method::GET, &quote_path, Some(&sam)).await;
        assert_eq!(late["terms"], "late");

        execute(&app, "update session set status = 'cancelled' where id = 'chemical-peels-3'").await;
        let (_, quote) = call(&app, reqwest::Method::GET, &quote_path, Some(&sam)).await;
        assert_eq!((quote["terms"].as_str(), quote["refund"].as_i64(), quote["kept"].as_i64()), (Some("sessionCancelled"), Some(30_000), Some(0)));
        let (status, cancelled) = call(&app, reqwest::Method::POST, &format!("/api/account/enrollments/{order_id}/cancel"), Some(&sam)).await;
        assert_eq!((status, cancelled["refund"].as_i64()), (200, Some(30_000)), "{cancelled}");
        assert_eq!(count(&app, &format!("select cast(sum(r.amount) as bigint) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{order_id}'")).await, 30_000);
        let mail = app.db().outbox(50).await.unwrap().into_iter().find(|m| m.subject.ends_with("booking is cancelled")).unwrap();
        assert!(mail.body_text.contains("We cancelled a date you booked"), "{}", mail.body_text);
        app.stop().await;
    }
}
