//! The image work behind the site's image URLs and uploads, apart from
//! HTTP: resizing and cleaning run on the blocking pool, at most one image
//! per core at a time, each waited for within a deadline, and the disk
//! cache of resized images keeps to its budget.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context as _;
use tokio::sync::Semaphore;

use enrol_images::{CleanImage, Renderer, UploadError};

/// One resize at a time per core, for the whole process.
static ENCODES: LazyLock<Arc<Semaphore>> = LazyLock::new(|| Arc::new(Semaphore::new(cores())));

/// Image work past its deadline, which cannot be stopped: up to one per
/// core runs on apart from [`ENCODES`], so that the next image need not
/// wait for it; beyond that, overdue work keeps its place in `ENCODES`.
static OVERDUE: LazyLock<Arc<Semaphore>> = LazyLock::new(|| Arc::new(Semaphore::new(cores())));

fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, usize::from)
}

/// The system's fonts, found on the first resize (it reads font files).
static RENDERER: OnceLock<Renderer> = OnceLock::new();

/// Why image work gave no answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImageWorkError {
    /// Still running when the deadline came; it goes on and is let be.
    #[error("the image work took longer than {0:?}")]
    Overdue(Duration),
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

/// `work` on the blocking pool when [`ENCODES`] has a core for it, waited
/// for at most `deadline`. A thread cannot be stopped, so work still
/// running then goes on without anyone waiting: counted in [`OVERDUE`]
/// when that has room, its `ENCODES` place passes to the next image at
/// once; else it keeps that place until it ends, so that at most twice as
/// many images as cores are worked on at once.
pub(crate) async fn image_work<T: Send + 'static>(
    deadline: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ImageWorkError> {
    let permit = Arc::clone(&ENCODES).acquire_owned().await.context("The image semaphore is closed")?;
    let mut task = tokio::task::spawn_blocking(work);
    match tokio::time::timeout(deadline, &mut task).await {
        Ok(done) => Ok(done.context("The image task failed")?),
        Err(_) => {
            let place = Arc::clone(&OVERDUE).try_acquire_owned().unwrap_or(permit);
            tokio::spawn(async move {
                let _place = place;
                let _ = task.await;
            });
            Err(ImageWorkError::Overdue(deadline))
        }
    }
}

/// `bytes` checked and cleaned as every uploaded image is
/// ([`Renderer::clean_upload`]): on the blocking pool, one image per core
/// at a time with the resizes, since decoding is CPU work.
pub(crate) async fn clean_image(bytes: Vec<u8>, deadline: Duration) -> Result<Result<CleanImage, UploadError>, ImageWorkError> {
    image_work(deadline, move || renderer().clean_upload(&bytes)).await
}

pub(crate) fn renderer() -> &'static Renderer {
    RENDERER.get_or_init(|| {
        let renderer = Renderer::with_system_fonts();
        match renderer.font_faces() {
            0 => tracing::warn!("No fonts are installed: text in SVG images is left out of resized images"),
            faces => tracing::info!(faces, "Fonts for SVG images loaded"),
        }
        renderer
    })
}

/// Keeps the disk cache of resized images under `ENROL_IMAGE_CACHE_MAX_MB`:
/// when a new file takes it over, the files used least recently (oldest
/// modified: a hit does not touch them, so oldest made) are removed until it
/// is nine tenths full. Each instance keeps its own cache and its own count.
pub struct ImageCache {
    limit: u64,
    used: AtomicU64,
    trimming: Mutex<()>,
}

impl ImageCache {
    /// The budget for the cache in `dir`, counting what is there already.
    pub fn new(dir: &Path, limit: u64) -> Self {
        let used = cached_files(dir).iter().map(|(_, _, len)| len).sum();
        ImageCache { limit, used: AtomicU64::new(used), trimming: Mutex::new(()) }
    }

    /// Counts a file of `bytes` just written to `dir`, trimming if needed.
    pub(crate) fn written(&self, dir: &Path, bytes: usize) {
        let used = self.used.fetch_add(bytes as u64, Ordering::Relaxed) + bytes as u64;
        if used <= self.limit {
            return;
        }
        // One trim at a time; a writer that finds one under way goes on.
        let Ok(_trimming) = self.trimming.try_lock() else { return };
        let mut files = cached_files(dir);
        files.sort_by_key(|(_, modified, _)| *modified);
        let mut total: u64 = files.iter().map(|(_, _, len)| len).sum();
        let target = self.limit / 10 * 9;
        let mut removed = 0;
        for (path, _, len) in files {
            if total <= target {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
                removed += 1;
            }
        }
        self.used.store(total, Ordering::Relaxed);
        tracing::info!(removed, bytes = total, limit = self.limit, "Image cache trimmed");
    }
}

/// Every cached image: path, when it was made, size.
fn cached_files(dir: &Path) -> Vec<(PathBuf, std::time::SystemTime, u64)> {
    let Ok(folders) = std::fs::read_dir(dir) else { return Vec::new() };
    folders
        .flatten()
        .filter_map(|folder| std::fs::read_dir(folder.path()).ok())
        .flat_map(|files| files.flatten())
        .filter_map(|file| {
            let metadata = file.metadata().ok()?;
            let webp = file.path().extension().is_some_and(|e| e == "webp");
            (metadata.is_file() && webp).then(|| (file.path(), metadata.modified().unwrap_or(UNIX_EPOCH), metadata.len()))
        })
        .collect()
}
