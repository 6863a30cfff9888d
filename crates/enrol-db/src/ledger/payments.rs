//! Money in and out: payments recorded once per provider transaction,
//! each with its receipt; refunds decided inside the transaction that
//! finds them due and made at the provider afterwards by the refund
//! worker, each with its credit note once made. The steps a caller's
//! transaction takes are [`crate::ledger::MoneySteps`].

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::money::Money;
use enrol_domain::receipt::{Document, DocumentLink, Draft, IssuedDocument, Issuer, Purchase, refund_mail};

use crate::ledger::MoneySteps;
use crate::ledger::receipts::DocumentOf;
use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool};

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

/// The payments of a purchase, the booking `$1` or the online order `$2`
/// (the other null): each through its own index, as an `or` of the two
/// is not on every engine's plan. A null is compared as `''`, which no
/// purchase is: SQLite plans with the values bound and its samples of the
/// index, and would walk the payments to avoid the many with no online
/// order.
pub(crate) const PURCHASE_PAYMENTS: &str = "(select id from payment where enrollment_id = coalesce($1, '') \
     union all select id from payment where online_order_id = coalesce($2, ''))";

/// A payment just recorded, with its receipt.
pub(crate) struct RecordedPayment {
    pub id: String,
    pub receipt: IssuedDocument,
}

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
            // The payment's status (`refunded`, `partially_refunded`) says how much of it was given back.
            if made.is_some() {
                if let Some(entry) = audit {
                    tx.audit(entry, now).await?;
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
            let paid_to_date = tx.paid_towards(enrollment_id.as_deref(), online_order_id.as_deref()).await?;
            let draft = Draft::credit_note(&receipt, issuer, Money::from_pence(amount), paid_to_date, &reason);
            let about = DocumentOf {
                payment_id: &payment_id,
                refund_id: Some(id),
                enrollment_id: enrollment_id.as_deref(),
                online_order_id: online_order_id.as_deref(),
            };
            let note = tx.issue_document(draft, &about, link, now).await?;
            let issued = link.issued(&note);
            if let Some(mail) = refund_mail(&note, &issued) {
                tx.queue_mail(&mail, now).await?;
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
