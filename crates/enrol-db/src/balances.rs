//! After the booking fee (issue 13, decision 015): the links that pay a
//! balance, balance payments recorded once whatever the order or number of
//! the provider's events, the reminders of a balance each sent once, and
//! the leases the scheduled jobs run under. What to do is decided in
//! `enrol_domain::balance`; this module carries it out.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::balance::{BalanceNotice, BalancePayment, BalanceReminder, balance_payment, balance_receipt, outstanding, reminder_due};
use enrol_domain::enrollment::BookedCourse;
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::receipt::{DocumentLink, Issuer, Purchase};

use crate::enrollments::{EnrollmentRecord, Row, SELECT, net_paid};
use crate::fulfilment::IntentOutcome;
use crate::ledger::{NewPayment, account_for, queue_refund, record_payment};
use crate::{Db, first_delivery, on_pool, queue_mail};

/// A new link that pays a booking's balance: the database keeps the hash of
/// its token; `url` (with the token) goes only into the mail or the answer.
#[derive(Debug, Clone)]
pub struct BalanceLink {
    pub token_hash: String,
    pub expires_at: DateTime<Utc>,
    pub url: String,
}

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
}

/// A booking with a reminder due today, as the job found it.
#[derive(Debug, Clone)]
pub struct ReminderDue {
    pub enrollment_id: String,
    pub stage: BalanceReminder,
    pub given_name: String,
    pub email: String,
    pub courses: Vec<BookedCourse>,
    pub owed: Money,
    /// What had been paid when it was found: the reminder is sent only if
    /// nothing was paid since.
    pub paid: Money,
    pub due_on: NaiveDate,
}

impl ReminderDue {
    /// The mail of this reminder, paid through `pay_url`.
    pub fn mail(&self, today: NaiveDate, pay_url: &str, college: &str) -> Mail {
        self.notice(pay_url).reminder(self.stage, today, college)
    }

    fn notice<'a>(&'a self, pay_url: &'a str) -> BalanceNotice<'a> {
        BalanceNotice {
            order_id: &self.enrollment_id,
            given_name: &self.given_name,
            email: &self.email,
            courses: &self.courses,
            owed: self.owed,
            due_on: self.due_on,
            pay_url,
        }
    }
}

macro_rules! store_balance_link {
    ($tx:expr, $enrollment_id:expr, $link:expr, $now:expr) => {
        sqlx::query("insert into balance_link (token_hash, enrollment_id, expires_at, created_at) values ($1, $2, $3, $4)")
            .bind(&$link.token_hash)
            .bind($enrollment_id)
            .bind($link.expires_at)
            .bind($now)
            .execute(&mut *$tx)
            .await
    };
}

impl Db {
    /// Stores a link that pays the balance of `enrollment_id`.
    pub async fn create_balance_link(&self, enrollment_id: &str, link: &BalanceLink, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            store_balance_link!(tx, enrollment_id, link, now)?;
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
    /// transaction that holds the booking's row.
    pub async fn pay_balance(
        &self,
        paid: &IntentOutcome,
        next_link: &BalanceLink,
        issuer: &Issuer,
        receipt_link: &DocumentLink,
        now: DateTime<Utc>,
    ) -> anyhow::Result<BalanceFulfilment> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if !first_delivery!(tx, &paid.event_id, &paid.event_type, now)? {
                return Ok(BalanceFulfilment::AlreadyHandled);
            }
            // The row lock: two payments of one balance are counted one after the other.
            sqlx::query("update enrollment set status = status where id = $1").bind(&paid.order_id).execute(&mut *tx).await?;
            let row: Option<Row> = sqlx::query_as(SELECT).bind(&paid.order_id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.commit().await?;
                return Ok(BalanceFulfilment::UnknownOrder);
            };
            let record = row.into_record().map_err(|e| sqlx::Error::Decode(e.into()))?;
            let email = record.email.trim().to_lowercase();
            let user_id = account_for!(tx, &record.user_id, &email).await?;
            let buyer = format!("{} {}", record.given_name, record.family_name);
            let purchase = Purchase::booking(&record.id, &buyer, &email, &record.courses, &record.quote);
            let payment = NewPayment {
                amount: paid.amount,
                currency: &paid.currency,
                transaction_id: &paid.intent_id,
                method: &paid.method,
                metadata: serde_json::json!({ "order_id": record.id, "event_id": paid.event_id, "mode": "balance" }).to_string(),
                enrollment_id: Some(&record.id),
                online_order_id: None,
                user_id: user_id.as_deref(),
                purchase: &purchase,
                issuer,
                link: receipt_link,
            };
            let Some(recorded) = record_payment!(tx, &payment, now).await? else {
                tx.commit().await?;
                return Ok(BalanceFulfilment::AlreadyHandled);
            };
            let (status, applied, excess) = match balance_payment(record.status, record.quote.total, record.paid, paid.amount) {
                BalancePayment::NotOwed => {
                    let refund = queue_refund!(tx, &recorded.id, paid.amount, "nothing owed", now).await?;
                    tx.commit().await?;
                    return Ok(BalanceFulfilment::NotOwed { refund });
                }
                BalancePayment::Applied { status, applied, excess } => (status, applied, excess),
            };
            sqlx::query("update enrollment set status = $2 where id = $1").bind(&record.id).bind(status.as_str()).execute(&mut *tx).await?;
            let refund = if excess > Money::ZERO { Some(queue_refund!(tx, &recorded.id, excess, "overpayment", now).await?) } else { None };
            let owed = outstanding(record.quote.total, record.paid + applied);
            if owed > Money::ZERO {
                store_balance_link!(tx, &record.id, next_link, now)?;
            }
            if !email.is_empty() {
                let notice = BalanceNotice {
                    order_id: &record.id,
                    given_name: &record.given_name,
                    email: &email,
                    courses: &record.courses,
                    owed,
                    due_on: record.balance_due_on(london::today(now)).unwrap_or_else(|| london::today(now)),
                    pay_url: &next_link.url,
                };
                queue_mail!(tx, &balance_receipt(&notice, applied, excess, &recorded.receipt, &issuer.name), now)?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(BalanceFulfilment::Paid { status, refund })
        })
        .context("Failed to record the balance payment")
    }

    /// The bookings with a reminder of their balance due `today`: paid the
    /// booking fee, with an address, training not started, due within a week.
    pub async fn balance_reminders_due(&self, today: NaiveDate) -> anyhow::Result<Vec<ReminderDue>> {
        #[derive(sqlx::FromRow)]
        struct Candidate {
            id: String,
            given_name: String,
            email: String,
            lines: String,
            total: i64,
            paid: i64,
            starts_on: NaiveDate,
            balance_due_on: NaiveDate,
            paid_at: Option<DateTime<Utc>>,
        }
        let horizon = today.checked_add_days(chrono::Days::new(enrol_domain::balance::UPCOMING_REMINDER_DAYS)).unwrap_or(today);
        let rows: Vec<Candidate> = on_pool!(self, pool => sqlx::query_as(concat!(
            "select e.id, e.given_name, e.email, e.lines, e.total, ",
            net_paid!(),
            " as paid, e.starts_on, e.balance_due_on, e.paid_at from enrollment e where e.status = 'deposit' \
             and e.balance_due_on <= $1 and e.starts_on > $2 and e.email <> '' order by e.balance_due_on, e.id"
        )).bind(horizon).bind(today).fetch_all(pool).await)
        .context("Failed to read the balances due")?;
        let mut due = Vec::new();
        for row in rows {
            let paid_on = row.paid_at.map_or(today, london::today);
            let (total, paid) = (Money::from_pence(row.total), Money::from_pence(row.paid));
            let owed = outstanding(total, paid);
            let Some(stage) = reminder_due(today, row.balance_due_on, row.starts_on, paid_on).filter(|_| owed > Money::ZERO) else {
                continue;
            };
            due.push(ReminderDue {
                courses: serde_json::from_str(&row.lines).context("Stored enrollment lines are not valid JSON")?,
                enrollment_id: row.id,
                stage,
                given_name: row.given_name,
                email: row.email.trim().to_lowercase(),
                owed,
                paid,
                due_on: row.balance_due_on,
            });
        }
        Ok(due)
    }

    /// Sends `reminder` once: its record, its payment link and its mail in
    /// one transaction, only while the booking still owes what it owed when
    /// found. False when it was sent before (by this or another instance)
    /// or something was paid since.
    pub async fn send_balance_reminder(
        &self,
        reminder: &ReminderDue,
        link: &BalanceLink,
        mail: &Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let recorded = sqlx::query(concat!(
                "insert into balance_reminder (enrollment_id, stage, sent_at) select $1, $2, $3 \
                 where exists (select 1 from enrollment e where e.id = $1 and e.status = 'deposit' and ",
                net_paid!(),
                " = $4) on conflict (enrollment_id, stage) do nothing"
            ))
            .bind(&reminder.enrollment_id).bind(reminder.stage.as_str()).bind(now).bind(reminder.paid.pence())
            .execute(&mut *tx).await?.rows_affected() == 1;
            if recorded {
                store_balance_link!(tx, &reminder.enrollment_id, link, now)?;
                queue_mail!(tx, mail, now)?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(recorded)
        })
        .context("Failed to send the balance reminder")
    }

    /// Takes or renews the lease of job `name` for `holder` until `until`:
    /// true when this holder runs the job now. A lease that ran out passes
    /// to whoever asks next, so a stopped instance never stops the job.
    pub async fn take_job_lease(&self, name: &str, holder: &str, until: DateTime<Utc>, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query(
            "insert into job_lease (name, holder, expires_at) values ($1, $2, $3) on conflict (name) do update \
             set holder = excluded.holder, expires_at = excluded.expires_at where job_lease.expires_at <= $4 or job_lease.holder = excluded.holder"
        ).bind(name).bind(holder).bind(until).bind(now).execute(pool).await.map(|done| done.rows_affected() == 1))
        .context("Failed to take the job's lease")
    }
}
