//! Content taken off the site, and pages staff add (decision 018): a
//! withdrawn course leaves its page, section, sitemap, search and
//! checkout but keeps its row and history, and publishing it again brings
//! it back; the pages the site is built around, its sections and its site
//! data stay. A page staff add shows at `/{slug}/` unless another part of
//! the site has that address.

use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::{audit_rows, staff_member};
use crate::admin_codes::admin;
use crate::admin_races::{once_then, ten_at_once};
use crate::balance::{booked, link};
use crate::both_backends;
use crate::enrol_checkout::{COURSE, count, order, post, quote};
use crate::helpers::TestApp;

const COURSE_PATH: &str = "/courses/aesthetics/chemical-peels/";

async fn withdraw(staff: &reqwest::Client, app: &TestApp, kind: &str, key: &str) -> (u16, Value) {
    admin(staff, app, "POST", &format!("/content/{kind}/{key}/withdraw"), None).await
}

async fn status(app: &TestApp, path: &str) -> u16 {
    app.get(path).await.status().as_u16()
}

async fn text(app: &TestApp, path: &str) -> String {
    app.get(path).await.text().await.unwrap()
}

/// The course ids the search finds for `words`.
async fn found(app: &TestApp, words: &str) -> String {
    text(app, &format!("/api/search?q={words}")).await
}

both_backends! {
    async fn a_withdrawn_course_leaves_the_site_and_comes_back_when_published_again(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        assert!(found(&app, "peels").await.contains(COURSE_PATH));
        assert_eq!(admin(&editor, &app, "GET", &format!("/content/course/{COURSE}"), None).await.1["withdrawable"], true);
        // A booking made before: its balance can still be paid afterwards.
        let booking = booked(&app).await;
        link(&app, &booking, "b0c4ed").await;
        let sessions_before = count(&app, "select count(*) from session").await;
        let before = audit_rows(&app).await;
        let (code, answer) = withdraw(&editor, &app, "course", COURSE).await;
        assert_eq!((code, answer["version"].as_i64()), (200, Some(2)), "{answer}");
        assert_eq!(audit_rows(&app).await, before + 1, "one audit row");

        assert_eq!(status(&app, COURSE_PATH).await, 404);
        assert!(!text(&app, "/courses/aesthetics/").await.contains(COURSE_PATH), "not in its section");
        assert!(!text(&app, "/sitemap.xml").await.contains(COURSE_PATH), "not in the sitemap");
        assert!(!found(&app, "peels").await.contains(COURSE_PATH), "not found by search");
        let (code, basket) = post(&app, "/api/checkout/basket", &json!({ "courses": [
            { "courseId": COURSE, "sessionId": "chemical-peels-1", "includeKit": false },
        ]})).await;
        assert_eq!((code, &basket["removed"]), (200, &json!([COURSE])), "the basket drops it");
        let (code, refused) = post(&app, "/api/enroll/", &order("chemical-peels-1", false, None, "card", &quote(false, None))).await;
        assert_eq!(code, 422, "an order for it is refused: {refused}");
        assert!(refused["error"]["message"].as_str().unwrap().contains("no longer available"), "{refused}");
        assert_eq!(count(&app, "select count(*) from session").await, sessions_before, "its sessions stay for those booked");
        assert_eq!(count(&app, "select count(*) from course where id = 'chemical-peels' and withdrawn").await, 1);
        let balance: Value = app.get("/api/page-data?path=/pay-balance/%3Ftoken%3Db0c4ed").await.json().await.unwrap();
        assert!(balance["page"]["booking"]["balance"].as_i64() > Some(0), "the booking's balance page still opens: {balance}");

        let (_, listed) = admin(&editor, &app, "GET", "/content", None).await;
        let entry = listed["documents"].as_array().unwrap().iter().find(|d| d["key"] == COURSE).unwrap().clone();
        assert_eq!(entry["withdrawn"], true);
        assert_eq!(admin(&editor, &app, "GET", &format!("/content/course/{COURSE}"), None).await.1["withdrawable"], false, "off already");
        assert_eq!(withdraw(&editor, &app, "course", COURSE).await.0, 409, "off the site already");

        // Publishing again (here a revert to the first version) brings it back.
        let (code, back) = admin(&editor, &app, "POST", &format!("/content/course/{COURSE}/revert"), Some(json!({ "version": 1 }))).await;
        assert_eq!((code, back["version"].as_i64()), (200, Some(3)), "{back}");
        assert_eq!(status(&app, COURSE_PATH).await, 200);
        assert!(text(&app, "/sitemap.xml").await.contains(COURSE_PATH));
        assert!(found(&app, "peels").await.contains(COURSE_PATH));
        let (_, history) = admin(&editor, &app, "GET", &format!("/content/course/{COURSE}"), None).await;
        assert_eq!((history["withdrawn"].as_bool(), history["withdrawable"].as_bool()), (Some(false), Some(true)));
        let actions: Vec<&str> = history["revisions"].as_array().unwrap().iter().map(|r| r["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["revert", "withdraw", "load"]);
        app.stop().await;
    }

    async fn an_article_a_job_and_a_team_member_are_withdrawn_and_the_site_keeps_what_it_needs(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let article = "/blog/balayage-trends-and-techniques/";
        assert_eq!(status(&app, article).await, 200);
        assert_eq!(withdraw(&editor, &app, "blog", "balayage-trends-and-techniques").await.0, 200);
        assert_eq!(status(&app, article).await, 404);
        assert!(!text(&app, "/blog/").await.contains(article));
        assert!(!text(&app, "/sitemap.xml").await.contains(article));

        let (_, listed) = admin(&editor, &app, "GET", "/content", None).await;
        for (kind, page) in [("team", "/team/"), ("job", "/careers/")] {
            let document = listed["documents"].as_array().unwrap().iter().find(|d| d["kind"] == kind).unwrap().clone();
            let title = document["title"].as_str().unwrap().to_owned();
            assert!(text(&app, page).await.contains(&title), "{title} on {page}");
            assert_eq!(withdraw(&editor, &app, kind, document["key"].as_str().unwrap()).await.0, 200);
            assert!(!text(&app, page).await.contains(&title), "{title} is off {page}");
        }

        let before = audit_rows(&app).await;
        for (kind, key) in [("site", "site"), ("section", "aesthetics"), ("page", "about"), ("page", "terms-and-conditions")] {
            let (_, document) = admin(&editor, &app, "GET", &format!("/content/{kind}/{key}"), None).await;
            assert_eq!(document["withdrawable"], false, "{kind} {key} is not offered for withdrawal");
            let (code, answer) = withdraw(&editor, &app, kind, key).await;
            assert_eq!(code, 409, "{kind} {key}: {answer}");
        }
        assert_eq!(withdraw(&editor, &app, "course", "no-such-course").await.0, 404);
        assert_eq!(audit_rows(&app).await, before, "a refusal changes nothing");
        assert_eq!(status(&app, "/about/").await, 200);
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        assert_eq!(withdraw(&tutor, &app, "blog", "balayage-trends-and-techniques").await.0, 403);
        app.stop().await;
    }

    async fn a_page_staff_add_shows_at_its_own_address_unless_another_part_of_the_site_has_it(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let body = json!({
            "title": "Open days",
            "description": "Visit the academy on one of our open days.",
            "body": "## Next open day\n\nCome and meet the tutors <script>alert(1)</script>.",
        });
        assert_eq!(status(&app, "/open-days/").await, 404);
        let (code, created) = admin(&editor, &app, "POST", "/content/page", Some(json!({ "key": "open-days", "body": body.clone() }))).await;
        assert_eq!(code, 201, "{created}");
        let html = text(&app, "/open-days/").await;
        assert!(html.contains("Next open day") && html.contains("&lt;script&gt;alert(1)"), "the page, its markup as text");
        assert!(text(&app, "/sitemap.xml").await.contains("/open-days/"));
        let (_, document) = admin(&editor, &app, "GET", "/content/page/open-days", None).await;
        assert_eq!(document["path"], "/open-days/");
        let bare = app.get("/open-days").await;
        assert_eq!((bare.status().as_u16(), bare.headers()["location"].to_str().unwrap()), (308, "/open-days/"), "one address for one page");

        // Addresses the site or the server answer already are refused.
        for key in ["courses", "blog", "checkout", "account", "api", "admin", "media", "black-friday", "careers"] {
            let (code, answer) = admin(&editor, &app, "POST", "/content/page", Some(json!({ "key": key, "body": body.clone() }))).await;
            assert!(code == 422 || code == 409, "{key}: {code} {answer}");
        }
        // The text of a fixed page is not a second page at `/{slug}/`: that
        // address sends the visitor to the page's own.
        let offers = app.get("/black-friday/").await;
        assert_eq!((offers.status().as_u16(), offers.headers()["location"].to_str().unwrap()), (308, "/black-friday"));
        assert_eq!(status(&app, "/black-friday").await, 200);
        assert_eq!(status(&app, "/careers/").await, 200);

        assert_eq!(withdraw(&editor, &app, "page", "open-days").await.0, 200);
        assert_eq!(status(&app, "/open-days/").await, 404);
        assert!(!text(&app, "/sitemap.xml").await.contains("/open-days/"));
        app.stop().await;
    }

    async fn a_course_withdrawn_ten_times_at_once_over_two_instances_is_withdrawn_once(app: TestApp) {
        let other = app.another_instance().await;
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let before = audit_rows(&app).await;
        let statuses = ten_at_once(&app, &other, &editor, &format!("/content/course/{COURSE}/withdraw"), json!({})).await;
        assert_eq!(statuses, once_then(200, 409));
        assert_eq!(audit_rows(&app).await, before + 1);
        let (_, history) = admin(&editor, &app, "GET", &format!("/content/course/{COURSE}"), None).await;
        assert_eq!((history["version"].as_i64(), history["revisions"].as_array().unwrap().len()), (Some(2), 2));
        other.stop().await;
        app.stop().await;
    }
}
