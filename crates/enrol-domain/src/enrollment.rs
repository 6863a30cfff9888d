//! Pricing an in-person enrolment (docs/product.md#pricing): course or session prices, kits,
//! discount codes, the booking fee and the payment mode.
//!
//! The browser shows the same figures from `web/src/features/checkout/pricing.ts`;
//! both are checked against `pricing-vectors.json` beside this file, so the
//! page and the server always agree. The server's answer is the one charged.

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::money::Money;
use crate::page::{EnrollmentLine, SessionType};

/// The booking fee (deposit) per course.
pub const BOOKING_FEE: Money = Money::from_pence(10_000);
/// The payment-plan panel is offered from this total.
pub const PAYMENT_PLAN_THRESHOLD: Money = Money::from_pence(100_000);
/// The balance after the booking fee is due this many days before training.
pub const BALANCE_DUE_DAYS: u64 = 14;
/// Clearpay's UK limit: it is not offered on larger totals.
pub const CLEARPAY_LIMIT: Money = Money::from_pence(120_000);

/// A discount code's `type`: percent or pounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum DiscountType {
    /// `value` is in pence.
    Pound,
    /// `value` is a whole percentage of the subtotal.
    Percent,
}

impl DiscountType {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pound" => Some(Self::Pound),
            "percent" => Some(Self::Percent),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pound => "pound",
            Self::Percent => "percent",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Discount {
    #[serde(rename = "type")]
    pub kind: DiscountType,
    #[ts(type = "number")]
    pub value: i64,
}

impl Discount {
    /// What the discount takes off `reached`, what the courses it applies
    /// to add up to: never more than that. Percentages round to the
    /// nearest penny, halves up.
    pub fn amount_off(self, reached: Money) -> Money {
        let off = match self.kind {
            DiscountType::Pound => self.value,
            DiscountType::Percent => (reached.pence() * self.value.clamp(0, 100) + 50) / 100,
        };
        Money::from_pence(off.clamp(0, reached.pence()))
    }
}

/// The payment mode: the booking fee by card, or the full total (card, or a
/// buy-now-pay-later method, which pays the college in full).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum PaymentMode {
    Fee,
    Full,
}

impl PaymentMode {
    /// The payment intent's metadata `type`.
    pub fn metadata_type(self) -> &'static str {
        match self {
            PaymentMode::Fee => "booking-fee",
            PaymentMode::Full => "full-amount",
        }
    }

    pub fn from_metadata_type(raw: &str) -> Option<Self> {
        match raw {
            "booking-fee" => Some(PaymentMode::Fee),
            "full-amount" => Some(PaymentMode::Full),
            _ => None,
        }
    }
}

/// The payment methods: a card pays the booking fee; Klarna and Clearpay
/// (buy now, pay later) pay the college the full total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PaymentMethod {
    Card,
    Klarna,
    AfterpayClearpay,
}

impl PaymentMethod {
    /// The provider's name for it (`payment_method_types`).
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Card => "card",
            PaymentMethod::Klarna => "klarna",
            PaymentMethod::AfterpayClearpay => "afterpay_clearpay",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [PaymentMethod::Card, PaymentMethod::Klarna, PaymentMethod::AfterpayClearpay].into_iter().find(|m| m.as_str() == raw)
    }

    /// Its name in the buyer's words.
    pub fn label(self) -> &'static str {
        match self {
            PaymentMethod::Card => "Card",
            PaymentMethod::Klarna => "Klarna",
            PaymentMethod::AfterpayClearpay => "Clearpay",
        }
    }

    /// What it pays: the booking fee (a card) or the full total.
    pub fn mode(self) -> PaymentMode {
        match self {
            PaymentMethod::Card => PaymentMode::Fee,
            PaymentMethod::Klarna | PaymentMethod::AfterpayClearpay => PaymentMode::Full,
        }
    }
}

/// One course of the enrolment, priced from the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct LinePrice {
    /// The chosen session's price, or the course's when it has no date.
    #[ts(type = "number")]
    pub price: Money,
    /// Kit prices are whole pounds; `None` when no kit is taken.
    #[ts(type = "number | null")]
    pub kit_pounds: Option<i64>,
    /// Whether the order's discount code takes money off this course: a
    /// code limited to some courses or sections reaches only theirs
    /// ([`CodeReach`](crate::codes::CodeReach), decision 017).
    pub code_applies: bool,
}

impl LinePrice {
    pub fn amount(self) -> Money {
        self.price + Money::from_pounds(self.kit_pounds.unwrap_or(0))
    }
}

/// The figures of an enrolment: total, deposit, balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Quote {
    /// 'Your training total' before any discount.
    #[ts(type = "number")]
    pub subtotal: Money,
    #[ts(type = "number")]
    pub discount: Money,
    /// What the training costs after the discount.
    #[ts(type = "number")]
    pub total: Money,
    /// The booking fee: 10000 pence per course, never more than the total.
    #[ts(type = "number")]
    pub deposit: Money,
    /// What is left after the booking fee.
    #[ts(type = "number")]
    pub balance: Money,
}

impl Quote {
    /// The figures of `lines` with `discount`, which is worked out on the
    /// lines its code applies to (with an unlimited code, the subtotal).
    pub fn new(lines: &[LinePrice], discount: Option<Discount>) -> Self {
        let subtotal: Money = lines.iter().map(|line| line.amount()).sum();
        let reached: Money = lines.iter().filter(|line| line.code_applies).map(|line| line.amount()).sum();
        let discount = discount.map_or(Money::ZERO, |d| d.amount_off(reached));
        let total = Money::from_pence(subtotal.pence() - discount.pence());
        let fees = Money::from_pence(BOOKING_FEE.pence() * i64::try_from(lines.len()).unwrap_or(i64::MAX / BOOKING_FEE.pence()));
        let deposit = fees.min(total);
        Quote { subtotal, discount, total, deposit, balance: Money::from_pence(total.pence() - deposit.pence()) }
    }

    /// What is charged now in `mode`.
    pub fn amount_due(&self, mode: PaymentMode) -> Money {
        match mode {
            PaymentMode::Fee => self.deposit,
            PaymentMode::Full => self.total,
        }
    }

    /// The payment-plan panel is shown from £1,000.
    pub fn offers_payment_plan(&self) -> bool {
        self.total >= PAYMENT_PLAN_THRESHOLD
    }
}

/// The buy-now-pay-later and card methods offered for `mode` and `total`.
/// Klarna and Clearpay pay the college in full, so only the full total.
pub fn payment_methods(mode: PaymentMode, total: Money) -> Vec<PaymentMethod> {
    match mode {
        PaymentMode::Fee => vec![PaymentMethod::Card],
        PaymentMode::Full if total > CLEARPAY_LIMIT => vec![PaymentMethod::Card, PaymentMethod::Klarna],
        PaymentMode::Full => vec![PaymentMethod::Card, PaymentMethod::Klarna, PaymentMethod::AfterpayClearpay],
    }
}

/// The balance is due 14 days before the first day of training. The
/// college's terms: a booking made later than that has its balance due at
/// once, on the day it was booked (never a date already past).
pub fn balance_due_on(first_training_day: NaiveDate, booked_on: NaiveDate) -> NaiveDate {
    first_training_day.checked_sub_days(Days::new(BALANCE_DUE_DAYS)).unwrap_or(first_training_day).max(booked_on.min(first_training_day))
}

/// Whether a booking whose first day of training is `first_training_day`,
/// made `today`, would owe its balance at once: training starts within 14
/// days, so the balance is due the day it is booked (the college's terms:
/// paid in full at checkout, or the booking fee and then the balance that day).
pub fn balance_due_at_once(first_training_day: Option<NaiveDate>, today: NaiveDate) -> bool {
    first_training_day.is_some_and(|day| balance_due_on(day, today) <= today)
}

/// When a booking's balance is due: the day kept when its booking fee was
/// paid, or, for one not paid yet, the day the terms would set if it were
/// paid on `paid_on`.
pub fn balance_due(kept: Option<NaiveDate>, courses: &[BookedCourse], paid_on: NaiveDate) -> Option<NaiveDate> {
    kept.or_else(|| first_training_day(courses).map(|day| balance_due_on(day, paid_on)))
}

/// A course of an enrollment as it was booked and priced; kept with the
/// enrollment so its record never changes with the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BookedCourse {
    pub course_id: String,
    /// The event (bookable product) of the course.
    pub event_id: String,
    pub session_id: Option<String>,
    pub title: String,
    pub url: String,
    pub date: Option<NaiveDate>,
    pub session_type: Option<SessionType>,
    /// The kit taken, with its price in whole pounds.
    pub kit_name: Option<String>,
    pub kit_pounds: Option<i64>,
    pub price: Money,
}

impl BookedCourse {
    /// Its price, as a code with no limits discounts it; a code limited to
    /// some courses prices it with [`CodeReach::line_prices`](crate::codes::CodeReach::line_prices).
    pub fn line_price(&self) -> LinePrice {
        LinePrice { price: self.price, kit_pounds: self.kit_pounds, code_applies: true }
    }

    pub fn line(&self) -> EnrollmentLine {
        EnrollmentLine {
            title: self.title.clone(),
            course_url: self.url.clone(),
            date: self.date.map(|d| d.to_string()),
            session_type: self.session_type,
            kit_name: self.kit_name.clone(),
            amount: self.line_price().amount(),
        }
    }
}

/// The first day of training among `courses`, if any is dated.
pub fn first_training_day(courses: &[BookedCourse]) -> Option<NaiveDate> {
    courses.iter().filter_map(|c| c.date).min()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One case of `balance-due-vectors.json`, which the web's checkout
    /// runs too: the due date a booking gets, and whether it pays in full.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct DueVector {
        name: String,
        first_training_day: NaiveDate,
        today: NaiveDate,
        due_on: NaiveDate,
        at_once: bool,
    }

    #[test]
    fn balance_due_vectors_hold() {
        let vectors: Vec<DueVector> = serde_json::from_str(include_str!("balance-due-vectors.json")).expect("valid vectors");
        assert!(vectors.len() >= 5);
        for v in vectors {
            let due_on = balance_due_on(v.first_training_day, v.today);
            assert_eq!(due_on, v.due_on, "{}", v.name);
            assert!(due_on >= v.today.min(v.first_training_day), "{}: a due date is never past", v.name);
            assert_eq!(balance_due_at_once(Some(v.first_training_day), v.today), v.at_once, "{}", v.name);
        }
        assert!(!balance_due_at_once(None, NaiveDate::from_ymd_opt(2026, 11, 26).expect("a day")), "an undated booking pays the fee");
    }

    #[derive(Deserialize)]
    struct Vector {
        name: String,
        lines: Vec<LinePrice>,
        discount: Option<Discount>,
        expect: Expected,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Expected {
        subtotal: Money,
        discount: Money,
        total: Money,
        deposit: Money,
        balance: Money,
        due_fee: Money,
        due_full: Money,
        payment_plan: bool,
    }

    #[test]
    fn prices_every_shared_vector() {
        let vectors: Vec<Vector> = serde_json::from_str(include_str!("pricing-vectors.json")).expect("valid vectors");
        assert!(vectors.len() >= 10);
        for v in vectors {
            let quote = Quote::new(&v.lines, v.discount);
            let e = &v.expect;
            assert_eq!(
                (quote.subtotal, quote.discount, quote.total, quote.deposit, quote.balance),
                (e.subtotal, e.discount, e.total, e.deposit, e.balance),
                "{}",
                v.name
            );
            assert_eq!(quote.amount_due(PaymentMode::Fee), e.due_fee, "{}", v.name);
            assert_eq!(quote.amount_due(PaymentMode::Full), e.due_full, "{}", v.name);
            assert_eq!(quote.offers_payment_plan(), e.payment_plan, "{}", v.name);
        }
    }

    #[test]
    fn buy_now_pay_later_is_offered_on_the_full_total_only() {
        let names =
            |mode, pence| payment_methods(mode, Money::from_pence(pence)).into_iter().map(PaymentMethod::as_str).collect::<Vec<_>>();
        assert_eq!(names(PaymentMode::Fee, 50_000), ["card"]);
        assert_eq!(names(PaymentMode::Full, 120_000), ["card", "klarna", "afterpay_clearpay"]);
        assert_eq!(names(PaymentMode::Full, 120_001), ["card", "klarna"]);
    }

    #[test]
    fn the_balance_is_due_fourteen_days_before_training_or_at_once_when_booked_later() {
        let date = |m, d| NaiveDate::from_ymd_opt(if m == 1 { 2027 } else { 2026 }, m, d).unwrap();
        let training = date(1, 10);
        assert_eq!(balance_due_on(training, date(11, 25)), date(12, 27));
        assert_eq!(balance_due_on(training, date(12, 27)), date(12, 27));
        assert_eq!(balance_due_on(training, date(12, 30)), date(12, 30), "booked within 14 days: due the day it was booked");
        assert_eq!(balance_due_on(training, date(1, 10)), date(1, 10));
    }

    #[test]
    fn modes_round_trip_through_metadata() {
        for mode in [PaymentMode::Fee, PaymentMode::Full] {
            assert_eq!(PaymentMode::from_metadata_type(mode.metadata_type()), Some(mode));
        }
        assert_eq!(PaymentMode::from_metadata_type("deposit"), None);
    }
}
