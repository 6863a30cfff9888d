//! Instalment plans (decision 036): which plans a booking may have, the
//! parts and days of one, what a part still asks for once payments are
//! counted, when a refused charge is tried again, and the plan's mails.
//! Pure rules; the database and the job carry them out.

use chrono::{DateTime, Duration, Months, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::enrollment::{BookedCourse, PAYMENT_PLAN_THRESHOLD, Quote};
use crate::london::long_date;
use crate::mail::Mail;
use crate::money::Money;

/// The fewest parts a plan has.
pub const LEAST_INSTALMENTS: u32 = 2;
/// The most the college may allow.
pub const MOST_INSTALMENTS: u32 = 12;
/// The metadata `type` of an off-session payment intent that charges a part.
pub const INSTALMENT_METADATA_TYPE: &str = "instalment";
/// The metadata key naming the part an intent charges.
pub const INSTALMENT_ID_KEY: &str = "instalment_id";
/// The metadata `type` of a setup intent that saves a plan's card from the
/// balance page.
pub const PLAN_CARD_METADATA_TYPE: &str = "plan-card";

/// What the college sets (`plan_settings`), as staff send it too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct PlanSettings {
    /// The most parts a plan may have, 2 to 12.
    pub max_instalments: u32,
    /// Days after a refused charge to try again, in order; after the last
    /// the part is left to the student and staff.
    pub retry_days: Vec<u32>,
}

impl Default for PlanSettings {
    fn default() -> Self {
        PlanSettings { max_instalments: 6, retry_days: vec![3, 7] }
    }
}

/// Why settings were not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsRefused {
    #[error("A plan may have {LEAST_INSTALMENTS} to {MOST_INSTALMENTS} instalments.")]
    Count,
    #[error("Retries are 1 to 28 days apart, at most 5 of them.")]
    Retries,
}

impl PlanSettings {
    pub fn check(&self) -> Result<(), SettingsRefused> {
        if !(LEAST_INSTALMENTS..=MOST_INSTALMENTS).contains(&self.max_instalments) {
            return Err(SettingsRefused::Count);
        }
        if self.retry_days.len() > 5 || self.retry_days.iter().any(|d| !(1..=28).contains(d)) {
            return Err(SettingsRefused::Retries);
        }
        Ok(())
    }

    /// When a part refused for the `failures`th time at `at` is tried
    /// again; `None` once the retries are spent.
    pub fn next_attempt(&self, failures: u32, at: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let days = self.retry_days.get(usize::try_from(failures).ok()?.checked_sub(1)?)?;
        Some(at + Duration::days(i64::from(*days)))
    }
}

/// One part of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Instalment {
    /// 1 for the first.
    pub number: u32,
    #[ts(type = "string")]
    #[schema(value_type = String, format = Date)]
    pub due_on: NaiveDate,
    #[ts(type = "number")]
    #[schema(value_type = i64)]
    pub amount: Money,
}

/// Why a plan cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanRefused {
    #[error("Payment plans are for training totals of {PAYMENT_PLAN_THRESHOLD} or more.")]
    BelowThreshold,
    #[error("This booking has no balance left to spread.")]
    NoBalance,
    #[error("Training starts too soon for a payment plan: the balance is due on {0}.")]
    TooSoon(String),
    #[error("Choose {LEAST_INSTALMENTS} to {0} instalments.")]
    Count(u32),
}

/// The day part `number` of a plan agreed on `agreed_on` is due: that many
/// calendar months later (31 January, then 28 or 29 February).
pub fn part_due_on(agreed_on: NaiveDate, number: u32) -> NaiveDate {
    agreed_on.checked_add_months(Months::new(number)).unwrap_or(NaiveDate::MAX)
}

/// The most parts a balance due on `due_on` may be spread over when agreed
/// on `agreed_on`: the last must fall on or before the due day. Fewer than
/// [`LEAST_INSTALMENTS`] means no plan.
pub fn most_instalments(agreed_on: NaiveDate, due_on: NaiveDate, settings: &PlanSettings) -> u32 {
    (1..=settings.max_instalments).take_while(|n| part_due_on(agreed_on, *n) <= due_on).last().unwrap_or(0)
}

/// The parts of `balance` spread over `count` months from `agreed_on`:
/// equal in whole pence, the first carrying what is left over, so they add
/// up to the balance exactly.
pub fn schedule(balance: Money, count: u32, agreed_on: NaiveDate) -> Vec<Instalment> {
    let n = i64::from(count.max(1));
    let (each, left_over) = (balance.pence() / n, balance.pence() % n);
    (1..=count.max(1))
        .map(|number| Instalment {
            number,
            due_on: part_due_on(agreed_on, number),
            amount: Money::from_pence(if number == 1 { each + left_over } else { each }),
        })
        .collect()
}

/// The counts a booking priced `quote`, its balance due on `due_on`, may
/// choose from when agreed on `agreed_on`.
pub fn plan_choices(quote: &Quote, agreed_on: NaiveDate, due_on: NaiveDate, settings: &PlanSettings) -> Result<Vec<u32>, PlanRefused> {
    plan_choices_for(quote.total, quote.balance, agreed_on, due_on, settings)
}

/// The counts a booking whose training costs `total` may spread `balance`
/// (what is still owed) over, due on `due_on`, agreed on `agreed_on`.
pub fn plan_choices_for(
    total: Money,
    balance: Money,
    agreed_on: NaiveDate,
    due_on: NaiveDate,
    settings: &PlanSettings,
) -> Result<Vec<u32>, PlanRefused> {
    if total < PAYMENT_PLAN_THRESHOLD {
        return Err(PlanRefused::BelowThreshold);
    }
    if balance <= Money::ZERO {
        return Err(PlanRefused::NoBalance);
    }
    let most = most_instalments(agreed_on, due_on, settings);
    if most < LEAST_INSTALMENTS {
        return Err(PlanRefused::TooSoon(long_date(due_on)));
    }
    Ok((LEAST_INSTALMENTS..=most).collect())
}

/// The plan of `count` parts a booking priced `quote` may have, agreed on
/// `agreed_on` with its balance due on `due_on`.
pub fn check_plan(
    quote: &Quote,
    count: u32,
    agreed_on: NaiveDate,
    due_on: NaiveDate,
    settings: &PlanSettings,
) -> Result<Vec<Instalment>, PlanRefused> {
    check_plan_for(quote.total, quote.balance, count, agreed_on, due_on, settings)
}

/// The plan of `count` parts spreading `balance` of a booking whose
/// training costs `total`, agreed on `agreed_on`, due on `due_on`.
pub fn check_plan_for(
    total: Money,
    balance: Money,
    count: u32,
    agreed_on: NaiveDate,
    due_on: NaiveDate,
    settings: &PlanSettings,
) -> Result<Vec<Instalment>, PlanRefused> {
    let choices = plan_choices_for(total, balance, agreed_on, due_on, settings)?;
    if !choices.contains(&count) {
        return Err(PlanRefused::Count(choices.last().copied().unwrap_or(LEAST_INSTALMENTS)));
    }
    Ok(schedule(balance, count, agreed_on))
}

/// How much of part `number` of `parts` is still to be paid when
/// `paid_to_balance` (payments less refunds, less the booking fee) has
/// been paid towards the balance: parts are covered in order, so an
/// early or extra payment shrinks or removes the later charges.
pub fn still_asked(parts: &[Instalment], number: u32, paid_to_balance: Money) -> Money {
    let through: i64 = parts.iter().filter(|p| p.number <= number).map(|p| p.amount.pence()).sum();
    let Some(part) = parts.iter().find(|p| p.number == number) else { return Money::ZERO };
    Money::from_pence((through - paid_to_balance.pence()).clamp(0, part.amount.pence()))
}

/// The parts `paid_to_balance` covers in full.
pub fn covered(parts: &[Instalment], paid_to_balance: Money) -> Vec<u32> {
    parts.iter().filter(|p| still_asked(parts, p.number, paid_to_balance) == Money::ZERO).map(|p| p.number).collect()
}

/// A plan's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PlanStatus {
    /// Agreed, its card not yet saved: by the booking fee at checkout, or
    /// by a setup intent on the balance page.
    AwaitingFee,
    Active,
    /// Paused by staff: nothing is charged until resumed.
    Paused,
    /// Every part paid.
    Completed,
    Cancelled,
}

impl PlanStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PlanStatus::AwaitingFee => "awaiting_fee",
            PlanStatus::Active => "active",
            PlanStatus::Paused => "paused",
            PlanStatus::Completed => "completed",
            PlanStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [PlanStatus::AwaitingFee, PlanStatus::Active, PlanStatus::Paused, PlanStatus::Completed, PlanStatus::Cancelled]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// A part's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PartStatus {
    /// Waiting for its day.
    Scheduled,
    /// A charge is being made; its outcome has not arrived.
    Charging,
    /// The bank refused or wanted the student: tried again on `next_attempt_at`.
    Retrying,
    /// Refused every time: the student or staff must act.
    Failed,
    Paid,
    Cancelled,
}

impl PartStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PartStatus::Scheduled => "scheduled",
            PartStatus::Charging => "charging",
            PartStatus::Retrying => "retrying",
            PartStatus::Failed => "failed",
            PartStatus::Paid => "paid",
            PartStatus::Cancelled => "cancelled",
        }
    }

    /// A part the bank refused (or wanted the student for): tried again
    /// when a retry is left, at `retry_at` ([`PlanSettings::next_attempt`]),
    /// else failed.
    pub fn refused(retry_at: Option<DateTime<Utc>>) -> Self {
        if retry_at.is_some() { PartStatus::Retrying } else { PartStatus::Failed }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [PartStatus::Scheduled, PartStatus::Charging, PartStatus::Retrying, PartStatus::Failed, PartStatus::Paid, PartStatus::Cancelled]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// What staff do to a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanChange {
    Pause,
    Resume,
    Cancel,
    /// Part `number` is charged on `due_on` instead.
    MovePart {
        number: u32,
        due_on: NaiveDate,
    },
}

/// Why a change was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanChangeRefused {
    #[error("This plan is {0}: it cannot be changed so.")]
    Status(&'static str),
    #[error("That instalment has been paid or cancelled, or is being charged now.")]
    PartSettled,
    #[error("The plan has no instalment {0}.")]
    NoSuchPart(u32),
    /// The first and last days it may move to: after the part before it
    /// and today, before the part after it and the balance due day.
    #[error("Choose a day from {0} to {1}, so the instalments stay in order and end by the day the balance is due.")]
    Day(String, String),
}

/// Whether `change` may be made `today` to a plan in `status` whose
/// balance is due by `last_day`; `part` is the moved part's status (`None`
/// inside: no such part) and `neighbours` the days of the parts before and
/// after it, between which it stays, so the parts are charged in order.
pub fn check_plan_change(
    status: PlanStatus,
    change: &PlanChange,
    part: Option<Option<PartStatus>>,
    today: NaiveDate,
    last_day: NaiveDate,
    neighbours: (Option<NaiveDate>, Option<NaiveDate>),
) -> Result<(), PlanChangeRefused> {
    let allowed = match change {
        PlanChange::Pause => status == PlanStatus::Active,
        PlanChange::Resume => status == PlanStatus::Paused,
        PlanChange::Cancel | PlanChange::MovePart { .. } => matches!(status, PlanStatus::Active | PlanStatus::Paused),
    };
    if !allowed {
        return Err(PlanChangeRefused::Status(status.as_str()));
    }
    if let PlanChange::MovePart { number, due_on } = change {
        match part.flatten() {
            None => return Err(PlanChangeRefused::NoSuchPart(*number)),
            Some(PartStatus::Scheduled | PartStatus::Retrying | PartStatus::Failed) => {}
            Some(_) => return Err(PlanChangeRefused::PartSettled),
        }
        let tomorrow = today.succ_opt().unwrap_or(today);
        let earliest = neighbours.0.map_or(tomorrow, |before| before.max(tomorrow));
        let latest = neighbours.1.map_or(last_day, |after| after.min(last_day));
        if *due_on < earliest || *due_on > latest {
            return Err(PlanChangeRefused::Day(long_date(earliest), long_date(latest)));
        }
    }
    Ok(())
}

/// A plan's booking, as its mails name it.
#[derive(Debug, Clone, Copy)]
pub struct PlanBooking<'a> {
    pub reference: &'a str,
    pub given_name: &'a str,
    pub email: &'a str,
    pub courses: &'a [BookedCourse],
    /// The card the parts are charged to: `Visa ending 4242`.
    pub card: &'a str,
}

impl PlanBooking<'_> {
    fn greeting(&self) -> String {
        if self.given_name.is_empty() { "Hello".to_owned() } else { format!("Dear {}", self.given_name) }
    }

    fn courses(&self) -> String {
        self.courses.iter().map(|c| format!("- {}\n", c.title)).collect()
    }
}

fn part_lines(parts: &[Instalment]) -> String {
    parts.iter().map(|p| format!("Instalment {}: {} on {}\n", p.number, p.amount, long_date(p.due_on))).collect()
}

/// The mail that confirms a plan once its booking fee is paid.
pub fn plan_agreed(booking: &PlanBooking<'_>, parts: &[Instalment], account_url: &str, college: &str) -> Mail {
    let total: Money = parts.iter().map(|p| p.amount).sum();
    let body = format!(
        "{},\n\nYour payment plan is set up. We will take the balance of your booking, {total}, in {} monthly instalments from \
         your {} on these days:\n\n{}\nThere is no interest and there are no fees. Each payment gets its own receipt. You can pay \
         off the rest early from your account at any time; to use another card, reply to this email.\n\nYour account: {account_url}\n\n\
         Booking reference {}\n{}\n{college}\n",
        booking.greeting(),
        parts.len(),
        booking.card,
        part_lines(parts),
        booking.reference,
        booking.courses(),
    );
    Mail {
        to: booking.email.to_owned(),
        reply_to: None,
        subject: format!("Your payment plan: {} instalments", parts.len()),
        body,
        attachment: None,
    }
}

/// A part the bank refused, as its one mail tells it.
#[derive(Debug, Clone, Copy)]
pub struct Refusal<'a> {
    pub part: &'a Instalment,
    /// What the part still asks for.
    pub asked: Money,
    /// The bank asked for the student to confirm the payment.
    pub authenticate: bool,
    /// When the card is tried again, if it is.
    pub retry_on: Option<NaiveDate>,
    /// Where the student pays the part, without signing in.
    pub pay_url: &'a str,
}

/// The one mail of a part the bank refused, sent `today`.
pub fn part_refused(booking: &PlanBooking<'_>, refusal: &Refusal<'_>, college: &str, today: NaiveDate) -> Mail {
    let (part, asked) = (refusal.part, refusal.asked);
    let why = if refusal.authenticate {
        format!(
            "Your bank asked for you to confirm the payment of instalment {} ({asked}) from your {}, so we could not take it.",
            part.number, booking.card
        )
    } else {
        format!("We could not take instalment {} ({asked}) from your {}: the payment was declined.", part.number, booking.card)
    };
    let next = match refusal.retry_on {
        Some(day) if day > today => format!("If it is not paid before then, we will try the card again on {}.", long_date(day)),
        _ => "If you cannot pay it, please reply to this email and we will help.".to_owned(),
    };
    let body = format!(
        "{},\n\n{why}\n\nPlease pay it {} (you do not need to sign in):\n\nPay instalment {}: {}\n\n{next}\n\n\
         Booking reference {}\n{}\n{college}\n",
        booking.greeting(),
        if part.due_on <= today { "now".to_owned() } else { format!("by {}", long_date(part.due_on)) },
        part.number,
        refusal.pay_url,
        booking.reference,
        booking.courses(),
    );
    Mail {
        to: booking.email.to_owned(),
        reply_to: None,
        subject: format!("Action needed: instalment {} of {asked}", part.number),
        body,
        attachment: None,
    }
}

#[cfg(test)]
mod tests;
