//! Staff actions on money and certificates sent ten times at once over two
//! instances, as a double click or two colleagues at two desks would send
//! them (decision 017): each is done once, or up to its limit,
//! and the rest are refused; one audit row per change that was made. Its
//! `ten_at_once` serves the content races too.

use serde_json::{Value, json};

use enrol_domain::staff::Role;

use crate::accounts::verified_account;
use crate::admin::{audit_rows, staff_member};
use crate::admin_sessions::{book, open, session_form};
use crate::balance::{booked, link, pay};
use crate::both_backends;
use crate::enrol_checkout::{count, order, quote};
use crate::helpers::TestApp;
use crate::readiness_review::made_ready;

/// `POST /api/admin{path}` with `body`, ten times at once, half through
/// each instance: the statuses, sorted.
pub(crate) async fn ten_at_once(app: &TestApp, other: &TestApp, staff: &reqwest::Client, path: &str, body: Value) -> Vec<u16> {
    let mut tries = tokio::task::JoinSet::new();
    for i in 0..10 {
        let instance = if i % 2 == 0 { app } else { other };
        let (staff, url, body) = (staff.clone(), instance.url(&format!("/api/admin{path}")), body.clone());
        tries.spawn(async move { staff.post(url).json(&body).send().await.unwrap().status().as_u16() });
    }
    let mut statuses = tries.join_all().await;
    statuses.sort_unstable();
    statuses
}

/// The order as the back office reads it.
async fn order_of(app: &TestApp, staff: &reqwest::Client, id: &str) -> Value {
    let response = staff.get(app.url(&format!("/api/admin/orders/{id}"))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json::<Value>().await.unwrap()["order"].clone()
}

/// `expected` answers once, then `refused` nine times.
pub(crate) fn once_then(expected: u16, refused: u16) -> Vec<u16> {
    let mut statuses = vec![expected];
    statuses.extend([refused; 9]);
    statuses.sort_unstable();
    statuses
}

both_backends! {
    async fn a_certificate_issued_ten_times_at_once_is_issued_and_mailed_once(app: TestApp) {
        let other = app.another_instance().await;
        verified_account(&app, "sam.lee@example.com").await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let session = open(&app, &staff, &session_form(0, 4)).await;
        let order_id = book(&app, &session, false).await;
        let attended = staff.put(app.url(&format!("/api/admin/sessions/{session}/attendance/{order_id}")))
            .json(&json!({ "attended": true })).send().await.unwrap();
        assert_eq!(attended.status(), 204);
        let owed = count(&app, &format!("select total - deposit from enrollment where id = '{order_id}'")).await;
        link(&app, &order_id, "ce27f2").await;
        pay(&app, "ce27f2", owed).await;
        made_ready(&app, &order_id).await;

        let before = audit_rows(&app).await;
        let statuses = ten_at_once(&app, &other, &staff, &format!("/sessions/{session}/certificates/{order_id}"), json!({})).await;
        assert_eq!(statuses, once_then(201, 409));
        assert_eq!(count(&app, &format!("select count(*) from certificate where session_id = '{session}'")).await, 1);
        assert_eq!(audit_rows(&app).await, before + 1);
        let number: String = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select number from certificate where session_id = $1")
            .bind(&session).fetch_one(pool).await).unwrap();
        let mails = app.db().outbox(500).await.unwrap();
        assert_eq!(mails.iter().filter(|m| m.body_text.contains(&number)).count(), 1, "one certificate mail");
        other.stop().await;
        app.stop().await;
    }

    async fn the_whole_balance_taken_by_hand_ten_times_at_once_is_recorded_once(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = booked(&app).await;
        let balance = order_of(&app, &staff, &id).await["balance"].as_i64().unwrap();
        let before = audit_rows(&app).await;
        let payment = json!({ "amount": balance, "method": "bank_transfer", "reference": "BACS 0042" });
        assert_eq!(ten_at_once(&app, &other, &staff, &format!("/orders/{id}/payments"), payment).await, once_then(200, 422));
        let order = order_of(&app, &staff, &id).await;
        assert_eq!((order["status"].as_str(), order["balance"].as_i64()), (Some("completed"), Some(0)));
        assert_eq!(order["payments"].as_array().unwrap().len(), 2, "the booking fee and one payment by hand");
        assert_eq!(audit_rows(&app).await, before + 1);
        other.stop().await;
        app.stop().await;
    }

    async fn a_refund_by_hand_marked_paid_back_ten_times_at_once_is_made_once(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = booked(&app).await;
        let balance = order_of(&app, &staff, &id).await["balance"].as_i64().unwrap();
        let cash = json!({ "amount": balance, "method": "cash", "reference": "Till 3" });
        assert_eq!(staff.post(app.url(&format!("/api/admin/orders/{id}/payments"))).json(&cash).send().await.unwrap().status(), 200);
        let refunded = staff.post(app.url(&format!("/api/admin/orders/{id}/refund")))
            .json(&json!({ "amount": 1_000, "reason": "Kit not needed" })).send().await.unwrap();
        assert_eq!(refunded.status(), 200);
        let order = order_of(&app, &staff, &id).await;
        let refund = order["refunds"].as_array().unwrap().iter().find(|r| r["byHand"] == true).unwrap()["id"].as_str().unwrap().to_owned();

        let before = audit_rows(&app).await;
        let made = json!({ "reference": "BACS 0043" });
        assert_eq!(ten_at_once(&app, &other, &staff, &format!("/orders/{id}/refunds/{refund}/made"), made).await, once_then(200, 404));
        assert_eq!(count(&app, &format!("select count(*) from receipt where enrollment_id = '{id}' and kind = 'credit_note'")).await, 1);
        assert_eq!(audit_rows(&app).await, before + 1);
        other.stop().await;
        app.stop().await;
    }

    async fn refunds_asked_ten_times_at_once_never_pay_back_more_than_was_paid(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = booked(&app).await;
        let paid = order_of(&app, &staff, &id).await["paid"].as_i64().unwrap();
        let part = paid * 2 / 5;
        let before = audit_rows(&app).await;
        let statuses = ten_at_once(&app, &other, &staff, &format!("/orders/{id}/refund"), json!({ "amount": part, "reason": "Goodwill" })).await;
        assert_eq!(statuses, [200, 200, 422, 422, 422, 422, 422, 422, 422, 422], "two fit in what was paid");
        let order = order_of(&app, &staff, &id).await;
        let refunded: i64 = order["refunds"].as_array().unwrap().iter().map(|r| r["amount"].as_i64().unwrap()).sum();
        assert_eq!((refunded, order["paid"].as_i64()), (2 * part, Some(paid - 2 * part)));
        assert_eq!(audit_rows(&app).await, before + 2);
        other.stop().await;
        app.stop().await;
    }

    async fn seats_lowered_by_staff_while_thirty_orders_race_for_them_are_never_oversold(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let session = open(&app, &staff, &session_form(100, 12)).await;
        let q = quote(false, None);
        let body = order(&session, false, None, "card", &q);
        let mut orders = tokio::task::JoinSet::new();
        for i in 0..30 {
            let target = if i % 2 == 0 { &app } else { &other };
            let request = target.client.post(target.url("/api/enroll/")).header("x-forwarded-for", format!("10.4.0.{i}")).json(&body);
            orders.spawn(async move { request.send().await.expect("request").status().as_u16() });
        }
        // Two colleagues lower the seats to six at once, while the orders come in.
        let mut lowering = tokio::task::JoinSet::new();
        for instance in [&app, &other] {
            let (staff, url) = (staff.clone(), instance.url(&format!("/api/admin/sessions/{session}")));
            lowering.spawn(async move { staff.put(url).json(&session_form(100, 6)).send().await.unwrap().status().as_u16() });
        }
        let lowered = lowering.join_all().await;
        let statuses = orders.join_all().await;
        let held = count(&app, &format!("select count(*) from seat_hold where session_id = '{session}'")).await;
        let seats = count(&app, &format!("select seats from session where id = '{session}'")).await;
        assert_eq!(statuses.iter().filter(|s| **s == 200).count() as i64, held, "{statuses:?}");
        assert!(statuses.iter().all(|s| matches!(s, 200 | 409)), "{statuses:?}");
        assert!(lowered.iter().all(|s| matches!(s, 200 | 409)), "{lowered:?}");
        println!("30 orders while the seats were lowered from 12 to 6: {held} held of {seats} seats, the changes answered {lowered:?}");
        assert!(held <= seats, "{held} held of {seats} seats");
        // The seats are six only if no more than six were taken when it was asked; else twelve and refused.
        assert_eq!(seats == 6, lowered.contains(&200), "seats {seats}, answers {lowered:?}, held {held}");
        other.stop().await;
        app.stop().await;
    }

    async fn two_colleagues_changing_a_session_at_once_leave_an_audit_log_that_chains(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let session = open(&app, &staff, &session_form(100, 3)).await;
        let mut edits = tokio::task::JoinSet::new();
        for (instance, seats) in [(&app, 4), (&other, 5)] {
            let (staff, url) = (staff.clone(), instance.url(&format!("/api/admin/sessions/{session}")));
            edits.spawn(async move { staff.put(url).json(&session_form(100, seats)).send().await.unwrap().status().as_u16() });
        }
        assert_eq!(edits.join_all().await, [200, 200]);
        let log: Value = staff.get(app.url(&format!("/api/admin/audit?entity=session&entityId={session}"))).send().await.unwrap().json().await.unwrap();
        let changes: Vec<(i64, i64)> = log["entries"].as_array().unwrap().iter()
            .filter(|e| e["action"] == "session.update")
            .map(|e| (e["before"]["seats"].as_i64().unwrap(), e["after"]["seats"].as_i64().unwrap()))
            .collect();
        // Newest first: the later change's "before" is the earlier one's "after".
        assert_eq!(changes.len(), 2, "{log}");
        assert_eq!((changes[1].0, changes[0].0), (3, changes[1].1), "{changes:?}");
        other.stop().await;
        app.stop().await;
    }
}
