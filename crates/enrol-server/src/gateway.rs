//! The payment gateway the server was configured with: Stripe, or the
//! built-in sandbox that keeps its state in the database and serves its own
//! payment pages (`http::sandbox`).

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::Utc;

use enrol_db::{Db, SandboxCheckout, SandboxIntent, SandboxLine};
use enrol_domain::money::Money;
use enrol_payments::stripe::StripeGateway;
use enrol_payments::{
    CheckoutRequest, CheckoutSession, GatewayError, IntentRequest, IntentUpdate, PaymentGateway, PaymentIntent,
};

use crate::config::PaymentsConfig;

pub fn build(config: &PaymentsConfig, db: Db) -> Arc<dyn PaymentGateway> {
    match config {
        PaymentsConfig::Sandbox { webhook_secret } => Arc::new(SandboxGateway { db, webhook_secret: webhook_secret.clone() }),
        PaymentsConfig::Stripe { secret_key, publishable_key, webhook_secret, api_base } => {
            let stripe = StripeGateway::new(secret_key.clone(), publishable_key.clone(), webhook_secret.clone());
            Arc::new(match api_base {
                Some(base) => stripe.with_api_base(base),
                None => stripe,
            })
        }
    }
}

pub struct SandboxGateway {
    db: Db,
    webhook_secret: String,
}

/// The sandbox's own failures are ours: the database, not a buyer's card.
fn unavailable(error: anyhow::Error) -> GatewayError {
    tracing::error!(error = %format!("{error:#}"), "Sandbox gateway failed");
    GatewayError::Unavailable("the sandbox could not store the payment".to_owned())
}

fn random_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

fn intent_of(row: SandboxIntent) -> Result<PaymentIntent, GatewayError> {
    let metadata: BTreeMap<String, String> =
        serde_json::from_str(&row.metadata).map_err(|e| unavailable(anyhow::Error::new(e)))?;
    Ok(PaymentIntent {
        id: row.id,
        client_secret: row.client_secret,
        amount: Money::from_pence(row.amount),
        status: row.status,
        metadata,
    })
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, GatewayError> {
    serde_json::to_string(value).map_err(|e| unavailable(anyhow::Error::new(e)))
}

#[async_trait::async_trait]
impl PaymentGateway for SandboxGateway {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn publishable_key(&self) -> Option<&str> {
        None
    }

    async fn create_checkout_session(&self, request: &CheckoutRequest) -> Result<CheckoutSession, GatewayError> {
        let lines: Vec<SandboxLine> =
            request.lines.iter().map(|l| SandboxLine { name: l.name().to_owned(), amount: l.unit_amount().pence() }).collect();
        let checkout = SandboxCheckout {
            id: format!("cs_sandbox_{}", random_token()),
            client_reference_id: request.client_reference_id.clone(),
            total: lines.iter().map(|l| l.amount).sum(),
            lines,
            success_url: request.success_url.clone(),
            cancel_url: request.cancel_url.clone(),
            metadata: request.metadata.clone(),
            complete: false,
        };
        let stored = self.db.create_sandbox_checkout(&request.idempotency_key, &checkout, Utc::now()).await.map_err(unavailable)?;
        Ok(CheckoutSession { url: format!("/sandbox/checkout/{}", stored.id), id: stored.id })
    }

    async fn create_payment_intent(&self, request: &IntentRequest) -> Result<PaymentIntent, GatewayError> {
        let id = format!("pi_sandbox_{}", random_token());
        let row = SandboxIntent {
            client_secret: format!("{id}_secret_{}", random_token()),
            id,
            amount: request.amount.pence(),
            status: "requires_payment_method".to_owned(),
            payment_method_types: json(&request.payment_method_types)?,
            metadata: json(&request.metadata)?,
        };
        intent_of(self.db.create_sandbox_intent(&request.idempotency_key, &row).await.map_err(unavailable)?)
    }

    async fn update_payment_intent(&self, id: &str, update: &IntentUpdate) -> Result<PaymentIntent, GatewayError> {
        let current = self.retrieve_row(id).await?;
        let row = SandboxIntent {
            amount: update.amount.pence(),
            payment_method_types: json(&update.payment_method_types)?,
            metadata: json(&update.metadata)?,
            ..current
        };
        match self.db.update_sandbox_intent(&row).await.map_err(unavailable)? {
            Some(updated) => intent_of(updated),
            None => Err(GatewayError::Refused("This payment has already been made.".to_owned())),
        }
    }

    async fn retrieve_payment_intent(&self, id: &str) -> Result<PaymentIntent, GatewayError> {
        intent_of(self.retrieve_row(id).await?)
    }

    fn webhook_secret(&self) -> &str {
        &self.webhook_secret
    }
}

impl SandboxGateway {
    async fn retrieve_row(&self, id: &str) -> Result<SandboxIntent, GatewayError> {
        self.db
            .sandbox_intent(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| GatewayError::Refused(format!("No such payment intent: {id}")))
    }
}
