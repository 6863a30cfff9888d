//! The file store in an S3-compatible bucket (`ENROL_S3_*`), against moto
//! (PyPI, 5.x, installed and started by `scripts/moto-s3`), a stand-in for
//! S3 that keeps objects in memory: an uploaded image lands in the bucket,
//! not on disk, and is served and resized from there; a key with no object
//! is a 404, not an error; a course file streams in as a multipart upload
//! and is read back in ranges. Outside CI the test prints SKIPPED when moto
//! cannot be installed; under `CI=true` that fails it.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::StreamExt as _;

use enrol_domain::staff::Role;
use enrol_server::file_store::{FileStore as _, S3Config, S3Store};

use crate::admin::staff_member;
use crate::admin_media::{PNG, resized, served, upload};
use crate::course_files::{MP4, demo_files, pack_bytes, upload_file};
use crate::helpers::{Backend, repo_root, spawn_app_with};
use crate::learning::{COURSE, as_student, student_with_the_course};

const BUCKET: &str = "enrol-media";

/// A moto server on a free port, killed when dropped.
struct Moto {
    base: String,
    process: Child,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

impl Moto {
    /// Installs moto when missing and starts it; `None` (SKIPPED) when it
    /// cannot be installed here, outside CI.
    fn start() -> Option<Moto> {
        let script = repo_root().join("scripts/moto-s3");
        let install = Command::new(&script).arg("install").stdin(Stdio::null()).output().expect("scripts/moto-s3 runs");
        let why = String::from_utf8_lossy(&install.stderr).trim().to_owned();
        match install.status.code() {
            Some(0) => {}
            Some(3) if std::env::var("CI").is_ok_and(|v| v == "true") => {
                panic!("moto cannot be installed, and CI=true requires it:\n{why}")
            }
            Some(3) => {
                let _ = writeln!(std::io::stderr(), "SKIPPED: the S3 file store test: {why}");
                return None;
            }
            code => panic!("scripts/moto-s3 install failed (exit status {code:?}):\n{why}"),
        }
        let mut process = Command::new(&script)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("scripts/moto-s3 starts");
        let mut line = String::new();
        BufReader::new(process.stdout.take().expect("piped stdout")).read_line(&mut line).expect("moto says where it listens");
        let base = line.trim().strip_prefix("moto listening on ").map(str::to_owned);
        let moto = Moto { base: base.clone().unwrap_or_default(), process };
        assert!(base.is_some(), "moto did not start: it said {line:?}");
        Some(moto)
    }

    fn config(&self) -> S3Config {
        S3Config {
            bucket: BUCKET.to_owned(),
            region: "eu-west-2".to_owned(),
            endpoint: Some(self.base.clone()),
            access_key_id: "testing".to_owned(),
            secret_access_key: "testing".to_owned(),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_go_to_the_bucket_and_are_served_and_resized_from_it() {
    let Some(moto) = tokio::task::spawn_blocking(Moto::start).await.unwrap() else { return };
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let bucket = format!("{}/{BUCKET}", moto.base);
    let made =
        http.put(&bucket).body("<CreateBucketConfiguration><LocationConstraint>eu-west-2</LocationConstraint></CreateBucketConfiguration>");
    assert!(made.send().await.unwrap().status().is_success(), "the bucket is made");

    let config = moto.config();
    let app = spawn_app_with(Backend::Sqlite, |c| c.s3 = Some(config)).await.unwrap();
    let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
    let (status, media) = upload(&editor, &app, "A photo", PNG).await;
    assert_eq!(status, 201, "{media}");
    let (key, file_name) = (media["key"].as_str().unwrap(), media["fileName"].as_str().unwrap());
    // Read back through a store of its own, as another instance would.
    let store = S3Store::new(&moto.config()).unwrap();
    let kept = store.get(key).await.unwrap().expect("the object is in the bucket");
    assert_eq!(kept.len() as i64, media["bytes"].as_i64().unwrap());
    assert!(!app.state.config.uploads_dir.exists(), "nothing on disk");

    let response = served(&app, file_name).await;
    assert_eq!((response.status().as_u16(), response.bytes().await.unwrap().to_vec()), (200, kept));
    assert_eq!(resized(&app, file_name, 32).await, (200, "image/webp".to_owned()));

    assert_eq!(store.get("abcdef").await.unwrap(), None, "no object is None");
    assert!(store.put("../escape", b"x").await.is_err());
    app.stop().await;
}

/// The keys of the objects in the bucket, and the multipart uploads left unfinished.
async fn bucket_listing(http: &reqwest::Client, moto: &Moto) -> (usize, usize) {
    let count = |xml: &str, tag: &str| xml.matches(tag).count();
    let objects = http.get(format!("{}/{BUCKET}", moto.base)).send().await.unwrap().text().await.unwrap();
    let uploads = http.get(format!("{}/{BUCKET}?uploads", moto.base)).send().await.unwrap().text().await.unwrap();
    (count(&objects, "<Key>"), count(&uploads, "<UploadId>"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn course_files_stream_into_the_bucket_and_are_read_from_it_in_ranges() {
    let Some(moto) = tokio::task::spawn_blocking(Moto::start).await.unwrap() else { return };
    let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
    let made = http
        .put(format!("{}/{BUCKET}", moto.base))
        .body("<CreateBucketConfiguration><LocationConstraint>eu-west-2</LocationConstraint></CreateBucketConfiguration>");
    assert!(made.send().await.unwrap().status().is_success(), "the bucket is made");
    let config = moto.config();
    let app = spawn_app_with(Backend::Sqlite, |c| c.s3 = Some(config)).await.unwrap();

    // The demo's lesson video came from the pack into the bucket; its student reads it in ranges.
    let sam = student_with_the_course(&app, "sam.student@example.com").await;
    let (video, _) = demo_files();
    let bytes = pack_bytes(&video);
    let path = format!("/learn/{COURSE}/{video}");
    let part = as_student(&app, reqwest::Method::GET, &path, Some(&sam)).header("range", "bytes=100-199").send().await.unwrap();
    assert_eq!(part.status(), 206);
    assert_eq!(part.bytes().await.unwrap().to_vec(), bytes[100..200]);
    let suffix = as_student(&app, reqwest::Method::GET, &path, Some(&sam)).header("range", "bytes=-50").send().await.unwrap();
    assert_eq!(suffix.bytes().await.unwrap().to_vec(), bytes[bytes.len() - 50..]);

    // An upload goes to the bucket as a multipart upload; a refused one leaves nothing, not even its parts.
    let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
    let before = bucket_listing(&http, &moto).await;
    let (status, kept) = upload_file(&editor, &app, "Peel demo.mp4", MP4.to_vec()).await;
    assert_eq!(status, 201, "{kept}");
    let store = S3Store::new(&moto.config()).unwrap();
    assert_eq!(store.get(kept["key"].as_str().unwrap()).await.unwrap().as_deref(), Some(MP4));
    assert_eq!(bucket_listing(&http, &moto).await, (before.0 + 1, 0));
    // A PDF that passes its limit only once several parts are in the bucket, sent without its length.
    let megabyte = bytes::Bytes::from(vec![b' '; 1024 * 1024]);
    let chunks = std::iter::once(bytes::Bytes::from_static(b"%PDF-1.7\n")).chain(std::iter::repeat_n(megabyte, 51)).map(Ok);
    let refused = enrol_server::course_files::store(&store, "abcdef0123", futures_util::stream::iter(chunks).boxed(), None).await;
    assert_eq!(refused.unwrap_err().to_string(), "A PDF is too large: keep it to 50 MB or less.");
    assert_eq!(bucket_listing(&http, &moto).await, (before.0 + 1, 0), "nothing of the refused file is kept, not even its parts");
    assert!(!app.state.config.uploads_dir.exists(), "nothing on disk");
    app.stop().await;
}
