//! Sessions, rosters and figures in the back office (decision 017): a date
//! staff open is on sale at once; seats never go below what
//! is taken; a cancelled date tells its students; rosters for the tutor of
//! the session only; attendance; the dashboard and the accountant's CSVs.

use chrono::{Duration, Utc};
use serde_json::{Value, json};

use enrol_domain::london;
use enrol_domain::staff::Role;

use crate::accounts::verified_account;
use crate::admin::{audit_rows, staff_member};
use crate::balance::{link, pay};
use crate::both_backends;
use crate::enrol_checkout::{COURSE, confirm, count, order, prepared, quote};
use crate::helpers::TestApp;
use crate::readiness_review::made_ready;

/// The session form for a date `days` from today.
pub(crate) fn session_form(days: i64, seats: i64) -> Value {
    let date = london::today(Utc::now()) + Duration::days(days);
    json!({ "courseId": COURSE, "date": date.to_string(), "startTime": "09:30", "endTime": "16:30", "type": "onsite",
        "price": 69_500, "seats": seats, "venue": "Studio 2, Harley Street", "joiningLink": null, "tutorId": null })
}

/// Opens a session as `staff`: its id.
pub(crate) async fn open(app: &TestApp, staff: &reqwest::Client, form: &Value) -> String {
    let response = staff.post(app.url("/api/admin/sessions")).json(form).send().await.unwrap();
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned()
}

/// Books `session` and pays its booking fee by card: the order id.
pub(crate) async fn book(app: &TestApp, session: &str, kit: bool) -> String {
    let q = quote(kit, None);
    let (order_id, intent, secret) = prepared(app, &order(session, kit, None, "card", &q), q.deposit, "booking-fee").await;
    let (status, paid) = confirm(app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await;
    assert_eq!(status, 200, "{paid}");
    order_id
}

/// The course page's data as the public site reads it.
async fn course_page(app: &TestApp) -> String {
    let url = count_text(app, &format!("select url from course where id = '{COURSE}'")).await;
    app.get(&format!("/api/page-data?path={url}")).await.text().await.unwrap()
}

async fn count_text(app: &TestApp, sql: &str) -> String {
    enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql.to_owned())).fetch_one(pool).await)
        .unwrap()
}

both_backends! {
    async fn a_session_staff_open_is_on_sale_at_once(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let before = audit_rows(&app).await;
        let id = open(&app, &staff, &session_form(120, 10)).await;
        assert_eq!(audit_rows(&app).await, before + 1);
        assert!(course_page(&app).await.contains(&id), "the public course page lists the new date");
        let listed: Value = staff.get(app.url(&format!("/api/admin/sessions?course={COURSE}"))).send().await.unwrap().json().await.unwrap();
        let session = listed["sessions"].as_array().unwrap().iter().find(|s| s["id"] == id.as_str()).unwrap().clone();
        assert_eq!((session["seats"].as_i64(), session["booked"].as_i64(), session["startTime"].as_str()), (Some(10), Some(0), Some("09:30")));
        assert_eq!(session["venue"], "Studio 2, Harley Street");

        // Bad input is named field by field and changes nothing.
        let mut bad = session_form(-1, 0);
        bad["endTime"] = json!("08:00");
        bad["joiningLink"] = json!("javascript:alert(1)");
        let refused = staff.post(app.url("/api/admin/sessions")).json(&bad).send().await.unwrap();
        assert_eq!(refused.status(), 422);
        let refused: Value = refused.json().await.unwrap();
        for field in ["date", "endTime", "seats", "joiningLink"] {
            assert!(refused["error"]["fields"][field].is_string(), "{field}: {refused}");
        }
        let mut online = session_form(30, 5);
        online["courseId"] = json!("chemical-peels-online");
        assert_eq!(staff.post(app.url("/api/admin/sessions")).json(&online).send().await.unwrap().status(), 422);
        assert_eq!(audit_rows(&app).await, before + 1);
    }

    async fn the_sessions_list_pages_by_place_with_each_session_once_in_order(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        // 140 dates of the course, four a day at the same time: a page may
        // end between sessions alike but for their ids.
        let mut opened = Vec::new();
        for day in 0..35 {
            for _ in 0..4 {
                opened.push(open(&app, &staff, &session_form(400 + day, 10)).await);
            }
        }
        let first = format!("/api/admin/sessions?course={COURSE}&from={}", london::today(Utc::now()) + Duration::days(400));
        let (mut listed, mut pages, mut path) = (Vec::new(), 0, first.clone());
        loop {
            let page: Value = staff.get(app.url(&path)).send().await.unwrap().json().await.unwrap();
            let sessions = page["sessions"].as_array().unwrap();
            assert!(sessions.len() <= 100, "a page holds at most 100");
            listed.extend(sessions.iter().map(|s| (s["date"].as_str().unwrap().to_owned(), s["id"].as_str().unwrap().to_owned())));
            pages += 1;
            match page["next"].as_str() {
                Some(next) => path = format!("{first}&after={next}"),
                None => break,
            }
        }
        assert_eq!(pages, 2);
        let mut expected = listed.clone();
        expected.sort();
        expected.dedup();
        assert_eq!(listed, expected, "by date, then id for those starting together, each once");
        let mut ids: Vec<String> = listed.into_iter().map(|(_, id)| id).collect();
        ids.sort();
        opened.sort();
        assert_eq!(ids, opened, "every session opened");

        // A place that is not one is refused, not read as the first page.
        for bad in ["yesterday", "2027-01-01T09:30:00_", "2027-13-01T09:30:00_x"] {
            let refused = staff.get(app.url(&format!("{first}&after={bad}"))).send().await.unwrap();
            assert_eq!(refused.status(), 400, "{bad}");
        }
    }

    async fn seats_never_go_below_those_taken(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = open(&app, &staff, &session_form(100, 3)).await;
        book(&app, &id, false).await;
        book(&app, &id, true).await;
        let before = audit_rows(&app).await;
        let fewer = staff.put(app.url(&format!("/api/admin/sessions/{id}"))).json(&session_form(100, 1)).send().await.unwrap();
        assert_eq!(fewer.status(), 409);
        assert!(fewer.text().await.unwrap().contains("2 seats are booked"));
        assert_eq!(audit_rows(&app).await, before);
        let exact = staff.put(app.url(&format!("/api/admin/sessions/{id}"))).json(&session_form(101, 2)).send().await.unwrap();
        assert_eq!(exact.status(), 200);
        let exact: Value = exact.json().await.unwrap();
        assert_eq!((exact["seats"].as_i64(), exact["booked"].as_i64()), (Some(2), Some(2)));
        assert_eq!(audit_rows(&app).await, before + 1);
        let log: Value = staff.get(app.url(&format!("/api/admin/audit?entity=session&entityId={id}"))).send().await.unwrap().json().await.unwrap();
        assert_eq!(log["entries"][0]["before"]["seats"], 3);
        assert_eq!(log["entries"][0]["after"]["seats"], 2);
        let (was, now) = (london::today(Utc::now()) + Duration::days(100), london::today(Utc::now()) + Duration::days(101));
        assert_eq!(
            log["entries"][0]["summary"],
            format!("Session seats changed from 3 to 2; date changed from {} to {}", london::long_date(was), london::long_date(now)),
            "the log reads in words, beside the code"
        );
    }

    async fn the_sessions_list_and_the_roster_agree_on_who_is_booked(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        // The demo's first peels date comes with 4 seats counted as taken before the site, with nobody behind them here.
        let session = "chemical-peels-1";
        let kept = book(&app, session, false).await;
        let cancelled = book(&app, session, true).await;
        let cancel = staff.post(app.url(&format!("/api/admin/orders/{cancelled}/cancel"))).json(&json!({ "refund": "none" })).send().await.unwrap();
        assert_eq!(cancel.status(), 200);
        let q = quote(false, None);
        prepared(&app, &order(session, false, None, "card", &q), q.deposit, "booking-fee").await;

        let roster: Value = staff.get(app.url(&format!("/api/admin/sessions/{session}/roster"))).send().await.unwrap().json().await.unwrap();
        let students: Vec<&str> = roster["students"].as_array().unwrap().iter().map(|s| s["enrollmentId"].as_str().unwrap()).collect();
        assert_eq!(students, [kept.as_str()], "only the paid booking still standing");
        let list: Value = staff.get(app.url("/api/admin/sessions")).send().await.unwrap().json().await.unwrap();
        let listed = list["sessions"].as_array().unwrap().iter().find(|s| s["id"] == session).unwrap();
        for answer in [listed, &roster["session"]] {
            assert_eq!(
                (answer["booked"].as_i64(), answer["takenElsewhere"].as_i64(), answer["held"].as_i64()),
                (Some(1), Some(4), Some(1)),
                "booked as the roster lists them, the pack's seats apart, the unpaid order held: {answer}"
            );
        }
        let dashboard: Value = staff.get(app.url("/api/admin/dashboard")).send().await.unwrap().json().await.unwrap();
        let upcoming = dashboard["upcoming"].as_array().unwrap().iter().find(|s| s["id"] == session).unwrap();
        assert_eq!(upcoming["booked"], 1);
    }

    async fn a_tutor_reads_and_marks_only_their_own_roster(app: TestApp) {
        let (owner, _) = staff_member(&app, Role::Owner, "owner@college.test").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tia@college.test").await;
        let (other, _) = staff_member(&app, Role::Tutor, "tom@college.test").await;
        let tutors: Value = owner.get(app.url("/api/admin/tutors")).send().await.unwrap().json().await.unwrap();
        let tia = tutors["tutors"].as_array().unwrap().iter().find(|t| t["name"].as_str().unwrap().contains("tia")).unwrap()["id"].clone();
        let mut form = session_form(0, 6);
        form["tutorId"] = tia;
        let id = open(&app, &owner, &form).await;
        let order_id = book(&app, &id, true).await;

        let roster: Value = tutor.get(app.url(&format!("/api/admin/sessions/{id}/roster"))).send().await.unwrap().json().await.unwrap();
        let student = &roster["students"][0];
        assert_eq!(student["name"], "Sam Lee");
        assert_eq!(student["enrollmentId"], order_id.as_str());
        assert_eq!(student["balancePaid"], false);
        assert!(student["balanceDue"].as_i64().unwrap() > 0);
        assert!(student["kit"].is_string(), "{student}");
        let mine: Value = tutor.get(app.url("/api/admin/sessions")).send().await.unwrap().json().await.unwrap();
        assert_eq!(mine["sessions"].as_array().unwrap().len(), 1, "a tutor lists only their sessions");

        // Another tutor is refused by the server, not only by a hidden link.
        assert_eq!(other.get(app.url(&format!("/api/admin/sessions/{id}/roster"))).send().await.unwrap().status(), 403);
        assert_eq!(other.get(app.url(&format!("/api/admin/sessions/{id}/roster.csv"))).send().await.unwrap().status(), 403);
        let mark = json!({ "attended": true });
        let url = app.url(&format!("/api/admin/sessions/{id}/attendance/{order_id}"));
        assert_eq!(other.put(&url).json(&mark).send().await.unwrap().status(), 403);
        assert_eq!(tutor.post(app.url("/api/admin/sessions")).json(&session_form(5, 5)).send().await.unwrap().status(), 403);

        let before = audit_rows(&app).await;
        assert_eq!(tutor.put(&url).json(&mark).send().await.unwrap().status(), 204);
        assert_eq!(audit_rows(&app).await, before + 1);
        let csv = tutor.get(app.url(&format!("/api/admin/sessions/{id}/roster.csv"))).send().await.unwrap();
        assert_eq!(csv.headers()["content-type"], "text/csv; charset=utf-8");
        let csv = csv.text().await.unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].contains("\"Name\",\"Email\",\"Phone\""), "{csv}");
        assert!(lines[1].starts_with("\"Sam Lee\",\"sam.lee@example.com\""), "{csv}");
        assert!(lines[1].ends_with("\"yes\""), "attended: {csv}");
        assert_eq!(lines.len(), 2);
    }

    async fn a_cancelled_session_leaves_sale_and_tells_its_students(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = open(&app, &staff, &session_form(80, 4)).await;
        book(&app, &id, false).await;
        let before = audit_rows(&app).await;
        let cancelled = staff.post(app.url(&format!("/api/admin/sessions/{id}/cancel"))).json(&json!({})).send().await.unwrap();
        assert_eq!(cancelled.status(), 200);
        assert_eq!(cancelled.json::<Value>().await.unwrap()["students"], 1);
        assert_eq!(audit_rows(&app).await, before + 1);
        assert!(!course_page(&app).await.contains(&id), "off sale");
        let mails = app.db().outbox(100).await.unwrap();
        let told = mails.iter().find(|m| m.to_address == "sam.lee@example.com" && m.subject.contains("has been cancelled")).expect("a mail");
        assert!(told.body_text.contains("full refund") && told.body_text.contains("/account/"), "{}", told.body_text);
        let again = staff.post(app.url(&format!("/api/admin/sessions/{id}/cancel"))).json(&json!({})).send().await.unwrap();
        assert_eq!(again.status(), 422);
        assert_eq!(audit_rows(&app).await, before + 1);
    }

    async fn the_dashboard_and_exports_count_what_was_paid(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let id = open(&app, &staff, &session_form(1, 4)).await;
        let order_id = book(&app, &id, false).await;
        let fee = count(&app, &format!("select cast(sum(amount) as bigint) from payment where enrollment_id = '{order_id}'")).await;
        let dashboard: Value = staff.get(app.url("/api/admin/dashboard")).send().await.unwrap().json().await.unwrap();
        assert!(dashboard["week"]["bookings"].as_i64().unwrap() >= 1, "{dashboard}");
        assert!(dashboard["month"]["takings"].as_i64().unwrap() >= fee, "{dashboard}");
        assert!(dashboard["balances"]["count"].as_i64().unwrap() >= 1);
        let upcoming = dashboard["upcoming"].as_array().unwrap().iter().find(|s| s["id"] == id.as_str()).expect("the new date is upcoming");
        assert_eq!(upcoming["booked"], 1);
        assert_eq!((&dashboard["online"]["week"], &dashboard["online"]["month"]), (&json!({ "orders": 0, "amount": 0 }), &json!({ "orders": 0, "amount": 0 })));
        assert_eq!(dashboard["enquiries"], json!({ "new": 0 }));

        // An e-learning course bought and paid on the sandbox, and an enquiry sent.
        let offer = app.db().online_offers().await.unwrap().into_iter().next().expect("an online course");
        let checkout: Value = app.client.post(app.url("/api/e-learning/create-checkout"))
            .json(&json!({ "priceIds": [offer.price_id], "agreed": crate::online_checkout::agreed_online() }))
            .send().await.unwrap().json().await.unwrap();
        let form = [("email", "sam@example.com"), ("name", "Sam Buyer"), ("card_number", "4242 4242 4242 4242"), ("expiry", "12 / 34"), ("cvc", "123")];
        let paid = app.client.post(app.url(checkout["url"].as_str().unwrap())).form(&form).send().await.unwrap();
        assert_eq!(paid.status(), 303);
        let (status, _) = crate::enrol_checkout::post(&app, "/api/enquiries/contact",
            &json!({ "name": "Ann Hill", "email": "ann@example.org", "message": "Do you teach at weekends?" })).await;
        assert!(status < 300, "{status}");
        let dashboard: Value = staff.get(app.url("/api/admin/dashboard")).send().await.unwrap().json().await.unwrap();
        let sold = json!({ "orders": 1, "amount": offer.unit_amount.pence() });
        assert_eq!((&dashboard["online"]["week"], &dashboard["online"]["month"]), (&sold, &sold), "{dashboard}");
        assert_eq!(dashboard["enquiries"], json!({ "new": 1 }));

        let today = london::today(Utc::now());
        let range = format!("from={}&to={}", today - Duration::days(1), today);
        let payments = staff.get(app.url(&format!("/api/admin/exports/payments.csv?{range}"))).send().await.unwrap();
        assert!(payments.headers()["content-disposition"].to_str().unwrap().contains("payments-"));
        let payments = payments.text().await.unwrap();
        let row = payments.lines().find(|l| l.contains(&order_id)).expect("the booking fee is exported");
        assert!(row.contains(&format!("\"{}.{:02}\"", fee / 100, fee % 100)), "{row}");
        assert!(row.contains("\"Sam Lee\""), "{row}");
        let orders = staff.get(app.url(&format!("/api/admin/exports/orders.csv?{range}"))).send().await.unwrap().text().await.unwrap();
        assert!(orders.lines().any(|l| l.contains(&order_id) && l.contains("Chemical")), "{orders}");
        let earlier = format!("from={}&to={}", today - Duration::days(30), today - Duration::days(2));
        let none = staff.get(app.url(&format!("/api/admin/exports/payments.csv?{earlier}"))).send().await.unwrap().text().await.unwrap();
        assert_eq!(none.lines().count(), 1, "only the header outside the range");
        assert_eq!(staff.get(app.url("/api/admin/exports/secrets.csv?from=2026-01-01&to=2026-01-02")).send().await.unwrap().status(), 404);
    }

    async fn a_certificate_goes_once_to_a_student_who_came_and_paid(app: TestApp) {
        verified_account(&app, "sam.lee@example.com").await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let later = open(&app, &staff, &session_form(30, 4)).await;
        let early = book(&app, &later, false).await;
        let too_early = staff.put(app.url(&format!("/api/admin/sessions/{later}/attendance/{early}")))
            .json(&json!({ "attended": true })).send().await.unwrap();
        assert_eq!(too_early.status(), 422, "attendance waits for the day");

        let id = open(&app, &staff, &session_form(0, 4)).await;
        let order_id = book(&app, &id, false).await;
        let issue = |staff: reqwest::Client| {
            let url = app.url(&format!("/api/admin/sessions/{id}/certificates/{order_id}"));
            async move { staff.post(url).json(&json!({})).send().await.unwrap() }
        };
        let before = audit_rows(&app).await;
        let refused = issue(staff.clone()).await;
        assert_eq!(refused.status(), 422);
        assert!(refused.text().await.unwrap().contains("attended"));
        let attended = staff.put(app.url(&format!("/api/admin/sessions/{id}/attendance/{order_id}")))
            .json(&json!({ "attended": true })).send().await.unwrap();
        assert_eq!(attended.status(), 204);
        let refused = issue(staff.clone()).await;
        assert_eq!(refused.status(), 422);
        assert!(refused.text().await.unwrap().contains("owes"));

        let owed = count(&app, &format!("select total - deposit from enrollment where id = '{order_id}'")).await;
        link(&app, &order_id, "ce27f1").await;
        pay(&app, "ce27f1", owed).await;
        let refused = issue(staff.clone()).await;
        assert_eq!(refused.status(), 422);
        assert!(refused.text().await.unwrap().contains("outstanding"), "the course's forms and documents come first");
        made_ready(&app, &order_id).await;
        let issued = issue(staff.clone()).await;
        assert_eq!(issued.status(), 201);
        let number = issued.json::<Value>().await.unwrap()["number"].as_str().unwrap().to_owned();
        assert!(number.contains(&format!("-{}-", london::today(Utc::now()).format("%Y"))), "{number}");
        assert_eq!(audit_rows(&app).await, before + 2, "attendance and the certificate, one row each");
        assert_eq!(issue(staff.clone()).await.status(), 409, "once");
        let check = app.get(&format!("/api/page-data?path=/certificates/{number}")).await.text().await.unwrap();
        assert!(check.contains("Sam Lee"), "anyone checks it by number: {check}");
        let roster: Value = staff.get(app.url(&format!("/api/admin/sessions/{id}/roster"))).send().await.unwrap().json().await.unwrap();
        assert_eq!(roster["students"][0]["certificate"], number.as_str());
        let mails = app.db().outbox(200).await.unwrap();
        assert!(mails.iter().any(|m| m.to_address == "sam.lee@example.com" && m.body_text.contains(&number)));
    }
}
