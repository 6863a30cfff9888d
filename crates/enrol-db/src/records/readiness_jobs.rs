//! The leased job's readiness work (decision 033): the reminders of what a
//! booked student still has to do, a week and two days before it is due,
//! each once per booking, course and stage; and the removal of medical
//! answers and students' files a set number of days after training (or
//! after a cancellation), recorded once per booking.

use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::readiness::{Task, TaskReminder, reminder_due, removal_due};

use crate::people::PeopleSteps;
use crate::records::readiness::{DUE, DUE_JOINS, Due};
use crate::records::review::ReadinessSteps;
use crate::{Db, on_pool};

/// The paid bookings' tasks still open, a row per booking and course, read
/// through the indexes of what is open (migration 0042).
pub(crate) static TASKS_OPEN: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select f.enrollment_id, f.course_id, c.title as course_title, e.email, e.given_name, {DUE} \
         from (select enrollment_id, course_id from user_form where closed_at is null and not client_complete and course_id is not null \
               union select enrollment_id, course_id from upload_request where closed_at is null and status in ('requested', 'rejected') \
               and course_id is not null) f {DUE_JOINS} \
         where e.status in ('deposit', 'completed') order by f.enrollment_id, f.course_id"
    )
});

/// The bookings with medical answers or files still kept, not yet removed.
pub(crate) const REMOVALS_CANDIDATES: &str = "select e.id as enrollment_id, e.cancelled_at, \
     (select max(s.date) from registration r join session s on s.id = r.session_id where r.enrollment_id = e.id) as last_day \
     from enrollment e where e.id in (select f.enrollment_id from user_form f where f.id in (select user_form_id from medical_answer) \
          union select q.enrollment_id from upload_request q where q.id in (select upload_request_id from upload)) \
     and not exists (select 1 from readiness_removal x where x.enrollment_id = e.id)";

/// A booking whose tasks for a course are due a reminder.
#[derive(Debug, Clone)]
pub struct TaskReminderDue {
    pub enrollment_id: String,
    pub course_id: String,
    pub course_title: String,
    pub email: String,
    pub given_name: String,
    pub due_on: NaiveDate,
    pub stage: TaskReminder,
}

/// A booking whose medical answers and files are due for removal, and the
/// files to delete from the store first.
#[derive(Debug, Clone)]
pub struct RemovalDue {
    pub enrollment_id: String,
    pub storage_keys: Vec<String>,
}

impl Db {
    /// The paid bookings with something still to do for a course whose
    /// reminder stage `today` is reached.
    pub async fn task_reminders_due(&self, today: NaiveDate) -> anyhow::Result<Vec<TaskReminderDue>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            enrollment_id: String,
            course_id: String,
            course_title: String,
            email: String,
            given_name: String,
            #[sqlx(flatten)]
            due: Due,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(TASKS_OPEN.as_str())).fetch_all(pool).await)
            .context("Failed to read the readiness reminders due")?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                let (due_on, booked_on) = row.due.dates()?;
                let stage = reminder_due(today, due_on, booked_on)?;
                Some(TaskReminderDue {
                    enrollment_id: row.enrollment_id,
                    course_id: row.course_id,
                    course_title: row.course_title,
                    email: row.email,
                    given_name: row.given_name,
                    due_on,
                    stage,
                })
            })
            .collect())
    }

    /// Notes `due`'s stage sent and queues `mail_for(what is left)`, in one
    /// transaction, once: a second call (this instance or another) finds
    /// the stage noted and sends nothing; nothing is sent when nothing is
    /// left by then.
    pub async fn send_task_reminder(
        &self,
        due: &TaskReminderDue,
        mail_for: impl FnOnce(&[Task]) -> Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let noted = sqlx::query(
                "insert into task_reminder (enrollment_id, course_id, stage, sent_at) values ($1, $2, $3, $4) on conflict do nothing",
            ).bind(&due.enrollment_id).bind(&due.course_id).bind(due.stage.as_str()).bind(now).execute(&mut *tx).await?
                .rows_affected() == 1;
            let to_do = if noted { tx.standing(&due.enrollment_id, &due.course_id, None, true).await?.to_do() } else { Vec::new() };
            if to_do.is_empty() {
                tx.rollback().await?;
                return Ok(false);
            }
            tx.queue_mail(&mail_for(&to_do), now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .context("Failed to send a readiness reminder")
    }

    /// The bookings whose medical answers and files are due for removal
    /// `today`, `keep_days` after their last day of training (or after they
    /// were cancelled), not yet removed. Found from the answers and files
    /// still kept, which removal keeps to the bookings of the last months.
    pub async fn removals_due(&self, today: NaiveDate, keep_days: u32) -> anyhow::Result<Vec<RemovalDue>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            enrollment_id: String,
            last_day: Option<NaiveDate>,
            cancelled_at: Option<DateTime<Utc>>,
        }
        let rows: Vec<Row> =
            on_pool!(self, pool => sqlx::query_as(REMOVALS_CANDIDATES).fetch_all(pool).await).context("Failed to read the removals due")?;
        let mut due = Vec::new();
        for row in rows {
            let ended = row.cancelled_at.map(london::today).or(row.last_day);
            if ended.is_none_or(|ended| removal_due(ended, keep_days) > today) {
                continue;
            }
            let storage_keys = on_pool!(self, pool => sqlx::query_scalar(
                "select u.storage_key from upload u join upload_request q on q.id = u.upload_request_id where q.enrollment_id = $1"
            ).bind(&row.enrollment_id).fetch_all(pool).await)
            .context("Failed to read a booking's files")?;
            due.push(RemovalDue { enrollment_id: row.enrollment_id, storage_keys });
        }
        Ok(due)
    }

    /// Removes `due`'s medical answers and file records (their files are
    /// deleted from the store first) and records the removal, in one
    /// transaction, once.
    pub async fn remove_special_data(&self, due: &RemovalDue, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let answers = sqlx::query(
                "delete from medical_answer where user_form_id in (select id from user_form where enrollment_id = $1)",
            ).bind(&due.enrollment_id).execute(&mut *tx).await?.rows_affected();
            let files = sqlx::query(
                "delete from upload where upload_request_id in (select id from upload_request where enrollment_id = $1)",
            ).bind(&due.enrollment_id).execute(&mut *tx).await?.rows_affected();
            let recorded = sqlx::query(
                "insert into readiness_removal (enrollment_id, answers, files, removed_at) values ($1, $2, $3, $4) on conflict do nothing",
            ).bind(&due.enrollment_id).bind(i64::try_from(answers).unwrap_or(i64::MAX)).bind(i64::try_from(files).unwrap_or(i64::MAX))
                .bind(now).execute(&mut *tx).await?.rows_affected() == 1;
            if !recorded {
                tx.rollback().await?;
                return Ok(false);
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .context("Failed to remove a booking's special category data")
    }
}
