//! Counting seats: the one count of seats held, the free seats of a
//! session, and what is taken of a course's sessions (decision 009). The
//! steps that hold and take seats inside a transaction are
//! [`crate::seats::SeatSteps`].

use std::collections::HashMap;
use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::admission::SeatsTaken;

use crate::{Backend, Db, on_pool};

/// The seats of session `s` held by the live holds of orders other than
/// one: the one count of held seats, which taking, holding and showing
/// seats all use. `now` and `order` are the statement's placeholders for
/// the instant and that order's id (`"$2"`, `"$3"`), so the values a
/// statement binds are named where it is written. `session.holds` counts
/// every hold row (kept by triggers, migration 0008); the holds that have
/// run out but are not yet swept are taken off (read through the
/// session's holds by time), and so is the order's own live hold. Only
/// pending orders have holds: an order that is paid or fails has its holds
/// deleted in the same transaction. A seat offered to someone on the
/// waiting list is held for them (`session.offered`), and while anyone
/// waits (`session.waiting`) every seat counts as held, except for an order
/// already holding one there (a claimed offer): freed seats reach the list
/// before the public.
///
/// The order's own holds are read by the order alone, which one index
/// only serves, so even a plan PostgreSQL keeps from a holds table
/// analysed empty, where every index costs the same, reads them by key
/// (decision 051). The run-out holds may then be read through the index
/// by time: those not yet swept, at most half a minute's.
pub(crate) fn held_seats(now: &str, order: &str) -> String {
    let own = own_live_hold(now, order);
    format!(
        "(s.holds + s.offered - (select count(*) from seat_hold h where h.session_id = s.id and h.expires_at <= {now}) \
         - case when {own} then 1 else 0 end + case when s.waiting > 0 and not {own} then s.seats else 0 end)"
    )
}

/// Whether order `order` holds a seat of session `s` that has not run out
/// at `now`: the order's holds read by the first column of their key alone,
/// once a statement, and their end compared after. Read by the session as
/// well, a plan made while the table was nearly empty (PostgreSQL's
/// generic plan, kept by a new order's transaction, decision 049) found the
/// hold among the session's holds, one by one: a count that grew with every
/// order holding a seat of the session.
fn own_live_hold(now: &str, order: &str) -> String {
    format!("(s.id, true) in (select h.session_id, h.expires_at > {now} from seat_hold h where h.enrollment_id = {order})")
}

/// The free seats of active session `$1` as of `$2`, not counting the
/// holds of order `$3`.
pub(crate) static FREE_SEATS: LazyLock<String> = LazyLock::new(|| {
    format!("select s.seats - s.registrations - {} from session s where s.id = $1 and s.status = 'active'", held_seats("$2", "$3"))
});

/// What is taken of each active session of course `$1` from day `$4` on,
/// as of `$2`, not counting the holds of order `$3`: the course's dates
/// still offered, read through its event's index by date, not its years
/// of dates gone.
pub(crate) static SEATS_TAKEN: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select s.id, s.registrations, {} as held from session s join event ev on ev.id = s.event_id \
         where ev.course_id = $1 and s.date >= $4 and s.status = 'active'",
        held_seats("$2", "$3")
    )
});

/// [`SEATS_TAKEN`] on PostgreSQL, run by the function of migration 0052,
/// which keeps its generic plan (decision 050): the pool's connections
/// would plan it for its values on every order.
const SEATS_TAKEN_IN_ITS_FUNCTION: &str = "select id, registrations, held from seats_taken($1, $2, $3, $4)";

/// The sessions of `courses`, sorted so that every transaction locks them
/// in the same order (no deadlock between two orders).
pub(crate) fn held_sessions<'a>(courses: impl IntoIterator<Item = &'a enrol_domain::enrollment::BookedCourse>) -> Vec<String> {
    let mut ids: Vec<String> = courses.into_iter().filter_map(|c| c.session_id.clone()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

impl Db {
    /// What is taken of each active session of `course_id` from day `from`
    /// on as of `now`, by session id, not counting the holds of
    /// `except_order`: one query.
    pub async fn seats_taken(
        &self,
        course_id: &str,
        from: NaiveDate,
        except_order: Option<&str>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<HashMap<String, SeatsTaken>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            registrations: i64,
            held: i64,
        }
        let sql = match self.backend() {
            Backend::Sqlite => SEATS_TAKEN.as_str(),
            Backend::Postgres => SEATS_TAKEN_IN_ITS_FUNCTION,
        };
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(sql)
            .bind(course_id).bind(now).bind(except_order.unwrap_or_default()).bind(from).fetch_all(pool).await)
        .context("Failed to count the seats taken")?;
        Ok(rows.into_iter().map(|row| (row.id, SeatsTaken { registrations: row.registrations, held: row.held })).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::SEATS_TAKEN;

    /// PostgreSQL's `seats_taken` counts with the very statement SQLite
    /// runs: one count of held seats on every path (decision 009).
    #[test]
    fn postgresql_counts_the_seats_taken_with_the_servers_statement() {
        crate::assert_postgresql_function_runs("seats_taken", &SEATS_TAKEN);
    }
}
