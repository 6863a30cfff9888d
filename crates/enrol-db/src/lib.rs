//! The database: SQLite by default, PostgreSQL in production, one API.
//!
//! Queries are written once in the SQL both engines accept (`$1` placeholders,
//! `on conflict … do update`) and run against whichever pool is configured;
//! [`on_pool!`] expands a body once per backend so each gets native types.
//! The steps a transaction is made of are trait methods over a connection,
//! written once for both engines by `for_both_engines!`.
//!
//! The code is grouped by what the data is (decision 023), one folder an
//! aggregate, each adding its methods to [`Db`]: `orders`, `money`,
//! `seats`, `codes`, `people`, `content` and `records`.

mod codes;
mod college;
pub mod content;
mod counting;
mod grow;
mod instalments;
mod ledger;
mod money;
mod orders;
mod people;
mod place;
mod query_plans;
mod records;
mod seats;
mod waiting;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

pub use codes::discount::DiscountCode;
pub use codes::setup::{CodeRecord, CodeSaved};
pub use college::College;
pub use content::catalogue::{Catalogue, CatalogueVersion, CourseOrder, SectionRow, SiteRecord, section_url};
pub use content::course_files::{CourseFileRecord, CourseFileRemoved, CourseFileUse};
pub use content::documents::{ContentDetail, ContentRefused, ContentRevision, ContentSource, ContentSummary};
pub use content::editorial::{Article, PageRecord, article_url};
pub use content::markdown::to_html as markdown_to_html;
pub use content::materials::{CourseMaterial, CourseMaterials, MaterialAdded, MaterialDate};
pub use content::media::{MEDIA_LISTED, MediaRecord};
pub use content::upsells::UpsellRecord;
pub use grow::GrownHistory;
pub use instalments::{AgreedPlan, PartRecord, PlanRecord};
pub use ledger::BalanceLink;
pub use ledger::payments::{PendingRefund, RefundRecorded};
pub use ledger::receipts::ReceiptAccess;
pub use ledger::sandbox::{SandboxCard, SandboxCheckout, SandboxIntent, SandboxLine, SandboxSetup};
pub use money::balances::{BalanceFulfilment, BalancePaid, OfflinePayment};
pub use money::figures::{BalancesOwed, ExportPlace, OnlineSales, OrderExportRow, PaymentExportRow, RefundExportRow, Takings};
pub use money::plan_charges::{ClaimedPart, PartCharged};
pub use money::plans::PlanListed;
pub use money::reminders::{BalanceDueChange, ReminderDue};
pub use orders::actor::Actor;
pub use orders::cancellations::{BookingRefund, Cancellation};
pub use orders::checkout::LiveOrderCaps;
pub use orders::consents::AgreedConsent;
pub use orders::date_changes::DateChange;
pub use orders::enrollments::{EnrollmentRecord, NewEnrollment};
pub use orders::fulfilment::{EnrollmentFulfilment, IntentOutcome};
pub use orders::idempotency::{IdempotencyClaim, StoredResponse};
pub use orders::online_orders::{CheckoutCompletion, Fulfilment, NewOnlineOrder, OnlineOrderRecord};
pub use orders::online_refunds::OnlineRefund;
pub use orders::online_search::{OnlineOrderDetail, OnlineOrderListing, OnlineOrderPage, OnlineOrderSearch};
pub use orders::search::{
    ORDERS_LISTED, OrderDetail, OrderHold, OrderListing, OrderMail, OrderPage, OrderPayment, OrderRefund, OrderSearch,
};
pub use people::accounts::{MailedLink, SessionRecord, SignUp};
pub use people::allowance::Allowance;
pub use people::audit::{AuditEntry, AuditFilter, AuditRow};
pub use people::course_start::{StartLink, StartingCourse};
pub use people::enquiries::OutboxMail;
pub use people::inbox::{EnquiryChange, EnquiryNote, EnquiryReplied, EnquiryReply, INBOX_LIMIT, InboxEnquiry};
pub use people::sign_in::{STAFF_IDLE_MINUTES, STAFF_SESSION_HOURS};
pub use people::staff::{AddedStaff, StaffCredentials, StaffListing, StaffMember, StaffSetup};
pub use place::{ListPlace, OrderPlace, PlaceTime, SessionPlace, page_of};
pub use query_plans::{KeptStatement, QueryPlan};
pub use records::access_changes::{AccessChanged, RegistrationChange};
pub use records::account_area::{
    EmailChange, FILES_PER_REQUEST, IntakeBooking, IntakeMove, NewUpload, StoredUpload, UploadRecorded, UploadRoom,
};
pub use records::completion::CourseCompletion;
pub use records::demo::{DEMO_CERTIFICATE, DEMO_STUDENT_EMAIL};
pub use records::feedback::{FeedbackDay, FeedbackGiven, FeedbackInvite, FeedbackLink, FeedbackPublished, GivenFeedback};
pub use records::learners::{LearnerRecord, Registrations};
pub use records::learning::{AttemptRecorded, CourseRegistration, QuizAttempts};
pub use records::readiness_jobs::{RemovalDue, TaskReminderDue};
pub use records::review::{BookingReadiness, Reader, Review, ReviewAnswer, ReviewDocument, ReviewForm};
pub use records::rosters::{AttendanceMark, CertificateHolder, CertificateIssue, RosterStudent, RosterStudents};
pub use records::scorm::{CmiRecord, PackageFile, PackageLaunch, PackageRecord};
pub use records::student::IssuedCertificate;
pub use records::theory::TheoryReminder;
pub use seats::sessions::{AdminSession, CancelledBooking, SessionChange, SessionFilter, SessionInput};
pub use waiting::lists::{Claim, Confirmation, Confirmed, Joined, NewWaiter, Offer, WaitingListLink};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// Fails unless the last PostgreSQL migration that creates `function` runs
/// `statement` in it, whitespace aside. PostgreSQL runs some of the
/// server's statements inside a function, where their plans are kept
/// (decisions 049 and 050), so a change to such a statement needs a
/// migration that writes its function again.
#[cfg(test)]
fn assert_postgresql_function_runs(function: &str, statement: &str) {
    let words = |sql: &str| sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let written = [format!("create function {function}("), format!("create or replace function {function}(")];
    let migration = POSTGRES_MIGRATIONS
        .iter()
        .rfind(|migration| written.iter().any(|written| migration.sql.as_str().contains(written)))
        .unwrap_or_else(|| panic!("no migration writes {function}"));
    assert!(
        words(migration.sql.as_str()).contains(&words(statement)),
        "migration {} writes a {function} that is not the server's statement: a change to it needs a migration \
         that writes the function again with\n{statement}",
        migration.version,
    );
}

/// A public id (orders, payments): time-ordered like a UUIDv7, so indexes
/// stay compact, but with 74 random bits after the millisecond, so one id
/// says nothing about the next (`Uuid::now_v7` spends most of those bits
/// on a counter).
pub fn public_id() -> String {
    let random = uuid::Uuid::new_v4().into_bytes();
    let millis = u64::try_from(chrono::Utc::now().timestamp_millis()).unwrap_or_default();
    let mut tail = [0u8; 10];
    tail.copy_from_slice(&random[..10]);
    uuid::Builder::from_unix_timestamp_millis(millis, &tail).into_uuid().to_string()
}

/// Implements a trait of transaction steps for both engines' connections
/// from one text: the one place where what the engines differ in is
/// written for those steps. Each aggregate declares its steps as a trait
/// (`PeopleSteps`, `SeatSteps`, …) and writes their bodies once, here
/// stamped as `impl … for sqlx::SqliteConnection` and `impl … for
/// sqlx::PgConnection`, so each engine runs its statements with its own
/// types. A body runs its statements on `&mut *self`; a caller holding
/// either engine's transaction (or pooled connection) calls a step as a
/// method, `tx.queue_mail(&mail, now).await?`, with the trait in scope.
/// The macro writes the two impls and nothing else: no statement, no
/// control flow.
macro_rules! for_both_engines {
    (impl $steps:ident { $($body:tt)* }) => {
        impl $steps for sqlx::SqliteConnection {
            $($body)*
        }

        impl $steps for sqlx::PgConnection {
            $($body)*
        }
    };
}
pub(crate) use for_both_engines;

#[derive(Clone, Debug)]
pub enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs `$body` with `$pool` bound to the concrete pool of either backend.
#[macro_export]
macro_rules! on_pool {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db.pool() {
            $crate::Pool::Sqlite($pool) => $body,
            $crate::Pool::Postgres($pool) => $body,
        }
    };
}

#[derive(Clone, Debug)]
pub struct Db {
    pool: Pool,
    /// Whose turn it is to write (SQLite, [`Db::write_turn`]) or to change
    /// seats (either engine, [`Db::seat_turn`]).
    turn: Arc<tokio::sync::Mutex<()>>,
}

/// The most of a SQLite database each connection reads through the shared
/// memory mapping: a decade of a busy college, 2 GB, and room to grow.
const MMAP_BYTES: &str = "4294967296";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The statements that read, and set to `$1`, the last order reference
    /// number taken (migration 0046): SQLite's counter row, PostgreSQL's
    /// sequence.
    pub(crate) fn reference_counter(self) -> (&'static str, &'static str) {
        match self {
            Backend::Sqlite => (
                "select last_used from order_reference_number where id = 1",
                "update order_reference_number set last_used = $1 where id = 1",
            ),
            Backend::Postgres => ("select last_value from order_reference_seq", "select setval('order_reference_seq', $1)"),
        }
    }
}

/// What connecting does about the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Migrations {
    /// Applies what is missing (the database's owner connects).
    Apply,
    /// Only checks that nothing is missing: the role connecting may read and
    /// write rows but not change tables or triggers, which its owner does
    /// with `enrol migrate`.
    Check,
}

impl Db {
    /// Connects to `sqlite://path` (the file and its folder are created when
    /// missing) or `postgres://…`, and applies the migrations.
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        Self::connect_with(url, Migrations::Apply).await
    }

    /// Connects, then applies the migrations or, for a role that may only
    /// read and write rows, checks that its owner has applied them all.
    pub async fn connect_with(url: &str, migrations: Migrations) -> anyhow::Result<Self> {
        let pool = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // Every statement planned for its own values and the tables' sizes
            // now. By default a connection keeps a generic plan from its sixth
            // run on, chosen while the tables were small: on a new database
            // that plan counted a client's live orders through the balance
            // index (every pending order) and a session's own holds through
            // all its holds, so orders got slower as the tables grew. Planning
            // costs a fraction of a millisecond per statement. A new order's
            // transaction, whose statements read and write by key, keeps its
            // plans (decision 048).
            // No JIT compilation: it starts when a plan's cost looks high, as a
            // sum over thousands of bookings does at ten years of data, and
            // took 0.6 s to compile a dashboard query that runs in 0.25 s.
            let options = PgConnectOptions::from_str(url)
                .context("Failed to parse the PostgreSQL DATABASE_URL")?
                .options([("plan_cache_mode", "force_custom_plan"), ("jit", "off")]);
            // Eight connections, as on SQLite. The pool hands out the
            // connection idle longest, so a busy server goes round all of
            // them: sixteen PostgreSQL processes taking turns on two cores
            // made each order cost more than eight did (decision 046).
            let pool = PgPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(5))
                .connect_with(options)
                .await
                .context("Failed to connect to PostgreSQL")?;
            Pool::Postgres(pool)
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)
                .context("Failed to parse the SQLite DATABASE_URL")?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5))
                // Checkpoints run in the background ([`Db::checkpoint`]), not
                // in the commit of whichever order filled the log: that one
                // waited for the copy and its sync, and the queue behind it too.
                .pragma("wal_autocheckpoint", "0")
                // Each of the pool's connections reads the file through one
                // shared mapping, not its own 2 MB page cache refilled by a
                // read call a page: at a decade's 2 GB, eight connections
                // reading at once otherwise spent most of their time copying
                // the same pages in (issue 31).
                .pragma("mmap_size", MMAP_BYTES);
            if let Some(folder) = options.get_filename().parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(folder).with_context(|| format!("Failed to create the database folder {}", folder.display()))?;
            }
            let pool =
                SqlitePoolOptions::new().max_connections(8).connect_with(options).await.context("Failed to open the SQLite database")?;
            Pool::Sqlite(pool)
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite: or postgres://, got {url:?}");
        };
        let db = Db::on(pool);
        match migrations {
            Migrations::Apply => db.migrate().await?,
            Migrations::Check => db.check_migrated().await?,
        }
        Ok(db)
    }

    fn on(pool: Pool) -> Self {
        Db { pool, turn: Arc::new(tokio::sync::Mutex::new(())) }
    }

    /// The next order reference of `kind` (enrol_domain::reference), taken
    /// before the order's own transaction: on SQLite the counter's row is
    /// written in a statement of its own, so orders made at once wait on it
    /// only that long. A number taken by an order that is then refused is not used
    /// again; references need only differ.
    pub(crate) async fn next_reference(&self, kind: enrol_domain::reference::OrderKind) -> anyhow::Result<String> {
        // On SQLite this update is a write like any other and waits its
        // turn: outside the queue it found the database busy whenever an
        // order was committing, and slept in SQLite's busy handler (orders'
        // p99 went from 15 ms to 350–480 ms). Callers take it before their
        // own turn, never while holding it.
        // PostgreSQL takes it from a sequence, which locks nothing and
        // commits nothing (migration 0046).
        let _turn = self.write_turn().await;
        let number: i64 = match &self.pool {
            Pool::Sqlite(pool) => {
                sqlx::query_scalar("update order_reference_number set last_used = last_used + 1 where id = 1 returning last_used")
                    .fetch_one(pool)
                    .await
            }
            Pool::Postgres(pool) => sqlx::query_scalar("select nextval('order_reference_seq')").fetch_one(pool).await,
        }
        .context("Failed to number the order")?;
        Ok(enrol_domain::reference::reference(kind, number))
    }

    /// Waits for this process's turn to run a write transaction on SQLite.
    /// SQLite lets one transaction write at a time, and a writer that finds
    /// the database busy sleeps and polls, so under load waits grow long and
    /// unfair; queueing here keeps them short and in order. PostgreSQL locks
    /// rows instead and needs no turn for most writes (`None`).
    pub(crate) async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.pool {
            Pool::Sqlite(_) => Some(self.turn.lock().await),
            Pool::Postgres(_) => None,
        }
    }

    /// Waits for this process's turn to change seats, on either engine:
    /// SQLite's write turn, or on PostgreSQL the same queue for the
    /// transactions that hold, take or release seats. PostgreSQL serializes
    /// them anyway (each locks its sessions' rows and the one seats-version
    /// row), but wakes lock waiters in no fixed order, so under load some
    /// waited many turns; queued here, they go first come, first served.
    /// Taken before the transaction's first statement: no transaction waits
    /// in the queue holding a row lock (so the queue and the row locks
    /// cannot deadlock) or an old snapshot (which would keep PostgreSQL from
    /// pruning the versions of the sessions' rows that every order updates).
    /// On PostgreSQL the connection comes first, then the turn
    /// ([`Db::begin_seat_change`]), so no transaction in the turn waits for
    /// a connection held by one waiting for the turn.
    /// One exception, on PostgreSQL: a new order writes its own row, the
    /// `hold_client` rows of its browser and address and its allowance
    /// first and then waits here, so the queue is only as long as the seats'
    /// work. No transaction in the turn waits for those rows (only a new
    /// order touches `hold_client`, before its turn), and the wait is a few
    /// turns, not long enough to matter. It also leaves the turn once its
    /// seats are held and its code use reserved, before it commits: the next
    /// order waits for the sessions' rows and the seats-version row in
    /// PostgreSQL, the only one waiting, and starts the moment this one
    /// commits.
    pub(crate) async fn seat_turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.turn.lock().await
    }

    /// Begins a transaction on `pool` that changes seats, in its seat turn
    /// ([`Db::seat_turn`]). SQLite takes the turn first, as every write
    /// takes its write turn. PostgreSQL takes the connection first, as a new
    /// order does before it waits for the turn (it writes its own rows
    /// first): were the turn taken first, a transaction in the turn could
    /// wait for a connection while every connection of the pool was held by
    /// an order waiting for the turn, until the pool's acquire timed out.
    /// The `begin` takes no snapshot and locks nothing.
    pub(crate) async fn begin_seat_change<DB: sqlx::Database>(
        &self,
        pool: &sqlx::Pool<DB>,
    ) -> sqlx::Result<(tokio::sync::MutexGuard<'_, ()>, sqlx::Transaction<'static, DB>)> {
        match self.pool {
            Pool::Sqlite(_) => {
                let turn = self.seat_turn().await;
                Ok((turn, pool.begin().await?))
            }
            Pool::Postgres(_) => {
                let tx = pool.begin().await?;
                Ok((self.seat_turn().await, tx))
            }
        }
    }

    /// SQLite: copies what the write-ahead log holds into the database
    /// without blocking writers or readers (a passive checkpoint), so the
    /// log is reused instead of growing. The server runs it every second;
    /// PostgreSQL checkpoints by itself.
    pub async fn checkpoint(&self) -> anyhow::Result<()> {
        if let Pool::Sqlite(pool) = &self.pool {
            sqlx::query("pragma wal_checkpoint(passive)").execute(pool).await.context("Failed to checkpoint the SQLite log")?;
        }
        Ok(())
    }

    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    async fn migrate(&self) -> anyhow::Result<()> {
        match &self.pool {
            Pool::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await,
            Pool::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await,
        }
        .context("Failed to apply database migrations")
    }

    /// Fails, naming them, when migrations this build has are not applied.
    async fn check_migrated(&self) -> anyhow::Result<()> {
        let migrator = match self.pool {
            Pool::Sqlite(_) => &SQLITE_MIGRATIONS,
            Pool::Postgres(_) => &POSTGRES_MIGRATIONS,
        };
        let applied: Vec<i64> = on_pool!(self, pool => sqlx::query_scalar("select version from _sqlx_migrations where success")
            .fetch_all(pool).await)
        .context("Failed to read which migrations are applied: run `enrol migrate` as the database's owner first")?;
        let missing: Vec<String> = migrator
            .iter()
            .filter(|m| !m.migration_type.is_down_migration() && !applied.contains(&m.version))
            .map(|m| m.version.to_string())
            .collect();
        anyhow::ensure!(
            missing.is_empty(),
            "The database lacks migrations {}: run `enrol migrate` with the owner's DATABASE_URL first",
            missing.join(", ")
        );
        Ok(())
    }

    /// A round trip to the database, for `/healthz`.
    pub async fn ping(&self) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("select 1").execute(pool).await.map(drop)).context("Database did not answer")
    }

    pub async fn close(&self) {
        on_pool!(self, pool => pool.close().await)
    }
}
