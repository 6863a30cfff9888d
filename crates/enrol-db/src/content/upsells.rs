//! Upsell offers as staff edit them in the back office (decision 017). An
//! offer is shown on its course's page and priced at the online checkout,
//! so a change bumps the content version in its transaction, as a content
//! load does: every instance drops the pages it cached.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::money::Money;
use enrol_domain::upsells::UpsellTerms;

use crate::AuditEntry;
use crate::content::ContentSteps;
use crate::people::PeopleSteps;
use crate::{Db, on_pool};

/// An upsell offer as staff see it, keyed by its course's price id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct UpsellRecord {
    pub price_id: String,
    pub title: String,
    pub description: String,
    pub cta: String,
    #[ts(type = "number")]
    pub unit_amount: Money,
}

#[derive(sqlx::FromRow)]
struct UpsellRow {
    price_id: String,
    title: String,
    description: String,
    cta: String,
    unit_amount: i64,
}

impl From<UpsellRow> for UpsellRecord {
    fn from(row: UpsellRow) -> Self {
        UpsellRecord {
            price_id: row.price_id,
            title: row.title,
            description: row.description,
            cta: row.cta,
            unit_amount: Money::from_pence(row.unit_amount),
        }
    }
}

impl Db {
    /// Every offer, in the order of their courses.
    pub async fn upsells(&self) -> anyhow::Result<Vec<UpsellRecord>> {
        let rows: Vec<UpsellRow> = on_pool!(self, pool => sqlx::query_as(
            "select u.price_id, u.title, u.description, u.cta, u.unit_amount from upsell u \
             join course c on c.price_id = u.price_id order by c.position, u.price_id"
        ).fetch_all(pool).await)
        .context("Failed to read the upsell offers")?;
        Ok(rows.into_iter().map(UpsellRecord::from).collect())
    }

    /// Gives the offer of `price_id` new `terms`; `None` when there is no
    /// such offer. An edit that changes nothing writes nothing.
    pub async fn edit_upsell(
        &self,
        price_id: &str,
        terms: &UpsellTerms,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<UpsellRecord>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Locks the row, so the audit row's "before" is what was changed.
            sqlx::query("update upsell set title = title where price_id = $1").bind(price_id).execute(&mut *tx).await?;
            let before: Option<UpsellRow> = sqlx::query_as(
                "select price_id, title, description, cta, unit_amount from upsell where price_id = $1"
            ).bind(price_id).fetch_optional(&mut *tx).await?;
            let Some(before) = before.map(UpsellRecord::from) else {
                tx.rollback().await?;
                return Ok(None);
            };
            let after = UpsellRecord {
                title: terms.title.clone(),
                description: terms.description.clone(),
                cta: terms.cta.clone(),
                unit_amount: terms.unit_amount,
                ..before.clone()
            };
            if after == before {
                tx.rollback().await?;
                return Ok(Some(before));
            }
            sqlx::query("update upsell set title = $2, description = $3, cta = $4, unit_amount = $5 where price_id = $1")
                .bind(price_id).bind(&after.title).bind(&after.description).bind(&after.cta).bind(after.unit_amount.pence())
                .execute(&mut *tx).await?;
            tx.content_changed(now).await?;
            tx.audit(&AuditEntry::new(staff_id, "upsell.edit", "upsell", price_id).before(&before).after(&after), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Some(after))
        })
        .context("Failed to edit the upsell offer")
    }
}
