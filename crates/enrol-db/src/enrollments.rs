//! Enrolments on in-person courses: created with their seats and code use
//! held, paid through a payment intent, fulfilled once by the provider's
//! event. What to do is decided in `enrol_domain::booking`; this module
//! carries it out, each step in one transaction that counts what it limits.

use std::collections::{BTreeMap, HashMap};

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::booking::{BookingRefused, CheckoutPayment, checkout_payment, renewed_hold};
use enrol_domain::enrollment::{BookedCourse, Confirmation, Discount, DiscountType, PaymentMethod, PaymentMode, Quote};
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;

use crate::{Db, first_delivery, on_pool, public_id, queue_mail};

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
}

/// An enrollment as stored.
#[derive(Debug, Clone)]
pub struct EnrollmentRecord {
    pub id: String,
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
    /// What the payments recorded for it add up to.
    pub paid: Money,
}

/// A discount code as stored, and whether it can be used on `today`.
#[derive(Debug, Clone)]
pub struct DiscountCode {
    pub code: String,
    pub discount: Discount,
    /// Active and not expired.
    open: bool,
    /// Uses left before the limit, counting unpaid orders holding one.
    uses_left: Option<i64>,
}

impl DiscountCode {
    /// Whether a new order may use the code.
    pub fn is_usable(&self) -> bool {
        self.is_usable_holding(false)
    }

    /// Whether an order may keep using it: one that already holds a use of
    /// it needs no other.
    pub fn is_usable_holding(&self, holds_a_use: bool) -> bool {
        self.open && (holds_a_use || self.uses_left.is_none_or(|left| left > 0))
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

/// A refund decided but not yet made at the payment provider.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PendingRefund {
    pub id: String,
    /// The provider's payment id (a payment intent).
    pub transaction_id: String,
    pub amount: i64,
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
    owner_token_hash: Option<String>,
    code_reserved: bool,
    paid: i64,
}

const SELECT: &str = "select e.id, e.status, e.mode, e.subtotal, e.discount, e.total, e.deposit, e.balance, e.discount_code, \
     e.lines, e.given_name, e.family_name, e.email, e.contact_number, e.payment_intent_id, e.user_id, e.owner_token_hash, \
     e.code_reserved, cast(coalesce((select sum(p.amount) from payment p where p.enrollment_id = e.id), 0) as bigint) as paid \
     from enrollment e where e.id = $1";

impl Row {
    fn into_record(self) -> anyhow::Result<EnrollmentRecord> {
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
        })
    }
}

/// What renewing an order's hold reads of it.
#[derive(sqlx::FromRow)]
struct HoldRow {
    lines: String,
    discount_code: Option<String>,
    code_reserved: bool,
    hold_ends_at: Option<DateTime<Utc>>,
}

fn mode_str(mode: PaymentMode) -> &'static str {
    match mode {
        PaymentMode::Fee => "fee",
        PaymentMode::Full => "full",
    }
}

/// The sessions of `courses`, sorted so that every transaction locks them
/// in the same order (no deadlock between two orders).
fn held_sessions<'a>(courses: impl IntoIterator<Item = &'a BookedCourse>) -> Vec<String> {
    let mut ids: Vec<String> = courses.into_iter().filter_map(|c| c.session_id.clone()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The free seats of active session `$1` as of `$2`: seats less
/// registrations and the live holds of unpaid orders other than `$3`.
const FREE_SEATS: &str = "select s.seats - s.registrations - (select count(*) from seat_hold h join enrollment e on e.id = h.enrollment_id \
     where h.session_id = s.id and h.expires_at > $2 and e.status = 'pending' and h.enrollment_id <> $3) \
     from session s where s.id = $1 and s.status = 'active'";

/// Locks the rows of `$sessions` (sorted) inside `$tx`: a no-op update
/// locks the session row (PostgreSQL) or takes the write lock (SQLite), so
/// seats are counted only after every other writer of them is done.
macro_rules! lock_sessions {
    ($tx:expr, $sessions:expr) => {
        for session_id in $sessions {
            sqlx::query("update session set registrations = registrations where id = $1").bind(session_id).execute(&mut *$tx).await?;
        }
    };
}

/// Holds one seat of each of `$sessions` for `$enrollment_id` until
/// `$until`, or names the first session that is full. The order's own
/// holds are not counted against it; the sessions must be locked.
macro_rules! hold_seats {
    ($tx:expr, $enrollment_id:expr, $sessions:expr, $until:expr, $now:expr) => {{
        let mut full = None;
        for session_id in $sessions {
            let free: Option<i64> =
                sqlx::query_scalar(FREE_SEATS).bind(session_id).bind($now).bind($enrollment_id).fetch_optional(&mut *$tx).await?;
            if free.unwrap_or(0) <= 0 {
                full = Some(BookingRefused::SessionFull { session_id: session_id.to_string() });
                break;
            }
            sqlx::query(
                "insert into seat_hold (enrollment_id, session_id, expires_at) values ($1, $2, $3) \
                 on conflict (enrollment_id, session_id) do update set expires_at = excluded.expires_at",
            )
            .bind($enrollment_id)
            .bind(session_id)
            .bind($until)
            .execute(&mut *$tx)
            .await?;
        }
        full
    }};
}

/// Counts one use of `$code` inside `$tx` unless it is used up: the
/// conditional update is the check, so no two orders take the last use.
macro_rules! reserve_code {
    ($tx:expr, $code:expr) => {
        sqlx::query("update discount_code set uses = uses + 1 where code = $1 and active and (max_uses is null or uses < max_uses)")
            .bind($code)
            .execute(&mut *$tx)
            .await
            .map(|done| done.rows_affected() == 1)
    };
}

/// Gives back the use of its code that order `$id` holds, once.
macro_rules! release_code {
    ($tx:expr, $id:expr) => {
        async {
            let code: Option<Option<String>> =
                sqlx::query_scalar("update enrollment set code_reserved = false where id = $1 and code_reserved returning discount_code")
                    .bind($id)
                    .fetch_optional(&mut *$tx)
                    .await?;
            if let Some(Some(code)) = code {
                sqlx::query("update discount_code set uses = uses - 1 where code = $1 and uses > 0").bind(code).execute(&mut *$tx).await?;
            }
            Ok::<_, sqlx::Error>(())
        }
    };
}

/// Marks a change to seats held or taken, for pages that show seats left.
macro_rules! seats_changed {
    ($tx:expr) => {
        sqlx::query("update availability_version set version = version + 1 where id = 1").execute(&mut *$tx).await
    };
}

/// Rolls `$tx` back and answers `$answer`.
macro_rules! refuse {
    ($tx:expr, $answer:expr) => {{
        $tx.rollback().await?;
        return Ok($answer);
    }};
}

impl Db {
    /// Free seats per session, counting the seats held for unpaid orders
    /// other than `except_order`'s.
    pub async fn free_seats(
        &self,
        session_ids: &[String],
        except_order: Option<&str>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<HashMap<String, i64>> {
        let mut free = HashMap::with_capacity(session_ids.len());
        let except = except_order.unwrap_or_default();
        for id in session_ids {
            let left: Option<i64> =
                on_pool!(self, pool => sqlx::query_scalar(FREE_SEATS).bind(id).bind(now).bind(except).fetch_optional(pool).await)
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
            Ok(DiscountCode {
                code: row.code,
                discount: Discount { kind, value: row.value },
                open: row.active && row.expires_on.is_none_or(|day| day >= today),
                uses_left: row.max_uses.map(|max| max - row.uses),
            })
        })
        .transpose()
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
        let lines = serde_json::to_string(&new.courses)?;
        let metadata = serde_json::to_string(&new.metadata)?;
        let sessions = held_sessions(&new.courses);
        let hold_ends_at = now + enrol_domain::booking::HOLD_LIFE;
        let until = renewed_hold(now, hold_ends_at).context("A new hold has time left")?;
        let q = &new.quote;
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("insert into hold_client (client_key) values ($1) on conflict (client_key) do update set client_key = excluded.client_key")
                .bind(&new.client_key).execute(&mut *tx).await?;
            let live: i64 = sqlx::query_scalar("select count(*) from enrollment where client_key = $1 and status = 'pending' and held_until > $2")
                .bind(&new.client_key).bind(now).fetch_one(&mut *tx).await?;
            if live >= max_live_orders {
                refuse!(tx, Err(BookingRefused::TooManyHolds));
            }
            sqlx::query(
                "insert into enrollment (id, status, mode, subtotal, discount, total, deposit, balance, deposit_required, \
                 discount_code, lines, metadata, given_name, family_name, email, contact_number, payment_method, user_id, created_at, \
                 owner_token_hash, client_key, held_until, hold_ends_at, code_reserved) \
                 values ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)"
            ).bind(&new.id).bind(mode_str(new.mode)).bind(q.subtotal.pence()).bind(q.discount.pence()).bind(q.total.pence())
                .bind(q.deposit.pence()).bind(q.balance.pence()).bind(new.mode == PaymentMode::Fee).bind(&new.discount_code)
                .bind(&lines).bind(&metadata).bind(&new.given_name).bind(&new.family_name).bind(&new.email)
                .bind(&new.contact_number).bind(new.payment_method.as_str()).bind(&new.user_id).bind(now)
                .bind(&new.owner_token_hash).bind(&new.client_key).bind(until).bind(hold_ends_at).bind(new.discount_code.is_some())
                .execute(&mut *tx).await?;
            lock_sessions!(tx, &sessions);
            if let Some(full) = hold_seats!(tx, &new.id, &sessions, until, now) {
                refuse!(tx, Err(full));
            }
            if let Some(code) = &new.discount_code && !reserve_code!(tx, code)? {
                refuse!(tx, Err(BookingRefused::CodeUsedUp { code: code.clone() }));
            }
            seats_changed!(tx)?;
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
        let q = &new.quote;
        let _turn = self.write_turn().await;
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
            lock_sessions!(tx, &held_sessions(old.iter().chain(&new.courses)));
            sqlx::query("delete from seat_hold where enrollment_id = $1").bind(&new.id).execute(&mut *tx).await?;
            if let Some(full) = hold_seats!(tx, &new.id, &held_sessions(&new.courses), until, now) {
                refuse!(tx, Some(Err(full)));
            }
            let keeps_its_use = reserved && old_code == new.discount_code;
            if !keeps_its_use {
                release_code!(tx, &new.id).await?;
                if let Some(code) = &new.discount_code && !reserve_code!(tx, code)? {
                    refuse!(tx, Some(Err(BookingRefused::CodeUsedUp { code: code.clone() })));
                }
            }
            sqlx::query(
                "update enrollment set mode = $2, subtotal = $3, discount = $4, total = $5, deposit = $6, balance = $7, \
                 deposit_required = $8, discount_code = $9, lines = $10, metadata = $11, given_name = $12, family_name = $13, \
                 email = $14, contact_number = $15, payment_method = $16, held_until = $17, code_reserved = $18 where id = $1"
            ).bind(&new.id).bind(mode_str(new.mode)).bind(q.subtotal.pence()).bind(q.discount.pence()).bind(q.total.pence())
                .bind(q.deposit.pence()).bind(q.balance.pence()).bind(new.mode == PaymentMode::Fee).bind(&new.discount_code)
                .bind(&lines).bind(&metadata).bind(&new.given_name).bind(&new.family_name).bind(&new.email)
                .bind(&new.contact_number).bind(new.payment_method.as_str()).bind(until).bind(new.discount_code.is_some())
                .execute(&mut *tx).await?;
            seats_changed!(tx)?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(Ok(())))
        })
        .context("Failed to update the enrollment")
    }

    pub async fn enrollment(&self, id: &str) -> anyhow::Result<Option<EnrollmentRecord>> {
        let row: Option<Row> =
            on_pool!(self, pool => sqlx::query_as(SELECT).bind(id).fetch_optional(pool).await).context("Failed to read the enrollment")?;
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
        let _turn = self.write_turn().await;
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
            let Some(until) = renewed_hold(now, hold_ends_at.unwrap_or(now)) else { refuse!(tx, Some(Err(BookingRefused::HoldEnded))) };
            let courses: Vec<BookedCourse> = serde_json::from_str(&lines).map_err(|e| sqlx::Error::Decode(e.into()))?;
            let sessions = held_sessions(&courses);
            lock_sessions!(tx, &sessions);
            if let Some(full) = hold_seats!(tx, id, &sessions, until, now) {
                refuse!(tx, Some(Err(full)));
            }
            if let Some(code) = code.filter(|_| !reserved) {
                if !reserve_code!(tx, &code)? {
                    refuse!(tx, Some(Err(BookingRefused::CodeUsedUp { code })));
                }
                sqlx::query("update enrollment set code_reserved = true where id = $1").bind(id).execute(&mut *tx).await?;
            }
            sqlx::query("update enrollment set held_until = $2 where id = $1").bind(id).bind(until).execute(&mut *tx).await?;
            sqlx::query("update checkout_intent set enrollment_id = $2 where id = $1").bind(intent_id).bind(id).execute(&mut *tx).await?;
            seats_changed!(tx)?;
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

    /// Records a successful payment once: the payment row, the enrollment's
    /// new status, a registration per held session, the discount's use, the
    /// buyer's account, the confirmation mail and any refund due, in one
    /// transaction.
    pub async fn fulfil_enrollment(
        &self,
        paid: &IntentOutcome,
        college: &str,
        college_address: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<EnrollmentFulfilment> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if !first_delivery!(tx, &paid.event_id, &paid.event_type, now)? {
                return Ok(EnrollmentFulfilment::AlreadyHandled);
            }
            let row: Option<Row> = sqlx::query_as(SELECT).bind(&paid.order_id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.commit().await?;
                return Ok(EnrollmentFulfilment::UnknownOrder);
            };
            let record = row.into_record().map_err(|e| sqlx::Error::Decode(e.into()))?;
            let sessions = held_sessions(&record.courses);
            lock_sessions!(tx, &sessions);
            let email = record.email.trim().to_lowercase();
            // Only a proven address links a guest's purchase to an account.
            let user_id: Option<String> = match &record.user_id {
                Some(id) => Some(id.clone()),
                None => sqlx::query_scalar("select id from user_account where email = $1 and email_verified_at is not null")
                    .bind(&email).fetch_optional(&mut *tx).await?,
            };
            let payment_id = public_id();
            let metadata = serde_json::json!({ "order_id": record.id, "event_id": paid.event_id, "mode": record.mode.metadata_type() }).to_string();
            let recorded = sqlx::query(
                "insert into payment (id, amount, status, currency, transaction_id, method, metadata, enrollment_id, user_id, created_at) \
                 values ($1, $2, 'succeeded', $3, $4, $5, $6, $7, $8, $9) on conflict (transaction_id) do nothing"
            ).bind(&payment_id).bind(paid.amount.pence()).bind(&paid.currency).bind(&paid.intent_id)
                .bind(&paid.method).bind(&metadata).bind(&record.id).bind(&user_id).bind(now)
                .execute(&mut *tx).await?.rows_affected() == 1;
            if !recorded {
                tx.commit().await?;
                return Ok(EnrollmentFulfilment::AlreadyHandled);
            }
            let refund = |amount: Money, reason: &'static str| (public_id(), amount, reason);
            let (status, excess) = match checkout_payment(record.status, record.mode, &record.quote, record.paid, paid.amount) {
                CheckoutPayment::Underpaid => {
                    tx.commit().await?;
                    return Ok(EnrollmentFulfilment::Underpaid);
                }
                CheckoutPayment::AlreadyPaid => {
                    let (refund_id, amount, reason) = refund(paid.amount, "overpayment");
                    sqlx::query("insert into refund (id, payment_id, amount, reason, created_at) values ($1, $2, $3, $4, $5)")
                        .bind(&refund_id).bind(&payment_id).bind(amount.pence()).bind(reason).bind(now).execute(&mut *tx).await?;
                    tx.commit().await?;
                    return Ok(EnrollmentFulfilment::Overpaid { refund: refund_id });
                }
                CheckoutPayment::Paid { status, excess } => (status, excess),
            };
            let mut seated = true;
            for session_id in &sessions {
                // Its own live hold keeps a seat; after the hold ran out, only
                // a seat nobody else holds may be taken.
                let held: i64 = sqlx::query_scalar(
                    "select count(*) from seat_hold where enrollment_id = $1 and session_id = $2 and expires_at > $3"
                ).bind(&record.id).bind(session_id).bind(now).fetch_one(&mut *tx).await?;
                let free: Option<i64> = sqlx::query_scalar(FREE_SEATS).bind(session_id).bind(now).bind(&record.id).fetch_optional(&mut *tx).await?;
                sqlx::query("delete from seat_hold where enrollment_id = $1 and session_id = $2")
                    .bind(&record.id).bind(session_id).execute(&mut *tx).await?;
                let taken = (held > 0 || free.unwrap_or(0) > 0)
                    && sqlx::query("update session set registrations = registrations + 1 where id = $1 and registrations < seats")
                        .bind(session_id).execute(&mut *tx).await?.rows_affected() == 1;
                if !taken {
                    seated = false;
                    continue;
                }
                let event_id = record.courses.iter().find(|c| c.session_id.as_ref() == Some(session_id)).map(|c| c.event_id.clone());
                sqlx::query(
                    "insert into registration (id, event_id, enrollment_id, session_id, status, type, user_id, created_at) \
                     values ($1, $2, $3, $4, 'active', 'STUDENT', $5, $6) on conflict (enrollment_id, session_id) do nothing"
                ).bind(public_id()).bind(event_id).bind(&record.id).bind(session_id)
                    .bind(&user_id).bind(now).execute(&mut *tx).await?;
            }
            sqlx::query("update enrollment set status = $2, registered = $3, call = $4, user_id = $5, paid_at = $6, held_until = null where id = $1")
                .bind(&record.id).bind(status.as_str()).bind(seated).bind(!seated).bind(&user_id).bind(now)
                .execute(&mut *tx).await?;
            // A use counted since the order was made stays; one given back
            // when its hold ran out is counted again, since it was paid for.
            if let Some(code) = record.discount_code.as_ref().filter(|_| !record.code_reserved) {
                sqlx::query("update discount_code set uses = uses + 1 where code = $1").bind(code).execute(&mut *tx).await?;
                sqlx::query("update enrollment set code_reserved = true where id = $1").bind(&record.id).execute(&mut *tx).await?;
            }
            let refund_id = if excess > Money::ZERO {
                let (refund_id, amount, reason) = refund(excess, "overpayment");
                sqlx::query("insert into refund (id, payment_id, amount, reason, created_at) values ($1, $2, $3, $4, $5)")
                    .bind(&refund_id).bind(&payment_id).bind(amount.pence()).bind(reason).bind(now).execute(&mut *tx).await?;
                Some(refund_id)
            } else {
                None
            };
            let kept = Money::from_pence(record.paid.pence() + paid.amount.pence() - excess.pence());
            let body = Confirmation {
                college,
                order_id: &record.id,
                given_name: &record.given_name,
                courses: &record.courses,
                quote: &record.quote,
                paid: kept,
            }
            .body();
            if !email.is_empty() {
                queue_mail!(tx, &email, None::<&str>, format!("Your {college} booking is confirmed"), &body, now)?;
            }
            if !seated {
                let call = format!(
                    "The booking below was paid, but a session had filled up after its seat hold ran out. \
                     Please call {} {} on {} to choose another date.\n\n{body}",
                    record.given_name, record.family_name, record.contact_number
                );
                queue_mail!(tx, college_address, None::<&str>, format!("Call needed: booking {} was paid after its seat was taken", record.id), call, now)?;
            }
            seats_changed!(tx)?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(if seated { EnrollmentFulfilment::Fulfilled { status, refund: refund_id } } else { EnrollmentFulfilment::PaidWithoutSeat })
        })
        .context("Failed to fulfil the enrollment")
    }

    /// A failed payment: the enrollment fails, its seats and code use are
    /// released, once per event. A paid enrollment is never touched.
    pub async fn fail_enrollment(&self, event_id: &str, event_type: &str, order_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if !first_delivery!(tx, event_id, event_type, now)? {
                return Ok(false);
            }
            let failed = sqlx::query("update enrollment set status = 'failed' where id = $1 and status = 'pending'")
                .bind(order_id).execute(&mut *tx).await?.rows_affected() == 1;
            if failed {
                sqlx::query("delete from seat_hold where enrollment_id = $1").bind(order_id).execute(&mut *tx).await?;
                release_code!(tx, order_id).await?;
                seats_changed!(tx)?;
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
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let expired: Vec<String> = sqlx::query_scalar(
                "select id from enrollment where status = 'pending' and held_until <= $1 \
                 and (code_reserved or exists (select 1 from seat_hold h where h.enrollment_id = enrollment.id)) order by id limit 500"
            ).bind(now).fetch_all(&mut *tx).await?;
            for id in &expired {
                release_code!(tx, id).await?;
                sqlx::query("delete from seat_hold where enrollment_id = $1 and expires_at <= $2").bind(id).bind(now).execute(&mut *tx).await?;
            }
            if !expired.is_empty() {
                seats_changed!(tx)?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(expired.len())
        })
        .context("Failed to release expired holds")
    }

    /// Refunds decided but not yet made at the provider, oldest first.
    pub async fn pending_refunds(&self, limit: i64) -> anyhow::Result<Vec<PendingRefund>> {
        on_pool!(self, pool => sqlx::query_as(
            "select r.id, p.transaction_id, r.amount from refund r join payment p on p.id = r.payment_id \
             where r.status = 'pending' order by r.created_at limit $1"
        ).bind(limit).fetch_all(pool).await)
        .context("Failed to read the pending refunds")
    }

    /// The provider made refund `id`.
    pub async fn complete_refund(&self, id: &str, provider_refund_id: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query(
            "update refund set status = 'succeeded', provider_refund_id = $2, completed_at = $3, attempts = attempts + 1 \
             where id = $1 and status = 'pending'"
        ).bind(id).bind(provider_refund_id).bind(now).execute(pool).await.map(drop))
        .context("Failed to record the refund")
    }

    /// The provider could not make refund `id` this time; it is tried again.
    pub async fn note_refund_failure(&self, id: &str, error: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("update refund set attempts = attempts + 1, last_error = $2 where id = $1 and status = 'pending'")
            .bind(id).bind(error).execute(pool).await.map(drop))
        .context("Failed to record the refund failure")
    }
}
