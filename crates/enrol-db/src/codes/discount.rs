//! Discount codes at checkout: what a code takes off (a percentage or an
//! amount), which courses it reaches and whether an order may use it. Uses
//! are counted where orders hold them ([`crate::codes::CodeSteps`]); staff
//! set codes up in `codes::setup`.

use anyhow::Context as _;
use chrono::NaiveDate;

use enrol_domain::codes::{CodeReach, CodeState, code_state};
use enrol_domain::enrollment::{Discount, DiscountType};

use crate::{Db, on_pool};

/// A discount code as stored, and whether it can be used on `today`.
#[derive(Debug, Clone)]
pub struct DiscountCode {
    pub code: String,
    pub discount: Discount,
    /// The courses it takes money off.
    pub reach: CodeReach,
    /// Active and not expired.
    open: bool,
    /// Uses left before the limit, counting unpaid orders holding one.
    uses_left: Option<i64>,
}

impl DiscountCode {
    /// Whether a new order may use the code.
    pub fn is_usable(&self) -> bool {
        self.is_usable_holding(false)
    }

    /// Whether an order may keep using it: one that already holds a use of
    /// it needs no other.
    pub fn is_usable_holding(&self, holds_a_use: bool) -> bool {
        self.open && (holds_a_use || self.uses_left.is_none_or(|left| left > 0))
    }
}

/// A discount code's row as stored.
#[derive(sqlx::FromRow)]
pub(crate) struct CodeRow {
    pub(crate) code: String,
    #[sqlx(rename = "type")]
    pub(crate) kind: String,
    pub(crate) value: i64,
    pub(crate) expires_on: Option<NaiveDate>,
    pub(crate) max_uses: Option<i64>,
    pub(crate) uses: i64,
    pub(crate) active: bool,
}

impl Db {
    /// The code, case-insensitively, and whether it can be used on `today`.
    pub async fn discount_code(&self, code: &str, today: NaiveDate) -> anyhow::Result<Option<DiscountCode>> {
        let row: Option<CodeRow> = on_pool!(self, pool => sqlx::query_as(
            "select code, type, value, expires_on, max_uses, uses, active from discount_code where code = $1"
        ).bind(code.trim().to_ascii_uppercase()).fetch_optional(pool).await)
        .context("Failed to read the discount code")?;
        let Some(row) = row else { return Ok(None) };
        let kind = DiscountType::parse(&row.kind).with_context(|| format!("Unknown discount type {}", row.kind))?;
        let reach = self.code_reach(&row.code).await?;
        Ok(Some(DiscountCode {
            code: row.code,
            discount: Discount { kind, value: row.value },
            reach,
            open: code_state(row.active, row.expires_on, None, row.uses, today) != CodeState::Expired,
            uses_left: row.max_uses.map(|max| max - row.uses),
        }))
    }

    /// The courses `code` takes money off: every course when it lists no
    /// course and no section, else those listed and those of the sections
    /// listed (a course's own section or one it is listed in).
    async fn code_reach(&self, code: &str) -> anyhow::Result<CodeReach> {
        let (limited, courses): (bool, Vec<String>) = on_pool!(self, pool => {
            let limited: bool = sqlx::query_scalar(
                "select exists (select 1 from discount_code_course where code = $1) \
                 or exists (select 1 from discount_code_section where code = $1)"
            ).bind(code).fetch_one(pool).await?;
            let courses: Vec<String> = sqlx::query_scalar(
                "select course_id from discount_code_course where code = $1 \
                 union select c.id from course c join discount_code_section s on s.section_slug = c.section_slug where s.code = $1 \
                 union select cs.course_id from course_section cs join discount_code_section s on s.section_slug = cs.section_slug \
                 where s.code = $1"
            ).bind(code).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((limited, courses))
        })
        .context("Failed to read the courses of a discount code")?;
        Ok(if limited { CodeReach::Only(courses.into_iter().collect()) } else { CodeReach::Every })
    }
}
