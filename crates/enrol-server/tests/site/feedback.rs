//! Feedback after the day (decision 034): one mail per student and date
//! however often (and wherever) attendance is marked; the link records once
//! and opens only its own student's feedback; a low rating reaches the
//! inbox; only a comment the student agreed to share is published, and the
//! course page then shows it with a rating made of published reviews only.

use serde_json::{Value, json};

use enrol_domain::staff::Role;

use crate::admin::{audit_rows, staff_member};
use crate::admin_sessions::{book, open, session_form};
use crate::both_backends;
use crate::enrol_checkout::{COURSE, count, post};
use crate::helpers::TestApp;

const ASKED: &str = "select count(*) from mail_outbox where subject like 'How was your%'";

/// Marks `enrollment` as come (or not) on `session`, as `staff` through `app`.
async fn mark(app: &TestApp, staff: &reqwest::Client, session: &str, enrollment: &str, attended: bool) -> u16 {
    staff
        .put(app.url(&format!("/api/admin/sessions/{session}/attendance/{enrollment}")))
        .json(&json!({ "attended": attended }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Gives booking `enrollment` its own student, so each mail says whose it is.
async fn name_student(app: &TestApp, enrollment: &str, given: &str, email: &str) {
    enrol_db::on_pool!(app.db(), pool => sqlx::query("update enrollment set given_name = $2, email = $3 where id = $1")
        .bind(enrollment).bind(given).bind(email).execute(pool).await.map(|_| ()))
    .unwrap();
}

/// The token in the feedback mail sent to `email`.
async fn token_mailed_to(app: &TestApp, email: &str) -> String {
    let mails = app.db().outbox(500).await.unwrap();
    let mail = mails.iter().find(|m| m.to_address == email && m.subject.starts_with("How was your")).expect("a feedback mail");
    let start = mail.body_text.find("/feedback/?token=").expect("the link") + "/feedback/?token=".len();
    mail.body_text[start..].chars().take_while(char::is_ascii_hexdigit).collect()
}

/// A session today with two students marked as come: the staff member,
/// the session, and each student's link token.
async fn trained(app: &TestApp) -> (reqwest::Client, String, String, String) {
    let (staff, _) = staff_member(app, Role::Staff, "staff@college.test").await;
    let session = open(app, &staff, &session_form(0, 4)).await;
    let (ana, ben) = (book(app, &session, false).await, book(app, &session, false).await);
    name_student(app, &ana, "Ana", "ana@example.com").await;
    name_student(app, &ben, "Ben", "ben@example.com").await;
    assert_eq!(mark(app, &staff, &session, &ana, true).await, 204);
    assert_eq!(mark(app, &staff, &session, &ben, true).await, 204);
    let (ana_token, ben_token) = (token_mailed_to(app, "ana@example.com").await, token_mailed_to(app, "ben@example.com").await);
    (staff, session, ana_token, ben_token)
}

async fn answer(app: &TestApp, token: &str, rating: i64, comment: &str, may_publish: bool) -> u16 {
    post(app, "/api/feedback", &json!({ "token": token, "rating": rating, "comment": comment, "mayPublish": may_publish })).await.0
}

async fn page_data(app: &TestApp, path: &str) -> Value {
    app.get(&format!("/api/page-data?path={}", urlencoding(path))).await.json().await.unwrap()
}

fn urlencoding(path: &str) -> String {
    path.replace('?', "%3F").replace('=', "%3D")
}

/// The feedback as the back office lists it: every answer, flat.
async fn answers(app: &TestApp, staff: &reqwest::Client) -> Vec<Value> {
    let response = staff.get(app.url("/api/admin/feedback")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let results: Value = response.json().await.unwrap();
    results["days"].as_array().unwrap().iter().flat_map(|day| day["answers"].as_array().unwrap().clone()).collect()
}

/// The JSON-LD `Course` node of the course's public page, and the page.
async fn course_page(app: &TestApp) -> (Value, String) {
    let url: String = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select url from course where id = $1")
        .bind(COURSE).fetch_one(pool).await)
    .unwrap();
    let (status, html) = app.text(&url).await;
    assert_eq!(status, 200);
    let start = html.find("<script type=\"application/ld+json\">").expect("JSON-LD present") + 35;
    let end = start + html[start..].find("</script>").unwrap();
    let graph: Value = serde_json::from_str(&html[start..end]).unwrap();
    let course = graph["@graph"].as_array().unwrap().iter().find(|n| n["@type"] == "Course").unwrap().clone();
    (course, html)
}

both_backends! {
    async fn attendance_marked_again_and_again_on_two_instances_asks_for_feedback_once(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let session = open(&app, &staff, &session_form(0, 4)).await;
        let enrollment = book(&app, &session, false).await;
        let before = audit_rows(&app).await;
        let mut marks = tokio::task::JoinSet::new();
        for i in 0..10 {
            let instance = if i % 2 == 0 { &app } else { &other };
            let (staff, url) = (staff.clone(), instance.url(&format!("/api/admin/sessions/{session}/attendance/{enrollment}")));
            marks.spawn(async move { staff.put(url).json(&json!({ "attended": true })).send().await.unwrap().status().as_u16() });
        }
        assert_eq!(marks.join_all().await, vec![204; 10]);
        assert_eq!(count(&app, ASKED).await, 1, "one feedback mail");
        assert_eq!(count(&app, "select count(*) from event_feedback").await, 1);
        assert_eq!(audit_rows(&app).await, before + 10, "each mark is still audited");
        // Unmarked and marked again: still asked once.
        assert_eq!(mark(&other, &staff, &session, &enrollment, false).await, 204);
        assert_eq!(mark(&app, &staff, &session, &enrollment, true).await, 204);
        assert_eq!(count(&app, ASKED).await, 1);
        other.stop().await;
        app.stop().await;
    }

    async fn a_student_marked_absent_is_not_asked(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let session = open(&app, &staff, &session_form(0, 4)).await;
        let enrollment = book(&app, &session, false).await;
        assert_eq!(mark(&app, &staff, &session, &enrollment, false).await, 204);
        assert_eq!(count(&app, ASKED).await, 0);
        app.stop().await;
    }

    async fn the_link_records_once_opens_only_its_own_students_feedback_and_a_low_rating_reaches_the_inbox(app: TestApp) {
        let (staff, _, ana, ben) = trained(&app).await;
        let page = page_data(&app, &format!("/feedback/?token={ana}")).await;
        assert_eq!(page["page"]["kind"], "feedback");
        assert_eq!(page["page"]["asked"]["givenName"], "Ana", "Ana's link opens Ana's day");
        assert_eq!(page["page"]["asked"]["answered"], false);
        let unknown = page_data(&app, "/feedback/?token=00ff").await;
        assert!(unknown["page"]["asked"].is_null());

        assert_eq!(answer(&app, &ana, 0, "", false).await, 422, "a rating is 1 to 5");
        assert_eq!(answer(&app, &ana, 6, "", false).await, 422);
        assert_eq!(answer(&app, "00ff", 4, "", false).await, 404);
        assert_eq!(answer(&app, &ana, 2, "The room was cold", false).await, 200);
        assert_eq!(answer(&app, &ana, 5, "Changed my mind", true).await, 409, "feedback is given once");
        assert_eq!(page_data(&app, &format!("/feedback/?token={ana}")).await["page"]["asked"]["answered"], true);
        let ben_page = page_data(&app, &format!("/feedback/?token={ben}")).await;
        assert_eq!((ben_page["page"]["asked"]["givenName"].as_str(), ben_page["page"]["asked"]["answered"].as_bool()), (Some("Ben"), Some(false)));
        assert_eq!(count(&app, "select count(*) from event_feedback where rating is not null").await, 1, "Ben's is untouched");

        let inbox = |app: &TestApp| {
            let (staff, url) = (staff.clone(), app.url("/api/admin/enquiries?kind=feedback"));
            async move { staff.get(url).send().await.unwrap().json::<Value>().await.unwrap()["enquiries"].as_array().unwrap().clone() }
        };
        let low = inbox(&app).await;
        assert_eq!(low.len(), 1, "a rating of 2 reaches the inbox");
        assert!(low[0]["message"].as_str().unwrap().contains("Rated 2 of 5"), "{}", low[0]);
        assert!(low[0]["message"].as_str().unwrap().contains("The room was cold"));
        assert_eq!(low[0]["email"], "ana@example.com");

        assert_eq!(answer(&app, &ben, 4, "Great", false).await, 200);
        assert_eq!(inbox(&app).await.len(), 1, "a rating of 4 does not");
        let given = answers(&app, &staff).await;
        assert_eq!(given.len(), 2);
        app.stop().await;
    }

    async fn only_a_comment_the_student_agreed_to_share_is_published_and_rates_the_course_page(app: TestApp) {
        let (staff, _, ana, ben) = trained(&app).await;
        let (course, html) = course_page(&app).await;
        assert!(course.get("aggregateRating").is_none() && course.get("review").is_none(), "no rating without published reviews");
        assert!(!html.contains("What students say"));
        assert_eq!(answer(&app, &ana, 5, "Clear and friendly teaching", true).await, 200);
        assert_eq!(answer(&app, &ben, 3, "Too short for me", false).await, 200);
        let given = answers(&app, &staff).await;
        let id_of = |comment: &str| given.iter().find(|a| a["comment"] == comment).unwrap()["id"].as_str().unwrap().to_owned();
        let (agreed, refused) = (id_of("Clear and friendly teaching"), id_of("Too short for me"));

        let publish = |id: &str, action: &str| {
            let (staff, url) = (staff.clone(), app.url(&format!("/api/admin/feedback/{id}/{action}")));
            async move { staff.post(url).json(&json!({})).send().await.unwrap().status().as_u16() }
        };
        assert_eq!(publish(&refused, "publish").await, 409, "Ben did not agree");
        assert_eq!(publish("no-such-answer", "publish").await, 404);
        let before = audit_rows(&app).await;
        assert_eq!(publish(&agreed, "publish").await, 204);
        assert_eq!(audit_rows(&app).await, before + 1);
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        let by_tutor = tutor.post(app.url(&format!("/api/admin/feedback/{agreed}/withdraw"))).json(&json!({})).send().await.unwrap();
        assert_eq!(by_tutor.status(), 403, "a tutor reads feedback but does not publish it");

        // The cached page is dropped: the published comment shows at once.
        let (course, html) = course_page(&app).await;
        assert!(html.contains("Clear and friendly teaching"));
        assert!(!html.contains("Too short for me"), "an unpublished comment stays private");
        assert_eq!(course["aggregateRating"]["ratingValue"], 5.0);
        assert_eq!(course["aggregateRating"]["reviewCount"], 1);
        assert_eq!(course["review"][0]["reviewBody"], "Clear and friendly teaching");
        assert_eq!(course["review"][0]["author"]["name"], "Ana");

        assert_eq!(publish(&agreed, "withdraw").await, 204);
        let (course, html) = course_page(&app).await;
        assert!(course.get("aggregateRating").is_none() && !html.contains("Clear and friendly teaching"), "withdrawn at once");
        app.stop().await;
    }
}
