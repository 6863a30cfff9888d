//! Reconciliation, one of the scheduled jobs ([`crate::jobs`]): finds
//! orders whose payment went through but whose webhook never arrived
//! (in-person enrolments and e-learning orders alike), asking the payment
//! provider and fulfilling them the way the webhook would have. "Paid but
//! not enrolled" cannot go unnoticed. Safe on any number of instances:
//! every step is conditional or records a provider payment once.

use chrono::{DateTime, Utc};

use enrol_db::{BalanceFulfilment, EnrollmentFulfilment, Fulfilment, IntentOutcome};
use enrol_domain::checkout::ORDER_ID_KEY;

use crate::AppState;
use crate::http::webhooks::{balance_paid, fulfil_checkout, fulfil_paid_intent};

/// How long a webhook may take before reconciliation looks: Stripe usually
/// delivers within seconds and retries for days.
const GRACE: chrono::Duration = chrono::Duration::minutes(10);
/// Older orders are a person's to check.
const LOOK_BACK: chrono::Duration = chrono::Duration::days(7);

/// What one reconciliation run found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub checked: usize,
    /// Paid at the provider, and now fulfilled here.
    pub fulfilled: usize,
}

/// Checks every unpaid order with a payment under way that is older than
/// the grace period, as of `now`.
pub async fn reconcile(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Report> {
    let enrolments = state.db.enrollments_awaiting_payment(now - LOOK_BACK, now - GRACE).await?;
    let online = state.db.online_orders_awaiting_payment(now - LOOK_BACK, now - GRACE).await?;
    let balances = state.db.balance_intents_awaiting_payment(now - LOOK_BACK, now - GRACE).await?;
    let mut report = Report { checked: enrolments.len() + online.len() + balances.len(), fulfilled: 0 };
    for (order_id, intent_id) in enrolments {
        let Some(paid) = paid_intent(state, &order_id, &intent_id).await else { continue };
        let outcome = fulfil_paid_intent(state, &paid).await?;
        if matches!(outcome, EnrollmentFulfilment::Fulfilled { .. } | EnrollmentFulfilment::PaidWithoutSeat) {
            report.fulfilled += 1;
            tracing::error!(%order_id, %intent_id, ?outcome, "A paid enrollment had no webhook: fulfilled by reconciliation");
        }
    }
    for (order_id, intent_id) in balances {
        let Some(paid) = paid_intent(state, &order_id, &intent_id).await else { continue };
        if matches!(balance_paid(state, &paid).await?, BalanceFulfilment::Paid { .. } | BalanceFulfilment::NotOwed { .. }) {
            report.fulfilled += 1;
            tracing::error!(%order_id, %intent_id, "A paid balance had no webhook: recorded by reconciliation");
        }
    }
    for (order_id, session_id) in online {
        let session = match state.payments.retrieve_checkout_session(&session_id).await {
            Ok(session) => session,
            Err(error) => {
                tracing::warn!(%order_id, %session_id, %error, "Reconciliation could not read the checkout");
                continue;
            }
        };
        if session.payment_status != "paid" {
            continue;
        }
        let outcome = fulfil_checkout(state, format!("reconcile_{session_id}"), "reconciliation", order_id.clone(), &session)
            .await
            .map_err(|error| anyhow::anyhow!("{error}"))?;
        if outcome == Fulfilment::Fulfilled {
            report.fulfilled += 1;
            tracing::error!(%order_id, %session_id, "A paid online order had no webhook: fulfilled by reconciliation");
        }
    }
    Ok(report)
}

/// Intent `intent_id` of `order_id` as paid, when the provider says it
/// succeeded for that order.
async fn paid_intent(state: &AppState, order_id: &str, intent_id: &str) -> Option<IntentOutcome> {
    let intent = match state.payments.retrieve_payment_intent(intent_id).await {
        Ok(intent) => intent,
        Err(error) => {
            tracing::warn!(%order_id, %intent_id, %error, "Reconciliation could not read the payment");
            return None;
        }
    };
    (intent.status == "succeeded" && intent.metadata.get(ORDER_ID_KEY).map(String::as_str) == Some(order_id)).then(|| IntentOutcome {
        event_id: format!("reconcile_{intent_id}"),
        event_type: "reconciliation".to_owned(),
        order_id: order_id.to_owned(),
        intent_id: intent_id.to_owned(),
        amount: intent.amount,
        currency: "gbp".to_owned(),
        method: state.payments.kind().as_str().to_owned(),
    })
}
