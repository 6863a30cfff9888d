//! Money in and out: payments recorded once per provider transaction,
//! refunds decided inside the transaction that finds them due and made at
//! the provider afterwards by the refund worker, and the account a
//! purchase joins. The macros run inside a caller's transaction on either
//! engine (see [`crate::on_pool!`]).

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::money::Money;

use crate::{Db, on_pool};

/// A payment to record, of an enrollment or of an online order.
pub(crate) struct NewPayment<'a> {
    pub amount: Money,
    pub currency: &'a str,
    /// The provider's id of the payment; a second record of it is refused.
    pub transaction_id: &'a str,
    pub method: &'a str,
    pub metadata: String,
    pub enrollment_id: Option<&'a str>,
    pub online_order_id: Option<&'a str>,
    pub user_id: Option<&'a str>,
}

/// Records `$payment` (a [`NewPayment`]) inside `$tx`: its new id, or
/// `None` when its provider transaction was recorded before (a replayed or
/// repeated event).
macro_rules! record_payment {
    ($tx:expr, $payment:expr, $now:expr) => {
        async {
            let payment: &$crate::ledger::NewPayment<'_> = $payment;
            let id = $crate::public_id();
            let done = sqlx::query(
                "insert into payment (id, amount, status, currency, transaction_id, method, metadata, enrollment_id, online_order_id, \
                 user_id, created_at) values ($1, $2, 'succeeded', $3, $4, $5, $6, $7, $8, $9, $10) on conflict (transaction_id) do nothing",
            )
            .bind(&id)
            .bind(payment.amount.pence())
            .bind(payment.currency)
            .bind(payment.transaction_id)
            .bind(payment.method)
            .bind(&payment.metadata)
            .bind(payment.enrollment_id)
            .bind(payment.online_order_id)
            .bind(payment.user_id)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
            Ok::<_, sqlx::Error>((done.rows_affected() == 1).then_some(id))
        }
    };
}
pub(crate) use record_payment;

/// Decides a refund of `$amount` of payment `$payment_id` inside `$tx`;
/// the refund worker makes it at the provider. Its id.
macro_rules! queue_refund {
    ($tx:expr, $payment_id:expr, $amount:expr, $reason:expr, $now:expr) => {
        async {
            let id = $crate::public_id();
            sqlx::query("insert into refund (id, payment_id, amount, reason, created_at) values ($1, $2, $3, $4, $5)")
                .bind(&id)
                .bind($payment_id)
                .bind($amount.pence())
                .bind($reason)
                .bind($now)
                .execute(&mut *$tx)
                .await?;
            Ok::<_, sqlx::Error>(id)
        }
    };
}
pub(crate) use queue_refund;

/// The account a paid purchase joins: `$user_id` (an `&Option<String>`,
/// set when it was bought signed in), else the account whose proven email
/// is `$email`. Only a proven address links a guest's purchase to an account.
macro_rules! account_for {
    ($tx:expr, $user_id:expr, $email:expr) => {
        async {
            match $user_id {
                Some(id) => Ok::<Option<String>, sqlx::Error>(Some(id.clone())),
                None => {
                    sqlx::query_scalar("select id from user_account where email = $1 and email_verified_at is not null")
                        .bind($email)
                        .fetch_optional(&mut *$tx)
                        .await
                }
            }
        }
    };
}
pub(crate) use account_for;

/// A refund decided but not yet made at the payment provider.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PendingRefund {
    pub id: String,
    /// The provider's payment id (a payment intent).
    pub transaction_id: String,
    pub amount: i64,
}

impl Db {
    /// Refunds decided but not yet made at the provider, oldest first.
    pub async fn pending_refunds(&self, limit: i64) -> anyhow::Result<Vec<PendingRefund>> {
        on_pool!(self, pool => sqlx::query_as(
            "select r.id, p.transaction_id, r.amount from refund r join payment p on p.id = r.payment_id \
             where r.status = 'pending' order by r.created_at limit $1"
        ).bind(limit).fetch_all(pool).await)
        .context("Failed to read the pending refunds")
    }

    /// The provider made refund `id`: it is done, and its payment's status
    /// (§3) says how much of it was given back.
    pub async fn complete_refund(&self, id: &str, provider_refund_id: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "update refund set status = 'succeeded', provider_refund_id = $2, completed_at = $3, attempts = attempts + 1 \
                 where id = $1 and status = 'pending'"
            ).bind(id).bind(provider_refund_id).bind(now).execute(&mut *tx).await?;
            sqlx::query(
                "update payment set status = case when (select sum(r.amount) from refund r where r.payment_id = payment.id \
                 and r.status = 'succeeded') >= payment.amount then 'refunded' else 'partially_refunded' end \
                 where id = (select payment_id from refund where id = $1)"
            ).bind(id).execute(&mut *tx).await?;
            tx.commit().await
        })
        .context("Failed to record the refund")
    }

    /// What the refunds made of provider payment `transaction_id` add up to.
    pub async fn refunded_of(&self, transaction_id: &str) -> anyhow::Result<Money> {
        on_pool!(self, pool => sqlx::query_scalar::<_, i64>(
            "select cast(coalesce(sum(r.amount), 0) as bigint) from refund r join payment p on p.id = r.payment_id \
             where p.transaction_id = $1 and r.status = 'succeeded'"
        ).bind(transaction_id).fetch_one(pool).await)
        .map(Money::from_pence)
        .context("Failed to read the refunds of a payment")
    }

    /// The provider could not make refund `id` this time; it is tried again.
    pub async fn note_refund_failure(&self, id: &str, error: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("update refund set attempts = attempts + 1, last_error = $2 where id = $1 and status = 'pending'")
            .bind(id).bind(error).execute(pool).await.map(drop))
        .context("Failed to record the refund failure")
    }
}
