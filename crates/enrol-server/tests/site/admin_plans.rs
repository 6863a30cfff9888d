//! Instalment plans in the back office (decision 036): staff list the
//! plans, a refused part's first and marked with the bank's words; pause
//! one (its day comes and nothing is charged), resume it (it is), move a
//! part's day within the balance's due day, cancel it, each with one audit
//! row the order shows; and set the most parts and the retry days, checked
//! by the domain's rule. Staff without the money permission change nothing.

use chrono::{Days, Utc};
use reqwest::Method;
use serde_json::{Value, json};

use enrol_domain::enrollment::balance_due_on;
use enrol_domain::london;
use enrol_domain::staff::Role;
use enrol_server::plans::charge_due_parts;

use crate::admin::{audit_rows, staff_member};
use crate::admin_orders::ask;
use crate::both_backends;
use crate::helpers::TestApp;
use crate::instalment_plans::{morning, part_statuses, payments, planned, until_payments};

/// The plans as staff list them.
async fn listed(app: &TestApp, staff: &reqwest::Client) -> Vec<Value> {
    let (status, body) = ask(app, staff, Method::GET, "/plans", None).await;
    assert_eq!(status, 200, "{body}");
    body["plans"].as_array().unwrap().clone()
}

/// A change to a plan that answers it, with one more audit row.
async fn changed(app: &TestApp, staff: &reqwest::Client, method: Method, path: &str, body: Value) -> Value {
    let before = audit_rows(app).await;
    let (status, answer) = ask(app, staff, method, path, Some(body)).await;
    assert_eq!(status, 200, "{path}: {answer}");
    assert_eq!(audit_rows(app).await, before + 1, "{path} writes one audit row");
    answer["plan"].clone()
}

/// A change refused with `expected`: no audit row; its message.
async fn refused(app: &TestApp, staff: &reqwest::Client, method: Method, path: &str, body: Value, expected: u16) -> String {
    let before = audit_rows(app).await;
    let (status, answer) = ask(app, staff, method, path, Some(body)).await;
    assert_eq!(status, expected, "{path}: {answer}");
    assert_eq!(audit_rows(app).await, before, "{path} refused writes nothing");
    answer["error"]["message"].as_str().unwrap_or_default().to_owned()
}

/// The newest audit row on the order: its action and sentence.
async fn last_audit(app: &TestApp, staff: &reqwest::Client, order_id: &str) -> (String, String) {
    let (_, answer) = ask(app, staff, Method::GET, &format!("/orders/{order_id}"), None).await;
    let row = &answer["order"]["audit"][0];
    (row["action"].as_str().unwrap().to_owned(), row["summary"].as_str().unwrap().to_owned())
}

both_backends! {
    async fn staff_pause_resume_and_cancel_a_plan_and_the_job_follows(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        let (order_id, parts) = planned(&app, "4242 4242 4242 4242").await;

        let plans = listed(&app, &staff).await;
        assert_eq!(plans.len(), 1);
        let row = &plans[0];
        assert_eq!((row["orderId"].as_str(), row["student"].as_str(), row["email"].as_str()), (Some(order_id.as_str()), Some("Sam Lee"), Some("sam.lee@example.com")));
        assert!(row["reference"].as_str().unwrap().starts_with("B-"), "{row}");
        let plan = &row["plan"];
        assert_eq!((plan["status"].as_str(), plan["card"].as_str(), plan["needsAttention"].as_bool()), (Some("active"), Some("Visa ending 4242"), Some(false)));
        assert_eq!(plan["parts"][0], json!({ "number": 1, "dueOn": parts[0].due_on, "amount": parts[0].amount.pence(), "status": "scheduled",
            "attempts": 0, "lastError": null, "nextAttemptAt": null }));
        assert_eq!(plan["parts"].as_array().unwrap().len(), 3);
        assert_eq!(plan["nextCharge"], json!({ "number": 1, "on": parts[0].due_on, "amount": parts[0].amount.pence() }));
        let id = plan["id"].as_str().unwrap().to_owned();
        let (_, order) = ask(&app, &staff, Method::GET, &format!("/orders/{order_id}"), None).await;
        assert_eq!(order["order"]["plan"]["id"], id.as_str(), "the order shows its plan");

        // Without the money permission: no change, and no list without the orders one.
        for (method, path, body) in [
            (Method::POST, format!("/plans/{id}/pause"), json!({})),
            (Method::POST, format!("/plans/{id}/resume"), json!({})),
            (Method::POST, format!("/plans/{id}/cancel"), json!({})),
            (Method::PUT, format!("/plans/{id}/instalments/2"), json!({ "dueOn": parts[1].due_on })),
            (Method::GET, "/plans".to_owned(), Value::Null),
        ] {
            let body = Some(body).filter(|b| !b.is_null());
            assert_eq!(ask(&app, &tutor, method, &path, body).await.0, 403, "{path}");
        }

        // Paused: the first part's day comes and nothing is charged.
        let paused = changed(&app, &staff, Method::POST, &format!("/plans/{id}/pause"), json!({})).await;
        assert_eq!((paused["plan"]["status"].as_str(), &paused["plan"]["nextCharge"]), (Some("paused"), &Value::Null));
        assert_eq!(last_audit(&app, &staff, &order_id).await, ("plan.pause".to_owned(), "Payment plan paused".to_owned()));
        assert_eq!(charge_due_parts(&app.state, morning(parts[0].due_on)).await.unwrap(), 0);
        assert_eq!(part_statuses(&app, &order_id).await, ["scheduled", "scheduled", "scheduled"]);
        assert_eq!(payments(&app, &order_id).await, [10_000]);
        let again = refused(&app, &staff, Method::POST, &format!("/plans/{id}/pause"), json!({}), 422).await;
        assert_eq!(again, "This plan is paused: it cannot be changed so.");

        // Resumed: the day that passed is charged at the job's next run.
        let resumed = changed(&app, &staff, Method::POST, &format!("/plans/{id}/resume"), json!({})).await;
        assert_eq!(resumed["plan"]["status"], "active");
        assert_eq!(last_audit(&app, &staff, &order_id).await.0, "plan.resume");
        assert_eq!(charge_due_parts(&app.state, morning(parts[0].due_on) + chrono::Duration::hours(1)).await.unwrap(), 1);
        assert_eq!(until_payments(&app, &order_id, 2).await, [10_000, parts[0].amount.pence()]);
        assert_eq!(part_statuses(&app, &order_id).await, ["paid", "scheduled", "scheduled"]);

        // Cancelled: no part still to pay is charged; the order no longer shows it.
        let cancelled = changed(&app, &staff, Method::POST, &format!("/plans/{id}/cancel"), json!({})).await;
        assert_eq!(cancelled["plan"]["status"], "cancelled");
        assert_eq!(last_audit(&app, &staff, &order_id).await, ("plan.cancel".to_owned(), "Payment plan cancelled".to_owned()));
        for part in &parts[1..] {
            assert_eq!(charge_due_parts(&app.state, morning(part.due_on)).await.unwrap(), 0);
        }
        assert_eq!(part_statuses(&app, &order_id).await, ["paid", "cancelled", "cancelled"]);
        let (_, order) = ask(&app, &staff, Method::GET, &format!("/orders/{order_id}"), None).await;
        assert_eq!(order["order"]["plan"], Value::Null);
        refused(&app, &staff, Method::POST, &format!("/plans/{id}/resume"), json!({}), 422).await;
        refused(&app, &staff, Method::POST, "/plans/no-such-plan/cancel", json!({}), 404).await;
        app.stop().await;
    }

    async fn a_part_moves_only_between_its_neighbours_before_the_balance_is_due_and_never_once_paid(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (order_id, parts) = planned(&app, "4242 4242 4242 4242").await;
        let id = listed(&app, &staff).await[0]["plan"]["id"].as_str().unwrap().to_owned();
        let today = london::today(Utc::now());
        let last_day = balance_due_on(today.checked_add_days(Days::new(150)).unwrap(), today);
        let move_to = |number: &str| format!("/plans/{id}/instalments/{number}");

        let late = refused(&app, &staff, Method::PUT, &move_to("3"), json!({ "dueOn": last_day.succ_opt() }), 422).await;
        assert!(late.starts_with("Choose a day from ") && late.ends_with("end by the day the balance is due."), "{late}");
        let past_next = refused(&app, &staff, Method::PUT, &move_to("2"), json!({ "dueOn": parts[2].due_on.succ_opt() }), 422).await;
        assert!(past_next.starts_with("Choose a day from "), "the parts stay in order: {past_next}");
        refused(&app, &staff, Method::PUT, &move_to("2"), json!({ "dueOn": today }), 422).await;
        assert_eq!(refused(&app, &staff, Method::PUT, &move_to("9"), json!({ "dueOn": last_day }), 422).await, "The plan has no instalment 9.");
        refused(&app, &staff, Method::PUT, &move_to("x"), json!({ "dueOn": last_day }), 404).await;
        refused(&app, &staff, Method::PUT, "/plans/no-such-plan/instalments/2", json!({ "dueOn": last_day }), 404).await;

        let moved = changed(&app, &staff, Method::PUT, &move_to("2"), json!({ "dueOn": parts[2].due_on })).await;
        assert_eq!(moved["plan"]["parts"][1]["dueOn"], json!(parts[2].due_on));
        assert_eq!(moved["plan"]["parts"][0]["dueOn"], json!(parts[0].due_on), "the others stay");
        let (action, summary) = last_audit(&app, &staff, &order_id).await;
        assert_eq!(action, "plan.move");
        assert!(summary.starts_with("Instalment 2 moved to "), "{summary}");

        // The first part is paid on its day: it no longer moves.
        assert_eq!(charge_due_parts(&app.state, morning(parts[0].due_on)).await.unwrap(), 1);
        until_payments(&app, &order_id, 2).await;
        assert_eq!(part_statuses(&app, &order_id).await[0], "paid");
        let paid = refused(&app, &staff, Method::PUT, &move_to("1"), json!({ "dueOn": last_day }), 422).await;
        assert_eq!(paid, "That instalment has been paid or cancelled, or is being charged now.");
        // The moved part is not charged on its old day.
        assert_eq!(charge_due_parts(&app.state, morning(parts[1].due_on)).await.unwrap(), 0);
        assert_eq!(part_statuses(&app, &order_id).await, ["paid", "scheduled", "scheduled"]);
        app.stop().await;
    }

    async fn a_plan_with_a_refused_part_is_listed_first_with_the_bank_s_words(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (healthy, _) = planned(&app, "4242 4242 4242 4242").await;
        let (refusing, parts) = planned(&app, "4000 0027 6000 3184").await;
        charge_due_parts(&app.state, morning(parts[0].due_on)).await.unwrap();
        until_payments(&app, &healthy, 2).await;
        let plans = listed(&app, &staff).await;
        let orders: Vec<&str> = plans.iter().map(|p| p["orderId"].as_str().unwrap()).collect();
        assert_eq!(orders, [refusing.as_str(), healthy.as_str()]);
        let first = &plans[0]["plan"];
        assert_eq!(first["needsAttention"], true);
        let part = &first["parts"][0];
        assert_eq!((part["status"].as_str(), part["attempts"].as_i64()), (Some("retrying"), Some(1)));
        assert!(part["lastError"].as_str().is_some_and(|e| !e.is_empty()), "{part}");
        assert!(part["nextAttemptAt"].is_string(), "{part}");
        assert_eq!(first["nextCharge"]["on"], json!(parts[0].due_on.checked_add_days(Days::new(3)).unwrap()), "tried again after the retry days");
        assert_eq!(plans[1]["plan"]["needsAttention"], false);
        app.stop().await;
    }

    async fn plan_settings_are_checked_and_saved_with_an_audit_row(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        let (status, shown) = ask(&app, &staff, Method::GET, "/plan-settings", None).await;
        assert_eq!((status, shown), (200, json!({ "settings": { "maxInstalments": 6, "retryDays": [3, 7] } })));

        let count = refused(&app, &staff, Method::PUT, "/plan-settings", json!({ "maxInstalments": 13, "retryDays": [3] }), 422).await;
        assert_eq!(count, "A plan may have 2 to 12 instalments.");
        let retries = refused(&app, &staff, Method::PUT, "/plan-settings", json!({ "maxInstalments": 4, "retryDays": [3, 29] }), 422).await;
        assert_eq!(retries, "Retries are 1 to 28 days apart, at most 5 of them.");
        refused(&app, &staff, Method::PUT, "/plan-settings", json!({ "maxInstalments": 4, "retryDays": [1, 2, 3, 4, 5, 6] }), 422).await;
        assert_eq!(ask(&app, &tutor, Method::PUT, "/plan-settings", Some(json!({ "maxInstalments": 4, "retryDays": [] }))).await.0, 403);
        assert_eq!(ask(&app, &tutor, Method::GET, "/plan-settings", None).await.0, 403);

        let before = audit_rows(&app).await;
        let (status, saved) = ask(&app, &staff, Method::PUT, "/plan-settings", Some(json!({ "maxInstalments": 4, "retryDays": [2, 5, 9] }))).await;
        assert_eq!((status, &saved), (200, &json!({ "settings": { "maxInstalments": 4, "retryDays": [2, 5, 9] } })));
        assert_eq!(audit_rows(&app).await, before + 1);
        assert_eq!(ask(&app, &staff, Method::GET, "/plan-settings", None).await.1, saved);
        app.stop().await;
    }
}
