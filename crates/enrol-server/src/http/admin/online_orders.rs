//! Online orders in the back office (decision 027): found beside bookings,
//! read whole with the registrations they gave, and given back line by
//! line, which ends the access those lines bought. A refund goes through
//! the same ledger and refund worker as a booking's.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{LearnerRecord, OnlineOrderDetail, OnlineOrderListing, OnlineOrderSearch, OnlineRefund, Registrations};
use enrol_domain::money::Money;
use enrol_domain::online_access::reason;
use enrol_domain::online_order::LineItem;
use enrol_domain::page::OnlineOrderStatus;

use super::online_access::LearnerView;
use super::orders::{MailView, PaymentView, RefundView};
use super::people::AuditView;
use super::{Staff, place_in};
use crate::http::ApiError;
use crate::http::json_body::JsonBody;
use crate::http::student::private;
use crate::{AppState, refunds};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlineOrderQuery {
    q: Option<String>,
    status: Option<String>,
    course: Option<String>,
    /// Where the page starts: the `next` of the page before.
    before: Option<String>,
}

impl OnlineOrderQuery {
    /// The search it asks for; an empty parameter asks for nothing.
    fn search(self) -> Result<OnlineOrderSearch, ApiError> {
        let given = |value: Option<String>| value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let status = given(self.status)
            .map(|raw| {
                OnlineOrderStatus::parse(&raw)
                    .ok_or_else(|| ApiError::BadRequest("status is one of pending, processing, paid, failed.".to_owned()))
            })
            .transpose()?;
        let before = place_in(self.before.as_deref().map(str::trim), "online orders")?;
        Ok(OnlineOrderSearch { text: given(self.q), status, course_id: given(self.course), before })
    }
}

/// An online order in a list.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct OnlineOrderRow {
    id: String,
    /// `E-4HX2M`.
    reference: String,
    created_at: DateTime<Utc>,
    name: String,
    email: String,
    /// The lines' titles.
    lines: Vec<String>,
    #[ts(type = "number")]
    total: Money,
    #[ts(type = "number")]
    paid: Money,
    status: OnlineOrderStatus,
}

impl From<OnlineOrderListing> for OnlineOrderRow {
    fn from(o: OnlineOrderListing) -> Self {
        OnlineOrderRow {
            id: o.id,
            reference: o.reference,
            created_at: o.created_at,
            name: o.name,
            email: o.email,
            lines: o.lines,
            total: o.total,
            paid: o.paid,
            status: o.status,
        }
    }
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct OnlineOrders {
    orders: Vec<OnlineOrderRow>,
    /// The `before` of the next page; none on the last.
    next: Option<String>,
}

/// `GET /api/admin/online-orders?q=&status=&course=&before=`: newest
/// first, `enrol_db::ORDERS_LISTED` to a page, the next made before the
/// place in `next`.
pub async fn list_online_orders(State(state): State<Arc<AppState>>, Query(query): Query<OnlineOrderQuery>) -> Result<Response, ApiError> {
    let page = state.db.search_online_orders(&query.search()?).await?;
    let orders = page.orders.into_iter().map(OnlineOrderRow::from).collect();
    Ok(private(StatusCode::OK, OnlineOrders { orders, next: page.next.map(|place| place.token()) }))
}

/// `GET /api/admin/online-orders/{id}`.
pub async fn show_online_order(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    online_order_answer(&state, &id).await
}

/// The order as `GET` answers it, which its refund answers too.
async fn online_order_answer(state: &AppState, id: &str) -> Result<Response, ApiError> {
    let detail = state.db.online_order_detail(id).await?.ok_or(ApiError::NotFound)?;
    let registrations = state.db.learner_records(Registrations::OfOrder(id)).await?;
    Ok(private(StatusCode::OK, OnlineOrderAnswer { order: OnlineOrderView::new(detail, registrations, Utc::now()) }))
}

#[derive(Serialize, TS)]
#[ts(export)]
struct OnlineOrderAnswer {
    order: OnlineOrderView,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct OnlineOrderView {
    id: String,
    reference: String,
    status: OnlineOrderStatus,
    created_at: DateTime<Utc>,
    paid_at: Option<DateTime<Utc>>,
    name: String,
    email: String,
    #[ts(type = "number")]
    total: Money,
    /// Payments less refunds.
    #[ts(type = "number")]
    paid: Money,
    lines: Vec<OnlineLineView>,
    payments: Vec<PaymentView>,
    refunds: Vec<RefundView>,
    mails: Vec<MailView>,
    audit: Vec<AuditView>,
    registrations: Vec<LearnerView>,
}

/// A line of an online order.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct OnlineLineView {
    /// Its place in the order, from 0: what a refund names.
    index: usize,
    title: String,
    /// An add-on bought with a course, not the course itself.
    add_on: bool,
    #[ts(type = "number")]
    amount: Money,
    refunded: bool,
}

impl OnlineOrderView {
    fn new(detail: OnlineOrderDetail, registrations: Vec<LearnerRecord>, now: DateTime<Utc>) -> Self {
        let OnlineOrderDetail { record, created_at, paid_at, name, paid, refunded_lines, payments, refunds, mails, audit } = detail;
        OnlineOrderView {
            lines: record
                .lines
                .into_iter()
                .enumerate()
                .map(|(index, line)| OnlineLineView {
                    index,
                    add_on: matches!(line.item, LineItem::Upsell { .. }),
                    title: line.title,
                    amount: line.amount,
                    refunded: refunded_lines.contains(&index),
                })
                .collect(),
            id: record.id,
            reference: record.reference,
            status: record.status,
            created_at,
            paid_at,
            name,
            email: record.email.unwrap_or_default(),
            total: record.total,
            paid,
            payments: payments.into_iter().map(PaymentView::from).collect(),
            refunds: refunds.into_iter().map(RefundView::from).collect(),
            mails: mails.into_iter().map(MailView::from).collect(),
            audit: audit.into_iter().map(AuditView::from).collect(),
            registrations: registrations.into_iter().map(|r| LearnerView::new(r, now)).collect(),
        }
    }
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct OnlineRefundRequest {
    /// The lines to give back, by `index`.
    lines: Vec<usize>,
    reason: String,
}

/// `POST /api/admin/online-orders/{id}/refund`: gives back the lines
/// chosen, each once and never more than was paid; the access they gave
/// ends now.
pub async fn refund_online_order(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<OnlineRefundRequest>,
) -> Result<Response, ApiError> {
    let reason =
        reason(&request.reason).map_err(|_| ApiError::field("reason", "Say why (up to 200 characters): the credit note shows it."))?;
    match state.db.refund_online_lines(&id, &request.lines, reason, &staff.id, Utc::now()).await? {
        OnlineRefund::Refunded { refunds, ended } => {
            tracing::info!(order = %id, staff = %staff.id, refunds = refunds.len(), ?ended, "Online order refunded");
            refunds::give_back_now(&state).await;
        }
        OnlineRefund::Refused(refused) => return Err(ApiError::Unprocessable(refused.to_string())),
        OnlineRefund::UnknownOrder => return Err(ApiError::NotFound),
    }
    online_order_answer(&state, &id).await
}
