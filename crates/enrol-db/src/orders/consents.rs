//! What a buyer agreed to at checkout, kept with the order in the
//! transaction that stores it (decision 020), and read back for staff.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use crate::{Db, on_pool};

/// Keeps `$consents` (`&[enrol_domain::consent::Consent]`) agreed at `$now`
/// for the order `$enrollment_id` or `$online_order_id` (one is `None`),
/// in place of any it had: a changed order is agreed to again.
macro_rules! keep_consents {
    ($tx:expr, $enrollment_id:expr, $online_order_id:expr, $consents:expr, $now:expr) => {
        async {
            let enrollment_id: Option<&str> = $enrollment_id;
            let online_order_id: Option<&str> = $online_order_id;
            sqlx::query("delete from order_consent where enrollment_id = $1 or online_order_id = $2")
                .bind(enrollment_id)
                .bind(online_order_id)
                .execute(&mut *$tx)
                .await?;
            for consent in $consents {
                let consent: &enrol_domain::consent::Consent = consent;
                sqlx::query(
                    "insert into order_consent (id, enrollment_id, online_order_id, kind, course_id, version, wording, agreed_at) \
                     values ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind($crate::public_id())
                .bind(enrollment_id)
                .bind(online_order_id)
                .bind(consent.kind)
                .bind(&consent.course_id)
                .bind(consent.version)
                .bind(&consent.wording)
                .bind($now)
                .execute(&mut *$tx)
                .await?;
            }
            Ok::<_, sqlx::Error>(())
        }
        .await
    };
}
pub(crate) use keep_consents;

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
