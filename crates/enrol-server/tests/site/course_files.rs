//! A course's own files (decision 028): staff upload videos, recordings
//! and PDFs, each known by its bytes and kept within its kind's limit; a
//! student who may study a course whose published lessons name a file
//! reads it in ranges, as a browser's video player does; anyone else, and
//! any file the course does not name, gets the 404 of a file that does
//! not exist. A file a course uses cannot be removed; one removed is gone
//! from the store.

use chrono::{Duration, Utc};
use enrol_db::on_pool;
use enrol_domain::learning::curriculum::Video;
use enrol_domain::staff::Role;
use enrol_server::Command;
use reqwest::Method;
use serde_json::Value;

use crate::accounts::verified_account;
use crate::admin::{audit_rows, staff_member};
use crate::admin_codes::admin;
use crate::both_backends;
use crate::content::copy_dir;
use crate::helpers::{TestApp, repo_root};
use crate::learning::{COURSE, as_student, curriculum, student_with, student_with_the_course};

pub(crate) const MP4: &[u8] = include_bytes!("../fixtures/lesson.mp4");
const MP3: &[u8] = include_bytes!("../fixtures/lesson.mp3");

/// The demo lesson's video and download, as content names them (`files/…`).
pub(crate) fn demo_files() -> (String, String) {
    let lesson = &curriculum().modules[0].lessons[0];
    let Some(Video::Upload { file: video }) = &lesson.video else { panic!("the demo's first lesson plays an uploaded video") };
    (video.clone(), lesson.downloads[0].file.clone())
}

/// The bytes of a file of the demo pack, by the name content gives it.
pub(crate) fn pack_bytes(file: &str) -> Vec<u8> {
    std::fs::read(repo_root().join("content/course-files").join(file.trim_start_matches("files/"))).unwrap()
}

/// A file uploaded by `client` as the back office sends it: its bytes as the body.
pub(crate) async fn upload_file(client: &reqwest::Client, app: &TestApp, name: &str, bytes: Vec<u8>) -> (u16, Value) {
    let url = app.url(&format!("/api/admin/course-files?name={}", name.replace(' ', "%20")));
    let response = client.post(url).header("content-type", "application/octet-stream").body(bytes).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// `path` as the student signed in as `token` reads it, asking for `range`.
async fn read(app: &TestApp, method: Method, path: &str, token: Option<&str>, range: Option<&str>) -> reqwest::Response {
    let request = as_student(app, method, path, token);
    let request = match range {
        Some(range) => request.header("range", range),
        None => request,
    };
    request.send().await.unwrap()
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

/// The status of `path` for the student signed in as `token`.
async fn status(app: &TestApp, path: &str, token: Option<&str>) -> u16 {
    read(app, Method::GET, path, token, None).await.status().as_u16()
}

fn stored_files(app: &TestApp) -> usize {
    std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, |dir| dir.count())
}

async fn course_file_rows(app: &TestApp) -> i64 {
    on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>("select count(*) from course_file").fetch_one(pool).await).unwrap()
}

both_backends! {
    async fn a_lesson_video_is_read_in_ranges_by_its_student(app: TestApp) {
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let (video, download) = demo_files();
        let bytes = pack_bytes(&video);
        let length = bytes.len();
        let path = format!("/learn/{COURSE}/{video}");

        let whole = read(&app, Method::GET, &path, Some(&sam), None).await;
        assert_eq!(whole.status(), 200);
        assert_eq!(header(&whole, "content-type"), "video/webm");
        assert_eq!(header(&whole, "accept-ranges"), "bytes");
        assert_eq!(header(&whole, "content-length"), length.to_string());
        assert_eq!(header(&whole, "content-disposition"), "inline");
        assert_eq!(header(&whole, "x-content-type-options"), "nosniff");
        assert!(header(&whole, "cache-control").starts_with("private"), "{}", header(&whole, "cache-control"));
        assert_eq!(whole.bytes().await.unwrap().to_vec(), bytes);

        let cases = [
            ("bytes=0-99", 0, 100),
            ("bytes=1000-1099", 1000, 1100),
            ("bytes=2000-", 2000, length),
            (&format!("bytes=-{}", 100) as &str, length - 100, length),
            ("bytes=2200-999999", 2200, length),
        ];
        for (range, first, end) in cases {
            let part = read(&app, Method::GET, &path, Some(&sam), Some(range)).await;
            assert_eq!(part.status(), 206, "{range}");
            assert_eq!(header(&part, "content-range"), format!("bytes {first}-{}/{length}", end - 1), "{range}");
            assert_eq!(header(&part, "content-length"), (end - first).to_string(), "{range}");
            assert_eq!(part.bytes().await.unwrap().to_vec(), bytes[first..end], "{range}");
        }

        let past = read(&app, Method::GET, &path, Some(&sam), Some(&format!("bytes={length}-"))).await;
        assert_eq!((past.status().as_u16(), header(&past, "content-range")), (416, format!("bytes */{length}")));
        let several = read(&app, Method::GET, &path, Some(&sam), Some("bytes=0-9,20-29")).await;
        assert_eq!((several.status().as_u16(), several.bytes().await.unwrap().len()), (200, length), "several ranges: the whole file");
        let stale = as_student(&app, Method::GET, &path, Some(&sam)).header("range", "bytes=0-9").header("if-range", "\"another\"").send().await.unwrap();
        assert_eq!(stale.status(), 200, "a range of another version is not answered in part");

        let head = read(&app, Method::HEAD, &path, Some(&sam), None).await;
        assert_eq!((head.status().as_u16(), header(&head, "content-length"), header(&head, "accept-ranges")), (200, length.to_string(), "bytes".to_owned()));
        assert!(head.bytes().await.unwrap().is_empty());
        let head = read(&app, Method::HEAD, &path, Some(&sam), Some("bytes=0-99")).await;
        assert_eq!((head.status().as_u16(), header(&head, "content-range")), (206, format!("bytes 0-99/{length}")));

        // The download is given with the name it was uploaded with, the lesson listing its size and type.
        let pdf = read(&app, Method::GET, &format!("/learn/{COURSE}/{download}?download"), Some(&sam), None).await;
        assert_eq!((pdf.status().as_u16(), header(&pdf, "content-type")), (200, "application/pdf".to_owned()));
        assert!(header(&pdf, "content-disposition").starts_with("attachment; filename=\"The cell - summary sheet.pdf\""), "{}", header(&pdf, "content-disposition"));
        assert_eq!(pdf.bytes().await.unwrap().to_vec(), pack_bytes(&download));
        let slug = &curriculum().modules[0].lessons[0].slug;
        let lesson = crate::learning::page(&app, &format!("/learn/{COURSE}/{slug}/"), Some(&sam)).await;
        assert_eq!(lesson["page"]["video"], serde_json::json!({ "source": "file", "url": path }));
        let listed = &lesson["page"]["downloads"][0];
        assert_eq!((listed["url"].as_str(), listed["format"].as_str(), listed["bytes"].as_u64()),
            (Some(format!("/learn/{COURSE}/{download}?download").as_str()), Some("PDF"), Some(pack_bytes(&download).len() as u64)));
    }

    async fn a_course_file_opens_only_to_who_may_study_a_course_that_names_it(app: TestApp) {
        let sam = student_with_the_course(&app, "sam.student@example.com").await;
        let (video, _) = demo_files();
        let path = format!("/learn/{COURSE}/{video}");
        assert_eq!(status(&app, &path, Some(&sam)).await, 200);

        // Signed out, another account, a student of another course through either address.
        let ann = verified_account(&app, "ann.other@example.com").await;
        let bea = student_with(&app, "bea.scorm@example.com", "infection-prevention-online").await;
        for (token, path) in [(None, path.clone()), (Some(&ann), path.clone()), (Some(&bea), path.clone()), (Some(&bea), format!("/learn/infection-prevention-online/{video}"))] {
            assert_eq!(status(&app, &path, token.map(String::as_str)).await, 404, "{path} for {token:?}");
        }
        // A file no lesson of the course names, and a known key under another extension.
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (created, spare) = upload_file(&editor, &app, "Spare notes.pdf", pack_bytes(&demo_files().1)).await;
        assert_eq!(created, 201, "{spare}");
        assert_eq!(status(&app, &format!("/learn/{COURSE}/{}", spare["fileName"].as_str().unwrap()), Some(&sam)).await, 404);
        assert_eq!(status(&app, &path.replace(".webm", ".mp4"), Some(&sam)).await, 404);
        assert_eq!(status(&app, &format!("/learn/{COURSE}/files/0123.webm"), Some(&sam)).await, 404);

        // Staff read any course file in the back office, in ranges too; a role without content may not.
        let file = video.trim_start_matches("files/");
        let staff_read = editor.get(app.url(&format!("/api/admin/course-files/{file}"))).header("range", "bytes=0-9").send().await.unwrap();
        assert_eq!((staff_read.status().as_u16(), staff_read.bytes().await.unwrap().to_vec()), (206, pack_bytes(&video)[..10].to_vec()));
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        assert_eq!(tutor.get(app.url(&format!("/api/admin/course-files/{file}"))).send().await.unwrap().status(), 403);

        // Access that ended, or was taken back, closes the files at once.
        let ended = Utc::now() - Duration::days(1);
        on_pool!(app.db(), pool => sqlx::query("update online_registration set ends_at = $1 where course_id = $2").bind(ended).bind(COURSE)
            .execute(pool).await.map(drop)).unwrap();
        assert_eq!(status(&app, &path, Some(&sam)).await, 404, "expired");
        let later = Utc::now() + Duration::days(30);
        on_pool!(app.db(), pool => sqlx::query("update online_registration set ends_at = $1, revoked_at = $2 where course_id = $3")
            .bind(later).bind(Utc::now()).bind(COURSE).execute(pool).await.map(drop)).unwrap();
        assert_eq!(status(&app, &path, Some(&sam)).await, 404, "revoked");
    }

    async fn uploads_are_known_by_their_bytes_and_a_refusal_keeps_nothing(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (video, download) = demo_files();
        let accepted: [(&str, Vec<u8>, &str, &str); 4] = [
            ("Peel demo.mp4", MP4.to_vec(), "video/mp4", "mp4"),
            ("Peel demo.webm", pack_bytes(&video), "video/webm", "webm"),
            ("Aftercare talk.mp3", MP3.to_vec(), "audio/mpeg", "mp3"),
            ("Aftercare.pdf", pack_bytes(&download), "application/pdf", "pdf"),
        ];
        for (name, bytes, content_type, extension) in accepted {
            let before = audit_rows(&app).await;
            let (status, kept) = upload_file(&editor, &app, name, bytes.clone()).await;
            assert_eq!(status, 201, "{name}: {kept}");
            let key = kept["key"].as_str().unwrap();
            assert_eq!((kept["fileName"].as_str().unwrap(), kept["contentType"].as_str().unwrap()), (format!("files/{key}.{extension}").as_str(), content_type));
            assert_eq!((kept["bytes"].as_u64(), kept["originalName"].as_str()), (Some(bytes.len() as u64), Some(name)));
            assert_eq!(audit_rows(&app).await, before + 1, "one audit row per upload");
        }
        let (_, library) = admin(&editor, &app, "GET", "/course-files", None).await;
        let files = library["files"].as_array().unwrap();
        assert_eq!(files[0]["originalName"], "Aftercare.pdf", "newest first: {library}");
        let demo = files.iter().find(|file| file["fileName"] == video.as_str()).unwrap();
        assert_eq!(demo["usedBy"][0]["courseId"], COURSE, "where it is used: {demo}");
        assert_eq!((demo["usedBy"][0]["published"].as_bool(), demo["format"].as_str()), (Some(true), Some("WebM")));

        let (files_before, rows_before, audit_before) = (stored_files(&app), course_file_rows(&app).await, audit_rows(&app).await);
        let mut program = b"MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff\0\0".to_vec();
        program.resize(4096, 0);
        let mut oversized = b"%PDF-1.7\n".to_vec();
        oversized.resize(50 * 1024 * 1024 + 1, b' ');
        let refused: [(&str, Vec<u8>, &str); 4] = [
            ("lesson.mp4", program, "This is not a file a lesson can use. Upload an MP4 or WebM video, an MP3 recording or a PDF."),
            ("handout.pdf", b"<!doctype html><script>alert(1)</script>".to_vec(), "This is not a file a lesson can use"),
            ("empty.pdf", Vec::new(), "The file is empty."),
            ("big.pdf", oversized, "A PDF is too large: keep it to 50 MB or less."),
        ];
        for (name, bytes, message) in refused {
            let (status, answer) = upload_file(&editor, &app, name, bytes).await;
            assert_eq!(status, 422, "{name}: {answer}");
            assert!(answer["error"]["message"].as_str().unwrap().starts_with(message), "{name}: {answer}");
        }
        assert_eq!((stored_files(&app), course_file_rows(&app).await, audit_rows(&app).await), (files_before, rows_before, audit_before), "nothing is kept");

        // Only staff with content upload, and only from the site's own pages.
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        assert_eq!(upload_file(&tutor, &app, "a.mp4", MP4.to_vec()).await.0, 403);
        assert_eq!(upload_file(&app.client, &app, "a.mp4", MP4.to_vec()).await.0, 401);
        let foreign = editor.post(app.url("/api/admin/course-files?name=a.mp4")).header("origin", "https://evil.example")
            .header("content-type", "application/octet-stream").body(MP4.to_vec()).send().await.unwrap();
        assert_eq!(foreign.status(), 403);
        let elsewhere = editor.post(app.url("/api/admin/media")).header("content-type", "application/octet-stream").body(MP4.to_vec()).send().await.unwrap();
        assert_eq!(elsewhere.status(), 415, "a raw body is taken by the course files' upload only");
        assert_eq!(stored_files(&app), files_before);
    }

    async fn a_file_a_course_uses_stays_and_one_removed_is_gone_from_the_store(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (video, download) = demo_files();
        let (status, answer) = admin(&editor, &app, "DELETE", &format!("/course-files/{}", video.trim_start_matches("files/")), None).await;
        assert_eq!(status, 409, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("Level 3 Anatomy and Physiology for Aesthetics Online (published)"), "{message}");

        let (_, spare) = upload_file(&editor, &app, "Spare.pdf", pack_bytes(&download)).await;
        let file = spare["fileName"].as_str().unwrap().trim_start_matches("files/").to_owned();
        let (files_before, audit_before) = (stored_files(&app), audit_rows(&app).await);
        assert_eq!(admin(&editor, &app, "DELETE", &format!("/course-files/{file}"), None).await.0, 204);
        assert_eq!((stored_files(&app), audit_rows(&app).await), (files_before - 1, audit_before + 1), "the bytes are gone, the removal audited");
        assert_eq!(editor.get(app.url(&format!("/api/admin/course-files/{file}"))).send().await.unwrap().status(), 404);
        assert_eq!(admin(&editor, &app, "DELETE", &format!("/course-files/{file}"), None).await.0, 404);
    }

    async fn a_pack_whose_course_file_is_not_what_its_name_says_does_not_load(app: TestApp) {
        let dir = std::env::temp_dir().join(format!("enrol-pack-{}", uuid::Uuid::new_v4().simple()));
        copy_dir(&repo_root().join("content"), &dir);
        std::fs::write(dir.join("course-files/abcdef.webm"), MP4).unwrap();
        std::fs::write(dir.join("course-files.yaml"), "- file: files/abcdef.webm\n  name: Demo.webm\n").unwrap();
        let mut config = app.state.config.clone();
        config.content_dir = dir.clone();
        let refused = enrol_server::execute(Command::LoadContent, config.clone()).await.unwrap_err();
        assert!(format!("{refused:#}").contains("its bytes are MP4, not WebM"), "{refused:#}");
        std::fs::write(dir.join("course-files/abcdef.webm"), b"MZ\x90\0\x03\0\0\0 a program").unwrap();
        let refused = enrol_server::execute(Command::LoadContent, config.clone()).await.unwrap_err();
        assert!(format!("{refused:#}").contains("This is not a file a lesson can use"), "{refused:#}");
        std::fs::write(dir.join("course-files.yaml"), "- file: ../../etc/passwd\n  name: Secrets\n").unwrap();
        let refused = enrol_server::execute(Command::LoadContent, config).await.unwrap_err();
        assert!(format!("{refused:#}").contains("is not a course file's name"), "{refused:#}");
        assert_eq!(app.state.files.get("abcdef").await.unwrap(), None, "nothing kept");
        assert_eq!(course_file_rows(&app).await, 2, "the demo's two");
        let _ = std::fs::remove_dir_all(dir);
        app.stop().await;
    }
}
