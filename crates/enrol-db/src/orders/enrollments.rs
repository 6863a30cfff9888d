//! Enrollments on in-person courses: created with their seats and code use
//! held, changed, and given their payment intent, each step in one
//! transaction that counts what it limits ([`crate::seats::SeatSteps`]). What the
//! provider's events then do to them is in `orders::fulfilment`.
//!
//! Over 300 lines: the three transactions that make, change and renew an
//! order's holds share its row and columns.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::balance::outstanding;
use enrol_domain::booking::{BookingRefused, renewed_hold};
use enrol_domain::consent::Consent;
use enrol_domain::enrollment::{BookedCourse, PaymentMethod, PaymentMode, Quote, balance_due};
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::reference::OrderKind;

use crate::codes::CodeSteps;
use crate::orders::OrderSteps;
use crate::seats::SeatSteps;
use crate::seats::counting::held_sessions;
use crate::{Db, on_pool};

/// An enrollment about to be created or replaced: priced, with the
/// sessions to hold.
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
    pub payment_method: PaymentMethod,
    pub user_id: Option<String>,
    /// The SHA-256 of the buyer cookie of the browser that made it.
    pub owner_token_hash: String,
    /// Where the request came from (its IP address), for the per-client limit.
    pub client_key: String,
    /// What the buyer agreed to (decision 020), kept with it.
    pub consents: Vec<Consent>,
}

/// An enrollment as stored.
#[derive(Debug, Clone)]
pub struct EnrollmentRecord {
    pub id: String,
    /// What a person reads out: `B-7K3P9` (enrol_domain::reference).
    pub reference: String,
    pub status: EnrollmentStatus,
    pub mode: PaymentMode,
    pub quote: Quote,
    pub discount_code: Option<String>,
    pub courses: Vec<BookedCourse>,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
    pub contact_number: String,
    pub payment_intent_id: Option<String>,
    /// The account it belongs to: the signed-in buyer's, or the verified
    /// account of its email once paid.
    pub user_id: Option<String>,
    pub owner_token_hash: Option<String>,
    /// Whether a use of its discount code is counted for it.
    pub code_reserved: bool,
    /// What the payments recorded for it add up to, less what was refunded
    /// or is being refunded.
    pub paid: Money,
    /// The first day of training and the day its balance is due, kept when
    /// the booking fee was paid (issue 13).
    pub starts_on: Option<NaiveDate>,
    pub balance_due_on: Option<NaiveDate>,
    pub paid_at: Option<DateTime<Utc>>,
    /// How often its dates changed (its calendar entries' SEQUENCE).
    pub calendar_sequence: u32,
    /// The sessions it is booked on that the college cancelled: the student
    /// may move from one to any date not passed, or cancel with everything
    /// back (decision 017).
    pub cancelled_sessions: Vec<String>,
    pub created_at: DateTime<Utc>,
}

#[derive(sqlx::FromRow)]
pub(crate) struct Row {
    id: String,
    reference: String,
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
    owner_token_hash: Option<String>,
    code_reserved: bool,
    paid: i64,
    starts_on: Option<NaiveDate>,
    balance_due_on: Option<NaiveDate>,
    paid_at: Option<DateTime<Utc>>,
    calendar_sequence: i32,
    cancelled_sessions: Option<String>,
    created_at: DateTime<Utc>,
}

/// What was refunded of the payments of enrollment `e`, or is being refunded.
pub(crate) const REFUNDED: &str =
    "coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = e.id), 0)";

/// What the payments of enrollment `e` add up to, less what was refunded
/// or is being refunded: what the booking holds of the student's money.
pub(crate) static NET_PAID: LazyLock<String> = LazyLock::new(|| {
    format!("cast(coalesce((select sum(p.amount) from payment p where p.enrollment_id = e.id), 0) - {REFUNDED} as bigint)")
});

/// Enrollment `$1` as a [`Row`].
pub(crate) static SELECT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select e.id, e.reference, e.status, e.mode, e.subtotal, e.discount, e.total, e.deposit, e.balance, e.discount_code, \
         e.lines, e.given_name, e.family_name, e.email, e.contact_number, e.payment_intent_id, e.user_id, e.owner_token_hash, \
         e.code_reserved, {} as paid, e.starts_on, e.balance_due_on, e.paid_at, e.calendar_sequence, \
         (select string_agg(s.id, ',') from registration r join session s on s.id = r.session_id \
         where r.enrollment_id = e.id and r.type = 'STUDENT' and s.status = 'cancelled') as cancelled_sessions, \
         e.created_at from enrollment e where e.id = $1",
        *NET_PAID
    )
});

impl Row {
    pub(crate) fn into_record(self) -> anyhow::Result<EnrollmentRecord> {
        Ok(EnrollmentRecord {
            status: EnrollmentStatus::parse(&self.status).with_context(|| format!("Unknown enrollment status {}", self.status))?,
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
            reference: self.reference,
            discount_code: self.discount_code,
            given_name: self.given_name,
            family_name: self.family_name,
            email: self.email,
            contact_number: self.contact_number,
            payment_intent_id: self.payment_intent_id,
            user_id: self.user_id,
            owner_token_hash: self.owner_token_hash,
            code_reserved: self.code_reserved,
            paid: Money::from_pence(self.paid),
            starts_on: self.starts_on,
            balance_due_on: self.balance_due_on,
            paid_at: self.paid_at,
            calendar_sequence: u32::try_from(self.calendar_sequence).unwrap_or_default(),
            cancelled_sessions: self.cancelled_sessions.map(|ids| ids.split(',').map(str::to_owned).collect()).unwrap_or_default(),
            created_at: self.created_at,
        })
    }
}

impl EnrollmentRecord {
    /// What is left to pay (never below zero).
    pub fn owed(&self) -> Money {
        outstanding(self.quote.total, self.paid)
    }

    /// When the balance is due: as kept when the booking fee was paid, or,
    /// for an order not paid yet, as the terms would set it if paid `today`.
    pub fn balance_due_on(&self, today: NaiveDate) -> Option<NaiveDate> {
        balance_due(self.balance_due_on, &self.courses, today)
    }
}

/// A value an enrollment's row is written with.
#[derive(Clone, Copy)]
pub(crate) enum Value<'a> {
    Text(&'a str),
    OptText(Option<&'a str>),
    Pence(i64),
    Flag(bool),
    Time(DateTime<Utc>),
}

/// A column of an enrollment's row with the value it is written with.
pub(crate) type Column<'a> = (&'static str, Value<'a>);

/// What the buyer chose (courses as `lines`, `metadata`, figures, code,
/// contact, payment method) and how long it is held (`held_until`): the
/// columns making an order writes and changing it writes again, each with
/// its value, in one list that both statements are made from.
pub(crate) fn chosen<'a>(new: &'a NewEnrollment, lines: &'a str, metadata: &'a str, held_until: DateTime<Utc>) -> [Column<'a>; 17] {
    let q = &new.quote;
    [
        ("mode", Value::Text(mode_str(new.mode))),
        ("subtotal", Value::Pence(q.subtotal.pence())),
        ("discount", Value::Pence(q.discount.pence())),
        ("total", Value::Pence(q.total.pence())),
        ("deposit", Value::Pence(q.deposit.pence())),
        ("balance", Value::Pence(q.balance.pence())),
        ("deposit_required", Value::Flag(new.mode == PaymentMode::Fee)),
        ("discount_code", Value::OptText(new.discount_code.as_deref())),
        ("lines", Value::Text(lines)),
        ("metadata", Value::Text(metadata)),
        ("given_name", Value::Text(&new.given_name)),
        ("family_name", Value::Text(&new.family_name)),
        ("email", Value::Text(&new.email)),
        ("contact_number", Value::Text(&new.contact_number)),
        ("payment_method", Value::Text(new.payment_method.as_str())),
        ("held_until", Value::Time(held_until)),
        ("code_reserved", Value::Flag(new.discount_code.is_some())),
    ]
}

/// `insert into enrollment` of the id (`$1`) and `columns` (`$2` on).
pub(crate) fn insert_statement(columns: &[Column<'_>]) -> String {
    let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
    let values: Vec<String> = (2..columns.len() + 2).map(|n| format!("${n}")).collect();
    format!("insert into enrollment (id, {}) values ($1, {})", names.join(", "), values.join(", "))
}

/// `update enrollment` of `columns` (`$2` on) where the id is `$1`.
pub(crate) fn update_statement(columns: &[Column<'_>]) -> String {
    let set: Vec<String> = columns.iter().zip(2..).map(|((name, _), n)| format!("{name} = ${n}")).collect();
    format!("update enrollment set {} where id = $1", set.join(", "))
}

/// What renewing an order's hold reads of it.
#[derive(sqlx::FromRow)]
struct HoldRow {
    lines: String,
    discount_code: Option<String>,
    code_reserved: bool,
    hold_ends_at: Option<DateTime<Utc>>,
}

pub(crate) fn mode_str(mode: PaymentMode) -> &'static str {
    match mode {
        PaymentMode::Fee => "fee",
        PaymentMode::Full => "full",
    }
}

impl Db {
    /// The user whose payment provider customer id is `account`.
    pub async fn user_by_payment_account(&self, account: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar("select id from user_account where stripe_id = $1").bind(account).fetch_optional(pool).await)
            .context("Failed to read the payment account")
    }

    /// Stores the enrollment, counts its code use and holds its seats in
    /// one transaction: all of them, or none and why. A client may hold
    /// seats for `max_live_orders` unpaid orders at once, no more.
    pub async fn create_enrollment(
        &self,
        new: &NewEnrollment,
        max_live_orders: i64,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Result<(), BookingRefused>> {
        let sessions = held_sessions(&new.courses);
        let hold_ends_at = now + enrol_domain::booking::HOLD_LIFE;
        let until = renewed_hold(now, hold_ends_at).context("A new hold has time left")?;
        // SQLite's turn is its write lock, so it comes first; on PostgreSQL the
        // order's own row and its client's count are written before the seat
        // queue, which then waits only for the seats (see `Db::seat_turn`).
        let reference = self.next_reference(OrderKind::Booking).await?;
        let write_turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("insert into hold_client (client_key) values ($1) on conflict (client_key) do update set client_key = excluded.client_key")
                .bind(&new.client_key).execute(&mut *tx).await?;
            let live: i64 = sqlx::query_scalar("select count(*) from enrollment where client_key = $1 and status = 'pending' and held_until > $2")
                .bind(&new.client_key).bind(now).fetch_one(&mut *tx).await?;
            if live >= max_live_orders {
                tx.rollback().await?;
                return Ok(Err(BookingRefused::TooManyHolds));
            }
            tx.insert_enrollment(new, &reference, until, hold_ends_at, now).await?;
            tx.keep_consents(Some(new.id.as_str()), None, &new.consents, now).await?;
            let _turn = match write_turn {
                Some(turn) => turn,
                None => self.seat_turn().await,
            };
            tx.lock_sessions(&sessions).await?;
            if let Some(full) = tx.hold_seats(&new.id, &sessions, until, now).await? {
                tx.rollback().await?;
                return Ok(Err(full));
            }
            if let Some(code) = &new.discount_code && !tx.reserve_code(code).await? {
                tx.rollback().await?;
                return Ok(Err(BookingRefused::CodeUsedUp { code: code.clone() }));
            }
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Ok(()))
        })
        .context("Failed to create the enrollment")
    }

    /// Replaces a pending enrollment's courses, figures, contact, holds and
    /// code (`PUT /api/enroll/`), renewing its hold within its life. `None`
    /// when there is no pending enrollment `id`.
    pub async fn replace_enrollment(&self, new: &NewEnrollment, now: DateTime<Utc>) -> anyhow::Result<Option<Result<(), BookingRefused>>> {
        let lines = serde_json::to_string(&new.courses)?;
        let metadata = serde_json::to_string(&new.metadata)?;
        let _turn = self.seat_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let found: Option<HoldRow> = sqlx::query_as(
                "select lines, discount_code, code_reserved, hold_ends_at from enrollment where id = $1 and status = 'pending'"
            ).bind(&new.id).fetch_optional(&mut *tx).await?;
            let Some(HoldRow { lines: old_lines, discount_code: old_code, code_reserved: reserved, hold_ends_at }) = found else {
                tx.rollback().await?;
                return Ok(None);
            };
            let Some(until) = renewed_hold(now, hold_ends_at.unwrap_or(now)) else {
                tx.rollback().await?;
                return Ok(Some(Err(BookingRefused::HoldEnded)));
            };
            let old: Vec<BookedCourse> = serde_json::from_str(&old_lines).map_err(|e| sqlx::Error::Decode(e.into()))?;
            tx.lock_sessions(&held_sessions(old.iter().chain(&new.courses))).await?;
            // Holds of sessions still wanted are renewed, not given up first: a
            // seat this order holds stays its own (a claimed waiting-list offer's too).
            let wanted = held_sessions(&new.courses);
            let holding: Vec<String> =
                sqlx::query_scalar("select session_id from seat_hold where enrollment_id = $1").bind(&new.id).fetch_all(&mut *tx).await?;
            for session_id in holding.iter().filter(|s| !wanted.contains(s)) {
                sqlx::query("delete from seat_hold where enrollment_id = $1 and session_id = $2")
                    .bind(&new.id).bind(session_id).execute(&mut *tx).await?;
            }
            if let Some(full) = tx.hold_seats(&new.id, &wanted, until, now).await? {
                tx.rollback().await?;
                return Ok(Some(Err(full)));
            }
            let keeps_its_use = reserved && old_code == new.discount_code;
            if !keeps_its_use {
                tx.release_code(&new.id).await?;
                if let Some(code) = &new.discount_code && !tx.reserve_code(code).await? {
                    tx.rollback().await?;
                    return Ok(Some(Err(BookingRefused::CodeUsedUp { code: code.clone() })));
                }
            }
            tx.rewrite_enrollment(new, &lines, &metadata, until).await?;
            tx.keep_consents(Some(new.id.as_str()), None, &new.consents, now).await?;
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(Ok(())))
        })
        .context("Failed to update the enrollment")
    }

    pub async fn enrollment(&self, id: &str) -> anyhow::Result<Option<EnrollmentRecord>> {
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(SELECT.as_str()).bind(id).fetch_optional(pool).await)
            .context("Failed to read the enrollment")?;
        row.map(Row::into_record).transpose()
    }

    /// Remembers that the browser with `owner_token_hash` prepared payment
    /// intent `intent_id` (`POST /api/checkout/`).
    pub async fn record_checkout_intent(&self, intent_id: &str, owner_token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("insert into checkout_intent (id, owner_token_hash, created_at) values ($1, $2, $3)")
            .bind(intent_id).bind(owner_token_hash).bind(now).execute(pool).await.map(drop))
        .context("Failed to record the payment intent")
    }

    /// Who prepared payment intent `intent_id`, if this site did.
    pub async fn checkout_intent_owner(&self, intent_id: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar("select owner_token_hash from checkout_intent where id = $1")
            .bind(intent_id).fetch_optional(pool).await)
        .context("Failed to read the payment intent")
    }

    /// Makes `intent_id` the one payment intent of pending enrollment `id`
    /// (replacing `replacing`, which the caller has cancelled at the
    /// provider) and renews its hold: every seat held again only if it is
    /// still free, the code use counted again only if one is left, never
    /// past the hold's life. `None` when the enrollment is no longer
    /// pending or another intent got there first.
    pub async fn attach_payment_intent(
        &self,
        id: &str,
        intent_id: &str,
        replacing: Option<&str>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<Result<(), BookingRefused>>> {
        let _turn = self.seat_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let attached = sqlx::query(
                "update enrollment set payment_intent_id = $2 where id = $1 and status = 'pending' \
                 and (payment_intent_id is null or payment_intent_id = $2 or payment_intent_id = $3)"
            ).bind(id).bind(intent_id).bind(replacing).execute(&mut *tx).await?.rows_affected() == 1;
            if !attached {
                tx.rollback().await?;
                return Ok(None);
            }
            let HoldRow { lines, discount_code: code, code_reserved: reserved, hold_ends_at } = sqlx::query_as(
                "select lines, discount_code, code_reserved, hold_ends_at from enrollment where id = $1"
            ).bind(id).fetch_one(&mut *tx).await?;
            let Some(until) = renewed_hold(now, hold_ends_at.unwrap_or(now)) else {
                tx.rollback().await?;
                return Ok(Some(Err(BookingRefused::HoldEnded)));
            };
            let courses: Vec<BookedCourse> = serde_json::from_str(&lines).map_err(|e| sqlx::Error::Decode(e.into()))?;
            let sessions = held_sessions(&courses);
            tx.lock_sessions(&sessions).await?;
            if let Some(full) = tx.hold_seats(id, &sessions, until, now).await? {
                tx.rollback().await?;
                return Ok(Some(Err(full)));
            }
            if let Some(code) = code.filter(|_| !reserved) {
                if !tx.reserve_code(&code).await? {
                    tx.rollback().await?;
                    return Ok(Some(Err(BookingRefused::CodeUsedUp { code })));
                }
                sqlx::query("update enrollment set code_reserved = true where id = $1").bind(id).execute(&mut *tx).await?;
            }
            sqlx::query("update enrollment set held_until = $2 where id = $1").bind(id).bind(until).execute(&mut *tx).await?;
            sqlx::query("update checkout_intent set enrollment_id = $2 where id = $1").bind(intent_id).bind(id).execute(&mut *tx).await?;
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(Ok(())))
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
}
