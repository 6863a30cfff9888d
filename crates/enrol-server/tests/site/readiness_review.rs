//! Ready for training, reviewed (issue 29, decision 033): staff open a
//! booked student's answers and files from the roster (each opening
//! audited), turn a document down with a reason the student is mailed and
//! accept the next; medical answers are kept apart, read only by the
//! student's tutor and the owner, and never exported, audited or mailed;
//! reminders of what is left go once per stage however many runners race;
//! medical answers and files are removed after training, with a record.

use base64::Engine as _;
use chrono::{Duration, TimeZone as _, Utc};
use enrol_domain::london;
use enrol_domain::staff::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::admin::staff_member;
use crate::balance::{booked, mails_to_sam};
use crate::both_backends;
use crate::enrol_checkout::{count, execute};
use crate::graphql::graphql;
use crate::helpers::TestApp;
use crate::learning::as_student;

const SESSION: &str = "chemical-peels-3";

/// Everything booking `order_id` was asked before training, done: for the
/// tests of what follows readiness (certificates).
pub(crate) async fn made_ready(app: &TestApp, order_id: &str) {
    execute(app, &format!("update user_form set client_complete = true where enrollment_id = '{order_id}'")).await;
    execute(app, &format!("update upload_request set status = 'accepted' where enrollment_id = '{order_id}'")).await;
}

/// Sam's booking of the demo's Chemical Peels Course, a month ahead, fee paid: Sam's token and the booking's id.
async fn sams_booking(app: &TestApp) -> (String, String) {
    let in_a_month = london::today(Utc::now()) + Duration::days(30);
    execute(app, &format!("update session set date = '{in_a_month}' where id = '{SESSION}'")).await;
    let sam = verified_account(app, "sam.lee@example.com").await;
    (sam, booked(app).await)
}

async fn first_of(app: &TestApp, token: &str, list: &str, fields: &str) -> Value {
    let (status, answer) = graphql(app, Some(token), &format!("{{ {list} {{ {fields} }} }}"), json!({})).await;
    assert_eq!(status, 200, "{answer}");
    answer["data"][list][0].clone()
}

async fn send_file(app: &TestApp, token: &str, request: &str) -> u16 {
    let pdf = base64::engine::general_purpose::STANDARD.encode(b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n");
    let body = json!({ "file_name": "level-2.pdf", "data": pdf });
    as_student(app, Method::POST, &format!("/api/account/upload-requests/{request}/files"), Some(token))
        .json(&body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn medical_form(app: &TestApp, token: &str) -> String {
    let (_, forms) = graphql(app, Some(token), "{ forms { id kind } }", json!({})).await;
    let forms = forms["data"]["forms"].as_array().unwrap().clone();
    forms.iter().find(|f| f["kind"] == "medical").unwrap()["id"].as_str().unwrap().to_owned()
}

/// Sam answers the medical form in full, with an allergy, and an emergency contact that must never leave it.
async fn answer_medical_form(app: &TestApp, token: &str) {
    let form = medical_form(app, token).await;
    let answers = json!({ "answers": { "conditions": "no", "allergies": "yes", "pregnant": "no",
        "emergency_contact": "Tom Hartley 07700 900321" }, "complete": true });
    let saved = as_student(app, Method::PUT, &format!("/api/account/forms/{form}"), Some(token)).json(&answers).send().await.unwrap();
    assert_eq!(saved.status(), 200);
}

async fn audited(app: &TestApp, action: &str) -> i64 {
    count(app, &format!("select count(*) from audit_log where action = '{action}'")).await
}

async fn readiness(app: &TestApp, staff: &reqwest::Client, order_id: &str) -> (u16, Value) {
    let response = staff.get(app.url(&format!("/api/admin/sessions/{SESSION}/readiness/{order_id}"))).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

async fn verdict(app: &TestApp, staff: &reqwest::Client, order_id: &str, request: &str, body: Value) -> u16 {
    let url = app.url(&format!("/api/admin/sessions/{SESSION}/readiness/{order_id}/documents/{request}"));
    staff.put(url).json(&body).send().await.unwrap().status().as_u16()
}

both_backends! {
    async fn staff_turn_a_document_down_with_a_reason_the_student_is_mailed_and_accept_the_next(app: TestApp) {
        let (sam, order_id) = sams_booking(&app).await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let request = first_of(&app, &sam, "uploads", "id").await["id"].as_str().unwrap().to_owned();
        assert_eq!(verdict(&app, &staff, &order_id, &request, json!({ "accepted": true })).await, 409, "nothing sent yet");
        assert_eq!(send_file(&app, &sam, &request).await, 201);

        let (status, opened) = readiness(&app, &staff, &order_id).await;
        assert_eq!(status, 200, "{opened}");
        assert_eq!(opened["name"], "Sam Lee");
        assert_eq!(opened["documents"][0]["state"], "received");
        assert_eq!(audited(&app, "readiness.open").await, 1, "each opening is audited");
        let file = opened["documents"][0]["uploads"][0]["id"].as_str().unwrap().to_owned();
        let download = staff.get(app.url(&format!("/api/admin/sessions/{SESSION}/readiness/{order_id}/uploads/{file}"))).send().await.unwrap();
        assert_eq!(download.status(), 200);
        assert_eq!(download.headers()["content-security-policy"], "sandbox; default-src 'none'");
        assert!(download.bytes().await.unwrap().starts_with(b"%PDF"));
        assert_eq!(audited(&app, "readiness.open_file").await, 1);
        let elsewhere = staff.get(app.url(&format!("/api/admin/sessions/chemical-peels-1/readiness/{order_id}/uploads/{file}"))).send().await.unwrap();
        assert_eq!(elsewhere.status(), 404, "only from a roster the booking is on");

        assert_eq!(verdict(&app, &staff, &order_id, &request, json!({ "accepted": false, "reason": "  " })).await, 422, "a reason is required");
        let reason = "The photo is blurred: please scan it again.";
        assert_eq!(verdict(&app, &staff, &order_id, &request, json!({ "accepted": false, "reason": reason })).await, 204);
        let mails = mails_to_sam(&app, "Please send another file").await;
        assert_eq!(mails.len(), 1);
        assert!(mails[0].contains(&format!("Our reason:\n  {reason}")), "{}", mails[0]);
        let seen = first_of(&app, &sam, "uploads", "status reason").await;
        assert_eq!((seen["status"].as_str(), seen["reason"].as_str()), (Some("rejected"), Some(reason)));

        assert_eq!(send_file(&app, &sam, &request).await, 201, "the student sends another");
        assert_eq!(first_of(&app, &sam, "uploads", "status").await["status"], "received");
        assert_eq!(verdict(&app, &staff, &order_id, &request, json!({ "accepted": true })).await, 204);
        assert_eq!(send_file(&app, &sam, &request).await, 404, "an accepted document takes no more files");
        assert_eq!(audited(&app, "readiness.review").await, 2);

        let roster: Value = staff.get(app.url(&format!("/api/admin/sessions/{SESSION}/roster"))).send().await.unwrap().json().await.unwrap();
        let student = roster["students"].as_array().unwrap().iter().find(|s| s["enrollmentId"] == order_id.as_str()).unwrap().clone();
        assert_eq!((student["documentsAsked"].as_u64(), student["documentsAccepted"].as_u64()), (Some(1), Some(1)), "{student}");
        assert_eq!(student["entry"], "met", "the course's documents accepted meet its entry requirement");
        assert_eq!(student["ready"], false, "the forms and the balance are still to do");
        app.stop().await;
    }

    async fn medical_answers_are_read_only_by_the_students_tutor_and_the_owner_and_never_leave_in_exports_logs_or_mails(app: TestApp) {
        let (sam, order_id) = sams_booking(&app).await;
        let (owner, _) = staff_member(&app, Role::Owner, "owner@college.test").await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tia@college.test").await;
        let (other, _) = staff_member(&app, Role::Tutor, "tom@college.test").await;
        let (editor, _) = staff_member(&app, Role::Editor, "ed@college.test").await;
        let tia: String = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select id from staff_account where email = 'tia@college.test'")
            .fetch_one(pool).await).unwrap();
        execute(&app, &format!("update session set tutor_id = '{tia}' where id = '{SESSION}'")).await;
        answer_medical_form(&app, &sam).await;
        let form = medical_form(&app, &sam).await;
        assert_eq!(count(&app, &format!("select count(*) from medical_answer where user_form_id = '{form}'")).await, 4);
        assert_eq!(count(&app, &format!("select count(*) from form_response where user_form_id = '{form}'")).await, 0, "kept apart");
        let own = first_of(&app, &sam, "forms", "kind responses { question answer }").await;
        let back = graphql(&app, Some(&sam), "{ forms { kind responses { answer } } }", json!({})).await.1.to_string();
        assert!(back.contains("Tom Hartley"), "the student reads her own answers: {own} {back}");

        let medical = |opened: &Value| opened["forms"].as_array().unwrap().iter().find(|f| f["kind"] == "medical").unwrap().clone();
        for (reader, who) in [(&tutor, "her tutor"), (&owner, "the owner")] {
            let (status, opened) = readiness(&app, reader, &order_id).await;
            assert_eq!(status, 200, "{who}: {opened}");
            assert!(medical(&opened)["answers"].to_string().contains("Tom Hartley"), "{who} reads the answers");
            assert_eq!(medical(&opened)["flagged"], true);
        }
        let (status, opened) = readiness(&app, &staff, &order_id).await;
        assert_eq!(status, 200);
        assert_eq!(medical(&opened)["answers"], Value::Null, "office staff see that a call is asked, not the answer");
        assert_eq!(medical(&opened)["flagged"], true);
        assert_eq!(readiness(&app, &other, &order_id).await.0, 403, "a tutor of another session");
        assert_eq!(readiness(&app, &editor, &order_id).await.0, 403);

        let roster: Value = staff.get(app.url(&format!("/api/admin/sessions/{SESSION}/roster"))).send().await.unwrap().json().await.unwrap();
        assert!(roster["students"].as_array().unwrap().iter().any(|s| s["flagged"] == true), "{roster}");
        let csv = owner.get(app.url(&format!("/api/admin/sessions/{SESSION}/roster.csv"))).send().await.unwrap().text().await.unwrap();
        assert!(csv.contains("Sam Lee") && !csv.contains("Tom Hartley"), "{csv}");
        for export in ["orders", "payments"] {
            let file = owner.get(app.url(&format!("/api/admin/exports/{export}.csv?from=2020-01-01&to=2100-01-01"))).send().await.unwrap();
            assert!(!file.text().await.unwrap().contains("Tom Hartley"), "{export}");
        }
        assert_eq!(count(&app, "select count(*) from audit_log where coalesce(after_data, '') like '%Tom Hartley%' \
            or coalesce(before_data, '') like '%Tom Hartley%'").await, 0);
        assert!(app.db().outbox(500).await.unwrap().iter().all(|m| !m.body_text.contains("Tom Hartley")));
        app.stop().await;
    }

    async fn what_is_left_is_reminded_a_week_and_two_days_before_it_is_due_each_once_however_many_runners(app: TestApp) {
        let other = app.another_instance().await;
        let (sam, _) = sams_booking(&app).await;
        let due = london::today(Utc::now()) + Duration::days(23);
        let noon = |day: chrono::NaiveDate| Utc.from_utc_datetime(&day.and_hms_opt(12, 0, 0).unwrap());
        let send = enrol_server::reminders::send_task_reminders;
        assert_eq!(send(&app.state, noon(due - Duration::days(8))).await.unwrap(), 0, "too early");
        let week = noon(due - Duration::days(7));
        let (a, b) = tokio::join!(send(&app.state, week), send(&other.state, week));
        assert_eq!(a.unwrap() + b.unwrap(), 1, "one reminder between two runners");
        assert_eq!(send(&app.state, week + Duration::hours(1)).await.unwrap(), 0, "once");
        let mails = mails_to_sam(&app, "Before your Chemical Peels Course training").await;
        assert_eq!(mails.len(), 1);
        assert!(mails[0].contains("- Complete the medical questionnaire") && mails[0].contains("- Send “Level 2 or 3"), "{}", mails[0]);

        // Done since the first: the next says only what is left.
        answer_medical_form(&app, &sam).await;
        let (a, b) = tokio::join!(send(&app.state, noon(due - Duration::days(2))), send(&other.state, noon(due - Duration::days(2))));
        assert_eq!(a.unwrap() + b.unwrap(), 1);
        let mails = mails_to_sam(&app, "Before your Chemical Peels Course training").await;
        let latest = mails.iter().find(|m| !m.contains("medical questionnaire")).expect("the second reminder");
        assert!(latest.contains("consultation form"), "{latest}");
        assert_eq!(send(&app.state, noon(due + Duration::days(1))).await.unwrap(), 0, "none after the deadline");
        other.stop().await;
        app.stop().await;
    }

    async fn medical_answers_and_files_are_removed_the_days_kept_after_training_with_a_record(app: TestApp) {
        let (sam, order_id) = sams_booking(&app).await;
        let request = first_of(&app, &sam, "uploads", "id").await["id"].as_str().unwrap().to_owned();
        let before = std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, Iterator::count);
        assert_eq!(send_file(&app, &sam, &request).await, 201);
        answer_medical_form(&app, &sam).await;
        assert_eq!(std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, Iterator::count), before + 1);
        let trained = london::today(Utc::now()) - Duration::days(30);
        execute(&app, &format!("update session set date = '{trained}' where id = '{SESSION}'")).await;
        let remove = enrol_server::reminders::remove_special_data;
        let kept = app.state.config.medical_keep_days;
        assert_eq!(kept, 90, "kept 90 days unless the college says otherwise");
        assert_eq!(remove(&app.state, Utc::now()).await.unwrap(), 0, "30 days after training: kept");
        let removed_on = Utc::now() + Duration::days(61);
        assert_eq!(remove(&app.state, removed_on).await.unwrap(), 1);
        assert_eq!(count(&app, &format!("select count(*) from medical_answer a join user_form f on f.id = a.user_form_id \
            where f.enrollment_id = '{order_id}'")).await, 0);
        assert_eq!(count(&app, &format!("select count(*) from upload u join upload_request q on q.id = u.upload_request_id \
            where q.enrollment_id = '{order_id}'")).await, 0);
        assert_eq!(std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, Iterator::count), before, "the file is gone from the store");
        assert_eq!(count(&app, &format!("select answers * 100 + files from readiness_removal where enrollment_id = '{order_id}'")).await, 401);
        assert_eq!(remove(&app.state, removed_on).await.unwrap(), 0, "once");
        assert!(first_of(&app, &sam, "uploads", "status uploads { id }").await["uploads"].as_array().unwrap().is_empty());
        app.stop().await;
    }
}
