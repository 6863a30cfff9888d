//! The steps of seats inside a caller's transaction, on either engine
//! ([`crate::for_both_engines!`]): the statements that count what they
//! limit (decision 009). A transaction that changes seats takes
//! [`crate::Db::seat_turn`] first, locks its sessions and counts seats only
//! through [`held_seats`].

use std::sync::LazyLock;

use chrono::{DateTime, Utc};

use enrol_domain::booking::{BookingRefused, SessionTimes};
use enrol_domain::enrollment::BookedCourse;

use crate::counting::{FREE_SEATS, held_seats};
use crate::seats::times::Row;
use crate::{for_both_engines, public_id};

/// Holds a seat of session `$1` for order `$3` until `$4` as of `$2`, in one
/// statement: the hold is written only if a seat is free.
pub(crate) static HOLD_A_SEAT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "insert into seat_hold (session_id, enrollment_id, expires_at) select $1, $3, $4 \
         where exists (select 1 from session s where s.id = $1 and s.status = 'active' and s.seats - s.registrations - {} > 0) \
         on conflict (enrollment_id, session_id) do update set expires_at = excluded.expires_at",
        held_seats("$2", "$3")
    )
});

pub(crate) trait SeatSteps {
    /// Locks the row of session `session_id`: a no-op update locks the
    /// session row (PostgreSQL) or takes the write lock (SQLite), so seats
    /// are counted only after every other writer of them is done.
    async fn lock_session(&mut self, session_id: &str) -> sqlx::Result<()>;

    /// Locks the rows of `sessions`, sorted (see [`held_sessions`](crate::counting::held_sessions))
    /// so that every transaction locks them in the same order.
    async fn lock_sessions(&mut self, sessions: &[String]) -> sqlx::Result<()>;

    /// Holds one seat of each of `sessions` for `enrollment_id` until
    /// `until`, or names the first session that is full. The order's own
    /// holds are not counted against it; the sessions must be locked.
    async fn hold_seats(
        &mut self,
        enrollment_id: &str,
        sessions: &[String],
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> sqlx::Result<Option<BookingRefused>>;

    /// Registers paid order `enrollment_id` (booking `courses`) on each of
    /// its locked `sessions` for `user_id`, releasing its holds: its own
    /// live hold keeps a seat; after the hold ran out, only a seat nobody
    /// else holds may be taken. True when every session had its seat.
    async fn take_seats(
        &mut self,
        enrollment_id: &str,
        courses: &[BookedCourse],
        sessions: &[String],
        user_id: Option<&str>,
        now: DateTime<Utc>,
    ) -> sqlx::Result<bool>;

    /// Marks a change to seats held or taken, for pages that show seats left.
    async fn seats_changed(&mut self) -> sqlx::Result<()>;

    /// The times of `sessions` (session ids), in their order.
    async fn session_times(&mut self, sessions: &[String]) -> sqlx::Result<Vec<SessionTimes>>;
}

for_both_engines! {
    impl SeatSteps {
        async fn lock_session(&mut self, session_id: &str) -> sqlx::Result<()> {
            sqlx::query("update session set registrations = registrations where id = $1").bind(session_id).execute(&mut *self).await?;
            Ok(())
        }

        async fn lock_sessions(&mut self, sessions: &[String]) -> sqlx::Result<()> {
            for session_id in sessions {
                self.lock_session(session_id).await?;
            }
            Ok(())
        }

        async fn hold_seats(
            &mut self,
            enrollment_id: &str,
            sessions: &[String],
            until: DateTime<Utc>,
            now: DateTime<Utc>,
        ) -> sqlx::Result<Option<BookingRefused>> {
            for session_id in sessions {
                let held = sqlx::query(HOLD_A_SEAT.as_str())
                    .bind(session_id)
                    .bind(now)
                    .bind(enrollment_id)
                    .bind(until)
                    .execute(&mut *self)
                    .await?
                    .rows_affected()
                    == 1;
                if !held {
                    return Ok(Some(BookingRefused::SessionFull { session_id: session_id.to_string() }));
                }
            }
            Ok(None)
        }

        async fn take_seats(
            &mut self,
            enrollment_id: &str,
            courses: &[BookedCourse],
            sessions: &[String],
            user_id: Option<&str>,
            now: DateTime<Utc>,
        ) -> sqlx::Result<bool> {
            let mut seated = true;
            for session_id in sessions {
                let held: i64 =
                    sqlx::query_scalar("select count(*) from seat_hold where enrollment_id = $1 and session_id = $2 and expires_at > $3")
                        .bind(enrollment_id)
                        .bind(session_id)
                        .bind(now)
                        .fetch_one(&mut *self)
                        .await?;
                let free: Option<i64> = sqlx::query_scalar(FREE_SEATS.as_str())
                    .bind(session_id)
                    .bind(now)
                    .bind(enrollment_id)
                    .fetch_optional(&mut *self)
                    .await?;
                sqlx::query("delete from seat_hold where enrollment_id = $1 and session_id = $2")
                    .bind(enrollment_id)
                    .bind(session_id)
                    .execute(&mut *self)
                    .await?;
                let taken = (held > 0 || free.unwrap_or(0) > 0)
                    && sqlx::query("update session set registrations = registrations + 1 where id = $1 and registrations < seats")
                        .bind(session_id)
                        .execute(&mut *self)
                        .await?
                        .rows_affected()
                        == 1;
                if !taken {
                    seated = false;
                    continue;
                }
                let event_id = courses.iter().find(|c| c.session_id.as_ref() == Some(session_id)).map(|c| c.event_id.clone());
                sqlx::query(
                    "insert into registration (id, event_id, enrollment_id, session_id, status, type, user_id, created_at) \
                     values ($1, $2, $3, $4, 'active', 'STUDENT', $5, $6) on conflict (enrollment_id, session_id) do nothing",
                )
                .bind(public_id())
                .bind(event_id)
                .bind(enrollment_id)
                .bind(session_id)
                .bind(user_id)
                .bind(now)
                .execute(&mut *self)
                .await?;
            }
            Ok(seated)
        }

        async fn seats_changed(&mut self) -> sqlx::Result<()> {
            sqlx::query("update availability_version set version = version + 1 where id = 1").execute(&mut *self).await?;
            Ok(())
        }

        async fn session_times(&mut self, sessions: &[String]) -> sqlx::Result<Vec<SessionTimes>> {
            let mut times = Vec::new();
            for session_id in sessions {
                let row: Option<Row> = sqlx::query_as("select id, start_at, end_at, type, joining_link from session where id = $1")
                    .bind(session_id)
                    .fetch_optional(&mut *self)
                    .await?;
                times.extend(row.and_then(Row::into_times));
            }
            Ok(times)
        }
    }
}

/// The seats a new order asks for: one of each of its `sessions`, held
/// for order `enrollment_id` until `until`, as of `now`.
pub(crate) struct NewOrderHold<'a> {
    pub enrollment_id: &'a str,
    pub sessions: &'a [String],
    pub until: DateTime<Utc>,
    pub now: DateTime<Utc>,
}

/// A new order's seats, in its seat turn (decision 047): its sessions'
/// rows locked, a seat of each held, and the seats marked changed, as
/// [`SeatSteps::lock_sessions`], [`SeatSteps::hold_seats`] and
/// [`SeatSteps::seats_changed`] do one after another; the first session
/// that is full, or none. What the engines differ in is how many round
/// trips that takes while every other order for the sessions waits.
pub(crate) trait NewOrderSeats {
    async fn hold_new_order_seats(&mut self, hold: &NewOrderHold<'_>) -> sqlx::Result<Option<BookingRefused>>;
}

/// SQLite runs in-process, so the three steps cost no round trips.
impl NewOrderSeats for sqlx::SqliteConnection {
    async fn hold_new_order_seats(&mut self, hold: &NewOrderHold<'_>) -> sqlx::Result<Option<BookingRefused>> {
        self.lock_sessions(hold.sessions).await?;
        let full = self.hold_seats(hold.enrollment_id, hold.sessions, hold.until, hold.now).await?;
        if full.is_none() {
            self.seats_changed().await?;
        }
        Ok(full)
    }
}

/// PostgreSQL takes the three steps in one round trip, through the
/// function of migration 0051, whose `hold_a_seat` is [`HOLD_A_SEAT`]
/// written into it, so its plan is kept (decision 049): sent one by one,
/// the steps' answers and the next statements crossed between the server
/// and PostgreSQL's process while every other order for the session
/// waited, each crossing a wait for a core on a busy machine.
impl NewOrderSeats for sqlx::PgConnection {
    async fn hold_new_order_seats(&mut self, hold: &NewOrderHold<'_>) -> sqlx::Result<Option<BookingRefused>> {
        let full: Option<String> = sqlx::query_scalar("select hold_new_order_seats($1, $2, $3, $4)")
            .bind(hold.sessions)
            .bind(hold.now)
            .bind(hold.enrollment_id)
            .bind(hold.until)
            .fetch_one(&mut *self)
            .await?;
        Ok(full.map(|session_id| BookingRefused::SessionFull { session_id }))
    }
}

#[cfg(test)]
mod tests {
    use super::HOLD_A_SEAT;

    /// PostgreSQL's `hold_a_seat` holds a seat with the very statement the
    /// server sends: one count of held seats on every path (decision 009).
    #[test]
    fn postgresql_holds_a_new_orders_seat_with_the_servers_statement() {
        crate::assert_postgresql_function_runs("hold_a_seat", &HOLD_A_SEAT);
    }
}
