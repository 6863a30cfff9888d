//! A student cancels a booking (issue 13, decision 015): in one transaction
//! the booking is cancelled, its seats go back on sale, the refund the
//! terms allow is queued against the payments it returns and the student
//! is told. What the terms allow is decided in `enrol_domain::cancellation`.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::cancellation::{CancellationQuote, CancellationRefused, cancellation_mail, cancellation_quote};
use enrol_domain::enrollment::first_training_day;
use enrol_domain::london;
use enrol_domain::page::EnrollmentStatus;

use crate::enrollments::{EnrollmentRecord, Row, SELECT};
use crate::ledger::refund_enrollment;
use crate::seats::{lock_sessions, seats_changed};
use crate::{Db, on_pool, queue_mail};

/// What asking to cancel did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cancellation {
    /// Cancelled: what the terms gave back, as refunds queued (their ids).
    Cancelled {
        quote: CancellationQuote,
        refunds: Vec<String>,
    },
    Refused(CancellationRefused),
    UnknownOrder,
}

impl EnrollmentRecord {
    /// What cancelling it `today` would give back under the terms.
    pub fn cancellation(&self, today: NaiveDate) -> Result<CancellationQuote, CancellationRefused> {
        if !matches!(self.status, EnrollmentStatus::Deposit | EnrollmentStatus::Completed) {
            return Err(CancellationRefused::NotBooked);
        }
        let booked_on = self.paid_at.map_or(today, london::today);
        let starts_on = self.starts_on.or_else(|| first_training_day(&self.courses));
        cancellation_quote(booked_on, today, starts_on, self.paid, self.quote.deposit)
    }
}

impl Db {
    /// Cancels booking `id` as of `now`, once: a second request finds it
    /// cancelled and changes nothing.
    pub async fn cancel_enrollment(&self, id: &str, college: &str, now: DateTime<Utc>) -> anyhow::Result<Cancellation> {
        let _turn = self.seat_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The row lock: a payment or another cancellation waits its turn.
            sqlx::query("update enrollment set status = status where id = $1").bind(id).execute(&mut *tx).await?;
            let row: Option<Row> = sqlx::query_as(SELECT).bind(id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.rollback().await?;
                return Ok(Cancellation::UnknownOrder);
            };
            let record = row.into_record().map_err(|e| sqlx::Error::Decode(e.into()))?;
            let quote = match record.cancellation(london::today(now)) {
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
            lock_sessions!(tx, &sessions);
            for session_id in &sessions {
                sqlx::query("update registration set type = 'CANCELLED', status = 'cancelled' where enrollment_id = $1 and session_id = $2")
                    .bind(id).bind(session_id).execute(&mut *tx).await?;
                sqlx::query("update session set registrations = registrations - 1 where id = $1 and registrations > 0")
                    .bind(session_id).execute(&mut *tx).await?;
            }
            seats_changed!(tx)?;
            let refunds = refund_enrollment!(tx, id, quote.refund, "cancellation", now).await?;
            let email = record.email.trim().to_lowercase();
            if !email.is_empty() {
                let mail = cancellation_mail(&record.id, &record.given_name, &email, &record.courses, &quote, college);
                queue_mail!(tx, &mail, now)?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Cancellation::Cancelled { quote, refunds })
        })
        .context("Failed to cancel the booking")
    }
}
