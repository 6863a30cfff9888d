//! Online orders and access in the back office (decision 027): staff find
//! an online order beside bookings and read it with its registrations;
//! a refund gives back the lines chosen through the refund queue and ends
//! their access at once, never more than was paid however many requests
//! arrive together; staff grant, move the last day of, withdraw and give
//! back access, each with its audit row, and read a course's learners.
//! (Who may call each route is checked by the walk of every admin route in
//! `admin`; the roles are tried here too.)

use chrono::{Days, NaiveDate, Utc};
use reqwest::Method;
use serde_json::{Value, json};

use enrol_domain::grow::GrowPlan;
use enrol_domain::london;
use enrol_domain::staff::Role;
use enrol_server::demo_history;

use crate::accounts::verified_account;
use crate::admin::{audit_rows, staff_member};
use crate::admin_orders::{ask, every_page};
use crate::admin_races::ten_at_once;
use crate::both_backends;
use crate::enrol_checkout::count;
use crate::helpers::{TestApp, browser};
use crate::learning::{COURSE, curriculum, page, post, student_with_the_course};

/// The references of the online orders a search finds, in the order listed.
async fn found(app: &TestApp, staff: &reqwest::Client, query: &str) -> Vec<String> {
    let (status, body) = ask(app, staff, Method::GET, &format!("/online-orders?{query}"), None).await;
    assert_eq!(status, 200, "{query}: {body}");
    body["orders"].as_array().unwrap().iter().map(|o| o["reference"].as_str().unwrap().to_owned()).collect()
}

/// The id of the one online order of `email`.
async fn order_of(app: &TestApp, email: &str) -> String {
    enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select id from online_order where email = $1").bind(email).fetch_one(pool).await)
        .unwrap()
}

/// Whether the student signed in as `token` may complete the course's first lesson.
async fn lesson_done(app: &TestApp, token: &str) -> u16 {
    let first = &curriculum().modules[0].lessons[0].slug;
    post(app, &format!("/api/learn/{COURSE}/lessons/{first}/done"), json!({}), Some(token)).await.0
}

/// A change to access that answers `expected`, writing one audit row when it succeeds and none otherwise.
async fn change(app: &TestApp, staff: &reqwest::Client, path: &str, body: Value, expected: u16) -> Value {
    let before = audit_rows(app).await;
    let (status, answer) = ask(app, staff, Method::POST, path, Some(body)).await;
    assert_eq!(status, expected, "{path}: {answer}");
    assert_eq!(audit_rows(app).await, before + i64::from(status < 300), "{path}");
    answer
}

both_backends! {
    async fn the_online_orders_page_through_every_order_found_newest_first_each_once(app: TestApp) {
        // A decade at a hundredth of a busy college's size: hundreds of online orders.
        demo_history::grow(app.db(), &app.state.config, GrowPlan::new(10, 0.01).unwrap(), 1).await.unwrap();
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let orders: Vec<(String, String, String)> = enrol_db::on_pool!(app.db(), pool => sqlx::query_as(
            "select id, status, lines from online_order order by created_at desc, id desc"
        ).fetch_all(pool).await).unwrap();
        let registered: Vec<(String, String)> = enrol_db::on_pool!(app.db(), pool => sqlx::query_as(
            "select online_order_id, course_id from online_registration where online_order_id is not null"
        ).fetch_all(pool).await).unwrap();
        let mut by_course = std::collections::BTreeMap::<&str, usize>::new();
        for (_, course) in &registered {
            *by_course.entry(course).or_default() += 1;
        }
        let course = by_course.iter().max_by_key(|(_, n)| **n).expect("grown registrations").0.to_string();
        let bought = |id: &str, lines: &str| {
            lines.contains(&format!("\"course_id\":\"{course}\"")) || registered.iter().any(|(order, c)| order == id && *c == course)
        };
        // A course's, at this size, fit on one page.
        for (query, expected, at_least) in [
            (String::new(), orders.iter().map(|o| o.0.clone()).collect::<Vec<_>>(), 100),
            ("status=paid".to_owned(), orders.iter().filter(|o| o.1 == "paid").map(|o| o.0.clone()).collect(), 100),
            (format!("course={course}"), orders.iter().filter(|o| bought(&o.0, &o.2)).map(|o| o.0.clone()).collect(), 10),
        ] {
            assert!(expected.len() > at_least, "{query}: {} found", expected.len());
            let pages = every_page(&app, &staff, "/online-orders", &query).await;
            assert!(pages[..pages.len() - 1].iter().all(|page| page.len() == 100), "{query}: every page but the last full");
            assert!(pages.last().unwrap().len() <= 100);
            assert_eq!(pages.concat(), expected, "{query}: every online order found, newest first, once");
        }
        for bad in ["yesterday", "2026-01-01T09:30:00Z_", "2026-01-01T09:30:00_x"] {
            assert_eq!(ask(&app, &staff, Method::GET, &format!("/online-orders?before={bad}"), None).await.0, 400, "{bad}");
        }
        app.stop().await;
    }

    async fn online_orders_are_found_beside_bookings_and_read_whole(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        student_with_the_course(&app, "ann.buyer@example.com").await;
        execute_names(&app).await;
        let sam_order = order_of(&app, "sam.student@example.com").await;
        let (status, detail) = ask(&app, &staff, Method::GET, &format!("/online-orders/{sam_order}"), None).await;
        assert_eq!(status, 200, "{detail}");
        let order = &detail["order"];
        let reference = order["reference"].as_str().unwrap().to_owned();
        let ann_reference = found(&app, &staff, "q=ann.buyer").await;
        assert_eq!(ann_reference.len(), 1);

        assert_eq!(found(&app, &staff, "").await, [ann_reference[0].clone(), reference.clone()], "newest first");
        assert_eq!(found(&app, &staff, &format!("q={}", reference.to_lowercase().replace('-', "%20"))).await, [reference.as_str()], "a reference read out");
        assert_eq!(found(&app, &staff, "q=SAM.student").await, [reference.as_str()], "an email");
        assert_eq!(found(&app, &staff, "q=samuel%20stone").await, [reference.as_str()], "the account's name");
        assert_eq!(found(&app, &staff, "q=anatomy").await.len(), 2, "a line's title");
        assert_eq!(found(&app, &staff, &format!("course={COURSE}")).await.len(), 2);
        assert!(found(&app, &staff, "course=anatomy").await.is_empty(), "a course id is matched whole");
        assert_eq!(found(&app, &staff, "status=paid&q=").await.len(), 2, "an empty parameter asks nothing");
        assert!(found(&app, &staff, "status=failed").await.is_empty());
        assert_eq!(ask(&app, &staff, Method::GET, "/online-orders?status=lost", None).await.0, 400);

        let total = order["total"].as_i64().unwrap();
        assert!(total > 0);
        assert_eq!((order["paid"].as_i64(), order["status"].as_str(), order["name"].as_str()), (Some(total), Some("paid"), Some("Samuel Stone")));
        assert_eq!(order["lines"].as_array().unwrap().len(), 1);
        assert_eq!((order["lines"][0]["amount"].as_i64(), order["lines"][0]["refunded"].as_bool()), (Some(total), Some(false)));
        assert_eq!(order["payments"].as_array().unwrap().len(), 1);
        assert_eq!(order["payments"][0]["amount"].as_i64(), Some(total));
        assert!(order["mails"].as_array().unwrap().iter().any(|m| m["to"] == "sam.student@example.com"), "{order}");

        // Its registration, with the student's progress as they study.
        assert_eq!(lesson_done(&app, &sam).await, 200);
        let order = &ask(&app, &staff, Method::GET, &format!("/online-orders/{sam_order}"), None).await.1["order"];
        let registration = &order["registrations"][0];
        assert_eq!((registration["courseId"].as_str(), registration["access"]["state"].as_str()), (Some(COURSE), Some("active")));
        let percent = registration["percent"].as_u64().unwrap();
        assert!(percent > 0 && percent < 100, "one lesson done: {registration}");
        assert!(registration["lastVisited"].is_null() || registration["lastVisited"].is_string());
        assert_eq!((registration["complete"].as_bool(), registration["certificate"].as_str()), (Some(false), None));
        assert_eq!(ask(&app, &staff, Method::GET, "/online-orders/no-such-order", None).await.0, 404);

        // Only staff with the orders permission read them.
        for role in [Role::Tutor, Role::Editor] {
            let (other, _) = staff_member(&app, role, &format!("{}@college.test", role.as_str())).await;
            assert_eq!(ask(&app, &other, Method::GET, "/online-orders", None).await.0, 403, "{role:?}");
            assert_eq!(ask(&app, &other, Method::GET, &format!("/online-orders/{sam_order}"), None).await.0, 403, "{role:?}");
            assert_eq!(ask(&app, &other, Method::GET, &format!("/courses/{COURSE}/learners"), None).await.0, 403, "{role:?}");
            let refund = json!({ "lines": [0], "reason": "test" });
            assert_eq!(ask(&app, &other, Method::POST, &format!("/online-orders/{sam_order}/refund"), Some(refund)).await.0, 403);
        }
        assert_eq!(ask(&app, &browser(), Method::GET, "/online-orders", None).await.0, 401);
    }

    async fn a_refund_ends_the_access_its_lines_bought_at_once(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let id = order_of(&app, "sam.student@example.com").await;
        assert_eq!(lesson_done(&app, &sam).await, 200);
        let path = format!("/online-orders/{id}/refund");
        change(&app, &staff, &path, json!({ "lines": [], "reason": "Asked to" }), 422).await;
        change(&app, &staff, &path, json!({ "lines": [3], "reason": "Asked to" }), 422).await;
        change(&app, &staff, &path, json!({ "lines": [0], "reason": " " }), 422).await;

        let order = change(&app, &staff, &path, json!({ "lines": [0], "reason": "Changed her mind" }), 200).await["order"].clone();
        let total = order["total"].as_i64().unwrap();
        assert_eq!((order["paid"].as_i64(), order["lines"][0]["refunded"].as_bool()), (Some(0), Some(true)));
        assert_eq!(order["refunds"].as_array().unwrap().len(), 1);
        assert_eq!((order["refunds"][0]["amount"].as_i64(), order["refunds"][0]["status"].as_str()), (Some(total), Some("succeeded")), "made by the provider at once");
        assert_eq!(order["registrations"][0]["access"]["state"], "revoked");
        assert_eq!(order["audit"][0]["action"], "online_order.refund");
        assert!(order["audit"][0]["summary"].as_str().unwrap().ends_with(": Changed her mind"), "{}", order["audit"][0]);
        assert_eq!(count(&app, "select count(*) from receipt where kind = 'credit_note'").await, 1, "a credit note for the refund");

        // The student's next lesson request is refused; the player says the course is closed.
        assert_eq!(lesson_done(&app, &sam).await, 404);
        let closed = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
        assert_eq!((closed["page"]["kind"].as_str(), closed["page"]["access"]["state"].as_str()), (Some("courseClosed"), Some("revoked")));
        // A line is given back once.
        let again = change(&app, &staff, &path, json!({ "lines": [0], "reason": "Again" }), 422).await;
        assert!(again["error"]["message"].as_str().unwrap().contains("refunded already"), "{again}");
    }

    async fn refunds_sent_at_once_never_give_back_more_than_was_paid(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        student_with_the_course(&app, "sam.student@example.com").await;
        let id = order_of(&app, "sam.student@example.com").await;
        let paid = count(&app, &format!("select cast(sum(amount) as bigint) from payment where online_order_id = '{id}'")).await;
        let before = audit_rows(&app).await;
        let statuses = ten_at_once(&app, &other, &staff, &format!("/online-orders/{id}/refund"), json!({ "lines": [0], "reason": "Twice" })).await;
        assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| *s == 200 || *s == 422), "{statuses:?}");
        let refunded = count(&app, &format!("select cast(coalesce(sum(r.amount), 0) as bigint) from refund r join payment p on p.id = r.payment_id where p.online_order_id = '{id}'")).await;
        assert_eq!(refunded, paid, "all of it once, never more");
        assert_eq!(audit_rows(&app).await, before + 1);
    }

    async fn staff_grant_extend_revoke_and_restore_access_with_audit_rows(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        student_with_the_course(&app, "sam.student@example.com").await;
        let ann = verified_account(&app, "ann.granted@example.com").await;
        assert_eq!(lesson_done(&app, &ann).await, 404, "no access before the grant");

        let grant = |email: &str, last_day: Option<NaiveDate>| json!({ "email": email, "courseId": COURSE, "lastDay": last_day });
        let nobody = change(&app, &staff, "/online-registrations", grant("nobody@example.com", None), 422).await;
        assert!(nobody["error"]["fields"]["email"].is_string(), "{nobody}");
        let unknown = json!({ "email": "ann.granted@example.com", "courseId": "no-such-course", "lastDay": null });
        change(&app, &staff, "/online-registrations", unknown, 422).await;
        let today = london::today(Utc::now());
        let yesterday = today.checked_sub_days(Days::new(1)).unwrap();
        change(&app, &staff, "/online-registrations", grant("ann.granted@example.com", Some(yesterday)), 422).await;
        let in_a_month = today.checked_add_days(Days::new(30)).unwrap();
        let granted = change(&app, &staff, "/online-registrations", grant("ANN.granted@example.com", Some(in_a_month)), 201).await;
        let registration = &granted["registration"];
        assert_eq!((registration["lastDay"].as_str(), registration["access"]["state"].as_str()), (Some(in_a_month.to_string().as_str()), Some("active")));
        assert_eq!((registration["orderId"].as_str(), registration["grantedBy"].as_str()), (None, Some("staff staff@college.test")));
        assert_eq!(lesson_done(&app, &ann).await, 200, "the grant opens the course");
        let again = change(&app, &staff, "/online-registrations", grant("ann.granted@example.com", None), 422).await;
        assert!(again["error"]["message"].as_str().unwrap().contains("already have this course"), "{again}");
        let id = registration["id"].as_str().unwrap().to_owned();

        // The last day moves, never into the past nor before the start.
        let last_day = format!("/online-registrations/{id}/last-day");
        change(&app, &staff, &last_day, json!({ "lastDay": yesterday }), 422).await;
        let in_a_year = today.checked_add_days(Days::new(365)).unwrap();
        let moved = change(&app, &staff, &last_day, json!({ "lastDay": in_a_year }), 200).await;
        assert_eq!(moved["registration"]["lastDay"].as_str(), Some(in_a_year.to_string().as_str()));
        let (before, after): (Option<String>, Option<String>) = enrol_db::on_pool!(app.db(), pool => sqlx::query_as(
            "select before_data, after_data from audit_log where action = 'access.extend' and entity_id = $1"
        ).bind(&id).fetch_one(pool).await).unwrap();
        assert!(before.unwrap().contains(&in_a_month.to_string()) && after.unwrap().contains(&in_a_year.to_string()), "before and after");

        // Withdrawn with a reason, the course closes; given back, it opens.
        let revoke = format!("/online-registrations/{id}/revoke");
        let restore = format!("/online-registrations/{id}/restore");
        change(&app, &staff, &restore, json!({}), 422).await;
        change(&app, &staff, &revoke, json!({ "reason": "" }), 422).await;
        let revoked = change(&app, &staff, &revoke, json!({ "reason": "Shared her login" }), 200).await;
        assert_eq!((revoked["registration"]["access"]["state"].as_str(), revoked["registration"]["revokeReason"].as_str()), (Some("revoked"), Some("Shared her login")));
        assert_eq!(lesson_done(&app, &ann).await, 404);
        change(&app, &staff, &revoke, json!({ "reason": "Again" }), 422).await;
        let restored = change(&app, &staff, &restore, json!({}), 200).await;
        assert_eq!(restored["registration"]["access"]["state"], "active");
        assert_eq!(lesson_done(&app, &ann).await, 200);
        change(&app, &staff, "/online-registrations/no-such/restore", json!({}), 404).await;

        // The course's learners: both students, with their progress.
        let (status, learners) = ask(&app, &staff, Method::GET, &format!("/courses/{COURSE}/learners"), None).await;
        assert_eq!(status, 200, "{learners}");
        let emails: Vec<&str> = learners["learners"].as_array().unwrap().iter().map(|l| l["email"].as_str().unwrap()).collect();
        assert_eq!(emails, ["ann.granted@example.com", "sam.student@example.com"], "newest first");
        assert!(learners["learners"][0]["percent"].as_u64().unwrap() > 0);
        assert_eq!(learners["learners"][1]["percent"], 0);
        assert_eq!(ask(&app, &staff, Method::GET, "/courses/no-such-course/learners", None).await.0, 404);
        let csv = staff.get(app.url(&format!("/api/admin/courses/{COURSE}/learners.csv"))).send().await.unwrap();
        assert_eq!(csv.status(), 200);
        let text = csv.text().await.unwrap();
        assert!(text.contains("\"Progress (%)\"") && text.contains("\"ann.granted@example.com\"") && text.contains("\"granted by staff staff@college.test\""), "{text}");

        // The audit log tells each change in words.
        let (_, audit) = ask(&app, &staff, Method::GET, &format!("/audit?entity=online_registration&entityId={id}"), None).await;
        let actions: Vec<&str> = audit["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["access.restore", "access.revoke", "access.extend", "access.grant"]);
    }
}

/// Sam's account has the name the search finds.
async fn execute_names(app: &TestApp) {
    crate::enrol_checkout::execute(
        app,
        "update user_account set given_name = 'Samuel', family_name = 'Stone' where email = 'sam.student@example.com'",
    )
    .await;
}
