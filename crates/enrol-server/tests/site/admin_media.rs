//! The content media library (decision 018): staff with the content permission
//! upload JPEG, PNG, WebP and SVG images with alt text; each is known by
//! its bytes, written again without metadata (an SVG without anything but
//! drawing), served at `/media/uploads/…` and resized by `/_next/image/`;
//! anything else stores nothing. One audit row per upload and per change.

use base64::Engine as _;
use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::{audit_rows, staff_member};
use crate::admin_codes::admin;
use crate::both_backends;
use crate::helpers::{TestApp, browser};

pub(crate) const PNG: &[u8] = include_bytes!("../fixtures/photo-40x30-with-text.png");
const JPEG: &[u8] = include_bytes!("../../../enrol-images/tests/fixtures/gradient-96x64.jpg");
/// Blurred and spread beyond any size: drawn, it holds a core for minutes.
const STALLING_SVG: &[u8] = include_bytes!("../../../enrol-images/tests/fixtures/stalling-filters.svg");
const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80" onload="alert(1)">
  <script>alert(2)</script>
  <a href="javascript:alert(3)"><rect width="120" height="80" fill="#e7adb8"/></a>
  <image href="data:text/html,&lt;script&gt;alert(4)&lt;/script&gt;" width="5" height="5" onerror="alert(5)"/>
</svg>"##;

/// A 64 × 43 lossy WebP, drawn from an SVG by the site's own renderer.
fn webp() -> Vec<u8> {
    let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#4a2445"/></svg>"##;
    enrol_images::Renderer::with_system_fonts().render(svg, enrol_images::SourceFormat::Svg, 64, 75).unwrap().webp
}

pub(crate) async fn upload(client: &reqwest::Client, app: &TestApp, alt: &str, bytes: &[u8]) -> (u16, Value) {
    upload_named(client, app, alt, "photo.png", bytes).await
}

async fn upload_named(client: &reqwest::Client, app: &TestApp, alt: &str, name: &str, bytes: &[u8]) -> (u16, Value) {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    admin(client, app, "POST", "/media", Some(json!({ "alt": alt, "name": name, "data": data }))).await
}

/// An uploaded image as served: status, content type and bytes.
pub(crate) async fn served(app: &TestApp, file_name: &str) -> reqwest::Response {
    app.client.get(app.url(&format!("/media/{file_name}"))).send().await.unwrap()
}

/// `/_next/image/` of an uploaded image at `width`: status, content type.
pub(crate) async fn resized(app: &TestApp, file_name: &str, width: u32) -> (u16, String) {
    let url = format!("/_next/image/?url=/media/{file_name}&w={width}&q=75");
    let response = app.client.get(app.url(&url)).send().await.unwrap();
    let kind = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (response.status().as_u16(), kind)
}

/// The files in the app's uploads folder.
fn stored_files(app: &TestApp) -> usize {
    std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, |dir| dir.count())
}

both_backends! {
    async fn each_kind_of_image_is_uploaded_served_and_resized_with_one_audit_row(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let webp = webp();
        let cases: [(&[u8], &str, &str, i64, i64); 4] = [
            (PNG, "image/png", "png", 40, 30),
            (JPEG, "image/jpeg", "jpg", 96, 64),
            (&webp, "image/webp", "webp", 64, 43),
            (SVG.as_bytes(), "image/svg+xml", "svg", 120, 80),
        ];
        for (bytes, content_type, extension, width, height) in cases {
            let before = audit_rows(&app).await;
            let (status, media) = upload(&editor, &app, &format!(" A {extension} image "), bytes).await;
            assert_eq!(status, 201, "{media}");
            assert_eq!(audit_rows(&app).await, before + 1, "one audit row per upload");
            let key = media["key"].as_str().unwrap();
            assert_eq!(media["fileName"], format!("uploads/{key}.{extension}"));
            assert_eq!((media["contentType"].as_str(), media["width"].as_i64(), media["height"].as_i64()), (Some(content_type), Some(width), Some(height)));
            assert_eq!(media["alt"], format!("A {extension} image"));

            let response = served(&app, media["fileName"].as_str().unwrap()).await;
            assert_eq!(response.status(), 200);
            let headers = response.headers().clone();
            assert_eq!(headers["content-type"], content_type);
            assert_eq!(headers["x-content-type-options"], "nosniff");
            assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");
            let body = response.bytes().await.unwrap();
            assert_eq!(body.len() as i64, media["bytes"].as_i64().unwrap());
            assert_eq!(resized(&app, media["fileName"].as_str().unwrap(), 32).await, (200, "image/webp".to_owned()), "{extension}");
        }
        // The PNG's text chunk (where it was taken) is not kept.
        let (_, list) = admin(&editor, &app, "GET", "/media", None).await;
        assert_eq!(list["limit"], 500);
        let listed: Vec<&str> = list["media"].as_array().unwrap().iter().map(|m| m["contentType"].as_str().unwrap()).collect();
        assert_eq!(listed, ["image/svg+xml", "image/webp", "image/jpeg", "image/png"], "newest first");
        let png = served(&app, list["media"][3]["fileName"].as_str().unwrap()).await.bytes().await.unwrap();
        assert!(!png.windows(3).any(|w| w == b"GPS"), "metadata is dropped");
        // An image by another name, or no image, is not there.
        let key = list["media"][3]["key"].as_str().unwrap();
        assert_eq!(served(&app, &format!("uploads/{key}.jpg")).await.status(), 404);
        assert_eq!(served(&app, "uploads/abc123.png").await.status(), 404);
        assert_eq!(resized(&app, &format!("uploads/{key}.jpg"), 32).await.0, 404);
        assert_eq!(resized(&app, "uploads/abc123.png", 32).await.0, 404);
    }

    async fn an_uploaded_svg_is_served_without_scripts_under_a_policy_that_runs_none(app: TestApp) {
        let (owner, _) = staff_member(&app, Role::Owner, "owner@college.test").await;
        let (status, media) = upload(&owner, &app, "Pink panel", SVG.as_bytes()).await;
        assert_eq!(status, 201, "{media}");
        let response = served(&app, media["fileName"].as_str().unwrap()).await;
        assert_eq!(response.headers()["content-security-policy"], "default-src 'none'; style-src 'unsafe-inline'");
        assert_eq!(response.headers()["content-disposition"], "inline");
        let svg = response.text().await.unwrap().to_lowercase();
        for gone in ["<script", "alert", "onload", "onerror", "javascript:", "text/html"] {
            assert!(!svg.contains(gone), "{gone} is gone from {svg}");
        }
        assert!(svg.contains("#e7adb8"), "the drawing stays: {svg}");
    }

    async fn what_is_not_a_whole_image_with_alt_text_is_refused_and_nothing_is_kept(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let before = audit_rows(&app).await;
        // The demo content's files (its SCORM package) are there already.
        let files_before = stored_files(&app);
        let refusals: [(&str, Vec<u8>, u16, &str); 8] = [
            ("A leaflet", b"%PDF-1.7 a leaflet".to_vec(), 422, "Please choose a JPEG, PNG, WebP or SVG image."),
            ("Half a photo", PNG[..PNG.len() / 2].to_vec(), 422, "cannot be read"),
            ("Half a gradient", JPEG[..JPEG.len() / 2].to_vec(), 422, "cannot be read"),
            // A PNG that says it is a JPEG by its first bytes.
            ("A PNG as JPEG", [&[0xFF, 0xD8, 0xFF][..], PNG].concat(), 422, "looks like a JPEG image"),
            ("Nothing", Vec::new(), 422, "The file is empty."),
            ("A glow", STALLING_SVG.to_vec(), 422, "would take too long to draw at the site's widths"),
            ("", PNG.to_vec(), 422, "Please check the highlighted fields."),
            (&"a".repeat(301), PNG.to_vec(), 422, "Please check the highlighted fields."),
        ];
        for (alt, bytes, status, message) in refusals {
            let (got, answer) = upload(&staff, &app, alt, &bytes).await;
            assert_eq!(got, status, "{alt}: {answer}");
            assert!(answer["error"]["message"].as_str().unwrap().contains(message), "{alt}: {answer}");
        }
        let (_, answer) = upload(&staff, &app, " ", PNG).await;
        assert_eq!(answer["error"]["fields"]["alt"], "Describe the image for people who cannot see it.");
        let (status, answer) = admin(&staff, &app, "POST", "/media", Some(json!({ "alt": "x", "name": "x.png", "data": "not base64!" }))).await;
        assert_eq!(status, 422, "{answer}");
        let (status, _) = admin(&staff, &app, "POST", "/media", Some(json!({ "name": "x.png", "data": "" }))).await;
        assert_eq!(status, 400, "alt is required");
        let (status, _) = admin(&staff, &app, "POST", "/media", Some(json!({ "alt": "x", "data": "" }))).await;
        assert_eq!(status, 400, "the file's name is required");
        assert_eq!(audit_rows(&app).await, before);
        assert_eq!(admin(&staff, &app, "GET", "/media", None).await.1["media"], json!([]));
        assert_eq!(stored_files(&app), files_before, "nothing is stored");
    }

    async fn alt_text_is_changed_with_one_audit_row_by_those_allowed(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        let (_, media) = upload(&editor, &app, "A photo", PNG).await;
        let path = format!("/media/{}", media["key"].as_str().unwrap());
        let before = audit_rows(&app).await;
        let (status, changed) = admin(&editor, &app, "PUT", &path, Some(json!({ "alt": " Students at a couch " }))).await;
        assert_eq!((status, changed["alt"].as_str()), (200, Some("Students at a couch")));
        assert_eq!(audit_rows(&app).await, before + 1);
        let (status, _) = admin(&editor, &app, "PUT", &path, Some(json!({ "alt": "Students at a couch" }))).await;
        assert_eq!((status, audit_rows(&app).await), (200, before + 1), "no change, no row");
        let (status, answer) = admin(&editor, &app, "PUT", &path, Some(json!({ "alt": "" }))).await;
        assert_eq!((status, answer["error"]["fields"]["alt"].is_string()), (422, true));
        assert_eq!(admin(&editor, &app, "PUT", "/media/abc123", Some(json!({ "alt": "x" }))).await.0, 404);

        assert_eq!(upload(&tutor, &app, "A photo", PNG).await.0, 403);
        assert_eq!(admin(&tutor, &app, "PUT", &path, Some(json!({ "alt": "Mine" }))).await.0, 403);
        assert_eq!(upload(&browser(), &app, "A photo", PNG).await.0, 401);
        assert_eq!(audit_rows(&app).await, before + 1);
    }

    async fn the_library_shows_each_upload_by_its_own_name_beside_the_packs_images(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (_, named) = upload_named(&editor, &app, "Salon front", "C:\\fakepath\\Salon front 2026.png", PNG).await;
        assert_eq!(named["originalName"], "Salon front 2026.png", "the path goes, the name stays");
        let (_, unnamed) = upload_named(&editor, &app, "A gradient", " ../ ", JPEG).await;
        assert_eq!(unnamed["originalName"], Value::Null, "nothing left of a name keeps none");

        let (status, list) = admin(&editor, &app, "GET", "/media", None).await;
        assert_eq!(status, 200);
        let names: Vec<&Value> = list["media"].as_array().unwrap().iter().map(|m| &m["originalName"]).collect();
        assert_eq!(names, [&Value::Null, &json!("Salon front 2026.png")]);
        // The pack's own images, which content may name too, by file name
        // and size; its uploads are the library's rows, never listed twice.
        let pack = list["pack"].as_array().unwrap();
        let logo = pack.iter().find(|image| image["fileName"] == "brand/logo.svg").expect("the pack's logo is listed");
        assert!(logo["width"].as_u64().unwrap() > 0 && logo["height"].as_u64().unwrap() > 0, "{logo}");
        assert!(pack.iter().any(|image| image["fileName"] == "courses/advanced-laser-masterclass.svg"));
        assert!(pack.iter().all(|image| !image["fileName"].as_str().unwrap().starts_with("uploads/")));
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        assert_eq!(admin(&tutor, &app, "GET", "/media", None).await.0, 403);
    }
}
