//! Enrollments, the bookings of in-person courses: what the checkout makes
//! (`NewEnrollment`) and what is stored (`EnrollmentRecord`), the row both
//! are read and written as, and what a booking holds of the student's
//! money. The checkout's transactions are in `orders::checkout`; what the
//! provider's events do to a booking is in `orders::fulfilment`.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::balance::outstanding;
use enrol_domain::consent::Consent;
use enrol_domain::enrollment::{BookedCourse, PaymentMethod, PaymentMode, Quote, balance_due};
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;

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
    /// the booking fee was paid (decision 015).
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
/// or is being refunded: what the booking holds of the student's money,
/// kept on the booking by triggers on payments and refunds (migration 0044).
pub(crate) const NET_PAID: &str = "e.paid";

/// Enrollments `e` as [`Row`]s, to be given a `where`.
pub(crate) static ROWS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select e.id, e.reference, e.status, e.mode, e.subtotal, e.discount, e.total, e.deposit, e.balance, e.discount_code, \
         e.lines, e.given_name, e.family_name, e.email, e.contact_number, e.payment_intent_id, e.user_id, e.owner_token_hash, \
         e.code_reserved, {} as paid, e.starts_on, e.balance_due_on, e.paid_at, e.calendar_sequence, \
         (select string_agg(s.id, ',') from registration r join session s on s.id = r.session_id \
         where r.enrollment_id = e.id and r.type = 'STUDENT' and s.status = 'cancelled') as cancelled_sessions, \
         e.created_at from enrollment e",
        NET_PAID
    )
});

/// Enrollment `$1` as a [`Row`].
pub(crate) static SELECT: LazyLock<String> = LazyLock::new(|| format!("{} where e.id = $1", *ROWS));

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

    pub async fn enrollment(&self, id: &str) -> anyhow::Result<Option<EnrollmentRecord>> {
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(SELECT.as_str()).bind(id).fetch_optional(pool).await)
            .context("Failed to read the enrollment")?;
        row.map(Row::into_record).transpose()
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
