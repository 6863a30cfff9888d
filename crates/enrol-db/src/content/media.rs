//! The content media library (decision 018): images staff upload, kept in
//! the file store under their key, with their alt text. Each upload and
//! each change of alt text writes its audit row in its own transaction.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use crate::AuditEntry;
use crate::content::ContentSteps;
use crate::people::PeopleSteps;
use crate::{Db, on_pool};

/// The most images the library lists, newest first.
pub const MEDIA_LISTED: i64 = 500;

/// One uploaded image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MediaRecord {
    /// Server-made hex, the file store's key.
    pub key: String,
    /// As served below `/media/`: `uploads/<key>.<extension>`.
    pub file_name: String,
    pub content_type: String,
    #[ts(type = "number")]
    pub width: i64,
    #[ts(type = "number")]
    pub height: i64,
    #[ts(type = "number")]
    pub bytes: i64,
    pub alt: String,
    /// The file's name on the uploader's computer, shown in the library;
    /// none for an image kept before names were.
    pub original_name: Option<String>,
    /// The staff member's id; none for an image loaded from a content pack.
    pub uploaded_by: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// The columns of [`MediaRecord`], in its order.
pub(crate) const MEDIA_COLUMNS: &str = "key, file_name, content_type, width, height, bytes, alt, original_name, uploaded_by, created_at";

impl Db {
    /// Records an image whose bytes are already in the file store, with
    /// its audit row (`media.upload`).
    pub async fn add_media(&self, media: &MediaRecord) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            tx.insert_media(media, "").await?;
            let staff = media.uploaded_by.as_deref().context("An upload has its staff member")?;
            let entry = AuditEntry::new(staff, "media.upload", "media", &media.key).after(media);
            tx.audit(&entry, media.created_at).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(())
        })
        .context("Failed to record an uploaded image")
    }

    /// The newest [`MEDIA_LISTED`] images, newest first.
    pub async fn media_library(&self) -> anyhow::Result<Vec<MediaRecord>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("select {MEDIA_COLUMNS} from media order by created_at desc, key desc limit $1")))
            .bind(MEDIA_LISTED).fetch_all(pool).await)
        .context("Failed to read the media library")
    }

    /// The width and height of every uploaded image, by the file name
    /// content names it by (`uploads/<key>.<ext>`).
    pub async fn media_sizes(&self) -> anyhow::Result<std::collections::HashMap<String, (u32, u32)>> {
        let rows: Vec<(String, i64, i64)> =
            on_pool!(self, pool => sqlx::query_as("select file_name, width, height from media").fetch_all(pool).await)
                .context("Failed to read the uploaded images' sizes")?;
        Ok(rows.into_iter().map(|(file, width, height)| (file, (width.try_into().unwrap_or(0), height.try_into().unwrap_or(0)))).collect())
    }

    /// The image with `key`, if there is one.
    pub async fn media(&self, key: &str) -> anyhow::Result<Option<MediaRecord>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("select {MEDIA_COLUMNS} from media where key = $1"))).bind(key).fetch_optional(pool).await)
            .context("Failed to read an uploaded image")
    }

    /// Gives the image with `key` new alt text (`media.alt`); `None` when
    /// there is no such image. An edit that changes nothing writes nothing.
    pub async fn edit_media_alt(&self, key: &str, alt: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<Option<MediaRecord>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Locks the row, so the audit row's "before" is what was changed.
            sqlx::query("update media set alt = alt where key = $1").bind(key).execute(&mut *tx).await?;
            let before: Option<MediaRecord> =
                sqlx::query_as(sqlx::AssertSqlSafe(format!("select {MEDIA_COLUMNS} from media where key = $1"))).bind(key).fetch_optional(&mut *tx).await?;
            let Some(before) = before else {
                tx.rollback().await?;
                return Ok(None);
            };
            if before.alt == alt {
                tx.rollback().await?;
                return Ok(Some(before));
            }
            sqlx::query("update media set alt = $2 where key = $1").bind(key).bind(alt).execute(&mut *tx).await?;
            let after = MediaRecord { alt: alt.to_owned(), ..before.clone() };
            let entry = AuditEntry::new(staff_id, "media.alt", "media", key).before(&before.alt).after(&after.alt);
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Some(after))
        })
        .context("Failed to change an image's alt text")
    }
}
