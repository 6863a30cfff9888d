//! The scheduled work inside `enrol`: holds that ran out are released and
//! freed seats offered to the waiting lists, refunds still due are made,
//! reconciliation finds payments whose webhook never came, instalments are
//! charged and reminders sent. Each job is safe on any number of instances
//! (every step is conditional, or leased), and each reads only what is due
//! through an index, so a run takes the same time whatever the years of
//! history (issue 31). `enrol jobs run` runs each once and says how long.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::AppState;
use crate::http::waiting_list::offer_freed_seats;
use crate::reconcile::reconcile;
use crate::refunds::make_due_refunds;

/// One piece of the scheduled work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// Payments whose webhook never came, fulfilled.
    Reconcile,
    /// Refunds decided but not yet made at the provider.
    Refunds,
    /// Anonymous clients' counters nobody has used for a while.
    ForgetClients,
    /// SQLite: the bookings of the last second written to the order
    /// search's table (migration 0049).
    IndexSearch,
    /// SQLite's write-ahead log folded back into the database.
    Checkpoint,
    /// Seat holds that ran out.
    ReleaseHolds,
    /// Freed seats offered to the waiting lists.
    OfferSeats,
    /// Spent write allowances.
    ForgetAllowances,
    /// Instalments charged, balance, theory and readiness reminders sent,
    /// medical answers and files removed: one instance at a time.
    Reminders,
}

/// Each job, in the order a start runs them: a restart's missed payments
/// and refunds first, the reminders' run (with its readiness work) last.
pub const JOBS: [Job; 9] = [
    Job::Reconcile,
    Job::Refunds,
    Job::ForgetClients,
    Job::IndexSearch,
    Job::Checkpoint,
    Job::ReleaseHolds,
    Job::OfferSeats,
    Job::ForgetAllowances,
    Job::Reminders,
];

impl Job {
    pub fn name(self) -> &'static str {
        match self {
            Job::Reconcile => "reconciliation",
            Job::Refunds => "refunds",
            Job::ForgetClients => "quiet clients forgotten",
            Job::IndexSearch => "orders indexed for search",
            Job::Checkpoint => "checkpoint",
            Job::ReleaseHolds => "holds released",
            Job::OfferSeats => "waiting lists offered seats",
            Job::ForgetAllowances => "spent allowances forgotten",
            Job::Reminders => "instalments and reminders",
        }
    }

    /// Runs the job once as of `now`; answers how many things it did
    /// (`None`: another instance holds the reminders' lease).
    pub async fn run(self, state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Option<usize>> {
        let count = |n: u64| Some(usize::try_from(n).unwrap_or(usize::MAX));
        Ok(match self {
            Job::Reconcile => Some(reconcile(state, now).await?.fulfilled),
            Job::Refunds => Some(make_due_refunds(state).await?),
            Job::ForgetClients => count(state.db.forget_quiet_clients(now).await?),
            Job::IndexSearch => count(state.db.index_order_search().await?),
            Job::Checkpoint => {
                state.db.checkpoint().await?;
                Some(0)
            }
            Job::ReleaseHolds => Some(state.db.expire_holds(now).await?),
            Job::OfferSeats => Some(offer_freed_seats(state).await),
            Job::ForgetAllowances => count(state.db.forget_full_allowances(now).await?),
            Job::Reminders => crate::reminders::run_if_leased(state, now).await?,
        })
    }

    /// Runs the job, logging what went wrong instead of stopping the rest.
    async fn run_logged(self, state: &AppState) {
        match self.run(state, Utc::now()).await {
            Ok(Some(done)) if done > 0 => tracing::info!(job = self.name(), done, "Scheduled job done"),
            Ok(_) => {}
            Err(error) => tracing::error!(job = self.name(), error = %format!("{error:#}"), "Scheduled job failed"),
        }
    }
}

/// How often each group of jobs runs.
const RECONCILE_EVERY: Duration = Duration::from_secs(300);
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);
const HOLDS_EVERY: Duration = Duration::from_secs(30);

/// Runs the scheduled work while the server runs.
pub async fn run_jobs(state: Arc<AppState>) {
    let mut reconciliation = tokio::time::interval(RECONCILE_EVERY);
    let mut checkpoint = tokio::time::interval(CHECKPOINT_EVERY);
    let mut holds = tokio::time::interval(HOLDS_EVERY);
    let mut reminders = tokio::time::interval(state.config.reminders_every);
    loop {
        // In the order of `JOBS` when several are due, as at start.
        let due: &[Job] = tokio::select! {
            biased;
            _ = reconciliation.tick() => &[Job::Reconcile, Job::Refunds, Job::ForgetClients],
            _ = checkpoint.tick() => &[Job::IndexSearch, Job::Checkpoint],
            // Seats freed by holds and offers that ran out reach the waiting lists first.
            _ = holds.tick() => &[Job::ReleaseHolds, Job::OfferSeats, Job::ForgetAllowances],
            _ = reminders.tick() => &[Job::Reminders],
        };
        for job in due {
            job.run_logged(&state).await;
        }
    }
}

/// How long one run of a job took, and what it did.
#[derive(Debug)]
pub struct JobRun {
    pub job: Job,
    pub took: Duration,
    pub done: Option<usize>,
}

/// Runs every job once, in order, and answers how long each took: what
/// `enrol jobs run` prints. The reminders' lease is given up at the end,
/// whether or not a job failed.
pub async fn run_each_once(state: &AppState) -> anyhow::Result<Vec<JobRun>> {
    let mut runs = Vec::with_capacity(JOBS.len());
    let mut ran = Ok(());
    for job in JOBS {
        let started = Instant::now();
        match job.run(state, Utc::now()).await {
            Ok(done) => runs.push(JobRun { job, took: started.elapsed(), done }),
            Err(error) => {
                ran = Err(error.context(format!("The job {} failed", job.name())));
                break;
            }
        }
    }
    crate::reminders::release_lease(state, Utc::now()).await?;
    ran.map(|()| runs)
}
