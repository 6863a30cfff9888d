//! The steps of instalment plans inside a caller's transaction, on either
//! engine ([`crate::for_both_engines!`]): a booking's live plan read,
//! its parts covered by what has been paid, and the plan ended with its
//! booking (decision 036).

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::instalments::{Instalment, PartStatus, PlanStatus, covered};
use enrol_domain::money::Money;

use crate::for_both_engines;

/// A plan as agreed, before its card is saved: at checkout with the
/// booking fee that saves it, or on the balance page.
#[derive(Debug, Clone)]
pub struct AgreedPlan {
    /// The provider's customer the card is saved to.
    pub customer: String,
    pub agreed_on: NaiveDate,
    pub parts: Vec<Instalment>,
}

/// A booking's plan, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRecord {
    pub id: String,
    pub enrollment_id: String,
    pub status: PlanStatus,
    pub customer: String,
    pub payment_method: Option<String>,
    /// `Visa ending 4242`, once the card is saved.
    pub card_label: Option<String>,
    pub agreed_on: NaiveDate,
    pub parts: Vec<PartRecord>,
}

/// One part of a plan, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartRecord {
    pub id: String,
    pub instalment: Instalment,
    pub status: PartStatus,
    pub attempts: u32,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub paid_at: Option<DateTime<Utc>>,
}

impl PlanRecord {
    pub fn instalments(&self) -> Vec<Instalment> {
        self.parts.iter().map(|p| p.instalment).collect()
    }

    /// The next part to be charged, if any.
    pub fn next_part(&self) -> Option<&PartRecord> {
        self.parts.iter().find(|p| matches!(p.status, PartStatus::Scheduled | PartStatus::Charging | PartStatus::Retrying))
    }
}

type PlanRow = (String, String, String, String, Option<String>, Option<String>, NaiveDate);
type PartRow = (String, i32, NaiveDate, i64, String, i32, Option<DateTime<Utc>>, Option<String>, Option<DateTime<Utc>>);
/// A part with its plan's id first.
type PlanPartRow = (String, String, i32, NaiveDate, i64, String, i32, Option<DateTime<Utc>>, Option<String>, Option<DateTime<Utc>>);

const PLAN_COLUMNS: &str = "id, enrollment_id, status, customer, payment_method, card_label, agreed_on";

fn plan_of(row: PlanRow, parts: Vec<PartRow>) -> sqlx::Result<PlanRecord> {
    let (id, enrollment_id, status, customer, payment_method, card_label, agreed_on) = row;
    let status = PlanStatus::parse(&status).ok_or_else(|| sqlx::Error::Decode(format!("unknown plan status {status}").into()))?;
    let parts = parts
        .into_iter()
        .map(|(id, number, due_on, amount, status, attempts, next_attempt_at, last_error, paid_at)| {
            Ok(PartRecord {
                id,
                instalment: Instalment { number: u32::try_from(number).unwrap_or_default(), due_on, amount: Money::from_pence(amount) },
                status: PartStatus::parse(&status).ok_or_else(|| sqlx::Error::Decode(format!("unknown part status {status}").into()))?,
                attempts: u32::try_from(attempts).unwrap_or_default(),
                next_attempt_at,
                last_error,
                paid_at,
            })
        })
        .collect::<sqlx::Result<Vec<_>>>()?;
    Ok(PlanRecord { id, enrollment_id, status, customer, payment_method, card_label, agreed_on, parts })
}

pub(crate) trait PlanSteps {
    /// The plan `id`, with its parts in order.
    async fn plan(&mut self, id: &str) -> sqlx::Result<Option<PlanRecord>>;

    /// The plans `ids` that exist, in that order, each with its parts in
    /// order: two queries however many.
    async fn plans_with_ids(&mut self, ids: &[String]) -> sqlx::Result<Vec<PlanRecord>>;

    /// Booking `enrollment_id`'s plan that is not cancelled, if any.
    async fn live_plan(&mut self, enrollment_id: &str) -> sqlx::Result<Option<PlanRecord>>;

    /// Puts the saved card `payment_method` (`card_label`) on `plan`, its
    /// status now `status`: a waiting plan starts, a running one changes
    /// card. The plan as it now is.
    async fn put_card(
        &mut self,
        plan: PlanRecord,
        status: PlanStatus,
        payment_method: &str,
        card_label: &str,
        now: DateTime<Utc>,
    ) -> sqlx::Result<PlanRecord>;

    /// Forgets the plan booking `enrollment_id` agreed to whose card was
    /// never saved (the buyer changed their mind).
    async fn forget_waiting_plan(&mut self, enrollment_id: &str) -> sqlx::Result<()>;

    /// Keeps `plan` for booking `enrollment_id`, waiting for its card.
    async fn insert_plan(&mut self, enrollment_id: &str, plan: &AgreedPlan, now: DateTime<Utc>) -> sqlx::Result<()>;

    /// Marks the parts of booking `enrollment_id`'s running plan that
    /// `paid_to_balance` covers as paid, and the plan completed once all
    /// are: whatever paid them.
    async fn settle_plan(&mut self, enrollment_id: &str, paid_to_balance: Money, now: DateTime<Utc>) -> sqlx::Result<()>;

    /// Fits booking `enrollment_id`'s running plan to its new dates and
    /// price (a date change): parts due after `due_on` move onto it, and
    /// the last part still to pay takes the difference between `balance`
    /// and what the parts add up to, so they still add up to the balance.
    async fn fit_plan(&mut self, enrollment_id: &str, due_on: Option<NaiveDate>, balance: Money) -> sqlx::Result<()>;

    /// Ends booking `enrollment_id`'s plan (its booking was cancelled):
    /// no part still to pay is charged. Whether there was one.
    async fn end_plan(&mut self, enrollment_id: &str, now: DateTime<Utc>) -> sqlx::Result<bool>;
}

for_both_engines! {
    impl PlanSteps {
        async fn plan(&mut self, id: &str) -> sqlx::Result<Option<PlanRecord>> {
            Ok(self.plans_with_ids(&[id.to_owned()]).await?.pop())
        }

        async fn plans_with_ids(&mut self, ids: &[String]) -> sqlx::Result<Vec<PlanRecord>> {
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            let places = (1..=ids.len()).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ");
            let sql = format!("select {PLAN_COLUMNS} from payment_plan where id in ({places})");
            let mut rows = sqlx::query_as::<_, PlanRow>(sqlx::AssertSqlSafe(sql));
            for id in ids {
                rows = rows.bind(id);
            }
            let rows = rows.fetch_all(&mut *self).await?;
            let sql = format!(
                "select plan_id, id, number, due_on, amount, status, attempts, next_attempt_at, last_error, paid_at \
                 from plan_instalment where plan_id in ({places}) order by plan_id, number"
            );
            let mut parts = sqlx::query_as::<_, PlanPartRow>(sqlx::AssertSqlSafe(sql));
            for id in ids {
                parts = parts.bind(id);
            }
            let mut parts_of: HashMap<String, Vec<PartRow>> = HashMap::new();
            for (plan_id, id, number, due_on, amount, status, attempts, next_attempt_at, last_error, paid_at) in parts.fetch_all(&mut *self).await? {
                parts_of.entry(plan_id).or_default().push((id, number, due_on, amount, status, attempts, next_attempt_at, last_error, paid_at));
            }
            let mut rows: HashMap<String, PlanRow> = rows.into_iter().map(|row| (row.0.clone(), row)).collect();
            let mut plans = Vec::with_capacity(rows.len());
            for id in ids {
                if let Some(row) = rows.remove(id) {
                    plans.push(plan_of(row, parts_of.remove(id).unwrap_or_default())?);
                }
            }
            Ok(plans)
        }

        async fn live_plan(&mut self, enrollment_id: &str) -> sqlx::Result<Option<PlanRecord>> {
            let id: Option<String> = sqlx::query_scalar("select id from payment_plan where enrollment_id = $1 and status <> 'cancelled'")
                .bind(enrollment_id)
                .fetch_optional(&mut *self)
                .await?;
            match id {
                Some(id) => self.plan(&id).await,
                None => Ok(None),
            }
        }

        async fn put_card(&mut self, plan: PlanRecord, status: PlanStatus, payment_method: &str, card_label: &str, now: DateTime<Utc>) -> sqlx::Result<PlanRecord> {
            sqlx::query("update payment_plan set status = $2, payment_method = $3, card_label = $4, updated_at = $5 where id = $1")
                .bind(&plan.id).bind(status.as_str()).bind(payment_method).bind(card_label).bind(now).execute(&mut *self).await?;
            Ok(PlanRecord { status, payment_method: Some(payment_method.to_owned()), card_label: Some(card_label.to_owned()), ..plan })
        }

        async fn forget_waiting_plan(&mut self, enrollment_id: &str) -> sqlx::Result<()> {
            sqlx::query(
                "delete from plan_instalment where plan_id in (select id from payment_plan where enrollment_id = $1 and status = 'awaiting_fee')",
            )
            .bind(enrollment_id)
            .execute(&mut *self)
            .await?;
            sqlx::query("delete from payment_plan where enrollment_id = $1 and status = 'awaiting_fee'")
                .bind(enrollment_id)
                .execute(&mut *self)
                .await?;
            Ok(())
        }

        async fn insert_plan(&mut self, enrollment_id: &str, plan: &AgreedPlan, now: DateTime<Utc>) -> sqlx::Result<()> {
            let id = crate::public_id();
            sqlx::query(
                "insert into payment_plan (id, enrollment_id, status, customer, agreed_on, created_at, updated_at) \
                 values ($1, $2, 'awaiting_fee', $3, $4, $5, $5)",
            )
            .bind(&id)
            .bind(enrollment_id)
            .bind(&plan.customer)
            .bind(plan.agreed_on)
            .bind(now)
            .execute(&mut *self)
            .await?;
            for part in &plan.parts {
                sqlx::query("insert into plan_instalment (id, plan_id, number, due_on, amount) values ($1, $2, $3, $4, $5)")
                    .bind(crate::public_id())
                    .bind(&id)
                    .bind(i32::try_from(part.number).unwrap_or(i32::MAX))
                    .bind(part.due_on)
                    .bind(part.amount.pence())
                    .execute(&mut *self)
                    .await?;
            }
            Ok(())
        }

        async fn settle_plan(&mut self, enrollment_id: &str, paid_to_balance: Money, now: DateTime<Utc>) -> sqlx::Result<()> {
            let Some(plan) = self.live_plan(enrollment_id).await? else { return Ok(()) };
            if !matches!(plan.status, PlanStatus::Active | PlanStatus::Paused) {
                return Ok(());
            }
            let covered = covered(&plan.instalments(), paid_to_balance);
            for part in plan.parts.iter().filter(|p| covered.contains(&p.instalment.number)) {
                if !matches!(part.status, PartStatus::Paid | PartStatus::Cancelled) {
                    sqlx::query("update plan_instalment set status = 'paid', paid_at = $2, next_attempt_at = null where id = $1")
                        .bind(&part.id)
                        .bind(now)
                        .execute(&mut *self)
                        .await?;
                }
            }
            if covered.len() == plan.parts.len() {
                sqlx::query("update payment_plan set status = 'completed', updated_at = $2 where id = $1")
                    .bind(&plan.id)
                    .bind(now)
                    .execute(&mut *self)
                    .await?;
            }
            Ok(())
        }

        async fn fit_plan(&mut self, enrollment_id: &str, due_on: Option<NaiveDate>, balance: Money) -> sqlx::Result<()> {
            let Some(plan) = self.live_plan(enrollment_id).await? else { return Ok(()) };
            if !matches!(plan.status, PlanStatus::AwaitingFee | PlanStatus::Active | PlanStatus::Paused) {
                return Ok(());
            }
            let open = |p: &&PartRecord| matches!(p.status, PartStatus::Scheduled | PartStatus::Retrying | PartStatus::Failed);
            if let Some(due_on) = due_on {
                for part in plan.parts.iter().filter(open).filter(|p| p.instalment.due_on > due_on) {
                    sqlx::query("update plan_instalment set due_on = $2 where id = $1").bind(&part.id).bind(due_on).execute(&mut *self).await?;
                }
            }
            let planned: Money = plan.parts.iter().filter(|p| p.status != PartStatus::Cancelled).map(|p| p.instalment.amount).sum();
            let difference = balance.pence() - planned.pence();
            if let Some(last) = plan.parts.iter().rev().find(open).filter(|_| difference != 0) {
                let amount = (last.instalment.amount.pence() + difference).max(1);
                sqlx::query("update plan_instalment set amount = $2 where id = $1").bind(&last.id).bind(amount).execute(&mut *self).await?;
            }
            Ok(())
        }

        async fn end_plan(&mut self, enrollment_id: &str, now: DateTime<Utc>) -> sqlx::Result<bool> {
            let ended = sqlx::query(
                "update payment_plan set status = 'cancelled', updated_at = $2 \
                 where enrollment_id = $1 and status in ('awaiting_fee', 'active', 'paused')",
            )
            .bind(enrollment_id)
            .bind(now)
            .execute(&mut *self)
            .await?;
            sqlx::query(
                "update plan_instalment set status = 'cancelled', next_attempt_at = null \
                 where plan_id in (select id from payment_plan where enrollment_id = $1) and status in ('scheduled', 'retrying', 'failed')",
            )
            .bind(enrollment_id)
            .execute(&mut *self)
            .await?;
            Ok(ended.rows_affected() > 0)
        }
    }
}
