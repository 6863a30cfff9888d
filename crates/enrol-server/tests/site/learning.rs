//! The course player (decision 025): a paid online course opens to its
//! buyer for its months and to nobody else, quizzes are marked on the
//! server with their attempts limited at once, progress never goes back,
//! and a course whose access ended opens nothing.

use std::collections::BTreeMap;

use chrono::{Duration, Utc};
use enrol_db::on_pool;
use enrol_domain::learning::curriculum::{Curriculum, Quiz};
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::both_backends;
use crate::helpers::{TestApp, repo_root};
use crate::online_checkout::agreed_online;

pub(crate) const COURSE: &str = "anatomy-and-physiology-online";

pub(crate) fn curriculum() -> Curriculum {
    let text = std::fs::read_to_string(repo_root().join(format!("content/learning/{COURSE}.yaml"))).unwrap();
    serde_yaml::from_str(&text).unwrap()
}

/// A request as the browser of the student signed in as `token` sends it.
pub(crate) fn as_student(app: &TestApp, method: reqwest::Method, path: &str, token: Option<&str>) -> reqwest::RequestBuilder {
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let request = client.request(method, app.url(path));
    match token {
        Some(token) => request.header("cookie", format!("enrol_session={token}")),
        None => request,
    }
}

pub(crate) async fn page(app: &TestApp, path: &str, token: Option<&str>) -> Value {
    let url = format!("/api/page-data?path={}", urlencoding(path));
    as_student(app, reqwest::Method::GET, &url, token).send().await.unwrap().json().await.unwrap()
}

fn urlencoding(path: &str) -> String {
    path.replace('/', "%2F")
}

pub(crate) async fn post(app: &TestApp, path: &str, body: Value, token: Option<&str>) -> (u16, Value) {
    let response = as_student(app, reqwest::Method::POST, path, token).json(&body).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// A verified student who bought the demo's anatomy course, signed in on
/// their browser: their session token.
pub(crate) async fn student_with_the_course(app: &TestApp, email: &str) -> String {
    student_with(app, email, COURSE).await
}

/// A verified student who bought the online course `course`, signed in on
/// their browser: their session token.
pub(crate) async fn student_with(app: &TestApp, email: &str, course: &str) -> String {
    let token = verified_account(app, email).await;
    let offer = app.db().online_offers().await.unwrap().into_iter().find(|o| o.course_id == course).expect("the online course");
    let body = json!({ "priceIds": [offer.price_id], "additional": [], "agreed": agreed_online() });
    let (status, checkout) = post(app, "/api/e-learning/create-checkout", body, Some(&token)).await;
    assert_eq!(status, 200, "{checkout}");
    let url = checkout["url"].as_str().unwrap();
    let form = [("email", email), ("name", "Sam Student"), ("card_number", "4242 4242 4242 4242"), ("expiry", "12 / 34"), ("cvc", "123")];
    let paid = as_student(app, reqwest::Method::POST, url, Some(&token)).form(&form).send().await.unwrap();
    assert_eq!(paid.status().as_u16(), 303);
    token
}

/// Every question of `quiz` answered with its right choices, or all wrong.
pub(crate) fn answers(quiz: &Quiz, right: bool) -> Value {
    let chosen: BTreeMap<&str, Vec<&str>> = quiz
        .questions
        .iter()
        .map(|q| {
            let keys = q.choices.iter().filter(|c| c.correct == right).map(|c| c.key.as_str());
            (q.key.as_str(), if right { keys.collect() } else { keys.take(1).collect() })
        })
        .collect();
    json!({ "answers": chosen })
}

both_backends! {
    async fn a_paid_course_opens_to_its_buyer_for_its_months_and_to_nobody_else(app: TestApp) {
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let ends: chrono::DateTime<Utc> = on_pool!(app.db(), pool => sqlx::query_scalar(
            "select ends_at from online_registration where course_id = $1"
        ).bind(COURSE).fetch_one(pool).await).unwrap();
        let months = Duration::days(365);
        assert!(ends > Utc::now() + months - Duration::days(2) && ends < Utc::now() + months + Duration::days(2), "twelve months: {ends}");

        let contents = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
        assert_eq!(contents["page"]["kind"], "learn", "{contents}");
        assert_eq!(contents["page"]["modules"].as_array().unwrap().len(), 6);
        assert_eq!(contents["page"]["access"]["state"], "active");
        let first = &curriculum().modules[0].lessons[0];
        assert_eq!(contents["page"]["resume"]["url"], format!("/learn/{COURSE}/{}/", first.slug));
        let lesson = page(&app, &format!("/learn/{COURSE}/{}/", first.slug), Some(&sam)).await;
        assert_eq!(lesson["page"]["kind"], "lesson");
        assert!(lesson["page"]["html"].as_str().unwrap().contains("<h2"), "the lesson's Markdown is rendered: {lesson}");

        // Another account and a signed-out browser find nothing there.
        let ann = verified_account(&app, "ann.other@example.com").await;
        for token in [Some(ann.as_str()), None] {
            let other = page(&app, &format!("/learn/{COURSE}/"), token).await;
            assert_eq!((other["status"].as_u64(), other["page"]["kind"].as_str()), (Some(404), Some("notFound")));
            let other = page(&app, &format!("/learn/{COURSE}/{}/", first.slug), token).await;
            assert_eq!(other["page"]["kind"], "notFound");
        }
        let done = format!("/api/learn/{COURSE}/lessons/{}/done", first.slug);
        assert_eq!(post(&app, &done, json!({}), Some(&ann)).await.0, 404);
        assert_eq!(post(&app, &done, json!({}), None).await.0, 401);
        let assessment = format!("/api/learn/{COURSE}/quizzes/final-assessment/attempts");
        assert_eq!(post(&app, &assessment, answers(curriculum().assessment.as_ref().unwrap(), true), Some(&ann)).await.0, 404);

        // The account lists it with its access and progress.
        let account = as_student(&app, reqwest::Method::GET, "/api/account", Some(&sam)).send().await.unwrap().json::<Value>().await.unwrap();
        let course = &account["onlineCourses"][0];
        assert_eq!((course["courseId"].as_str(), course["playerUrl"].as_str()), (Some(COURSE), Some("/learn/anatomy-and-physiology-online/")));
        // A course whose lessons are not published yet is listed with no way in.
        let other = app.db().online_offers().await.unwrap().into_iter().find(|o| o.course_id != COURSE).unwrap();
        let body = json!({ "priceIds": [other.price_id], "additional": [], "agreed": agreed_online() });
        let url = post(&app, "/api/e-learning/create-checkout", body, Some(&sam)).await.1["url"].as_str().unwrap().to_owned();
        let form = [("email", "sam.student@example.com"), ("name", "Sam Student"), ("card_number", "4242 4242 4242 4242"), ("expiry", "12 / 34"), ("cvc", "123")];
        assert_eq!(as_student(&app, reqwest::Method::POST, &url, Some(&sam)).form(&form).send().await.unwrap().status().as_u16(), 303);
        let account = as_student(&app, reqwest::Method::GET, "/api/account", Some(&sam)).send().await.unwrap().json::<Value>().await.unwrap();
        let waiting = account["onlineCourses"].as_array().unwrap().iter().find(|c| c["courseId"] == other.course_id.as_str()).unwrap().clone();
        assert!(waiting["playerUrl"].is_null(), "{waiting}");
        assert_eq!(page(&app, &format!("/learn/{}/", other.course_id), Some(&sam)).await["page"]["kind"], "notFound");
        assert_eq!((course["access"]["state"].as_str(), course["percent"].as_u64()), (Some("active"), Some(0)));
    }

    async fn quiz_answers_never_reach_the_browser_and_attempts_are_limited_at_once(app: TestApp) {
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let curriculum = curriculum();
        let assessment = curriculum.assessment.as_ref().unwrap();
        let quiz = page(&app, &format!("/learn/{COURSE}/{}/", assessment.slug), Some(&sam)).await;
        assert_eq!(quiz["page"]["kind"], "quiz");
        let text = quiz.to_string();
        assert!(!text.contains("\"correct\"") && !text.contains("explanation"), "no answers before submitting: {text}");

        let path = format!("/api/learn/{COURSE}/quizzes/{}/attempts", assessment.slug);
        let (status, refused) = post(&app, &path, json!({ "answers": {} }), Some(&sam)).await;
        assert_eq!(status, 422, "unanswered questions use no attempt: {refused}");
        // Eight wrong attempts at once against a limit of three, on two instances.
        let other = app.another_instance().await;
        let mut sent = tokio::task::JoinSet::new();
        for i in 0..8 {
            let request = as_student(if i % 2 == 0 { &app } else { &other }, reqwest::Method::POST, &path, Some(&sam))
                .header("x-forwarded-for", format!("10.9.0.{i}"))
                .json(&answers(assessment, false));
            sent.spawn(async move { request.send().await.unwrap().status().as_u16() });
        }
        let mut statuses = sent.join_all().await;
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 201, 201, 409, 409, 409, 409, 409], "exactly the three attempts allowed");
        let kept: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select count(*) from quiz_attempt").fetch_one(pool).await).unwrap();
        assert_eq!(kept, 3);

        // A module quiz, answered right, is passed; its marks say why.
        let module_quiz = curriculum.modules[0].quiz.as_ref().unwrap();
        let (status, marked) =
            post(&app, &format!("/api/learn/{COURSE}/quizzes/{}/attempts", module_quiz.slug), answers(module_quiz, true), Some(&sam)).await;
        assert_eq!(status, 201, "{marked}");
        assert_eq!((marked["score"].as_u64(), marked["passed"].as_bool()), (Some(100), Some(true)));
        assert!(marked["results"].as_array().unwrap().iter().all(|r| r["correct"] == true && r["explanation"].is_string()));
        other.stop().await;
    }

    async fn progress_never_goes_back_and_completing_every_lesson_and_the_assessment_completes_the_course(app: TestApp) {
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let curriculum = curriculum();
        let lessons: Vec<String> = curriculum.lessons().map(|l| l.slug.clone()).collect();
        // Every lesson completed from two tabs at once, each twice.
        let mut sent = tokio::task::JoinSet::new();
        for (i, slug) in lessons.iter().chain(lessons.iter()).enumerate() {
            let request = as_student(&app, reqwest::Method::POST, &format!("/api/learn/{COURSE}/lessons/{slug}/done"), Some(&sam))
                .header("x-forwarded-for", format!("10.8.{}.{}", i / 200, i % 200))
                .json(&json!({}));
            sent.spawn(async move { request.send().await.unwrap().status().as_u16() });
        }
        assert!(sent.join_all().await.iter().all(|status| *status == 200));
        let done: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select count(*) from lesson_done").fetch_one(pool).await).unwrap();
        assert_eq!(done, i64::try_from(lessons.len()).unwrap());

        // A visit older than the one kept does not move "Continue" back.
        let user_id: String = on_pool!(app.db(), pool => sqlx::query_scalar("select id from user_account where email = 'sam.student@example.com'")
            .fetch_one(pool).await).unwrap();
        let now = Utc::now();
        app.db().visit_lesson(&user_id, COURSE, &lessons[5], now).await.unwrap();
        app.db().visit_lesson(&user_id, COURSE, &lessons[1], now - Duration::seconds(1)).await.unwrap();
        assert_eq!(app.db().study_record(&user_id, COURSE).await.unwrap().last_lesson.as_deref(), Some(lessons[5].as_str()));

        let assessment = curriculum.assessment.as_ref().unwrap();
        let (status, marked) =
            post(&app, &format!("/api/learn/{COURSE}/quizzes/{}/attempts", assessment.slug), answers(assessment, true), Some(&sam)).await;
        assert_eq!(status, 201);
        assert_eq!(marked["complete"], true, "{marked}");
        let contents = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
        assert_eq!(contents["page"]["progress"]["complete"], true);
    }

    async fn an_expired_or_revoked_registration_opens_nothing(app: TestApp) {
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let first = curriculum().modules[0].lessons[0].slug.clone();
        let ended = Utc::now() - Duration::days(1);
        on_pool!(app.db(), pool => sqlx::query("update online_registration set ends_at = $1").bind(ended).execute(pool).await.map(drop)).unwrap();
        let closed = page(&app, &format!("/learn/{COURSE}/{first}/"), Some(&sam)).await;
        assert_eq!(closed["page"]["kind"], "courseClosed", "{closed}");
        assert_eq!(closed["page"]["access"]["state"], "expired");
        assert_eq!(closed["page"]["onSale"], true);
        assert!(closed["page"].get("html").is_none(), "nothing of the lesson");
        assert_eq!(post(&app, &format!("/api/learn/{COURSE}/lessons/{first}/done"), json!({}), Some(&sam)).await.0, 404);

        let later = Utc::now() + Duration::days(30);
        on_pool!(app.db(), pool => sqlx::query("update online_registration set ends_at = $1, revoked_at = $2").bind(later).bind(Utc::now())
            .execute(pool).await.map(drop)).unwrap();
        let revoked = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
        assert_eq!((revoked["page"]["kind"].as_str(), revoked["page"]["access"]["state"].as_str()), (Some("courseClosed"), Some("revoked")));
        assert_eq!(post(&app, &format!("/api/learn/{COURSE}/lessons/{first}/visit"), json!({}), Some(&sam)).await.0, 404);
    }

    async fn an_add_on_that_is_a_course_gives_that_course_too(app: TestApp) {
        let sam = verified_account(&app, "sam.student@example.com").await;
        let offer = app.db().online_offers().await.unwrap().into_iter().find(|o| o.course_id == "dermaplaning-online").unwrap();
        let add_on = offer.upsell.clone().expect("dermaplaning offers the microneedling course");
        let body = json!({ "priceIds": [offer.price_id], "additional": [add_on.price_data], "agreed": agreed_online() });
        let url = post(&app, "/api/e-learning/create-checkout", body, Some(&sam)).await.1["url"].as_str().unwrap().to_owned();
        let form = [("email", "sam.student@example.com"), ("name", "Sam Student"), ("card_number", "4242 4242 4242 4242"), ("expiry", "12 / 34"), ("cvc", "123")];
        assert_eq!(as_student(&app, reqwest::Method::POST, &url, Some(&sam)).form(&form).send().await.unwrap().status().as_u16(), 303);
        let courses: Vec<(String, bool)> = on_pool!(app.db(), pool => sqlx::query_as(
            "select course_id, user_id is not null from online_registration order by course_id"
        ).fetch_all(pool).await).unwrap();
        assert_eq!(courses, [("dermaplaning-online".to_owned(), true), ("microneedling-online".to_owned(), true)]);
    }
}
