//! An online course completed and started (decision 025): completing it
//! issues one certificate and one mail however many requests complete it
//! at once, checkable by anyone at its public page; a buyer without an
//! account starts the course from the single-use link their order mailed,
//! once however many requests use it at once.

use enrol_db::on_pool;
use serde_json::{Value, json};

use crate::accounts::mailed_token;
use crate::both_backends;
use crate::helpers::TestApp;
use crate::learning::{COURSE, answers, as_student, curriculum, page, post, student_with_the_course};
use crate::online_checkout::agreed_online;

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    on_pool!(app.db(), pool => sqlx::query_scalar(sql).fetch_one(pool).await).unwrap()
}

/// Buys the anatomy course as a visitor who is not signed in, paying as
/// `email`.
async fn buy_as_guest(app: &TestApp, email: &str) {
    let offer = app.db().online_offers().await.unwrap().into_iter().find(|o| o.course_id == COURSE).expect("the anatomy course");
    let body = json!({ "priceIds": [offer.price_id], "additional": [], "agreed": agreed_online() });
    let (status, checkout) = post(app, "/api/e-learning/create-checkout", body, None).await;
    assert_eq!(status, 200, "{checkout}");
    let url = checkout["url"].as_str().unwrap();
    let form = [("email", email), ("name", "Priya Shah"), ("card_number", "4242 4242 4242 4242"), ("expiry", "12 / 34"), ("cvc", "123")];
    let paid = as_student(app, reqwest::Method::POST, url, None).form(&form).send().await.unwrap();
    assert_eq!(paid.status().as_u16(), 303);
}

/// The body of the order's confirmation to `to`.
async fn confirmation(app: &TestApp, to: &str) -> String {
    let mails = app.db().outbox(50).await.unwrap();
    mails.into_iter().find(|m| m.to_address == to && m.subject.contains("order")).expect("the order's confirmation").body_text
}

both_backends! {
    async fn completing_a_course_issues_one_certificate_and_one_mail_however_many_requests_complete_it(app: TestApp) {
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let curriculum = curriculum();
        for lesson in curriculum.lessons() {
            let (status, done) = post(&app, &format!("/api/learn/{COURSE}/lessons/{}/done", lesson.slug), json!({}), Some(&sam)).await;
            assert_eq!(status, 200, "{done}");
            assert_eq!(done["certificate"], Value::Null, "nothing is issued before the assessment is passed");
        }
        assert_eq!(count(&app, "select count(*) from certificate").await, 0);

        // The assessment passed from as many tabs at once as it allows attempts.
        let assessment = curriculum.assessment.as_ref().unwrap();
        let mut sent = tokio::task::JoinSet::new();
        for i in 0..assessment.max_attempts.unwrap_or(3) {
            let request = as_student(&app, reqwest::Method::POST, &format!("/api/learn/{COURSE}/quizzes/{}/attempts", assessment.slug), Some(&sam))
                .header("x-forwarded-for", format!("10.9.0.{i}"))
                .json(&answers(assessment, true));
            sent.spawn(async move {
                let response = request.send().await.unwrap();
                (response.status().as_u16(), response.json::<Value>().await.unwrap())
            });
        }
        let marked = sent.join_all().await;
        assert!(marked.iter().all(|(status, body)| *status == 201 && body["complete"] == true), "{marked:?}");
        let numbers: std::collections::BTreeSet<&str> = marked.iter().map(|(_, body)| body["certificate"].as_str().unwrap()).collect();
        assert_eq!(numbers.len(), 1, "every tab is told the one certificate: {numbers:?}");
        let number = numbers.into_iter().next().unwrap().to_owned();
        assert_eq!(count(&app, "select count(*) from certificate").await, 1);
        assert_eq!(count(&app, "select count(*) from mail_outbox where subject like '%certificate%'").await, 1);
        assert_eq!(count(&app, "select count(*) from online_registration where complete and completed_at is not null").await, 1);

        let mails = app.db().outbox(50).await.unwrap();
        let mail = mails.iter().find(|m| m.subject.contains("certificate")).unwrap();
        assert_eq!(mail.to_address, "sam.student@example.com");
        assert!(mail.body_text.contains(&format!("/certificates/{number}")), "{}", mail.body_text);

        // Its public page confirms it to anyone, with the holder's name as the account has it.
        let public = page(&app, &format!("/certificates/{number}"), None).await;
        assert_eq!(public["page"]["certificate"]["courseTitle"], "Level 3 Anatomy and Physiology for Aesthetics Online", "{public}");
        assert_eq!(public["page"]["certificate"]["holderName"], "Sam Lee", "{public}");
        // The contents say so and link it; the PDF is the student's.
        let contents = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
        assert_eq!(contents["page"]["certificate"], number.as_str());
        let pdf = as_student(&app, reqwest::Method::GET, &format!("/api/account/certificates/{number}"), Some(&sam)).send().await.unwrap();
        assert_eq!((pdf.status().as_u16(), pdf.headers()["content-type"].to_str().unwrap()), (200, "application/pdf"));

        // Completing a lesson again later issues nothing more.
        let first = curriculum.lessons().next().unwrap().slug.clone();
        let (_, again) = post(&app, &format!("/api/learn/{COURSE}/lessons/{first}/done"), json!({}), Some(&sam)).await;
        assert_eq!(again["certificate"], number.as_str());
        assert_eq!(count(&app, "select count(*) from certificate").await, 1);
    }

    async fn a_guest_buyer_starts_the_course_from_the_single_use_link_their_order_mailed(app: TestApp) {
        buy_as_guest(&app, "priya.shah@example.com").await;
        let body = confirmation(&app, "priya.shah@example.com").await;
        assert!(body.contains("Start your course: http"), "{body}");
        assert!(!body.contains("/account/online-courses/"), "no account exists yet: {body}");
        let token = mailed_token(&app, "priya.shah@example.com", "/start-course/?token=").await;

        // Before it is used: which course, for which address, with the name paid with.
        let (status, link) = post(&app, "/api/auth/course-start/check", json!({ "token": token }), None).await;
        assert_eq!(status, 200, "{link}");
        assert_eq!(link, json!({
            "email": "priya.shah@example.com", "firstName": "Priya", "lastName": "Shah",
            "courseTitle": "Level 3 Anatomy and Physiology for Aesthetics Online"
        }));
        // Nobody studies with the unused link.
        assert_eq!(page(&app, &format!("/learn/{COURSE}/"), None).await["page"]["kind"], "notFound");

        let refused = post(&app, "/api/auth/course-start", json!({ "token": token, "first_name": "", "last_name": "Shah", "password": "short" }), None).await;
        assert_eq!(refused.0, 422, "{}", refused.1);
        assert_eq!(refused.1["error"]["fields"]["first_name"], "First name is required", "{}", refused.1);
        let start = json!({ "token": token, "first_name": "Priya", "last_name": "Shah-Khan", "password": "correct horse battery" });
        let started = as_student(&app, reqwest::Method::POST, "/api/auth/course-start", None).json(&start).send().await.unwrap();
        assert_eq!(started.status().as_u16(), 200);
        let cookie = started.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        let session = cookie.strip_prefix("enrol_session=").and_then(|rest| rest.split(';').next()).unwrap().to_owned();
        assert_eq!(started.json::<Value>().await.unwrap(), json!({ "courseUrl": format!("/learn/{COURSE}/") }));

        // Signed in, the course opens, and the order is the account's.
        assert_eq!(page(&app, &format!("/learn/{COURSE}/"), Some(&session)).await["page"]["kind"], "learn");
        assert_eq!(count(&app, "select count(*) from online_registration where user_id is null").await, 0);
        assert_eq!(count(&app, "select count(*) from user_account where email = 'priya.shah@example.com' and email_verified_at is not null \
                                and family_name = 'Shah-Khan'").await, 1);
        // The password chosen signs in.
        let signed_in = post(&app, "/api/auth/sign-in", json!({ "username": "priya.shah@example.com", "password": "correct horse battery" }), None).await;
        assert_eq!(signed_in.0, 200, "{}", signed_in.1);

        // The link works once.
        let again = post(&app, "/api/auth/course-start", start.clone(), None).await;
        assert_eq!(again.0, 422, "{}", again.1);
        assert_eq!(post(&app, "/api/auth/course-start/check", json!({ "token": token }), None).await.0, 422);
    }

    async fn a_start_link_used_many_times_at_once_on_two_instances_makes_one_account_with_one_password(app: TestApp) {
        buy_as_guest(&app, "priya.shah@example.com").await;
        let token = mailed_token(&app, "priya.shah@example.com", "/start-course/?token=").await;
        let other = app.another_instance().await;
        let mut starts = tokio::task::JoinSet::new();
        for i in 0..12 {
            let target = if i % 2 == 0 { &app } else { &other };
            let start = json!({ "token": token, "first_name": "Priya", "last_name": "Shah", "password": format!("pass phrase number {i}") });
            let request = target.client.post(target.url("/api/auth/course-start")).header("x-forwarded-for", format!("10.8.0.{i}")).json(&start);
            starts.spawn(async move { (i, request.send().await.expect("request").status().as_u16()) });
        }
        let answers = starts.join_all().await;
        let won: Vec<usize> = answers.iter().filter(|(_, status)| *status == 200).map(|(i, _)| *i).collect();
        assert_eq!(won.len(), 1, "{answers:?}");
        assert!(answers.iter().all(|(_, status)| *status == 200 || *status == 422), "{answers:?}");
        assert_eq!(count(&app, "select count(*) from user_account where email = 'priya.shah@example.com'").await, 1);
        // The password of the one start that won signs in; another does not.
        let sign_in = |i: usize| json!({ "username": "priya.shah@example.com", "password": format!("pass phrase number {i}") });
        assert_eq!(post(&app, "/api/auth/sign-in", sign_in(won[0]), None).await.0, 200);
        let lost = (won[0] + 1) % 12;
        assert_eq!(post(&other, "/api/auth/sign-in", sign_in(lost), None).await.0, 401);
        other.stop().await;
    }

    async fn a_buyer_whose_address_has_an_account_is_sent_to_it_and_no_link_is_made(app: TestApp) {
        student_with_the_course(&app, "sam.student@example.com").await;
        let body = confirmation(&app, "sam.student@example.com").await;
        assert!(body.contains("/account/online-courses/"), "{body}");
        assert!(!body.contains("/start-course/"), "{body}");
        assert_eq!(count(&app, "select count(*) from password_reset where course_id is not null").await, 0);
    }
}
