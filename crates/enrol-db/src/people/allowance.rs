//! The costly calls each browser and each client address may still make
//! (decision 031), one token bucket per key in the database so that every
//! instance counts together: a request is let through when its buckets have
//! room, in one statement that spends from all of them at once.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use crate::{Db, for_both_engines, on_pool};

/// A bucket: one request every `spacing` microseconds, `burst` at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowance {
    pub key: String,
    pub spacing: i64,
    pub burst: i64,
}

/// The statement that spends one request from each of `count` buckets:
/// only placeholders are written into it, never a value.
fn spend_sql(count: usize) -> String {
    let rows: Vec<String> = (0..count)
        .map(|i| {
            let [key, spacing, burst] = [2, 3, 4].map(|n| 3 * i + n);
            format!("(${key}, $1 + ${spacing}, ${spacing}, ${spacing} * ${burst})")
        })
        .collect();
    let next = "(case when write_allowance.ready_at > $1 then write_allowance.ready_at else $1 end) + excluded.spacing";
    format!(
        "insert into write_allowance (client_key, ready_at, spacing, burst) values {} \
         on conflict (client_key) do update set ready_at = {next}, spacing = excluded.spacing, burst = excluded.burst \
         where {next} - $1 <= excluded.burst returning client_key",
        rows.join(", ")
    )
}

pub(crate) trait AllowanceSteps {
    /// Spends one request from each of `buckets` at `now` and answers
    /// whether all had room (a generic cell rate algorithm: a bucket is
    /// the instant it is full again, moved on by `spacing` a request and
    /// never more than `burst` requests ahead). A bucket without room is
    /// left as it was; one with room is spent even when another had none,
    /// so a request refused by its browser's bucket still counts against
    /// its address. Inside an order's transaction, it is one commit with
    /// the order (decision 031).
    async fn spend_allowances(&mut self, buckets: &[Allowance], now: DateTime<Utc>) -> sqlx::Result<bool>;
}

for_both_engines! {
    impl AllowanceSteps {
        async fn spend_allowances(&mut self, buckets: &[Allowance], now: DateTime<Utc>) -> sqlx::Result<bool> {
            if buckets.is_empty() {
                return Ok(true);
            }
            let sql = spend_sql(buckets.len());
            let mut query = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql)).bind(now.timestamp_micros());
            for bucket in buckets {
                query = query.bind(&bucket.key).bind(bucket.spacing).bind(bucket.burst);
            }
            Ok(query.fetch_all(&mut *self).await?.len() == buckets.len())
        }
    }
}

impl Db {
    /// [`AllowanceSteps::spend_allowances`] on its own: a request let
    /// through when its buckets, shared by every instance, have room.
    pub async fn spend_allowances(&self, buckets: &[Allowance], now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut conn = pool.acquire().await?;
            conn.spend_allowances(buckets, now).await
        })
        .context("Failed to count a request against its allowance")
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
