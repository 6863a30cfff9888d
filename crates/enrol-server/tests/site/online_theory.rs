//! Pre-course online theory (decision 025): a booking on a course whose
//! content names an online course as its theory gives the student that
//! course with the booking; the roster shows how far they are; a
//! cancellation ends it; a week before training a student who has not
//! finished it is reminded, once, however often the job runs. An online
//! course may also meet an in-person course's entry requirements: its page
//! names it and the roster shows who holds its certificate.

use chrono::{Duration, Utc};
use enrol_db::on_pool;
use enrol_domain::london;
use enrol_server::reminders::send_theory_reminders;
use serde_json::json;

use crate::accounts::verified_account;
use crate::balance::booked;
use crate::both_backends;
use crate::enrol_checkout::{count, execute};
use crate::helpers::TestApp;
use crate::learning::{COURSE as THEORY, as_student, curriculum, page, post};

const SESSION: &str = "chemical-peels-3";

/// The demo's Chemical Peels Course given the anatomy course as its theory,
/// and a booking of it, paid, by Sam, whose account is proven: Sam's
/// session token and the booking's id.
async fn booked_with_theory(app: &TestApp) -> (String, String) {
    execute(app, &format!("update course set online_theory = '{THEORY}' where id = 'chemical-peels'")).await;
    let sam = verified_account(app, "sam.lee@example.com").await;
    let order_id = booked(app).await;
    (sam, order_id)
}

/// Moves the booked session to start at `at` (London wall clock).
async fn set_start(app: &TestApp, at: chrono::NaiveDateTime) {
    on_pool!(app.db(), pool => sqlx::query("update session set start_at = $1 where id = $2").bind(at).bind(SESSION)
        .execute(pool).await.map(drop))
    .unwrap();
}

async fn sams_place(app: &TestApp) -> enrol_db::RosterStudent {
    let roster = app.db().roster(SESSION).await.unwrap();
    roster.students.into_iter().find(|student| student.email == "sam.lee@example.com").expect("Sam on the roster")
}

async fn theory_percent(app: &TestApp) -> Option<u8> {
    sams_place(app).await.theory_percent
}

async fn sams_id(app: &TestApp) -> String {
    on_pool!(app.db(), pool => sqlx::query_scalar("select id from user_account where email = 'sam.lee@example.com'").fetch_one(pool).await)
        .unwrap()
}

both_backends! {
    async fn a_booking_gives_its_theory_the_roster_shows_progress_and_a_cancellation_ends_it(app: TestApp) {
        let (sam, order_id) = booked_with_theory(&app).await;
        assert_eq!(count(&app, &format!(
            "select count(*) from booking_theory where enrollment_id = '{order_id}' and course_id = '{THEORY}' and user_id is not null"
        )).await, 1);
        let contents = page(&app, &format!("/learn/{THEORY}/"), Some(&sam)).await;
        assert_eq!(contents["page"]["kind"], "learn", "{contents}");
        assert_eq!(theory_percent(&app).await, Some(0));

        let first = curriculum().lessons().next().unwrap().slug.clone();
        assert_eq!(post(&app, &format!("/api/learn/{THEORY}/lessons/{first}/done"), json!({}), Some(&sam)).await.0, 200);
        assert!(theory_percent(&app).await.is_some_and(|percent| percent > 0 && percent < 100));
        // The account lists it with the booking's reference.
        let account: serde_json::Value =
            as_student(&app, reqwest::Method::GET, "/api/account", Some(&sam)).send().await.unwrap().json().await.unwrap();
        let listed = account["onlineCourses"].as_array().unwrap();
        assert_eq!(listed.len(), 1, "{account}");
        assert_eq!(listed[0]["courseId"], THEORY);

        // Cancelled: the theory closes with the booking.
        let cancelled = as_student(&app, reqwest::Method::POST, &format!("/api/account/enrollments/{order_id}/cancel"), Some(&sam))
            .json(&json!({})).send().await.unwrap();
        assert_eq!(cancelled.status().as_u16(), 200);
        let closed = page(&app, &format!("/learn/{THEORY}/"), Some(&sam)).await;
        assert_eq!((closed["page"]["kind"].as_str(), closed["page"]["access"]["state"].as_str()), (Some("courseClosed"), Some("revoked")));
        assert_eq!(post(&app, &format!("/api/learn/{THEORY}/lessons/{first}/done"), json!({}), Some(&sam)).await.0, 404);
    }

    async fn a_week_before_training_a_student_who_has_not_finished_the_theory_is_reminded_once(app: TestApp) {
        let (_sam, _order_id) = booked_with_theory(&app).await;
        let now = Utc::now();
        let starts_in = |days: i64| london::to_london(now + Duration::days(days));
        set_start(&app, starts_in(10)).await;
        assert_eq!(send_theory_reminders(&app.state, now).await.unwrap(), 0, "ten days ahead is too early");

        set_start(&app, starts_in(5)).await;
        // Two job runs at once, then another later: one mail.
        let (a, b) = tokio::join!(send_theory_reminders(&app.state, now), send_theory_reminders(&app.state, now));
        assert_eq!(a.unwrap() + b.unwrap(), 1);
        assert_eq!(send_theory_reminders(&app.state, now + Duration::hours(1)).await.unwrap(), 0);
        let mails = app.db().outbox(50).await.unwrap();
        let reminders: Vec<_> = mails.iter().filter(|mail| mail.subject.starts_with("Finish your online theory before ")).collect();
        assert_eq!(reminders.len(), 1);
        assert_eq!(reminders[0].to_address, "sam.lee@example.com");
        assert!(reminders[0].body_text.contains(&format!("/learn/{THEORY}/")), "{}", reminders[0].body_text);
    }

    async fn a_student_who_finished_the_theory_is_not_reminded(app: TestApp) {
        let (_sam, _order_id) = booked_with_theory(&app).await;
        let completed = enrol_server::certificates::complete_course(&app.state, &sams_id(&app).await, THEORY).await.unwrap();
        assert!(matches!(completed, enrol_db::CourseCompletion::Issued { .. }), "{completed:?}");
        let now = Utc::now();
        set_start(&app, london::to_london(now + Duration::days(3))).await;
        assert_eq!(send_theory_reminders(&app.state, now).await.unwrap(), 0);
    }

    async fn an_online_course_that_meets_entry_requirements_is_named_on_the_course_page_and_shown_met_on_the_roster(app: TestApp) {
        // The demo's Foundation Anti-Wrinkle page names the anatomy course, by its title and address.
        let anatomy_url: String = on_pool!(app.db(), pool => sqlx::query_scalar("select url from course where id = $1").bind(THEORY)
            .fetch_one(pool).await).unwrap();
        let wrinkle_url: String = on_pool!(app.db(), pool => sqlx::query_scalar("select url from course where id = 'foundation-anti-wrinkle'")
            .fetch_one(pool).await).unwrap();
        let course_page = page(&app, &wrinkle_url, None).await;
        assert_eq!(course_page["page"]["entryOnlineCourse"]["link"], anatomy_url.as_str(), "{course_page}");
        assert_eq!(course_page["page"]["entryOnlineCourse"]["text"], "Level 3 Anatomy and Physiology for Aesthetics Online", "{course_page}");

        let (_sam, _order_id) = booked_with_theory(&app).await;
        let roster = app.db().roster(SESSION).await.unwrap();
        assert_eq!(roster.entry_online_course, None, "Chemical Peels names no online course for its entry requirements");
        execute(&app, &format!("update course set entry_requirements = true, entry_online_course = '{THEORY}' where id = 'chemical-peels'")).await;
        let roster = app.db().roster(SESSION).await.unwrap();
        assert_eq!(roster.entry_online_course.as_deref(), Some("Level 3 Anatomy and Physiology for Aesthetics Online"));
        assert_eq!(sams_place(&app).await.entry_met_online, None, "not completed yet");

        let completed = enrol_server::certificates::complete_course(&app.state, &sams_id(&app).await, THEORY).await.unwrap();
        let enrol_db::CourseCompletion::Issued { number } = completed else { panic!("{completed:?}") };
        assert_eq!(sams_place(&app).await.entry_met_online, Some(number));
    }

    async fn a_theory_taught_by_a_scorm_package_shows_its_progress_on_the_roster(app: TestApp) {
        const PACKAGED: &str = "infection-prevention-online";
        execute(&app, &format!("update course set online_theory = '{PACKAGED}' where id = 'chemical-peels'")).await;
        let sam = verified_account(&app, "sam.lee@example.com").await;
        booked(&app).await;
        assert_eq!(theory_percent(&app).await, Some(0));
        let (status, _) = post(&app, &format!("/api/learn/{PACKAGED}/package/launch"), json!({}), Some(&sam)).await;
        assert_eq!(status, 201);
        let (status, answer) = post(&app, &format!("/api/learn/{PACKAGED}/package/commit"), json!({ "lessonStatus": "incomplete" }), Some(&sam)).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(theory_percent(&app).await, answer["percent"].as_u64().and_then(|p| u8::try_from(p).ok()), "the roster says what the student sees");
        assert_eq!(theory_percent(&app).await, Some(50));
        app.stop().await;
    }
}
