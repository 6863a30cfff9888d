//! Money in and out: payments recorded once per provider transaction,
//! each with its receipt; refunds decided inside the transaction that
//! finds them due and made at the provider afterwards by the refund
//! worker, each with its credit note once made; and the account a
//! purchase joins. The macros run inside a caller's transaction on either
//! engine (see [`crate::on_pool!`]).

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::money::Money;
use enrol_domain::receipt::{Document, DocumentLink, Draft, IssuedDocument, Issuer, Purchase, refund_mail};

use crate::money::receipts::{DocumentOf, issue_document};
use crate::{AuditEntry, Db, on_pool, queue_mail};

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
    /// What it pays for, as its receipt tells it.
    pub purchase: &'a Purchase,
    /// Who issues its receipt.
    pub issuer: &'a Issuer,
    /// The link that opens its receipt from the mail.
    pub link: &'a DocumentLink,
}

/// How the transaction id of a payment the college took outside the
/// provider (a staff member recorded it) begins: no provider can give it
/// back, so the refund worker leaves its refunds to a person.
pub(crate) const OFFLINE_PAYMENT: &str = "offline-";

/// A payment just recorded, with its receipt.
pub(crate) struct RecordedPayment {
    pub id: String,
    pub receipt: IssuedDocument,
}

/// What a purchase, the booking `$enrollment_id` or the online order
/// `$online_order_id` (the other `None`), holds of the buyer's money
/// inside `$tx`: its payments less its refunds (made or being made), as
/// `net_paid!` counts a booking's.
macro_rules! paid_towards {
    ($tx:expr, $enrollment_id:expr, $online_order_id:expr) => {
        async {
            sqlx::query_scalar::<_, i64>(
                "select cast(coalesce((select sum(amount) from payment where enrollment_id = $1 or online_order_id = $2), 0) \
                 - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id \
                 where p.enrollment_id = $1 or p.online_order_id = $2), 0) as bigint)",
            )
            .bind($enrollment_id)
            .bind($online_order_id)
            .fetch_one(&mut *$tx)
            .await
            .map(enrol_domain::money::Money::from_pence)
        }
    };
}
pub(crate) use paid_towards;

/// Records `$payment` (a [`NewPayment`]) and issues its receipt inside
/// `$tx`: a [`RecordedPayment`], or `None` when its provider transaction
/// was recorded before (a replayed or repeated event). Every payment gets
/// its receipt here, so no way of paying can leave one out.
macro_rules! record_payment {
    ($tx:expr, $payment:expr, $now:expr) => {
        async {
            let payment: &$crate::money::ledger::NewPayment<'_> = $payment;
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
            if done.rows_affected() == 0 {
                return Ok(None);
            }
            let paid_to_date = $crate::money::ledger::paid_towards!($tx, payment.enrollment_id, payment.online_order_id).await?;
            let draft = enrol_domain::receipt::Draft::receipt(payment.issuer, payment.purchase, payment.amount, paid_to_date, payment.method);
            let about = $crate::money::receipts::DocumentOf {
                payment_id: &id,
                refund_id: None,
                enrollment_id: payment.enrollment_id,
                online_order_id: payment.online_order_id,
            };
            let receipt = $crate::money::receipts::issue_document!($tx, draft, &about, payment.link, $now).await?;
            Ok::<_, sqlx::Error>(Some($crate::money::ledger::RecordedPayment { receipt: payment.link.issued(&receipt), id }))
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

/// Queues refunds adding up to `$amount` (a `Money`) of enrollment
/// `$enrollment_id`'s payments inside `$tx`, newest payment first, each no
/// more than what is left of it after earlier refunds
/// (`enrol_domain::cancellation::spread_refund`). The refunds' ids.
macro_rules! refund_enrollment {
    ($tx:expr, $enrollment_id:expr, $amount:expr, $reason:expr, $now:expr) => {
        async {
            let left: Vec<(String, i64)> = sqlx::query_as(
                "select p.id, cast(p.amount - coalesce((select sum(r.amount) from refund r where r.payment_id = p.id), 0) as bigint) \
                 from payment p where p.enrollment_id = $1 order by p.created_at, p.id",
            )
            .bind($enrollment_id)
            .fetch_all(&mut *$tx)
            .await?;
            let left: Vec<(String, enrol_domain::money::Money)> =
                left.into_iter().map(|(payment, pence)| (payment, enrol_domain::money::Money::from_pence(pence))).collect();
            let mut refunds = Vec::new();
            for (payment_id, piece) in enrol_domain::cancellation::spread_refund(&left, $amount) {
                refunds.push($crate::money::ledger::queue_refund!($tx, payment_id, piece, $reason, $now).await?);
            }
            Ok::<Vec<String>, sqlx::Error>(refunds)
        }
    };
}
pub(crate) use refund_enrollment;

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

/// What recording a refund as made did.
#[derive(Debug)]
pub enum RefundRecorded {
    /// Recorded now, with its credit note: none for a payment recorded
    /// before receipts were issued.
    Made(Option<IssuedDocument>),
    /// Recorded before, by another request or instance: nothing changed.
    Before,
}

impl Db {
    /// Refunds decided but not yet made at the provider, oldest first;
    /// not those of money taken outside it, which a person gives back.
    pub async fn pending_refunds(&self, limit: i64) -> anyhow::Result<Vec<PendingRefund>> {
        on_pool!(self, pool => sqlx::query_as(
            "select r.id, p.transaction_id, r.amount from refund r join payment p on p.id = r.payment_id \
             where r.status = 'pending' and p.transaction_id not like $2 order by r.created_at limit $1"
        ).bind(limit).bind(format!("{OFFLINE_PAYMENT}%")).fetch_all(pool).await)
        .context("Failed to read the pending refunds")
    }

    /// Whether `refund_id` is a refund of order `order_id`'s money taken
    /// outside the provider that nobody has recorded as given back yet.
    pub async fn hand_refund_pending(&self, order_id: &str, refund_id: &str) -> anyhow::Result<bool> {
        on_pool!(self, pool => sqlx::query_scalar::<_, i64>(
            "select count(*) from refund r join payment p on p.id = r.payment_id \
             where r.id = $1 and p.enrollment_id = $2 and r.status = 'pending' and p.transaction_id like $3"
        ).bind(refund_id).bind(order_id).bind(format!("{OFFLINE_PAYMENT}%")).fetch_one(pool).await)
        .map(|found| found == 1)
        .context("Failed to read the refund")
    }

    /// Refund `id` was made (by the provider, whose refund id is
    /// `made_as`, or by a member of staff by hand, who is `audit`'s actor):
    /// recorded as made, with its credit note (correcting the receipt of
    /// the payment refunded, opened by `link`), the buyer's mail and the
    /// audit row, in one transaction, by the one call that finds it
    /// pending; any other was too late ([`RefundRecorded::Before`]).
    pub async fn complete_refund(
        &self,
        id: &str,
        made_as: &str,
        audit: Option<&AuditEntry>,
        issuer: &Issuer,
        link: &DocumentLink,
        now: DateTime<Utc>,
    ) -> anyhow::Result<RefundRecorded> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let made: Option<(String, i64, String)> = sqlx::query_as(
                "update refund set status = 'succeeded', provider_refund_id = $2, completed_at = $3, attempts = attempts + 1 \
                 where id = $1 and status = 'pending' returning payment_id, amount, reason"
            ).bind(id).bind(made_as).bind(now).fetch_optional(&mut *tx).await?;
            // The payment's status (§3) says how much of it was given back.
            if made.is_some() {
                if let Some(entry) = audit {
                    crate::audit!(tx, entry, now)?;
                }
                sqlx::query(
                    "update payment set status = case when (select sum(r.amount) from refund r where r.payment_id = payment.id \
                     and r.status = 'succeeded') >= payment.amount then 'refunded' else 'partially_refunded' end \
                     where id = (select payment_id from refund where id = $1)"
                ).bind(id).execute(&mut *tx).await?;
            }
            let receipt: Option<(String, Option<String>, Option<String>)> = match &made {
                Some((payment_id, ..)) => sqlx::query_as(
                    "select document, enrollment_id, online_order_id from receipt where payment_id = $1 and kind = 'receipt'"
                ).bind(payment_id).fetch_optional(&mut *tx).await?,
                None => None,
            };
            let recorded_now = made.is_some();
            let (Some((payment_id, amount, reason)), Some((receipt, enrollment_id, online_order_id))) = (made, receipt) else {
                tx.commit().await?;
                return Ok(if recorded_now { RefundRecorded::Made(None) } else { RefundRecorded::Before });
            };
            let receipt: Document = serde_json::from_str(&receipt).map_err(|e| sqlx::Error::Decode(e.into()))?;
            let paid_to_date = paid_towards!(tx, enrollment_id.as_deref(), online_order_id.as_deref()).await?;
            let draft = Draft::credit_note(&receipt, issuer, Money::from_pence(amount), paid_to_date, &reason);
            let about = DocumentOf {
                payment_id: &payment_id,
                refund_id: Some(id),
                enrollment_id: enrollment_id.as_deref(),
                online_order_id: online_order_id.as_deref(),
            };
            let note = issue_document!(tx, draft, &about, link, now).await?;
            let issued = link.issued(&note);
            if let Some(mail) = refund_mail(&note, &issued) {
                queue_mail!(tx, &mail, now)?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(RefundRecorded::Made(Some(issued)))
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
