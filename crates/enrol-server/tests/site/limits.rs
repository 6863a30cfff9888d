//! Limits counted where they are enforced (decision 009): a
//! seat is held once and for a bounded time, a discount code is never used
//! more often than allowed, and one client cannot take every seat. Race
//! tests send many real requests at once and count what got through.

use enrol_db::on_pool;
use enrol_domain::enrollment::{Discount, DiscountType};
use serde_json::{Value, json};

use crate::both_backends;
use crate::enrol_checkout::{confirm, count, execute, intent_update, order, post, prepared, put, quote};
use crate::helpers::{Backend, TestApp, browser, spawn_app_with};

/// A request from client `ip`, as the trusted proxy at 127.0.0.1 says.
fn from(client: &reqwest::Client, app: &TestApp, ip: &str, path: &str) -> reqwest::RequestBuilder {
    client.post(app.url(path)).header("x-forwarded-for", ip)
}

async fn status_of(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// Runs the hold of `order_id` out, as twenty minutes would.
async fn run_out(app: &TestApp, order_id: &str) {
    execute(app, &format!("update seat_hold set expires_at = '2000-01-01T00:00:00Z' where enrollment_id = '{order_id}'")).await;
    execute(app, &format!("update enrollment set held_until = '2000-01-01T00:00:00Z' where id = '{order_id}'")).await;
}

async fn live_holds(app: &TestApp, session: &str) -> i64 {
    let now = chrono::Utc::now();
    on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>(
        "select count(*) from seat_hold h join enrollment e on e.id = h.enrollment_id where h.session_id = $1 and h.expires_at > $2 and e.status = 'pending'"
    ).bind(session).bind(now).fetch_one(pool).await).unwrap()
}

both_backends! {
    async fn a_hold_renewed_after_it_ran_out_needs_the_seat_again(app: TestApp) {
        execute(&app, "update session set seats = 1, registrations = 0 where id = 'chemical-peels-1'").await;
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let (late, late_intent, _) = prepared(&app, &body, q.deposit, "booking-fee").await;
        run_out(&app, &late).await;
        // Someone else takes the seat that was released.
        let other = browser();
        let (status, _) = status_of(other.post(app.url("/api/enroll/")).json(&body)).await;
        assert_eq!(status, 200);
        // The first buyer prepares the payment again: the seat is gone.
        let (status, answer) = put(&app, "/api/checkout/", &intent_update(&late_intent, &late, q.deposit, "booking-fee")).await;
        assert_eq!(status, 409, "{answer}");
        assert!(answer["error"]["message"].as_str().unwrap().contains("fully booked"), "{answer}");
        assert_eq!(live_holds(&app, "chemical-peels-1").await, 1, "never two live holds for one seat");
        app.stop().await;
    }

    async fn a_sessions_count_of_holds_follows_its_holds(app: TestApp) {
        // The database keeps `session.holds` (migration 0008); free seats are
        // counted from it, so it must always equal the hold rows.
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let mut orders = Vec::new();
        for _ in 0..3 {
            orders.push(prepared(&app, &body, q.deposit, "booking-fee").await.0);
        }
        let (rows, kept) = ("select count(*) from seat_hold where session_id = 'chemical-peels-1'", "select holds from session where id = 'chemical-peels-1'");
        assert_eq!((count(&app, rows).await, count(&app, kept).await), (3, 3));
        // A hold that ran out stops counting at once, before it is swept.
        run_out(&app, &orders[0]).await;
        assert_eq!(live_holds(&app, "chemical-peels-1").await, 2);
        let page: Value = app.get("/api/page-data?path=/courses/aesthetics/chemical-peels/").await.json().await.unwrap();
        let shown = page["page"]["sessions"].as_array().unwrap().iter().find(|s| s["id"] == "chemical-peels-1").map(|s| s["held"].clone());
        assert_eq!(shown, Some(json!(2)), "{}", page["page"]["sessions"]);
        // Swept, it leaves the count with its row.
        assert_eq!(app.db().expire_holds(chrono::Utc::now()).await.unwrap(), 1);
        assert_eq!((count(&app, rows).await, count(&app, kept).await), (2, 2));
        app.stop().await;
    }

    async fn a_buyer_changing_their_details_keeps_their_own_seat(app: TestApp) {
        execute(&app, "update session set seats = 1, registrations = 0 where id = 'chemical-peels-1'").await;
        let q = quote(false, None);
        let mut body = order("chemical-peels-1", false, None, "card", &q);
        let (order_id, _, _) = prepared(&app, &body, q.deposit, "booking-fee").await;
        body["data"]["contact"]["email"] = json!("sam@example.org");
        let (status, answer) = put(&app, "/api/enroll/", &json!({ "id": order_id, "data": body["data"] })).await;
        assert_eq!(status, 200, "their own hold does not make the session full for them: {answer}");
        let (_, basket) = post(&app, "/api/checkout/basket", &json!({ "orderId": order_id, "courses": [
            { "courseId": "chemical-peels", "sessionId": "chemical-peels-1", "includeKit": false },
        ]})).await;
        assert_eq!(basket["lines"][0]["sessionId"], "chemical-peels-1", "{basket}");
        assert_eq!(live_holds(&app, "chemical-peels-1").await, 1);
        app.stop().await;
    }

    async fn a_hold_cannot_be_kept_alive_for_ever(app: TestApp) {
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let (order_id, intent, _) = prepared(&app, &body, q.deposit, "booking-fee").await;
        let hold_end: (chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>) = on_pool!(app.db(), pool => sqlx::query_as(
            "select created_at, hold_ends_at from enrollment where id = $1"
        ).bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(hold_end.1 - hold_end.0, chrono::Duration::minutes(45));
        // Forty-five minutes on, neither a change nor a payment renews it.
        execute(&app, &format!("update enrollment set hold_ends_at = '2000-01-01T00:00:00Z' where id = '{order_id}'")).await;
        let (status, answer) = put(&app, "/api/enroll/", &json!({ "id": order_id, "data": body["data"] })).await;
        assert_eq!(status, 409, "{answer}");
        let (status, _) = put(&app, "/api/checkout/", &intent_update(&intent, &order_id, q.deposit, "booking-fee")).await;
        assert_eq!(status, 409);
        app.stop().await;
    }

    async fn a_course_whose_dates_are_all_full_is_not_sold_without_one(app: TestApp) {
        execute(&app, "update session set registrations = seats where id like 'chemical-peels-%'").await;
        let q = quote(false, None);
        let mut body = order("chemical-peels-1", false, None, "card", &q);
        body["data"]["enrollment"]["metadata"][0]["sessionId"] = Value::Null;
        let (status, answer) = post(&app, "/api/enroll/", &body).await;
        assert_eq!(status, 409, "{answer}");
        assert_eq!(count(&app, "select count(*) from enrollment").await, 0);
        app.stop().await;
    }

    async fn seats_left_count_the_seats_held(app: TestApp) {
        execute(&app, "update session set seats = 2, registrations = 0 where id = 'chemical-peels-1'").await;
        let course = "/courses/aesthetics/chemical-peels/";
        let held = |data: &Value| {
            data["page"]["sessions"].as_array().unwrap().iter().find(|s| s["id"] == "chemical-peels-1").map(|s| s["held"].as_i64().unwrap())
        };
        let before: Value = app.get(&format!("/api/page-data?path={course}")).await.json().await.unwrap();
        assert_eq!(held(&before), Some(0), "{}", before["page"]["sessions"]);
        assert!(app.text(course).await.1.contains("2 seats left"));
        let q = quote(false, None);
        prepared(&app, &order("chemical-peels-1", false, None, "card", &q), q.deposit, "booking-fee").await;
        let after: Value = app.get(&format!("/api/page-data?path={course}")).await.json().await.unwrap();
        assert_eq!(held(&after), Some(1));
        // The cached page is dropped once the seats change (within seconds).
        let mut shown = false;
        for _ in 0..40 {
            if app.text(course).await.1.contains("1 seat left") {
                shown = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(shown, "the course page counts the held seat");
        app.stop().await;
    }

    async fn a_hundred_orders_on_a_code_for_seven_use_it_seven_times(app: TestApp) {
        execute(&app, "update session set seats = 500, registrations = 0 where id = 'chemical-peels-1'").await;
        execute(&app, "update discount_code set max_uses = 7, uses = 0 where code = 'FRIEND100'").await;
        let q = quote(false, Some(Discount { kind: DiscountType::Pound, value: 10_000 }));
        let body = order("chemical-peels-1", false, Some("FRIEND100"), "card", &q);
        let second = app.another_instance().await;
        let mut requests = tokio::task::JoinSet::new();
        for i in 0..100 {
            let target = if i % 2 == 0 { &app } else { &second };
            let request = from(&target.client, target, &format!("10.3.0.{i}"), "/api/enroll/").json(&body);
            requests.spawn(async move { request.send().await.expect("request").status().as_u16() });
        }
        let statuses = requests.join_all().await;
        let accepted = statuses.iter().filter(|s| **s == 200).count();
        println!("100 concurrent orders on a code limited to 7: {accepted} accepted");
        assert_eq!(accepted, 7, "{statuses:?}");
        assert!(statuses.iter().all(|s| matches!(s, 200 | 409 | 422)), "{statuses:?}");
        assert_eq!(count(&app, "select uses from discount_code where code = 'FRIEND100'").await, 7);
        assert_eq!(count(&app, "select count(*) from enrollment where discount_code = 'FRIEND100'").await, 7);
        assert_eq!(post(&app, "/api/code", &json!({ "code": "FRIEND100" })).await.1["valid"], false, "used up while orders hold it");

        // A hold that runs out gives its use back; so does a failed payment.
        let ids: Vec<String> = on_pool!(app.db(), pool => sqlx::query_scalar("select id from enrollment order by id").fetch_all(pool).await).unwrap();
        run_out(&app, &ids[0]).await;
        assert_eq!(app.db().expire_holds(chrono::Utc::now()).await.unwrap(), 1);
        assert_eq!(app.db().expire_holds(chrono::Utc::now()).await.unwrap(), 0, "released once");
        assert_eq!(count(&app, "select uses from discount_code where code = 'FRIEND100'").await, 6);
        let (order_id, intent, secret) = prepared(&app, &body, q.deposit, "booking-fee").await;
        assert_eq!(count(&app, "select uses from discount_code where code = 'FRIEND100'").await, 7);
        assert_eq!(confirm(&app, &intent, &secret, &order_id, "card", Some("4000 0000 0000 0002")).await.0, 402);
        assert_eq!(count(&app, "select uses from discount_code where code = 'FRIEND100'").await, 6);
        // A paid order keeps its use, counted once.
        let (order_id, intent, secret) = prepared(&app, &body, q.deposit, "booking-fee").await;
        assert_eq!(confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await.0, 200);
        assert_eq!(count(&app, "select uses from discount_code where code = 'FRIEND100'").await, 7);
        second.stop().await;
        app.stop().await;
    }
}

/// The production limits, on a fresh app of `backend`.
async fn limited_app(backend: Backend) -> Option<TestApp> {
    limited_app_with(backend, enrol_server::config::ClientLimits::default()).await
}

async fn limited_app_with(backend: Backend, limits: enrol_server::config::ClientLimits) -> Option<TestApp> {
    spawn_app_with(backend, |config| config.limits = limits).await
}

/// `count` requests from client `ip` to `/api/code`, sent one after
/// another to each of `apps` in turn, with the buyer cookie `cookie`
/// (none: a client dropping its cookies): how many were slowed down.
async fn slowed(apps: &[&TestApp], ip: &str, cookie: Option<&str>, count: usize) -> usize {
    let client = reqwest::Client::new();
    let mut slowed = 0;
    for i in 0..count {
        let app = apps[i % apps.len()];
        let mut request = from(&client, app, ip, "/api/code").json(&json!({ "code": "NOPE" }));
        if let Some(cookie) = cookie {
            request = request.header("cookie", format!("enrol_buyer={cookie}"));
        }
        let (status, answer) = status_of(request).await;
        assert!(matches!(status, 200 | 429), "{status} {answer}");
        if status == 429 {
            assert!(answer["error"]["message"].as_str().unwrap().contains("wait a minute"), "{answer}");
            slowed += 1;
        }
    }
    slowed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_holds_seats_for_five_unpaid_orders_and_an_address_for_fifty() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some(app) = limited_app(backend).await else { continue };
        execute(&app, "update session set seats = 200, registrations = 0 where id = 'chemical-peels-1'").await;
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        // A browser with its buyer cookie sends eleven more orders at once
        // (within the rate limit's burst): the live orders are counted under
        // its row lock, so exactly five get seats.
        let hoarder = browser();
        assert_eq!(status_of(from(&hoarder, &app, "203.0.113.5", "/api/enroll/").json(&body)).await.0, 200);
        let mut orders = tokio::task::JoinSet::new();
        for _ in 0..11 {
            orders.spawn(status_of(from(&hoarder, &app, "203.0.113.5", "/api/enroll/").json(&body)));
        }
        let statuses = orders.join_all().await;
        let accepted = statuses.iter().filter(|(s, _)| *s == 200).count();
        let refused: Vec<&Value> = statuses.iter().filter(|(s, _)| *s == 429).map(|(_, answer)| answer).collect();
        println!("11 concurrent orders from one browser holding one: {accepted} accepted, {} refused", refused.len());
        assert_eq!((accepted, refused.len()), (4, 7), "{statuses:?}");
        assert!(refused.iter().all(|a| a["error"]["message"].as_str().unwrap().contains("waiting for payment")), "{refused:?}");
        let (status, _) = status_of(from(&browser(), &app, "203.0.113.5", "/api/enroll/").json(&body)).await;
        assert_eq!(status, 200, "another browser at the same address is not held back");

        // A client dropping its cookies is a new browser each time, and
        // meets its address's cap: fifty orders (six are held already).
        let mut orders = tokio::task::JoinSet::new();
        for _ in 0..50 {
            orders.spawn(status_of(from(&reqwest::Client::new(), &app, "203.0.113.5", "/api/enroll/").json(&body)));
        }
        let statuses = orders.join_all().await;
        let accepted = statuses.iter().filter(|(s, _)| *s == 200).count();
        println!("50 concurrent orders from one address without cookies: {accepted} accepted");
        assert_eq!(accepted, 44, "{statuses:?}");
        assert!(statuses.iter().all(|(s, _)| matches!(s, 200 | 429)), "{statuses:?}");
        let (status, _) = status_of(from(&browser(), &app, "203.0.113.6", "/api/enroll/").json(&body)).await;
        assert_eq!(status, 200, "another address is not held back");
        assert_eq!(live_holds(&app, "chemical-peels-1").await, 51);
        app.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_browsers_behind_one_address_each_book_and_pay() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some(app) = limited_app(backend).await else { continue };
        execute(&app, "update session set seats = 40, registrations = 0 where id = 'chemical-peels-1'").await;
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        // A classroom: thirty browsers, one address, each preparing its
        // payment, placing its order and preparing the payment again.
        let mut students = tokio::task::JoinSet::new();
        for _ in 0..30 {
            let (app_url, body) = (app.url(""), body.clone());
            students.spawn(async move {
                let student = browser();
                let send = |method: reqwest::Method, path: &str| {
                    student.request(method, format!("{app_url}{path}")).header("x-forwarded-for", "192.0.2.30")
                };
                let (status, intent) = status_of(send(reqwest::Method::POST, "/api/checkout/").json(&json!({ "amount": 10000 }))).await;
                assert_eq!(status, 200, "{intent}");
                let (status, created) = status_of(send(reqwest::Method::POST, "/api/enroll/").json(&body)).await;
                assert_eq!(status, 200, "{created}");
                let update = intent_update(intent["id"].as_str().unwrap(), created["id"].as_str().unwrap(), q.deposit, "booking-fee");
                status_of(send(reqwest::Method::PUT, "/api/checkout/").json(&update)).await.0
            });
        }
        assert_eq!(students.join_all().await, vec![200; 30]);
        assert_eq!(live_holds(&app, "chemical-peels-1").await, 30);
        app.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_count_one_allowance_per_browser_and_per_address() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some(app) = limited_app(backend).await else { continue };
        let other = app.another_instance_with(|config| config.limits = enrol_server::config::ClientLimits::default()).await;
        // One browser's requests, taking turns between the instances: one
        // burst of 20 between them, then about one every six seconds.
        assert_eq!(slowed(&[&app, &other], "198.51.100.40", Some("student"), 30).await, 10);
        assert_eq!(slowed(&[&app, &other], "198.51.100.40", Some("classmate"), 1).await, 0, "another browser has its own share");
        // Dropping cookies, a client shares its address's 200, 31 of them
        // spent, and one more comes back every 0.6 seconds.
        let more = slowed(&[&app, &other], "198.51.100.40", None, 200).await;
        assert!((20..=31).contains(&more), "{more} of 200 slowed down");
        assert!(slowed(&[&app, &other], "198.51.100.40", Some("late"), 3).await >= 2, "the address's share is spent");
        assert_eq!(slowed(&[&app, &other], "198.51.100.41", None, 1).await, 0, "another address is not slowed down");
        // Ten minutes on, every bucket is full again and forgotten.
        assert_eq!(app.db().forget_full_allowances(chrono::Utc::now() + chrono::Duration::minutes(10)).await.unwrap(), 5);
        assert_eq!(count(&app, "select count(*) from write_allowance").await, 0);
        other.stop().await;
        app.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_spends_the_allowance_the_other_writes_spend_in_its_own_transaction() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some(app) = limited_app(backend).await else { continue };
        let other = app.another_instance_with(|config| config.limits = enrol_server::config::ClientLimits::default()).await;
        execute(&app, "update session set seats = 200, registrations = 0 where id = 'chemical-peels-1'").await;
        let q = quote(false, None);
        let body = order("chemical-peels-1", false, None, "card", &q);
        let client = reqwest::Client::new();
        let place = |app: &TestApp| from(&client, app, "198.51.100.50", "/api/enroll/").header("cookie", "enrol_buyer=orderer").json(&body);
        // Nineteen of the browser's burst of twenty on one instance, the twentieth an order on the other.
        assert_eq!(slowed(&[&app], "198.51.100.50", Some("orderer"), 19).await, 0);
        assert_eq!(status_of(place(&other)).await.0, 200, "the twentieth request, an order");
        let (status, refused) = status_of(place(&app)).await;
        assert_eq!(status, 429, "{refused}");
        assert!(refused["error"]["message"].as_str().unwrap().contains("wait a minute"), "{refused}");
        assert_eq!(
            count(&app, "select count(*) from enrollment where client_key = '198.51.100.50'").await,
            1,
            "the refused order wrote nothing"
        );
        assert_eq!(slowed(&[&other], "198.51.100.50", Some("orderer"), 1).await, 1, "the orders spent the browser's share");
        other.stop().await;
        app.stop().await;
    }
}

#[tokio::test]
async fn account_data_queries_are_limited_per_client_at_six_times_the_writes() {
    let app = limited_app(Backend::Sqlite).await.expect("SQLite is always available");
    let query = json!({ "query": "{ registrations { id } }" });
    let mut statuses = Vec::new();
    for _ in 0..75 {
        statuses.push(status_of(from(&app.client, &app, "198.51.100.20", "/api/graphql").json(&query)).await.0);
    }
    // Not signed in: refused, but counted first. A burst of 60, then one a second.
    let allowed = statuses.iter().filter(|s| **s == 401).count();
    assert!((60..=62).contains(&allowed), "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 75 - allowed, "{statuses:?}");
    let (status, _) = status_of(from(&app.client, &app, "198.51.100.21", "/api/graphql").json(&query)).await;
    assert_eq!(status, 401, "another client is not slowed down");
    app.stop().await;
}

#[tokio::test]
async fn an_ipv6_client_is_counted_by_its_slash_64_and_the_back_office_session_is_a_read() {
    let one_browser_per_address = enrol_server::config::ClientLimits { browsers_per_address: 1, ..Default::default() };
    let app = limited_app_with(Backend::Sqlite, one_browser_per_address).await.expect("SQLite is always available");
    // Thirty addresses of one /64, each new and without cookies: counted as one client.
    let mut statuses = Vec::new();
    for i in 0..30 {
        statuses.push(
            status_of(from(&app.client, &app, &format!("2001:db8:1:2::{i:x}"), "/api/code").json(&json!({ "code": "NOPE" }))).await.0,
        );
    }
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 10, "{statuses:?}");
    let (status, _) = status_of(from(&app.client, &app, "2001:db8:1:3::1", "/api/code").json(&json!({ "code": "NOPE" }))).await;
    assert_eq!(status, 200, "the next /64 is another client");

    // An office of staff loading screens: fifty reads of the session from one address.
    for _ in 0..50 {
        let response = app.client.get(app.url("/api/admin/session")).header("x-forwarded-for", "198.51.100.20").send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_is_forgotten_once_it_holds_nothing() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some(app) = limited_app(backend).await else { continue };
        let body = order("chemical-peels-1", false, None, "card", &quote(false, None));
        let (_, first) = status_of(from(&browser(), &app, "203.0.113.7", "/api/enroll/").json(&body)).await;
        let (status, _) = status_of(from(&browser(), &app, "203.0.113.8", "/api/enroll/").json(&body)).await;
        assert_eq!(status, 200);
        run_out(&app, first["id"].as_str().unwrap()).await;
        // The first order's address and browser are forgotten; the second's kept.
        assert_eq!(app.db().forget_quiet_clients(chrono::Utc::now()).await.unwrap(), 2);
        assert_eq!(count(&app, "select count(*) from hold_client").await, 2);
        assert_eq!(
            count(&app, "select count(*) from hold_client where client_key = '203.0.113.8'").await,
            1,
            "a client still holding a seat is kept"
        );
        app.stop().await;
    }
}
