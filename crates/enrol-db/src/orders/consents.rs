//! What a buyer agreed to at checkout, kept with the order in the
//! transaction that stores it (decision 020), and read back for staff.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use crate::{Db, on_pool};

/// One thing a buyer agreed to, as staff read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AgreedConsent {
    pub kind: String,
    pub course_id: Option<String>,
    pub version: String,
    pub wording: String,
    pub agreed_at: DateTime<Utc>,
}

impl Db {
    /// What the buyer of enrollment `id` agreed to, in the order shown.
    pub async fn enrollment_consents(&self, id: &str) -> anyhow::Result<Vec<AgreedConsent>> {
        on_pool!(self, pool => sqlx::query_as(
            "select kind, course_id, version, wording, agreed_at from order_consent where enrollment_id = $1 \
             order by case kind when 'terms' then 0 when 'digital_content' then 1 else 2 end, course_id"
        ).bind(id).fetch_all(pool).await)
        .context("Failed to read what the buyer agreed to")
    }
}
