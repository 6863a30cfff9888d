//! Giving back lines of an online order (decision 027): in one
//! transaction that first locks the order, the lines are checked against
//! those given back before and what the order still holds
//! (`enrol_domain::online_access::line_refund`), the refunds are
//! queued against its payments as a booking's are (the refund worker
//! makes them at the provider), the access those lines gave ends, and the
//! audit row is written. Requests at once take turns behind the lock, so
//! no line is given back twice and no more than was paid.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde_json::json;

use enrol_domain::money::Money;
use enrol_domain::online_access::{LineRefundRefused, line_refund};
use enrol_domain::online_order::PricedLine;

use crate::ledger::MoneySteps;
use crate::orders::OrderSteps;
use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool};

/// What a staff member's refund of an online order did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnlineRefund {
    /// The refunds queued (their ids) and the courses whose access ended.
    Refunded {
        refunds: Vec<String>,
        ended: Vec<String>,
    },
    Refused(LineRefundRefused),
    UnknownOrder,
}

impl Db {
    /// Gives back `lines` (places in the order's lines, from 0) of online
    /// order `id`, for `reason`, as staff member `staff_id` decided at
    /// `now`; the registrations those lines gave are revoked as of `now`.
    pub async fn refund_online_lines(
        &self,
        id: &str,
        lines: &[usize],
        reason: &str,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<OnlineRefund> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let stored: Option<String> = sqlx::query_scalar("update online_order set status = status where id = $1 returning lines")
                .bind(id).fetch_optional(&mut *tx).await?;
            let Some(stored) = stored else {
                tx.rollback().await?;
                return Ok(OnlineRefund::UnknownOrder);
            };
            let order_lines: Vec<PricedLine> = serde_json::from_str(&stored).map_err(|e| sqlx::Error::Decode(e.into()))?;
            let before: Vec<i64> = sqlx::query_scalar("select cast(line as bigint) from online_refund_line where online_order_id = $1")
                .bind(id).fetch_all(&mut *tx).await?;
            let before: Vec<usize> = before.into_iter().filter_map(|line| usize::try_from(line).ok()).collect();
            let paid = tx.paid_towards(None, Some(id)).await?;
            let refund = match line_refund(&order_lines, &before, lines, paid) {
                Ok(refund) => refund,
                Err(refused) => {
                    tx.rollback().await?;
                    return Ok(OnlineRefund::Refused(refused));
                }
            };
            let refunds = tx.refund_purchase(None, Some(id), refund.amount, reason, now).await?;
            let mut ended = Vec::new();
            let mut titles = Vec::new();
            for &index in &refund.lines {
                let Some(line) = order_lines.get(index) else { continue };
                titles.push(line.title.clone());
                sqlx::query("insert into online_refund_line (online_order_id, line, amount, refunded_at) values ($1, $2, $3, $4)")
                    .bind(id).bind(i64::try_from(index).unwrap_or(i64::MAX)).bind(line.amount.pence()).bind(now)
                    .execute(&mut *tx).await?;
                if let Some(course_id) = tx.line_course(&line.item).await? {
                    sqlx::query(
                        "update online_registration set revoked_at = $3, revoke_reason = $4 \
                         where online_order_id = $1 and course_id = $2 and revoked_at is null"
                    ).bind(id).bind(&course_id).bind(now).bind(format!("Refunded: {reason}")).execute(&mut *tx).await?;
                    ended.push(course_id);
                }
            }
            let entry = AuditEntry::new(staff_id, "online_order.refund", "online_order", id)
                .before(json!({ "paid": paid }))
                .after(json!({
                    "paid": Money::from_pence(paid.pence() - refund.amount.pence()), "amount": refund.amount, "reason": reason,
                    "lines": titles, "refunds": refunds, "accessEnded": ended,
                }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(OnlineRefund::Refunded { refunds, ended })
        })
        .context("Failed to refund the online order")
    }

    /// A payment given back in full at the provider by a person there, not
    /// through Enrol (`transaction_id`, `refunded` in all): the online
    /// courses its order gave end as of `now`, once. A part refunded there
    /// ends nothing, since only staff know which course it was for. The
    /// courses whose access ended.
    pub async fn end_access_refunded_at_provider(
        &self,
        transaction_id: &str,
        refunded: Money,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Vec<String>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let paid: Option<(String, i64)> = sqlx::query_as(
                "select online_order_id, amount from payment where transaction_id = $1 and online_order_id is not null"
            ).bind(transaction_id).fetch_optional(&mut *tx).await?;
            let Some((order_id, _)) = paid.filter(|(_, amount)| refunded.pence() >= *amount) else {
                tx.rollback().await?;
                return Ok(Vec::new());
            };
            sqlx::query("update online_order set status = status where id = $1").bind(&order_id).execute(&mut *tx).await?;
            let ended: Vec<String> = sqlx::query_scalar(
                "update online_registration set revoked_at = $2, revoke_reason = 'Refunded at the payment provider' \
                 where online_order_id = $1 and revoked_at is null returning course_id"
            ).bind(&order_id).bind(now).fetch_all(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(ended)
        })
        .context("Failed to end the access of a payment refunded at the provider")
    }
}
