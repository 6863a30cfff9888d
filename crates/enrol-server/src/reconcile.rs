//! Reconciliation: an enrollment whose payment went through but whose
//! webhook never arrived is found by asking the payment provider, and
//! fulfilled the same way the webhook would have. "Paid but not enrolled"
//! cannot go unnoticed. Safe on any number of instances: fulfilment records
//! a provider payment once.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use enrol_db::{EnrolmentFulfilment, IntentOutcome};

use crate::AppState;

/// How often the job runs, and how long a webhook may take before the job
/// looks: Stripe usually delivers within seconds and retries for days.
const EVERY: Duration = Duration::from_secs(300);
const GRACE: chrono::Duration = chrono::Duration::minutes(10);
/// Older orders are a person's to check.
const LOOK_BACK: chrono::Duration = chrono::Duration::days(7);

/// What one run found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub checked: usize,
    /// Paid at the provider, and now fulfilled here.
    pub fulfilled: usize,
}

/// Checks every pending enrollment with a payment under way that is older
/// than the grace period, as of `now`.
pub async fn reconcile(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Report> {
    let pending = state.db.enrollments_awaiting_payment(now - LOOK_BACK, now - GRACE).await?;
    let site = state.db.site().await?.map(|r| r.site);
    let (college, address) = site.map_or_else(|| ("Enrol".to_owned(), String::new()), |s| (s.title, s.email_address));
    let mut report = Report { checked: pending.len(), fulfilled: 0 };
    for (order_id, intent_id) in pending {
        let intent = match state.payments.retrieve_payment_intent(&intent_id).await {
            Ok(intent) => intent,
            Err(error) => {
                tracing::warn!(%order_id, %intent_id, %error, "Reconciliation could not read the payment");
                continue;
            }
        };
        if intent.status != "succeeded" || intent.metadata.get("Order ID") != Some(&order_id) {
            continue;
        }
        let paid = IntentOutcome {
            event_id: format!("reconcile_{intent_id}"),
            event_type: "reconciliation".to_owned(),
            order_id: order_id.clone(),
            intent_id: intent_id.clone(),
            amount: intent.amount,
            currency: "gbp".to_owned(),
            method: state.payments.name().to_owned(),
        };
        let outcome = state.db.fulfil_enrollment(&paid, &college, &address, now).await?;
        if matches!(outcome, EnrolmentFulfilment::Fulfilled(_) | EnrolmentFulfilment::PaidWithoutSeat) {
            report.fulfilled += 1;
            tracing::error!(%order_id, %intent_id, ?outcome, "A paid enrollment had no webhook: fulfilled by reconciliation");
        }
    }
    Ok(report)
}

/// Runs [`reconcile`] every five minutes while the server runs.
pub async fn run_every_five_minutes(state: Arc<AppState>) {
    let mut tick = tokio::time::interval(EVERY);
    loop {
        tick.tick().await;
        if let Err(error) = reconcile(&state, Utc::now()).await {
            tracing::error!(error = %format!("{error:#}"), "Reconciliation failed");
        }
    }
}
