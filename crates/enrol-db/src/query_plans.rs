//! The queries that must read through an index whatever the college's
//! size (issue 31): a student's account, the dashboard's takings and the
//! accountant's exports. [`Db::query_plans`] asks the database how it
//! would run each, so a test can fail when a change makes one walk a
//! whole table. On PostgreSQL the plans are made with sequential scans
//! priced out, as they are on large tables, so a table scanned there has
//! no index the query can use.

use anyhow::Context as _;
use sqlx::Row as _;

use crate::money::figures::{PAYMENT_EXPORT, REFUND_EXPORT, TAKINGS, order_export_sql};
use crate::records::student::{ENROLLMENTS_OF, PAYMENTS_OF, REGISTRATIONS_OF};
use crate::{Db, Pool};

/// How the database would run one of the queries.
#[derive(Debug, Clone)]
pub struct QueryPlan {
    pub name: &'static str,
    /// The plan as the engine words it, a step a line.
    pub plan: String,
}

/// A query and values for its parameters, as SQL literals.
struct Explained {
    name: &'static str,
    sql: String,
    values: &'static [&'static str],
}

const RANGE_PAGE: &[&str] = &["'2026-01-01T00:00:00Z'", "'2027-01-01T00:00:00Z'", "'2026-06-01T00:00:00Z'", "'0196'", "1000"];

fn explained() -> Vec<Explained> {
    let by_user: &[&str] = &["'0196a1b2-user'"];
    vec![
        Explained { name: "account registrations", sql: REGISTRATIONS_OF.to_owned(), values: by_user },
        Explained { name: "account bookings", sql: ENROLLMENTS_OF.to_owned(), values: by_user },
        Explained { name: "account payments", sql: PAYMENTS_OF.to_owned(), values: by_user },
        Explained { name: "dashboard takings", sql: TAKINGS.to_owned(), values: &RANGE_PAGE[..2] },
        Explained { name: "orders export page", sql: order_export_sql(), values: RANGE_PAGE },
        Explained { name: "payments export page", sql: PAYMENT_EXPORT.to_owned(), values: RANGE_PAGE },
        Explained { name: "refunds export page", sql: REFUND_EXPORT.to_owned(), values: RANGE_PAGE },
    ]
}

/// `sql` with its parameters `$1`, `$2`, … written as `values`.
fn with_values(sql: &str, values: &[&str]) -> String {
    // The highest first, so `$1` never takes the start of `$10`.
    values.iter().enumerate().rev().fold(sql.to_owned(), |sql, (i, value)| sql.replace(&format!("${}", i + 1), value))
}

impl Db {
    /// How the database would run each of the queries that must use an index.
    pub async fn query_plans(&self) -> anyhow::Result<Vec<QueryPlan>> {
        let mut plans = Vec::new();
        for query in explained() {
            let sql = with_values(&query.sql, query.values);
            let lines: Vec<String> = match self.pool() {
                Pool::Sqlite(pool) => sqlx::query(sqlx::AssertSqlSafe(format!("explain query plan {sql}")))
                    .fetch_all(pool)
                    .await
                    .and_then(|rows| rows.iter().map(|row| row.try_get::<String, _>("detail")).collect()),
                Pool::Postgres(pool) => {
                    async {
                        let mut tx = pool.begin().await?;
                        sqlx::query("set local enable_seqscan = off").execute(&mut *tx).await?;
                        let lines = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("explain {sql}"))).fetch_all(&mut *tx).await?;
                        tx.rollback().await?;
                        Ok(lines)
                    }
                    .await
                }
            }
            .with_context(|| format!("Failed to explain the {}", query.name))?;
            plans.push(QueryPlan { name: query.name, plan: lines.join("\n") });
        }
        Ok(plans)
    }
}

#[cfg(test)]
mod tests {
    use super::with_values;

    #[test]
    fn parameters_are_written_as_their_values() {
        let sql = "select $1, $10, $2 from t where a = $1";
        let values = ["'a'", "2", "3", "4", "5", "6", "7", "8", "9", "'ten'"];
        assert_eq!(with_values(sql, &values), "select 'a', 'ten', 2 from t where a = 'a'");
    }
}
