//! The money of a grown history (decision 037): each booking priced as
//! checkout prices it, its booking fee and balance (or everything at
//! once) paid, a cancellation's refund as the terms give it
//! (`enrol_domain::cancellation`), and every receipt and credit note
//! numbered per prefix without gaps, in the order they were issued.

use chrono::{DateTime, Duration, NaiveDate, Utc};

use enrol_domain::cancellation::{CancellationRefund, cancellation_quote, spread_refund};
use enrol_domain::enrollment::{BookedCourse, Quote, balance_due_on};
use enrol_domain::grow::{self, Fate, Prng};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::page::SessionType;

use crate::grow::catalogue::Catalogue;
use crate::grow::history::{History, at_minutes, id_at};

/// What a booking costs and where its money stands.
#[derive(Debug, Clone)]
pub(crate) struct BookingMoney {
    pub booked: BookedCourse,
    pub quote: Quote,
    /// 'full' or 'fee'.
    pub mode: &'static str,
    /// 'deposit', 'completed' or 'cancelled'.
    pub status: &'static str,
    pub paid_at: DateTime<Utc>,
    pub balance_due_on: NaiveDate,
    /// Still owed once its balance fell due.
    pub overdue: bool,
    /// When its balance was paid, if it was paid apart from the fee.
    pub balance_paid_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone)]
pub(crate) struct Payment {
    pub id: String,
    pub transaction_id: String,
    pub amount: i64,
    pub at: DateTime<Utc>,
    pub method: &'static str,
    pub booking: Option<usize>,
    pub online_order: Option<usize>,
    /// Refunded of it so far.
    pub refunded: i64,
    /// What its purchase held with it.
    pub paid_to_date: i64,
    /// Its receipt's number in the prefix's sequence.
    pub receipt: i64,
}

#[derive(Debug, Clone)]
pub(crate) struct Refund {
    pub id: String,
    pub payment: usize,
    pub amount: i64,
    pub created_at: DateTime<Utc>,
    pub completed_at: DateTime<Utc>,
    pub paid_to_date: i64,
    pub credit_note: i64,
}

pub(crate) struct Ledger {
    pub bookings: Vec<BookingMoney>,
    pub payments: Vec<Payment>,
    pub refunds: Vec<Refund>,
    pub last_receipt: i64,
    pub last_credit_note: i64,
}

/// What `history` paid, was refunded and was issued, as of `now`.
pub(crate) fn ledger(rng: &mut Prng, history: &History, catalogue: &Catalogue, now: DateTime<Utc>) -> Ledger {
    let mut ledger = Ledger { bookings: Vec::new(), payments: Vec::new(), refunds: Vec::new(), last_receipt: 0, last_credit_note: 0 };
    for (index, booking) in history.bookings.iter().enumerate() {
        let session = &history.sessions[booking.session];
        let course = &catalogue.courses[session.course];
        let booked = BookedCourse {
            course_id: course.course_id.clone(),
            event_id: course.event_id.clone(),
            session_id: Some(session.id.clone()),
            title: course.title.clone(),
            url: course.url.clone(),
            date: Some(session.date),
            session_type: SessionType::parse(&course.session_type),
            kit_name: None,
            kit_pounds: None,
            price: Money::from_pence(course.price),
        };
        let quote = Quote::new(&[booked.line_price()], None);
        let booked_on = london::today(booking.created_at);
        let due_on = balance_due_on(session.date, booked_on);
        let full = grow::pays_in_full(rng) || due_on <= booked_on || quote.balance == Money::ZERO;
        let first = ledger.payments.len();
        let mut balance_paid_at = None;
        if full {
            let method = if quote.total.pence() <= 120_000 && rng.chance(0.1) { "klarna" } else { "card" };
            pay(&mut ledger, rng, index, quote.total, booking.created_at, method);
        } else {
            pay(&mut ledger, rng, index, quote.deposit, booking.created_at, "card");
            let paid_on = grow::balance_paid_on(rng, booked_on, due_on, history.today);
            let by = booking.cancelled_at.map(london::today);
            if let Some(day) = paid_on.filter(|day| by.is_none_or(|cancelled| *day < cancelled)) {
                let at = at_minutes(day, rng.between(8 * 60, 21 * 60)).min(now).max(booking.created_at);
                balance_paid_at = Some(at);
                pay(&mut ledger, rng, index, quote.balance, at, "card");
            }
        }
        let paid: i64 = ledger.payments[first..].iter().map(|p| p.amount).sum();
        let mut running = 0;
        for payment in &mut ledger.payments[first..] {
            running += payment.amount;
            payment.paid_to_date = running;
        }
        let mut status = if paid >= quote.total.pence() { "completed" } else { "deposit" };
        if let (Fate::Cancelled, Some(cancelled_at)) = (booking.fate, booking.cancelled_at) {
            status = "cancelled";
            refund_cancellation(&mut ledger, rng, first, booked_on, session.date, cancelled_at, &quote, now);
        }
        let overdue = status == "deposit" && due_on < history.today;
        ledger.bookings.push(BookingMoney {
            booked,
            quote,
            mode: if full { "full" } else { "fee" },
            status,
            paid_at: booking.created_at,
            balance_due_on: due_on,
            overdue,
            balance_paid_at,
        });
    }
    for (index, order) in history.online_orders.iter().enumerate() {
        let course = &catalogue.online[order.course];
        let id = id_at(rng, order.created_at);
        ledger.payments.push(Payment {
            transaction_id: format!("grown_cs_{}", id.replace('-', "")),
            id,
            amount: course.amount,
            at: order.created_at,
            method: "card",
            booking: None,
            online_order: Some(index),
            refunded: 0,
            paid_to_date: course.amount,
            receipt: 0,
        });
    }
    number_documents(&mut ledger, catalogue);
    ledger
}

/// A payment of `amount` towards booking `booking`, made at `at`.
fn pay(ledger: &mut Ledger, rng: &mut Prng, booking: usize, amount: Money, at: DateTime<Utc>, method: &'static str) {
    let id = id_at(rng, at);
    ledger.payments.push(Payment {
        transaction_id: format!("grown_pi_{}", id.replace('-', "")),
        id,
        amount: amount.pence(),
        at,
        method,
        booking: Some(booking),
        online_order: None,
        refunded: 0,
        paid_to_date: 0,
        receipt: 0,
    });
}

/// The refunds of a booking cancelled at `cancelled_at` whose payments
/// start at `first`: what the terms give back (staff cancel on the same
/// terms), spread over its payments newest first, each made an hour later.
#[allow(clippy::too_many_arguments)]
fn refund_cancellation(
    ledger: &mut Ledger,
    rng: &mut Prng,
    first: usize,
    booked_on: NaiveDate,
    starts_on: NaiveDate,
    cancelled_at: DateTime<Utc>,
    quote: &Quote,
    now: DateTime<Utc>,
) {
    let paid: Vec<(String, Money)> = ledger.payments[first..].iter().map(|p| (p.id.clone(), Money::from_pence(p.amount))).collect();
    let held: Money = paid.iter().map(|(_, amount)| *amount).sum();
    let cancelled_on = london::today(cancelled_at);
    let Ok(terms) = cancellation_quote(booked_on, cancelled_on, Some(starts_on), false, held, quote.deposit, CancellationRefund::Terms)
    else {
        return;
    };
    let mut left = held.pence();
    for (payment_id, piece) in spread_refund(&paid, terms.refund) {
        let Some(offset) = paid.iter().position(|(id, _)| id == payment_id) else { continue };
        let payment = first + offset;
        left -= piece.pence();
        ledger.payments[payment].refunded += piece.pence();
        ledger.refunds.push(Refund {
            id: id_at(rng, cancelled_at),
            payment,
            amount: piece.pence(),
            created_at: cancelled_at,
            completed_at: (cancelled_at + Duration::hours(1)).min(now).max(cancelled_at),
            paid_to_date: left,
            credit_note: 0,
        });
    }
}

/// Numbers every receipt and credit note in the order they were issued,
/// each prefix on from where the database's own numbering had got to.
fn number_documents(ledger: &mut Ledger, catalogue: &Catalogue) {
    // (issued at, 0 receipt / 1 credit note, index)
    let mut issued: Vec<(DateTime<Utc>, u8, usize)> = ledger.payments.iter().enumerate().map(|(i, p)| (p.at, 0, i)).collect();
    issued.extend(ledger.refunds.iter().enumerate().map(|(i, r)| (r.completed_at, 1, i)));
    issued.sort_unstable();
    let (mut receipt, mut credit_note) = (catalogue.last_receipt, catalogue.last_credit_note);
    for (_, kind, index) in issued {
        if kind == 0 {
            receipt += 1;
            ledger.payments[index].receipt = receipt;
        } else {
            credit_note += 1;
            ledger.refunds[index].credit_note = credit_note;
        }
    }
    ledger.last_receipt = receipt;
    ledger.last_credit_note = credit_note;
}
