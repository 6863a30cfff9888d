//! The payment gateway the server was configured with: Stripe, or the
//! built-in sandbox that keeps its state in the database and serves its own
//! payment pages (`http::sandbox`).

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::Utc;

use enrol_db::{Db, SandboxCheckout, SandboxIntent, SandboxLine, SandboxSetup};
use enrol_domain::money::Money;
use enrol_payments::stripe::StripeGateway;
use enrol_payments::{
    ChargeOutcome, CheckoutRequest, CheckoutSession, CheckoutSessionObject, GatewayError, GatewayKind, IntentRequest, IntentUpdate,
    PaymentGateway, PaymentIntent, RefundMade, SavedCard, SavedCardCharge, SetupIntent,
};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use crate::accounts::random_token;
use crate::config::PaymentsConfig;

/// An event the sandbox sends its webhook later, as Stripe does: its type
/// and object.
pub type SandboxEvent = (&'static str, serde_json::Value);

/// The gateway, and for the sandbox the events it sends later
/// (`http::sandbox::deliver_events` takes them to the webhook).
pub fn build(config: &PaymentsConfig, db: Db) -> (Arc<dyn PaymentGateway>, Option<UnboundedReceiver<SandboxEvent>>) {
    match config {
        PaymentsConfig::Sandbox { webhook_secret } => {
            let (events, later) = unbounded_channel();
            (Arc::new(SandboxGateway { db, webhook_secret: webhook_secret.clone(), events }), Some(later))
        }
        PaymentsConfig::Stripe { secret_key, publishable_key, webhook_secret, api_base } => {
            let stripe = StripeGateway::new(secret_key.clone(), publishable_key.clone(), webhook_secret.clone());
            let gateway: Arc<dyn PaymentGateway> = Arc::new(match api_base {
                Some(base) => stripe.with_api_base(base),
                None => stripe,
            });
            (gateway, None)
        }
    }
}

pub struct SandboxGateway {
    db: Db,
    webhook_secret: String,
    events: UnboundedSender<SandboxEvent>,
}

/// The sandbox's own failures are ours: the database, not a buyer's card.
fn unavailable(error: anyhow::Error) -> GatewayError {
    tracing::error!(error = %format!("{error:#}"), "Sandbox gateway failed");
    GatewayError::Unavailable("the sandbox could not store the payment".to_owned())
}

fn intent_of(row: SandboxIntent) -> Result<PaymentIntent, GatewayError> {
    let metadata: BTreeMap<String, String> = serde_json::from_str(&row.metadata).map_err(|e| unavailable(anyhow::Error::new(e)))?;
    Ok(PaymentIntent { id: row.id, client_secret: row.client_secret, amount: Money::from_pence(row.amount), status: row.status, metadata })
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, GatewayError> {
    serde_json::to_string(value).map_err(|e| unavailable(anyhow::Error::new(e)))
}

#[async_trait::async_trait]
impl PaymentGateway for SandboxGateway {
    fn kind(&self) -> GatewayKind {
        GatewayKind::Sandbox
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
            customer_email: None,
            customer_name: None,
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
            customer: request.customer.clone(),
            save_card: false,
            payment_method: None,
        };
        intent_of(self.db.create_sandbox_intent(&request.idempotency_key, &row).await.map_err(unavailable)?)
    }

    async fn update_payment_intent(&self, id: &str, update: &IntentUpdate) -> Result<PaymentIntent, GatewayError> {
        let current = self.retrieve_row(id).await?;
        let row = SandboxIntent {
            amount: update.amount.pence(),
            payment_method_types: json(&update.payment_method_types)?,
            metadata: json(&update.metadata)?,
            save_card: update.save_card_for.is_some(),
            customer: update.save_card_for.clone().or(current.customer.clone()),
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

    async fn cancel_payment_intent(&self, id: &str) -> Result<PaymentIntent, GatewayError> {
        match self.db.cancel_sandbox_intent(id).await.map_err(unavailable)? {
            Some(cancelled) => intent_of(cancelled),
            None => Err(GatewayError::Refused("This payment has already been made and cannot be cancelled.".to_owned())),
        }
    }

    /// The sandbox moves no money: a refund of a paid intent is made at
    /// once, its id fixed by the idempotency key as Stripe's would be.
    async fn refund_payment(&self, payment_intent: &str, amount: Money, idempotency_key: &str) -> Result<RefundMade, GatewayError> {
        // A hosted checkout's payment (an online order) or a payment intent's.
        let (paid, amount_paid) = match payment_intent.strip_prefix(CHECKOUT_PAYMENT) {
            Some(checkout) => {
                let checkout = self.retrieve_checkout_session(checkout).await?;
                (checkout.payment_status == "paid", checkout.amount_total.pence())
            }
            None => {
                let intent = self.retrieve_row(payment_intent).await?;
                (intent.status == "succeeded", intent.amount)
            }
        };
        if !paid || amount.pence() <= 0 || amount.pence() > amount_paid {
            return Err(GatewayError::Refused(format!("Cannot refund {amount} of payment {payment_intent}.")));
        }
        Ok(RefundMade { id: format!("re_sandbox_{}", crate::accounts::token_hash(idempotency_key).get(..24).unwrap_or_default()) })
    }

    async fn retrieve_checkout_session(&self, id: &str) -> Result<CheckoutSessionObject, GatewayError> {
        let checkout = self
            .db
            .sandbox_checkout(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| GatewayError::Refused(format!("No such checkout session: {id}")))?;
        Ok(checkout_object(&checkout))
    }

    async fn create_customer(&self, _email: &str, _name: &str, idempotency_key: &str) -> Result<String, GatewayError> {
        Ok(format!("cus_sandbox_{}", crate::accounts::token_hash(idempotency_key).get(..24).unwrap_or_default()))
    }

    /// As Stripe: a card that wants its owner, or is declined, makes an
    /// intent that is not paid; one that pays is paid, and its event
    /// reaches the webhook a moment later.
    async fn charge_saved_card(&self, charge: &SavedCardCharge) -> Result<ChargeOutcome, GatewayError> {
        let card = self.db.sandbox_card(&charge.payment_method).await.map_err(unavailable)?;
        let Some(card) = card.filter(|card| card.customer.as_deref() == Some(charge.customer.as_str())) else {
            return Err(GatewayError::Refused(format!("No such saved card: {}", charge.payment_method)));
        };
        let id = format!("pi_sandbox_{}", crate::accounts::token_hash(&charge.idempotency_key).get(..24).unwrap_or_default());
        let row = SandboxIntent {
            client_secret: format!("{id}_secret_{}", random_token()),
            id,
            amount: charge.amount.pence(),
            status: "processing".to_owned(),
            payment_method_types: json(&["card"])?,
            metadata: json(&charge.metadata)?,
            customer: Some(charge.customer.clone()),
            save_card: false,
            payment_method: Some(card.id.clone()),
        };
        let intent = self.db.create_sandbox_intent(&charge.idempotency_key, &row).await.map_err(unavailable)?;
        let intent_id = Some(intent.id.clone());
        match card.behaviour.as_str() {
            SAVED_CARD_AUTHENTICATES => {
                self.db.set_sandbox_intent_status(&intent.id, "requires_action").await.map_err(unavailable)?;
                Ok(ChargeOutcome::NeedsAuthentication { intent_id })
            }
            SAVED_CARD_DECLINED => {
                self.db.set_sandbox_intent_status(&intent.id, "requires_payment_method").await.map_err(unavailable)?;
                Ok(ChargeOutcome::Declined { intent_id, message: "Your card was declined.".to_owned() })
            }
            _ => {
                if self.db.succeed_sandbox_intent(&intent.id, Some(&card.id)).await.map_err(unavailable)? {
                    let paid = SandboxIntent { status: "succeeded".to_owned(), ..intent.clone() };
                    // The webhook's task may be gone only as the server stops; reconciliation then finds the payment.
                    let _ = self.events.send(("payment_intent.succeeded", intent_event(&paid, "succeeded", "card", None)));
                }
                Ok(ChargeOutcome::Accepted { intent_id: intent.id })
            }
        }
    }

    async fn saved_card(&self, payment_method: &str) -> Result<SavedCard, GatewayError> {
        let card = self.db.sandbox_card(payment_method).await.map_err(unavailable)?;
        let card = card.ok_or_else(|| GatewayError::Refused(format!("No such saved card: {payment_method}")))?;
        Ok(SavedCard { label: format!("Visa ending {}", card.last4), id: card.id })
    }

    async fn create_setup_intent(
        &self,
        customer: &str,
        metadata: &BTreeMap<String, String>,
        idempotency_key: &str,
    ) -> Result<SetupIntent, GatewayError> {
        let id = format!("seti_sandbox_{}", random_token());
        let setup = SandboxSetup {
            client_secret: format!("{id}_secret_{}", random_token()),
            id,
            customer: customer.to_owned(),
            status: "requires_payment_method".to_owned(),
            payment_method: None,
            metadata: json(metadata)?,
        };
        setup_of(self.db.create_sandbox_setup(idempotency_key, &setup, Utc::now()).await.map_err(unavailable)?)
    }

    async fn retrieve_setup_intent(&self, id: &str) -> Result<SetupIntent, GatewayError> {
        let setup = self.db.sandbox_setup(id).await.map_err(unavailable)?;
        setup_of(setup.ok_or_else(|| GatewayError::Refused(format!("No such setup intent: {id}")))?)
    }

    fn webhook_secret(&self) -> &str {
        &self.webhook_secret
    }
}

/// What a saved sandbox card does when charged without its owner: the
/// cards of `http::sandbox::TestCard` that need authentication, or are
/// declined, only then.
pub const SAVED_CARD_AUTHENTICATES: &str = "authenticate";
pub const SAVED_CARD_DECLINED: &str = "declined";
pub const SAVED_CARD_PAYS: &str = "succeeds";

fn setup_of(row: SandboxSetup) -> Result<SetupIntent, GatewayError> {
    let metadata: BTreeMap<String, String> = serde_json::from_str(&row.metadata).map_err(|e| unavailable(anyhow::Error::new(e)))?;
    Ok(SetupIntent { id: row.id, client_secret: row.client_secret, status: row.status, payment_method: row.payment_method, metadata })
}

/// A sandbox intent as Stripe's events carry it: `status`, paid by
/// `method` (`card`, `klarna`, …), and the refusal's `error` when it failed.
pub fn intent_event(intent: &SandboxIntent, status: &str, method: &str, error: Option<&str>) -> serde_json::Value {
    let metadata: serde_json::Value = serde_json::from_str(&intent.metadata).unwrap_or_else(|_| serde_json::json!({}));
    let types: serde_json::Value = serde_json::from_str(&intent.payment_method_types).unwrap_or_else(|_| serde_json::json!([]));
    let paid = status == "succeeded";
    serde_json::json!({
        "id": intent.id,
        "object": "payment_intent",
        "amount": intent.amount,
        "amount_received": if paid { intent.amount } else { 0 },
        "currency": "gbp",
        "metadata": metadata,
        "status": status,
        "payment_method_types": types,
        "customer": intent.customer,
        "payment_method": { "id": intent.payment_method, "type": method },
        "last_payment_error": error.map(|message| serde_json::json!({ "message": message, "payment_method": { "type": method } })),
    })
}

/// How the id of a sandbox checkout's one payment begins; the checkout's
/// id follows.
const CHECKOUT_PAYMENT: &str = "pi_sandbox_for_";

/// A sandbox checkout as Stripe describes a Checkout Session.
pub fn checkout_object(checkout: &SandboxCheckout) -> CheckoutSessionObject {
    CheckoutSessionObject {
        id: checkout.id.clone(),
        client_reference_id: Some(checkout.client_reference_id.clone()),
        metadata: checkout.metadata.clone(),
        amount_total: Money::from_pence(checkout.total),
        currency: "gbp".to_owned(),
        customer_email: checkout.customer_email.clone(),
        customer_name: checkout.customer_name.clone(),
        // One payment per checkout, however often the buyer clicks.
        payment_intent: Some(format!("{CHECKOUT_PAYMENT}{}", checkout.id)),
        payment_status: if checkout.complete { "paid" } else { "unpaid" }.to_owned(),
    }
}

impl SandboxGateway {
    async fn retrieve_row(&self, id: &str) -> Result<SandboxIntent, GatewayError> {
        self.db.sandbox_intent(id).await.map_err(unavailable)?.ok_or_else(|| GatewayError::Refused(format!("No such payment intent: {id}")))
    }
}
