//! A course a hosted LMS teaches (decision 029), against a stand-in of
//! Coassemble's headless API started here: a registration keeps the
//! provider's course and group it was sold with, "Open your course" sends
//! the student to the address Coassemble gives for them and nowhere else,
//! a provider that fails gets a page saying try again, nobody else gets in,
//! and a signed completion issues one certificate however often it comes.

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use enrol_db::on_pool;
use enrol_domain::staff::Role;
use enrol_server::provider::coassemble::CoassembleConfig;
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::admin::staff_member;
use crate::admin_codes::admin;
use crate::helpers::{Backend, TestApp, spawn_app_with};
use crate::learning::{as_student, page, student_with};

/// The online course the college moves to Coassemble.
const COURSE: &str = "dermaplaning-online";
const SECRET: &str = "whsec_coassemble_test";
const LAUNCH: &str = "https://college.coassemble.test/embed/course/4321?signature=abc";

/// What the stand-in answers the next launch with.
#[derive(Clone)]
enum Answer {
    /// 200 with the address as a JSON string, as Coassemble's own demo reads it.
    Address(String),
    /// This status, with an error body.
    Fails(u16),
}

/// One launch request the stand-in took.
#[derive(Debug, Clone)]
struct Asked {
    authorization: String,
    body: Value,
}

#[derive(Clone)]
struct StandIn {
    answer: Arc<Mutex<Answer>>,
    asked: Arc<Mutex<Vec<Asked>>>,
}

impl StandIn {
    fn answer(&self, answer: Answer) {
        *self.answer.lock().unwrap() = answer;
    }

    fn asked(&self) -> Vec<Asked> {
        self.asked.lock().unwrap().clone()
    }
}

async fn embed_course(State(stand_in): State<StandIn>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    let authorization = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    stand_in.asked.lock().unwrap().push(Asked { authorization, body });
    let answer = stand_in.answer.lock().unwrap().clone();
    match answer {
        Answer::Address(url) => Json(Value::String(url)).into_response(),
        Answer::Fails(status) => (StatusCode::from_u16(status).unwrap(), Json(json!({ "error": "FORBIDDEN" }))).into_response(),
    }
}

/// Coassemble's API on a free local port: its address, and its handle.
async fn coassemble_stand_in() -> (String, StandIn) {
    let stand_in = StandIn { answer: Arc::new(Mutex::new(Answer::Address(LAUNCH.to_owned()))), asked: Arc::default() };
    let router = axum::Router::new().route("/api/v1/headless/embed/course", axum::routing::post(embed_course)).with_state(stand_in.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (address, stand_in)
}

/// The app with Coassemble configured at the stand-in.
async fn app_with_coassemble(backend: Backend, api_url: String) -> Option<TestApp> {
    spawn_app_with(backend, move |config| {
        config.coassemble = Some(CoassembleConfig {
            api_url,
            workspace_id: "ws-77".to_owned(),
            api_key: "key-of-the-college".to_owned(),
            webhook_secret: Some(SECRET.to_owned()),
            launch_host: "coassemble.test".to_owned(),
        });
    })
    .await
}

/// An editor names `provider` for the course (or refuses it: the status).
async fn name_provider(app: &TestApp, editor: &reqwest::Client, provider: Value) -> (u16, Value) {
    let (status, course) = admin(editor, app, "GET", &format!("/content/course/{COURSE}"), None).await;
    assert_eq!(status, 200, "{course}");
    let mut body = course["published"].clone();
    body["provider"] = provider;
    let saved = admin(editor, app, "PUT", &format!("/content/course/{COURSE}/draft"), Some(json!({ "body": body }))).await;
    if saved.0 != 200 {
        return saved;
    }
    admin(editor, app, "POST", &format!("/content/course/{COURSE}/publish"), None).await
}

/// "Open your course" as the student's browser posts it from the player.
async fn open(app: &TestApp, token: Option<&str>) -> reqwest::Response {
    as_student(app, reqwest::Method::POST, &format!("/learn/{COURSE}/open"), token)
        .header("origin", &app.address)
        .form(&[("", "")])
        .send()
        .await
        .unwrap()
}

fn location(response: &reqwest::Response) -> String {
    response.headers().get("location").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

async fn user_id(app: &TestApp, email: &str) -> String {
    on_pool!(app.db(), pool => sqlx::query_scalar("select id from user_account where email = $1").bind(email).fetch_one(pool).await)
        .unwrap()
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    on_pool!(app.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap()
}

/// A delivery of Coassemble's webhook, signed with `secret`.
async fn deliver(app: &TestApp, event: &Value, secret: &str) -> (u16, Value) {
    let body = event.to_string();
    let now = Utc::now().timestamp();
    let signature = enrol_payments::signature::tag_hex(body.as_bytes(), secret, now);
    let response = reqwest::Client::new()
        .post(app.url("/webhooks/coassemble"))
        .header("content-type", "application/json")
        .header("x-coassemble-event", event["type"].as_str().unwrap())
        .header("x-coassemble-delivery", uuid::Uuid::new_v4().to_string())
        .header("x-coassemble-timestamp", now.to_string())
        .header("x-coassemble-signature", format!("sha256={signature}"))
        .body(body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

fn completed(course: u64, identifier: &str) -> Value {
    json!({
        "id": uuid::Uuid::new_v4().to_string(), "type": "course.completed", "occurredAt": "2026-02-22T10:15:30.000Z", "workspaceId": 77,
        "data": {
            "course": { "id": course, "title": "Dermaplaning", "key": "dermaplaning", "clientIdentifier": null },
            "tracking": { "id": 8888, "identifier": identifier, "email": null, "commenced": "2026-02-22T10:01:00.000Z",
                          "completed": "2026-02-22T10:15:30.000Z", "totalTime": 870 }
        }
    })
}

async fn a_course_taught_on_coassemble_opens_there_for_its_student_only(backend: Backend) {
    let (api_url, coassemble) = coassemble_stand_in().await;
    let Some(app) = app_with_coassemble(backend, api_url).await else { return };
    let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;

    // Staff name the provider's course and group; a course id that is not Coassemble's number is refused, naming the field.
    let refused = name_provider(&app, &editor, json!({ "coassemble": { "course": "dermaplaning" } })).await;
    assert_eq!(refused.0, 422, "{}", refused.1);
    assert!(refused.1["error"]["fields"]["provider"].as_str().unwrap().contains("course id"), "{}", refused.1);
    let named = name_provider(&app, &editor, json!({ "coassemble": { "course": "4321", "group": "level-4" } })).await;
    assert_eq!(named.0, 200, "{}", named.1);

    // A student buys it: the registration keeps the provider's ids.
    let sam = student_with(&app, "sam.student@example.com", COURSE).await;
    let sam_id = user_id(&app, "sam.student@example.com").await;
    let kept: (Option<String>, Option<String>) = on_pool!(app.db(), pool => sqlx::query_as(
        "select coassemble_course_id, coassemble_group_id from online_registration where course_id = $1"
    ).bind(COURSE).fetch_one(pool).await)
    .unwrap();
    assert_eq!(kept, (Some("4321".to_owned()), Some("level-4".to_owned())));
    // A later change of content moves nobody already studying.
    assert_eq!(name_provider(&app, &editor, json!({ "coassemble": { "course": "9999" } })).await.0, 200);

    // The player shows the course and the form; the account links it.
    let player = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
    assert_eq!(player["page"]["kind"], "providerCourse", "{player}");
    assert_eq!(
        (player["page"]["openUrl"].as_str(), player["page"]["provider"].as_str()),
        (Some("/learn/dermaplaning-online/open"), Some("Coassemble"))
    );
    assert_eq!(player["page"]["access"]["state"], "active");
    let account = as_student(&app, reqwest::Method::GET, "/api/account", Some(&sam)).send().await.unwrap().json::<Value>().await.unwrap();
    let listed = account["onlineCourses"].as_array().unwrap().iter().find(|c| c["courseId"] == COURSE).unwrap().clone();
    assert_eq!(listed["playerUrl"], format!("/learn/{COURSE}/"), "{listed}");

    // "Open your course": Coassemble is asked for the student's own address, with the college's key, and the browser sent there.
    let opened = open(&app, Some(&sam)).await;
    assert_eq!((opened.status().as_u16(), location(&opened)), (303, LAUNCH.to_owned()));
    assert_eq!(opened.headers()["cache-control"], "no-store");
    let asked = coassemble.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].authorization, "COASSEMBLE:ws-77:key-of-the-college");
    assert_eq!(asked[0].body, json!({ "action": "view", "courseId": 4321, "identifier": sam_id, "clientIdentifier": "level-4" }));

    // A post from another site is refused before anything is asked.
    let forged = as_student(&app, reqwest::Method::POST, &format!("/learn/{COURSE}/open"), Some(&sam))
        .header("origin", "https://evil.example")
        .form(&[("", "")])
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status().as_u16(), 403);
    let unnamed =
        as_student(&app, reqwest::Method::POST, &format!("/learn/{COURSE}/open"), Some(&sam)).form(&[("", "")]).send().await.unwrap();
    assert_eq!(unnamed.status().as_u16(), 403, "a form post names its page's origin");
    assert_eq!(coassemble.asked().len(), 1);

    // An address that is not Coassemble's own is never followed; a provider that fails gets a page that says try again.
    for answer in [
        Answer::Address("http://evil.example/phish".to_owned()),
        Answer::Address("https://coassemble.test.evil.example/".to_owned()),
        Answer::Fails(500),
        Answer::Fails(403),
    ] {
        coassemble.answer(answer);
        let failed = open(&app, Some(&sam)).await;
        assert_eq!((failed.status().as_u16(), location(&failed)), (303, format!("/learn/{COURSE}/?open=failed")));
        let (status, html) = {
            let response = as_student(&app, reqwest::Method::GET, &location(&failed), Some(&sam)).send().await.unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        };
        assert_eq!(status, 200);
        assert!(html.contains("Coassemble could not open your course just now. Please try again in a few minutes"), "{html}");
        assert!(!html.contains("evil.example"));
    }
    coassemble.answer(Answer::Address(LAUNCH.to_owned()));

    // Nobody else gets in: signed out, or another student.
    let ann = verified_account(&app, "ann.other@example.com").await;
    for token in [None, Some(ann.as_str())] {
        let refused = open(&app, token).await;
        assert_eq!(refused.status().as_u16(), 404);
        assert!(refused.text().await.unwrap().contains("<h1"), "the site's not-found page");
        assert_eq!(page(&app, &format!("/learn/{COURSE}/"), token).await["page"]["kind"], "notFound");
    }
    assert_eq!(coassemble.asked().len(), 5, "nobody else's request reached Coassemble");

    // Completion at Coassemble, however often it is reported, issues one certificate.
    assert_eq!(deliver(&app, &completed(4321, &sam_id), "whsec_forged").await.0, 401);
    assert_eq!(count(&app, "select count(*) from certificate").await, 0);
    assert_eq!(deliver(&app, &completed(9999, &sam_id), SECRET).await.1["completed"], json!([]), "not the course Sam was sold");
    let mut numbers = Vec::new();
    for _ in 0..3 {
        let (status, taken) = deliver(&app, &completed(4321, &sam_id), SECRET).await;
        assert_eq!((status, taken["completed"].clone()), (200, json!([COURSE])), "{taken}");
        numbers.push(
            on_pool!(app.db(), pool => sqlx::query_scalar::<_, String>("select number from certificate").fetch_one(pool).await).unwrap(),
        );
    }
    assert!(numbers.windows(2).all(|pair| pair[0] == pair[1]), "{numbers:?}");
    assert_eq!(count(&app, "select count(*) from certificate").await, 1);
    assert_eq!(count(&app, "select count(*) from mail_outbox where subject like '%certificate%'").await, 1);
    let (_, commenced) = deliver(&app, &json!({ "id": "e2", "type": "course.commenced", "data": null }), SECRET).await;
    assert_eq!(commenced, json!({ "received": true }));
    let player = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
    assert_eq!(player["page"]["certificate"].as_str(), Some(numbers[0].as_str()));

    // Once access has ended, the form and the player say so, and Coassemble is not asked.
    let ended_at = Utc::now() - chrono::Duration::days(1);
    on_pool!(app.db(), pool => sqlx::query("update online_registration set ends_at = $1").bind(ended_at).execute(pool).await.map(drop))
        .unwrap();
    let ended = open(&app, Some(&sam)).await;
    assert_eq!((ended.status().as_u16(), location(&ended)), (303, format!("/learn/{COURSE}/")));
    assert_eq!(page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await["page"]["kind"], "courseClosed");
    assert_eq!(coassemble.asked().len(), 5);
    app.stop().await;
}

async fn without_coassemble_configured_the_player_says_the_course_is_not_open_yet(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |_| {}).await else { return };
    let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
    assert_eq!(name_provider(&app, &editor, json!({ "coassemble": { "course": "4321" } })).await.0, 200);
    // Staff grant the course: the grant keeps the provider's course too.
    let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
    let sam = verified_account(&app, "sam.granted@example.com").await;
    let grant = json!({ "email": "sam.granted@example.com", "courseId": COURSE, "lastDay": null });
    assert_eq!(admin(&staff, &app, "POST", "/online-registrations", Some(grant)).await.0, 201);
    let kept: Option<String> = on_pool!(app.db(), pool => sqlx::query_scalar(
        "select coassemble_course_id from online_registration where course_id = $1"
    ).bind(COURSE).fetch_one(pool).await)
    .unwrap();
    assert_eq!(kept.as_deref(), Some("4321"));

    let opened = open(&app, Some(&sam)).await;
    assert_eq!((opened.status().as_u16(), location(&opened)), (303, format!("/learn/{COURSE}/?open=unavailable")));
    let player = page(&app, &format!("/learn/{COURSE}/?open=unavailable"), Some(&sam)).await;
    assert_eq!(
        player["page"]["problem"],
        "This course is not open yet: the college is still setting it up on Coassemble. Please try again later, or contact us."
    );
    let webhook = reqwest::Client::new().post(app.url("/webhooks/coassemble")).body("{}").send().await.unwrap();
    assert_eq!(webhook.status().as_u16(), 404, "no webhook without its secret");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_course_taught_on_coassemble_opens_there_for_its_student_only_sqlite() {
    a_course_taught_on_coassemble_opens_there_for_its_student_only(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_course_taught_on_coassemble_opens_there_for_its_student_only_postgres() {
    a_course_taught_on_coassemble_opens_there_for_its_student_only(Backend::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_coassemble_configured_the_player_says_the_course_is_not_open_yet_sqlite() {
    without_coassemble_configured_the_player_says_the_course_is_not_open_yet(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_coassemble_configured_the_player_says_the_course_is_not_open_yet_postgres() {
    without_coassemble_configured_the_player_says_the_course_is_not_open_yet(Backend::Postgres).await;
}
