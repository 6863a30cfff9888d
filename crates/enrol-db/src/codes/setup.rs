//! Discount codes as staff keep them in the back office (decision 017):
//! created, edited and expired, each change in one transaction with its one
//! audit row ([`crate::people::PeopleSteps::audit`]). A code's uses are
//! counted at checkout ([`crate::codes::CodeSteps`]); here they are only
//! read, under the code's row lock, so a usage limit is never set below
//! them.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::codes::{CodeState, CodeTerms, code_state};
use enrol_domain::enrollment::{Discount, DiscountType};

use crate::AuditEntry;
use crate::codes::CodeSteps;
use crate::codes::discount::CodeRow;
use crate::people::PeopleSteps;
use crate::{Db, on_pool};

/// A discount code as staff see it (decision 017's `Code`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CodeRecord {
    pub code: String,
    #[serde(flatten)]
    pub discount: Discount,
    pub expires_on: Option<NaiveDate>,
    #[ts(type = "number | null")]
    pub max_uses: Option<i64>,
    /// Uses counted: paid bookings and unpaid ones holding a use.
    #[ts(type = "number")]
    pub uses: i64,
    pub active: bool,
    pub course_ids: Vec<String>,
    pub section_slugs: Vec<String>,
}

impl CodeRecord {
    /// Whether it can be used on `today` (the London day), for staff to read.
    pub fn state(&self, today: NaiveDate) -> CodeState {
        code_state(self.active, self.expires_on, self.max_uses, self.uses, today)
    }
}

/// What saving a code did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeSaved {
    /// Saved as it now is (or left as it was, when nothing changed).
    Saved(CodeRecord),
    NotFound,
    /// Creating: another code has this name.
    Taken,
    /// A course listed that the college does not have: its id as sent.
    UnknownCourse(String),
    /// A section listed that the college does not have: its slug as sent.
    UnknownSection(String),
    /// The usage limit is below the uses already counted.
    BelowUses {
        uses: i64,
    },
}

pub(crate) type CodeRows = (Vec<CodeRow>, Vec<(String, String)>, Vec<(String, String)>);

pub(crate) fn assemble((rows, courses, sections): CodeRows) -> anyhow::Result<Vec<CodeRecord>> {
    let listed = |pairs: &[(String, String)], code: &str| pairs.iter().filter(|(c, _)| c == code).map(|(_, id)| id.clone()).collect();
    rows.into_iter()
        .map(|row| {
            let kind = DiscountType::parse(&row.kind).with_context(|| format!("Unknown discount type {}", row.kind))?;
            Ok(CodeRecord {
                course_ids: listed(&courses, &row.code),
                section_slugs: listed(&sections, &row.code),
                code: row.code,
                discount: Discount { kind, value: row.value },
                expires_on: row.expires_on,
                max_uses: row.max_uses,
                uses: row.uses,
                active: row.active,
            })
        })
        .collect()
}

impl Db {
    /// Every code, by name.
    pub async fn codes(&self) -> anyhow::Result<Vec<CodeRecord>> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let rows = tx.read_codes(None).await?;
            tx.commit().await?;
            assemble(rows)
        })
        .context("Failed to read the discount codes")
    }

    /// Creates `code` (already checked: upper-case) with `terms`.
    pub async fn create_code(&self, code: &str, terms: &CodeTerms, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<CodeSaved> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if let Some(refusal) = tx.unknown_limit(terms).await? {
                tx.rollback().await?;
                return Ok(refusal);
            }
            let created = sqlx::query(
                "insert into discount_code (code, type, value, expires_on, max_uses, active) values ($1, $2, $3, $4, $5, $6) \
                 on conflict (code) do nothing",
            )
            .bind(code).bind(terms.discount.kind.as_str()).bind(terms.discount.value).bind(terms.expires_on).bind(terms.max_uses).bind(terms.active)
            .execute(&mut *tx).await?;
            if created.rows_affected() == 0 {
                tx.rollback().await?;
                return Ok(CodeSaved::Taken);
            }
            tx.write_limits(code, terms).await?;
            let saved = tx.read_code(code).await?.context("The code just created is missing")?;
            tx.audit(&AuditEntry::new(staff_id, "code.create", "code", code).after(&saved), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(CodeSaved::Saved(saved))
        })
        .context("Failed to create the discount code")
    }

    /// Gives `code` new `terms`, never a usage limit below the uses counted.
    pub async fn edit_code(&self, code: &str, terms: &CodeTerms, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<CodeSaved> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Locks the row: checkouts counting a use wait until this is done.
            sqlx::query("update discount_code set active = active where code = $1").bind(code).execute(&mut *tx).await?;
            let Some(before) = tx.read_code(code).await? else {
                tx.rollback().await?;
                return Ok(CodeSaved::NotFound);
            };
            let refusal = match tx.unknown_limit(terms).await? {
                Some(refusal) => Some(refusal),
                None => terms.max_uses.filter(|max| *max < before.uses).map(|_| CodeSaved::BelowUses { uses: before.uses }),
            };
            if let Some(refusal) = refusal {
                tx.rollback().await?;
                return Ok(refusal);
            }
            sqlx::query("update discount_code set type = $2, value = $3, expires_on = $4, max_uses = $5, active = $6 where code = $1")
                .bind(code).bind(terms.discount.kind.as_str()).bind(terms.discount.value).bind(terms.expires_on).bind(terms.max_uses)
                .bind(terms.active).execute(&mut *tx).await?;
            tx.write_limits(code, terms).await?;
            let after = tx.read_code(code).await?.context("The code just edited is missing")?;
            if after == before {
                tx.rollback().await?;
                return Ok(CodeSaved::Saved(before));
            }
            tx.audit(&AuditEntry::new(staff_id, "code.edit", "code", code).before(&before).after(&after), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(CodeSaved::Saved(after))
        })
        .context("Failed to edit the discount code")
    }

    /// Makes `code` unusable from now on; bookings that hold it keep it.
    /// `None` when there is no such code; a code already expired is
    /// answered as it is.
    pub async fn expire_code(&self, code: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<Option<CodeRecord>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let expired = sqlx::query("update discount_code set active = false where code = $1 and active")
                .bind(code).execute(&mut *tx).await?.rows_affected() == 1;
            if !expired {
                let as_it_is = tx.read_code(code).await?;
                tx.rollback().await?;
                return Ok(as_it_is);
            }
            let after = tx.read_code(code).await?.context("The code just expired is missing")?;
            let before = CodeRecord { active: true, ..after.clone() };
            tx.audit(&AuditEntry::new(staff_id, "code.expire", "code", code).before(&before).after(&after), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Some(after))
        })
        .context("Failed to expire the discount code")
    }
}
