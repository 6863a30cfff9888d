//! Seats and code uses inside a transaction: the statements that count
//! what they limit (decision 009). Each is a macro so that one text serves
//! both engines' transactions (see [`crate::on_pool!`]).

use std::collections::HashMap;

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::admission::SeatsTaken;

use crate::{Db, on_pool};

/// The seats of session `s` held as of `$2` by the live holds of orders
/// other than `$3`: the one count of held seats, which taking, holding and
/// showing seats all use. `session.holds` counts every hold row (kept by
/// triggers, migration 0008); the holds that have run out but are not yet
/// swept, and order `$3`'s own, are taken off by index, so the count does
/// not grow with the number of holds. Only pending orders have holds: an
/// order that is paid or fails has its holds deleted in the same transaction.
/// A seat offered to someone on the waiting list is held for them
/// (`session.offered`), and while anyone waits (`session.waiting`) every
/// seat counts as held, except for an order already holding one there (a
/// claimed offer): freed seats reach the list before the public.
macro_rules! held_seats {
    () => {
        "(s.holds + s.offered - (select count(*) from seat_hold h where h.session_id = s.id and h.expires_at <= $2) \
         - (select count(*) from seat_hold h where h.enrollment_id = $3 and h.session_id = s.id and h.expires_at > $2) \
         + case when s.waiting > 0 and not exists (select 1 from seat_hold h where h.enrollment_id = $3 and h.session_id = s.id \
         and h.expires_at > $2) then s.seats else 0 end)"
    };
}
pub(crate) use held_seats;

/// The free seats of active session `$1` as of `$2`, not counting the
/// holds of order `$3`.
pub(crate) const FREE_SEATS: &str =
    concat!("select s.seats - s.registrations - ", held_seats!(), " from session s where s.id = $1 and s.status = 'active'");

/// The sessions of `courses`, sorted so that every transaction locks them
/// in the same order (no deadlock between two orders).
pub(crate) fn held_sessions<'a>(courses: impl IntoIterator<Item = &'a enrol_domain::enrollment::BookedCourse>) -> Vec<String> {
    let mut ids: Vec<String> = courses.into_iter().filter_map(|c| c.session_id.clone()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

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
pub(crate) use lock_sessions;

/// Holds one seat of each of `$sessions` for `$enrollment_id` until
/// `$until`, or names the first session that is full. The order's own
/// holds are not counted against it; the sessions must be locked.
macro_rules! hold_seats {
    ($tx:expr, $enrollment_id:expr, $sessions:expr, $until:expr, $now:expr) => {{
        let mut full = None;
        for session_id in $sessions {
            // One statement: the hold is written only if a seat is free.
            let held = sqlx::query(concat!(
                "insert into seat_hold (session_id, enrollment_id, expires_at) select $1, $3, $4 \
                 where exists (select 1 from session s where s.id = $1 and s.status = 'active' and s.seats - s.registrations - ",
                $crate::seats::counting::held_seats!(),
                " > 0) on conflict (enrollment_id, session_id) do update set expires_at = excluded.expires_at"
            ))
            .bind(session_id)
            .bind($now)
            .bind($enrollment_id)
            .bind($until)
            .execute(&mut *$tx)
            .await?
            .rows_affected()
                == 1;
            if !held {
                full = Some(enrol_domain::booking::BookingRefused::SessionFull { session_id: session_id.to_string() });
                break;
            }
        }
        full
    }};
}
pub(crate) use hold_seats;

/// Registers paid order `$record` (an `EnrollmentRecord`) on each of its
/// locked `$sessions` for `$user_id`, releasing its holds: its own live
/// hold keeps a seat; after the hold ran out, only a seat nobody else
/// holds may be taken. True when every session had its seat.
macro_rules! take_seats {
    ($tx:expr, $record:expr, $sessions:expr, $user_id:expr, $now:expr) => {{
        let mut seated = true;
        for session_id in $sessions {
            let held: i64 =
                sqlx::query_scalar("select count(*) from seat_hold where enrollment_id = $1 and session_id = $2 and expires_at > $3")
                    .bind(&$record.id)
                    .bind(session_id)
                    .bind($now)
                    .fetch_one(&mut *$tx)
                    .await?;
            let free: Option<i64> = sqlx::query_scalar($crate::seats::counting::FREE_SEATS)
                .bind(session_id)
                .bind($now)
                .bind(&$record.id)
                .fetch_optional(&mut *$tx)
                .await?;
            sqlx::query("delete from seat_hold where enrollment_id = $1 and session_id = $2")
                .bind(&$record.id)
                .bind(session_id)
                .execute(&mut *$tx)
                .await?;
            let taken = (held > 0 || free.unwrap_or(0) > 0)
                && sqlx::query("update session set registrations = registrations + 1 where id = $1 and registrations < seats")
                    .bind(session_id)
                    .execute(&mut *$tx)
                    .await?
                    .rows_affected()
                    == 1;
            if !taken {
                seated = false;
                continue;
            }
            let event_id = $record.courses.iter().find(|c| c.session_id.as_ref() == Some(session_id)).map(|c| c.event_id.clone());
            sqlx::query(
                "insert into registration (id, event_id, enrollment_id, session_id, status, type, user_id, created_at) \
                 values ($1, $2, $3, $4, 'active', 'STUDENT', $5, $6) on conflict (enrollment_id, session_id) do nothing",
            )
            .bind($crate::public_id())
            .bind(event_id)
            .bind(&$record.id)
            .bind(session_id)
            .bind($user_id)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
        }
        seated
    }};
}
pub(crate) use take_seats;

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
pub(crate) use reserve_code;

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
pub(crate) use release_code;

/// Marks a change to seats held or taken, for pages that show seats left.
macro_rules! seats_changed {
    ($tx:expr) => {
        sqlx::query("update availability_version set version = version + 1 where id = 1").execute(&mut *$tx).await
    };
}
pub(crate) use seats_changed;

/// Rolls `$tx` back and answers `$answer`.
macro_rules! refuse {
    ($tx:expr, $answer:expr) => {{
        $tx.rollback().await?;
        return Ok($answer);
    }};
}
pub(crate) use refuse;

impl Db {
    /// What is taken of each active session of `course_id` as of `now`,
    /// by session id, not counting the holds of `except_order`: one query.
    pub async fn seats_taken(
        &self,
        course_id: &str,
        except_order: Option<&str>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<HashMap<String, SeatsTaken>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            registrations: i64,
            held: i64,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(concat!(
            "select s.id, s.registrations, ", held_seats!(), " as held from session s join event ev on ev.id = s.event_id \
             where ev.course_id = $1 and s.status = 'active'"
        )).bind(course_id).bind(now).bind(except_order.unwrap_or_default()).fetch_all(pool).await)
        .context("Failed to count the seats taken")?;
        Ok(rows.into_iter().map(|row| (row.id, SeatsTaken { registrations: row.registrations, held: row.held })).collect())
    }
}
