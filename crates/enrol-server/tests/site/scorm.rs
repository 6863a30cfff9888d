//! A course taught by a SCORM package (decision 026), as its student takes
//! it: the demo pack's package opens in a launch whose files only that
//! student's frame loads, under a sandboxing policy, while they may study
//! the course; what the package's runtime commits is kept within its
//! limits, resumes, and completes the course for good, with its certificate.

use chrono::{Duration, Utc};
use enrol_db::on_pool;
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::both_backends;
use crate::helpers::TestApp;
use crate::learning::{as_student, page, post, student_with};

/// The demo course taught by the pack's own package.
const COURSE: &str = "infection-prevention-online";

/// Opens the package for the student signed in as `token`: its first page's address.
async fn launch(app: &TestApp, token: Option<&str>) -> (u16, String) {
    let (status, opened) = post(app, &format!("/api/learn/{COURSE}/package/launch"), json!({}), token).await;
    (status, opened["url"].as_str().unwrap_or_default().to_owned())
}

/// A file of the package as a browser asks for it: from the frame (no
/// cookie), or with `token`'s cookie and `dest` as its Sec-Fetch-Dest.
async fn file(app: &TestApp, url: &str, token: Option<&str>, dest: &str) -> reqwest::Response {
    as_student(app, reqwest::Method::GET, url, token).header("sec-fetch-dest", dest).send().await.unwrap()
}

async fn status_of(app: &TestApp, url: &str, token: Option<&str>) -> u16 {
    file(app, url, token, "iframe").await.status().as_u16()
}

async fn commit(app: &TestApp, cmi: Value, token: Option<&str>) -> (u16, Value) {
    post(app, &format!("/api/learn/{COURSE}/package/commit"), cmi, token).await
}

async fn set_registration(app: &TestApp, column: &str, value: Option<chrono::DateTime<Utc>>) {
    let statement = format!("update online_registration set {column} = $1 where course_id = $2");
    on_pool!(app.db(), pool => sqlx::query(sqlx::AssertSqlSafe(statement)).bind(value).bind(COURSE).execute(pool).await.map(drop)).unwrap();
}

both_backends! {
    async fn the_package_opens_only_in_its_students_launch_while_they_may_study(app: TestApp) {
        let sam = student_with(&app, "sam.student@example.com", COURSE).await;
        let contents = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
        assert_eq!(contents["page"]["kind"], "scormCourse", "{contents}");
        assert_eq!((contents["page"]["percent"].as_u64(), contents["page"]["started"].as_bool()), (Some(0), Some(false)));

        let (status, url) = launch(&app, Some(&sam)).await;
        assert_eq!(status, 201);
        assert!(url.starts_with(&format!("/learn/{COURSE}/package/")) && url.ends_with("/index.html"), "{url}");
        // The frame's requests carry no cookie: the launch names the student.
        let first = file(&app, &url, None, "iframe").await;
        assert_eq!(first.status(), 200);
        let header = |name: &str| first.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
        assert_eq!(header("content-type"), "text/html; charset=utf-8");
        assert!(header("content-security-policy").starts_with("sandbox allow-scripts allow-forms;"), "{}", header("content-security-policy"));
        assert!(!header("content-security-policy").contains("allow-same-origin"));
        assert_eq!((header("x-content-type-options").as_str(), header("cache-control").as_str()), ("nosniff", "private, no-store"));
        assert_eq!((header("x-frame-options").as_str(), header("access-control-allow-credentials").as_str()), ("SAMEORIGIN", ""));
        let html = first.text().await.unwrap();
        assert!(html.contains("data-seed=") && html.contains("&quot;learnerId&quot;"), "the runtime is added, seeded: {html}");
        let style = file(&app, &url.replace("index.html", "course.css"), Some(&sam), "style").await;
        assert_eq!(style.status(), 200);
        assert_eq!(style.headers()["content-type"], "text/css; charset=utf-8");
        assert!(style.headers()["cache-control"].to_str().unwrap().starts_with("private"));
        assert_eq!(status_of(&app, &url.replace("index.html", "missing.html"), None).await, 404);

        // Opened as a page of its own, from another account, or with another launch: nothing.
        assert_eq!(file(&app, &url, Some(&sam), "document").await.status(), 404);
        let ann = verified_account(&app, "ann.other@example.com").await;
        assert_eq!(status_of(&app, &url, Some(&ann)).await, 404);
        assert_eq!(launch(&app, Some(&ann)).await.0, 404);
        assert_eq!(launch(&app, None).await.0, 401);
        let token = url.split('/').nth(4).unwrap();
        assert_eq!(status_of(&app, &url.replace(token, &"0".repeat(token.len())), None).await, 404);
        assert_eq!(status_of(&app, &url.replace(&format!("/learn/{COURSE}/"), "/learn/chemical-peels-online/"), None).await, 404);

        // Withdrawn or expired access closes it; given back, it opens again.
        set_registration(&app, "revoked_at", Some(Utc::now())).await;
        assert_eq!(status_of(&app, &url, None).await, 404);
        assert_eq!(launch(&app, Some(&sam)).await.0, 404);
        set_registration(&app, "revoked_at", None).await;
        assert_eq!(status_of(&app, &url, None).await, 200);
        set_registration(&app, "ends_at", Some(Utc::now() - Duration::hours(1))).await;
        assert_eq!(status_of(&app, &url, None).await, 404);
        assert_eq!(page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await["page"]["kind"], "courseClosed");
        set_registration(&app, "ends_at", Some(Utc::now() + Duration::days(30))).await;
        assert_eq!(status_of(&app, &url, None).await, 200);

        // Signing out closes every launch of that sign-in.
        assert_eq!(post(&app, "/api/auth/sign-out", json!({}), Some(&sam)).await.0, 200);
        assert_eq!(status_of(&app, &url, None).await, 404);
    }

    async fn commits_are_kept_within_their_limits_resume_and_complete_the_course(app: TestApp) {
        let sam = student_with(&app, "sam.student@example.com", COURSE).await;
        let (status, answer) = commit(&app, json!({ "lessonStatus": "incomplete", "location": "hands", "suspendData": "{\"step\":1}", "sessionTime": "00:02:10", "totalTime": "00:02:10" }), Some(&sam)).await;
        assert_eq!((status, answer["percent"].as_u64(), answer["complete"].as_bool()), (200, Some(50), Some(false)), "{answer}");

        // Read back on another device: the player, the account and the package's seed.
        let contents = page(&app, &format!("/learn/{COURSE}/"), Some(&sam)).await;
        assert_eq!((contents["page"]["percent"].as_u64(), contents["page"]["started"].as_bool()), (Some(50), Some(true)));
        let account: Value = as_student(&app, reqwest::Method::GET, "/api/account", Some(&sam)).send().await.unwrap().json().await.unwrap();
        let listed = account["onlineCourses"].as_array().unwrap().iter().find(|c| c["courseId"] == COURSE).unwrap().clone();
        assert_eq!((listed["percent"].as_u64(), listed["playerUrl"].as_str()), (Some(50), Some("/learn/infection-prevention-online/")));
        let (_, url) = launch(&app, Some(&sam)).await;
        let html = file(&app, &url, None, "iframe").await.text().await.unwrap();
        assert!(html.contains("&quot;entry&quot;:&quot;resume&quot;"), "{html}");
        assert!(html.contains("&quot;location&quot;:&quot;hands&quot;") && html.contains("\\&quot;step\\&quot;:1"), "{html}");

        // Only the elements of the package's edition, in their vocabulary and size.
        let refused = [
            json!({ "completionStatus": "completed" }),
            json!({ "lessonStatus": "finished" }),
            json!({ "scoreRaw": "lots" }),
            json!({ "suspendData": "x".repeat(64_001) }),
        ];
        for cmi in refused {
            assert_eq!(commit(&app, cmi.clone(), Some(&sam)).await.0, 422, "{cmi}");
        }
        assert_eq!(commit(&app, json!({ "cmi.core.lesson_status": "passed" }), Some(&sam)).await.0, 400);
        assert_eq!(commit(&app, json!({ "suspendData": "x".repeat(64_000) }), Some(&sam)).await.0, 200);

        // Others cannot commit for the course.
        let ann = verified_account(&app, "ann.other@example.com").await;
        assert_eq!(commit(&app, json!({ "lessonStatus": "passed" }), Some(&ann)).await.0, 404);
        assert_eq!(commit(&app, json!({ "lessonStatus": "passed" }), None).await.0, 401);

        // Passed completes the course, and a later commit does not undo it.
        let (_, answer) = commit(&app, json!({ "lessonStatus": "passed", "scoreRaw": "100", "scoreMin": "0", "scoreMax": "100", "location": "quiz" }), Some(&sam)).await;
        assert_eq!((answer["percent"].as_u64(), answer["complete"].as_bool()), (Some(100), Some(true)), "{answer}");
        // Completing issues the course's certificate, as lessons do, checkable by anyone.
        let number = answer["certificate"].as_str().expect("a certificate").to_owned();
        let check = page(&app, &format!("/certificates/{number}"), None).await;
        assert_eq!(check["page"]["certificate"]["courseTitle"], "Infection Prevention and Control Online", "{check}");
        let (_, answer) = commit(&app, json!({ "lessonStatus": "incomplete", "location": "spread" }), Some(&sam)).await;
        assert_eq!((answer["complete"].as_bool(), answer["certificate"].as_str()), (Some(true), Some(number.as_str())), "one certificate");
        let kept = app.db().course_cmi(account["user"]["id"].as_str().expect("Sam's id"), COURSE).await.unwrap().expect("kept");
        assert_eq!((kept.cmi.location.as_deref(), kept.completed_at.is_some()), (Some("spread"), true));
        let account: Value = as_student(&app, reqwest::Method::GET, "/api/account", Some(&sam)).send().await.unwrap().json().await.unwrap();
        let listed = account["onlineCourses"].as_array().unwrap().iter().find(|c| c["courseId"] == COURSE).unwrap().clone();
        assert_eq!((listed["percent"].as_u64(), listed["complete"].as_bool()), (Some(100), Some(true)));
    }
}
