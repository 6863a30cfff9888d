//! Waiting lists (decision 015): only a full session has one; someone waits
//! once they confirm by a mailed link, and a made-up address never does; a
//! freed seat goes to the first person waiting before any public buyer,
//! kept for them behind a single-use link, and passes on when unclaimed or
//! unopened; a claimed seat is paid at the checkout; people leave by their
//! link. Joins are capped per client and per list. Under concurrency: one
//! freed seat, offer jobs racing on two instances and many claims at once,
//! exactly one booking; one client's joins on two instances at once, capped.

use serde_json::{Value, json};

use crate::accounts::mailed_token;
use crate::both_backends;
use crate::enrol_checkout::{confirm, count, execute, intent_update, order, post, put, quote};
use crate::helpers::TestApp;

const FULL: &str = "chemical-peels-2";

/// Asks for `email`'s place from the client `from`.
async fn ask(app: &TestApp, email: &str, from: &str) -> (u16, Value) {
    let body = json!({ "sessionId": FULL, "firstName": "Sam", "lastName": "Lee", "email": email, "phone": "" });
    let response = app.client.post(app.url("/api/waiting-list")).header("x-forwarded-for", from).json(&body).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// Asks for `email`'s place and confirms it by the mailed link: the status of the confirmation.
async fn join(app: &TestApp, email: &str) -> u16 {
    // A client of its own per address, as people on their own connections.
    let from = format!("203.0.113.{}", email.bytes().map(u32::from).sum::<u32>() % 250);
    let (status, answer) = ask(app, email, &from).await;
    assert_eq!(status, 202, "{answer}");
    confirm_place(app, &mailed_token(app, email, "/waiting-list/confirm/?token=").await).await.0
}

/// Dates the confirmation link last mailed to `email` `ago`.
async fn confirm_mailed(app: &TestApp, email: &str, ago: chrono::Duration) {
    enrol_db::on_pool!(app.db(), pool => sqlx::query("update waiting_list_entry set confirm_mailed_at = $2 where email = $1 and status = 'unconfirmed'")
        .bind(email).bind(chrono::Utc::now() - ago).execute(pool).await.map(drop))
    .unwrap();
}

async fn confirm_place(app: &TestApp, token: &str) -> (u16, Value) {
    post(app, "/api/waiting-list/confirm", &json!({ "token": token })).await
}

async fn offers(app: &TestApp) -> usize {
    enrol_server::http::waiting_list::offer_freed_seats(&app.state).await
}

async fn status_of(app: &TestApp, email: &str) -> String {
    enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select status from waiting_list_entry where email = $1")
        .bind(email).fetch_one(pool).await)
    .unwrap()
}

async fn join_page(app: &TestApp, session: &str) -> Value {
    let data: Value = app.get(&format!("/api/page-data?path=%2Fwaiting-list%2Fjoin%2F%3Fsession%3D{session}")).await.json().await.unwrap();
    assert_eq!(data["page"]["kind"], "waitingListJoin", "{data}");
    data["page"]["session"].clone()
}

both_backends! {
    async fn the_join_page_offers_a_full_dates_list_and_sends_an_open_one_to_its_course(app: TestApp) {
        let full = join_page(&app, FULL).await;
        assert_eq!((full["full"].as_bool(), full["courseTitle"].as_str()), (Some(true), Some("Chemical Peels Course")), "{full}");
        assert_eq!(join_page(&app, "chemical-peels-1").await["full"].as_bool(), Some(false));
        assert!(join_page(&app, "no-such-session").await.is_null());
        app.stop().await;
    }

    async fn a_freed_seat_goes_to_the_first_waiting_before_the_public_and_passes_on_when_unclaimed(app: TestApp) {
        let (status, answer) = post(&app, "/api/waiting-list", &json!({
            "sessionId": "chemical-peels-1", "firstName": "Sam", "lastName": "Lee", "email": "x@example.com", "phone": ""
        })).await;
        assert_eq!((status, answer["error"]["message"].as_str()), (422, Some("This date has a free seat: you can book it now.")));
        let (status, answer) = post(&app, "/api/waiting-list", &json!({ "sessionId": FULL, "firstName": "", "lastName": "", "email": "nope", "phone": "" })).await;
        assert_eq!((status, answer["error"]["fields"]["firstName"].as_str()), (422, Some("Name is required")), "{answer}");
        for email in ["ann@example.com", "bea@example.com", "cat@example.com"] {
            assert_eq!(join(&app, email).await, 200);
        }
        assert_eq!(ask(&app, "ann@example.com", "203.0.113.9").await.0, 409, "one place per address");
        assert!(app.db().outbox(20).await.unwrap().iter().any(|m| m.to_address == "bea@example.com" && m.subject.starts_with("You are on the waiting list")));

        // The college adds a seat: people waiting see it before the public.
        execute(&app, &format!("update session set seats = seats + 1 where id = '{FULL}'")).await;
        let q = quote(false, None);
        let (status, refused) = post(&app, "/api/enroll/", &order(FULL, false, None, "card", &q)).await;
        assert_eq!(status, 409, "{refused}");
        // The app's own job may get there first, as it starts: either way, one offer.
        offers(&app).await;
        assert_eq!(offers(&app).await, 0, "one seat, one offer");
        assert_eq!((status_of(&app, "ann@example.com").await, status_of(&app, "bea@example.com").await), ("offered".to_owned(), "waiting".to_owned()));
        let url: String = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select url from course where id = 'chemical-peels'")
            .fetch_one(pool).await).unwrap();
        let data: Value = app.get(&format!("/api/page-data?path={url}")).await.json().await.unwrap();
        let sessions = data["page"]["sessions"].as_array().unwrap_or_else(|| panic!("{url}: {data}"));
        let free = |s: &Value| s["seats"].as_i64().unwrap() - s["registrations"].as_i64().unwrap() - s["held"].as_i64().unwrap();
        assert!(!sessions.iter().any(|s| s["id"] == FULL && free(s) > 0), "the public still sees it full: {sessions:?}");

        // Ann lets it run out: it passes to Bea.
        execute(&app, "update waiting_list_entry set offer_expires_at = '2000-01-01 00:00:00+00:00' where email = 'ann@example.com'").await;
        offers(&app).await;
        assert_eq!((status_of(&app, "ann@example.com").await, status_of(&app, "bea@example.com").await), ("lapsed".to_owned(), "offered".to_owned()));
        let token = mailed_token(&app, "bea@example.com", "/waiting-list/claim/?token=").await;
        let claim_page: Value = app.get(&format!("/api/page-data?path=%2Fwaiting-list%2Fclaim%2F%3Ftoken%3D{token}")).await.json().await.unwrap();
        assert_eq!((claim_page["page"]["state"].as_str(), claim_page["page"]["seat"]["sessionId"].as_str()), (Some("open"), Some(FULL)), "{claim_page}");

        // Bea claims it once, and pays for it at the checkout.
        let (status, claimed) = post(&app, "/api/waiting-list/claim", &json!({ "token": token })).await;
        assert_eq!(status, 200, "{claimed}");
        let order_id = claimed["orderId"].as_str().unwrap().to_owned();
        assert_eq!(post(&app, "/api/waiting-list/claim", &json!({ "token": token })).await.0, 409, "the link works once");
        let (status, intent) = post(&app, "/api/checkout/", &json!({ "amount": 10000 })).await;
        assert_eq!(status, 200);
        let (status, replaced) = put(&app, "/api/enroll/", &json!({ "id": order_id, "data": order(FULL, false, None, "card", &q)["data"] })).await;
        assert_eq!(status, 200, "the claimed seat is the order's to keep: {replaced}");
        let intent_id = intent["id"].as_str().unwrap();
        let (status, updated) = put(&app, "/api/checkout/", &intent_update(intent_id, &order_id, q.deposit, "booking-fee")).await;
        assert_eq!(status, 200, "{updated}");
        let (status, _) = confirm(&app, intent_id, updated["client_secret"].as_str().unwrap(), &order_id, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 200);
        assert_eq!(count(&app, &format!("select count(*) from registration where enrollment_id = '{order_id}' and session_id = '{FULL}'")).await, 1);
        assert_eq!(count(&app, &format!("select cast(seats - registrations as bigint) from session where id = '{FULL}'")).await, 0);

        // Cat leaves by the link of her first mail.
        let leave = mailed_token(&app, "cat@example.com", "/waiting-list/leave/?token=").await;
        let (status, left) = post(&app, "/api/waiting-list/leave", &json!({ "token": leave })).await;
        assert_eq!((status, left["left"].as_bool()), (200, Some(true)));
        assert_eq!(status_of(&app, "cat@example.com").await, "left");
        assert_eq!(count(&app, &format!("select cast(waiting + offered as bigint) from session where id = '{FULL}'")).await, 0);
        app.stop().await;
    }

    async fn one_freed_seat_many_claimers_and_racing_offer_jobs_make_exactly_one_booking(app: TestApp) {
        for n in 0..5 {
            assert_eq!(join(&app, &format!("waiter{n}@example.com")).await, 200);
        }
        execute(&app, &format!("update session set seats = seats + 1 where id = '{FULL}'")).await;
        let other = app.another_instance().await;
        // The second instance's own job runs as it starts, racing these.
        let (a, b, c, d) = tokio::join!(offers(&app), offers(&other), offers(&app), offers(&other));
        assert!(a + b + c + d <= 1);
        assert_eq!(count(&app, "select count(*) from waiting_list_entry where status = 'offered'").await, 1, "one freed seat, one offer, however many jobs run");
        assert_eq!(count(&app, "select count(*) from mail_outbox where subject like 'A seat is free for you%'").await, 1);
        let offered: String = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select email from waiting_list_entry where status = 'offered'")
            .fetch_one(pool).await).unwrap();
        assert_eq!(offered, "waiter0@example.com", "the first to confirm");
        let token = mailed_token(&app, &offered, "/waiting-list/claim/?token=").await;

        let mut claims = tokio::task::JoinSet::new();
        for n in 0..10 {
            let url = if n % 2 == 0 { app.url("/api/waiting-list/claim") } else { other.url("/api/waiting-list/claim") };
            let body = json!({ "token": token });
            claims.spawn(async move {
                crate::helpers::browser().post(url).header("x-forwarded-for", format!("198.51.100.{n}")).json(&body).send().await.unwrap().status().as_u16()
            });
        }
        let mut statuses: Vec<u16> = claims.join_all().await;
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
        assert_eq!(count(&app, &format!("select count(*) from seat_hold where session_id = '{FULL}'")).await, 1);
        assert_eq!(count(&app, "select count(*) from enrollment").await, 1);
        other.stop().await;
        app.stop().await;
    }

    async fn a_course_taken_off_the_site_offers_its_freed_seats_to_nobody_until_it_is_back(app: TestApp) {
        assert_eq!(join(&app, "ann@example.com").await, 200);
        execute(&app, "update course set withdrawn = true where id = 'chemical-peels'").await;
        assert_eq!(ask(&app, "bea@example.com", "203.0.113.1").await.0, 404, "no list to join");
        execute(&app, &format!("update session set seats = seats + 1 where id = '{FULL}'")).await;
        offers(&app).await;
        assert_eq!(status_of(&app, "ann@example.com").await, "waiting", "no offer for a course off the site");
        execute(&app, "update course set withdrawn = false where id = 'chemical-peels'").await;
        offers(&app).await;
        assert_eq!(status_of(&app, "ann@example.com").await, "offered");
        app.stop().await;
    }

    async fn made_up_addresses_never_wait_and_a_freed_seat_goes_to_the_public_or_to_someone_who_confirmed(app: TestApp) {
        // Twenty places asked for from four clients, none confirmed: nobody waits.
        for n in 0..20 {
            assert_eq!(ask(&app, &format!("fake{n}@example.com"), &format!("198.51.100.{}", n % 4)).await.0, 202);
        }
        assert_eq!(count(&app, "select count(*) from mail_outbox where subject like 'Confirm your place%'").await, 20);
        assert_eq!(count(&app, &format!("select cast(waiting + offered as bigint) from session where id = '{FULL}'")).await, 0);
        execute(&app, &format!("update session set seats = seats + 1 where id = '{FULL}'")).await;
        assert_eq!(offers(&app).await, 0, "nobody to offer it to");
        let (status, seat) = post(&app, "/api/enroll/", &order(FULL, false, None, "card", &quote(false, None))).await;
        assert_eq!(status, 200, "the public may book the freed seat: {seat}");

        // Another seat frees; Dee, who asked last, confirms, and it is hers before the twenty who never did.
        execute(&app, &format!("update session set seats = seats + 1 where id = '{FULL}'")).await;
        assert_eq!(ask(&app, "dee@example.com", "192.0.2.7").await.0, 422, "a free seat is booked, not waited for");
        execute(&app, &format!("update session set seats = seats - 1 where id = '{FULL}'")).await;
        assert_eq!(join(&app, "dee@example.com").await, 200);
        execute(&app, &format!("update session set seats = seats + 1 where id = '{FULL}'")).await;
        offers(&app).await;
        assert_eq!(status_of(&app, "dee@example.com").await, "offered");
        assert_eq!(count(&app, "select count(*) from waiting_list_entry where status = 'offered'").await, 1);

        // A confirmation link works once, for a day.
        let dee = mailed_token(&app, "dee@example.com", "/waiting-list/confirm/?token=").await;
        assert_eq!(confirm_place(&app, &dee).await, (200, json!({ "confirmed": false })), "confirmed before");
        let late = mailed_token(&app, "fake0@example.com", "/waiting-list/confirm/?token=").await;
        execute(&app, "update waiting_list_entry set confirm_mailed_at = '2000-01-01 00:00:00+00:00' where email = 'fake0@example.com'").await;
        let page: Value = app.get(&format!("/api/page-data?path=%2Fwaiting-list%2Fconfirm%2F%3Ftoken%3D{late}")).await.json().await.unwrap();
        assert_eq!(page["page"]["state"], "closed", "{page}");
        let (status, refused) = confirm_place(&app, &late).await;
        assert_eq!((status, refused["error"]["message"].as_str()), (409, Some("This link has run out: it works for 24 hours. Please join the waiting list again.")));
        let fresh = mailed_token(&app, "fake1@example.com", "/waiting-list/confirm/?token=").await;
        let page: Value = app.get(&format!("/api/page-data?path=%2Fwaiting-list%2Fconfirm%2F%3Ftoken%3D{fresh}")).await.json().await.unwrap();
        assert_eq!((page["page"]["state"].as_str(), page["page"]["waitingFor"].as_str().map(|w| w.starts_with("Chemical Peels Course on "))), (Some("open"), Some(true)), "{page}");
        app.stop().await;
    }

    async fn joins_are_capped_per_client_and_per_list_and_a_link_asked_for_again_is_not_mailed_again_at_once(app: TestApp) {
        // One IPv6 /64 is one client, whatever its addresses.
        for n in 0..5 {
            assert_eq!(ask(&app, &format!("v6-{n}@example.com"), &format!("2001:db8:1:2::{n:x}")).await.0, 202);
        }
        let (status, refused) = ask(&app, "v6-5@example.com", "2001:db8:1:2:ffff::1").await;
        assert_eq!(status, 429, "{refused}");
        assert!(refused["error"]["message"].as_str().unwrap().starts_with("You have asked to join several waiting lists today"));
        assert_eq!(ask(&app, "v6-5@example.com", "2001:db8:1:3::1").await.0, 202, "another /64 is another client");

        // Asked again at once: the same answer, no second mail; a quarter of an hour later, a new link
        // (the first no longer works); a day later, the place lapsed and is asked for anew.
        let (mails, entries) = ("select count(*) from mail_outbox where to_address = 'v6-5@example.com'", "select count(*) from waiting_list_entry where email = 'v6-5@example.com'");
        let first = mailed_token(&app, "v6-5@example.com", "/waiting-list/confirm/?token=").await;
        assert_eq!(ask(&app, "v6-5@example.com", "192.0.2.1").await.0, 202);
        assert_eq!((count(&app, mails).await, count(&app, entries).await), (1, 1));
        confirm_mailed(&app, "v6-5@example.com", chrono::Duration::minutes(20)).await;
        assert_eq!(ask(&app, "v6-5@example.com", "192.0.2.1").await.0, 202);
        assert_eq!((count(&app, mails).await, count(&app, entries).await), (2, 1));
        assert_eq!(confirm_place(&app, &first).await.0, 409, "the link mailed first was replaced");
        confirm_mailed(&app, "v6-5@example.com", chrono::Duration::days(2)).await;
        assert_eq!(ask(&app, "v6-5@example.com", "192.0.2.1").await.0, 202);
        assert_eq!((count(&app, mails).await, count(&app, entries).await), (3, 2));

        // A list holds fifty, confirmed or asked within a day: six so far.
        for n in 0..44 {
            assert_eq!(ask(&app, &format!("many{n}@example.com"), &format!("198.18.{}.1", n / 5)).await.0, 202, "{n}");
        }
        let (status, full) = ask(&app, "one-more@example.com", "198.19.0.1").await;
        assert_eq!((status, full["error"]["message"].as_str()), (422, Some("The waiting list for this date is full. Please choose another date, or ask us about this one.")));
        app.stop().await;
    }

    async fn one_clients_joins_on_two_instances_at_once_are_capped_all_the_same(app: TestApp) {
        let other = app.another_instance().await;
        let mut asks = tokio::task::JoinSet::new();
        for n in 0..12 {
            let url = if n % 2 == 0 { app.url("/api/waiting-list") } else { other.url("/api/waiting-list") };
            let body = json!({ "sessionId": FULL, "firstName": "Sam", "lastName": "Lee", "email": format!("crowd{n}@example.com"), "phone": "" });
            asks.spawn(async move {
                crate::helpers::browser().post(url).header("x-forwarded-for", "198.51.100.77").json(&body).send().await.unwrap().status().as_u16()
            });
        }
        let mut statuses: Vec<u16> = asks.join_all().await;
        statuses.sort_unstable();
        assert_eq!(statuses, [202, 202, 202, 202, 202, 429, 429, 429, 429, 429, 429, 429]);
        assert_eq!(count(&app, "select count(*) from waiting_list_entry where client_key = '198.51.100.77'").await, 5);
        other.stop().await;
        app.stop().await;
    }

    async fn an_offer_nobody_opens_passes_on_after_a_day_and_one_opened_is_kept_until_it_runs_out(app: TestApp) {
        for email in ["ann@example.com", "bea@example.com", "cat@example.com"] {
            assert_eq!(join(&app, email).await, 200);
        }
        execute(&app, &format!("update session set seats = seats + 2 where id = '{FULL}'")).await;
        offers(&app).await;
        assert_eq!((status_of(&app, "ann@example.com").await, status_of(&app, "bea@example.com").await), ("offered".to_owned(), "offered".to_owned()));
        let offer = app.db().outbox(50).await.unwrap().into_iter().find(|m| m.to_address == "ann@example.com" && m.subject.starts_with("A seat is free")).unwrap();
        assert!(offer.body_text.contains("Open this link by "), "{}", offer.body_text);

        // Bea opens hers; neither is opened within the day after.
        let bea = mailed_token(&app, "bea@example.com", "/waiting-list/claim/?token=").await;
        let page: Value = app.get(&format!("/api/page-data?path=%2Fwaiting-list%2Fclaim%2F%3Ftoken%3D{bea}")).await.json().await.unwrap();
        assert_eq!(page["page"]["state"], "open", "{page}");
        execute(&app, "update waiting_list_entry set offer_open_by = '2000-01-01 00:00:00+00:00' where status = 'offered'").await;
        let ann = mailed_token(&app, "ann@example.com", "/waiting-list/claim/?token=").await;
        let page: Value = app.get(&format!("/api/page-data?path=%2Fwaiting-list%2Fclaim%2F%3Ftoken%3D{ann}")).await.json().await.unwrap();
        assert_eq!(page["page"]["state"], "closed", "opened too late: {page}");
        assert_eq!(post(&app, "/api/waiting-list/claim", &json!({ "token": ann })).await.0, 409);
        offers(&app).await;
        assert_eq!(
            (status_of(&app, "ann@example.com").await, status_of(&app, "bea@example.com").await, status_of(&app, "cat@example.com").await),
            ("lapsed".to_owned(), "offered".to_owned(), "offered".to_owned()),
            "Ann's seat passed to Cat; Bea's, opened, is kept"
        );
        assert_eq!(post(&app, "/api/waiting-list/claim", &json!({ "token": bea })).await.0, 200);
        app.stop().await;
    }
}
