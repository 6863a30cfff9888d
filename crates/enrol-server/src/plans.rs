//! Instalment plans at work (decision 036): a plan started when its
//! booking fee's event arrives with the saved card, and the job that
//! charges the parts due, each once: a part is claimed by one conditional
//! update before its charge, the charge carries an idempotency key that
//! names the claim, and what the bank said is recorded only against that
//! claim. The payment itself is recorded by the provider's event through
//! the balance path, as any balance payment is.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use enrol_db::{ClaimedPart, EnrollmentRecord, PartCharged, PlanRecord};
use enrol_domain::checkout::ORDER_ID_KEY;
use enrol_domain::instalments::{INSTALMENT_ID_KEY, INSTALMENT_METADATA_TYPE, PlanBooking, Refusal, part_refused, plan_agreed};
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::records::StudentPlan;
use enrol_payments::{ChargeOutcome, GatewayError, SavedCardCharge};

use crate::AppState;
use crate::accounts::new_balance_link;

/// Starts the plan booking `order_id` agreed to at checkout, now that its
/// fee was paid with `payment_method`, and mails its parts; nothing when
/// it has none waiting (or it started before).
pub async fn start(state: &AppState, order_id: &str, payment_method: &str) -> anyhow::Result<()> {
    let Some(plan) = state.db.booking_plan(order_id).await? else { return Ok(()) };
    if plan.status != enrol_domain::instalments::PlanStatus::AwaitingFee {
        return Ok(());
    }
    let letter = PlanLetter::new(state, order_id, payment_method).await?;
    let started = state.db.start_plan(order_id, payment_method, &letter.card, |b, p| letter.mail(b, p), Utc::now()).await?;
    if let Some(plan) = started {
        tracing::info!(order = %order_id, plan = %plan.id, parts = plan.parts.len(), "Payment plan started");
    }
    Ok(())
}

/// Pays booking `order_id`'s plan from card `payment_method`, saved on the
/// balance page: a plan agreed there starts (its parts mailed), a running
/// one changes card. Whether the browser's confirmation or the provider's
/// `setup_intent.succeeded` comes first, or both, or one twice, the plan
/// starts once. The plan, or `None` when the booking has none to pay.
pub async fn use_saved_card(state: &AppState, order_id: &str, payment_method: &str) -> anyhow::Result<Option<StudentPlan>> {
    let letter = PlanLetter::new(state, order_id, payment_method).await?;
    let plan = state.db.use_card(order_id, payment_method, &letter.card, |b, p| letter.mail(b, p), Utc::now()).await?;
    if plan.is_some() {
        tracing::info!(order = %order_id, "A payment plan's card was saved");
    }
    Ok(plan)
}

/// What the mail telling a started plan's parts needs: the card as the
/// student knows it, the account's address and the college's name.
struct PlanLetter {
    card: String,
    account_url: String,
    college: String,
}

impl PlanLetter {
    async fn new(state: &AppState, order_id: &str, payment_method: &str) -> anyhow::Result<Self> {
        Ok(PlanLetter {
            card: card_label(state, order_id, payment_method).await,
            account_url: format!("{}/account/", state.config.public_url),
            college: state.db.college().await?.name,
        })
    }

    fn mail(&self, booking: &EnrollmentRecord, plan: &PlanRecord) -> Mail {
        plan_mail(booking, plan, &self.card, &self.account_url, &self.college)
    }
}

/// How the student knows saved card `payment_method` of booking `order_id`:
/// `Visa ending 4242`, or generically when the provider cannot say.
pub async fn card_label(state: &AppState, order_id: &str, payment_method: &str) -> String {
    match state.payments.saved_card(payment_method).await {
        Ok(card) => card.label,
        Err(error) => {
            tracing::warn!(%error, order = %order_id, "The saved card could not be read; the plan names it generically");
            "saved card".to_owned()
        }
    }
}

/// The mail that tells the student of `booking` the parts of `plan`, paid
/// from `card`.
pub fn plan_mail(booking: &EnrollmentRecord, plan: &PlanRecord, card: &str, account_url: &str, college: &str) -> Mail {
    let to = PlanBooking {
        reference: &booking.reference,
        given_name: &booking.given_name,
        email: &booking.email,
        courses: &booking.courses,
        card,
    };
    plan_agreed(&to, &plan.instalments(), account_url, college)
}

/// A charge the provider refused after taking it on: the part is tried
/// again on the college's schedule.
pub async fn charge_failed(state: &AppState, intent_id: &str, message: &str) -> anyhow::Result<()> {
    let settings = state.db.plan_settings().await?;
    if state.db.part_charge_failed(intent_id, message, &settings, Utc::now()).await? {
        tracing::warn!(intent = %intent_id, message, "An instalment's charge failed; it is tried again");
    }
    Ok(())
}

/// Charges the parts due `now`, each once; answers how many charges the
/// bank took on.
pub async fn charge_due_parts(state: &AppState, now: DateTime<Utc>) -> anyhow::Result<usize> {
    charge_parts_due(state, now, None).await
}

/// Charges the parts due `now` of booking `only`, or of every booking, each
/// once; answers how many charges the bank took on.
pub async fn charge_parts_due(state: &AppState, now: DateTime<Utc>, only: Option<&str>) -> anyhow::Result<usize> {
    let mut accepted = 0;
    let due = state.db.parts_due(now).await?;
    for (part_id, order_id) in due.into_iter().filter(|(_, order)| only.is_none_or(|only| only == order)) {
        let Some(claim) = state.db.claim_part(&part_id, &order_id, now).await? else { continue };
        if charge(state, &claim, now).await? {
            accepted += 1;
        }
    }
    Ok(accepted)
}

/// Charges one claimed part and records what the bank said: whether it
/// took the charge on.
async fn charge(state: &AppState, claim: &ClaimedPart, now: DateTime<Utc>) -> anyhow::Result<bool> {
    let booking = &claim.booking;
    let metadata = BTreeMap::from([
        (ORDER_ID_KEY.to_owned(), booking.id.clone()),
        ("type".to_owned(), INSTALMENT_METADATA_TYPE.to_owned()),
        (INSTALMENT_ID_KEY.to_owned(), claim.part_id.clone()),
        ("instalment".to_owned(), claim.instalment.number.to_string()),
        ("reference".to_owned(), booking.reference.clone()),
    ]);
    let request = SavedCardCharge {
        idempotency_key: format!("instalment-{}-{}", claim.part_id, claim.attempt),
        amount: claim.amount,
        customer: claim.customer.clone(),
        payment_method: claim.payment_method.clone(),
        metadata,
    };
    let outcome = match state.payments.charge_saved_card(&request).await {
        Ok(outcome) => outcome,
        // The provider refused the request itself (no such card, say): as a decline.
        Err(GatewayError::Refused(message)) => ChargeOutcome::Declined { intent_id: None, message },
        // Unreachable: the claim stays, and is sent again with the same key once it is stale.
        Err(unavailable) => return Err(unavailable.into()),
    };
    let (intent_id, message, authenticate) = match &outcome {
        ChargeOutcome::Accepted { intent_id } => {
            state.db.record_part_charge(claim, &PartCharged::Accepted { intent_id }, now).await?;
            tracing::info!(order = %booking.id, part = claim.instalment.number, amount = claim.amount.pence(), %intent_id, "Instalment charged");
            return Ok(true);
        }
        ChargeOutcome::NeedsAuthentication { intent_id } => (intent_id.as_deref(), "Your bank asked you to confirm the payment.", true),
        ChargeOutcome::Declined { intent_id, message } => (intent_id.as_deref(), message.as_str(), false),
    };
    let settings = state.db.plan_settings().await?;
    let retry_at = settings.next_attempt(claim.attempt, now);
    let mut link = new_balance_link(state, now);
    link.url = format!("{}&amount={}", link.url, claim.amount.pence());
    let college = state.db.college().await?.name;
    let to = PlanBooking {
        reference: &booking.reference,
        given_name: &booking.given_name,
        email: &booking.email,
        courses: &booking.courses,
        card: &claim.card_label,
    };
    let refusal =
        Refusal { part: &claim.instalment, asked: claim.amount, authenticate, retry_on: retry_at.map(london::today), pay_url: &link.url };
    let mail = part_refused(&to, &refusal, &college, london::today(now));
    state.db.record_part_charge(claim, &PartCharged::Refused { intent_id, message, retry_at, mail: &mail, link: &link }, now).await?;
    tracing::warn!(order = %booking.id, part = claim.instalment.number, authenticate, message, "Instalment refused by the bank");
    Ok(false)
}
