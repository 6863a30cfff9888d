//! The costly calls each browser and each client address may still make
//! (decision 031), one token bucket per key in the database so that every
//! instance counts together: a request is let through when its buckets have
//! room, in one statement that spends from all of them at once.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use crate::{Db, on_pool};

/// A bucket: one request every `spacing` microseconds, `burst` at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowance {
    pub key: String,
    pub spacing: i64,
    pub burst: i64,
}

impl Db {
    /// Spends one request from each of `buckets` at `now` and answers
    /// whether all had room (a generic cell rate algorithm: a bucket is
    /// the instant it is full again, moved on by `spacing` a request and
    /// never more than `burst` requests ahead). A bucket without room is
    /// left as it was; one with room is spent even when another had none,
    /// so a request refused by its browser's bucket still counts against
    /// its address.
    pub async fn spend_allowances(&self, buckets: &[Allowance], now: DateTime<Utc>) -> anyhow::Result<bool> {
        let rows: Vec<String> = (0..buckets.len())
            .map(|i| {
                let [key, spacing, burst] = [2, 3, 4].map(|n| 3 * i + n);
                format!("(${key}, $1 + ${spacing}, ${spacing}, ${spacing} * ${burst})")
            })
            .collect();
        let next = "(case when write_allowance.ready_at > $1 then write_allowance.ready_at else $1 end) + excluded.spacing";
        // Only placeholders are written into the statement, never a value.
        let sql = format!(
            "insert into write_allowance (client_key, ready_at, spacing, burst) values {} \
             on conflict (client_key) do update set ready_at = {next}, spacing = excluded.spacing, burst = excluded.burst \
             where {next} - $1 <= excluded.burst returning client_key",
            rows.join(", ")
        );
        let now = now.timestamp_micros();
        let _turn = self.write_turn().await;
        let spent = on_pool!(self, pool => {
            let mut query = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql.clone())).bind(now);
            for bucket in buckets {
                query = query.bind(&bucket.key).bind(bucket.spacing).bind(bucket.burst);
            }
            query.fetch_all(pool).await
        })
        .context("Failed to count a request against its allowance")?;
        Ok(spent.len() == buckets.len())
    }

    /// Forgets the buckets that are full again, as if they had never been
    /// spent from; any instance may run it.
    pub async fn forget_full_allowances(&self, now: DateTime<Utc>) -> anyhow::Result<u64> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query("delete from write_allowance where ready_at <= $1")
            .bind(now.timestamp_micros()).execute(pool).await.map(|done| done.rows_affected()))
        .context("Failed to forget the full allowances")
    }
}
