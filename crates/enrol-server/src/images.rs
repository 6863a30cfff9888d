//! The image work behind the site's image URLs and uploads, apart from
//! HTTP: resizing and cleaning run on the blocking pool, at most one image
//! per core at a time, and the disk cache of resized images keeps to its
//! budget.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};
use std::time::UNIX_EPOCH;

use anyhow::Context as _;
use tokio::sync::Semaphore;

use enrol_images::{CleanImage, Renderer, UploadError};

/// One resize at a time per core, for the whole process.
pub(crate) static ENCODES: LazyLock<Arc<Semaphore>> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    Arc::new(Semaphore::new(cores))
});

/// The system's fonts, found on the first resize (it reads font files).
static RENDERER: OnceLock<Renderer> = OnceLock::new();

/// `bytes` checked and cleaned as every uploaded image is
/// ([`Renderer::clean_upload`]): on the blocking pool, one image per core
/// at a time with the resizes, since decoding is CPU work.
pub(crate) async fn clean_image(bytes: Vec<u8>) -> anyhow::Result<Result<CleanImage, UploadError>> {
    let permit = Arc::clone(&ENCODES).acquire_owned().await.context("The image semaphore is closed")?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        renderer().clean_upload(&bytes)
    })
    .await
    .context("The image cleaning task failed")
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
