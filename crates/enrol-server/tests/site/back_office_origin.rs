//! The back office on its own origin (decision 030): with
//! `ENROL_ADMIN_ORIGIN` set, its pages, API and host-only cookie are on that
//! origin only and requests to it are taken only from it; its page never
//! runs a tool's script, and a preview of a draft is sandboxed, whatever
//! the origins.

use enrol_domain::staff::Role;
use reqwest::header::{HOST, HeaderMap, HeaderValue};
use serde_json::json;

use crate::admin::{code, staff_member, staff_member_in};
use crate::both_backends;
use crate::helpers::TestApp;

const OFFICE_HOST: &str = "office.test";
const OFFICE: &str = "http://office.test";
const GTM: &str = "GTM-ABC123";

/// A browser that sends every request to the back office's host (through
/// the same address: the proxy in front would route by host).
fn office_browser() -> reqwest::Client {
    let headers = HeaderMap::from_iter([(HOST, HeaderValue::from_static(OFFICE_HOST))]);
    reqwest::Client::builder().default_headers(headers).redirect(reqwest::redirect::Policy::none()).cookie_store(true).build().unwrap()
}

/// The public site's host, as its own pages send it.
fn public_host(app: &TestApp) -> String {
    app.address.trim_start_matches("http://").to_owned()
}

fn csp(response: &reqwest::Response) -> String {
    response.headers()["content-security-policy"].to_str().unwrap().to_owned()
}

both_backends! {
    #[config(|config| {
        config.admin_origin = Some(enrol_server::back_office_origin::AdminOrigin::parse(OFFICE, "http://127.0.0.1").unwrap());
        config.tracking.tag_manager = Some(GTM.to_owned());
    })]
    async fn the_back_office_answers_only_on_its_own_origin_and_only_to_it(app: TestApp) {
        let (owner, secret, _) = staff_member_in(&app, office_browser(), Role::Owner, "owner@college.test").await;
        let public = public_host(&app);

        // Signing in on the back office's origin sets a cookie for that host alone.
        let signed_in = owner.post(app.url("/api/admin/sign-in"))
            .json(&json!({ "email": "owner@college.test", "password": "a long staff password", "code": code(&secret, 30) }))
            .send().await.unwrap();
        assert_eq!(signed_in.status(), 200);
        let cookie = signed_in.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.starts_with("enrol_staff=") && cookie.contains("Path=/api/admin") && cookie.contains("HttpOnly"), "{cookie}");
        assert!(!cookie.to_ascii_lowercase().contains("domain="), "host-only: {cookie}");
        assert_eq!(owner.get(app.url("/api/admin/session")).send().await.unwrap().status(), 200);

        // The same cookie sent to the public site's host opens nothing there.
        let there = owner.get(app.url("/api/admin/session")).header(HOST, &public).send().await.unwrap();
        assert_eq!(there.status(), 404);
        let markdown = json!({ "markdown": "**bold**" });
        let there = owner.post(app.url("/api/admin/content/markdown")).header(HOST, &public).json(&markdown).send().await.unwrap();
        assert_eq!(there.status(), 404);
        // On its own host, only its own origin may send a change.
        for stranger in [app.address.as_str(), "null", "http://office.test.evil.example"] {
            let refused = owner.post(app.url("/api/admin/content/markdown")).header("origin", stranger).json(&markdown).send().await.unwrap();
            assert_eq!(refused.status(), 403, "from {stranger}");
        }
        let own = owner.post(app.url("/api/admin/content/markdown")).header("origin", OFFICE).json(&markdown).send().await.unwrap();
        assert_eq!(own.status(), 200);

        // Each origin sends the other's pages on; the public API is not on the back office's.
        let admin_page = owner.get(app.url("/admin/content/?x=1")).header(HOST, &public).send().await.unwrap();
        assert_eq!(admin_page.status(), 308);
        assert_eq!(admin_page.headers()["location"], format!("{OFFICE}/admin/content/?x=1"));
        let home = owner.get(app.url("/courses/")).send().await.unwrap();
        assert_eq!(home.status(), 308);
        assert_eq!(home.headers()["location"], format!("{}/courses/", app.address));
        assert_eq!(owner.get(app.url("/api/page-data?path=/")).send().await.unwrap().status(), 404);
        assert_eq!(owner.post(app.url("/api/auth/sign-in")).json(&json!({})).send().await.unwrap().status(), 404);
        let public_page = owner.get(app.url("/")).header(HOST, &public).send().await.unwrap();
        assert_eq!(public_page.status(), 200);
        assert!(public_page.text().await.unwrap().contains(GTM), "the public pages keep their tools");

        // The back office's page is served on its origin, under a policy that lets no tool in.
        let page = owner.get(app.url("/admin/")).send().await.unwrap();
        assert_eq!(page.status(), 200);
        let policy = csp(&page);
        assert!(policy.contains("script-src 'self';") && !policy.contains("googletagmanager"), "{policy}");
        assert!(!page.text().await.unwrap().contains(GTM));

        // Set-up links name the back office's origin.
        let added = owner.post(app.url("/api/admin/staff"))
            .json(&json!({ "email": "tutor@college.test", "name": "Tia Tutor", "role": "tutor" })).send().await.unwrap();
        assert_eq!(added.status(), 201);
        let added: serde_json::Value = added.json().await.unwrap();
        assert!(added["setupLink"].as_str().unwrap().starts_with(&format!("{OFFICE}/admin/setup/?token=")), "{added}");
        app.stop().await;
    }

    #[config(|config| config.tracking.tag_manager = Some(GTM.to_owned()))]
    async fn the_back_office_and_its_previews_run_no_tool_and_a_preview_runs_sandboxed(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let page = editor.get(app.url("/admin/")).send().await.unwrap();
        let policy = csp(&page);
        assert!(policy.contains("script-src 'self';") && !policy.contains("googletagmanager"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");

        let preview = editor.get(app.url("/api/admin/content/course/chemical-peels/preview")).send().await.unwrap();
        assert_eq!(preview.status(), 200);
        let policy = csp(&preview);
        assert!(policy.contains("sandbox allow-scripts allow-forms"), "{policy}");
        assert!(!policy.contains("allow-same-origin") && !policy.contains("googletagmanager"), "{policy}");
        assert!(policy.contains("frame-ancestors 'self'"), "{policy}");
        let html = preview.text().await.unwrap();
        assert!(html.contains("Chemical Peels") && !html.contains(GTM), "the page without the tool");
        app.stop().await;
    }
}
