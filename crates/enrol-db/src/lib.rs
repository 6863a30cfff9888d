//! The database: SQLite by default, PostgreSQL in production, one API.
//!
//! Queries are written once in the SQL both engines accept (`$1` placeholders,
//! `on conflict … do update`) and run against whichever pool is configured;
//! [`on_pool!`] expands a body once per backend so each gets native types.

mod accounts;
mod catalogue;
mod editorial;
mod enquiries;
mod enrolments;
mod online_orders;
mod sandbox;
mod search;
pub mod content;
mod markdown;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};

pub use accounts::{EmailTaken, SessionRecord};
pub use catalogue::{Catalogue, CourseOrder, SectionRow, SiteRecord, section_url};
pub use editorial::{Article, PageRecord, article_url};
pub use enquiries::{FormMail, OutboxMail};
pub use enrolments::{DiscountCode, EnrolmentFulfilment, EnrollmentRecord, IntentOutcome, NewEnrollment, SessionFull};
pub use online_orders::{CheckoutCompletion, Fulfilment, OnlineOrderRecord};
pub use sandbox::{SandboxCheckout, SandboxIntent, SandboxLine};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

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
    /// SQLite only: whose turn it is to write (see [`Db::write_turn`]).
    writer: Option<Arc<tokio::sync::Mutex<()>>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Db {
    /// Connects to `sqlite://path` (the file and its folder are created when
    /// missing) or `postgres://…`, and applies the migrations.
    pub async fn connect(url: &str) -> anyhow::Result<Self> {
        let pool = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(5))
                .connect(url)
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
                .busy_timeout(Duration::from_secs(5));
            if let Some(folder) = options.get_filename().parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(folder)
                    .with_context(|| format!("Failed to create the database folder {}", folder.display()))?;
            }
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .connect_with(options)
                .await
                .context("Failed to open the SQLite database")?;
            Pool::Sqlite(pool)
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite: or postgres://, got {url:?}");
        };
        let writer = matches!(pool, Pool::Sqlite(_)).then(|| Arc::new(tokio::sync::Mutex::new(())));
        let db = Db { pool, writer };
        db.migrate().await?;
        Ok(db)
    }

    /// Waits for this process's turn to run a write transaction. SQLite lets
    /// one transaction write at a time, and a writer that finds the database
    /// busy sleeps and polls, so under load waits grow long and unfair;
    /// queueing here keeps them short and in order. PostgreSQL locks rows
    /// instead and needs no turn (`None`).
    pub(crate) async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match &self.writer {
            Some(writer) => Some(writer.lock().await),
            None => None,
        }
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

    /// A round trip to the database, for `/healthz`.
    pub async fn ping(&self) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("select 1").execute(pool).await.map(drop))
            .context("Database did not answer")
    }

    pub async fn close(&self) {
        on_pool!(self, pool => pool.close().await)
    }
}
