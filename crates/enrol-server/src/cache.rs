//! What the server keeps in memory between requests: rendered anonymous
//! pages, keyed by path and content version (nothing personal is ever
//! rendered on the server, so one copy serves everyone), and the catalogue
//! the pages and the checkout read, until the database's changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use chrono::{DateTime, Utc};

use enrol_db::{Catalogue, Db};

/// Pages show `now` (upcoming dates, the copyright year): keep them fresh.
const TIME_TO_LIVE: Duration = Duration::from_secs(300);
const CAPACITY: usize = 2048;

#[derive(Debug)]
pub struct CachedPage {
    pub status: u16,
    /// Shared, so serving a cached page copies no bytes.
    pub html: Bytes,
}

struct Entry {
    version: i64,
    stored: Instant,
    page: Arc<CachedPage>,
}

#[derive(Default)]
pub struct PageCache {
    entries: Mutex<HashMap<String, Entry>>,
}

impl PageCache {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get(&self, key: &str, version: i64) -> Option<Arc<CachedPage>> {
        let entries = self.entries.lock().ok()?;
        entries.get(key).filter(|e| e.version == version && e.stored.elapsed() < TIME_TO_LIVE).map(|e| Arc::clone(&e.page))
    }

    pub fn put(&self, key: String, version: i64, page: Arc<CachedPage>) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CAPACITY {
                // Unknown paths (404s, odd queries) must not grow memory without bound.
                entries.retain(|_, e| e.version == version && e.stored.elapsed() < TIME_TO_LIVE && e.page.status == 200);
                if entries.len() >= CAPACITY {
                    entries.clear();
                }
            }
            entries.insert(key, Entry { version, stored: Instant::now(), page });
        }
    }

    pub fn clear(&self) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.clear();
        }
    }
}

/// The catalogue as last read, shared by every request until the content
/// or the seats change (on any instance), the London day turns or a hold it
/// counted runs out: then the next request reads it again, once.
#[derive(Default)]
pub struct CatalogueCache {
    current: tokio::sync::Mutex<Option<Arc<Catalogue>>>,
}

impl CatalogueCache {
    /// The catalogue as a fresh read at `now` would give it; one small
    /// query checks the versions.
    pub async fn get(&self, db: &Db, now: DateTime<Utc>) -> anyhow::Result<Arc<Catalogue>> {
        self.read(db, now, |catalogue, versions| catalogue.as_of().is_current(versions, now)).await
    }

    /// The catalogue with today's courses, prices and dates, whose seat
    /// counts may be behind: for booking, which counts seats itself
    /// ([`Db::seats_taken`], and again where it holds them). Orders change
    /// seats all the time; this way they do not make each other read the
    /// catalogue again.
    pub async fn for_booking(&self, db: &Db, now: DateTime<Utc>) -> anyhow::Result<Arc<Catalogue>> {
        self.read(db, now, |catalogue, versions| catalogue.as_of().has_content(versions, now)).await
    }

    async fn read(&self, db: &Db, now: DateTime<Utc>, usable: impl Fn(&Catalogue, (i64, i64)) -> bool) -> anyhow::Result<Arc<Catalogue>> {
        let versions = db.catalogue_versions().await?;
        // Held across the read, so a change is read once, not by every
        // request that sees it at the same moment.
        let mut current = self.current.lock().await;
        if let Some(catalogue) = current.as_ref().filter(|c| usable(c, versions)) {
            return Ok(Arc::clone(catalogue));
        }
        let catalogue = Arc::new(db.catalogue(now, current.as_deref()).await?);
        *current = Some(Arc::clone(&catalogue));
        Ok(catalogue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> Arc<CachedPage> {
        Arc::new(CachedPage { status: 200, html: Bytes::from(html.to_owned()) })
    }

    #[test]
    fn a_page_is_served_for_its_version_only() {
        let cache = PageCache::new();
        cache.put("/".into(), 3, page("home"));
        assert_eq!(cache.get("/", 3).unwrap().html, "home");
        assert!(cache.get("/", 4).is_none());
        assert!(cache.get("/courses/", 3).is_none());
        cache.clear();
        assert!(cache.get("/", 3).is_none());
    }

    #[test]
    fn stays_bounded() {
        let cache = PageCache::new();
        for i in 0..(CAPACITY + 10) {
            cache.put(format!("/missing-{i}"), 1, page("x"));
        }
        assert!(cache.entries.lock().unwrap().len() <= CAPACITY);
    }
}
