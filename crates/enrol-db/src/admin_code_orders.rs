//! The bookings that used a discount code, for the back office (issue 14,
//! decision 017): each with what it costs, what was paid and where it is.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;

use enrol_domain::enrollment::BookedCourse;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;

use crate::enrollments::net_paid;
use crate::{Db, on_pool};

/// A booking that used a code, newest first.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeOrder {
    pub id: String,
    pub created_at: DateTime<Utc>,
    pub name: String,
    pub email: String,
    /// The courses' titles.
    pub courses: Vec<String>,
    pub total: Money,
    /// Its payments less its refunds.
    pub paid: Money,
    pub status: EnrollmentStatus,
}

impl Db {
    /// The bookings that used `code`, newest first; `None` when there is no such code.
    pub async fn code_orders(&self, code: &str) -> anyhow::Result<Option<Vec<CodeOrder>>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            created_at: DateTime<Utc>,
            given_name: String,
            family_name: String,
            email: String,
            lines: String,
            total: i64,
            paid: i64,
            status: String,
        }
        let (known, rows): (i64, Vec<Row>) = on_pool!(self, pool => {
            let known: i64 = sqlx::query_scalar("select count(*) from discount_code where code = $1").bind(code).fetch_one(pool).await?;
            let rows: Vec<Row> = sqlx::query_as(concat!(
                "select e.id, e.created_at, e.given_name, e.family_name, e.email, e.lines, e.total, ",
                net_paid!(),
                " as paid, e.status from enrollment e where e.discount_code = $1 order by e.created_at desc, e.id desc"
            )).bind(code).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((known, rows))
        })
        .context("Failed to read the bookings of a discount code")?;
        if known == 0 {
            return Ok(None);
        }
        rows.into_iter()
            .map(|row| {
                let courses: Vec<BookedCourse> = serde_json::from_str(&row.lines).context("Stored enrollment lines are not valid JSON")?;
                Ok(CodeOrder {
                    name: format!("{} {}", row.given_name, row.family_name).trim().to_owned(),
                    courses: courses.into_iter().map(|c| c.title).collect(),
                    status: EnrollmentStatus::parse(&row.status).with_context(|| format!("Unknown enrollment status {}", row.status))?,
                    id: row.id,
                    created_at: row.created_at,
                    email: row.email,
                    total: Money::from_pence(row.total),
                    paid: Money::from_pence(row.paid),
                })
            })
            .collect::<anyhow::Result<_>>()
            .map(Some)
    }
}
