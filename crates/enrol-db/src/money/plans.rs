//! Instalment plans (decision 036): the college's settings, a plan agreed
//! at checkout and started by its paid booking fee, the plans a student
//! and staff read, and what staff change (each audited). The job's side,
//! parts claimed and charged once, is `money::plan_charges`.

use std::collections::HashMap;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde_json::json;

use enrol_domain::instalments::{PlanChange, PlanChangeRefused, PlanSettings, PlanStatus, check_plan_change};
use enrol_domain::mail::Mail;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::records::{StudentPart, StudentPlan};

use crate::instalments::{AgreedPlan, PlanRecord, PlanSteps};
use crate::orders::OrderSteps;
use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, EnrollmentRecord, on_pool};

/// A plan with its booking, as the back office lists it.
#[derive(Debug, Clone)]
pub struct PlanListed {
    pub plan: PlanRecord,
    pub reference: String,
    pub student: String,
    pub email: String,
}

const SETTINGS_UPDATE: &str = "insert into plan_settings (id, max_instalments, retry_days, updated_at) values (1, $1, $2, $3) \
     on conflict (id) do update set max_instalments = excluded.max_instalments, retry_days = excluded.retry_days, \
     updated_at = excluded.updated_at";

impl Db {
    /// What the college allows; the defaults until staff change them.
    pub async fn plan_settings(&self) -> anyhow::Result<PlanSettings> {
        let row: Option<(i32, String)> =
            on_pool!(self, pool => sqlx::query_as("select max_instalments, retry_days from plan_settings where id = 1")
                .fetch_optional(pool).await)
            .context("Failed to read the plan settings")?;
        Ok(match row {
            Some((max, retry_days)) => PlanSettings {
                max_instalments: u32::try_from(max).unwrap_or(2),
                retry_days: serde_json::from_str(&retry_days).context("Stored retry days are not a JSON list")?,
            },
            None => PlanSettings::default(),
        })
    }

    /// Keeps `settings` (checked by the caller), as `staff_id` decided.
    pub async fn save_plan_settings(&self, settings: &PlanSettings, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        let before = self.plan_settings().await?;
        let days = serde_json::to_string(&settings.retry_days)?;
        let entry = AuditEntry::new(staff_id, "plans.settings", "plan_settings", "1").before(&before).after(settings);
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(SETTINGS_UPDATE).bind(i32::try_from(settings.max_instalments).unwrap_or(i32::MAX)).bind(&days).bind(now).execute(&mut *tx).await?;
            tx.audit(&entry, now).await?;
            tx.commit().await
        })
        .context("Failed to save the plan settings")
    }

    /// Keeps `plan` as what pending order `enrollment_id` agreed to, in
    /// place of any plan agreed before (the buyer changed their mind), or
    /// forgets that one when `plan` is `None`. False when the order is no
    /// longer pending.
    pub async fn agree_plan(&self, enrollment_id: &str, plan: Option<&AgreedPlan>, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let pending = tx.lock_booking(enrollment_id).await?.is_some_and(|r| r.status == EnrollmentStatus::Pending);
            if !pending {
                tx.rollback().await?;
                return Ok(false);
            }
            tx.forget_waiting_plan(enrollment_id).await?;
            if let Some(plan) = plan {
                tx.insert_plan(enrollment_id, plan, now).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .context("Failed to keep the payment plan agreed")
    }

    /// Starts the plan booking `enrollment_id` agreed to, now that its
    /// booking fee is paid with `payment_method` (saved as `card_label`),
    /// and queues `mail` (the plan, from its parts); once, however often
    /// the fee's event arrives. The plan started, if this call started it.
    pub async fn start_plan(
        &self,
        enrollment_id: &str,
        payment_method: &str,
        card_label: &str,
        mail: impl FnOnce(&EnrollmentRecord, &PlanRecord) -> Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<PlanRecord>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let record = tx.lock_booking(enrollment_id).await?;
            let plan = tx.live_plan(enrollment_id).await?;
            let (Some(record), Some(plan)) = (record, plan) else {
                tx.rollback().await?;
                return Ok(None);
            };
            if plan.status != PlanStatus::AwaitingFee || record.status != EnrollmentStatus::Deposit {
                tx.rollback().await?;
                return Ok(None);
            }
            let started = tx.put_card(plan, PlanStatus::Active, payment_method, card_label, now).await?;
            if !record.email.is_empty() {
                tx.queue_mail(&mail(&record, &started), now).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(started))
        })
        .context("Failed to start the payment plan")
    }

    /// Booking `enrollment_id`'s plan that is not cancelled.
    pub async fn booking_plan(&self, enrollment_id: &str) -> anyhow::Result<Option<PlanRecord>> {
        on_pool!(self, pool => {
            let mut conn = pool.acquire().await?;
            conn.live_plan(enrollment_id).await
        })
        .context("Failed to read the booking's payment plan")
    }

    /// The running and finished plans of the bookings of account `user_id`.
    pub async fn plans_of(&self, user_id: &str) -> anyhow::Result<Vec<StudentPlan>> {
        let ids: Vec<String> = on_pool!(self, pool => sqlx::query_scalar(
            "select p.id from payment_plan p join enrollment e on e.id = p.enrollment_id \
             where e.user_id = $1 and p.status in ('active', 'paused', 'completed') order by e.created_at desc, p.id"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to list the account's payment plans")?;
        let plans = on_pool!(self, pool => {
            let mut conn = pool.acquire().await?;
            conn.plans_with_ids(&ids).await
        })
        .context("Failed to read the account's payment plans")?;
        Ok(plans.into_iter().map(student_plan).collect())
    }

    /// Booking `enrollment_id`'s plan as its student reads it, while it runs or is paused.
    pub async fn student_plan(&self, enrollment_id: &str) -> anyhow::Result<Option<StudentPlan>> {
        let plan = self.booking_plan(enrollment_id).await?;
        Ok(plan.filter(|p| matches!(p.status, PlanStatus::Active | PlanStatus::Paused)).map(student_plan))
    }

    /// Keeps `plan` as what confirmed booking `enrollment_id` agreed to from
    /// its balance page, waiting for the card to be saved, in place of one
    /// agreed there before. False when the booking has a running plan or
    /// is not confirmed.
    pub async fn offer_plan(&self, enrollment_id: &str, plan: &AgreedPlan, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let confirmed = tx.lock_booking(enrollment_id).await?.is_some_and(|r| r.status == EnrollmentStatus::Deposit);
            let running = tx.live_plan(enrollment_id).await?.is_some_and(|p| p.status != PlanStatus::AwaitingFee);
            if !confirmed || running {
                tx.rollback().await?;
                return Ok(false);
            }
            tx.forget_waiting_plan(enrollment_id).await?;
            tx.insert_plan(enrollment_id, plan, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .context("Failed to keep the payment plan agreed")
    }

    /// Pays booking `enrollment_id`'s plan from `payment_method` (saved as
    /// `card_label`) from now on: a plan waiting for its card starts (and
    /// `mail` tells its parts), a running one changes card, and a part the
    /// old card was refused is tried again at the next run; the card it
    /// already pays from changes nothing (the browser's confirmation and the
    /// provider's event both bring it). The plan, or `None` when the booking
    /// has none.
    pub async fn use_card(
        &self,
        enrollment_id: &str,
        payment_method: &str,
        card_label: &str,
        mail: impl FnOnce(&EnrollmentRecord, &PlanRecord) -> Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<StudentPlan>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let record = tx.lock_booking(enrollment_id).await?;
            let plan = tx.live_plan(enrollment_id).await?;
            let (Some(record), Some(plan)) = (record, plan) else {
                tx.rollback().await?;
                return Ok(None);
            };
            let starts = plan.status == PlanStatus::AwaitingFee;
            if !(starts || matches!(plan.status, PlanStatus::Active | PlanStatus::Paused)) || record.status != EnrollmentStatus::Deposit {
                tx.rollback().await?;
                return Ok(None);
            }
            if !starts && plan.payment_method.as_deref() == Some(payment_method) {
                tx.rollback().await?;
                return Ok(Some(student_plan(plan)));
            }
            let status = if starts { PlanStatus::Active } else { plan.status };
            let changed = tx.put_card(plan, status, payment_method, card_label, now).await?;
            sqlx::query("update plan_instalment set status = 'retrying', next_attempt_at = $2 \
                 where plan_id = $1 and status in ('retrying', 'failed')")
                .bind(&changed.id).bind(now).execute(&mut *tx).await?;
            if starts && !record.email.is_empty() {
                tx.queue_mail(&mail(&record, &changed), now).await?;
            }
            let after = tx.plan(&changed.id).await?.map(student_plan);
            tx.commit().await?;
            Ok::<_, sqlx::Error>(after)
        })
        .context("Failed to save the plan's card")
    }

    /// The plans staff follow, those needing attention first (a part
    /// refused), then by their next charge; at most `limit`.
    pub async fn plans(&self, limit: i64) -> anyhow::Result<Vec<PlanListed>> {
        let rows: Vec<(String, String, String, String, String)> = on_pool!(self, pool => sqlx::query_as(
            "select p.id, e.reference, e.given_name || ' ' || e.family_name, e.email, \
             coalesce((select min(case when i.status in ('retrying', 'failed') then '0' else '1' end || i.due_on) \
               from plan_instalment i where i.plan_id = p.id and i.status not in ('paid', 'cancelled')), '2') as next \
             from payment_plan p join enrollment e on e.id = p.enrollment_id \
             where p.status <> 'awaiting_fee' order by next, p.created_at desc limit $1"
        ).bind(limit).fetch_all(pool).await)
        .context("Failed to list the payment plans")?;
        let ids: Vec<String> = rows.iter().map(|row| row.0.clone()).collect();
        let plans = on_pool!(self, pool => {
            let mut conn = pool.acquire().await?;
            conn.plans_with_ids(&ids).await
        })
        .context("Failed to read the payment plans")?;
        let mut plans: HashMap<String, PlanRecord> = plans.into_iter().map(|plan| (plan.id.clone(), plan)).collect();
        Ok(rows
            .into_iter()
            .filter_map(|(id, reference, student, email, _)| plans.remove(&id).map(|plan| PlanListed { plan, reference, student, email }))
            .collect())
    }

    /// Makes `change` to plan `plan_id` as `staff_id` decided, audited.
    pub async fn change_plan(
        &self,
        plan_id: &str,
        change: &PlanChange,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<Result<PlanRecord, PlanChangeRefused>>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let Some(plan) = tx.plan(plan_id).await? else {
                tx.rollback().await?;
                return Ok(None);
            };
            let record = tx.lock_booking(&plan.enrollment_id).await?;
            if let Err(refused) = check_change(&plan, record.as_ref(), change, now) {
                tx.rollback().await?;
                return Ok(Some(Err(refused)));
            }
            let (action, after) = match change {
                PlanChange::Pause | PlanChange::Resume => {
                    let status = if *change == PlanChange::Pause { PlanStatus::Paused } else { PlanStatus::Active };
                    sqlx::query("update payment_plan set status = $2, updated_at = $3 where id = $1")
                        .bind(plan_id).bind(status.as_str()).bind(now).execute(&mut *tx).await?;
                    (if status == PlanStatus::Paused { "plan.pause" } else { "plan.resume" }, json!({ "status": status.as_str() }))
                }
                PlanChange::Cancel => {
                    tx.end_plan(&plan.enrollment_id, now).await?;
                    ("plan.cancel", json!({ "status": PlanStatus::Cancelled.as_str() }))
                }
                PlanChange::MovePart { number, due_on } => {
                    sqlx::query("update plan_instalment set due_on = $3, status = case when status = 'failed' then 'scheduled' else status end, \
                         next_attempt_at = null where plan_id = $1 and number = $2")
                        .bind(plan_id).bind(i32::try_from(*number).unwrap_or(i32::MAX)).bind(*due_on).execute(&mut *tx).await?;
                    ("plan.move", json!({ "instalment": number, "dueOn": due_on }))
                }
            };
            let entry = AuditEntry::new(staff_id, action, "order", &plan.enrollment_id)
                .before(json!({ "plan": plan.id, "status": plan.status.as_str(),
                    "dueOn": plan.parts.iter().map(|p| p.instalment.due_on).collect::<Vec<_>>() }))
                .after(after);
            tx.audit(&entry, now).await?;
            let changed = tx.plan(plan_id).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(changed.map(Ok))
        })
        .context("Failed to change the payment plan")
    }
}

/// A plan as its student reads it.
fn student_plan(plan: PlanRecord) -> StudentPlan {
    StudentPlan {
        parts: plan
            .parts
            .iter()
            .map(|p| StudentPart {
                number: p.instalment.number,
                due_on: p.instalment.due_on.to_string(),
                amount: p.instalment.amount.pence(),
                status: p.status.as_str().to_owned(),
            })
            .collect(),
        enrollment_id: plan.enrollment_id,
        status: plan.status.as_str().to_owned(),
        card: plan.card_label.unwrap_or_default(),
    }
}

/// Whether `change` may be made to `plan` of booking `record` at `now`.
fn check_change(
    plan: &PlanRecord,
    record: Option<&EnrollmentRecord>,
    change: &PlanChange,
    now: DateTime<Utc>,
) -> Result<(), PlanChangeRefused> {
    let today = enrol_domain::london::today(now);
    let (part, neighbours) = match change {
        PlanChange::MovePart { number, .. } => {
            let day_of = |n: u32| plan.parts.iter().find(|p| p.instalment.number == n).map(|p| p.instalment.due_on);
            let part = plan.parts.iter().find(|p| p.instalment.number == *number).map(|p| p.status);
            (Some(part), (number.checked_sub(1).and_then(day_of), day_of(number + 1)))
        }
        _ => (None, (None, None)),
    };
    let last_day = record.and_then(|r| r.balance_due_on(today)).unwrap_or(today);
    check_plan_change(plan.status, change, part, today, last_day, neighbours)
}
