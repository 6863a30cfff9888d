//! The site's content edited in the back office (decision 018):
//! a draft changes nothing until it is published; publishing shows on every
//! instance; Markdown with markup is shown as text; a renamed course's old
//! address redirects; a revert publishes an earlier body again; an article
//! dated later waits for its day. Each change writes one audit row.

use enrol_domain::london;
use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::{audit_rows, staff_member};
use crate::admin_codes::admin;
use crate::admin_media::{PNG, served, upload};
use crate::admin_races::{once_then, ten_at_once};
use crate::both_backends;
use crate::helpers::TestApp;

async fn page_data(app: &TestApp, path: &str) -> Value {
    app.get(&format!("/api/page-data?path={path}")).await.json().await.unwrap()
}

/// Saves `body` as the draft of `kind`/`key` and publishes it.
async fn publish(staff: &reqwest::Client, app: &TestApp, kind: &str, key: &str, body: Value) -> Value {
    let (status, saved) = admin(staff, app, "PUT", &format!("/content/{kind}/{key}/draft"), Some(json!({ "body": body }))).await;
    assert_eq!(status, 200, "{saved}");
    let (status, published) = admin(staff, app, "POST", &format!("/content/{kind}/{key}/publish"), None).await;
    assert_eq!(status, 200, "{published}");
    published
}

both_backends! {
    async fn an_editor_publishes_a_course_and_every_instance_shows_it(app: TestApp) {
        let other = app.another_instance().await;
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let path = "/courses/aesthetics/chemical-peels/";
        let (status, course) = admin(&editor, &app, "GET", "/content/course/chemical-peels", None).await;
        assert_eq!((status, course["path"].as_str()), (200, Some(path)));
        assert_eq!(page_data(&other, path).await["page"]["pricing"]["unit_amount"], 69_500);

        let mut body = course["published"].clone();
        body["price"] = json!(71_500);
        body["description"] = json!("Peels <script>alert(1)</script> and <img src=x onerror=alert(2)>\n\n**Bring** a towel.");
        let before = audit_rows(&app).await;
        let (status, _) = admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await;
        assert_eq!(status, 200);
        assert_eq!(page_data(&other, path).await["page"]["pricing"]["unit_amount"], 69_500, "a draft is not live");
        let (status, published) = admin(&editor, &app, "POST", "/content/course/chemical-peels/publish", None).await;
        assert_eq!((status, published["version"].as_i64()), (200, Some(2)));
        assert_eq!(audit_rows(&app).await, before + 1);

        // The second instance notices the new content version on its next poll.
        let mut shown = Value::Null;
        for _ in 0..50 {
            shown = page_data(&other, path).await;
            if shown["page"]["pricing"]["unit_amount"] == 71_500 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(shown["page"]["pricing"]["unit_amount"], 71_500, "{shown}");
        let description = shown["page"]["descriptionHtml"].as_str().unwrap();
        assert!(description.contains("&lt;script&gt;") && !description.contains("<script"), "{description}");
        assert!(!description.contains("<img"), "{description}");
        assert!(description.contains("<strong>Bring</strong>"), "{description}");
        let html = other.get(path).await.text().await.unwrap();
        assert!(html.contains("\"price\":\"715.00\""), "the JSON-LD carries the new price");
        other.stop().await;
        app.stop().await;
    }

    async fn a_draft_published_ten_times_at_once_is_published_once(app: TestApp) {
        let other = app.another_instance().await;
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (_, page) = admin(&editor, &app, "GET", "/content/page/finance", None).await;
        let mut body = page["published"].clone();
        body["title"] = json!("Paying in parts");
        admin(&editor, &app, "PUT", "/content/page/finance/draft", Some(json!({ "body": body }))).await;
        let before = audit_rows(&app).await;
        let statuses = ten_at_once(&app, &other, &editor, "/content/page/finance/publish", json!({})).await;
        assert_eq!(statuses, once_then(200, 409));
        assert_eq!(audit_rows(&app).await, before + 1);
        let (_, history) = admin(&editor, &app, "GET", "/content/page/finance", None).await;
        assert_eq!((history["version"].as_i64(), history["revisions"].as_array().unwrap().len()), (Some(2), 2));
        other.stop().await;
        app.stop().await;
    }

    async fn a_refused_draft_says_why_and_changes_nothing(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (_, course) = admin(&editor, &app, "GET", "/content/course/chemical-peels", None).await;
        let before = audit_rows(&app).await;
        let mut body = course["published"].clone();
        body["price"] = json!(0);
        body["title"] = json!(" ");
        let (status, answer) = admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await;
        assert_eq!(status, 422);
        let fields: Vec<&str> = answer["error"]["fields"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(fields, ["price", "title"]);
        let mut body = course["published"].clone();
        body["image"]["file"] = json!("nowhere.svg");
        assert_eq!(admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await.0, 422);
        let mut body = course["published"].clone();
        body["section"] = json!("no-such-section");
        assert_eq!(admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await.0, 200);
        let (status, answer) = admin(&editor, &app, "POST", "/content/course/chemical-peels/publish", None).await;
        assert_eq!((status, answer["error"]["fields"]["section"].is_string()), (422, true), "{answer}");
        // Another course's address is refused beside the slug, and nothing changes.
        let mut body = course["published"].clone();
        body["slug"] = json!("bb-glow");
        assert_eq!(admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await.0, 200);
        let (status, answer) = admin(&editor, &app, "POST", "/content/course/chemical-peels/publish", None).await;
        assert_eq!(
            (status, answer["error"]["fields"]["slug"].as_str()),
            (422, Some("Another course has this address: choose another slug.")),
            "{answer}"
        );
        assert!(app.get("/courses/aesthetics/bb-glow/").await.text().await.unwrap().contains("BB Glow and Nanoneedling"));
        // What a course asks before training is checked where it is typed, each problem beside its field.
        let mut body = course["published"].clone();
        body["readiness"] = json!({ "forms": ["medical", "medical"], "documents": [{ "title": "Photo ID" }, { "title": " " }], "due_days_before": 7 });
        let (status, answer) = admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await;
        assert_eq!(status, 422, "{answer}");
        assert_eq!(answer["error"]["fields"]["readiness.forms"], "Ask for each form once.");
        assert_eq!(answer["error"]["fields"]["readiness.documents.1.title"], "Name the document, for example “Photo ID”.");
        assert_eq!(admin(&editor, &app, "POST", "/content/course/nothing-here/publish", None).await.0, 404);
        // The college's addresses send its mail: one that cannot is refused where it is typed.
        let (_, site) = admin(&editor, &app, "GET", "/content/site/site", None).await;
        let mut body = site["published"].clone();
        body["email_address"] = json!("hello at calderbrook");
        body["support_email_address"] = json!("support@calderbrook");
        let (status, answer) = admin(&editor, &app, "PUT", "/content/site/site/draft", Some(json!({ "body": body }))).await;
        assert_eq!(status, 422, "{answer}");
        let fields: Vec<&str> = answer["error"]["fields"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(fields, ["email_address", "support_email_address"]);
        assert_eq!(admin(&editor, &app, "DELETE", "/content/course/chemical-peels/draft", None).await.0, 204);
        assert_eq!(admin(&editor, &app, "POST", "/content/course/chemical-peels/publish", None).await.0, 409);
        assert_eq!(audit_rows(&app).await, before + 1, "only the discarded draft is a change");
        app.stop().await;
    }

    async fn a_renamed_course_redirects_from_its_old_address_and_a_revert_brings_it_back(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (_, course) = admin(&editor, &app, "GET", "/content/course/chemical-peels", None).await;
        let mut body = course["published"].clone();
        body["slug"] = json!("skin-peels");
        let published = publish(&editor, &app, "course", "chemical-peels", body).await;
        let new_path = "/courses/aesthetics/skin-peels/";
        assert_eq!(published["path"], new_path);
        let old = app.get("/courses/aesthetics/chemical-peels/").await;
        assert_eq!(old.status().as_u16(), 308);
        assert_eq!(old.headers()["location"], new_path);
        assert_eq!(app.get(new_path).await.status().as_u16(), 200);
        let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
        assert!(sitemap.contains(new_path) && !sitemap.contains("/chemical-peels/"), "the sitemap lists the new address only");

        let before = audit_rows(&app).await;
        let (status, reverted) = admin(&editor, &app, "POST", "/content/course/chemical-peels/revert", Some(json!({ "version": 1 }))).await;
        assert_eq!((status, reverted["version"].as_i64()), (200, Some(3)));
        assert_eq!(audit_rows(&app).await, before + 1);
        assert_eq!(app.get("/courses/aesthetics/chemical-peels/").await.status().as_u16(), 200, "a live address never redirects");
        let moved = app.get(new_path).await;
        assert_eq!((moved.status().as_u16(), moved.headers()["location"].to_str().unwrap()), (308, "/courses/aesthetics/chemical-peels/"));
        let (_, history) = admin(&editor, &app, "GET", "/content/course/chemical-peels", None).await;
        let actions: Vec<&str> = history["revisions"].as_array().unwrap().iter().map(|r| r["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["revert", "publish", "load"]);
        assert_eq!(admin(&editor, &app, "POST", "/content/course/chemical-peels/revert", Some(json!({ "version": 9 }))).await.0, 404);
        app.stop().await;
    }

    async fn an_article_dated_later_waits_for_its_day(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (_, existing) = admin(&editor, &app, "GET", "/content/blog/balayage-trends-and-techniques", None).await;
        let mut body = existing["published"].clone();
        let tomorrow = london::today(chrono::Utc::now()) + chrono::Duration::days(1);
        body["title"] = json!("Coming tomorrow");
        body["published"] = json!(tomorrow.to_string());
        let (status, created) = admin(&editor, &app, "POST", "/content/blog", Some(json!({ "key": "coming-tomorrow", "body": body.clone() }))).await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(admin(&editor, &app, "POST", "/content/blog", Some(json!({ "key": "coming-tomorrow", "body": body.clone() }))).await.0, 409);
        assert_eq!(admin(&editor, &app, "POST", "/content/blog", Some(json!({ "key": "Bad Key", "body": body.clone() }))).await.0, 422);
        assert_eq!(app.get("/blog/coming-tomorrow/").await.status().as_u16(), 404);
        let blog = app.get("/blog/").await.text().await.unwrap();
        assert!(!blog.contains("Coming tomorrow"), "a scheduled article is not listed");

        body["published"] = json!(london::today(chrono::Utc::now()).to_string());
        publish(&editor, &app, "blog", "coming-tomorrow", body).await;
        assert_eq!(app.get("/blog/coming-tomorrow/").await.status().as_u16(), 200);
        app.stop().await;
    }

    async fn a_preview_shows_the_draft_as_the_page_will_look_and_changes_nothing(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (_, course) = admin(&editor, &app, "GET", "/content/course/chemical-peels", None).await;
        let mut body = course["published"].clone();
        body["title"] = json!("Chemical Peels Masterclass Preview");
        admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await;
        let preview = editor.get(app.url("/api/admin/content/course/chemical-peels/preview")).send().await.unwrap();
        assert_eq!(preview.status().as_u16(), 200);
        assert_eq!(preview.headers()["x-frame-options"], "SAMEORIGIN");
        assert_eq!(preview.headers()["cache-control"], "no-store");
        let html = preview.text().await.unwrap();
        assert!(html.contains("<h1") && html.contains("Chemical Peels Masterclass Preview"), "the draft's title on the page");
        let public = app.get("/courses/aesthetics/chemical-peels/").await.text().await.unwrap();
        assert!(!public.contains("Masterclass Preview"), "the public page is unchanged");
        let title: String = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_scalar("select title from course where id = 'chemical-peels'").fetch_one(pool).await).unwrap();
        assert_eq!(title, "Chemical Peels Course");
        assert_eq!(app.get("/api/admin/content/course/chemical-peels/preview").await.status().as_u16(), 401);
        assert_eq!(admin(&editor, &app, "POST", "/content/course/chemical-peels/publish", None).await.0, 200, "nothing is left locked");
        app.stop().await;
    }

    async fn an_uploaded_image_is_used_on_a_course_page(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (status, uploaded) = upload(&editor, &app, "A peel being applied", PNG).await;
        assert_eq!(status, 201, "{uploaded}");
        let file = uploaded["fileName"].as_str().unwrap().to_owned();
        let (_, course) = admin(&editor, &app, "GET", "/content/course/chemical-peels", None).await;
        let mut body = course["published"].clone();
        body["image"] = json!({ "file": file, "alt": "A peel being applied" });
        publish(&editor, &app, "course", "chemical-peels", body).await;
        let shown = page_data(&app, "/courses/aesthetics/chemical-peels/").await;
        let image = &shown["page"]["images"][0];
        assert_eq!((image["url"].as_str(), image["width"].as_i64()), (Some(format!("/media/{file}").as_str()), Some(40)));
        assert_eq!(served(&app, &file).await.status().as_u16(), 200);
        let mut body = course["published"].clone();
        body["image"] = json!({ "file": "uploads/0000.png", "alt": "Nothing" });
        let (status, answer) = admin(&editor, &app, "PUT", "/content/course/chemical-peels/draft", Some(json!({ "body": body }))).await;
        assert_eq!((status, answer["error"]["fields"]["image"].is_string()), (422, true));
        app.stop().await;
    }

    async fn cached_pages_are_dropped_when_a_new_day_begins(app: TestApp) {
        assert!(app.get("/blog/").await.text().await.unwrap().contains("Balayage Trends"));
        // A change no version records: only a new day shows it.
        enrol_db::on_pool!(app.db(), pool => sqlx::query("update blog_post set title = 'Balayage Today' where slug = 'balayage-trends-and-techniques'")
            .execute(pool).await.map(drop)).unwrap();
        let now = chrono::Utc::now();
        enrol_server::notice_versions(&app.state, now).await.unwrap();
        assert!(app.get("/blog/").await.text().await.unwrap().contains("Balayage Trends"), "the same day, the cached page");
        enrol_server::notice_versions(&app.state, now + chrono::Duration::days(1)).await.unwrap();
        assert!(app.get("/blog/").await.text().await.unwrap().contains("Balayage Today"), "a new day, the page again");
        app.stop().await;
    }

    async fn the_markdown_preview_is_the_pages_own_html(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (status, answer) = admin(&editor, &app, "POST", "/content/markdown",
            Some(json!({ "markdown": "## Hi\n\n[a](javascript:x)\n\n<script>x</script>" }))).await;
        assert_eq!(status, 200);
        let html = answer["html"].as_str().unwrap();
        assert!(html.contains("<h2>Hi</h2>") && html.contains("&lt;script&gt;") && html.contains("href=\"#\""), "{html}");
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        assert_eq!(admin(&tutor, &app, "GET", "/content", None).await.0, 403);
        let (status, list) = admin(&editor, &app, "GET", "/content", None).await;
        assert_eq!(status, 200);
        let kinds: std::collections::BTreeSet<&str> = list["documents"].as_array().unwrap().iter().map(|d| d["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["blog", "course", "job", "page", "pathway", "section", "site", "team"]);
        app.stop().await;
    }
}
