//! Stripe's customers, saved cards, setup intents and charges of a saved
//! card without its owner present (decision 036), as forms and answers.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{CURRENCY, Form, StripeErrorBody, field, push_metadata};
use crate::{ChargeOutcome, SavedCard, SavedCardCharge, SetupIntent};

pub(super) fn customer_form(email: &str, name: &str) -> Form {
    vec![field("email", email), field("name", name)]
}

pub(super) fn charge_form(charge: &SavedCardCharge) -> Form {
    let mut form = vec![
        field("amount", charge.amount.pence().to_string()),
        field("currency", CURRENCY),
        field("customer", &charge.customer),
        field("payment_method", &charge.payment_method),
        field("confirm", "true"),
        field("off_session", "true"),
    ];
    push_metadata(&mut form, &charge.metadata);
    form
}

pub(super) fn setup_form(customer: &str, metadata: &BTreeMap<String, String>) -> Form {
    let mut form = vec![field("customer", customer), field("usage", "off_session"), field("payment_method_types[0]", "card")];
    push_metadata(&mut form, metadata);
    form
}

#[derive(Deserialize)]
pub(super) struct StripeCustomer {
    pub id: String,
}

#[derive(Deserialize)]
pub(super) struct StripeChargedIntent {
    id: String,
    status: String,
    last_payment_error: Option<StripeLastError>,
}

#[derive(Deserialize)]
struct StripeLastError {
    message: Option<String>,
}

impl StripeChargedIntent {
    /// What the intent's status says of the charge. Stripe answers an
    /// off-session charge the bank wants confirmed or refuses with an error
    /// (below); a stand-in may answer the intent itself.
    pub fn outcome(self) -> ChargeOutcome {
        match self.status.as_str() {
            "requires_action" => ChargeOutcome::NeedsAuthentication { intent_id: Some(self.id) },
            "requires_payment_method" | "canceled" => ChargeOutcome::Declined {
                message: self.last_payment_error.and_then(|e| e.message).unwrap_or_else(|| "The payment was declined.".to_owned()),
                intent_id: Some(self.id),
            },
            _ => ChargeOutcome::Accepted { intent_id: self.id },
        }
    }
}

/// A card error's answer to an off-session charge: the bank wants the
/// owner (`authentication_required`), or declined. `None`: not a card error.
pub(super) fn refused_charge(body: &[u8]) -> Option<ChargeOutcome> {
    let StripeErrorBody { error } = serde_json::from_slice(body).ok()?;
    if error.error_type != "card_error" {
        return None;
    }
    let intent_id = error.payment_intent.map(|intent| intent.id);
    Some(if error.code.as_deref() == Some("authentication_required") {
        ChargeOutcome::NeedsAuthentication { intent_id }
    } else {
        ChargeOutcome::Declined { intent_id, message: error.message.unwrap_or_else(|| "The payment was declined.".to_owned()) }
    })
}

#[derive(Deserialize)]
pub(super) struct StripePaymentMethod {
    id: String,
    card: Option<StripeCard>,
}

#[derive(Deserialize)]
struct StripeCard {
    brand: String,
    last4: String,
}

impl From<StripePaymentMethod> for SavedCard {
    fn from(method: StripePaymentMethod) -> Self {
        let label = match method.card {
            Some(card) => format!("{} ending {}", brand_name(&card.brand), card.last4),
            None => "saved payment method".to_owned(),
        };
        SavedCard { id: method.id, label }
    }
}

/// `visa` as the student reads it: `Visa`.
fn brand_name(brand: &str) -> String {
    match brand.to_ascii_lowercase().as_str() {
        "amex" => "American Express".to_owned(),
        "mastercard" => "Mastercard".to_owned(),
        "visa" => "Visa".to_owned(),
        other => {
            let mut chars = other.chars();
            chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_else(|| "Card".to_owned())
        }
    }
}

#[derive(Deserialize)]
pub(super) struct StripeSetupIntent {
    id: String,
    client_secret: String,
    status: String,
    /// An id, or the object when expanded.
    payment_method: Option<serde_json::Value>,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
}

impl From<StripeSetupIntent> for SetupIntent {
    fn from(setup: StripeSetupIntent) -> Self {
        let payment_method =
            setup.payment_method.as_ref().and_then(|value| value.as_str().or_else(|| value.get("id")?.as_str()).map(str::to_owned));
        SetupIntent { id: setup.id, client_secret: setup.client_secret, status: setup.status, payment_method, metadata: setup.metadata }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_off_session_card_error_says_whether_the_bank_wants_the_owner() {
        let auth = br#"{"error":{"type":"card_error","code":"authentication_required","message":"This payment requires authentication.",
            "payment_intent":{"id":"pi_123","status":"requires_payment_method"}}}"#;
        assert_eq!(refused_charge(auth), Some(ChargeOutcome::NeedsAuthentication { intent_id: Some("pi_123".into()) }));
        let declined = br#"{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined."}}"#;
        assert_eq!(refused_charge(declined), Some(ChargeOutcome::Declined { intent_id: None, message: "Your card was declined.".into() }));
        assert_eq!(refused_charge(br#"{"error":{"type":"api_error","message":"oops"}}"#), None);
    }

    #[test]
    fn a_card_reads_as_its_brand_and_last_digits() {
        let visa: StripePaymentMethod = serde_json::from_str(r#"{"id":"pm_1","card":{"brand":"visa","last4":"4242"}}"#).unwrap();
        assert_eq!(SavedCard::from(visa).label, "Visa ending 4242");
        let other: StripePaymentMethod = serde_json::from_str(r#"{"id":"pm_2","card":{"brand":"discover","last4":"0005"}}"#).unwrap();
        assert_eq!(SavedCard::from(other).label, "Discover ending 0005");
    }
}
