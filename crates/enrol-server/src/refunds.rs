//! Refunds are decided inside the transaction that finds them due (an
//! overpayment, say) and made at the payment provider afterwards, with the
//! refund's own id as the idempotency key: a crash, a timeout or two
//! instances at once never refund twice, and a refund that failed is
//! tried again until it is made. Only a refund the provider made is
//! recorded as done, with its credit note and the buyer's mail.

use chrono::Utc;
use enrol_db::RefundRecorded;
use enrol_domain::money::Money;

use crate::AppState;
use crate::print::receipt::{issuer, new_document_link};

/// Makes every refund still due; answers how many were made now.
pub async fn make_due_refunds(state: &AppState) -> anyhow::Result<usize> {
    let refunds = state.db.pending_refunds(50).await?;
    if refunds.is_empty() {
        return Ok(0);
    }
    let issuer = issuer(&state.db, &state.config).await?;
    let mut made = 0;
    for refund in refunds {
        match state.payments.refund_payment(&refund.transaction_id, Money::from_pence(refund.amount), &refund.id).await {
            Ok(done) => {
                let link = new_document_link(&state.config);
                let recorded = state.db.complete_refund(&refund.id, &done.id, None, &issuer, &link, Utc::now()).await?;
                if let RefundRecorded::Made(credit_note) = recorded {
                    let credit_note = credit_note.map(|note| note.number);
                    tracing::info!(refund = %refund.id, provider_refund = %done.id, amount = refund.amount, ?credit_note, "Refund made");
                    made += 1;
                }
            }
            Err(error) => {
                tracing::error!(refund = %refund.id, %error, "Refund failed; it will be tried again");
                state.db.note_refund_failure(&refund.id, &error.to_string()).await?;
            }
        }
    }
    Ok(made)
}

/// Makes the refunds a request or an event just decided; one that fails now
/// is tried again by the scheduled jobs, so a failure is only logged.
pub async fn give_back_now(state: &AppState) {
    if let Err(error) = make_due_refunds(state).await {
        tracing::warn!(error = %format!("{error:#}"), "Refunds will be tried again later");
    }
}
