//! `GET /_next/image/?url=/media/<path>&w=<width>&q=<quality>`: a content
//! image resized to one of the widths the pages ask for, as lossy WebP, in
//! the shape of Next.js's image optimiser (docs/product.md#pages).
//!
//! An image staff uploaded (`/media/uploads/<key>.<ext>`, decision 018) is
//! read from the file store; any other from the content pack's `images/`.
//!
//! Each result is kept on disk in `ENROL_IMAGE_CACHE` under a key made of
//! the source's path, version (a content file's modification time and
//! size; an upload's key, which never names other bytes), the width and the
//! quality, so an edited image gets new URLs' worth of cache entries and the
//! old ones are simply never asked for again. The key is also the ETag, and
//! the response may be cached by browsers and CDNs for a year.
//!
//! The cache is kept under a size limit ([`crate::images::ImageCache`]), and only the one
//! quality the pages use is made, so nobody can fill the disk by asking
//! for every quality of every image.
//!
//! Resizing is CPU work: it runs on the blocking pool, at most one image per
//! core at a time, so a burst of requests queues instead of exhausting
//! memory. Each rendition is made once: requests that ask for it while it
//! is being made wait for that one and are served its result
//! (`X-Image-Cache: SHARED`), or its failure. A request waits at most
//! `ENROL_IMAGE_SECONDS` for it (then 503); the image is still made and
//! cached, apart, and the next image need not wait for it. An SVG whose
//! drawing would take too long (its filters, mostly) is refused with 422
//! before any is drawn.

use std::collections::HashMap;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Instant, UNIX_EPOCH};

use anyhow::Context as _;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use serde::Deserialize;
use sha2::{Digest as _, Sha256};
use tokio::sync::watch;

use enrol_images::{ImageRequest, MAX_SOURCE_BYTES, Pixels, RenderError, media_path};

use crate::AppState;
use crate::http::{ApiError, IMMUTABLE, media};
use crate::images::{ImageWorkError, image_work, renderer};

/// Changes whenever the same request would give different bytes, so that
/// old cache entries and ETags are left behind.
const RENDER_VERSION: &str = "enrol-images 1";
const X_IMAGE_CACHE: HeaderName = HeaderName::from_static("x-image-cache");

/// A rendition's WebP bytes and how they were had (`MISS`: made; `HIT`:
/// found made), or why there are none.
type Made = Result<(Bytes, &'static str), ApiError>;

/// The renditions being made, by cache file (which names the instance's
/// cache too): each request for one waits for its result here.
static MAKING: LazyLock<Mutex<HashMap<PathBuf, watch::Receiver<Option<Made>>>>> = LazyLock::new(Mutex::default);

/// A rendition listed in [`MAKING`] until this is dropped: when the work
/// on it ends, also if that is after its requests stopped waiting.
struct Making(PathBuf);

impl Drop for Making {
    fn drop(&mut self) {
        if let Ok(mut making) = MAKING.lock() {
            making.remove(&self.0);
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct ImageQuery {
    url: Option<String>,
    w: Option<String>,
    q: Option<String>,
}

pub async fn show_image(
    State(state): State<Arc<AppState>>,
    query: Result<Query<ImageQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
    let request = ImageRequest::parse(query.url.as_deref(), query.w.as_deref(), query.q.as_deref())
        .map_err(|error| ApiError::BadRequest(error.to_string()))?;
    // An uploaded image is read from the file store, and its key names its
    // bytes; a content image is a file, named by its time and size.
    let source = Source::of(&state, &request.path);
    let version = match &source {
        Source::Upload(file) => media::upload_key(file).ok_or(ApiError::NotFound)?.to_owned(),
        Source::Content(path) => content_version(path).await?,
    };
    let key = cache_key(&request, &version);
    let etag = format!("\"{key}\"");
    if headers.get(header::IF_NONE_MATCH).is_some_and(|value| etag_matches(value, &etag)) {
        return Ok(not_modified(&etag));
    }
    let cached = cache_path(&state.config.image_cache, &key);
    if let Some(bytes) = read_cached(&cached).await {
        return Ok(image_response(&etag, bytes, "HIT"));
    }

    let (mut made, lead) = {
        let mut making = MAKING.lock().map_err(|_| anyhow::anyhow!("The list of images being made is poisoned"))?;
        match making.get(&cached) {
            Some(made) => (made.clone(), None),
            None => {
                let (answer, made) = watch::channel(None);
                making.insert(cached.clone(), made.clone());
                (made, Some((answer, Making(cached))))
            }
        }
    };
    let shared = lead.is_none();
    if let Some((answer, making)) = lead {
        let work = make(Arc::clone(&state), source, request, making);
        tokio::spawn(async move {
            answer.send_replace(Some(work.await));
        });
    }
    let answer = made.wait_for(Option::is_some).await.map_err(|_| anyhow::anyhow!("The image was given up without an answer"))?;
    match answer.as_ref().context("waited for an answer")? {
        Ok((webp, how)) => Ok(image_response(&etag, webp.clone(), if shared { "SHARED" } else { how })),
        Err(error) => Err(again(error)),
    }
}

/// One rendition made and cached, unless another request made it just now.
async fn make(state: Arc<AppState>, source: Source, request: ImageRequest, making: Making) -> Made {
    let cached = making.0.clone();
    if let Some(bytes) = read_cached(&cached).await {
        return Ok((bytes.into(), "HIT"));
    }
    let data = source.read(&state).await?;
    let started = Instant::now();
    let job = request.clone();
    let cache_state = Arc::clone(&state);
    let encoded = image_work(state.config.image_deadline, move || {
        let _making = making;
        let encoded = renderer().render(&data, job.format, job.width, job.quality)?;
        match write_atomically(&cached, &encoded.webp) {
            Ok(()) => cache_state.image_cache.written(&cache_state.config.image_cache, encoded.webp.len()),
            Err(error) => tracing::warn!(error = %error, path = %cached.display(), "Failed to cache a resized image"),
        }
        Ok::<_, RenderError>(encoded)
    })
    .await?
    .map_err(|error| match error {
        RenderError::TooLarge { .. } => ApiError::BadRequest(format!("The image cannot be resized: {error}.")),
        RenderError::TooCostly => ApiError::Unprocessable(format!("The image cannot be resized: {error}.")),
        other => anyhow::Error::new(other).context(format!("Failed to resize /media/{}", request.path)).into(),
    })?;
    tracing::info!(
        path = %request.path,
        width = encoded.width,
        height = encoded.height,
        quality = request.quality,
        bytes = encoded.webp.len(),
        elapsed_ms = started.elapsed().as_millis() as u64,
        "Image resized"
    );
    Ok((encoded.webp.into(), "MISS"))
}

/// The answer a request that waited for another's work gives: the same.
fn again(error: &ApiError) -> ApiError {
    match error {
        ApiError::BadRequest(message) => ApiError::BadRequest(message.clone()),
        ApiError::Unprocessable(message) => ApiError::Unprocessable(message.clone()),
        ApiError::Unavailable(message) => ApiError::Unavailable(message.clone()),
        ApiError::NotFound => ApiError::NotFound,
        ApiError::Internal(error) => ApiError::Internal(anyhow::anyhow!("{error:#}")),
        other => ApiError::Internal(anyhow::anyhow!("{other}")),
    }
}

/// Image work past its deadline is worth asking for again: it goes on and
/// caches its result.
impl From<ImageWorkError> for ApiError {
    fn from(error: ImageWorkError) -> Self {
        match error {
            ImageWorkError::Overdue(_) => {
                ApiError::Unavailable("The image is taking a while to make. Please try again in a minute.".to_owned())
            }
            ImageWorkError::Failed(error) => ApiError::Internal(error),
        }
    }
}

/// The site image at `url` (`/media/…`, the content pack's or an upload)
/// as pixels `width` wide, for a document that embeds it; drawn on the
/// blocking pool with the resizes.
pub(crate) async fn site_image_pixels(state: &AppState, url: &str, width: u32) -> anyhow::Result<Pixels> {
    let (path, format) = media_path(url).with_context(|| format!("{url} is not a site image"))?;
    let data = Source::of(state, path).read(state).await.map_err(anyhow::Error::new).with_context(|| format!("Failed to read {url}"))?;
    image_work(state.config.image_deadline, move || renderer().pixels(&data, format, width))
        .await?
        .with_context(|| format!("Failed to draw {url}"))
}

/// Where an image's bytes are.
enum Source {
    Content(PathBuf),
    /// The file's name below `/media/uploads/`.
    Upload(String),
}

impl Source {
    /// The source of the image at `path` below the media folder.
    fn of(state: &AppState, path: &str) -> Self {
        match path.strip_prefix(media::UPLOADS) {
            Some(file) => Source::Upload(file.to_owned()),
            None => Source::Content(state.config.content_dir.join("images").join(path)),
        }
    }

    async fn read(&self, state: &AppState) -> Result<Vec<u8>, ApiError> {
        Ok(match self {
            Source::Content(path) => tokio::fs::read(path).await.with_context(|| format!("Failed to read {}", path.display()))?,
            Source::Upload(file) => media::read_upload(state, file).await?.1,
        })
    }
}

/// A content image's modification time and size, once it is found to be a
/// file of at most [`MAX_SOURCE_BYTES`].
async fn content_version(path: &Path) -> Result<String, ApiError> {
    let metadata = match tokio::fs::metadata(path).await {
        Ok(metadata) if metadata.is_file() => metadata,
        Ok(_) => return Err(ApiError::NotFound),
        Err(error) if matches!(error.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory) => {
            return Err(ApiError::NotFound);
        }
        Err(error) => return Err(anyhow::Error::new(error).context(format!("Failed to read {}", path.display())).into()),
    };
    if metadata.len() > MAX_SOURCE_BYTES {
        return Err(ApiError::BadRequest("The image is too large to resize.".to_owned()));
    }
    Ok(file_version(&metadata))
}

fn file_version(metadata: &std::fs::Metadata) -> String {
    let modified = metadata.modified().ok().and_then(|time| time.duration_since(UNIX_EPOCH).ok()).map_or(0, |since| since.as_nanos());
    format!("{modified} {}", metadata.len())
}

/// A stable name for one rendition of one `version` of a source file.
fn cache_key(request: &ImageRequest, version: &str) -> String {
    let mut hash = Sha256::new();
    for part in [RENDER_VERSION, &request.path, version, &request.width.to_string(), &request.quality.to_string()] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.finalize()[..16].iter().map(|byte| format!("{byte:02x}")).collect()
}

fn cache_path(cache_dir: &Path, key: &str) -> PathBuf {
    cache_dir.join(&key[..2]).join(format!("{key}.webp"))
}

/// A cached file, if it is there and whole.
async fn read_cached(path: &Path) -> Option<Vec<u8>> {
    let bytes = tokio::fs::read(path).await.ok()?;
    let whole = bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP";
    whole.then_some(bytes)
}

/// Written to a temporary file beside it, then renamed into place, so
/// readers see the whole file or none.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().ok_or_else(|| io::Error::other("a cache file must be in a folder"))?;
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(".{}.tmp", uuid::Uuid::new_v4().simple()));
    let written = std::fs::File::create(&temp)
        .and_then(|mut file| {
            file.write_all(bytes)?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// `If-None-Match`: any of its tags equal to ours (weak comparison), or `*`.
fn etag_matches(value: &HeaderValue, etag: &str) -> bool {
    value.to_str().is_ok_and(|tags| tags.split(',').map(str::trim).any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag))
}

fn image_response(etag: &str, bytes: impl Into<Bytes>, cache: &'static str) -> Response {
    let mut response = bytes.into().into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/webp"));
    headers.insert(header::CACHE_CONTROL, IMMUTABLE);
    if let Ok(value) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(X_IMAGE_CACHE, HeaderValue::from_static(cache));
    response
}

fn not_modified(etag: &str) -> Response {
    let mut response = StatusCode::NOT_MODIFIED.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, IMMUTABLE);
    if let Ok(value) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_compares_tags_weakly() {
        let etag = "\"abc\"";
        let matches = |value: &'static str| etag_matches(&HeaderValue::from_static(value), etag);
        assert!(matches("\"abc\""));
        assert!(matches("W/\"abc\""));
        assert!(matches("\"x\", \"abc\""));
        assert!(matches("*"));
        assert!(!matches("\"abcd\""));
        assert!(!matches("abc"));
        assert!(!matches(""));
    }

    #[test]
    fn the_cache_key_changes_with_every_input() {
        let dir = std::env::temp_dir().join(format!("enrol-image-key-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.svg");
        std::fs::write(&file, "<svg/>").unwrap();
        let request = ImageRequest::parse(Some("/media/a.svg"), Some("640"), None).unwrap();
        let key = |request: &ImageRequest| cache_key(request, &file_version(&std::fs::metadata(&file).unwrap()));
        let first = key(&request);
        assert_eq!(first.len(), 32);
        assert!(first.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(key(&request), first, "stable");
        assert_ne!(key(&ImageRequest { width: 750, ..request.clone() }), first);
        assert_ne!(key(&ImageRequest { quality: 80, ..request.clone() }), first);
        assert_ne!(key(&ImageRequest { path: "b.svg".to_owned(), ..request.clone() }), first);
        std::fs::write(&file, "<svg />").unwrap();
        assert_ne!(key(&request), first, "an edited source gets a new key");
        assert_eq!(cache_path(Path::new("/c"), &first), PathBuf::from(format!("/c/{}/{first}.webp", &first[..2])));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn cache_files_are_written_whole_and_read_back() {
        let dir = std::env::temp_dir().join(format!("enrol-image-cache-{}", uuid::Uuid::new_v4().simple()));
        let path = dir.join("ab/abc.webp");
        let webp = b"RIFF\x04\0\0\0WEBPVP8 ".to_vec();
        write_atomically(&path, &webp).unwrap();
        assert_eq!(read_cached(&path).await, Some(webp));
        assert_eq!(std::fs::read_dir(dir.join("ab")).unwrap().count(), 1, "no temporary file is left");
        std::fs::write(&path, b"").unwrap();
        assert_eq!(read_cached(&path).await, None, "a truncated file is not served");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
