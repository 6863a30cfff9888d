//! SCORM packages uploaded by staff (decision 026): a package a course
//! could be taught by is kept, with its audit row; a hostile one (a path
//! leaving its folder, a link, a zip bomb, ten thousand files, a program)
//! is refused with a reason, and nothing of it is kept: no file, no row.

use std::io::{Cursor, Write as _};

use base64::Engine as _;
use enrol_domain::staff::Role;
use serde_json::{Value, json};
use zip::write::SimpleFileOptions;

use crate::admin::{audit_rows, staff_member};
use crate::admin_codes::admin;
use crate::both_backends;
use crate::helpers::TestApp;

/// An online course of the demo pack without a package of its own.
const COURSE: &str = "chemical-peels-online";

pub(crate) const MANIFEST: &str = r#"<manifest identifier="t" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Peels in practice</title><item identifier="i" identifierref="r"/></organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="lesson/start.html"/></resources>
</manifest>"#;

/// A zip of `entries`, deflated; `link` adds a symbolic link.
fn zip_of(entries: &[(&str, Vec<u8>)], link: Option<&str>) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    if let Some(name) = link {
        zip.add_symlink(name, "/etc/passwd", options).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// A package a course could be taught by, with `extra` files.
fn good_package(extra: Vec<(&str, Vec<u8>)>) -> Vec<(&str, Vec<u8>)> {
    let mut entries = vec![
        ("imsmanifest.xml", MANIFEST.as_bytes().to_vec()),
        ("lesson/start.html", b"<!doctype html><html><head><title>Start</title></head><body>Peels</body></html>".to_vec()),
        ("lesson/style.css", b"body { color: #222 }".to_vec()),
    ];
    entries.extend(extra);
    entries
}

async fn upload(client: &reqwest::Client, app: &TestApp, course: &str, zip: &[u8]) -> (u16, Value) {
    let data = base64::engine::general_purpose::STANDARD.encode(zip);
    admin(client, app, "POST", &format!("/courses/{course}/package"), Some(json!({ "name": "peels.zip", "data": data }))).await
}

/// What is kept of packages: rows of packages and files, and files in the store.
async fn kept(app: &TestApp) -> (i64, i64, usize) {
    let (packages, files) = enrol_db::on_pool!(app.db(), pool => {
        let packages: i64 = sqlx::query_scalar("select count(*) from scorm_package").fetch_one(pool).await.unwrap();
        let files: i64 = sqlx::query_scalar("select count(*) from scorm_file").fetch_one(pool).await.unwrap();
        (packages, files)
    });
    (packages, files, std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, |dir| dir.count()))
}

both_backends! {
    async fn a_package_is_kept_with_its_launch_page_and_an_audit_row(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (status, shown) = admin(&editor, &app, "GET", &format!("/courses/{COURSE}/package"), None).await;
        assert_eq!((status, &shown["package"]), (200, &Value::Null), "{shown}");
        assert!(shown["limits"]["files"].as_u64().unwrap() >= 100);
        let (packages, files, stored) = kept(&app).await;
        let audits = audit_rows(&app).await;

        let (status, package) = upload(&editor, &app, COURSE, &zip_of(&good_package(vec![("lesson/media/", Vec::new())]), None)).await;
        assert_eq!(status, 201, "{package}");
        assert_eq!((package["version"].as_str(), package["launch"].as_str()), (Some("1.2"), Some("lesson/start.html")));
        assert_eq!((package["title"].as_str(), package["files"].as_i64()), (Some("Peels in practice"), Some(3)));
        assert_eq!(kept(&app).await, (packages + 1, files + 3, stored + 3));
        assert_eq!(audit_rows(&app).await, audits + 1);
        let (_, shown) = admin(&editor, &app, "GET", &format!("/courses/{COURSE}/package"), None).await;
        assert_eq!(shown["package"]["id"], package["id"]);

        // A new package replaces it whole.
        let (status, replaced) = upload(&editor, &app, COURSE, &zip_of(&good_package(Vec::new()), None)).await;
        assert_eq!(status, 201, "{replaced}");
        assert_ne!(replaced["id"], package["id"]);
        assert_eq!(kept(&app).await, (packages + 1, files + 3, stored + 3), "the replaced package's files are gone from the store too");

        // Only an online course of the college's takes one, and only staff who edit content upload it.
        assert_eq!(upload(&editor, &app, "chemical-peels", &zip_of(&good_package(Vec::new()), None)).await.0, 422);
        assert_eq!(upload(&editor, &app, "no-such-course", &zip_of(&good_package(Vec::new()), None)).await.0, 404);
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        assert_eq!(upload(&tutor, &app, COURSE, &zip_of(&good_package(Vec::new()), None)).await.0, 403);
    }

    async fn a_hostile_package_is_refused_with_its_reason_and_nothing_kept(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let before = kept(&app).await;
        let audits = audit_rows(&app).await;
        let names: Vec<String> = (0..10_000).map(|n| format!("pages/{n}.html")).collect();
        let many: Vec<(&str, Vec<u8>)> = names.iter().map(|name| (name.as_str(), b"<p>".to_vec())).collect();
        let hostile: [(&str, Vec<u8>, &str); 7] = [
            ("a path leaving its folder", zip_of(&good_package(vec![("../../escape.html", b"x".to_vec())]), None), "not a plain path"),
            ("a backslash path", zip_of(&good_package(vec![("lesson\\..\\..\\escape.html", b"x".to_vec())]), None), "not a plain path"),
            ("a link", zip_of(&good_package(Vec::new()), Some("lesson/link.html")), "is a link"),
            ("a bomb", zip_of(&good_package(vec![("lesson/zeros.txt", vec![0; 16 * 1024 * 1024])]), None), "far more than it could hold"),
            ("ten thousand files", zip_of(&good_package(many), None), "more than"),
            ("a program", zip_of(&good_package(vec![("lesson/setup.exe", b"MZ".to_vec())]), None), "not a kind of file"),
            ("a script for the shell", zip_of(&good_package(vec![("run.sh", b"#!/bin/sh".to_vec())]), None), "not a kind of file"),
        ];
        for (what, zip, reason) in hostile {
            let (status, answer) = upload(&editor, &app, COURSE, &zip).await;
            assert_eq!(status, 422, "{what}: {answer}");
            assert!(answer["error"]["message"].as_str().unwrap().contains(reason), "{what}: {answer}");
            assert_eq!(kept(&app).await, before, "{what} kept something");
        }
        let (status, answer) = upload(&editor, &app, COURSE, b"not a zip at all").await;
        assert!(status == 422 && answer["error"]["message"].as_str().unwrap().contains("not a zip"), "{answer}");
        let no_manifest = zip_of(&[("index.html", b"<p>".to_vec())], None);
        assert!(upload(&editor, &app, COURSE, &no_manifest).await.1["error"]["message"].as_str().unwrap().contains("imsmanifest.xml"));
        assert_eq!(kept(&app).await, before);
        assert_eq!(audit_rows(&app).await, audits, "a refusal changes nothing");
    }
}
