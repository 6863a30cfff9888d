//! Requests sent with an `Idempotency-Key` (a double click, a retry after a
//! timeout) are carried out once; later copies get the first answer
//! (zero-to-production's pattern: claim the key with `insert … on conflict
//! do nothing`, then store the response).

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use crate::{Db, on_pool};

/// A stored first answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    pub status: u16,
    pub body: String,
}

/// What claiming a key found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdempotencyClaim {
    /// The key is new: carry the request out, then store its answer.
    Claimed,
    /// The same request was answered before: answer the same.
    Replay(StoredResponse),
    /// The same request is being carried out right now.
    InProgress,
    /// The key was used before for a different request.
    Mismatch,
}

impl Db {
    /// Claims `key` for `owner` (a browser) and the request whose hash is
    /// `request_hash`.
    pub async fn claim_idempotency_key(
        &self,
        owner: &str,
        key: &str,
        request_hash: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<IdempotencyClaim> {
        let _turn = self.write_turn().await;
        let (claimed, stored) = on_pool!(self, pool => {
            let claimed = sqlx::query(
                "insert into idempotency_record (owner, key, request_hash, created_at) values ($1, $2, $3, $4) on conflict (owner, key) do nothing"
            ).bind(owner).bind(key).bind(request_hash).bind(now).execute(pool).await?.rows_affected() == 1;
            let stored: (String, Option<i32>, Option<String>) = sqlx::query_as(
                "select request_hash, status_code, response_body from idempotency_record where owner = $1 and key = $2"
            ).bind(owner).bind(key).fetch_one(pool).await?;
            Ok::<_, sqlx::Error>((claimed, stored))
        })
        .context("Failed to claim the idempotency key")?;
        Ok(match (claimed, stored) {
            (true, _) => IdempotencyClaim::Claimed,
            (false, (hash, _, _)) if hash != request_hash => IdempotencyClaim::Mismatch,
            (false, (_, Some(status), Some(body))) => IdempotencyClaim::Replay(StoredResponse { status: u16::try_from(status)?, body }),
            (false, _) => IdempotencyClaim::InProgress,
        })
    }

    /// Stores the answer to a claimed key.
    pub async fn store_idempotent_response(&self, owner: &str, key: &str, response: &StoredResponse) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("update idempotency_record set status_code = $3, response_body = $4 where owner = $1 and key = $2")
            .bind(owner).bind(key).bind(i32::from(response.status)).bind(&response.body).execute(pool).await.map(drop))
        .context("Failed to store the idempotent response")
    }

    /// Lets a claimed key be tried again (the request failed on our side).
    pub async fn release_idempotency_key(&self, owner: &str, key: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("delete from idempotency_record where owner = $1 and key = $2 and status_code is null")
            .bind(owner).bind(key).execute(pool).await.map(drop))
        .context("Failed to release the idempotency key")
    }
}
