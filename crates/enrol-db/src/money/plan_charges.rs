//! The job's side of instalment plans (decision 036): the parts due now,
//! each claimed by one runner with one conditional update before it is
//! charged, and what the bank said recorded against the claim that asked,
//! so two runners, a retried run or a late answer never charge a part
//! twice nor undo a payment.

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};

use enrol_domain::instalments::{Instalment, PartStatus, PlanSettings, PlanStatus, still_asked};
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::money::Money;

use crate::instalments::PlanSteps;
use crate::ledger::{BalanceLink, MoneySteps};
use crate::orders::OrderSteps;
use crate::people::PeopleSteps;
use crate::{Db, EnrollmentRecord, on_pool};

/// A claim the job took and never finished (the process stopped between
/// the charge and its record) is sent again, with the same attempt and so
/// the same idempotency key, after this long.
const STALE_CLAIM: Duration = Duration::minutes(10);

/// A part claimed to be charged now.
#[derive(Debug, Clone)]
pub struct ClaimedPart {
    pub part_id: String,
    /// The attempt this claim is: the charge's idempotency key names it.
    pub attempt: u32,
    /// What is still asked of the part, never more than the balance owed.
    pub amount: Money,
    pub instalment: Instalment,
    pub customer: String,
    pub payment_method: String,
    pub card_label: String,
    pub booking: EnrollmentRecord,
}

/// What the bank said to a claimed part's charge.
#[derive(Debug, Clone)]
pub enum PartCharged<'a> {
    /// Taken or on its way: its event records the payment.
    Accepted { intent_id: &'a str },
    /// Refused or wanting the student: tried again at `retry_at`, or left
    /// as failed; `mail` (with the link in `link`) goes on a part's first refusal.
    Refused { intent_id: Option<&'a str>, message: &'a str, retry_at: Option<DateTime<Utc>>, mail: &'a Mail, link: &'a BalanceLink },
}

type DueRow = (String, String);

impl Db {
    /// The parts whose day or retry has come by `now` on plans that run,
    /// and claims left unfinished: (part, booking), oldest first.
    pub async fn parts_due(&self, now: DateTime<Utc>) -> anyhow::Result<Vec<(String, String)>> {
        let today = london::today(now);
        on_pool!(self, pool => sqlx::query_as::<_, DueRow>(
            "select i.id, p.enrollment_id from plan_instalment i join payment_plan p on p.id = i.plan_id \
             where p.status = 'active' and i.due_on <= $1 and ( \
               (i.status in ('scheduled', 'retrying') and (i.next_attempt_at is null or i.next_attempt_at <= $2)) \
               or (i.status = 'charging' and i.intent_id is null and i.claimed_at <= $3)) \
             order by i.due_on, i.number"
        ).bind(today).bind(now).bind(now - STALE_CLAIM).fetch_all(pool).await)
        .context("Failed to read the instalments due")
    }

    /// Claims part `part_id` of booking `enrollment_id` to charge it now:
    /// `None` when another runner has it, it is not due, its plan does not
    /// run, or what has been paid already covers it (then it is marked
    /// paid). In the booking's lock, so a payment arriving meanwhile is
    /// counted first.
    pub async fn claim_part(&self, part_id: &str, enrollment_id: &str, now: DateTime<Utc>) -> anyhow::Result<Option<ClaimedPart>> {
        let today = london::today(now);
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let record = tx.lock_booking(enrollment_id).await?;
            let plan = tx.live_plan(enrollment_id).await?;
            let (Some(record), Some(plan)) = (record, plan) else {
                tx.rollback().await?;
                return Ok(None);
            };
            let Some(part) = plan.parts.iter().find(|p| p.id == part_id) else {
                tx.rollback().await?;
                return Ok(None);
            };
            let (Some(payment_method), PlanStatus::Active) = (plan.payment_method.clone(), plan.status) else {
                tx.rollback().await?;
                return Ok(None);
            };
            let paid_to_balance = Money::from_pence((record.paid.pence() - record.quote.deposit.pence()).max(0));
            let asked = still_asked(&plan.instalments(), part.instalment.number, paid_to_balance).min(record.owed());
            if asked == Money::ZERO {
                tx.settle_plan(enrollment_id, paid_to_balance, now).await?;
                tx.commit().await?;
                return Ok(None);
            }
            // A fresh attempt, or the same one again for a claim left unfinished.
            let claimed = sqlx::query(
                "update plan_instalment set status = 'charging', claimed_at = $2, \
                 attempts = case when status = 'charging' then attempts else attempts + 1 end \
                 where id = $1 and due_on <= $3 and ( \
                   (status in ('scheduled', 'retrying') and (next_attempt_at is null or next_attempt_at <= $2)) \
                   or (status = 'charging' and intent_id is null and claimed_at <= $4))",
            )
            .bind(part_id).bind(now).bind(today).bind(now - STALE_CLAIM).execute(&mut *tx).await?;
            if claimed.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(None);
            }
            let attempt: i32 = sqlx::query_scalar("select attempts from plan_instalment where id = $1").bind(part_id).fetch_one(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(ClaimedPart {
                part_id: part.id.clone(),
                attempt: u32::try_from(attempt).unwrap_or_default(),
                amount: asked,
                instalment: part.instalment,
                customer: plan.customer.clone(),
                payment_method,
                card_label: plan.card_label.clone().unwrap_or_default(),
                booking: record,
            }))
        })
        .context("Failed to claim the instalment")
    }

    /// Records what the bank said to `claim`'s charge, only while the part
    /// is still the claim's (a later claim or a payment wins). An accepted
    /// charge's intent is kept for reconciliation; a refusal queues its
    /// mail on the part's first refusal only.
    pub async fn record_part_charge(&self, claim: &ClaimedPart, charged: &PartCharged<'_>, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            tx.lock_booking(&claim.booking.id).await?;
            let still_ours = "id = $1 and attempts = $2 and status = 'charging'";
            let recorded = match charged {
                PartCharged::Accepted { intent_id } => {
                    // Its event may have come first and marked the part paid: the intent is kept all the same.
                    let done = sqlx::query("update plan_instalment set intent_id = $3 where id = $1 and attempts = $2")
                        .bind(&claim.part_id).bind(i32::try_from(claim.attempt).unwrap_or(i32::MAX)).bind(*intent_id).execute(&mut *tx).await?;
                    sqlx::query("insert into balance_intent (id, enrollment_id, amount, created_at) values ($1, $2, $3, $4) \
                         on conflict (id) do nothing")
                        .bind(*intent_id).bind(&claim.booking.id).bind(claim.amount.pence()).bind(now).execute(&mut *tx).await?;
                    done.rows_affected() == 1
                }
                PartCharged::Refused { intent_id, message, retry_at, mail, link } => {
                    let status = PartStatus::refused(*retry_at);
                    let done = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "update plan_instalment set status = $3, next_attempt_at = $4, last_error = $5, intent_id = $6 where {still_ours}"
                    )))
                    .bind(&claim.part_id).bind(i32::try_from(claim.attempt).unwrap_or(i32::MAX)).bind(status.as_str()).bind(*retry_at).bind(*message)
                    .bind(*intent_id).execute(&mut *tx).await?;
                    let ours = done.rows_affected() == 1;
                    if ours {
                        let first = sqlx::query("update plan_instalment set refusal_mailed_at = $2 where id = $1 and refusal_mailed_at is null")
                            .bind(&claim.part_id).bind(now).execute(&mut *tx).await?;
                        if first.rows_affected() == 1 && !mail.to.is_empty() {
                            tx.store_balance_link(&claim.booking.id, link, now).await?;
                            tx.queue_mail(mail, now).await?;
                        }
                    }
                    ours
                }
            };
            tx.commit().await?;
            Ok::<_, sqlx::Error>(recorded)
        })
        .context("Failed to record the instalment's charge")
    }

    /// A charge the provider refused after accepting it (a delayed
    /// payment that failed), by its intent: the part is tried again on
    /// the college's schedule, or left failed. Whether a part was charging.
    pub async fn part_charge_failed(
        &self,
        intent_id: &str,
        message: &str,
        settings: &PlanSettings,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let attempts: Option<i32> = sqlx::query_scalar("select attempts from plan_instalment where intent_id = $1 and status = 'charging'")
                .bind(intent_id).fetch_optional(&mut *tx).await?;
            let Some(attempts) = attempts else {
                tx.rollback().await?;
                return Ok(false);
            };
            let retry_at = settings.next_attempt(u32::try_from(attempts).unwrap_or(u32::MAX), now);
            let status = PartStatus::refused(retry_at);
            sqlx::query("update plan_instalment set status = $2, next_attempt_at = $3, last_error = $4 where intent_id = $1 and status = 'charging'")
                .bind(intent_id).bind(status.as_str()).bind(retry_at).bind(message).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .context("Failed to record the instalment's failed charge")
    }
}
