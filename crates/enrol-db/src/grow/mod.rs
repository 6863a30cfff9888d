//! A decade of a busy college, grown into a database for benchmarks
//! (decision 037, `enrol demo grow`): students, dated sessions, bookings
//! with their payments, refunds, receipts and credit notes, reminders,
//! waiting lists, enquiries, readiness forms, mails, audit rows and
//! e-learning, from the demo catalogue and one seed.
//!
//! The rows are drawn in memory (`history`, `money`), then written in
//! multi-row inserts (`rows`) inside one transaction, so a failure
//! leaves nothing behind and a second grow is refused before it writes.
//! The per-order code paths would take hours; the invariants they keep
//! are kept here by construction: a session's `registrations` is its kept
//! bookings and never above its seats, a booking's status agrees with its
//! payments less its refunds, and receipts and credit notes continue their
//! prefix's numbers without gaps.

mod catalogue;
mod history;
mod money;
mod records;
pub(crate) mod rows;
#[cfg(test)]
mod tests;
mod write;

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::grow::{GrowPlan, Prng};
use enrol_domain::issued_document::DocumentKind;
use enrol_domain::receipt::Issuer;

use crate::grow::catalogue::CatalogueSteps;
use crate::grow::write::Grown;
use crate::seats::SeatSteps;
use crate::{Backend, Db, Pool, on_pool};

/// What a grow wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrownHistory {
    /// Rows written per table, in the order written.
    pub tables: Vec<(&'static str, u64)>,
    /// The database's size afterwards, in bytes.
    pub bytes: Option<i64>,
}

impl Db {
    /// Grows `plan`'s history from `seed` as of `now`, the students
    /// signing in with the password of `password_hash`, receipts issued by
    /// `issuer`. Refused, writing nothing, on a database grown before or
    /// with no in-person course to book.
    pub async fn grow(
        &self,
        plan: GrowPlan,
        seed: u64,
        issuer: &Issuer,
        password_hash: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<GrownHistory> {
        let turn = self.seat_turn().await;
        let tables = on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            anyhow::ensure!(
                !tx.grown_before().await?,
                "This database already has a grown history (enrol demo grow ran here before); nothing was written. Grow into a new database."
            );
            let (reference_read, reference_set) = self.backend().reference_counter();
            let catalogue = tx.catalogue(reference_read).await?;
            anyhow::ensure!(!catalogue.courses.is_empty(), "The catalogue has no in-person course to book: load the content first");
            let history = history::grow_history(plan, seed, &catalogue, now);
            let mut rng = Prng::new(seed ^ 0x6c65_6467_6572);
            let ledger = money::ledger(&mut rng, &history, &catalogue, now);
            let grown = Grown {
                backend: self.backend(),
                history: &history,
                ledger: &ledger,
                catalogue: &catalogue,
                issuer,
                password_hash,
                staff_id: history::id_at(&mut rng, now),
                enquiries: plan.enquiries(),
                now,
            };
            let mut counts = Vec::new();
            let conn = &mut *tx;
            write::people(conn, &grown, &mut rng, &mut counts).await?;
            write::sessions(conn, &grown, &mut counts).await?;
            write::bookings(conn, &grown, &mut rng, &mut counts).await?;
            write::online_orders(conn, &grown, &mut rng, &mut counts).await?;
            write::money(conn, &grown, &mut rng, &mut counts).await?;
            records::booking_records(conn, &grown, &mut rng, &mut counts).await?;
            records::waiting_lists(conn, &grown, &mut rng, &mut counts).await?;
            records::enquiries(conn, &grown, &mut rng, &mut counts).await?;
            records::readiness(conn, &grown, &mut rng, &mut counts).await?;
            records::learning(conn, &grown, &mut counts).await?;
            // The numbers the site's own orders and documents take next.
            sqlx::query(reference_set).bind(history.last_reference).execute(&mut *tx).await?;
            for (kind, last) in [(DocumentKind::Receipt, ledger.last_receipt), (DocumentKind::CreditNote, ledger.last_credit_note)] {
                sqlx::query(
                    "insert into document_sequence (prefix, last_number) values ($1, $2) \
                     on conflict (prefix) do update set last_number = excluded.last_number"
                ).bind(kind.prefix()).bind(last).execute(&mut *tx).await?;
            }
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(counts)
        })?;
        // The bookings' text in the order search's table (migration 0049),
        // in batches, each taking the turn.
        drop(turn);
        self.index_order_search().await?;
        // The planner's statistics of the tables just filled: without them
        // PostgreSQL plans for empty tables. PostgreSQL also vacuums them,
        // as a database that has lived ten years has been many times over:
        // a bulk import leaves no page marked all-visible, so an index that
        // holds all a query reads (the dashboard's balances owed) would
        // still read every row it found.
        let settle = match self.backend() {
            Backend::Postgres => "vacuum (analyze)",
            Backend::Sqlite => "analyze",
        };
        on_pool!(self, pool => sqlx::query(settle).execute(pool).await.map(drop)).context("Failed to analyse the grown tables")?;
        // One line a table, however many batches wrote it.
        let mut summed: Vec<(&'static str, u64)> = Vec::new();
        for (table, rows) in tables {
            match summed.iter_mut().find(|(t, _)| *t == table) {
                Some((_, total)) => *total += rows,
                None => summed.push((table, rows)),
            }
        }
        Ok(GrownHistory { tables: summed, bytes: self.size_in_bytes().await.ok() })
    }

    /// How big the database is, as its engine counts it.
    async fn size_in_bytes(&self) -> anyhow::Result<i64> {
        let bytes: i64 = match self.pool() {
            Pool::Sqlite(pool) => {
                sqlx::query_scalar("select page_count * page_size from pragma_page_count(), pragma_page_size()").fetch_one(pool).await?
            }
            Pool::Postgres(pool) => sqlx::query_scalar("select pg_database_size(current_database())").fetch_one(pool).await?,
        };
        Ok(bytes)
    }
}
