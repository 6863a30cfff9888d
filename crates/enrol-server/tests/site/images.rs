//! `/_next/image/`: content images resized to WebP, cached on disk.
//!
//! Images need no page rendering, so this app runs with a stand-in page
//! bundle instead of the web build, over SQLite only.

use std::path::{Path, PathBuf};

use enrol_server::App;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::helpers::{Backend, TestDatabase, fresh_database, test_config};

const STAND_IN_BUNDLE: &str = "globalThis.EnrolSSR = { render: () => '<main>stand-in</main>' };";
const STAND_IN_MANIFEST: &str = r#"{"src/entry-client.tsx": {"file": "assets/entry-client.js", "isEntry": true}}"#;

struct ImageApp {
    address: String,
    client: reqwest::Client,
    scratch: PathBuf,
    cache: PathBuf,
    stop: oneshot::Sender<()>,
    server: tokio::task::JoinHandle<anyhow::Result<()>>,
    database: TestDatabase,
}

impl ImageApp {
    async fn start() -> Self {
        Self::start_with(|_, _| {}).await
    }

    /// With `change` made to the configuration, given the app's own scratch folder.
    async fn start_with(change: impl FnOnce(&mut enrol_server::config::Config, &Path)) -> Self {
        let database = fresh_database(Backend::Sqlite).await.expect("SQLite is always available");
        let scratch = std::env::temp_dir().join(format!("enrol-images-{}", uuid::Uuid::now_v7().simple()));
        let web = scratch.join("web");
        std::fs::create_dir_all(web.join("server")).unwrap();
        std::fs::create_dir_all(web.join("client/.vite")).unwrap();
        std::fs::write(web.join("server/entry-server.js"), STAND_IN_BUNDLE).unwrap();
        std::fs::write(web.join("client/.vite/manifest.json"), STAND_IN_MANIFEST).unwrap();
        let mut config = test_config(database.url.clone());
        config.web_dist = web;
        config.image_cache = scratch.join("image-cache");
        change(&mut config, &scratch);
        let cache = config.image_cache.clone();
        let app = App::build(config).await.expect("app builds");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = format!("http://{}", listener.local_addr().expect("address"));
        let (stop, stopped) = oneshot::channel::<()>();
        let server = tokio::spawn(app.serve(listener, async {
            let _ = stopped.await;
        }));
        ImageApp { address, client: reqwest::Client::new(), scratch, cache, stop, server, database }
    }

    async fn image(&self, path: &str, params: &[(&str, &str)], etag: Option<&str>) -> reqwest::Response {
        let mut request = self.client.get(format!("{}{path}", self.address)).query(params);
        if let Some(etag) = etag {
            request = request.header("if-none-match", etag);
        }
        request.send().await.expect("request")
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        self.server.await.expect("server task").expect("server ran");
        self.database.drop_now().await;
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// Width and height from a WebP file's headers (lossy, lossless or extended).
fn webp_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.len() > 30, "{} bytes", bytes.len());
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WEBP");
    let data = &bytes[20..];
    let u24 = |at: usize| u32::from(data[at]) | u32::from(data[at + 1]) << 8 | u32::from(data[at + 2]) << 16;
    match &bytes[12..16] {
        b"VP8 " => {
            assert_eq!(&data[3..6], [0x9d, 0x01, 0x2a], "VP8 key frame start code");
            let width = u32::from(u16::from_le_bytes([data[6], data[7]]) & 0x3fff);
            let height = u32::from(u16::from_le_bytes([data[8], data[9]]) & 0x3fff);
            (width, height)
        }
        b"VP8L" => {
            assert_eq!(data[0], 0x2f, "VP8L signature");
            let bits = u32::from_le_bytes([data[1], data[2], data[3], data[4]]);
            ((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1)
        }
        b"VP8X" => (u24(4) + 1, u24(7) + 1),
        other => panic!("unknown WebP chunk {other:?}"),
    }
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files = Vec::new();
    for entry in entries.map(|e| e.unwrap().path()) {
        if entry.is_dir() { files.extend(files_in(&entry)) } else { files.push(entry) }
    }
    files
}

async fn error_code(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let body: Value = response.json().await.expect("a JSON error");
    (status, body["error"]["code"].as_str().unwrap_or_default().to_owned())
}

/// The content pack at `pack` copied into `scratch`, with `images` added
/// to its images folder: files kept before anything checked them.
fn content_with(pack: &Path, scratch: &Path, images: &[(String, &[u8])]) -> PathBuf {
    let content = scratch.join("content");
    for file in files_in(pack) {
        let copy = content.join(file.strip_prefix(pack).unwrap());
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(&file, &copy).unwrap();
    }
    for (name, bytes) in images {
        std::fs::write(content.join("images").join(name), bytes).unwrap();
    }
    content
}

const BB_GLOW: &str = "/media/courses/bb-glow.svg";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_images_are_resized_to_webp_and_cached() {
    let app = ImageApp::start().await;

    // The first request renders: 1200 × 800 art at 640 wide.
    let first = app.image("/_next/image/", &[("url", BB_GLOW), ("w", "640"), ("q", "75")], None).await;
    assert_eq!(first.status().as_u16(), 200);
    let headers = first.headers().clone();
    assert_eq!(headers["content-type"], "image/webp");
    assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(headers["x-image-cache"], "MISS");
    let etag = headers["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
    let bytes = first.bytes().await.unwrap();
    assert_eq!(webp_size(&bytes), (640, 427));
    assert_eq!(&bytes[12..16], b"VP8 ", "lossy WebP of opaque art");

    // It is now on disk, and the next request is served from there.
    let cached = files_in(&app.cache);
    assert_eq!(cached.len(), 1, "{cached:?}");
    assert_eq!(std::fs::read(&cached[0]).unwrap(), bytes);
    let second = app.image("/_next/image/", &[("url", BB_GLOW), ("w", "640"), ("q", "75")], None).await;
    assert_eq!(second.status().as_u16(), 200);
    assert_eq!(second.headers()["x-image-cache"], "HIT");
    assert_eq!(second.headers()["etag"].to_str().unwrap(), etag);
    assert_eq!(second.bytes().await.unwrap(), bytes);

    // A browser that has it is told so.
    let again = app.image("/_next/image/", &[("url", BB_GLOW), ("w", "640"), ("q", "75")], Some(&etag)).await;
    assert_eq!(again.status().as_u16(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert!(again.bytes().await.unwrap().is_empty());
    let other = app.image("/_next/image/", &[("url", BB_GLOW), ("w", "640")], Some("\"something-else\"")).await;
    assert_eq!(other.status().as_u16(), 200, "q defaults to 75: the same image");

    // Without the trailing slash, and without q; a large and a small width.
    for (width, height) in [(1920, 1280), (64, 43)] {
        let response = app.image("/_next/image", &[("url", BB_GLOW), ("w", &width.to_string())], None).await;
        assert_eq!(response.status().as_u16(), 200);
        assert_ne!(response.headers()["etag"].to_str().unwrap(), etag);
        assert_eq!(webp_size(&response.bytes().await.unwrap()), (width, height));
    }
    assert_eq!(files_in(&app.cache).len(), 3);

    // Requests the site never makes.
    for params in [
        vec![("url", BB_GLOW), ("w", "123")],
        vec![("url", BB_GLOW)],
        vec![("url", BB_GLOW), ("w", "640"), ("q", "0")],
        vec![("url", BB_GLOW), ("w", "640"), ("q", "30")],
        vec![("url", BB_GLOW), ("w", "640"), ("q", "101")],
        vec![("url", "https://evil.example/x.png"), ("w", "640")],
        vec![("url", "//evil.example/x.png"), ("w", "640")],
        vec![("url", "/media/../Cargo.toml"), ("w", "640")],
        vec![("url", "/media/courses/../../../Cargo.svg"), ("w", "640")],
        vec![("url", "/assets/app.svg"), ("w", "640")],
        vec![("w", "640")],
    ] {
        let response = app.image("/_next/image/", &params, None).await;
        assert_eq!(error_code(response).await, (400, "bad_request".to_owned()), "{params:?}");
    }
    let missing = app.image("/_next/image/", &[("url", "/media/courses/no-such-course.svg"), ("w", "640")], None).await;
    assert_eq!(error_code(missing).await, (404, "not_found".to_owned()));
    let folder = app.image("/_next/image/", &[("url", "/media/courses.svg"), ("w", "640")], None).await;
    assert_eq!(folder.status().as_u16(), 404);
    assert_eq!(files_in(&app.cache).len(), 3, "nothing cached for refused requests");

    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_requests_is_served() {
    let app = ImageApp::start().await;
    let widths = [16, 32, 48, 64, 96, 128, 256, 384];
    let urls = ["/media/courses/bb-glow.svg", "/media/brand/logo.svg", "/media/sections/hair.svg"];
    let mut requests = Vec::new();
    for url in urls {
        for width in widths {
            // Each image twice at once: both get it, whichever makes it.
            for _ in 0..2 {
                let request = app.client.get(format!("{}/_next/image/?url={url}&w={width}", app.address));
                requests.push((width, tokio::spawn(request.send())));
            }
        }
    }
    for (width, request) in requests {
        let response = request.await.unwrap().expect("response");
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(webp_size(&response.bytes().await.unwrap()).0, width);
    }
    assert_eq!(files_in(&app.cache).len(), urls.len() * widths.len());
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cache_stays_under_its_size_limit() {
    const LIMIT: u64 = 4_000;
    let app = ImageApp::start_with(|config, _| config.image_cache_max_bytes = LIMIT).await;
    let mut served = 0;
    for width in [64, 96, 128, 256, 384, 640, 750, 828] {
        let response = app.image("/_next/image/", &[("url", BB_GLOW), ("w", &width.to_string())], None).await;
        assert_eq!(response.status().as_u16(), 200, "a trimmed cache still answers");
        assert_eq!(webp_size(&response.bytes().await.unwrap()).0, width);
        served += 1;
    }
    let files = files_in(&app.cache);
    let bytes: u64 = files.iter().map(|f| std::fs::metadata(f).unwrap().len()).sum();
    assert!(bytes <= LIMIT, "{bytes} bytes cached over a limit of {LIMIT}");
    assert!(files.len() < served, "{} files kept of {served}", files.len());
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rendition_asked_for_many_times_at_once_is_made_once() {
    let app = ImageApp::start().await;
    let url = format!("{}/_next/image/?url={BB_GLOW}&w=1920", app.address);
    let requests: Vec<_> = (0..6).map(|_| tokio::spawn(app.client.get(&url).send())).collect();
    let mut made = Vec::new();
    let mut images = Vec::new();
    for request in requests {
        let response = request.await.unwrap().expect("response");
        assert_eq!(response.status().as_u16(), 200);
        made.push(response.headers()["x-image-cache"].to_str().unwrap().to_owned());
        images.push(response.bytes().await.unwrap());
    }
    // One made it; the others waited for it (or, coming later, found it).
    assert_eq!(made.iter().filter(|how| *how == "MISS").count(), 1, "{made:?}");
    assert!(made.iter().all(|how| ["MISS", "SHARED", "HIT"].contains(&how.as_str())), "{made:?}");
    assert!(images.iter().all(|image| *image == images[0]), "every request is served the same image");
    assert_eq!(files_in(&app.cache).len(), 1);
    app.stop().await;
}

const STALLING_SVG: &[u8] = include_bytes!("../../../enrol-images/tests/fixtures/stalling-filters.svg");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_svg_kept_from_before_its_filters_were_counted_is_refused_without_drawing() {
    let app = ImageApp::start_with(|config, scratch| {
        config.content_dir = content_with(&config.content_dir, scratch, &[("stalling.svg".to_owned(), STALLING_SVG)]);
    })
    .await;
    // Drawn, each would hold a core for minutes; two at once, two cores.
    let requests: Vec<_> = ["16", "640", "640", "3840"]
        .into_iter()
        .map(|width| tokio::spawn(app.client.get(format!("{}/_next/image/?url=/media/stalling.svg&w={width}", app.address)).send()))
        .collect();
    for request in requests {
        let response = request.await.unwrap().expect("response");
        assert_eq!(error_code(response).await, (422, "unprocessable".to_owned()));
    }
    let thumbnail = app.image("/_next/image/", &[("url", BB_GLOW), ("w", "64")], None).await;
    assert_eq!(thumbnail.status().as_u16(), 200);
    assert_eq!(files_in(&app.cache).len(), 1, "only the thumbnail is cached");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_slow_to_make_is_answered_503_while_others_are_served_and_is_cached_after() {
    // As many slow images as the server makes at once (one per core), each
    // a circle outlined as widely as a resize may draw: seconds of work at
    // 3840 pixels, though far within the deadline at a phone's width.
    let slow_svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><filter id="outline"><feMorphology operator="dilate" radius="4"/></filter><rect width="1200" height="800" fill="#e7adb8"/><circle cx="600" cy="400" r="150" fill="#4a2445" filter="url(#outline)"/></svg>"##;
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    let slow: Vec<(String, &[u8])> = (0..cores).map(|n| (format!("slow-{n}.svg"), &slow_svg[..])).collect();
    let app = ImageApp::start_with(|config, scratch| {
        config.content_dir = content_with(&config.content_dir, scratch, &slow);
        config.image_deadline = std::time::Duration::from_millis(300);
    })
    .await;
    let slow_url = |name: &str| format!("{}/_next/image/?url=/media/{name}&w=3840", app.address);
    let requests: Vec<_> = slow.iter().map(|(name, _)| tokio::spawn(app.client.get(slow_url(name)).send())).collect();
    for request in requests {
        let response = request.await.unwrap().expect("response");
        assert_eq!(error_code(response).await, (503, "unavailable".to_owned()));
    }
    // Every core is still busy with them, yet a thumbnail is made at once.
    let thumbnail = app.image("/_next/image/", &[("url", BB_GLOW), ("w", "64")], None).await;
    assert_eq!((thumbnail.status().as_u16(), thumbnail.headers()["x-image-cache"].to_str().unwrap()), (200, "MISS"));
    assert_eq!(files_in(&app.cache).len(), 1, "the thumbnail was served before any slow image was made");
    // The slow ones are made all the same, and served once there.
    let made = std::time::Instant::now();
    while files_in(&app.cache).len() < 1 + cores {
        assert!(made.elapsed() < std::time::Duration::from_secs(120), "the slow images are cached in the end");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let again = app.client.get(slow_url(&slow[0].0)).send().await.unwrap();
    assert_eq!((again.status().as_u16(), again.headers()["x-image-cache"].to_str().unwrap()), (200, "HIT"));
    assert_eq!(webp_size(&again.bytes().await.unwrap()), (3840, 2560));
    app.stop().await;
}
