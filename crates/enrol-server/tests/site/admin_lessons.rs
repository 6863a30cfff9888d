//! An online course's lessons and quizzes written in the back office
//! (decisions 018 and 025): a refused curriculum names each problem's own
//! field, and staff preview a draft's lessons and quizzes in the course
//! player's own pages, where a quiz is marked and nothing is recorded.

use enrol_db::on_pool;
use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::staff_member;
use crate::admin_codes::admin;
use crate::both_backends;
use crate::helpers::TestApp;
use crate::learning::COURSE;

const PREVIEW: &str = "/api/admin/content/course/anatomy-and-physiology-online/preview/learn/";

/// The course's published body, as the editor gets it.
async fn course_body(staff: &reqwest::Client, app: &TestApp) -> Value {
    let (status, course) = admin(staff, app, "GET", &format!("/content/course/{COURSE}"), None).await;
    assert_eq!(status, 200, "{course}");
    course["published"].clone()
}

both_backends! {
    async fn a_refused_curriculum_names_the_field_of_each_problem(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let mut body = course_body(&editor, &app).await;
        let first = body["learning"]["modules"][0]["lessons"][0]["slug"].clone();
        body["learning"]["modules"][0]["lessons"][1]["slug"] = first.clone();
        let question = &mut body["learning"]["modules"][0]["quiz"]["questions"][0];
        question["kind"] = json!("single");
        question["choices"][0]["correct"] = json!(true);
        question["choices"][1]["correct"] = json!(true);
        body["learning"]["assessment"]["pass_mark"] = json!(0);

        let (status, refused) = admin(&editor, &app, "PUT", &format!("/content/course/{COURSE}/draft"), Some(json!({ "body": body }))).await;
        assert_eq!(status, 422, "{refused}");
        let fields = &refused["error"]["fields"];
        assert_eq!(fields["learning"], "Check the lessons and quizzes: each problem is named where it is.");
        assert_eq!(fields["learning.modules.0.lessons.1.slug"], format!("'{}' is used twice.", first.as_str().unwrap()));
        assert_eq!(
            fields["learning.modules.0.quiz.questions.0.choices"],
            "A single-choice question needs exactly one correct choice, not 2."
        );
        assert_eq!(fields["learning.assessment.pass_mark"], "The pass mark must be 1 to 100 per cent, not 0.");
        let (_, course) = admin(&editor, &app, "GET", &format!("/content/course/{COURSE}"), None).await;
        assert_eq!(course["draft"], Value::Null, "nothing refused is kept");
        app.stop().await;
    }

    async fn staff_preview_a_drafts_lesson_and_quiz_as_a_student_will_and_nothing_is_recorded(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let mut body = course_body(&editor, &app).await;
        let lessons = body["learning"]["modules"][0]["lessons"].as_array_mut().unwrap();
        lessons.insert(1, json!({ "slug": "cell-membranes", "title": "Cell membranes up close", "minutes": 7, "body": "## Two layers\nOf phospholipids.", "downloads": [] }));
        let quiz = body["learning"]["modules"][0]["quiz"].clone();
        let (status, _) = admin(&editor, &app, "PUT", &format!("/content/course/{COURSE}/draft"), Some(json!({ "body": body }))).await;
        assert_eq!(status, 200);

        // The draft's new lesson, in the player's own page, marked as a preview.
        let lesson = editor.get(app.url(&format!("{PREVIEW}cell-membranes/"))).send().await.unwrap();
        assert_eq!(lesson.status().as_u16(), 200);
        assert_eq!(lesson.headers()["cache-control"], "no-store");
        assert_eq!(lesson.headers()["x-frame-options"], "SAMEORIGIN");
        assert_eq!(lesson.headers()["x-robots-tag"], "noindex, nofollow");
        let html = lesson.text().await.unwrap();
        assert!(html.contains("Cell membranes up close") && html.contains("Of phospholipids."), "the draft's lesson");
        assert!(html.contains("Preview of the draft."), "marked as a preview");
        assert!(html.contains(&format!("{PREVIEW}cell-division/")), "its links stay in the preview");
        let contents = editor.get(app.url(PREVIEW)).send().await.unwrap().text().await.unwrap();
        assert!(contents.contains("Cell membranes up close"), "the contents list the draft's lesson");
        // Not on the site until it is published.
        let (status, _) = admin(&editor, &app, "GET", &format!("/content/course/{COURSE}"), None).await;
        assert_eq!(status, 200);
        assert!(!serde_json::to_string(&course_body(&editor, &app).await).unwrap().contains("cell-membranes"));

        // The quiz, marked with the draft's right answers; no attempt is kept.
        let slug = quiz["slug"].as_str().unwrap();
        let answers: serde_json::Map<String, Value> = quiz["questions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|question| {
                let right: Vec<&Value> = question["choices"].as_array().unwrap().iter().filter(|c| c["correct"] == true).map(|c| &c["key"]).collect();
                (question["key"].as_str().unwrap().to_owned(), json!(right))
            })
            .collect();
        let (status, marked) =
            admin(&editor, &app, "POST", &format!("/content/course/{COURSE}/preview/learn/{slug}/attempts"), Some(json!({ "answers": answers }))).await;
        assert_eq!(status, 200, "{marked}");
        assert_eq!((marked["score"].as_u64(), marked["passed"].as_bool(), marked["attemptsUsed"].as_u64()), (Some(100), Some(true), Some(0)));
        let kept: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select count(*) from quiz_attempt").fetch_one(pool).await).unwrap();
        assert_eq!(kept, 0);
        let quiz_page = editor.get(app.url(&format!("{PREVIEW}{slug}/"))).send().await.unwrap().text().await.unwrap();
        assert!(quiz_page.contains(&format!("{PREVIEW}{slug}/attempts")), "the preview's quiz is marked by the preview");

        // Staff only; a step the draft does not have, and a course without lessons, are not found.
        assert_eq!(app.get(&format!("{PREVIEW}cell-membranes/")).await.status().as_u16(), 401);
        assert_eq!(editor.get(app.url(&format!("{PREVIEW}no-such-lesson/"))).send().await.unwrap().status().as_u16(), 404);
        let in_person = editor.get(app.url("/api/admin/content/course/chemical-peels/preview/learn/")).send().await.unwrap();
        assert_eq!(in_person.status().as_u16(), 404);
        app.stop().await;
    }
}
