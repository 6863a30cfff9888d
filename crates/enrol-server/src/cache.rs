//! Rendered anonymous pages, keyed by path and content version. Nothing
//! personal is ever rendered on the server, so one copy serves everyone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;

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
