//! Writing a grown history's people, sessions, bookings and money
//! (decision 037), table by table in multi-row inserts, each row as the
//! code that makes it one at a time would write it: bookings' lines as
//! `BookedCourse` JSON, receipts as issued `Document`s, and the sessions'
//! counters equal to their kept bookings.

use chrono::{DateTime, Duration, Utc};

use enrol_domain::grow::{Fate, Prng};
use enrol_domain::issued_document::DocumentKind;
use enrol_domain::money::Money;
use enrol_domain::online_order::{LineItem, PricedLine};
use enrol_domain::receipt::{Document, Draft, Issuer, Purchase};

use crate::Backend;
use crate::grow::catalogue::{Catalogue, GROWN_STAFF_EMAIL};
use crate::grow::history::{History, token_hash};
use crate::grow::money::Ledger;
use crate::grow::rows::{Batch, GrowSteps, put, row};

/// Rows written, per table, in the order written.
pub(crate) type Counts = Vec<(&'static str, u64)>;

/// What the writers share.
pub(crate) struct Grown<'a> {
    pub backend: Backend,
    pub history: &'a History,
    pub ledger: &'a Ledger,
    pub catalogue: &'a Catalogue,
    pub issuer: &'a Issuer,
    pub password_hash: &'a str,
    pub staff_id: String,
    /// Enquiries to make.
    pub enquiries: u64,
    pub now: DateTime<Utc>,
}

impl Grown<'_> {
    pub fn batch(&self, table: &'static str, columns: &'static [&'static str]) -> Batch {
        Batch::new(self.backend, table, columns)
    }

    /// What booking `index` buys, as its receipts tell it.
    pub fn booking_purchase(&self, index: usize) -> Purchase {
        let booking = &self.history.bookings[index];
        let student = &self.history.students[booking.student];
        let money = &self.ledger.bookings[index];
        let name = format!("{} {}", student.given_name, student.family_name);
        Purchase::booking(&booking.reference, &name, &student.email, std::slice::from_ref(&money.booked), &money.quote)
    }

    /// The lines of online order `index`.
    pub fn online_lines(&self, index: usize) -> Vec<PricedLine> {
        let course = &self.catalogue.online[self.history.online_orders[index].course];
        vec![PricedLine {
            item: LineItem::Course { course_id: course.course_id.clone(), price_id: course.price_id.clone(), url: course.url.clone() },
            title: course.title.clone(),
            amount: Money::from_pence(course.amount),
        }]
    }

    fn online_purchase(&self, index: usize) -> Purchase {
        let order = &self.history.online_orders[index];
        let student = &self.history.students[order.student];
        let name = format!("{} {}", student.given_name, student.family_name);
        let amount = Money::from_pence(self.catalogue.online[order.course].amount);
        Purchase::online_order(&order.reference, &name, &student.email, &self.online_lines(index), amount)
    }

    /// The receipt of payment `index`, as issued.
    fn receipt(&self, index: usize) -> Document {
        let payment = &self.ledger.payments[index];
        let purchase = match (payment.booking, payment.online_order) {
            (Some(booking), _) => self.booking_purchase(booking),
            (None, Some(order)) => self.online_purchase(order),
            (None, None) => unreachable!("a grown payment pays a booking or an online order"),
        };
        Draft::receipt(self.issuer, &purchase, Money::from_pence(payment.amount), Money::from_pence(payment.paid_to_date), payment.method)
            .issue(payment.receipt, payment.at)
    }
}

fn json<T: serde::Serialize>(value: &T) -> sqlx::Result<String> {
    serde_json::to_string(value).map_err(|e| sqlx::Error::Encode(e.into()))
}

/// The member of staff the history's changes are made by (never able to
/// sign in: no password, not active), then the students.
pub(crate) async fn people<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut staff = g.batch("staff_account", &["id", "email", "name", "role", "password_hash", "totp_secret", "active", "created_at"]);
    put(
        conn,
        &mut staff,
        row![g.staff_id.clone(), GROWN_STAFF_EMAIL, "Front desk (grown history)", "staff", None::<String>, token_hash(rng), false, g.now],
    )
    .await?;
    conn.flush(&mut staff).await?;
    counts.push((staff.table(), staff.written));
    let mut users = g.batch(
        "user_account",
        &["id", "email", "given_name", "family_name", "contact_number", "password_hash", "email_verified_at", "created_at"],
    );
    for s in &g.history.students {
        let r = row![
            s.id.clone(),
            s.email.clone(),
            s.given_name.clone(),
            s.family_name.clone(),
            s.phone.clone(),
            Some(g.password_hash.to_owned()),
            Some(s.created_at),
            s.created_at,
        ];
        put(conn, &mut users, r).await?;
    }
    conn.flush(&mut users).await?;
    counts.push((users.table(), users.written));
    Ok(())
}

pub(crate) async fn sessions<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, counts: &mut Counts) -> sqlx::Result<()> {
    let mut batch = g.batch(
        "session",
        &["id", "event_id", "start_at", "end_at", "date", "price", "seat_price", "seats", "registrations", "type", "status"],
    );
    for s in &g.history.sessions {
        let course = &g.catalogue.courses[s.course];
        let r = row![
            s.id.clone(),
            course.event_id.clone(),
            s.start_at,
            s.end_at,
            s.date,
            course.price,
            course.price,
            s.seats,
            s.registrations,
            course.session_type.clone(),
            "active",
        ];
        put(conn, &mut batch, r).await?;
    }
    conn.flush(&mut batch).await?;
    counts.push((batch.table(), batch.written));
    Ok(())
}

/// The bookings and a registration each (a cancelled one's marked so).
pub(crate) async fn bookings<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut enrollments = g.batch(
        "enrollment",
        &[
            "id",
            "status",
            "mode",
            "subtotal",
            "discount",
            "total",
            "deposit",
            "balance",
            "deposit_required",
            "lines",
            "metadata",
            "given_name",
            "family_name",
            "email",
            "contact_number",
            "payment_method",
            "user_id",
            "registered",
            "created_at",
            "paid_at",
            "starts_on",
            "balance_due_on",
            "cancelled_at",
            "calendar_sequence",
            "reference",
        ],
    );
    let mut methods = vec!["card"; g.history.bookings.len()];
    for p in g.ledger.payments.iter().rev() {
        if let Some(b) = p.booking {
            methods[b] = p.method;
        }
    }
    for (index, b) in g.history.bookings.iter().enumerate() {
        let student = &g.history.students[b.student];
        let money = &g.ledger.bookings[index];
        let method = methods[index];
        let r = row![
            b.id.clone(),
            money.status,
            money.mode,
            money.quote.subtotal.pence(),
            money.quote.discount.pence(),
            money.quote.total.pence(),
            money.quote.deposit.pence(),
            money.quote.balance.pence(),
            true,
            json(&[&money.booked])?,
            "{}",
            student.given_name.clone(),
            student.family_name.clone(),
            student.email.clone(),
            student.phone.clone(),
            method,
            Some(student.id.clone()),
            true,
            b.created_at,
            Some(money.paid_at),
            money.booked.date,
            Some(money.balance_due_on),
            b.cancelled_at,
            i64::from(b.moved.is_some()),
            b.reference.clone(),
        ];
        put(conn, &mut enrollments, r).await?;
    }
    conn.flush(&mut enrollments).await?;
    counts.push((enrollments.table(), enrollments.written));

    let mut registrations =
        g.batch("registration", &["id", "event_id", "enrollment_id", "session_id", "status", "type", "user_id", "created_at", "attended"]);
    for b in &g.history.bookings {
        let session = &g.history.sessions[b.session];
        let course = &g.catalogue.courses[session.course];
        let cancelled = b.fate == Fate::Cancelled;
        let attended = (!cancelled && session.date < g.history.today).then(|| !rng.chance(0.04));
        let r = row![
            crate::grow::history::id_at(rng, b.created_at),
            course.event_id.clone(),
            b.id.clone(),
            session.id.clone(),
            if cancelled { "cancelled" } else { "active" },
            if cancelled { "CANCELLED" } else { "STUDENT" },
            Some(g.history.students[b.student].id.clone()),
            b.created_at,
            attended,
        ];
        put(conn, &mut registrations, r).await?;
    }
    conn.flush(&mut registrations).await?;
    counts.push((registrations.table(), registrations.written));
    Ok(())
}

/// The e-learning orders, paid, each with the course's access.
pub(crate) async fn online_orders<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut orders =
        g.batch("online_order", &["id", "status", "lines", "total", "gateway", "user_id", "email", "created_at", "paid_at", "reference"]);
    for (index, o) in g.history.online_orders.iter().enumerate() {
        let student = &g.history.students[o.student];
        let r = row![
            o.id.clone(),
            "paid",
            json(&g.online_lines(index))?,
            g.catalogue.online[o.course].amount,
            "sandbox",
            Some(student.id.clone()),
            Some(student.email.clone()),
            o.created_at,
            Some(o.created_at),
            o.reference.clone(),
        ];
        put(conn, &mut orders, r).await?;
    }
    conn.flush(&mut orders).await?;
    counts.push((orders.table(), orders.written));

    let mut access = g.batch(
        "online_registration",
        &[
            "id",
            "user_id",
            "online_order_id",
            "course_id",
            "course_title",
            "complete",
            "created_at",
            "starts_at",
            "ends_at",
            "completed_at",
        ],
    );
    for o in &g.history.online_orders {
        let course = &g.catalogue.online[o.course];
        let complete = !course.lessons.is_empty() && o.lessons_done == course.lessons.len();
        let lessons_minutes = i64::try_from(o.lessons_done).unwrap_or(0) * 2 * 24 * 60;
        let completed_at = complete.then(|| (o.created_at + Duration::minutes(lessons_minutes)).min(g.now));
        let r = row![
            crate::grow::history::id_at(rng, o.created_at),
            Some(g.history.students[o.student].id.clone()),
            Some(o.id.clone()),
            course.course_id.clone(),
            course.title.clone(),
            complete,
            o.created_at,
            o.created_at,
            enrol_domain::learning::access::access_ends(o.created_at, course.months),
            completed_at,
        ];
        put(conn, &mut access, r).await?;
    }
    conn.flush(&mut access).await?;
    counts.push((access.table(), access.written));
    Ok(())
}

/// Payments, refunds (all made), then every receipt and credit note.
pub(crate) async fn money<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut payments = g.batch(
        "payment",
        &[
            "id",
            "amount",
            "status",
            "currency",
            "transaction_id",
            "method",
            "metadata",
            "enrollment_id",
            "online_order_id",
            "user_id",
            "created_at",
        ],
    );
    for p in &g.ledger.payments {
        let status = match p.refunded {
            0 => "succeeded",
            r if r >= p.amount => "refunded",
            _ => "partially_refunded",
        };
        let (enrollment, order, student) = match (p.booking, p.online_order) {
            (Some(b), _) => (Some(g.history.bookings[b].id.clone()), None, g.history.bookings[b].student),
            (None, Some(o)) => (None, Some(g.history.online_orders[o].id.clone()), g.history.online_orders[o].student),
            (None, None) => unreachable!("a grown payment pays a booking or an online order"),
        };
        let r = row![
            p.id.clone(),
            p.amount,
            status,
            "gbp",
            p.transaction_id.clone(),
            p.method,
            "{}",
            enrollment,
            order,
            Some(g.history.students[student].id.clone()),
            p.at,
        ];
        put(conn, &mut payments, r).await?;
    }
    conn.flush(&mut payments).await?;
    counts.push((payments.table(), payments.written));

    let mut refunds = g.batch(
        "refund",
        &["id", "payment_id", "amount", "reason", "status", "provider_refund_id", "attempts", "created_at", "completed_at"],
    );
    for r in &g.ledger.refunds {
        let cells = row![
            r.id.clone(),
            g.ledger.payments[r.payment].id.clone(),
            r.amount,
            "cancellation",
            "succeeded",
            Some(format!("grown_re_{}", r.id.replace('-', ""))),
            1i64,
            r.created_at,
            Some(r.completed_at),
        ];
        put(conn, &mut refunds, cells).await?;
    }
    conn.flush(&mut refunds).await?;
    counts.push((refunds.table(), refunds.written));

    let mut receipts = g.batch(
        "receipt",
        &[
            "id",
            "number",
            "prefix",
            "sequence",
            "kind",
            "payment_id",
            "refund_id",
            "enrollment_id",
            "online_order_id",
            "amount",
            "issued_at",
            "access_token_hash",
            "document",
        ],
    );
    let purchase_of = |index: usize| {
        let p = &g.ledger.payments[index];
        (p.booking.map(|b| g.history.bookings[b].id.clone()), p.online_order.map(|o| g.history.online_orders[o].id.clone()))
    };
    for (index, p) in g.ledger.payments.iter().enumerate() {
        let document = g.receipt(index);
        let (enrollment, order) = purchase_of(index);
        let r = row![
            crate::grow::history::id_at(rng, p.at),
            document.number.clone(),
            DocumentKind::Receipt.prefix(),
            p.receipt,
            document.kind.as_str(),
            p.id.clone(),
            None::<String>,
            enrollment,
            order,
            p.amount,
            p.at,
            token_hash(rng),
            json(&document)?,
        ];
        put(conn, &mut receipts, r).await?;
    }
    for refund in &g.ledger.refunds {
        let receipt = g.receipt(refund.payment);
        let draft = Draft::credit_note(
            &receipt,
            g.issuer,
            Money::from_pence(refund.amount),
            Money::from_pence(refund.paid_to_date),
            "cancellation",
        );
        let document = draft.issue(refund.credit_note, refund.completed_at);
        let (enrollment, order) = purchase_of(refund.payment);
        let r = row![
            crate::grow::history::id_at(rng, refund.completed_at),
            document.number.clone(),
            DocumentKind::CreditNote.prefix(),
            refund.credit_note,
            document.kind.as_str(),
            g.ledger.payments[refund.payment].id.clone(),
            Some(refund.id.clone()),
            enrollment,
            order,
            refund.amount,
            refund.completed_at,
            token_hash(rng),
            json(&document)?,
        ];
        put(conn, &mut receipts, r).await?;
    }
    conn.flush(&mut receipts).await?;
    counts.push((receipts.table(), receipts.written));
    Ok(())
}
