//! Ready for training (issue 29, decision 032): paying a booking fee gives
//! the booking the forms and documents its course asks for, once, however
//! the payment arrives; each is due a week before the course's first day
//! (never a day already past); a guest's tasks join the account that proves
//! the booking's email; a cancellation closes them.

use chrono::{Duration, Utc};
use enrol_domain::london;
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::balance::booked;
use crate::both_backends;
use crate::enrol_checkout::{count, execute};
use crate::graphql::graphql;
use crate::helpers::TestApp;
use crate::learning::as_student;

const SESSION: &str = "chemical-peels-3";
const TASKS: &str = "{ forms { kind course_title due_on } uploads { title status due_on } }";

async fn tasks_of(app: &TestApp, token: &str) -> Value {
    let (status, answer) = graphql(app, Some(token), TASKS, json!({})).await;
    assert_eq!(status, 200, "{answer}");
    answer["data"].clone()
}

both_backends! {
    async fn a_paid_booking_gets_its_courses_forms_and_documents_once_due_a_week_before_its_first_day(app: TestApp) {
        let in_a_month = london::today(Utc::now()) + Duration::days(30);
        execute(&app, &format!("update session set date = '{in_a_month}' where id = '{SESSION}'")).await;
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked(&app).await;
        // The reconciliation finds the same payment: nothing more is asked.
        enrol_server::reconcile::reconcile(&app.state, Utc::now()).await.unwrap();
        assert_eq!(count(&app, &format!("select count(*) from user_form where enrollment_id = '{order_id}'")).await, 2);
        assert_eq!(count(&app, &format!("select count(*) from upload_request where enrollment_id = '{order_id}'")).await, 1);

        let tasks = tasks_of(&app, &sam).await;
        let due = (in_a_month - Duration::days(7)).to_string();
        let forms: Vec<(&str, &str)> = tasks["forms"].as_array().unwrap().iter().map(|f| (f["kind"].as_str().unwrap(), f["due_on"].as_str().unwrap())).collect();
        assert_eq!(forms, [("consultation", due.as_str()), ("medical", due.as_str())], "{tasks}");
        assert_eq!(tasks["forms"][0]["course_title"], "Chemical Peels Course");
        assert_eq!(tasks["uploads"][0]["title"], "Level 2 or 3 beauty qualification, or healthcare registration");
        assert_eq!((tasks["uploads"][0]["status"].as_str(), tasks["uploads"][0]["due_on"].as_str()), (Some("requested"), Some(due.as_str())));

        // Cancelled: nothing more is asked.
        let cancelled = as_student(&app, reqwest::Method::POST, &format!("/api/account/enrollments/{order_id}/cancel"), Some(&sam))
            .json(&json!({})).send().await.unwrap();
        assert_eq!(cancelled.status().as_u16(), 200);
        assert_eq!(tasks_of(&app, &sam).await, json!({ "forms": [], "uploads": [] }));
        assert_eq!(count(&app, &format!("select count(*) from user_form where enrollment_id = '{order_id}' and closed_at is not null")).await, 2);
        app.stop().await;
    }

    async fn a_late_bookings_tasks_are_due_today_and_a_guests_join_the_account_that_proves_the_email(app: TestApp) {
        let in_three_days = london::today(Utc::now()) + Duration::days(3);
        execute(&app, &format!("update session set date = '{in_three_days}' where id = '{SESSION}'")).await;
        let order_id = booked(&app).await;
        assert_eq!(count(&app, &format!("select count(*) from user_form where enrollment_id = '{order_id}' and user_id is null")).await, 2);

        let sam = verified_account(&app, "sam.lee@example.com").await;
        let tasks = tasks_of(&app, &sam).await;
        let today = london::today(Utc::now()).to_string();
        assert_eq!(tasks["forms"].as_array().map(Vec::len), Some(2), "{tasks}");
        assert!(tasks["forms"].as_array().unwrap().iter().all(|f| f["due_on"] == today.as_str()), "a week before has passed: due today, {tasks}");
        app.stop().await;
    }
}
