//! After the booking fee (decision 015): the links that pay a balance, and
//! balance payments recorded once whatever the order or number of the
//! provider's events; money the college took outside the provider is
//! recorded by the same transaction, with its audit row (decision 017).
//! What to do is decided in `enrol_domain::balance`; this module carries
//! it out. The reminders are in `money::reminders`.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde_json::json;

use enrol_domain::back_office::{OfflineMethod, check_offline_payment};
use enrol_domain::balance::{BalanceNotice, BalancePayment, BalanceRefused, balance_payment, balance_receipt, outstanding};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::receipt::{DocumentLink, Issuer, Purchase};

use crate::instalments::PlanSteps;
use crate::ledger::payments::{NewPayment, OFFLINE_PAYMENT};
use crate::ledger::{BalanceLink, MoneySteps};
use crate::orders::enrollments::{EnrollmentRecord, Row, SELECT};
use crate::orders::fulfilment::IntentOutcome;
use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool, public_id};

/// What handling a balance payment did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BalanceFulfilment {
    /// Counted towards the balance; `refund` gives back what was paid beyond it.
    Paid {
        status: EnrollmentStatus,
        refund: Option<String>,
    },
    /// Nothing was owed: the payment is recorded and refunded whole.
    NotOwed {
        refund: String,
    },
    AlreadyHandled,
    UnknownOrder,
    /// An offline payment beyond the balance, or of nothing: not recorded.
    Refused(BalanceRefused),
}

/// A payment towards a booking's balance.
#[derive(Debug, Clone, Copy)]
pub enum BalancePaid<'a> {
    /// Through the payment provider: its event or reconciliation, the student's own.
    Provider(&'a IntentOutcome),
    /// Money the college took outside the provider, which a staff member records.
    Offline(&'a OfflinePayment),
}

/// Money the college took towards a booking's balance outside the payment
/// provider (decision 017): a bank transfer, a card taken by phone, cash.
#[derive(Debug, Clone)]
pub struct OfflinePayment {
    pub order_id: String,
    pub amount: Money,
    pub method: OfflineMethod,
    /// The bank's or the card terminal's reference, as entered.
    pub reference: String,
    /// Who recorded it.
    pub staff_id: String,
}

impl BalancePaid<'_> {
    fn order_id(&self) -> &str {
        match self {
            BalancePaid::Provider(intent) => &intent.order_id,
            BalancePaid::Offline(offline) => &offline.order_id,
        }
    }

    fn amount(&self) -> Money {
        match self {
            BalancePaid::Provider(intent) => intent.amount,
            BalancePaid::Offline(offline) => offline.amount,
        }
    }
}

impl Db {
    /// Stores a link that pays the balance of `enrollment_id`.
    pub async fn create_balance_link(&self, enrollment_id: &str, link: &BalanceLink, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            tx.store_balance_link(enrollment_id, link, now).await?;
            tx.commit().await
        })
        .context("Failed to store the balance link")
    }

    /// The booking a live link pays.
    pub async fn balance_link_enrollment(&self, token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<EnrollmentRecord>> {
        let id: Option<String> = on_pool!(self, pool => sqlx::query_scalar(
            "select enrollment_id from balance_link where token_hash = $1 and expires_at > $2"
        ).bind(token_hash).bind(now).fetch_optional(pool).await)
        .context("Failed to read the balance link")?;
        match id {
            Some(id) => self.enrollment(&id).await,
            None => Ok(None),
        }
    }

    /// A payment intent prepared for the balance of `enrollment_id`, for reconciliation.
    pub async fn record_balance_intent(
        &self,
        intent_id: &str,
        enrollment_id: &str,
        amount: Money,
        now: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query("insert into balance_intent (id, enrollment_id, amount, created_at) values ($1, $2, $3, $4)")
            .bind(intent_id).bind(enrollment_id).bind(amount.pence()).bind(now).execute(pool).await.map(drop))
        .context("Failed to record the balance payment intent")
    }

    /// Balance intents made between `since` and `before` with no payment
    /// recorded: (booking, intent), for reconciliation to ask the provider.
    pub async fn balance_intents_awaiting_payment(
        &self,
        since: DateTime<Utc>,
        before: DateTime<Utc>,
    ) -> anyhow::Result<Vec<(String, String)>> {
        on_pool!(self, pool => sqlx::query_as(
            "select i.enrollment_id, i.id from balance_intent i where i.created_at >= $1 and i.created_at < $2 \
             and not exists (select 1 from payment p where p.transaction_id = i.id) order by i.created_at"
        ).bind(since).bind(before).fetch_all(pool).await)
        .context("Failed to read the balance payments awaiting confirmation")
    }

    /// Whether provider payment `transaction_id` of `enrollment_id` is recorded.
    pub async fn payment_recorded(&self, enrollment_id: &str, transaction_id: &str) -> anyhow::Result<bool> {
        on_pool!(self, pool => sqlx::query_scalar::<_, i64>(
            "select count(*) from payment where enrollment_id = $1 and transaction_id = $2"
        ).bind(enrollment_id).bind(transaction_id).fetch_one(pool).await)
        .map(|n| n > 0)
        .context("Failed to read the payment")
    }

    /// Records a balance payment once: the payment row and its receipt
    /// (from `issuer`, opened by `receipt_link`), the booking's new status,
    /// any refund of what was paid beyond the balance and the receipt mail
    /// (with `next_link` to pay the rest, if any is left), in one
    /// transaction that holds the booking's row. An offline payment is
    /// first checked against what is owed there (nothing beyond it is
    /// taken) and writes its audit row.
    pub async fn pay_balance(
        &self,
        paid: BalancePaid<'_>,
        next_link: &BalanceLink,
        issuer: &Issuer,
        receipt_link: &DocumentLink,
        now: DateTime<Utc>,
    ) -> anyhow::Result<BalanceFulfilment> {
        let (order_id, amount) = (paid.order_id(), paid.amount());
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if let BalancePaid::Provider(intent) = paid && !tx.first_delivery(&intent.event_id, &intent.event_type, now).await? {
                return Ok(BalanceFulfilment::AlreadyHandled);
            }
            // The row lock: two payments of one balance are counted one after the other.
            sqlx::query("update enrollment set status = status where id = $1").bind(order_id).execute(&mut *tx).await?;
            let row: Option<Row> = sqlx::query_as(SELECT.as_str()).bind(order_id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.commit().await?;
                return Ok(BalanceFulfilment::UnknownOrder);
            };
            let record = row.into_record().map_err(|e| sqlx::Error::Decode(e.into()))?;
            if let BalancePaid::Offline(_) = paid && let Err(refused) = check_offline_payment(record.status, record.owed(), amount) {
                tx.rollback().await?;
                return Ok(BalanceFulfilment::Refused(refused));
            }
            let email = record.email.trim().to_lowercase();
            let user_id = tx.account_for(&record.user_id, &email).await?;
            let buyer = format!("{} {}", record.given_name, record.family_name);
            let purchase = Purchase::booking(&record.reference, &buyer, &email, &record.courses, &record.quote);
            // Money taken by hand has no provider payment: its id is ours.
            let (transaction_id, currency, method, metadata) = match paid {
                BalancePaid::Provider(intent) => (
                    intent.intent_id.clone(),
                    intent.currency.as_str(),
                    intent.method.as_str(),
                    json!({ "order_id": record.id, "event_id": intent.event_id, "mode": "balance" }),
                ),
                BalancePaid::Offline(offline) => (
                    format!("{OFFLINE_PAYMENT}{}", public_id()),
                    "gbp",
                    offline.method.as_str(),
                    json!({ "order_id": record.id, "mode": "balance", "reference": offline.reference, "staff_id": offline.staff_id }),
                ),
            };
            let payment = NewPayment {
                amount,
                currency,
                transaction_id: &transaction_id,
                method,
                metadata: metadata.to_string(),
                enrollment_id: Some(&record.id),
                online_order_id: None,
                user_id: user_id.as_deref(),
                purchase: &purchase,
                issuer,
                link: receipt_link,
            };
            let Some(recorded) = tx.record_payment(&payment, now).await? else {
                tx.commit().await?;
                return Ok(BalanceFulfilment::AlreadyHandled);
            };
            let (status, applied, excess) = match balance_payment(record.status, record.quote.total, record.paid, amount) {
                BalancePayment::NotOwed => {
                    let refund = tx.queue_refund(&recorded.id, amount, "nothing owed", now).await?;
                    tx.commit().await?;
                    return Ok(BalanceFulfilment::NotOwed { refund });
                }
                BalancePayment::Applied { status, applied, excess } => (status, applied, excess),
            };
            sqlx::query("update enrollment set status = $2 where id = $1").bind(&record.id).bind(status.as_str()).execute(&mut *tx).await?;
            let refund = if excess > Money::ZERO { Some(tx.queue_refund(&recorded.id, excess, "overpayment", now).await?) } else { None };
            let owed = outstanding(record.quote.total, record.paid + applied);
            let paid_to_balance = Money::from_pence((record.paid + applied).pence() - record.quote.deposit.pence());
            tx.settle_plan(&record.id, paid_to_balance, now).await?;
            if owed > Money::ZERO {
                tx.store_balance_link(&record.id, next_link, now).await?;
            }
            if !email.is_empty() {
                let notice = BalanceNotice {
                    reference: &record.reference,
                    given_name: &record.given_name,
                    email: &email,
                    courses: &record.courses,
                    owed,
                    due_on: record.balance_due_on(london::today(now)).unwrap_or_else(|| london::today(now)),
                    pay_url: &next_link.url,
                };
                tx.queue_mail(&balance_receipt(&notice, applied, excess, &recorded.receipt, &issuer.name, london::today(now)), now).await?;
            }
            if let BalancePaid::Offline(offline) = paid {
                let entry = AuditEntry::new(&offline.staff_id, "order.payment", "order", &record.id)
                    .before(json!({ "status": record.status.as_str(), "paid": record.paid }))
                    .after(json!({ "status": status.as_str(), "paid": record.paid + applied, "amount": amount,
                        "method": method, "reference": offline.reference, "receipt": recorded.receipt.number }));
                tx.audit(&entry, now).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(BalanceFulfilment::Paid { status, refund })
        })
        .context("Failed to record the balance payment")
    }
}
