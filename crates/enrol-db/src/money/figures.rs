//! The back office's figures (decision 017): bookings and takings over a
//! period, e-learning sold, balances still owed, new enquiries, and the
//! rows of the accountant's exports (orders, payments, refunds) for a range
//! of instants.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use ts_rs::TS;

use crate::orders::enrollments::NET_PAID;
use crate::{Db, on_pool};

/// Bookings paid and money taken in a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[ts(export)]
pub struct Takings {
    #[ts(type = "number")]
    pub bookings: i64,
    /// Payments received less refunds made, in pence.
    #[ts(type = "number")]
    pub takings: i64,
}

/// E-learning orders paid in a period and what they came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[ts(export)]
pub struct OnlineSales {
    #[ts(type = "number")]
    pub orders: i64,
    /// The orders' totals, in pence.
    #[ts(type = "number")]
    pub amount: i64,
}

/// Balances still owed on bookings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BalancesOwed {
    #[ts(type = "number")]
    pub count: i64,
    #[ts(type = "number")]
    pub amount: i64,
    #[ts(type = "number")]
    pub overdue_count: i64,
    #[ts(type = "number")]
    pub overdue_amount: i64,
}

/// Bookings paid and money taken (payments less refunds made) in `[$1, $2)`.
pub(crate) const TAKINGS: &str = "select (select count(*) from enrollment where paid_at >= $1 and paid_at < $2) as bookings, \
     cast(coalesce((select sum(amount) from payment where created_at >= $1 and created_at < $2), 0) \
     - coalesce((select sum(amount) from refund where status = 'succeeded' and completed_at >= $1 and completed_at < $2), 0) \
     as bigint) as takings";

/// What the bookings on a deposit still owe, and of it what was due
/// before `$1`.
pub(crate) const BALANCES_OWED: &str = "select count(*) as count, cast(coalesce(sum(e.total - e.paid), 0) as bigint) as amount, \
     count(case when e.balance_due_on < $1 then 1 end) as overdue_count, \
     cast(coalesce(sum(case when e.balance_due_on < $1 then e.total - e.paid else 0 end), 0) as bigint) as overdue_amount \
     from enrollment e where e.status = 'deposit' and e.total - e.paid > 0";

/// A page of the orders export: bookings made in `[$1, $2)` after the place `($3, $4)`, at most `$5`.
pub(crate) fn order_export_sql() -> String {
    format!(
        "select e.id, e.reference, e.created_at, e.paid_at, e.status, e.given_name, e.family_name, e.email, e.lines, e.discount_code, \
         e.total, {} as paid from enrollment e where e.created_at >= $1 and e.created_at < $2 and (e.created_at, e.id) > ($3, $4) \
         order by e.created_at, e.id limit $5",
        NET_PAID
    )
}

/// A page of the payments export, as [`order_export_sql`].
pub(crate) const PAYMENT_EXPORT: &str = "select p.id, p.created_at, coalesce(p.enrollment_id, p.online_order_id) as order_id, \
     coalesce(e.reference, o.reference) as order_reference, e.given_name || ' ' || e.family_name as name, coalesce(e.email, o.email) as email, \
     p.method, p.amount, p.transaction_id, p.status from payment p \
     left join enrollment e on e.id = p.enrollment_id left join online_order o on o.id = p.online_order_id \
     where p.created_at >= $1 and p.created_at < $2 and (p.created_at, p.id) > ($3, $4) order by p.created_at, p.id limit $5";

/// A page of the refunds export, as [`order_export_sql`].
pub(crate) const REFUND_EXPORT: &str = "select r.id, r.created_at, r.completed_at, r.payment_id, coalesce(p.enrollment_id, p.online_order_id) as order_id, \
     coalesce(e.reference, o.reference) as order_reference, r.amount, r.reason, r.status from refund r \
     join payment p on p.id = r.payment_id left join enrollment e on e.id = p.enrollment_id \
     left join online_order o on o.id = p.online_order_id \
     where r.created_at >= $1 and r.created_at < $2 and (r.created_at, r.id) > ($3, $4) order by r.created_at, r.id limit $5";

/// A row's place in an export, which is in the order of its rows'
/// creation: the next page starts after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportPlace {
    pub created_at: DateTime<Utc>,
    pub id: String,
}

impl ExportPlace {
    /// The place a page starts after: `after`, or before the range's first row.
    fn bounds(after: Option<&ExportPlace>, from: DateTime<Utc>) -> (DateTime<Utc>, &str) {
        after.map_or((from, ""), |place| (place.created_at, place.id.as_str()))
    }
}

/// One booking in the orders export.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderExportRow {
    pub id: String,
    pub reference: String,
    pub created_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
    pub status: String,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
    pub lines: String,
    pub discount_code: Option<String>,
    pub total: i64,
    pub paid: i64,
}

/// One payment in the payments export.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PaymentExportRow {
    pub id: String,
    pub created_at: DateTime<Utc>,
    pub order_id: Option<String>,
    pub order_reference: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub method: String,
    pub amount: i64,
    pub transaction_id: String,
    pub status: String,
}

/// One refund in the refunds export.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RefundExportRow {
    pub id: String,
    pub created_at: DateTime<Utc>,
    pub completed_at: Option<DateTime<Utc>>,
    pub payment_id: String,
    pub order_id: Option<String>,
    pub order_reference: Option<String>,
    pub amount: i64,
    pub reason: String,
    pub status: String,
}

impl Db {
    /// Bookings paid and money taken in `[from, to)`.
    pub async fn takings(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> anyhow::Result<Takings> {
        on_pool!(self, pool => sqlx::query_as(TAKINGS).bind(from).bind(to).fetch_one(pool).await).context("Failed to add up the takings")
    }

    /// E-learning orders paid in `[from, to)`.
    pub async fn online_sales(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> anyhow::Result<OnlineSales> {
        on_pool!(self, pool => sqlx::query_as(
            "select count(*) as orders, cast(coalesce(sum(total), 0) as bigint) as amount from online_order \
             where status = 'paid' and paid_at >= $1 and paid_at < $2"
        ).bind(from).bind(to).fetch_one(pool).await)
        .context("Failed to add up the e-learning sales")
    }

    /// Enquiries nobody has picked up yet: those the inbox lists as new.
    pub async fn new_enquiries(&self) -> anyhow::Result<i64> {
        on_pool!(self, pool => sqlx::query_scalar("select count(*) from form_submission where status = 'new'").fetch_one(pool).await)
            .context("Failed to count the new enquiries")
    }

    /// What booked students still owe, and how much of it is overdue on
    /// `today`, added up from the index of the bookings on a deposit
    /// (migration 0044).
    pub async fn balances_owed(&self, today: NaiveDate) -> anyhow::Result<BalancesOwed> {
        on_pool!(self, pool => sqlx::query_as(BALANCES_OWED).bind(today).fetch_one(pool).await)
            .context("Failed to add up the balances owed")
    }

    /// Bookings made in `[from, to)`, oldest first: at most `limit` after
    /// the place `after` (none: from the first). The export reads a year a
    /// page at a time, so its memory does not grow with its length.
    pub async fn order_export(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        after: Option<&ExportPlace>,
        limit: i64,
    ) -> anyhow::Result<Vec<OrderExportRow>> {
        let sql = order_export_sql();
        let (at, id) = ExportPlace::bounds(after, from);
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(from).bind(to).bind(at).bind(id).bind(limit).fetch_all(pool).await)
            .context("Failed to read the orders")
    }

    /// Payments received in `[from, to)`, oldest first: a page, as [`Db::order_export`].
    pub async fn payment_export(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        after: Option<&ExportPlace>,
        limit: i64,
    ) -> anyhow::Result<Vec<PaymentExportRow>> {
        let (at, id) = ExportPlace::bounds(after, from);
        on_pool!(self, pool => sqlx::query_as(PAYMENT_EXPORT).bind(from).bind(to).bind(at).bind(id).bind(limit).fetch_all(pool).await)
            .context("Failed to read the payments")
    }

    /// Refunds asked for in `[from, to)`, oldest first: a page, as [`Db::order_export`].
    pub async fn refund_export(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        after: Option<&ExportPlace>,
        limit: i64,
    ) -> anyhow::Result<Vec<RefundExportRow>> {
        let (at, id) = ExportPlace::bounds(after, from);
        on_pool!(self, pool => sqlx::query_as(REFUND_EXPORT).bind(from).bind(to).bind(at).bind(id).bind(limit).fetch_all(pool).await)
            .context("Failed to read the refunds")
    }
}
