//! The reminders of a balance (decision 015), each sent once, and the
//! leases the scheduled jobs run under; and the day a balance is due,
//! which a staff member may move (decision 017), forgetting the reminders
//! the new day makes untrue so they go again on its schedule. When a
//! reminder is due is decided in `enrol_domain::balance`.

use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;

use enrol_domain::back_office::{DueDateRefused, check_balance_due_on, stages_not_reached};
use enrol_domain::balance::{BalanceNotice, BalanceReminder, outstanding, reminder_due};
use enrol_domain::enrollment::BookedCourse;
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::money::Money;

use crate::ledger::BalanceLink;
use crate::ledger::MoneySteps;
use crate::orders::OrderSteps;
use crate::orders::enrollments::NET_PAID;
use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool};

/// The bookings on a deposit whose balance is due by `$1` and whose
/// training starts after `$2`, without a plan that takes the balance: a
/// running plan does, unless a part of it was refused for good.
pub(crate) static BALANCES_DUE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select e.id, e.reference, e.given_name, e.email, e.lines, e.total, {} as paid, e.starts_on, e.balance_due_on, e.paid_at \
         from enrollment e where e.status = 'deposit' and e.balance_due_on <= $1 and e.starts_on > $2 and e.email <> '' \
         and not exists (select 1 from payment_plan p where p.enrollment_id = e.id and p.status = 'active' \
           and p.id not in (select i.plan_id from plan_instalment i where i.status = 'failed')) \
         order by e.balance_due_on, e.id",
        NET_PAID
    )
});

/// A booking with a reminder due today, as the job found it.
#[derive(Debug, Clone)]
pub struct ReminderDue {
    pub enrollment_id: String,
    pub reference: String,
    pub stage: BalanceReminder,
    pub given_name: String,
    pub email: String,
    pub courses: Vec<BookedCourse>,
    pub owed: Money,
    /// What had been paid when it was found: the reminder is sent only if
    /// nothing was paid since.
    pub paid: Money,
    pub due_on: NaiveDate,
}

impl ReminderDue {
    /// The mail of this reminder, paid through `pay_url`.
    pub fn mail(&self, today: NaiveDate, pay_url: &str, college: &str) -> Mail {
        self.notice(pay_url).reminder(self.stage, today, college)
    }

    fn notice<'a>(&'a self, pay_url: &'a str) -> BalanceNotice<'a> {
        BalanceNotice {
            reference: &self.reference,
            given_name: &self.given_name,
            email: &self.email,
            courses: &self.courses,
            owed: self.owed,
            due_on: self.due_on,
            pay_url,
        }
    }
}

/// What moving the day a balance is due did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BalanceDueChange {
    /// Moved; the reminders forgotten, to go again on the new schedule.
    Changed {
        forgotten: Vec<BalanceReminder>,
    },
    Refused(DueDateRefused),
    UnknownOrder,
}

impl Db {
    /// The bookings with a reminder of their balance due `today`: paid the
    /// booking fee, with an address, training not started, due within a week.
    pub async fn balance_reminders_due(&self, today: NaiveDate) -> anyhow::Result<Vec<ReminderDue>> {
        #[derive(sqlx::FromRow)]
        struct Candidate {
            id: String,
            reference: String,
            given_name: String,
            email: String,
            lines: String,
            total: i64,
            paid: i64,
            starts_on: NaiveDate,
            balance_due_on: NaiveDate,
            paid_at: Option<DateTime<Utc>>,
        }
        let horizon = today.checked_add_days(chrono::Days::new(enrol_domain::balance::UPCOMING_REMINDER_DAYS)).unwrap_or(today);
        let rows: Vec<Candidate> =
            on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(BALANCES_DUE.as_str())).bind(horizon).bind(today).fetch_all(pool).await)
                .context("Failed to read the balances due")?;
        let mut due = Vec::new();
        for row in rows {
            let paid_on = row.paid_at.map_or(today, london::today);
            let (total, paid) = (Money::from_pence(row.total), Money::from_pence(row.paid));
            let owed = outstanding(total, paid);
            let Some(stage) = reminder_due(today, row.balance_due_on, row.starts_on, paid_on).filter(|_| owed > Money::ZERO) else {
                continue;
            };
            due.push(ReminderDue {
                courses: serde_json::from_str(&row.lines).context("Stored enrollment lines are not valid JSON")?,
                enrollment_id: row.id,
                reference: row.reference,
                stage,
                given_name: row.given_name,
                email: row.email.trim().to_lowercase(),
                owed,
                paid,
                due_on: row.balance_due_on,
            });
        }
        Ok(due)
    }

    /// Sends `reminder` once: its record, its payment link and its mail in
    /// one transaction, only while the booking still owes what it owed when
    /// found. False when it was sent before (by this or another instance)
    /// or something was paid since.
    pub async fn send_balance_reminder(
        &self,
        reminder: &ReminderDue,
        link: &BalanceLink,
        mail: &Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let recorded = sqlx::query(sqlx::AssertSqlSafe(format!(
                "insert into balance_reminder (enrollment_id, stage, sent_at) select $1, $2, $3 \
                 where exists (select 1 from enrollment e where e.id = $1 and e.status = 'deposit' and {} = $4) \
                 on conflict (enrollment_id, stage) do nothing",
                NET_PAID
            )))
            .bind(&reminder.enrollment_id).bind(reminder.stage.as_str()).bind(now).bind(reminder.paid.pence())
            .execute(&mut *tx).await?.rows_affected() == 1;
            if recorded {
                tx.store_balance_link(&reminder.enrollment_id, link, now).await?;
                tx.queue_mail(mail, now).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(recorded)
        })
        .context("Failed to send the balance reminder")
    }

    /// Takes or renews the lease of job `name` for `holder` until `until`:
    /// true when this holder runs the job now. A lease that ran out passes
    /// to whoever asks next, so a stopped instance never stops the job.
    pub async fn take_job_lease(&self, name: &str, holder: &str, until: DateTime<Utc>, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query(
            "insert into job_lease (name, holder, expires_at) values ($1, $2, $3) on conflict (name) do update \
             set holder = excluded.holder, expires_at = excluded.expires_at where job_lease.expires_at <= $4 or job_lease.holder = excluded.holder"
        ).bind(name).bind(holder).bind(until).bind(now).execute(pool).await.map(|done| done.rows_affected() == 1))
        .context("Failed to take the job's lease")
    }

    /// Gives up job `name`'s lease if `holder` has it, as of `now`: another
    /// instance may take it at once instead of when it would have run out.
    pub async fn release_job_lease(&self, name: &str, holder: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query("update job_lease set expires_at = $3 where name = $1 and holder = $2 and expires_at > $3")
            .bind(name).bind(holder).bind(now).execute(pool).await.map(|_| ()))
        .context("Failed to give up the job's lease")?;
        Ok(())
    }

    /// Makes the balance of booking `id` due on `due_on` instead, as staff
    /// member `staff_id` decided, as of `now`: the reminders already sent
    /// for the stages the new day has not reached are forgotten, so each
    /// goes again when its day comes round.
    pub async fn change_balance_due(
        &self,
        id: &str,
        due_on: NaiveDate,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<BalanceDueChange> {
        let today = london::today(now);
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let Some(record) = tx.lock_booking(id).await? else {
                tx.rollback().await?;
                return Ok(BalanceDueChange::UnknownOrder);
            };
            if let Err(refused) = check_balance_due_on(record.status, record.owed(), today, record.starts_on, due_on) {
                tx.rollback().await?;
                return Ok(BalanceDueChange::Refused(refused));
            }
            sqlx::query("update enrollment set balance_due_on = $2 where id = $1").bind(id).bind(due_on).execute(&mut *tx).await?;
            let mut forgotten = Vec::new();
            for stage in stages_not_reached(today, due_on) {
                let sent = sqlx::query("delete from balance_reminder where enrollment_id = $1 and stage = $2")
                    .bind(id).bind(stage.as_str()).execute(&mut *tx).await?;
                if sent.rows_affected() > 0 {
                    forgotten.push(stage);
                }
            }
            let entry = AuditEntry::new(staff_id, "order.balance_due", "order", id)
                .before(json!({ "balanceDueOn": record.balance_due_on }))
                .after(json!({ "balanceDueOn": due_on, "remindersForgotten": forgotten.iter().map(|s| s.as_str()).collect::<Vec<_>>() }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(BalanceDueChange::Changed { forgotten })
        })
        .context("Failed to change the day the balance is due")
    }
}
