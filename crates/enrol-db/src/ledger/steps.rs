//! The steps of money inside a caller's transaction, on either engine
//! ([`crate::for_both_engines!`]): the provider's events recorded once,
//! payments with their receipts, refunds decided, documents numbered and
//! the links that pay a balance.

use chrono::{DateTime, Utc};

use enrol_domain::cancellation::spread_refund;
use enrol_domain::money::Money;
use enrol_domain::receipt::{Document, DocumentLink, Draft};

use crate::ledger::payments::{NewPayment, PURCHASE_PAYMENTS, RecordedPayment};
use crate::ledger::receipts::DocumentOf;
use crate::{for_both_engines, public_id};

/// A new link that pays a booking's balance: the database keeps the hash of
/// its token; `url` (with the token) goes only into the mail or the answer.
#[derive(Debug, Clone)]
pub struct BalanceLink {
    pub token_hash: String,
    pub expires_at: DateTime<Utc>,
    pub url: String,
}

pub(crate) trait MoneySteps {
    /// Records a payment provider's event; false when it was handled
    /// before (the provider retries and replays).
    async fn first_delivery(&mut self, event_id: &str, event_type: &str, now: DateTime<Utc>) -> sqlx::Result<bool>;

    /// What a purchase, the booking `enrollment_id` or the online order
    /// `online_order_id` (the other `None`), holds of the buyer's money: its
    /// payments less its refunds (made or being made), as
    /// [`crate::orders::enrollments::NET_PAID`] counts a booking's.
    async fn paid_towards(&mut self, enrollment_id: Option<&str>, online_order_id: Option<&str>) -> sqlx::Result<Money>;

    /// Records `payment` and issues its receipt: `None` when its provider
    /// transaction was recorded before (a replayed or repeated event).
    /// Every payment gets its receipt here, so no way of paying can leave
    /// one out.
    async fn record_payment(&mut self, payment: &NewPayment<'_>, now: DateTime<Utc>) -> sqlx::Result<Option<RecordedPayment>>;

    /// Decides a refund of `amount` of payment `payment_id`; the refund
    /// worker makes it at the provider. Its id.
    async fn queue_refund(&mut self, payment_id: &str, amount: Money, reason: &str, now: DateTime<Utc>) -> sqlx::Result<String>;

    /// Queues refunds adding up to `amount` of the payments of a purchase,
    /// the booking `enrollment_id` or the online order `online_order_id`
    /// (the other `None`), newest payment first, each no more than what is
    /// left of it after earlier refunds
    /// (`enrol_domain::cancellation::spread_refund`). The refunds' ids.
    async fn refund_purchase(
        &mut self,
        enrollment_id: Option<&str>,
        online_order_id: Option<&str>,
        amount: Money,
        reason: &str,
        now: DateTime<Utc>,
    ) -> sqlx::Result<Vec<String>>;

    /// Issues `draft` about `about`, opened by the token of `link`: the
    /// issued document. Its number is the next of its prefix, taken by
    /// updating the prefix's row, so a transaction that rolls back gives
    /// the number back (no gaps) and the row's lock makes concurrent
    /// issuers take turns (no duplicates) until the commit.
    async fn issue_document(
        &mut self,
        draft: Draft,
        about: &DocumentOf<'_>,
        link: &DocumentLink,
        now: DateTime<Utc>,
    ) -> sqlx::Result<Document>;

    /// Stores `link`, which pays the balance of `enrollment_id`.
    async fn store_balance_link(&mut self, enrollment_id: &str, link: &BalanceLink, now: DateTime<Utc>) -> sqlx::Result<()>;
}

for_both_engines! {
    impl MoneySteps {
        async fn first_delivery(&mut self, event_id: &str, event_type: &str, now: DateTime<Utc>) -> sqlx::Result<bool> {
            let done = sqlx::query("insert into webhook_event (id, type, received_at) values ($1, $2, $3) on conflict (id) do nothing")
                .bind(event_id)
                .bind(event_type)
                .bind(now)
                .execute(&mut *self)
                .await?;
            Ok(done.rows_affected() == 1)
        }

        async fn paid_towards(&mut self, enrollment_id: Option<&str>, online_order_id: Option<&str>) -> sqlx::Result<Money> {
            sqlx::query_scalar::<_, i64>(
                sqlx::AssertSqlSafe(format!(
                    "select cast(coalesce((select sum(amount) from payment where id in {PURCHASE_PAYMENTS}), 0) \
                     - coalesce((select sum(r.amount) from refund r where r.payment_id in {PURCHASE_PAYMENTS}), 0) as bigint)"
                )),
            )
            .bind(enrollment_id)
            .bind(online_order_id)
            .fetch_one(&mut *self)
            .await
            .map(Money::from_pence)
        }

        async fn record_payment(&mut self, payment: &NewPayment<'_>, now: DateTime<Utc>) -> sqlx::Result<Option<RecordedPayment>> {
            let id = public_id();
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
            .bind(now)
            .execute(&mut *self)
            .await?;
            if done.rows_affected() == 0 {
                return Ok(None);
            }
            let paid_to_date = self.paid_towards(payment.enrollment_id, payment.online_order_id).await?;
            let draft = Draft::receipt(payment.issuer, payment.purchase, payment.amount, paid_to_date, payment.method);
            let about = DocumentOf {
                payment_id: &id,
                refund_id: None,
                enrollment_id: payment.enrollment_id,
                online_order_id: payment.online_order_id,
            };
            let receipt = self.issue_document(draft, &about, payment.link, now).await?;
            Ok(Some(RecordedPayment { receipt: payment.link.issued(&receipt), id }))
        }

        async fn queue_refund(&mut self, payment_id: &str, amount: Money, reason: &str, now: DateTime<Utc>) -> sqlx::Result<String> {
            let id = public_id();
            sqlx::query("insert into refund (id, payment_id, amount, reason, created_at) values ($1, $2, $3, $4, $5)")
                .bind(&id)
                .bind(payment_id)
                .bind(amount.pence())
                .bind(reason)
                .bind(now)
                .execute(&mut *self)
                .await?;
            Ok(id)
        }

        async fn refund_purchase(
            &mut self,
            enrollment_id: Option<&str>,
            online_order_id: Option<&str>,
            amount: Money,
            reason: &str,
            now: DateTime<Utc>,
        ) -> sqlx::Result<Vec<String>> {
            let left: Vec<(String, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select p.id, cast(p.amount - coalesce((select sum(r.amount) from refund r where r.payment_id = p.id), 0) as bigint) \
                 from payment p where p.id in {PURCHASE_PAYMENTS} order by p.created_at, p.id"
            )))
            .bind(enrollment_id)
            .bind(online_order_id)
            .fetch_all(&mut *self)
            .await?;
            let left: Vec<(String, Money)> = left.into_iter().map(|(payment, pence)| (payment, Money::from_pence(pence))).collect();
            let mut refunds = Vec::new();
            for (payment_id, piece) in spread_refund(&left, amount) {
                refunds.push(self.queue_refund(payment_id, piece, reason, now).await?);
            }
            Ok(refunds)
        }

        async fn issue_document(&mut self, draft: Draft, about: &DocumentOf<'_>, link: &DocumentLink, now: DateTime<Utc>) -> sqlx::Result<Document> {
            let prefix = draft.kind().prefix();
            sqlx::query("insert into document_sequence (prefix, last_number) values ($1, 0) on conflict (prefix) do nothing")
                .bind(prefix)
                .execute(&mut *self)
                .await?;
            let sequence: i64 =
                sqlx::query_scalar("update document_sequence set last_number = last_number + 1 where prefix = $1 returning last_number")
                    .bind(prefix)
                    .fetch_one(&mut *self)
                    .await?;
            let document = draft.issue(sequence, now);
            let json = serde_json::to_string(&document).map_err(|e| sqlx::Error::Encode(e.into()))?;
            sqlx::query(
                "insert into receipt (id, number, prefix, sequence, kind, payment_id, refund_id, enrollment_id, online_order_id, amount, \
                 issued_at, access_token_hash, document) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(public_id())
            .bind(&document.number)
            .bind(prefix)
            .bind(sequence)
            .bind(document.kind.as_str())
            .bind(about.payment_id)
            .bind(about.refund_id)
            .bind(about.enrollment_id)
            .bind(about.online_order_id)
            .bind(document.amount.pence())
            .bind(document.issued_at)
            .bind(&link.token_hash)
            .bind(&json)
            .execute(&mut *self)
            .await?;
            Ok(document)
        }

        async fn store_balance_link(&mut self, enrollment_id: &str, link: &BalanceLink, now: DateTime<Utc>) -> sqlx::Result<()> {
            sqlx::query("insert into balance_link (token_hash, enrollment_id, expires_at, created_at) values ($1, $2, $3, $4)")
                .bind(&link.token_hash)
                .bind(enrollment_id)
                .bind(link.expires_at)
                .bind(now)
                .execute(&mut *self)
                .await?;
            Ok(())
        }
    }
}
