//! Giving a booking up, or money back (decision 015): in one transaction
//! the booking is cancelled, its seats go back on sale, the refund the
//! terms allow is queued against the payments it returns and the student
//! is told. The same transaction serves a staff member, who may choose the
//! refund, and who may also give back any part of what was paid without
//! cancelling; each staff change writes its audit row (decision 017). What
//! the terms allow is decided in `enrol_domain::cancellation`.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;

use enrol_domain::back_office::{RefundRefused, check_refund};
use enrol_domain::cancellation::{CancellationQuote, CancellationRefund, CancellationRefused, cancellation_mail, cancellation_quote};
use enrol_domain::enrollment::first_training_day;
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;

use crate::Actor;
use crate::instalments::PlanSteps;
use crate::ledger::MoneySteps;
use crate::orders::OrderSteps;
use crate::orders::enrollments::EnrollmentRecord;
use crate::orders::tasks::TaskSteps;
use crate::people::PeopleSteps;
use crate::seats::SeatSteps;
use crate::{AuditEntry, Db, on_pool};

/// What asking to cancel did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cancellation {
    /// Cancelled: what was given back, as refunds queued (their ids).
    Cancelled {
        quote: CancellationQuote,
        refunds: Vec<String>,
    },
    Refused(CancellationRefused),
    UnknownOrder,
}

/// What a staff member's refund did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookingRefund {
    /// The refunds queued (their ids).
    Refunded {
        refunds: Vec<String>,
    },
    Refused(RefundRefused),
    UnknownOrder,
}

impl EnrollmentRecord {
    /// What cancelling it `today` would give back: under the terms (a date
    /// the college cancelled among them), or the refund a staff member chose.
    pub fn cancellation(&self, today: NaiveDate, refund: CancellationRefund) -> Result<CancellationQuote, CancellationRefused> {
        if !matches!(self.status, EnrollmentStatus::Deposit | EnrollmentStatus::Completed) {
            return Err(CancellationRefused::NotBooked);
        }
        let booked_on = self.paid_at.map_or(today, london::today);
        let starts_on = self.starts_on.or_else(|| first_training_day(&self.courses));
        cancellation_quote(booked_on, today, starts_on, !self.cancelled_sessions.is_empty(), self.paid, self.quote.deposit, refund)
    }
}

impl Db {
    /// Cancels booking `id` as of `now` for `actor`, giving back `refund`
    /// (the student's is always the terms), once: a second request finds
    /// it cancelled and changes nothing.
    pub async fn cancel_enrollment(
        &self,
        id: &str,
        refund: CancellationRefund,
        actor: &Actor,
        college: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Cancellation> {
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            let Some(record) = tx.lock_booking(id).await? else {
                tx.rollback().await?;
                return Ok(Cancellation::UnknownOrder);
            };
            let quote = match record.cancellation(london::today(now), refund) {
                Ok(quote) => quote,
                Err(refused) => {
                    tx.rollback().await?;
                    return Ok(Cancellation::Refused(refused));
                }
            };
            sqlx::query("update enrollment set status = 'cancelled', cancelled_at = $2 where id = $1")
                .bind(id).bind(now).execute(&mut *tx).await?;
            let mut sessions: Vec<String> =
                sqlx::query_scalar("select session_id from registration where enrollment_id = $1 and type = 'STUDENT'")
                    .bind(id).fetch_all(&mut *tx).await?;
            sessions.sort_unstable();
            tx.lock_sessions(&sessions).await?;
            for session_id in &sessions {
                sqlx::query("update registration set type = 'CANCELLED', status = 'cancelled' where enrollment_id = $1 and session_id = $2")
                    .bind(id).bind(session_id).execute(&mut *tx).await?;
                sqlx::query("update session set registrations = registrations - 1 where id = $1 and registrations > 0")
                    .bind(session_id).execute(&mut *tx).await?;
            }
            tx.seats_changed().await?;
            tx.end_theory(id, now).await?;
            tx.close_tasks(id, now).await?;
            tx.end_plan(id, now).await?;
            let refunds = tx.refund_purchase(Some(id), None, quote.refund, "cancellation", now).await?;
            let email = record.email.trim().to_lowercase();
            if !email.is_empty() {
                let mail = cancellation_mail(&record.reference, &record.given_name, &email, &record.courses, &quote, actor.changed_by(), college);
                tx.queue_mail(&mail, now).await?;
            }
            if let Some(entry) = actor.order_audit("order.cancel", id) {
                let entry = entry
                    .before(json!({ "status": record.status.as_str(), "paid": record.paid }))
                    .after(json!({ "status": "cancelled", "quote": quote, "refunds": refunds }));
                tx.audit(&entry, now).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Cancellation::Cancelled { quote, refunds })
        })
        .context("Failed to cancel the booking")
    }

    /// Gives back `amount` of what booking `id` holds, for `reason`, as
    /// staff member `staff_id` decided, as of `now`: the booking stays as
    /// it is. The refunds are queued against its payments, newest first,
    /// as a cancellation's are.
    pub async fn refund_booking(
        &self,
        id: &str,
        amount: Money,
        reason: &str,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<BookingRefund> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let Some(record) = tx.lock_booking(id).await? else {
                tx.rollback().await?;
                return Ok(BookingRefund::UnknownOrder);
            };
            if let Err(refused) = check_refund(record.paid, amount) {
                tx.rollback().await?;
                return Ok(BookingRefund::Refused(refused));
            }
            let refunds = tx.refund_purchase(Some(id), None, amount, reason, now).await?;
            let entry = AuditEntry::new(staff_id, "order.refund", "order", id)
                .before(json!({ "paid": record.paid }))
                .after(json!({ "paid": Money::from_pence(record.paid.pence() - amount.pence()), "amount": amount, "reason": reason, "refunds": refunds }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(BookingRefund::Refunded { refunds })
        })
        .context("Failed to refund the booking")
    }
}
