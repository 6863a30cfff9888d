//! A student moves a booking to another date (decision 015): only to a date of
//! the same course with a free seat, the new seat held before the old one
//! is given back, the price difference refunded or added to the balance,
//! a new confirmation with the same calendar entry updated; one free seat
//! and two bookings asking at once, on two instances: one moves; a date
//! the college cancelled moves whenever (decision 017).

use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::balance::{booked, booked_on, link, pay, status_of};
use crate::both_backends;
use crate::enrol_checkout::{count, execute};
use crate::helpers::TestApp;

async fn call(app: &TestApp, method: reqwest::Method, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let request = app.client.request(method, app.url(path)).bearer_auth(token);
    let request = match body {
        Some(body) => request.json(&body),
        None => request,
    };
    let response = request.send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

async fn registrations(app: &TestApp, session: &str) -> i64 {
    count(app, &format!("select registrations from session where id = '{session}'")).await
}

async fn move_to(app: &TestApp, token: &str, order_id: &str, session: &str) -> (u16, Value) {
    let body = json!({ "courseId": "chemical-peels", "sessionId": session });
    call(app, reqwest::Method::POST, &format!("/api/account/enrollments/{order_id}/move"), token, Some(body)).await
}

both_backends! {
    async fn a_booking_moves_to_a_cheaper_date_with_a_free_seat_and_the_difference_comes_back(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked(&app).await;
        link(&app, &order_id, "da7e01").await;
        pay(&app, "da7e01", 59_500).await;
        assert_eq!(status_of(&app, &order_id).await, "completed");
        execute(&app, "update session set price = 59500 where id = 'chemical-peels-1'").await;
        let (before_old, before_new) = (registrations(&app, "chemical-peels-3").await, registrations(&app, "chemical-peels-1").await);

        let (status, dates) = call(&app, reqwest::Method::GET, &format!("/api/account/enrollments/{order_id}/dates"), &sam, None).await;
        assert_eq!(status, 200, "{dates}");
        let offered: Vec<(&str, i64)> = dates["courses"][0]["dates"].as_array().unwrap().iter()
            .map(|d| (d["sessionId"].as_str().unwrap(), d["difference"].as_i64().unwrap())).collect();
        assert_eq!(offered, [("chemical-peels-1", -10_000)], "the full date is not offered, nor the booked one");
        assert!(dates["courses"][0]["refused"].is_null());

        let someone = verified_account(&app, "someone@example.com").await;
        assert_eq!(move_to(&app, &someone, &order_id, "chemical-peels-1").await.0, 404);
        let (status, full) = move_to(&app, &sam, &order_id, "chemical-peels-2").await;
        assert_eq!((status, full["error"]["message"].as_str()), (409, Some("That date is now fully booked. Please choose another date.")));
        assert_eq!(move_to(&app, &sam, &order_id, "chemical-peels-3").await.0, 422, "the date already booked");

        let (status, moved) = move_to(&app, &sam, &order_id, "chemical-peels-1").await;
        assert_eq!(status, 200, "{moved}");
        assert_eq!((moved["total"].as_i64(), moved["refund"].as_i64()), (Some(59_500), Some(10_000)));
        assert_eq!(registrations(&app, "chemical-peels-3").await, before_old - 1);
        assert_eq!(registrations(&app, "chemical-peels-1").await, before_new + 1);
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}' and session_id = 'chemical-peels-1'")).await, 1);
        assert_eq!(count(&app, &format!("select cast(total as bigint) from enrollment where id = '{order_id}'")).await, 59_500);
        assert_eq!(count(&app, &format!("select cast(calendar_sequence as bigint) from enrollment where id = '{order_id}'")).await, 1);
        assert_eq!(status_of(&app, &order_id).await, "completed");
        let refunded = format!(
            "select count(*) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{order_id}' \
             and r.amount = 10000 and r.status = 'succeeded' and r.reason = 'date change'"
        );
        assert_eq!(count(&app, &refunded).await, 1);
        let mail = app.db().outbox(50).await.unwrap().into_iter().find(|m| m.subject == "Your new date for Chemical Peels Course").expect("the new date's mail");
        assert!(mail.body_text.contains("we are refunding £100.00"), "{}", mail.body_text);
        let invite = mail.attachment_body.expect("the updated invite");
        assert!(invite.contains("SEQUENCE:1\r\n") && invite.contains(&format!("UID:booking-{order_id}-chemical-peels@enrol")), "{invite}");
        app.stop().await;
    }

    async fn two_students_moving_to_the_last_seat_at_once_move_once(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let (first, second) = (booked(&app).await, booked(&app).await);
        execute(&app, "update session set seats = registrations + 1 where id = 'chemical-peels-1'").await;
        let other = app.another_instance().await;
        let (a, b) = tokio::join!(move_to(&app, &sam, &first, "chemical-peels-1"), move_to(&other, &sam, &second, "chemical-peels-1"));
        let mut statuses = [a.0, b.0];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "{} {}", a.1, b.1);
        assert_eq!(count(&app, "select cast(seats - registrations as bigint) from session where id = 'chemical-peels-1'").await, 0);
        assert_eq!(count(&app, "select count(*) from registration where session_id = 'chemical-peels-1' and type = 'STUDENT'").await, 1);
        other.stop().await;
        app.stop().await;
    }

    async fn a_date_the_college_cancelled_moves_to_any_later_date_however_close(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked_on(&app, "chemical-peels-1").await;
        let dates_path = format!("/api/account/enrollments/{order_id}/dates");
        let (_, dates) = call(&app, reqwest::Method::GET, &dates_path, &sam, None).await;
        assert!(dates["courses"][0]["refused"].as_str().unwrap().starts_with("Your course is less than 14 days away"), "{dates}");
        assert_eq!(move_to(&app, &sam, &order_id, "chemical-peels-3").await.0, 422, "twelve days before training");

        execute(&app, "update session set status = 'cancelled' where id = 'chemical-peels-1'").await;
        let (status, dates) = call(&app, reqwest::Method::GET, &dates_path, &sam, None).await;
        assert_eq!(status, 200, "{dates}");
        assert!(dates["courses"][0]["refused"].is_null(), "{dates}");
        let offered: Vec<&str> = dates["courses"][0]["dates"].as_array().unwrap().iter().map(|d| d["sessionId"].as_str().unwrap()).collect();
        assert_eq!(offered, ["chemical-peels-3"], "any later date with a free seat");
        let (status, moved) = move_to(&app, &sam, &order_id, "chemical-peels-3").await;
        assert_eq!(status, 200, "{moved}");
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}' and session_id = 'chemical-peels-3'")).await, 1);
        assert_eq!(count(&app, "select count(*) from audit_log").await, 0, "the student's own move is not audited");
        app.stop().await;
    }
}
