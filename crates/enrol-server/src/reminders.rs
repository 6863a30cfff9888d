//! The balance reminders (decision 015): a week before the balance is due,
//! on the day and once overdue, each mail sent once; and the reminder to
//! finish an in-person course's online theory a week before training
//! (decision 025), and of what a booked student has still to do before
//! training, a week and two days before it is due (decision 033), with
//! the removal of medical answers and students' files after training.
//! One instance at a time runs the job (a lease in the
//! database); even two at once send each reminder once, because its
//! record, its payment link and its mail are written in one transaction
//! that a second cannot repeat. After downtime the job sends the one
//! reminder still true, not every one it missed.

use std::sync::LazyLock;

use chrono::{DateTime, Duration, Utc};

use enrol_domain::learning::reminder::TheoryDue;
use enrol_domain::london;
use enrol_domain::readiness::mail::{Student, still_to_do};

use crate::AppState;
use crate::accounts::new_balance_link;

/// How long an instance keeps the job once it took it; it renews the lease
/// on every run, so another instance takes over only when it stops.
const LEASE: Duration = Duration::minutes(15);
const JOB: &str = "balance-reminders";

/// This process, as a lease holder.
static INSTANCE: LazyLock<String> = LazyLock::new(|| uuid::Uuid::new_v4().to_string());

/// Sends the balance reminders due `now`, each once; answers how many.
pub async fn send_balance_reminders(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<usize> {
    let today = london::today(now);
    let college = state.db.college().await?.name;
    let mut sent = 0;
    for reminder in state.db.balance_reminders_due(today).await? {
        let link = new_balance_link(state, now);
        let mail = reminder.mail(today, &link.url, &college);
        if state.db.send_balance_reminder(&reminder, &link, &mail, now).await? {
            tracing::info!(order = %reminder.enrollment_id, stage = reminder.stage.as_str(), "Balance reminder sent");
            sent += 1;
        }
    }
    Ok(sent)
}

/// Sends the reminders to finish an in-person course's online theory due
/// `now` (decision 025): to each student booked on training that starts
/// within the week who has not completed it, once; answers how many.
pub async fn send_theory_reminders(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<usize> {
    let here = london::to_london(now);
    let college = state.db.college().await?.name;
    let mut sent = 0;
    for reminder in state.db.theory_reminders_due(now, here + Duration::days(7), here).await? {
        let player_url = format!("{}/learn/{}/", state.config.public_url, reminder.course_id);
        let due = TheoryDue {
            email: &reminder.email,
            given_name: &reminder.given_name,
            course_title: &reminder.course_title,
            training_starts: reminder.training_starts,
            player_url: &player_url,
            college: &college,
        };
        if state.db.send_theory_reminder(&reminder, &due.mail(), now).await? {
            tracing::info!(order = %reminder.enrollment_id, course = %reminder.course_id, "Theory reminder sent");
            sent += 1;
        }
    }
    Ok(sent)
}

/// Sends the reminders of what booked students still have to do before
/// training that are due `now`, each stage once; answers how many.
pub async fn send_task_reminders(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<usize> {
    let college = state.db.college().await?.name;
    let mut sent = 0;
    for due in state.db.task_reminders_due(london::today(now)).await? {
        let to = Student { email: &due.email, given_name: &due.given_name, public_url: &state.config.public_url, college: &college };
        if state.db.send_task_reminder(&due, |to_do| still_to_do(to, &due.course_title, due.due_on, to_do), now).await? {
            tracing::info!(order = %due.enrollment_id, course = %due.course_id, stage = due.stage.as_str(), "Readiness reminder sent");
            sent += 1;
        }
    }
    Ok(sent)
}

/// Removes the medical answers and students' files kept the configured
/// days after training: the files from the store first, then their rows,
/// with a record of the removal; answers how many bookings.
pub async fn remove_special_data(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<usize> {
    let mut removed = 0;
    for due in state.db.removals_due(london::today(now), state.config.medical_keep_days).await? {
        for key in &due.storage_keys {
            state.files.delete(key).await?;
        }
        if state.db.remove_special_data(&due, now).await? {
            tracing::info!(order = %due.enrollment_id, files = due.storage_keys.len(), "Medical answers and files removed");
            removed += 1;
        }
    }
    Ok(removed)
}

/// Runs the reminders when this instance holds the job's lease.
pub async fn run_if_leased(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Option<usize>> {
    if !state.db.take_job_lease(JOB, &INSTANCE, now + LEASE, now).await? {
        return Ok(None);
    }
    let charged = crate::plans::charge_due_parts(state, now).await?;
    let reminded = charged + send_balance_reminders(state, now).await? + send_theory_reminders(state, now).await?;
    let readiness = send_task_reminders(state, now).await? + remove_special_data(state, now).await?;
    Ok(Some(reminded + readiness))
}

/// Gives up the job's lease when this instance has it: a run from the
/// command line leaves the job to the servers at once.
pub async fn release_lease(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<()> {
    state.db.release_job_lease(JOB, &INSTANCE, now).await
}
