//! A student's records for the account data API (decision 014): their
//! registrations, bookings, payments and certificates. Every read takes the
//! caller's user id and returns only their rows: there is no read here by
//! another key, so no resolver can reach another student's records by
//! passing an id. Their forms, evidence and the rest of their readiness for
//! training are `records::readiness`, read the same way.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use enrol_domain::london;
use enrol_domain::records::{Certificate, Enrollment, Payment, Registration};

use crate::{Db, on_pool};

/// A student's seats, with their courses and days, by their account.
pub(crate) const REGISTRATIONS_OF: &str = "select r.id, r.event_id, r.enrollment_id, r.session_id, r.status, r.type as kind, c.title as course_title, \
      c.url as course_url, s.date, s.start_at, s.end_at, s.type as session_type \
      from registration r join session s on s.id = r.session_id join event e on e.id = s.event_id \
      join course c on c.id = e.course_id where r.user_id = $1 order by s.date, s.start_at";

/// A student's bookings by their account, newest first (made at once: by id).
pub(crate) const ENROLLMENTS_OF: &str = "select id, status, total, deposit, balance, deposit_required, registered, call, created_at \
      from enrollment where user_id = $1 order by created_at desc, id desc";

/// A student's payments by their account, newest first (made at once: by id).
pub(crate) const PAYMENTS_OF: &str = "select id, amount, status, currency, transaction_id, invoice_id, method, enrollment_id, created_at \
      from payment where user_id = $1 order by created_at desc, id desc";

fn wall_clock(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// A certificate as the public verification page shows it, and whose it
/// is and of which course, for the holder's copy.
#[derive(Debug, Clone)]
pub struct IssuedCertificate {
    pub number: String,
    pub user_id: String,
    pub course_id: String,
    pub holder_name: String,
    pub course_title: String,
    pub issued_on: NaiveDate,
    pub revoked: bool,
}

impl Db {
    /// The caller's registrations, soonest first; `today` (London) tells which are still to come.
    pub async fn registrations_of(&self, user_id: &str, today: NaiveDate) -> anyhow::Result<Vec<Registration>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            event_id: String,
            enrollment_id: String,
            session_id: String,
            status: String,
            kind: String,
            course_title: String,
            course_url: String,
            date: NaiveDate,
            start_at: NaiveDateTime,
            end_at: NaiveDateTime,
            session_type: String,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            REGISTRATIONS_OF,
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the registrations")?;
        Ok(rows
            .into_iter()
            .map(|r| Registration {
                id: r.id,
                event_id: r.event_id,
                enrollment_id: r.enrollment_id,
                session_id: r.session_id,
                status: r.status,
                kind: r.kind,
                user_id: user_id.to_owned(),
                course_title: r.course_title,
                course_url: r.course_url,
                date: r.date.to_string(),
                start: wall_clock(r.start_at),
                end: wall_clock(r.end_at),
                session_type: r.session_type,
                upcoming: r.date >= today,
            })
            .collect())
    }

    pub async fn enrollments_of(&self, user_id: &str) -> anyhow::Result<Vec<Enrollment>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            status: String,
            total: i64,
            deposit: i64,
            balance: i64,
            deposit_required: bool,
            registered: bool,
            call: bool,
            created_at: DateTime<Utc>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            ENROLLMENTS_OF,
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the enrollments")?;
        Ok(rows
            .into_iter()
            .map(|r| Enrollment {
                id: r.id,
                status: r.status,
                total: r.total,
                deposit: r.deposit,
                balance: r.balance,
                deposit_required: r.deposit_required,
                registered: r.registered,
                call: r.call,
                created_at: london::wall_clock(r.created_at),
            })
            .collect())
    }

    pub async fn payments_of(&self, user_id: &str) -> anyhow::Result<Vec<Payment>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            amount: i64,
            status: String,
            currency: String,
            transaction_id: String,
            invoice_id: Option<String>,
            method: String,
            enrollment_id: Option<String>,
            created_at: DateTime<Utc>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            PAYMENTS_OF,
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the payments")?;
        Ok(rows
            .into_iter()
            .map(|r| Payment {
                id: r.id,
                amount: r.amount,
                status: r.status,
                currency: r.currency,
                transaction_id: r.transaction_id,
                invoice_id: r.invoice_id,
                method: r.method,
                enrollment_id: r.enrollment_id,
                created_at: london::wall_clock(r.created_at),
            })
            .collect())
    }

    pub async fn certificates_of(&self, user_id: &str) -> anyhow::Result<Vec<Certificate>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            number: String,
            holder_name: String,
            course_title: String,
            issued_on: NaiveDate,
            revoked: bool,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select id, number, holder_name, course_title, issued_on, revoked from certificate where user_id = $1 order by issued_on desc"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the certificates")?;
        Ok(rows
            .into_iter()
            .map(|r| Certificate {
                id: r.id,
                number: r.number,
                holder_name: r.holder_name,
                course_title: r.course_title,
                issued_on: r.issued_on.to_string(),
                revoked: r.revoked,
            })
            .collect())
    }

    /// The certificate with this number.
    pub async fn certificate_by_number(&self, number: &str) -> anyhow::Result<Option<IssuedCertificate>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            number: String,
            user_id: String,
            course_id: String,
            holder_name: String,
            course_title: String,
            issued_on: NaiveDate,
            revoked: bool,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            "select number, user_id, course_id, holder_name, course_title, issued_on, revoked from certificate where number = $1"
        ).bind(number).fetch_optional(pool).await)
        .context("Failed to read a certificate")?;
        Ok(row.map(|r| IssuedCertificate {
            number: r.number,
            user_id: r.user_id,
            course_id: r.course_id,
            holder_name: r.holder_name,
            course_title: r.course_title,
            issued_on: r.issued_on,
            revoked: r.revoked,
        }))
    }
}
