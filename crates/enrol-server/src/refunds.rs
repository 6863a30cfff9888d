//! Refunds are decided inside the transaction that finds them due (an
//! overpayment, say) and made at the payment provider afterwards, with the
//! refund's own id as the idempotency key: a crash, a timeout or two
//! instances at once never refund twice, and a refund that failed is
//! tried again until it is made. Only a refund the provider made is
//! recorded as done.

use chrono::Utc;
use enrol_domain::money::Money;

use crate::AppState;

/// Makes every refund still due; answers how many were made now.
pub async fn make_due_refunds(state: &AppState) -> anyhow::Result<usize> {
    let mut made = 0;
    for refund in state.db.pending_refunds(50).await? {
        match state.payments.refund_payment(&refund.transaction_id, Money::from_pence(refund.amount), &refund.id).await {
            Ok(done) => {
                state.db.complete_refund(&refund.id, &done.id, Utc::now()).await?;
                tracing::info!(refund = %refund.id, provider_refund = %done.id, amount = refund.amount, "Refund made");
                made += 1;
            }
            Err(error) => {
                tracing::error!(refund = %refund.id, %error, "Refund failed; it will be tried again");
                state.db.note_refund_failure(&refund.id, &error.to_string()).await?;
            }
        }
    }
    Ok(made)
}
