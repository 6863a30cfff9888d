//! What the server keeps in memory between requests: rendered anonymous
//! pages, keyed by path, the query parameters pages read and the content
//! version (nothing personal is ever rendered on the server, so one copy
//! serves everyone), the least recently used going first when it is full;
//! and the catalogue the pages and the checkout read, until the database's
//! changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use chrono::{DateTime, Utc};

use enrol_db::{Catalogue, Db};

/// Pages show `now` (upcoming dates, the copyright year): keep them fresh.
const TIME_TO_LIVE: Duration = Duration::from_secs(300);

#[derive(Debug)]
pub struct CachedPage {
    pub status: u16,
    /// Shared, so serving a cached page copies no bytes.
    pub html: Bytes,
}

struct Entry {
    version: i64,
    stored: Instant,
    used: Instant,
    page: Arc<CachedPage>,
}

pub struct PageCache {
    capacity: usize,
    entries: Mutex<HashMap<String, Entry>>,
}

impl PageCache {
    /// A cache of at most `capacity` pages; 0 keeps none.
    pub fn new(capacity: usize) -> Self {
        PageCache { capacity, entries: Mutex::new(HashMap::with_capacity(capacity)) }
    }

    pub fn get(&self, key: &str, version: i64) -> Option<Arc<CachedPage>> {
        let mut entries = self.entries.lock().ok()?;
        let entry = entries.get_mut(key).filter(|e| e.version == version && e.stored.elapsed() < TIME_TO_LIVE)?;
        entry.used = Instant::now();
        Some(Arc::clone(&entry.page))
    }

    pub fn put(&self, key: String, version: i64, page: Arc<CachedPage>) {
        if self.capacity == 0 {
            return;
        }
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= self.capacity && !entries.contains_key(&key) {
                // Stale pages go first, then the least recently used one: a
                // flood of new addresses can push out one page at a time,
                // never the pages everyone is reading.
                entries.retain(|_, e| e.version == version && e.stored.elapsed() < TIME_TO_LIVE);
                if entries.len() >= self.capacity
                    && let Some(oldest) = entries.iter().min_by_key(|(_, e)| e.used).map(|(key, _)| key.clone())
                {
                    entries.remove(&oldest);
                }
            }
            let now = Instant::now();
            entries.insert(key, Entry { version, stored: now, used: now, page });
        }
    }

    /// How many pages are kept.
    pub fn len(&self) -> usize {
        self.entries.lock().map_or(0, |entries| entries.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the page of `key` is kept, for any version.
    pub fn holds(&self, key: &str) -> bool {
        self.entries.lock().is_ok_and(|entries| entries.contains_key(key))
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
        let cache = PageCache::new(8);
        cache.put("/".into(), 3, page("home"));
        assert_eq!(cache.get("/", 3).unwrap().html, "home");
        assert!(cache.get("/", 4).is_none());
        assert!(cache.get("/courses/", 3).is_none());
        cache.clear();
        assert!(cache.get("/", 3).is_none());
    }

    #[test]
    fn stays_bounded_and_keeps_what_is_read() {
        let cache = PageCache::new(64);
        cache.put("/".into(), 1, page("home"));
        for i in 0..1000 {
            cache.put(format!("/missing-{i}"), 1, page("x"));
            // Everyone reads the home page between the flood's pages.
            assert!(cache.get("/", 1).is_some(), "the page in use stays, at {i}");
        }
        assert_eq!(cache.len(), 64);
        assert!(cache.holds("/missing-999") && !cache.holds("/missing-0"), "the least recently used went first");
    }

    #[test]
    fn none_are_kept_at_capacity_zero() {
        let cache = PageCache::new(0);
        cache.put("/".into(), 1, page("home"));
        assert!(cache.get("/", 1).is_none() && cache.is_empty());
    }
}
