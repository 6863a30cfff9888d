//! The dashboard and the accountant's exports (decision 017).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Datelike, Days, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{
    AdminSession, BalancesOwed, ExportPlace, OnlineSales, OrderExportRow, PaymentExportRow, RefundExportRow, SessionFilter, Takings,
};
use enrol_domain::london;

use super::csv;
use crate::AppState;
use crate::http::ApiError;

/// How far ahead the dashboard lists sessions, and at most how many.
const UPCOMING_DAYS: u64 = 60;
const UPCOMING_LISTED: usize = 20;

/// `GET /api/admin/dashboard`: this week's and month's bookings, takings
/// and e-learning sold (London weeks start on Monday), the sessions filling
/// over the next two months, the balances owed and the enquiries not yet
/// picked up.
pub async fn show_dashboard(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let now = Utc::now();
    let today = london::today(now);
    let monday = today - Days::new(u64::from(today.weekday().num_days_from_monday()));
    let first = today.with_day(1).unwrap_or(today);
    let week = state.db.takings(london::start_of_day(monday), now).await?;
    let month = state.db.takings(london::start_of_day(first), now).await?;
    let online = OnlineFigures {
        week: state.db.online_sales(london::start_of_day(monday), now).await?,
        month: state.db.online_sales(london::start_of_day(first), now).await?,
    };
    let filter = SessionFilter {
        from: Some(today),
        to: today.checked_add_days(Days::new(UPCOMING_DAYS)),
        active_only: true,
        ..SessionFilter::default()
    };
    let upcoming = state.db.admin_sessions(&filter, UPCOMING_LISTED, now).await?;
    let balances = state.db.balances_owed(today).await?;
    let enquiries = NewEnquiries { new: state.db.new_enquiries().await? };
    Ok(Json(Dashboard { week, month, online, upcoming, balances, enquiries }).into_response())
}

/// The dashboard's figures.
#[derive(Serialize, TS)]
#[ts(export)]
struct Dashboard {
    week: Takings,
    month: Takings,
    online: OnlineFigures,
    upcoming: Vec<AdminSession>,
    balances: BalancesOwed,
    enquiries: NewEnquiries,
}

/// E-learning sold this week and this month.
#[derive(Serialize, TS)]
#[ts(export)]
struct OnlineFigures {
    week: OnlineSales,
    month: OnlineSales,
}

/// Enquiries nobody has picked up yet (status `new`).
#[derive(Serialize, TS)]
#[ts(export)]
struct NewEnquiries {
    #[ts(type = "number")]
    new: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    from: NaiveDate,
    to: NaiveDate,
}

fn time(at: DateTime<Utc>) -> String {
    london::wall_clock(at).replace('T', " ")
}

/// `GET /api/admin/exports/{kind}.csv?from=&to=`: the London days from
/// `from` to `to`, both included.
pub async fn download_export(
    State(state): State<Arc<AppState>>,
    Path(file): Path<String>,
    Query(range): Query<Range>,
) -> Result<Response, ApiError> {
    if range.to < range.from {
        return Err(ApiError::BadRequest("The range ends before it starts.".to_owned()));
    }
    let from = london::start_of_day(range.from);
    let to = london::start_of_day(range.to.succ_opt().ok_or_else(|| ApiError::BadRequest("The range ends too late.".to_owned()))?);
    let name = |kind: &str| format!("{kind}-{}-to-{}.csv", range.from, range.to);
    // Each page of rows read by a query of its own, after the last one's place.
    let source = (state.db.clone(), from, to);
    match file.as_str() {
        "orders.csv" => Ok(csv::streamed(
            &name("orders"),
            &ORDER_COLUMNS,
            source,
            |(db, from, to), after: Option<ExportPlace>| async move { db.order_export(from, to, after.as_ref(), csv::PAGE).await },
            |o| ExportPlace { created_at: o.created_at, id: o.id.clone() },
            order_cells,
        )),
        "payments.csv" => Ok(csv::streamed(
            &name("payments"),
            &PAYMENT_COLUMNS,
            source,
            |(db, from, to), after: Option<ExportPlace>| async move { db.payment_export(from, to, after.as_ref(), csv::PAGE).await },
            |p| ExportPlace { created_at: p.created_at, id: p.id.clone() },
            payment_cells,
        )),
        "refunds.csv" => Ok(csv::streamed(
            &name("refunds"),
            &REFUND_COLUMNS,
            source,
            |(db, from, to), after: Option<ExportPlace>| async move { db.refund_export(from, to, after.as_ref(), csv::PAGE).await },
            |r| ExportPlace { created_at: r.created_at, id: r.id.clone() },
            refund_cells,
        )),
        _ => Err(ApiError::NotFound),
    }
}

const ORDER_COLUMNS: [&str; 12] =
    ["Reference", "Order", "Created", "Paid", "Status", "Name", "Email", "Courses", "Code", "Total", "Paid (net)", "Owed"];

fn order_cells(o: OrderExportRow) -> Vec<String> {
    let courses = serde_json::from_str::<Vec<serde_json::Value>>(&o.lines)
        .unwrap_or_default()
        .iter()
        .filter_map(|line| line["title"].as_str().map(str::to_owned))
        .collect::<Vec<_>>()
        .join("; ");
    vec![
        o.reference,
        o.id,
        time(o.created_at),
        o.paid_at.map(time).unwrap_or_default(),
        o.status,
        format!("{} {}", o.given_name, o.family_name),
        o.email,
        courses,
        o.discount_code.unwrap_or_default(),
        csv::pounds(o.total),
        csv::pounds(o.paid),
        csv::pounds((o.total - o.paid).max(0)),
    ]
}

const PAYMENT_COLUMNS: [&str; 10] =
    ["Payment", "Received", "Order reference", "Order", "Name", "Email", "Method", "Amount", "Reference", "Status"];

fn payment_cells(p: PaymentExportRow) -> Vec<String> {
    vec![
        p.id,
        time(p.created_at),
        p.order_reference.unwrap_or_default(),
        p.order_id.unwrap_or_default(),
        p.name.unwrap_or_default(),
        p.email.unwrap_or_default(),
        p.method,
        csv::pounds(p.amount),
        p.transaction_id,
        p.status,
    ]
}

const REFUND_COLUMNS: [&str; 9] = ["Refund", "Asked", "Made", "Payment", "Order reference", "Order", "Amount", "Reason", "Status"];

fn refund_cells(r: RefundExportRow) -> Vec<String> {
    vec![
        r.id,
        time(r.created_at),
        r.completed_at.map(time).unwrap_or_default(),
        r.payment_id,
        r.order_reference.unwrap_or_default(),
        r.order_id.unwrap_or_default(),
        csv::pounds(r.amount),
        r.reason,
        r.status,
    ]
}
