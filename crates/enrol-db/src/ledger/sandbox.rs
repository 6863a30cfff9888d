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
    /// The customer its card is saved to once paid (`save_card`), or charged from.
    pub customer: Option<String>,
    pub save_card: bool,
    /// The card that paid it.
    pub payment_method: Option<String>,
}

const INTENT_COLUMNS: &str = "id, client_secret, amount, status, payment_method_types, metadata, customer, save_card, payment_method";

impl Db {
    /// Stores `intent` under `idempotency_key`; a key seen before returns
    /// the intent first stored with it.
    pub async fn create_sandbox_intent(&self, idempotency_key: &str, intent: &SandboxIntent) -> anyhow::Result<SandboxIntent> {
        on_pool!(self, pool => {
            sqlx::query(
                "insert into sandbox_payment_intent (id, idempotency_key, client_secret, amount, status, payment_method_types, metadata, \
                 customer, save_card, payment_method) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (idempotency_key) do nothing"
            ).bind(&intent.id).bind(idempotency_key).bind(&intent.client_secret).bind(intent.amount).bind(&intent.status)
                .bind(&intent.payment_method_types).bind(&intent.metadata).bind(&intent.customer).bind(intent.save_card)
                .bind(&intent.payment_method)
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
            "update sandbox_payment_intent set amount = $2, payment_method_types = $3, metadata = $4, customer = $5, save_card = $6 \
             where id = $1 and status not in ('succeeded', 'canceled') returning {INTENT_COLUMNS}"
        ))).bind(&intent.id).bind(intent.amount).bind(&intent.payment_method_types).bind(&intent.metadata)
            .bind(&intent.customer).bind(intent.save_card)
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

    /// Marks an intent paid by `payment_method`; false when it already was, or was cancelled.
    pub async fn succeed_sandbox_intent(&self, id: &str, payment_method: Option<&str>) -> anyhow::Result<bool> {
        on_pool!(self, pool => sqlx::query("update sandbox_payment_intent set status = 'succeeded', payment_method = $2 \
             where id = $1 and status not in ('succeeded', 'canceled')")
            .bind(id).bind(payment_method).execute(pool).await.map(|r| r.rows_affected() == 1))
        .context("Failed to complete the sandbox payment intent")
    }

    /// Sets an intent's status (a saved card's charge that wants its owner).
    pub async fn set_sandbox_intent_status(&self, id: &str, status: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("update sandbox_payment_intent set status = $2 where id = $1 and status <> 'succeeded'")
            .bind(id).bind(status).execute(pool).await.map(drop))
        .context("Failed to change the sandbox payment intent")
    }

    /// Keeps a card the sandbox saved to `customer`, behaving as `behaviour`.
    pub async fn save_sandbox_card(&self, card: &SandboxCard, now: DateTime<Utc>) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("insert into sandbox_payment_method (id, customer, behaviour, last4, created_at) \
             values ($1, $2, $3, $4, $5)")
            .bind(&card.id).bind(&card.customer).bind(&card.behaviour).bind(&card.last4).bind(now).execute(pool).await.map(drop))
        .context("Failed to save the sandbox card")
    }

    pub async fn sandbox_card(&self, id: &str) -> anyhow::Result<Option<SandboxCard>> {
        on_pool!(self, pool => sqlx::query_as("select id, customer, behaviour, last4 from sandbox_payment_method where id = $1")
            .bind(id).fetch_optional(pool).await)
        .context("Failed to read the sandbox card")
    }

    /// Stores `setup` under its idempotency key; a key seen before returns
    /// the setup intent first stored with it.
    pub async fn create_sandbox_setup(
        &self,
        idempotency_key: &str,
        setup: &SandboxSetup,
        now: DateTime<Utc>,
    ) -> anyhow::Result<SandboxSetup> {
        on_pool!(self, pool => {
            sqlx::query("insert into sandbox_setup_intent (id, idempotency_key, client_secret, customer, status, payment_method, metadata, \
                 created_at) values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (idempotency_key) do nothing")
                .bind(&setup.id).bind(idempotency_key).bind(&setup.client_secret).bind(&setup.customer).bind(&setup.status)
                .bind(&setup.payment_method).bind(&setup.metadata).bind(now).execute(pool).await?;
            sqlx::query_as("select id, client_secret, customer, status, payment_method, metadata from sandbox_setup_intent \
                 where idempotency_key = $1").bind(idempotency_key).fetch_one(pool).await
        })
        .context("Failed to store the sandbox setup intent")
    }

    pub async fn sandbox_setup(&self, id: &str) -> anyhow::Result<Option<SandboxSetup>> {
        on_pool!(self, pool => sqlx::query_as("select id, client_secret, customer, status, payment_method, metadata \
             from sandbox_setup_intent where id = $1").bind(id).fetch_optional(pool).await)
        .context("Failed to read the sandbox setup intent")
    }

    /// A setup intent confirmed with `payment_method`; false when it already was.
    pub async fn succeed_sandbox_setup(&self, id: &str, payment_method: &str) -> anyhow::Result<bool> {
        on_pool!(self, pool => sqlx::query("update sandbox_setup_intent set status = 'succeeded', payment_method = $2 \
             where id = $1 and status <> 'succeeded'")
            .bind(id).bind(payment_method).execute(pool).await.map(|r| r.rows_affected() == 1))
        .context("Failed to complete the sandbox setup intent")
    }
}

/// A card the sandbox saved.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SandboxCard {
    pub id: String,
    pub customer: Option<String>,
    /// What charging it does: `succeeds`, `authenticate` (off-session), `declined`.
    pub behaviour: String,
    pub last4: String,
}

/// A sandbox setup intent: saving a card without a payment.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SandboxSetup {
    pub id: String,
    pub client_secret: String,
    pub customer: String,
    pub status: String,
    pub payment_method: Option<String>,
    /// JSON object of strings.
    pub metadata: String,
}
