//! The checkout's transactions over an enrollment: created with its seats
//! and code use held, changed, and given its payment intent, each in one
//! transaction that counts what it limits ([`crate::seats::SeatSteps`],
//! [`crate::codes::CodeSteps`]).

use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::booking::{BookingRefused, renewed_hold};
use enrol_domain::enrollment::BookedCourse;
use enrol_domain::reference::OrderKind;

use crate::codes::CodeSteps;
use crate::counting::held_sessions;
use crate::orders::OrderSteps;
use crate::people::allowance::{Allowance, AllowanceSteps};
use crate::seats::{NewOrderHold, NewOrderSeats, SeatSteps};
use crate::{Db, NewEnrollment, on_pool};

/// How many unpaid orders may hold seats at once: per browser (its buyer
/// cookie), and per client address, where a classroom's browsers share
/// one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveOrderCaps {
    pub per_browser: i64,
    pub per_address: i64,
}

/// The unpaid orders holding seats as of `$3` made from address `$1` and
/// by browser `$2`, each counted through its own index, by both its
/// columns, so a plan kept for any values reads the client's orders alone
/// (decision 050).
pub(crate) const LIVE_ORDERS_OF_CLIENT: &str = concat!(
    "select ",
    unpaid_orders_holding_seats!("client_key", "$1", "$3"),
    ", ",
    unpaid_orders_holding_seats!("owner_token_hash", "$2", "$3")
);

/// A new order's transaction on PostgreSQL, whose statements keep their
/// plans (decision 048): the connections plan every statement for its
/// values (`plan_cache_mode=force_custom_plan`), which is right for the
/// counts and searches but made each order plan its inserts, its
/// foreign-key checks and its triggers' statements anew, about 0.8 ms of
/// PostgreSQL's time an order. In this transaction PostgreSQL keeps a
/// generic plan where it costs no more than planning each time; every
/// statement of it reads or writes rows by their key or, the client's
/// count, by the index of both its columns (decision 050). The seat hold's
/// plan is kept too (decision 049): the count of held seats reads the
/// order's own hold by its key alone, so a plan made on a new database
/// cannot go through all of a session's holds. Sequential scans are priced
/// out (decision 051): a plan kept from tables analysed nearly empty, as on
/// a new database, would otherwise read them whole however they grow.
pub(crate) const ORDER_TRANSACTION_SETTINGS: &str = "set local plan_cache_mode = auto; set local enable_seqscan = off";

static BEGIN_KEEPING_PLANS: LazyLock<String> = LazyLock::new(|| format!("begin; {ORDER_TRANSACTION_SETTINGS}"));

/// What renewing an order's hold reads of it.
#[derive(sqlx::FromRow)]
struct HoldRow {
    lines: String,
    discount_code: Option<String>,
    code_reserved: bool,
    hold_ends_at: Option<DateTime<Utc>>,
}

impl Db {
    /// Stores the enrollment, counts its code use and holds its seats in
    /// one transaction: all of them, or none and why. The request is spent
    /// from its client's `allowances` (decision 031) in the same
    /// transaction, before the seat turn, so an order is one commit and the
    /// seats' rows wait for none of the client's work (decision 046); a
    /// refused order spends them on its own. A browser and a client address
    /// may each hold seats for as many unpaid orders at once as `caps` says,
    /// no more.
    pub async fn create_enrollment(
        &self,
        new: &NewEnrollment,
        allowances: &[Allowance],
        caps: LiveOrderCaps,
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
        let created = on_pool!(self, pool => {
            let sqlite_writes = write_turn.is_some();
            let mut tx = if sqlite_writes { pool.begin().await? } else { pool.begin_with(BEGIN_KEEPING_PLANS.as_str()).await? };
            // The address's row and the browser's, locked in one statement in
            // one order for every transaction, then both counted in one more.
            sqlx::query(
                "insert into hold_client (client_key) select client_key from (select $1 as client_key union select $2) as clients \
                 where true order by client_key on conflict (client_key) do update set client_key = excluded.client_key"
            ).bind(&new.client_key).bind(&new.owner_token_hash).execute(&mut *tx).await?;
            let (by_address, by_browser): (i64, i64) = sqlx::query_as(LIVE_ORDERS_OF_CLIENT).bind(&new.client_key).bind(&new.owner_token_hash).bind(now).fetch_one(&mut *tx).await?;
            if by_browser >= caps.per_browser || by_address >= caps.per_address {
                tx.rollback().await?;
                return Ok(Err(BookingRefused::TooManyHolds));
            }
            // Before the seat turn, so the seats' rows are locked only for the
            // hold and the commit; the client's rows are this client's alone.
            if !tx.spend_allowances(allowances, now).await? {
                tx.rollback().await?;
                return Ok(Err(BookingRefused::TooManyRequests));
            }
            tx.insert_enrollment(new, &reference, until, hold_ends_at, now).await?;
            tx.add_consents(Some(new.id.as_str()), None, &new.consents, now).await?;
            // SQLite's turn is its write lock, held to the commit. PostgreSQL
            // locks the seats' rows and the seats-version row and holds the
            // seats in one round trip (decision 047), and the seat turn ends
            // there: the next order then waits for those rows in PostgreSQL,
            // alone, and starts the moment this one commits.
            let turn = match write_turn {
                Some(turn) => turn,
                None => self.seat_turn().await,
            };
            let hold = NewOrderHold { enrollment_id: &new.id, sessions: &sessions, until, now };
            if let Some(full) = tx.hold_new_order_seats(&hold).await? {
                tx.rollback().await?;
                return Ok(Err(full));
            }
            if let Some(code) = &new.discount_code && !tx.reserve_code(code).await? {
                tx.rollback().await?;
                return Ok(Err(BookingRefused::CodeUsedUp { code: code.clone() }));
            }
            if !sqlite_writes {
                drop(turn);
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Ok(()))
        })
        .context("Failed to create the enrollment")?;
        if created.is_err() {
            // A refused order is a request all the same: what had room is spent.
            self.spend_allowances(allowances, now).await?;
        }
        Ok(created)
    }

    /// Replaces a pending enrollment's courses, figures, contact, holds and
    /// code (`PUT /api/enroll/`), renewing its hold within its life. `None`
    /// when there is no pending enrollment `id`.
    pub async fn replace_enrollment(&self, new: &NewEnrollment, now: DateTime<Utc>) -> anyhow::Result<Option<Result<(), BookingRefused>>> {
        let lines = serde_json::to_string(&new.courses)?;
        let metadata = serde_json::to_string(&new.metadata)?;
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
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
            // A changed order is agreed to again, in place of what it had.
            sqlx::query("delete from order_consent where enrollment_id = $1").bind(&new.id).execute(&mut *tx).await?;
            tx.add_consents(Some(new.id.as_str()), None, &new.consents, now).await?;
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(Ok(())))
        })
        .context("Failed to update the enrollment")
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
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
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
}
