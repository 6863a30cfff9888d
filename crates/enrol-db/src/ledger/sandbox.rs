//! State of the built-in sandbox payment gateway: its hosted checkouts.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::{Db, on_pool};

/// A line as the sandbox's hosted page shows it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SandboxLine {
    pub name: String,
    pub amount: i64,
}

#[derive(Debug, Clone)]
pub struct SandboxCheckout {
    pub id: String,
    pub client_reference_id: String,
    pub lines: Vec<SandboxLine>,
    pub total: i64,
    pub success_url: String,
    pub cancel_url: String,
    pub metadata: std::collections::BTreeMap<String, String>,
    pub complete: bool,
    /// Who paid, once paid.
    pub customer_email: Option<String>,
    pub customer_name: Option<String>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    client_reference_id: String,
    lines: String,
    total: i64,
    success_url: String,
    cancel_url: String,
    metadata: String,
    status: String,
    customer_email: Option<String>,
    customer_name: Option<String>,
}

const COLUMNS: &str = "id, client_reference_id, lines, total, success_url, cancel_url, metadata, status, customer_email, customer_name";

impl Row {
    fn into_checkout(self) -> anyhow::Result<SandboxCheckout> {
        Ok(SandboxCheckout {
            lines: serde_json::from_str(&self.lines).context("Stored sandbox lines are not valid JSON")?,
            metadata: serde_json::from_str(&self.metadata).context("Stored sandbox metadata is not valid JSON")?,
            complete: self.status == "complete",
            id: self.id,
            client_reference_id: self.client_reference_id,
            total: self.total,
            success_url: self.success_url,
            cancel_url: self.cancel_url,
            customer_email: self.customer_email,
            customer_name: self.customer_name,
        })
    }
}

impl Db {
    /// Stores `checkout` under `idempotency_key`; a key seen before returns
    /// the checkout first stored with it.
    pub async fn create_sandbox_checkout(
        &self,
        idempotency_key: &str,
        checkout: &SandboxCheckout,
        now: DateTime<Utc>,
    ) -> anyhow::Result<SandboxCheckout> {
        let lines = serde_json::to_string(&checkout.lines)?;
        let metadata = serde_json::to_string(&checkout.metadata)?;
        let row: Row = on_pool!(self, pool => {
            sqlx::query(
                "insert into sandbox_checkout (id, idempotency_key, client_reference_id, lines, total, success_url, cancel_url, metadata, created_at) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (idempotency_key) do nothing"
            ).bind(&checkout.id).bind(idempotency_key).bind(&checkout.client_reference_id).bind(&lines).bind(checkout.total)
                .bind(&checkout.success_url).bind(&checkout.cancel_url).bind(&metadata).bind(now)
                .execute(pool).await?;
            sqlx::query_as(sqlx::AssertSqlSafe(format!("select {COLUMNS} from sandbox_checkout where idempotency_key = $1")))
                .bind(idempotency_key).fetch_one(pool).await
        })
        .context("Failed to store the sandbox checkout")?;
        row.into_checkout()
    }

    pub async fn sandbox_checkout(&self, id: &str) -> anyhow::Result<Option<SandboxCheckout>> {
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            sqlx::AssertSqlSafe(format!("select {COLUMNS} from sandbox_checkout where id = $1"))
        ).bind(id).fetch_optional(pool).await)
        .context("Failed to read the sandbox checkout")?;
        row.map(Row::into_checkout).transpose()
    }

    /// Marks the checkout paid by `email`; false when it already was (a
    /// second click).
    pub async fn complete_sandbox_checkout(&self, id: &str, email: &str, name: Option<&str>) -> anyhow::Result<bool> {
        on_pool!(self, pool => sqlx::query(
            "update sandbox_checkout set status = 'complete', customer_email = $2, customer_name = $3 where id = $1 and status = 'open'"
        ).bind(id).bind(email).bind(name).execute(pool).await.map(|r| r.rows_affected() == 1))
        .context("Failed to complete the sandbox checkout")
    }
}

/// A sandbox payment intent (the enrol checkout's card and BNPL payments).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SandboxIntent {
    pub id: String,
    pub client_secret: String,
    pub amount: i64,
    pub status: String,
    /// JSON list: `["card", "klarna", …]`.
    pub payment_method_types: String,
    /// JSON object of strings.
    pub metadata: String,
}

const INTENT_COLUMNS: &str = "id, client_secret, amount, status, payment_method_types, metadata";

impl Db {
    /// Stores `intent` under `idempotency_key`; a key seen before returns
    /// the intent first stored with it.
    pub async fn create_sandbox_intent(&self, idempotency_key: &str, intent: &SandboxIntent) -> anyhow::Result<SandboxIntent> {
        on_pool!(self, pool => {
            sqlx::query(
                "insert into sandbox_payment_intent (id, idempotency_key, client_secret, amount, status, payment_method_types, metadata) \
                 values ($1, $2, $3, $4, $5, $6, $7) on conflict (idempotency_key) do nothing"
            ).bind(&intent.id).bind(idempotency_key).bind(&intent.client_secret).bind(intent.amount).bind(&intent.status)
                .bind(&intent.payment_method_types).bind(&intent.metadata)
                .execute(pool).await?;
            sqlx::query_as(sqlx::AssertSqlSafe(format!("select {INTENT_COLUMNS} from sandbox_payment_intent where idempotency_key = $1")))
                .bind(idempotency_key).fetch_one(pool).await
        })
        .context("Failed to store the sandbox payment intent")
    }

    pub async fn sandbox_intent(&self, id: &str) -> anyhow::Result<Option<SandboxIntent>> {
        on_pool!(self, pool => sqlx::query_as(
            sqlx::AssertSqlSafe(format!("select {INTENT_COLUMNS} from sandbox_payment_intent where id = $1"))
        ).bind(id).fetch_optional(pool).await)
        .context("Failed to read the sandbox payment intent")
    }

    /// Changes amount, methods and metadata of an intent not yet paid.
    pub async fn update_sandbox_intent(&self, intent: &SandboxIntent) -> anyhow::Result<Option<SandboxIntent>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "update sandbox_payment_intent set amount = $2, payment_method_types = $3, metadata = $4 \
             where id = $1 and status not in ('succeeded', 'canceled') returning {INTENT_COLUMNS}"
        ))).bind(&intent.id).bind(intent.amount).bind(&intent.payment_method_types).bind(&intent.metadata)
            .fetch_optional(pool).await)
        .context("Failed to update the sandbox payment intent")
    }

    /// Cancels an intent not yet paid; `None` when it was paid.
    pub async fn cancel_sandbox_intent(&self, id: &str) -> anyhow::Result<Option<SandboxIntent>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "update sandbox_payment_intent set status = 'canceled' where id = $1 and status <> 'succeeded' returning {INTENT_COLUMNS}"
        ))).bind(id).fetch_optional(pool).await)
        .context("Failed to cancel the sandbox payment intent")
    }

    /// Marks an intent paid; false when it already was, or was cancelled.
    pub async fn succeed_sandbox_intent(&self, id: &str) -> anyhow::Result<bool> {
        on_pool!(self, pool => sqlx::query("update sandbox_payment_intent set status = 'succeeded' where id = $1 and status not in ('succeeded', 'canceled')")
            .bind(id).execute(pool).await.map(|r| r.rows_affected() == 1))
        .context("Failed to complete the sandbox payment intent")
    }
}
