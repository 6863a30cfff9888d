//! Taking payments: the [`PaymentGateway`] the server talks to, Stripe's
//! implementation of it, and the webhook signature scheme that both Stripe
//! and the built-in sandbox use to deliver outcomes.
//!
//! The sandbox gateway lives in the server (it keeps its state in the
//! database and serves its own pages); it implements the same trait.

use std::collections::BTreeMap;

use enrol_domain::money::Money;

pub mod event;
pub mod signature;
pub mod stripe;

pub use event::{ChargeObject, CheckoutSessionObject, EventError, EventKind, PaymentIntentObject, WebhookEvent, parse_event};
pub use stripe::StripeGateway;

/// What went wrong talking to the payment provider.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// The provider refused the request; the message is the provider's own
    /// and can be shown to the buyer (a declined card, say).
    #[error("{0}")]
    Refused(String),
    /// The provider could not be reached or answered nonsense.
    #[error("The payment provider is unavailable: {0}")]
    Unavailable(String),
}

/// One line of a hosted checkout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckoutLine {
    /// A catalogue price the provider already knows (a course's price id).
    Price { price_id: String, name: String, unit_amount: Money },
    /// A price given inline (an upsell's `price_data`): product id and amount.
    Inline { product: String, name: String, unit_amount: Money },
}

impl CheckoutLine {
    pub fn unit_amount(&self) -> Money {
        match self {
            CheckoutLine::Price { unit_amount, .. } | CheckoutLine::Inline { unit_amount, .. } => *unit_amount,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            CheckoutLine::Price { name, .. } | CheckoutLine::Inline { name, .. } => name,
        }
    }
}

/// A hosted checkout page for the e-learning basket (`POST /api/e-learning/create-checkout`).
#[derive(Debug, Clone)]
pub struct CheckoutRequest {
    /// The same key always yields the same session (a retried request never
    /// makes a second one).
    pub idempotency_key: String,
    /// Our order id, echoed back in the completion event.
    pub client_reference_id: String,
    pub lines: Vec<CheckoutLine>,
    pub success_url: String,
    pub cancel_url: String,
    pub metadata: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutSession {
    pub id: String,
    /// Where the browser goes to pay.
    pub url: String,
}

/// A payment intent for the enrol checkout (`/api/checkout/`).
#[derive(Debug, Clone)]
pub struct IntentRequest {
    pub idempotency_key: String,
    pub amount: Money,
    /// The provider's customer id of a signed-in user.
    pub customer: Option<String>,
    pub receipt_email: Option<String>,
    /// `card`, `klarna`, `afterpay_clearpay`.
    pub payment_method_types: Vec<String>,
    pub metadata: BTreeMap<String, String>,
}

#[derive(Debug, Clone)]
pub struct IntentUpdate {
    pub amount: Money,
    pub payment_method_types: Vec<String>,
    pub metadata: BTreeMap<String, String>,
    /// The provider's customer to save the card to, for charges later
    /// without the buyer present (`setup_future_usage=off_session`): the
    /// booking fee of an instalment plan (decision 036).
    pub save_card_for: Option<String>,
}

/// A charge of a saved card without its owner present: one part of an
/// instalment plan (decision 036).
#[derive(Debug, Clone)]
pub struct SavedCardCharge {
    /// The same key never charges twice.
    pub idempotency_key: String,
    pub amount: Money,
    pub customer: String,
    pub payment_method: String,
    pub metadata: BTreeMap<String, String>,
}

/// What the bank said to a saved card's charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChargeOutcome {
    /// Taken, or on its way: the provider's event records it.
    Accepted { intent_id: String },
    /// The bank asks for the card's owner to confirm the payment.
    NeedsAuthentication { intent_id: Option<String> },
    /// Declined; the provider's message.
    Declined { intent_id: Option<String>, message: String },
}

/// A saved card as the student recognises it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCard {
    pub id: String,
    /// `Visa ending 4242`.
    pub label: String,
}

/// Saving a card without taking money: changing the card of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupIntent {
    pub id: String,
    pub client_secret: String,
    /// `succeeded` once the card is saved.
    pub status: String,
    /// The saved card, once saved.
    pub payment_method: Option<String>,
    pub metadata: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentIntent {
    pub id: String,
    pub client_secret: String,
    pub amount: Money,
    /// The provider's status: `requires_payment_method`, `succeeded`, …
    pub status: String,
    pub metadata: BTreeMap<String, String>,
}

/// A refund made by the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundMade {
    /// The provider's refund id.
    pub id: String,
}

/// A payment provider. Stripe in production, the sandbox by default.
/// Which provider a gateway talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayKind {
    /// The built-in sandbox: no real money, its own payment pages.
    Sandbox,
    Stripe,
}

impl GatewayKind {
    /// Its name on the wire (the checkout page data) and in payment records
    /// when the provider names no method.
    pub fn as_str(self) -> &'static str {
        match self {
            GatewayKind::Sandbox => "sandbox",
            GatewayKind::Stripe => "stripe",
        }
    }
}

#[async_trait::async_trait]
pub trait PaymentGateway: Send + Sync {
    fn kind(&self) -> GatewayKind;

    /// The key the browser uses to mount the provider's payment element.
    fn publishable_key(&self) -> Option<&str>;

    async fn create_checkout_session(&self, request: &CheckoutRequest) -> Result<CheckoutSession, GatewayError>;

    async fn create_payment_intent(&self, request: &IntentRequest) -> Result<PaymentIntent, GatewayError>;

    async fn update_payment_intent(&self, id: &str, update: &IntentUpdate) -> Result<PaymentIntent, GatewayError>;

    async fn retrieve_payment_intent(&self, id: &str) -> Result<PaymentIntent, GatewayError>;

    /// Cancels an intent nobody has paid, so it can never be paid; refused
    /// when it is paid or being paid.
    async fn cancel_payment_intent(&self, id: &str) -> Result<PaymentIntent, GatewayError>;

    /// Gives back `amount` of what intent `payment_intent` took. The same
    /// `idempotency_key` never refunds twice.
    async fn refund_payment(&self, payment_intent: &str, amount: Money, idempotency_key: &str) -> Result<RefundMade, GatewayError>;

    async fn retrieve_checkout_session(&self, id: &str) -> Result<CheckoutSessionObject, GatewayError>;

    /// A customer at the provider for the buyer `email`, whose cards can be
    /// saved; the same key always yields the same customer.
    async fn create_customer(&self, email: &str, name: &str, idempotency_key: &str) -> Result<String, GatewayError>;

    /// Charges a saved card without its owner present.
    async fn charge_saved_card(&self, charge: &SavedCardCharge) -> Result<ChargeOutcome, GatewayError>;

    /// A saved card's brand and last digits.
    async fn saved_card(&self, payment_method: &str) -> Result<SavedCard, GatewayError>;

    /// Prepares saving a card to `customer` for later charges.
    async fn create_setup_intent(
        &self,
        customer: &str,
        metadata: &BTreeMap<String, String>,
        idempotency_key: &str,
    ) -> Result<SetupIntent, GatewayError>;

    async fn retrieve_setup_intent(&self, id: &str) -> Result<SetupIntent, GatewayError>;

    /// The secret webhook events are signed with (`Stripe-Signature`).
    fn webhook_secret(&self) -> &str;
}
