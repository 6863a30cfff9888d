//! What the payment provider's events do to enrollments: a successful
//! payment fulfils its order once, a failed one releases what the order
//! held, and holds of unpaid orders run out. What to do is decided in
//! `enrol_domain::booking` (`checkout_payment`, `booking_mails`); this
//! module carries it out, each event in one transaction.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::booking::{CheckoutPayment, PaidBooking, booking_mails, checkout_payment};
use enrol_domain::enrollment::{balance_due_on, first_training_day};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::receipt::{DocumentLink, Issuer, Purchase};

use crate::codes::CodeSteps;
use crate::counting::held_sessions;
use crate::ledger::BalanceLink;
use crate::ledger::MoneySteps;
use crate::ledger::payments::NewPayment;
use crate::orders::OrderSteps;
use crate::orders::enrollments::{Row, SELECT};
use crate::orders::tasks::TaskSteps;
use crate::people::PeopleSteps;
use crate::seats::SeatSteps;
use crate::{Db, on_pool};

/// A payment intent's outcome, as the provider's event reports it.
#[derive(Debug, Clone)]
pub struct IntentOutcome {
    pub event_id: String,
    pub event_type: String,
    pub order_id: String,
    pub intent_id: String,
    pub amount: Money,
    pub currency: String,
    /// `card`, `klarna`, `afterpay_clearpay`, when known.
    pub method: String,
}

/// What handling a successful payment did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnrollmentFulfilment {
    /// Payment recorded, seats registered, confirmation queued; `refund` is
    /// the id of a refund of what was paid beyond what was due.
    Fulfilled {
        status: EnrollmentStatus,
        refund: Option<String>,
    },
    /// Paid, but a held seat was taken after its hold ran out: the college
    /// has been told to call the student.
    PaidWithoutSeat,
    /// The order was paid already: the payment is recorded and refunded.
    Overpaid {
        refund: String,
    },
    AlreadyHandled,
    UnknownOrder,
    /// Less than the order asked for: recorded for a person to check.
    Underpaid,
}

impl Db {
    /// Records a successful payment once: the payment row and its receipt
    /// (from `issuer`, opened by `receipt_link`), the enrollment's new
    /// status, a registration per held session, the discount's use, the
    /// buyer's account, the mails and any refund due, in one transaction.
    /// A balance left to pay is mailed with `pay_link`, kept only then.
    pub async fn fulfil_enrollment(
        &self,
        paid: &IntentOutcome,
        issuer: &Issuer,
        receipt_link: &DocumentLink,
        pay_link: &BalanceLink,
        now: DateTime<Utc>,
    ) -> anyhow::Result<EnrollmentFulfilment> {
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            if !tx.first_delivery(&paid.event_id, &paid.event_type, now).await? {
                return Ok(EnrollmentFulfilment::AlreadyHandled);
            }
            let row: Option<Row> = sqlx::query_as(SELECT.as_str()).bind(&paid.order_id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.commit().await?;
                return Ok(EnrollmentFulfilment::UnknownOrder);
            };
            let record = row.into_record().map_err(|e| sqlx::Error::Decode(e.into()))?;
            let sessions = held_sessions(&record.courses);
            tx.lock_sessions(&sessions).await?;
            let email = record.email.trim().to_lowercase();
            let user_id = tx.account_for(&record.user_id, &email).await?;
            let buyer = format!("{} {}", record.given_name, record.family_name);
            let purchase = Purchase::booking(&record.reference, &buyer, &email, &record.courses, &record.quote);
            let payment = NewPayment {
                amount: paid.amount,
                currency: &paid.currency,
                transaction_id: &paid.intent_id,
                method: &paid.method,
                metadata: serde_json::json!({ "order_id": record.id, "event_id": paid.event_id, "mode": record.mode.metadata_type() })
                    .to_string(),
                enrollment_id: Some(&record.id),
                online_order_id: None,
                user_id: user_id.as_deref(),
                purchase: &purchase,
                issuer,
                link: receipt_link,
            };
            let Some(recorded) = tx.record_payment(&payment, now).await? else {
                tx.commit().await?;
                return Ok(EnrollmentFulfilment::AlreadyHandled);
            };
            let (status, excess) = match checkout_payment(record.status, record.mode, &record.quote, record.paid, paid.amount) {
                CheckoutPayment::Underpaid => {
                    tx.commit().await?;
                    return Ok(EnrollmentFulfilment::Underpaid);
                }
                CheckoutPayment::AlreadyPaid => {
                    let refund = tx.queue_refund(&recorded.id, paid.amount, "overpayment", now).await?;
                    tx.commit().await?;
                    return Ok(EnrollmentFulfilment::Overpaid { refund });
                }
                CheckoutPayment::Paid { status, excess } => (status, excess),
            };
            let seated = tx.take_seats(&record.id, &record.courses, &sessions, user_id.as_deref(), now).await?;
            let paid_on = london::today(now);
            let starts_on = first_training_day(&record.courses);
            sqlx::query(
                "update enrollment set status = $2, registered = $3, call = $4, user_id = $5, paid_at = $6, held_until = null, \
                 starts_on = $7, balance_due_on = $8 where id = $1"
            )
                .bind(&record.id).bind(status.as_str()).bind(seated).bind(!seated).bind(&user_id).bind(now)
                .bind(starts_on).bind(starts_on.map(|day| balance_due_on(day, paid_on)))
                .execute(&mut *tx).await?;
            // A use counted since the order was made stays; one given back
            // when its hold ran out is counted again, since it was paid for.
            if let Some(code) = record.discount_code.as_ref().filter(|_| !record.code_reserved) {
                sqlx::query("update discount_code set uses = uses + 1 where code = $1").bind(code).execute(&mut *tx).await?;
                sqlx::query("update enrollment set code_reserved = true where id = $1").bind(&record.id).execute(&mut *tx).await?;
            }
            if seated {
                tx.grant_theory(&record.id, &record.courses, user_id.as_deref(), now).await?;
                tx.create_tasks(&record.id, &record.courses, user_id.as_deref(), now).await?;
            }
            let refund = if excess > Money::ZERO { Some(tx.queue_refund(&recorded.id, excess, "overpayment", now).await?) } else { None };
            let times = tx.session_times(&sessions).await?;
            if status == EnrollmentStatus::Deposit {
                tx.store_balance_link(&record.id, pay_link, now).await?;
            }
            let what_to_bring = tx.what_to_bring(&record.courses).await?;
            let booking = PaidBooking {
                order_id: &record.id,
                reference: &record.reference,
                given_name: &record.given_name,
                family_name: &record.family_name,
                email: &email,
                contact_number: &record.contact_number,
                courses: &record.courses,
                quote: &record.quote,
                mode: record.mode,
                paid_on,
                receipt: &recorded.receipt,
                times: &times,
                venue: &issuer.address,
                pay_url: &pay_link.url,
                what_to_bring: &what_to_bring,
            };
            for mail in booking_mails(&booking, seated, &issuer.name, &issuer.email, now) {
                tx.queue_mail(&mail, now).await?;
            }
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(if seated { EnrollmentFulfilment::Fulfilled { status, refund } } else { EnrollmentFulfilment::PaidWithoutSeat })
        })
        .context("Failed to fulfil the enrollment")
    }

    /// A failed payment: the enrollment fails, its seats and code use are
    /// released, once per event. A paid enrollment is never touched.
    pub async fn fail_enrollment(&self, event_id: &str, event_type: &str, order_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            if !tx.first_delivery(event_id, event_type, now).await? {
                return Ok(false);
            }
            let failed = sqlx::query("update enrollment set status = 'failed' where id = $1 and status = 'pending'")
                .bind(order_id).execute(&mut *tx).await?.rows_affected() == 1;
            if failed {
                sqlx::query("delete from seat_hold where enrollment_id = $1").bind(order_id).execute(&mut *tx).await?;
                tx.release_code(order_id).await?;
                tx.seats_changed().await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(failed)
        })
        .context("Failed to record the failed payment")
    }

    /// Releases what unpaid orders whose hold ran out by `now` still keep:
    /// their seat holds and their code uses. Safe on any number of
    /// instances (each release is conditional); answers how many orders.
    pub async fn expire_holds(&self, now: DateTime<Utc>) -> anyhow::Result<usize> {
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            let expired: Vec<String> = sqlx::query_scalar(
                "select id from enrollment where status = 'pending' and held_until <= $1 \
                 and (code_reserved or exists (select 1 from seat_hold h where h.enrollment_id = enrollment.id)) order by id limit 500"
            ).bind(now).fetch_all(&mut *tx).await?;
            for id in &expired {
                tx.release_code(id).await?;
                sqlx::query("delete from seat_hold where enrollment_id = $1 and expires_at <= $2").bind(id).bind(now).execute(&mut *tx).await?;
            }
            if !expired.is_empty() {
                tx.seats_changed().await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(expired.len())
        })
        .context("Failed to release expired holds")
    }

    /// Forgets the clients (`hold_client` rows, only ever a lock to count
    /// under: an address, or a browser's buyer cookie) with no unpaid order
    /// holding seats at `now`, so the table
    /// keeps only the clients at work. A client ordering meanwhile gets its
    /// row again with its next order. How many were forgotten.
    pub async fn forget_quiet_clients(&self, now: DateTime<Utc>) -> anyhow::Result<u64> {
        on_pool!(self, pool => sqlx::query(QUIET_CLIENTS).bind(now).execute(pool).await.map(|done| done.rows_affected()))
            .context("Failed to forget the quiet clients")
    }
}

/// The clients with no unpaid order holding seats at `$1`, forgotten. A
/// client is an address or a browser, and each one's unpaid orders are
/// counted through their own index, a few at most (the client's limit).
/// They are counted rather than tested with `exists`, which PostgreSQL
/// would join on its estimate of how many orders are unpaid: an estimate
/// of none, as after a quiet spell, read every unpaid order for each client,
/// clients times orders, as many of both as a busy sale makes (34 s at
/// 24,600 clients and 20,400 orders, against 0.24 s counted).
pub(crate) const QUIET_CLIENTS: &str = concat!(
    "delete from hold_client where ",
    unpaid_orders_holding_seats!("client_key", "hold_client.client_key", "$1"),
    " + ",
    unpaid_orders_holding_seats!("owner_token_hash", "hold_client.client_key", "$1"),
    " = 0"
);
