//! Enrolments on in-person courses: created with their seats held, paid
//! through a payment intent, fulfilled once by the provider's event.

use std::collections::{BTreeMap, HashMap};

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::enrolment::{BookedCourse, Confirmation, Discount, DiscountType, PaymentMode, Quote};
use enrol_domain::money::Money;
use enrol_domain::page::EnrolmentStatus;

use crate::{Db, on_pool};

/// An enrollment about to be created: priced, with the sessions to hold.
#[derive(Debug, Clone)]
pub struct NewEnrollment {
    pub id: String,
    pub mode: PaymentMode,
    pub quote: Quote,
    pub discount_code: Option<String>,
    pub courses: Vec<BookedCourse>,
    pub metadata: BTreeMap<String, String>,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
    pub contact_number: String,
    /// `card` or `klarna`.
    pub payment_method: String,
    pub user_id: Option<String>,
    /// Until when the sessions' seats are kept.
    pub hold_until: DateTime<Utc>,
}

/// An enrollment as stored.
#[derive(Debug, Clone)]
pub struct EnrollmentRecord {
    pub id: String,
    pub status: EnrolmentStatus,
    pub mode: PaymentMode,
    pub quote: Quote,
    pub discount_code: Option<String>,
    pub courses: Vec<BookedCourse>,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
    pub contact_number: String,
    pub payment_intent_id: Option<String>,
    /// The account it belongs to: the signed-in user's, or the buyer's once paid.
    pub user_id: Option<String>,
    /// What the payments recorded for it add up to.
    pub paid: Money,
}

/// A session that had no free seat left when an enrollment wanted it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionFull {
    pub session_id: String,
}

/// A discount code as stored, and whether it can be used on `today`.
#[derive(Debug, Clone)]
pub struct DiscountCode {
    pub code: String,
    pub discount: Discount,
    usable: bool,
}

impl DiscountCode {
    pub fn is_usable(&self) -> bool {
        self.usable
    }
}

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
pub enum EnrolmentFulfilment {
    /// Payment recorded, seats registered, confirmation queued.
    Fulfilled(EnrolmentStatus),
    /// Paid, but a held seat was taken after its hold ran out: the college
    /// has been told to call the student.
    PaidWithoutSeat,
    AlreadyHandled,
    UnknownOrder,
    /// Less than the order asked for: recorded for a person to check.
    Underpaid,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    status: String,
    mode: String,
    subtotal: i64,
    discount: i64,
    total: i64,
    deposit: i64,
    balance: i64,
    discount_code: Option<String>,
    lines: String,
    given_name: String,
    family_name: String,
    email: String,
    contact_number: String,
    payment_intent_id: Option<String>,
    user_id: Option<String>,
    paid: i64,
}

const SELECT: &str = "select e.id, e.status, e.mode, e.subtotal, e.discount, e.total, e.deposit, e.balance, e.discount_code, \
     e.lines, e.given_name, e.family_name, e.email, e.contact_number, e.payment_intent_id, e.user_id, \
     cast(coalesce((select sum(p.amount) from payment p where p.enrollment_id = e.id), 0) as bigint) as paid \
     from enrollment e where e.id = $1";

impl Row {
    fn into_record(self) -> anyhow::Result<EnrollmentRecord> {
        Ok(EnrollmentRecord {
            status: EnrolmentStatus::parse(&self.status).with_context(|| format!("Unknown enrollment status {}", self.status))?,
            mode: if self.mode == "full" { PaymentMode::Full } else { PaymentMode::Fee },
            quote: Quote {
                subtotal: Money::from_pence(self.subtotal),
                discount: Money::from_pence(self.discount),
                total: Money::from_pence(self.total),
                deposit: Money::from_pence(self.deposit),
                balance: Money::from_pence(self.balance),
            },
            courses: serde_json::from_str(&self.lines).context("Stored enrollment lines are not valid JSON")?,
            id: self.id,
            discount_code: self.discount_code,
            given_name: self.given_name,
            family_name: self.family_name,
            email: self.email,
            contact_number: self.contact_number,
            payment_intent_id: self.payment_intent_id,
            user_id: self.user_id,
            paid: Money::from_pence(self.paid),
        })
    }
}

fn mode_str(mode: PaymentMode) -> &'static str {
    match mode {
        PaymentMode::Fee => "fee",
        PaymentMode::Full => "full",
    }
}

/// The sessions of `courses`, sorted so that every transaction locks them
/// in the same order (no deadlock between two orders).
fn held_sessions(courses: &[BookedCourse]) -> Vec<&str> {
    let mut ids: Vec<&str> = courses.iter().filter_map(|c| c.session_id.as_deref()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The free seats of active session `$1` as of `$2`: seats less
/// registrations and the live holds of unpaid orders.
const FREE_SEATS: &str = "select s.seats - s.registrations - (select count(*) from seat_hold h join enrollment e on e.id = h.enrollment_id \
     where h.session_id = s.id and h.expires_at > $2 and e.status = 'pending') from session s where s.id = $1 and s.status = 'active'";

/// Holds one seat of each session for `enrollment_id` inside `tx`, or names
/// the first session that is full. The no-op update locks the session row
/// (PostgreSQL) or takes the write lock (SQLite) before seats are counted,
/// so two orders can never both take the last seat.
macro_rules! hold_seats {
    ($tx:expr, $enrollment_id:expr, $sessions:expr, $until:expr, $now:expr) => {{
        let mut full = None;
        for session_id in $sessions {
            sqlx::query("update session set registrations = registrations where id = $1")
                .bind(session_id).execute(&mut *$tx).await?;
            let free: Option<i64> = sqlx::query_scalar(FREE_SEATS).bind(session_id).bind($now).fetch_optional(&mut *$tx).await?;
            if free.unwrap_or(0) <= 0 {
                full = Some(SessionFull { session_id: session_id.to_string() });
                break;
            }
            sqlx::query("insert into seat_hold (enrollment_id, session_id, expires_at) values ($1, $2, $3)")
                .bind($enrollment_id).bind(session_id).bind($until).execute(&mut *$tx).await?;
        }
        full
    }};
}

impl Db {
    /// Free seats per session, counting the seats held for unpaid orders.
    pub async fn free_seats(&self, session_ids: &[String], now: DateTime<Utc>) -> anyhow::Result<HashMap<String, i64>> {
        let mut free = HashMap::with_capacity(session_ids.len());
        for id in session_ids {
            let left: Option<i64> = on_pool!(self, pool => sqlx::query_scalar(FREE_SEATS).bind(id).bind(now).fetch_optional(pool).await)
            .context("Failed to count free seats")?;
            free.insert(id.clone(), left.unwrap_or(0));
        }
        Ok(free)
    }

    /// The user whose payment provider customer id is `account`.
    pub async fn user_by_payment_account(&self, account: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar("select id from user_account where stripe_id = $1").bind(account).fetch_optional(pool).await)
            .context("Failed to read the payment account")
    }

    /// The code, case-insensitively, and whether it can be used on `today`.
    pub async fn discount_code(&self, code: &str, today: NaiveDate) -> anyhow::Result<Option<DiscountCode>> {
        #[derive(sqlx::FromRow)]
        struct CodeRow {
            code: String,
            #[sqlx(rename = "type")]
            kind: String,
            value: i64,
            expires_on: Option<NaiveDate>,
            max_uses: Option<i64>,
            uses: i64,
            active: bool,
        }
        let row: Option<CodeRow> = on_pool!(self, pool => sqlx::query_as(
            "select code, type, value, expires_on, max_uses, uses, active from discount_code where code = $1"
        ).bind(code.trim().to_ascii_uppercase()).fetch_optional(pool).await)
        .context("Failed to read the discount code")?;
        row.map(|row| {
            let kind = DiscountType::parse(&row.kind).with_context(|| format!("Unknown discount type {}", row.kind))?;
            let usable = row.active && row.expires_on.is_none_or(|day| day >= today) && row.max_uses.is_none_or(|max| row.uses < max);
            Ok(DiscountCode { code: row.code, discount: Discount { kind, value: row.value }, usable })
        })
        .transpose()
    }

    /// Stores the enrollment and holds its seats in one transaction: both,
    /// or neither and the session that is full.
    pub async fn create_enrollment(&self, new: &NewEnrollment, now: DateTime<Utc>) -> anyhow::Result<Result<(), SessionFull>> {
        let lines = serde_json::to_string(&new.courses)?;
        let metadata = serde_json::to_string(&new.metadata)?;
        let sessions = held_sessions(&new.courses);
        let q = &new.quote;
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "insert into enrollment (id, status, mode, subtotal, discount, total, deposit, balance, deposit_required, \
                 discount_code, lines, metadata, given_name, family_name, email, contact_number, payment_method, user_id, created_at) \
                 values ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)"
            ).bind(&new.id).bind(mode_str(new.mode)).bind(q.subtotal.pence()).bind(q.discount.pence()).bind(q.total.pence())
                .bind(q.deposit.pence()).bind(q.balance.pence()).bind(new.mode == PaymentMode::Fee).bind(&new.discount_code)
                .bind(&lines).bind(&metadata).bind(&new.given_name).bind(&new.family_name).bind(&new.email)
                .bind(&new.contact_number).bind(&new.payment_method).bind(&new.user_id).bind(now)
                .execute(&mut *tx).await?;
            if let Some(full) = hold_seats!(tx, &new.id, sessions.iter().copied(), new.hold_until, now) {
                tx.rollback().await?;
                return Ok(Err(full));
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Ok(()))
        })
        .context("Failed to create the enrollment")
    }

    /// Replaces a pending enrollment's courses, figures, contact and holds
    /// (`PUT /api/enroll/`). `None` when there is no pending enrollment `id`.
    pub async fn replace_enrollment(&self, new: &NewEnrollment, now: DateTime<Utc>) -> anyhow::Result<Option<Result<(), SessionFull>>> {
        let lines = serde_json::to_string(&new.courses)?;
        let metadata = serde_json::to_string(&new.metadata)?;
        let sessions = held_sessions(&new.courses);
        let q = &new.quote;
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let updated = sqlx::query(
                "update enrollment set mode = $2, subtotal = $3, discount = $4, total = $5, deposit = $6, balance = $7, \
                 deposit_required = $8, discount_code = $9, lines = $10, metadata = $11, given_name = $12, family_name = $13, \
                 email = $14, contact_number = $15, payment_method = $16 where id = $1 and status = 'pending'"
            ).bind(&new.id).bind(mode_str(new.mode)).bind(q.subtotal.pence()).bind(q.discount.pence()).bind(q.total.pence())
                .bind(q.deposit.pence()).bind(q.balance.pence()).bind(new.mode == PaymentMode::Fee).bind(&new.discount_code)
                .bind(&lines).bind(&metadata).bind(&new.given_name).bind(&new.family_name).bind(&new.email)
                .bind(&new.contact_number).bind(&new.payment_method)
                .execute(&mut *tx).await?.rows_affected();
            if updated == 0 {
                tx.rollback().await?;
                return Ok(None);
            }
            sqlx::query("delete from seat_hold where enrollment_id = $1").bind(&new.id).execute(&mut *tx).await?;
            if let Some(full) = hold_seats!(tx, &new.id, sessions.iter().copied(), new.hold_until, now) {
                tx.rollback().await?;
                return Ok(Some(Err(full)));
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(Ok(())))
        })
        .context("Failed to update the enrollment")
    }

    pub async fn enrollment(&self, id: &str) -> anyhow::Result<Option<EnrollmentRecord>> {
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(SELECT).bind(id).fetch_optional(pool).await)
            .context("Failed to read the enrollment")?;
        row.map(Row::into_record).transpose()
    }

    /// Links the payment intent that will pay the enrollment, and keeps its
    /// seats while the visitor pays.
    pub async fn attach_payment_intent(&self, id: &str, intent_id: &str, hold_until: DateTime<Utc>) -> anyhow::Result<()> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("update enrollment set payment_intent_id = $2 where id = $1").bind(id).bind(intent_id).execute(&mut *tx).await?;
            sqlx::query("update seat_hold set expires_at = $2 where enrollment_id = $1 and expires_at < $2")
                .bind(id).bind(hold_until).execute(&mut *tx).await?;
            tx.commit().await
        })
        .context("Failed to link the payment intent")
    }

    /// Pending enrollments with a payment under way, created between
    /// `from` and `until`: `(order id, payment intent id)`.
    pub async fn enrollments_awaiting_payment(&self, from: DateTime<Utc>, until: DateTime<Utc>) -> anyhow::Result<Vec<(String, String)>> {
        on_pool!(self, pool => sqlx::query_as(
            "select id, payment_intent_id from enrollment where status = 'pending' and payment_intent_id is not null \
             and created_at >= $1 and created_at < $2 order by created_at"
        ).bind(from).bind(until).fetch_all(pool).await)
        .context("Failed to read the enrollments awaiting payment")
    }

    /// Records a successful payment once: the payment row, the enrollment's
    /// new status, a registration per held session, the discount's use, the
    /// buyer's account and the confirmation mail, in one transaction.
    pub async fn fulfil_enrollment(
        &self,
        paid: &IntentOutcome,
        college: &str,
        college_address: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<EnrolmentFulfilment> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let first = sqlx::query("insert into webhook_event (id, type, received_at) values ($1, $2, $3) on conflict (id) do nothing")
                .bind(&paid.event_id).bind(&paid.event_type).bind(now)
                .execute(&mut *tx).await?.rows_affected() == 1;
            if !first {
                return Ok(EnrolmentFulfilment::AlreadyHandled);
            }
            let row: Option<Row> = sqlx::query_as(SELECT).bind(&paid.order_id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.commit().await?;
                return Ok(EnrolmentFulfilment::UnknownOrder);
            };
            let record = row.into_record()?;
            let email = record.email.trim().to_lowercase();
            let user_id: Option<String> = if record.user_id.is_some() {
                record.user_id.clone()
            } else if email.is_empty() {
                None
            } else {
                Some(sqlx::query_scalar(
                    "insert into user_account (id, email, given_name, family_name, contact_number, created_at) values ($1, $2, $3, $4, $5, $6) \
                     on conflict (email) do update set email = excluded.email returning id"
                ).bind(uuid::Uuid::now_v7().to_string()).bind(&email).bind(&record.given_name).bind(&record.family_name)
                    .bind(&record.contact_number).bind(now).fetch_one(&mut *tx).await?)
            };
            let metadata = serde_json::json!({ "order_id": record.id, "event_id": paid.event_id, "mode": record.mode.metadata_type() }).to_string();
            let recorded = sqlx::query(
                "insert into payment (id, amount, status, currency, transaction_id, method, metadata, enrollment_id, user_id, created_at) \
                 values ($1, $2, 'succeeded', $3, $4, $5, $6, $7, $8, $9) on conflict (transaction_id) do nothing"
            ).bind(uuid::Uuid::now_v7().to_string()).bind(paid.amount.pence()).bind(&paid.currency).bind(&paid.intent_id)
                .bind(&paid.method).bind(&metadata).bind(&record.id).bind(&user_id).bind(now)
                .execute(&mut *tx).await?.rows_affected() == 1;
            if !recorded || matches!(record.status, EnrolmentStatus::Deposit | EnrolmentStatus::Completed) {
                tx.commit().await?;
                return Ok(EnrolmentFulfilment::AlreadyHandled);
            }
            let paid_in_all = record.paid + paid.amount;
            if paid_in_all < record.quote.amount_due(record.mode) {
                tx.commit().await?;
                return Ok(EnrolmentFulfilment::Underpaid);
            }
            let status = if paid_in_all >= record.quote.total { EnrolmentStatus::Completed } else { EnrolmentStatus::Deposit };
            let mut seated = true;
            for course in &record.courses {
                let Some(session_id) = &course.session_id else { continue };
                // Its own live hold keeps a seat; after the hold ran out, only
                // a seat nobody else holds may be taken.
                sqlx::query("update session set registrations = registrations where id = $1")
                    .bind(session_id).execute(&mut *tx).await?;
                let (held, free): (i64, i64) = sqlx::query_as(
                    "select (select count(*) from seat_hold where enrollment_id = $2 and session_id = $1 and expires_at > $3), \
                     s.seats - s.registrations - (select count(*) from seat_hold h join enrollment e on e.id = h.enrollment_id \
                     where h.session_id = s.id and h.enrollment_id <> $2 and h.expires_at > $3 and e.status = 'pending') \
                     from session s where s.id = $1"
                ).bind(session_id).bind(&record.id).bind(now).fetch_optional(&mut *tx).await?.unwrap_or((0, 0));
                sqlx::query("delete from seat_hold where enrollment_id = $1 and session_id = $2")
                    .bind(&record.id).bind(session_id).execute(&mut *tx).await?;
                let taken = (held > 0 || free > 0)
                    && sqlx::query("update session set registrations = registrations + 1 where id = $1 and registrations < seats")
                        .bind(session_id).execute(&mut *tx).await?.rows_affected() == 1;
                if !taken {
                    seated = false;
                    continue;
                }
                sqlx::query(
                    "insert into registration (id, event_id, enrollment_id, session_id, status, type, user_id, created_at) \
                     values ($1, $2, $3, $4, 'active', 'STUDENT', $5, $6) on conflict (enrollment_id, session_id) do nothing"
                ).bind(uuid::Uuid::now_v7().to_string()).bind(&course.event_id).bind(&record.id).bind(session_id)
                    .bind(&user_id).bind(now).execute(&mut *tx).await?;
            }
            sqlx::query("update enrollment set status = $2, registered = $3, call = $4, user_id = $5, paid_at = $6 where id = $1")
                .bind(&record.id).bind(status.as_str()).bind(seated).bind(!seated).bind(&user_id).bind(now)
                .execute(&mut *tx).await?;
            if let Some(code) = &record.discount_code {
                sqlx::query("update discount_code set uses = uses + 1 where code = $1").bind(code).execute(&mut *tx).await?;
            }
            let body = Confirmation {
                college,
                order_id: &record.id,
                given_name: &record.given_name,
                courses: &record.courses,
                quote: &record.quote,
                paid: paid_in_all,
            }
            .body();
            if !email.is_empty() {
                sqlx::query("insert into mail_outbox (id, to_address, subject, body_text, created_at) values ($1, $2, $3, $4, $5)")
                    .bind(uuid::Uuid::now_v7().to_string()).bind(&email).bind(format!("Your {college} booking is confirmed"))
                    .bind(&body).bind(now).execute(&mut *tx).await?;
            }
            if !seated {
                sqlx::query("insert into mail_outbox (id, to_address, subject, body_text, created_at) values ($1, $2, $3, $4, $5)")
                    .bind(uuid::Uuid::now_v7().to_string()).bind(college_address)
                    .bind(format!("Call needed: booking {} was paid after its seat was taken", record.id))
                    .bind(format!("The booking below was paid, but a session had filled up after its seat hold ran out. \
                                   Please call {} {} on {} to choose another date.\n\n{body}",
                                  record.given_name, record.family_name, record.contact_number))
                    .bind(now).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(if seated { EnrolmentFulfilment::Fulfilled(status) } else { EnrolmentFulfilment::PaidWithoutSeat })
        })
        .context("Failed to fulfil the enrollment")
    }

    /// A failed payment: the enrollment fails and its seats are released,
    /// once per event. A paid enrollment is never touched.
    pub async fn fail_enrollment(&self, event_id: &str, event_type: &str, order_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let first = sqlx::query("insert into webhook_event (id, type, received_at) values ($1, $2, $3) on conflict (id) do nothing")
                .bind(event_id).bind(event_type).bind(now)
                .execute(&mut *tx).await?.rows_affected() == 1;
            if !first {
                return Ok(false);
            }
            let failed = sqlx::query("update enrollment set status = 'failed' where id = $1 and status = 'pending'")
                .bind(order_id).execute(&mut *tx).await?.rows_affected() == 1;
            sqlx::query("delete from seat_hold where enrollment_id = $1").bind(order_id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(failed)
        })
        .context("Failed to record the failed payment")
    }
}
