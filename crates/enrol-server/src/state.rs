//! What every request handler and background job reaches, and how it
//! notices content and seats changed on another instance.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::Utc;

use enrol_db::Db;
use enrol_payments::PaymentGateway;
use enrol_ssr::SsrPool;

use crate::assets::ClientAssets;
use crate::cache::{CatalogueCache, PageCache};
use crate::config::Config;
use crate::file_store::FileStore;
use crate::images::ImageCache;
use crate::provider::LearningProvider;

/// Everything a request handler reaches.
pub struct AppState {
    pub config: Config,
    pub db: Db,
    pub ssr: SsrPool,
    pub assets: ClientAssets,
    pub pages: PageCache,
    pub catalogue: CatalogueCache,
    pub payments: Arc<dyn PaymentGateway>,
    /// The content version the page cache is valid for.
    pub content_version: AtomicI64,
    /// The seats version (holds and registrations) it is valid for.
    pub availability_version: AtomicI64,
    /// The London day it is valid for (days from the common era): pages
    /// list the dates and articles from today on.
    pub cache_day: AtomicI64,
    /// `config.tracking` as the JSON every page carries.
    pub tracking_json: String,
    /// What the image cache holds, against its limit.
    pub image_cache: ImageCache,
    /// The files students send and the images staff upload.
    pub files: Arc<dyn FileStore>,
    /// The hosted LMS that teaches the courses sold with its ids, if one is
    /// configured (decision 029).
    pub provider: Option<Arc<dyn LearningProvider>>,
}

/// Days from the common era of the London date at `now`.
pub(crate) fn london_day(now: chrono::DateTime<Utc>) -> i64 {
    i64::from(chrono::Datelike::num_days_from_ce(&enrol_domain::london::today(now)))
}

/// Reads the content and seats versions, and drops the cached pages when
/// either moved or a new day began in London (pages list what is still to
/// come, and articles from their day on): every two seconds, and at once
/// on the instance where staff published a change.
pub async fn notice_versions(state: &AppState, now: chrono::DateTime<Utc>) -> anyhow::Result<()> {
    let (content, seats) = state.db.catalogue_versions().await?;
    let content_changed = state.content_version.swap(content, Ordering::Relaxed) != content;
    let seats_changed = state.availability_version.swap(seats, Ordering::Relaxed) != seats;
    let day = london_day(now);
    let new_day = state.cache_day.swap(day, Ordering::Relaxed) != day;
    if content_changed {
        tracing::info!(version = content, "Content changed; page cache dropped");
    }
    if content_changed || seats_changed || new_day {
        state.pages.clear();
    }
    Ok(())
}
