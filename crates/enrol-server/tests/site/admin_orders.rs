//! Orders in the back office (decision 017): staff find bookings
//! and read one whole, and refund, move, cancel, record money taken by
//! hand, move the balance's due day and send a mail again, each through
//! the student's own path where there is one, each with one audit row,
//! each refusing what the rules refuse. (Who may call each route is
//! checked by the walk of every admin route in `admin`.)

use chrono::{Days, NaiveDate, TimeZone, Utc};
use reqwest::Method;
use serde_json::{Value, json};

use enrol_domain::grow::GrowPlan;
use enrol_domain::london;
use enrol_domain::staff::Role;
use enrol_server::demo_history;
use enrol_server::reminders::send_balance_reminders;

use crate::admin::{audit_rows, staff_member};
use crate::balance::{booked, booked_on, link, mails_to_sam, pay, status_of};
use crate::both_backends;
use crate::enrol_checkout::{count, execute, order, prepared, quote};
use crate::helpers::{Backend, TestApp, fresh_database, test_config};

/// `method` on `/api/admin{path}` as `client`: the status and the body.
pub(crate) async fn ask(app: &TestApp, client: &reqwest::Client, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let request = client.request(method, app.url(&format!("/api/admin{path}")));
    let request = match body {
        Some(body) => request.json(&body),
        None => request,
    };
    let response = request.send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// The ids of the orders a search finds, in the order listed.
async fn found(app: &TestApp, staff: &reqwest::Client, query: &str) -> Vec<String> {
    let (status, body) = ask(app, staff, Method::GET, &format!("/orders?{query}"), None).await;
    assert_eq!(status, 200, "{query}: {body}");
    body["orders"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap().to_owned()).collect()
}

/// A staff action on order `id`: it answers the order, with one more audit row.
async fn act(app: &TestApp, staff: &reqwest::Client, id: &str, action: &str, body: Value) -> Value {
    let before = audit_rows(app).await;
    let (status, answer) = ask(app, staff, Method::POST, &format!("/orders/{id}/{action}"), Some(body)).await;
    assert_eq!(status, 200, "{action}: {answer}");
    assert_eq!(answer["order"]["id"], id);
    assert_eq!(audit_rows(app).await, before + 1, "{action} writes one audit row");
    answer["order"].clone()
}

/// A staff action refused with `expected`, which changes nothing and writes no audit row.
async fn refused(app: &TestApp, staff: &reqwest::Client, id: &str, action: &str, body: Value, expected: u16) -> Value {
    let before = audit_rows(app).await;
    let (status, answer) = ask(app, staff, Method::POST, &format!("/orders/{id}/{action}"), Some(body)).await;
    assert_eq!(status, expected, "{action}: {answer}");
    assert_eq!(audit_rows(app).await, before);
    answer
}

async fn registrations(app: &TestApp, session: &str) -> i64 {
    count(app, &format!("select registrations from session where id = '{session}'")).await
}

/// Every page of the orders `query` finds in `list` (`/orders` or
/// `/online-orders`), followed by each answer's `next`: the orders' ids,
/// page by page.
pub(crate) async fn every_page(app: &TestApp, staff: &reqwest::Client, list: &str, query: &str) -> Vec<Vec<String>> {
    let (mut pages, mut path) = (Vec::new(), format!("{list}?{query}"));
    loop {
        let (status, body) = ask(app, staff, Method::GET, &path, None).await;
        assert_eq!(status, 200, "{path}: {body}");
        pages.push(body["orders"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap().to_owned()).collect());
        match body["next"].as_str() {
            Some(next) => path = format!("{list}?{query}&before={}", urlencoding(next)),
            None => return pages,
        }
    }
}

/// `text` as a query string's value.
fn urlencoding(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-._~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

both_backends! {
    async fn a_search_pages_through_every_order_it_finds_newest_first_each_once(app: TestApp) {
        // A decade at a hundredth of a busy college's size: thousands of bookings.
        demo_history::grow(app.db(), &app.state.config, GrowPlan::new(10, 0.01).unwrap(), 1).await.unwrap();
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let db = app.db();
        let ids = |sql: &str| {
            let sql = sql.to_owned();
            async move { enrol_db::on_pool!(db, pool => sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql.clone())).fetch_all(pool).await).unwrap() }
        };
        let course = ids("select course_id from enrollment_line group by course_id order by count(*) desc, course_id limit 1").await.remove(0);
        let day = ids("select date from enrollment_line where date is not null group by date order by count(*) desc, date limit 1").await.remove(0);
        let surname = ids("select family_name from enrollment group by family_name order by count(*) desc, family_name limit 1").await.remove(0);
        let newest = "order by created_at desc, id desc";
        for (query, expected) in [
            (String::new(), format!("select id from enrollment {newest}")),
            (format!("course={course}"), format!("select id from enrollment where id in (select enrollment_id from enrollment_line where course_id = '{course}') {newest}")),
            (format!("date={day}"), format!("select id from enrollment where id in (select enrollment_id from enrollment_line where date = '{day}') {newest}")),
            (format!("course={course}&status=completed"), format!("select id from enrollment where status = 'completed' and id in (select enrollment_id from enrollment_line where course_id = '{course}') {newest}")),
            (format!("q={surname}"), format!("select id from enrollment where lower(family_name) like '%{}%' or lower(given_name) like '%{0}%' or lower(email) like '%{0}%' {newest}", surname.to_lowercase())),
        ] {
            let expected = ids(&expected).await;
            // A day's bookings, at this size, fit on one page.
            assert!(expected.len() > if query.starts_with("date") { 10 } else { 100 }, "{query}: {} found", expected.len());
            let pages = every_page(&app, &staff, "/orders", &query).await;
            assert!(pages.iter().all(|page| page.len() <= 100), "{query}: at most 100 a page");
            assert!(pages[..pages.len() - 1].iter().all(|page| page.len() == 100), "{query}: every page but the last full");
            assert_eq!(pages.concat(), expected, "{query}: every order found, newest first, once");
        }
        // A place that is not one is refused, not read as the first page.
        for bad in ["yesterday", "2026-01-01T09:30:00Z_", "2026-01-01T09:30:00_x"] {
            assert_eq!(ask(&app, &staff, Method::GET, &format!("/orders?before={bad}"), None).await.0, 400, "{bad}");
        }
        app.stop().await;
    }

    async fn orders_are_found_by_name_email_id_status_course_and_date(app: TestApp) {

        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let sam = booked(&app).await;
        let q = quote(false, None);
        let (ada, _, _) = prepared(&app, &order("chemical-peels-1", false, None, "card", &q), q.deposit, "booking-fee").await;
        execute(&app, &format!("update enrollment set given_name = 'Ada', family_name = 'Byron', email = 'ada@example.com' where id = '{ada}'")).await;
        let first_date: NaiveDate = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select date from session where id = 'chemical-peels-1'")
            .fetch_one(pool).await).unwrap();

        assert_eq!(found(&app, &staff, "").await, [ada.as_str(), sam.as_str()], "newest first");
        assert_eq!(found(&app, &staff, "q=sam%20LEE").await, [sam.as_str()]);
        assert_eq!(found(&app, &staff, "q=ADA@example").await, [ada.as_str()]);
        assert_eq!(found(&app, &staff, &format!("q={}", &sam[24..].to_uppercase())).await, [sam.as_str()], "part of the order id");
        assert_eq!(found(&app, &staff, "status=deposit").await, [sam.as_str()]);
        assert_eq!(found(&app, &staff, "status=pending&q=").await, [ada.as_str()], "an empty parameter asks nothing");
        assert_eq!(found(&app, &staff, "course=chemical-peels").await, [ada.as_str(), sam.as_str()]);
        assert!(found(&app, &staff, "course=chemical").await.is_empty(), "a course id is matched whole");
        assert_eq!(found(&app, &staff, &format!("date={first_date}")).await, [ada.as_str()]);
        assert!(found(&app, &staff, "q=sam&status=pending").await.is_empty());
        assert!(found(&app, &staff, "q=50%25_").await.is_empty(), "like's wildcards are text");
        assert!(found(&app, &staff, "q=s*m").await.is_empty(), "glob's too");
        // A name changed is found by its new words, and no longer by its old.
        execute(&app, &format!("update enrollment set family_name = 'King' where id = '{ada}'")).await;
        assert_eq!(found(&app, &staff, "q=ada%20k").await, [ada.as_str()]);
        assert!(found(&app, &staff, "q=byron").await.is_empty());
        assert_eq!(ask(&app, &staff, Method::GET, "/orders?status=paid", None).await.0, 400);
        assert_eq!(ask(&app, &staff, Method::GET, "/orders?date=soon", None).await.0, 400);

        let (_, list) = ask(&app, &staff, Method::GET, "/orders?q=sam", None).await;
        let row = &list["orders"][0];
        assert_eq!((row["name"].as_str(), row["email"].as_str(), row["status"].as_str()), (Some("Sam Lee"), Some("sam.lee@example.com"), Some("deposit")));
        assert_eq!((row["total"].as_i64(), row["paid"].as_i64(), row["courses"].clone()), (Some(69_500), Some(10_000), json!(["Chemical Peels Course"])));
        let (_, pending) = ask(&app, &staff, Method::GET, &format!("/orders/{ada}"), None).await;
        assert_eq!(pending["order"]["holds"][0]["sessionId"], "chemical-peels-1", "an unpaid order's seat hold");
        assert_eq!(ask(&app, &staff, Method::GET, "/orders/no-such-order", None).await.0, 404);
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        assert_eq!(ask(&app, &tutor, Method::GET, "/orders", None).await.0, 403);
        app.stop().await;
    }

    async fn a_refund_up_to_what_was_paid_shows_on_the_order_with_its_mails_and_audit(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = booked(&app).await;
        refused(&app, &staff, &id, "refund", json!({ "amount": 10_001, "reason": "Goodwill" }), 422).await;
        refused(&app, &staff, &id, "refund", json!({ "amount": 0, "reason": "Goodwill" }), 422).await;
        refused(&app, &staff, &id, "refund", json!({ "amount": 2_000, "reason": " " }), 422).await;
        refused(&app, &staff, "no-such-order", "refund", json!({ "amount": 2_000, "reason": "Goodwill" }), 404).await;

        let order = act(&app, &staff, &id, "refund", json!({ "amount": 2_000, "reason": "Goodwill" })).await;
        assert_eq!((order["status"].as_str(), order["paid"].as_i64(), order["balance"].as_i64()), (Some("deposit"), Some(8_000), Some(61_500)), "still booked");
        assert_eq!(order["lines"][0], json!({ "courseId": "chemical-peels", "title": "Chemical Peels Course", "sessionId": "chemical-peels-3",
            "date": order["lines"][0]["date"], "type": "onsite", "kit": null, "amount": 69_500 }));
        assert_eq!((order["payments"][0]["amount"].as_i64(), order["payments"][0]["method"].as_str()), (Some(10_000), Some("card")));
        let refund = &order["refunds"][0];
        assert_eq!((refund["amount"].as_i64(), refund["reason"].as_str(), refund["status"].as_str()), (Some(2_000), Some("Goodwill"), Some("succeeded")));
        let subjects: Vec<&str> = order["mails"].as_array().unwrap().iter().map(|m| m["subject"].as_str().unwrap()).collect();
        assert!(subjects.contains(&"Your refund of £20.00"), "{subjects:?}");
        let audit = &order["audit"][0];
        assert_eq!((audit["action"].as_str(), audit["actorEmail"].as_str()), (Some("order.refund"), Some("staff@college.test")));
        assert_eq!((audit["before"]["paid"].as_i64(), audit["after"]["paid"].as_i64()), (Some(10_000), Some(8_000)));
        refused(&app, &staff, &id, "refund", json!({ "amount": 8_001, "reason": "Goodwill" }), 422).await;

        // A mail sent to the order's address goes again, a copy; no other mail does.
        let confirmation = order["mails"].as_array().unwrap().iter().find(|m| m["subject"] != "Your refund of £20.00").unwrap().clone();
        let sent_before = mails_to_sam(&app, confirmation["subject"].as_str().unwrap()).await.len();
        let mail_id = confirmation["id"].as_str().unwrap();
        let order = act(&app, &staff, &id, &format!("mails/{mail_id}/resend"), json!({})).await;
        assert_eq!(mails_to_sam(&app, confirmation["subject"].as_str().unwrap()).await.len(), sent_before + 1);
        assert_eq!(order["audit"][0]["action"], "order.resend_mail");
        execute(&app, "insert into mail_outbox (id, to_address, subject, body_text, created_at) values ('elsewhere', 'ada@example.com', 'Hi', 'Hi', current_timestamp)").await;
        refused(&app, &staff, &id, "mails/elsewhere/resend", json!({}), 404).await;
        app.stop().await;
    }

    async fn staff_move_a_booking_inside_fourteen_days_but_never_to_a_full_date(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = booked_on(&app, "chemical-peels-1").await;
        let (first, last) = (registrations(&app, "chemical-peels-1").await, registrations(&app, "chemical-peels-3").await);
        let full = refused(&app, &staff, &id, "move", json!({ "fromSessionId": "chemical-peels-1", "toSessionId": "chemical-peels-2" }), 409).await;
        assert_eq!(full["error"]["message"], "That date is now fully booked. Please choose another date.");
        refused(&app, &staff, &id, "move", json!({ "fromSessionId": "chemical-peels-3", "toSessionId": "chemical-peels-1" }), 404).await;
        refused(&app, &staff, &id, "move", json!({ "fromSessionId": "chemical-peels-1", "toSessionId": "chemical-peels-1" }), 422).await;

        // Twelve days before training: past the students' limit, not the staff's.
        let order = act(&app, &staff, &id, "move", json!({ "fromSessionId": "chemical-peels-1", "toSessionId": "chemical-peels-3" })).await;
        assert_eq!(order["lines"][0]["sessionId"], "chemical-peels-3");
        assert_eq!((registrations(&app, "chemical-peels-1").await, registrations(&app, "chemical-peels-3").await), (first - 1, last + 1));
        let audit = &order["audit"][0];
        assert_eq!((audit["action"].as_str(), audit["before"]["sessionId"].as_str(), audit["after"]["sessionId"].as_str()),
            (Some("order.move"), Some("chemical-peels-1"), Some("chemical-peels-3")));
        assert!(order["mails"].as_array().unwrap().iter().any(|m| m["subject"] == "Your new date for Chemical Peels Course"));
        // Found by its new day, no longer by its old one.
        let day = |d: &Value| format!("date={}", d.as_str().unwrap());
        assert!(found(&app, &staff, &day(&order["lines"][0]["date"])).await.contains(&id));
        let old_day: String = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select cast(date as text) from session where id = 'chemical-peels-1'")
            .fetch_one(pool).await).unwrap();
        assert!(!found(&app, &staff, &format!("date={old_day}")).await.contains(&id));
        app.stop().await;
    }

    async fn staff_cancel_with_the_terms_everything_or_nothing_back(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (everything, nothing, terms) = (booked(&app).await, booked(&app).await, booked(&app).await);
        link(&app, &everything, "a11b4c").await;
        pay(&app, "a11b4c", 20_000).await;
        let refunded = |id: &str| format!("select cast(coalesce(sum(r.amount), 0) as bigint) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{id}'");
        let seats = registrations(&app, "chemical-peels-3").await;

        refused(&app, &staff, &everything, "cancel", json!({ "refund": "some" }), 400).await;
        let order = act(&app, &staff, &everything, "cancel", json!({ "refund": "full" })).await;
        assert_eq!((order["status"].as_str(), order["paid"].as_i64()), (Some("cancelled"), Some(0)));
        assert_eq!(count(&app, &refunded(&everything)).await, 30_000);
        assert_eq!(order["audit"][0]["after"]["quote"]["terms"], "arranged");

        // Booked more than 14 days ago and training 10 days away: the terms give nothing back.
        let late = |id: &str| format!("update enrollment set paid_at = '{}', starts_on = '{}' where id = '{id}'",
            (Utc::now() - chrono::Duration::days(20)).format("%Y-%m-%d %H:%M:%S+00:00"), london::today(Utc::now()) + Days::new(10));
        execute(&app, &late(&terms)).await;
        let order = act(&app, &staff, &terms, "cancel", json!({ "refund": "terms" })).await;
        assert_eq!((order["status"].as_str(), order["audit"][0]["after"]["quote"]["terms"].as_str()), (Some("cancelled"), Some("late")));
        act(&app, &staff, &nothing, "cancel", json!({ "refund": "none" })).await;
        assert_eq!(count(&app, &refunded(&nothing)).await + count(&app, &refunded(&terms)).await, 0);
        assert_eq!(registrations(&app, "chemical-peels-3").await, seats - 3, "the seats are back on sale");
        refused(&app, &staff, &nothing, "cancel", json!({ "refund": "full" }), 422).await;
        app.stop().await;
    }

    async fn money_taken_by_hand_is_receipted_and_completes_the_booking_but_never_beyond_the_balance(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = booked(&app).await;
        let payment = |amount: i64, method: &str| json!({ "amount": amount, "method": method, "reference": "BACS 0042" });
        refused(&app, &staff, &id, "payments", payment(59_501, "bank_transfer"), 422).await;
        refused(&app, &staff, &id, "payments", payment(0, "cash"), 422).await;
        refused(&app, &staff, &id, "payments", payment(100, "cheque"), 400).await;

        let order = act(&app, &staff, &id, "payments", payment(20_000, "bank_transfer")).await;
        assert_eq!((order["status"].as_str(), order["paid"].as_i64(), order["balance"].as_i64()), (Some("deposit"), Some(30_000), Some(39_500)));
        let recorded = &order["payments"][1];
        assert_eq!((recorded["method"].as_str(), recorded["reference"].as_str(), recorded["amount"].as_i64()),
            (Some("bank_transfer"), Some("BACS 0042"), Some(20_000)));
        let receipts = mails_to_sam(&app, "Payment received: £200.00").await;
        assert_eq!(receipts.len(), 1, "the receipt is mailed");
        assert!(receipts[0].contains("Balance still to pay: £395.00"), "{}", receipts[0]);
        assert_eq!(count(&app, &format!("select count(*) from receipt where enrollment_id = '{id}' and kind = 'receipt'")).await, 2);

        let order = act(&app, &staff, &id, "payments", payment(39_500, "cash")).await;
        assert_eq!((order["status"].as_str(), order["balance"].as_i64()), (Some("completed"), Some(0)));
        assert_eq!(order["audit"][0]["after"]["status"], "completed");
        refused(&app, &staff, &id, "payments", payment(1, "cash"), 422).await;

        // Cash cannot go back through the payment provider: its refund waits for a person.
        let order = act(&app, &staff, &id, "refund", json!({ "amount": 1_000, "reason": "Kit not needed" })).await;
        assert_eq!((order["refunds"][0]["status"].as_str(), order["paid"].as_i64()), (Some("pending"), Some(68_500)));
        assert_eq!(enrol_server::refunds::make_due_refunds(&app.state).await.unwrap(), 0);
        // The person who paid it back by hand records it: made, with its credit note.
        assert_eq!(order["refunds"][0]["byHand"], true);
        let refund = order["refunds"][0]["id"].as_str().unwrap().to_owned();
        let made = format!("refunds/{refund}/made");
        refused(&app, &staff, &id, &made, json!({ "reference": "" }), 422).await;
        refused(&app, &staff, &booked(&app).await, &made, json!({ "reference": "BACS 0043" }), 404).await;
        let order = act(&app, &staff, &id, &made, json!({ "reference": "BACS 0043" })).await;
        assert_eq!(order["refunds"][0]["status"], "succeeded");
        assert_eq!(count(&app, &format!("select count(*) from receipt where enrollment_id = '{id}' and kind = 'credit_note'")).await, 1);
        refused(&app, &staff, &id, &made, json!({ "reference": "BACS 0043" }), 404).await;
        app.stop().await;
    }

    async fn a_later_due_day_sends_its_reminders_again_on_the_new_schedule(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = booked(&app).await;
        let today = london::today(Utc::now());
        let starts_on: NaiveDate = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select starts_on from enrollment where id = $1")
            .bind(&id).fetch_one(pool).await).unwrap();
        for stage in ["upcoming", "due", "overdue"] {
            execute(&app, &format!("insert into balance_reminder (enrollment_id, stage, sent_at) values ('{id}', '{stage}', current_timestamp)")).await;
        }
        refused(&app, &staff, &id, "deadline", json!({ "balanceDueOn": today - Days::new(1) }), 422).await;
        refused(&app, &staff, &id, "deadline", json!({ "balanceDueOn": starts_on + Days::new(1) }), 422).await;

        let due_on = today + Days::new(3);
        let order = act(&app, &staff, &id, "deadline", json!({ "balanceDueOn": due_on })).await;
        assert_eq!(order["balanceDueOn"], due_on.to_string());
        assert_eq!(order["audit"][0]["after"]["remindersForgotten"], json!(["overdue", "due"]));
        assert_eq!(count(&app, &format!("select count(*) from balance_reminder where enrollment_id = '{id}' and stage = 'upcoming'")).await, 1,
            "within a week of the new day: the upcoming reminder is still true");
        assert_eq!(count(&app, &format!("select count(*) from balance_reminder where enrollment_id = '{id}'")).await, 1);
        let on_the_day = Utc.from_utc_datetime(&due_on.and_hms_opt(12, 0, 0).unwrap());
        assert_eq!(send_balance_reminders(&app.state, on_the_day).await.unwrap(), 1);
        assert_eq!(mails_to_sam(&app, "Your balance of £595.00 is due today").await.len(), 1, "the due day's reminder goes again");
        assert_eq!(status_of(&app, &id).await, "deposit");
        app.stop().await;
    }
}

/// SQLite writes a booking to the order search's trigram table a second
/// after it is made or changed, in the indexing job's batch (migration
/// 0049). Until then the search finds it where it waits; once written it is
/// there once, by its new words only. No server runs here, so nothing
/// writes the table between the steps but the test.
#[tokio::test]
async fn a_booking_waiting_for_the_search_table_is_found_before_and_after_it_is_written() {
    let database = fresh_database(Backend::Sqlite).await.expect("SQLite is always available");
    let db = enrol_db::Db::connect(&database.url).await.unwrap();
    demo_history::grow(&db, &test_config(database.url.clone()), GrowPlan::new(1, 0.01).unwrap(), 3).await.unwrap();
    let scalar = |sql: &'static str, id: Option<String>| {
        let db = &db;
        async move {
            enrol_db::on_pool!(db, pool => sqlx::query_scalar::<_, i64>(sql).bind(id.unwrap_or_default()).fetch_one(pool).await).unwrap()
        }
    };
    assert_eq!(scalar("select count(*) from enrollment_search_due", None).await, 0, "growing writes the whole history to the table");
    let (bookings, written) =
        (scalar("select count(*) from enrollment", None).await, scalar("select count(*) from enrollment_search", None).await);
    assert!(bookings > 100 && written == bookings, "{written} of {bookings} bookings in the search table");
    let id: String =
        enrol_db::on_pool!(&db, pool => sqlx::query_scalar("select id from enrollment order by created_at limit 1").fetch_one(pool).await)
            .unwrap();
    let found = |text: &'static str| {
        let db = &db;
        async move {
            let search = enrol_db::OrderSearch { text: Some(text.to_owned()), ..Default::default() };
            db.search_orders(&search).await.unwrap().orders.into_iter().map(|order| order.id).collect::<Vec<_>>()
        }
    };
    let rename = |name: &'static str| {
        let (db, id) = (&db, id.clone());
        async move {
            enrol_db::on_pool!(db, pool => sqlx::query("update enrollment set family_name = $1 where id = $2").bind(name).bind(id).execute(pool).await.map(drop))
                .unwrap();
        }
    };

    let only_it = vec![id.clone()];
    rename("Wolstenholme").await;
    assert_eq!(scalar("select count(*) from enrollment_search_due where enrollment_id = $1", Some(id.clone())).await, 1, "waiting");
    assert_eq!(found("wolstenholme").await, only_it, "found while it waits");
    assert_eq!(db.index_order_search().await.unwrap(), 1);
    assert_eq!(found("WOLSTENHOLME").await, only_it, "found once written");

    rename("Quillfeather").await;
    assert!(found("wolstenholme").await.is_empty(), "its old words are gone at once");
    assert_eq!(found("quillfeather").await, only_it);
    assert_eq!(db.index_order_search().await.unwrap(), 1);
    assert_eq!(found("quillfeather").await, only_it);
    assert!(found("wolstenholme").await.is_empty());
    assert_eq!(scalar("select count(*) from enrollment_search where enrollment_id = $1", Some(id.clone())).await, 1, "written once");
    assert_eq!(scalar("select count(*) from enrollment_search_due", None).await, 0);
    assert_eq!(db.index_order_search().await.unwrap(), 0, "nothing left to write");
    db.close().await;
    database.drop_now().await;
}
