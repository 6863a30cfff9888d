use std::collections::HashMap;

use serde_json::{Value, json};

use crate::both_backends;

/// Lower-case words of at least seven letters in some HTML's text.
fn words(html: &str) -> Vec<String> {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.split(|c: char| !c.is_alphabetic()).filter(|w| w.len() >= 7).map(str::to_lowercase).collect()
}

async fn post_json(app: &crate::helpers::TestApp, path: &str, body: Value) -> reqwest::Response {
    app.client.post(app.url(path)).json(&body).send().await.expect("request")
}

both_backends! {
    async fn search_finds_a_course_by_a_word_of_its_description(app: TestApp) {
        let index: Value = app.get("/api/page-data?path=/courses/").await.json().await.unwrap();
        let urls: Vec<String> = index["page"]["courses"].as_array().unwrap().iter()
            .map(|c| c["url"].as_str().unwrap().to_owned()).collect();
        // A word found in exactly one course's description.
        let mut seen: HashMap<String, Vec<String>> = HashMap::new();
        for url in &urls {
            let page: Value = app.get(&format!("/api/page-data?path={url}")).await.json().await.unwrap();
            let mut own = words(page["page"]["descriptionHtml"].as_str().unwrap());
            own.sort();
            own.dedup();
            for word in own {
                seen.entry(word).or_default().push(url.clone());
            }
        }
        let (word, url) = seen.iter().filter(|(_, u)| u.len() == 1).map(|(w, u)| (w.clone(), u[0].clone()))
            .min().expect("some word is unique to one course");
        let found: Value = app.get(&format!("/api/search?q={word}")).await.json().await.unwrap();
        let results = found["results"].as_array().unwrap();
        assert!(results.iter().any(|r| r["url"] == url.as_str() && r["kind"] == "course"), "{word} should find {url}: {found}");
        // Typing a prefix already finds it.
        let prefix = &word[..word.len() - 2];
        let found: Value = app.get(&format!("/api/search?q={prefix}")).await.json().await.unwrap();
        assert!(found["results"].as_array().unwrap().iter().any(|r| r["url"] == url.as_str()), "prefix {prefix}");
        // Query syntax is not interpreted.
        let odd = app.get("/api/search?q=%22%27%20OR%20*%20NEAR(").await;
        assert_eq!(odd.status().as_u16(), 200);
        let empty: Value = app.get("/api/search?q=").await.json().await.unwrap();
        assert_eq!(empty["results"], json!([]));
        app.stop().await;
    }

    async fn search_finds_articles(app: TestApp) {
        let found: Value = app.get("/api/search?q=aesthetics").await.json().await.unwrap();
        assert!(found["results"].as_array().unwrap().iter().any(|r| r["kind"] == "article"), "{found}");
        app.stop().await;
    }

    async fn text_with_a_nul_character_is_refused_not_a_server_error(app: TestApp) {
        // PostgreSQL cannot store NUL in text; a NUL reached the database
        // and failed there with a 500 before.
        let nul = "amelia\u{0}@example.org";
        for (path, body) in [
            ("/api/code", json!({ "code": nul })),
            ("/api/enquiries/contact", json!({ "name": nul, "email": "amelia@example.org", "message": "Hello" })),
            ("/api/auth/sign-in", json!({ "username": nul, "password": "correct horse battery" })),
            ("/api/auth/password-reset", json!({ "email": nul })),
            ("/api/checkout/basket", json!({ "courses": [], "orderId": nul })),
            ("/api/enroll/", json!({ "data": { "contact": { "name": nul } } })),
        ] {
            let response = post_json(&app, path, body).await;
            assert_eq!(response.status().as_u16(), 400, "{path}");
            let error: Value = response.json().await.unwrap();
            assert_eq!(error["error"]["code"], "bad_request", "{path}: {error}");
        }
        // A backslash before `u0000` is text, and welcome.
        let text = post_json(&app, "/api/code", json!({ "code": "C:\\u0000" })).await;
        assert_eq!(text.status().as_u16(), 200);
        app.stop().await;
    }

    async fn an_enquiry_is_stored_and_mailed_to_the_college(app: TestApp) {
        let response = post_json(&app, "/api/enquiries/contact", json!({
            "name": "Amelia Hart", "email": "amelia@example.org", "phone": "07700 900123",
            "message": "Do you run lip filler courses at weekends?"
        })).await;
        assert_eq!(response.status().as_u16(), 201);
        let id = response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
        let (kind,): (String,) = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_as("select kind from form_submission where id = $1").bind(&id).fetch_one(pool).await).unwrap();
        assert_eq!(kind, "contact");
        let site = app.db().site().await.unwrap().unwrap().site;
        let mails = app.db().outbox(2).await.unwrap();
        let mail = mails.iter().find(|m| m.to_address == site.email_address).expect("the college's mail");
        assert_eq!(mail.reply_to.as_deref(), Some("amelia@example.org"));
        assert!(mail.body_text.contains("lip filler courses") && mail.body_text.contains("+447700900123"));

        let models = post_json(&app, "/api/enquiries/models", json!({
            "name": "Jo", "email": "jo@example.org", "phone": "07700900124", "treatment": "Lip filler"
        })).await;
        assert_eq!(models.status().as_u16(), 201);
        assert!(app.db().outbox(2).await.unwrap().iter().any(|m| m.to_address == site.models_email_address));
        let acknowledged: Vec<String> = app.db().outbox(10).await.unwrap().into_iter().map(|m| m.to_address).collect();
        assert!(acknowledged.contains(&"amelia@example.org".to_owned()) && acknowledged.contains(&"jo@example.org".to_owned()), "{acknowledged:?}");
        app.stop().await;
    }

    async fn an_invalid_enquiry_gets_a_message_per_field_and_stores_nothing(app: TestApp) {
        let response = post_json(&app, "/api/enquiries/callback", json!({ "name": "", "phone": "12ab" })).await;
        assert_eq!(response.status().as_u16(), 422);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "invalid");
        assert_eq!(body["error"]["fields"]["name"], "Name is required");
        assert_eq!(body["error"]["fields"]["phone"], "Enter a valid phone number");
        let unknown_field = post_json(&app, "/api/enquiries/contact", json!({ "name": "A", "price": 1 })).await;
        assert_eq!(unknown_field.status().as_u16(), 400);
        let unknown_kind = post_json(&app, "/api/enquiries/complaint", json!({ "name": "A" })).await;
        assert_eq!(unknown_kind.status().as_u16(), 404);
        let (count,): (i64,) = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_as("select count(*) from form_submission").fetch_one(pool).await).unwrap();
        assert_eq!(count, 0);
        assert!(app.db().outbox(10).await.unwrap().is_empty());
        app.stop().await;
    }

    async fn changes_must_be_same_site_json(app: TestApp) {
        let body = json!({ "name": "A", "phone": "07700900123" });
        let cross = app.client.post(app.url("/api/enquiries/callback"))
            .header("origin", "https://evil.example").json(&body).send().await.unwrap();
        assert_eq!(cross.status().as_u16(), 403);
        let form = app.client.post(app.url("/api/enquiries/callback"))
            .header("content-type", "application/x-www-form-urlencoded").body("name=A&phone=07700900123").send().await.unwrap();
        assert_eq!(form.status().as_u16(), 415);
        let own = app.client.post(app.url("/api/enquiries/callback"))
            .header("origin", app.address.clone()).json(&body).send().await.unwrap();
        assert_eq!(own.status().as_u16(), 201);
        let missing = app.get("/api/no-such-endpoint").await;
        assert_eq!(missing.status().as_u16(), 404);
        assert_eq!(missing.json::<Value>().await.unwrap()["error"]["code"], "not_found");
        app.stop().await;
    }

    async fn robots_points_at_the_sitemap(app: TestApp) {
        let (status, body) = app.text("/robots.txt").await;
        assert_eq!(status, 200);
        assert!(body.contains("Disallow: /checkout/") && body.contains("/sitemap.xml"));
        app.stop().await;
    }
}
