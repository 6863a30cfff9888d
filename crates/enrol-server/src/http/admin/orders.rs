//! Orders in the back office (decision 017): finding course
//! bookings and reading one whole, as `GET /api/admin/orders…` answers and
//! as every staff action on an order answers afterwards
//! ([`order_answer`]). The actions are in `order_actions`.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{AgreedConsent, OrderDetail, OrderListing, OrderMail, OrderPayment, OrderRefund, OrderSearch};
use enrol_domain::enrollment::PaymentMode;
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::page::{EnrollmentStatus, SessionType};

use super::people::AuditView;
use super::place_in;
use super::plans::PlanView;
use crate::AppState;
use crate::http::ApiError;
use crate::http::student::private;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderQuery {
    q: Option<String>,
    status: Option<String>,
    course: Option<String>,
    date: Option<String>,
    /// The place of the previous page's last order ([`enrol_db::ListPlace::token`]).
    before: Option<String>,
}

impl OrderQuery {
    /// The search it asks for; an empty parameter asks for nothing.
    fn search(self) -> Result<OrderSearch, ApiError> {
        let given = |value: Option<String>| value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let status = given(self.status)
            .map(|raw| {
                EnrollmentStatus::parse(&raw)
                    .ok_or_else(|| ApiError::BadRequest("status is one of pending, deposit, completed, failed, cancelled.".to_owned()))
            })
            .transpose()?;
        let date = given(self.date)
            .map(|raw| raw.parse::<NaiveDate>().map_err(|_| ApiError::BadRequest("date is a day, YYYY-MM-DD.".to_owned())))
            .transpose()?;
        let before = place_in(self.before.as_deref().map(str::trim), "orders")?;
        Ok(OrderSearch { text: given(self.q), status, course_id: given(self.course), date, discount_code: None, before })
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub(super) struct OrderRow {
    id: String,
    /// `B-7K3P9`: what the student reads out on the phone.
    reference: String,
    created_at: DateTime<Utc>,
    name: String,
    email: String,
    /// The courses' titles.
    courses: Vec<String>,
    #[ts(type = "number")]
    total: Money,
    #[ts(type = "number")]
    paid: Money,
    status: EnrollmentStatus,
}

impl From<OrderListing> for OrderRow {
    fn from(order: OrderListing) -> Self {
        OrderRow {
            id: order.id,
            reference: order.reference,
            created_at: order.created_at,
            name: order.name,
            email: order.email,
            courses: order.courses.into_iter().map(|c| c.title).collect(),
            total: order.total,
            paid: order.paid,
            status: order.status,
        }
    }
}

/// `GET /api/admin/orders?q=&status=&course=&date=&before=`: newest
/// first, `enrol_db::ORDERS_LISTED` to a page, the next made before the
/// place in `next`.
pub async fn list_orders(State(state): State<Arc<AppState>>, Query(query): Query<OrderQuery>) -> Result<Response, ApiError> {
    let page = state.db.search_orders(&query.search()?).await?;
    let orders = page.orders.into_iter().map(OrderRow::from).collect();
    Ok(private(StatusCode::OK, OrdersPage { orders, next: page.next.map(|place| place.token()) }))
}

/// Bookings as a list shows them.
#[derive(Serialize, TS)]
#[ts(export)]
pub(super) struct Orders {
    pub(super) orders: Vec<OrderRow>,
}

/// A page of the bookings a search finds.
#[derive(Serialize, TS)]
#[ts(export)]
struct OrdersPage {
    orders: Vec<OrderRow>,
    /// The `before` of the next page; none on the last.
    next: Option<String>,
}

/// `GET /api/admin/orders/{id}`.
pub async fn show_order(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    order_answer(&state, &id).await
}

/// The order as `GET` answers it: what every action on it answers too.
pub(super) async fn order_answer(state: &AppState, id: &str) -> Result<Response, ApiError> {
    let detail = state.db.order_detail(id).await?.ok_or(ApiError::NotFound)?;
    let plan = state.db.booking_plan(id).await?.map(PlanView::from);
    Ok(private(StatusCode::OK, OrderAnswer { order: OrderView::new(detail, plan, london::today(Utc::now())) }))
}

/// One order, as `GET` and every action on it answer.
#[derive(Serialize, TS)]
#[ts(export)]
struct OrderAnswer {
    order: OrderView,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct OrderView {
    id: String,
    reference: String,
    status: EnrollmentStatus,
    mode: PaymentMode,
    created_at: DateTime<Utc>,
    name: String,
    email: String,
    phone: String,
    #[ts(type = "number")]
    total: Money,
    #[ts(type = "number")]
    paid: Money,
    /// What is left to pay.
    #[ts(type = "number")]
    balance: Money,
    balance_due_on: Option<NaiveDate>,
    discount_code: Option<String>,
    lines: Vec<LineView>,
    payments: Vec<PaymentView>,
    refunds: Vec<RefundView>,
    holds: Vec<HoldView>,
    mails: Vec<MailView>,
    audit: Vec<AuditView>,
    /// What the buyer agreed to at checkout, word for word.
    agreed: Vec<AgreedConsent>,
    /// The booking's instalment plan, unless there is none or it was cancelled.
    plan: Option<PlanView>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct LineView {
    course_id: String,
    title: String,
    session_id: Option<String>,
    date: Option<NaiveDate>,
    #[serde(rename = "type")]
    session_type: Option<SessionType>,
    kit: Option<String>,
    #[ts(type = "number")]
    amount: Money,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub(super) struct PaymentView {
    id: String,
    #[ts(type = "number")]
    amount: Money,
    method: String,
    status: String,
    reference: String,
    created_at: DateTime<Utc>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub(super) struct RefundView {
    id: String,
    #[ts(type = "number")]
    amount: Money,
    status: String,
    reason: String,
    created_at: DateTime<Utc>,
    by_hand: bool,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct HoldView {
    session_id: String,
    expires_at: DateTime<Utc>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub(super) struct MailView {
    id: String,
    to: String,
    subject: String,
    created_at: DateTime<Utc>,
    sent_at: Option<DateTime<Utc>>,
}

impl OrderView {
    fn new(detail: OrderDetail, plan: Option<PlanView>, today: NaiveDate) -> Self {
        let OrderDetail { record, payments, refunds, holds, mails, audit, agreed } = detail;
        OrderView {
            agreed,
            plan,
            balance: record.owed(),
            balance_due_on: record.balance_due_on(today),
            status: record.status,
            reference: record.reference.clone(),
            mode: record.mode,
            created_at: record.created_at,
            name: format!("{} {}", record.given_name, record.family_name).trim().to_owned(),
            email: record.email,
            phone: record.contact_number,
            total: record.quote.total,
            paid: record.paid,
            discount_code: record.discount_code,
            lines: record
                .courses
                .into_iter()
                .map(|course| LineView {
                    amount: course.line_price().amount(),
                    course_id: course.course_id,
                    title: course.title,
                    session_id: course.session_id,
                    date: course.date,
                    session_type: course.session_type,
                    kit: course.kit_name,
                })
                .collect(),
            payments: payments.into_iter().map(PaymentView::from).collect(),
            refunds: refunds.into_iter().map(RefundView::from).collect(),
            holds: holds.into_iter().map(|h| HoldView { session_id: h.session_id, expires_at: h.expires_at }).collect(),
            mails: mails.into_iter().map(MailView::from).collect(),
            audit: audit.into_iter().map(AuditView::from).collect(),
            id: record.id,
        }
    }
}

impl From<OrderPayment> for PaymentView {
    fn from(p: OrderPayment) -> Self {
        PaymentView { id: p.id, amount: p.amount, method: p.method, status: p.status, reference: p.reference, created_at: p.created_at }
    }
}

impl From<OrderRefund> for RefundView {
    fn from(r: OrderRefund) -> Self {
        RefundView { id: r.id, amount: r.amount, status: r.status, reason: r.reason, created_at: r.created_at, by_hand: r.by_hand }
    }
}

impl From<OrderMail> for MailView {
    fn from(m: OrderMail) -> Self {
        MailView { id: m.id, to: m.to_address, subject: m.subject, created_at: m.created_at, sent_at: m.sent_at }
    }
}
