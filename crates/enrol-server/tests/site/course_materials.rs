//! Course materials (decision 035): staff with the content permission
//! attach documents (course files), videos and links to an in-person
//! course, for every date or one; a booked student reads them in the
//! account once the booking fee is paid, and only then; a material's file
//! is served to that student alone, everyone else getting a 404.

use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::admin::{audit_rows, staff_member};
use crate::admin_codes::admin;
use crate::both_backends;
use crate::course_files::upload_file;
use crate::enrol_checkout::{confirm, count, execute, order, prepared, quote};
use crate::graphql::graphql;
use crate::helpers::TestApp;
use crate::learning::as_student;

const COURSE: &str = "chemical-peels";
const BOOKED_DATE: &str = "chemical-peels-3";
const OTHER_DATE: &str = "chemical-peels-1";
const MATERIALS: &str = "{ materials { id enrollment_id course_title title kind url format session_date } }";
const HANDOUT: &[u8] = b"%PDF-1.4\n% Aftercare handout\n%%EOF\n";

async fn materials_of(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, answer) = graphql(app, Some(token), MATERIALS, json!({})).await;
    assert_eq!(status, 200, "{answer}");
    answer["data"]["materials"].as_array().unwrap_or_else(|| panic!("{answer}")).clone()
}

fn titles(materials: &[Value]) -> Vec<&str> {
    materials.iter().map(|m| m["title"].as_str().unwrap()).collect()
}

async fn status_of(app: &TestApp, path: &str, token: Option<&str>) -> u16 {
    as_student(app, reqwest::Method::GET, path, token).send().await.unwrap().status().as_u16()
}

/// A booking of the booked date, started and not yet paid: its id, intent and secret.
async fn started_checkout(app: &TestApp) -> (String, String, String) {
    let q = quote(false, None);
    prepared(app, &order(BOOKED_DATE, false, None, "card", &q), q.deposit, "booking-fee").await
}

both_backends! {
    async fn booked_students_read_a_courses_materials_once_the_fee_is_paid_and_no_one_else_reads_its_files(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@example.com").await;
        let (status, file) = upload_file(&editor, &app, "Aftercare handout.pdf", HANDOUT.to_vec()).await;
        assert_eq!(status, 201, "{file}");
        let file_name = file["fileName"].as_str().unwrap().to_owned();
        let path = format!("/courses/{COURSE}/materials");
        let audited = audit_rows(&app).await;
        for body in [
            json!({ "title": "Aftercare handout", "kind": "document", "file": file_name }),
            json!({ "title": "Peel <b>demo</b> video", "kind": "video", "address": "https://vimeo.com/76979871" }),
            json!({ "title": "Skin types explained", "kind": "link", "address": "https://example.org/skin?a=1&b=2", "sessionId": BOOKED_DATE }),
            json!({ "title": "Another date's rota", "kind": "link", "address": "https://example.org/rota", "sessionId": OTHER_DATE }),
        ] {
            let (status, added) = admin(&editor, &app, "POST", &path, Some(body)).await;
            assert_eq!(status, 201, "{added}");
        }
        assert_eq!(audit_rows(&app).await, audited + 4, "each addition is audited");

        let sam = verified_account(&app, "sam.lee@example.com").await;
        let (order_id, intent, secret) = started_checkout(&app).await;
        // The order is Sam's, as a signed-in checkout's would be: only its payment is missing.
        execute(&app, &format!("update enrollment set user_id = (select id from user_account where email = 'sam.lee@example.com') where id = '{order_id}'")).await;
        assert_eq!(materials_of(&app, &sam).await, Vec::<Value>::new(), "nothing before the booking fee is paid");
        let document_id = {
            let (_, listed) = admin(&editor, &app, "GET", &path, None).await;
            listed["materials"][0]["id"].as_str().unwrap().to_owned()
        };
        let file_path = format!("/course-materials/{document_id}");
        assert_eq!(status_of(&app, &file_path, Some(&sam)).await, 404, "nor its file");

        let (status, paid) = confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 200, "{paid}");
        let materials = materials_of(&app, &sam).await;
        assert_eq!(titles(&materials), ["Aftercare handout", "Peel <b>demo</b> video", "Skin types explained"], "the other date's is not Sam's");
        assert!(materials.iter().all(|m| m["enrollment_id"] == order_id.as_str() && m["course_title"] == "Chemical Peels Course"), "{materials:?}");
        assert_eq!((materials[0]["kind"].as_str(), materials[0]["url"].as_str(), materials[0]["format"].as_str()), (Some("document"), Some(file_path.as_str()), Some("PDF")));
        assert_eq!((materials[1]["url"].as_str(), materials[1]["format"].as_str()), (Some("https://vimeo.com/76979871"), None));
        assert!(materials[2]["session_date"].is_string() && materials[0]["session_date"].is_null(), "{materials:?}");

        let read = as_student(&app, reqwest::Method::GET, &format!("{file_path}?download"), Some(&sam)).send().await.unwrap();
        assert_eq!(read.status().as_u16(), 200);
        assert_eq!(read.headers()["content-type"], "application/pdf");
        assert!(read.headers()["content-disposition"].to_str().unwrap().starts_with("attachment; filename=\"Aftercare handout.pdf\""));
        assert_eq!(read.bytes().await.unwrap().to_vec(), HANDOUT);

        let other = verified_account(&app, "alex.other@example.com").await;
        assert_eq!(materials_of(&app, &other).await, Vec::<Value>::new());
        assert_eq!(status_of(&app, &file_path, Some(&other)).await, 404, "another student");
        assert_eq!(status_of(&app, &file_path, None).await, 404, "a visitor");
        assert_eq!(status_of(&app, &format!("/course-materials/{}", materials[1]["id"].as_str().unwrap()), Some(&sam)).await, 404, "an address has no file");

        // The file a material names stays while it does.
        let (status, refused) = admin(&editor, &app, "DELETE", &format!("/course-files/{}", file_name.trim_start_matches("files/")), None).await;
        assert_eq!(status, 409, "{refused}");

        // Cancelled: the materials go with the seat.
        let cancelled = as_student(&app, reqwest::Method::POST, &format!("/api/account/enrollments/{order_id}/cancel"), Some(&sam)).json(&json!({})).send().await.unwrap();
        assert_eq!(cancelled.status().as_u16(), 200);
        assert_eq!(materials_of(&app, &sam).await, Vec::<Value>::new());
        assert_eq!(status_of(&app, &file_path, Some(&sam)).await, 404);
        app.stop().await;
    }

    async fn staff_edit_materials_by_role_and_each_problem_is_named(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@example.com").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@example.com").await;
        let path = format!("/courses/{COURSE}/materials");
        let link = json!({ "title": "Skin types explained", "kind": "link", "address": "https://example.org/skin" });
        assert_eq!(admin(&tutor, &app, "GET", &path, None).await.0, 403);
        assert_eq!(admin(&tutor, &app, "POST", &path, Some(link.clone())).await.0, 403);
        assert_eq!(admin(&reqwest::Client::new(), &app, "GET", &path, None).await.0, 401);

        for (body, field) in [
            (json!({ "title": "x", "kind": "link", "address": "javascript:alert(1)" }), "address"),
            (json!({ "title": "x", "kind": "link", "address": "http://example.org/" }), "address"),
            (json!({ "title": "x", "kind": "video", "address": "https://vimeo.com/1", "file": "files/abc.mp4" }), "address"),
            (json!({ "title": "", "kind": "link", "address": "https://example.org/" }), "title"),
            (json!({ "title": "x", "kind": "poster", "address": "https://example.org/" }), "kind"),
            (json!({ "title": "x", "kind": "document" }), "file"),
            (json!({ "title": "x", "kind": "document", "file": "files/0123abcd.pdf" }), "file"),
            (json!({ "title": "x", "kind": "link", "address": "https://example.org/", "sessionId": "laser-tattoo-removal-1" }), "sessionId"),
        ] {
            let (status, refused) = admin(&editor, &app, "POST", &path, Some(body.clone())).await;
            assert_eq!(status, 422, "{body}: {refused}");
            assert!(refused["error"]["fields"][field].is_string(), "{body}: {refused}");
        }
        assert_eq!(count(&app, "select count(*) from event_material where title = 'x'").await, 0);
        assert_eq!(admin(&editor, &app, "POST", "/courses/no-such-course/materials", Some(link.clone())).await.0, 404);

        // Added, moved and removed, in the order students will see.
        let mut ids = Vec::new();
        for title in ["First", "Second", "Third"] {
            let (status, added) = admin(&editor, &app, "POST", &path, Some(json!({ "title": title, "kind": "link", "address": "https://example.org/" }))).await;
            assert_eq!(status, 201, "{added}");
            ids.push(added["id"].as_str().unwrap().to_owned());
        }
        assert_eq!(admin(&editor, &app, "POST", &format!("{path}/{}/move", ids[2]), Some(json!({ "earlier": true }))).await.0, 204);
        assert_eq!(admin(&editor, &app, "DELETE", &format!("{path}/{}", ids[0]), None).await.0, 204);
        assert_eq!(admin(&editor, &app, "DELETE", &format!("{path}/{}", ids[0]), None).await.0, 404);
        let (status, listed) = admin(&editor, &app, "GET", &path, None).await;
        assert_eq!(status, 200, "{listed}");
        let order: Vec<&str> = listed["materials"].as_array().unwrap().iter().map(|m| m["title"].as_str().unwrap()).collect();
        assert!(order.ends_with(&["Third", "Second"]) && !order.contains(&"First"), "{listed}");
        assert!(listed["dates"].as_array().unwrap().iter().any(|d| d["id"] == BOOKED_DATE), "{listed}");
        // A material of one course is not removed through another's address.
        assert_eq!(admin(&editor, &app, "DELETE", &format!("/courses/laser-tattoo-removal/materials/{}", ids[1]), None).await.0, 404);
        app.stop().await;
    }
}
