//! Online orders in the back office (decision 027): finding them beside
//! bookings and reading one whole — its lines and which were given back,
//! its payments, refunds, mails and audit trail (the registrations it gave
//! are `records::learners`').

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::money::Money;
use enrol_domain::page::OnlineOrderStatus;
use enrol_domain::reference::typed_code;

use crate::orders::search::{like_literal, place_before};
use crate::people::audit::AUDIT_ROWS;
use crate::{AuditRow, Backend, Db, OnlineOrderRecord, OrderMail, OrderPayment, OrderPlace, OrderRefund, on_pool, page_of};

/// Which online orders to find; every criterion given must match.
#[derive(Debug, Clone, Default)]
pub struct OnlineOrderSearch {
    /// Part of the reference, the email, the buyer's name, a line's title
    /// or the order id, in any case.
    pub text: Option<String>,
    pub status: Option<OnlineOrderStatus>,
    /// A course bought, as a line or as an add-on.
    pub course_id: Option<String>,
    /// Only the orders listed after this one (made before it).
    pub before: Option<OrderPlace>,
}

/// A page of the online orders a search finds.
#[derive(Debug, Clone)]
pub struct OnlineOrderPage {
    /// Newest first, at most [`crate::ORDERS_LISTED`].
    pub orders: Vec<OnlineOrderListing>,
    /// Where the next page starts; none on the last.
    pub next: Option<OrderPlace>,
}

/// An online order in a list of them.
#[derive(Debug, Clone)]
pub struct OnlineOrderListing {
    pub id: String,
    pub reference: String,
    pub created_at: DateTime<Utc>,
    /// The buyer's account's name; empty for a buyer without one.
    pub name: String,
    pub email: String,
    /// The lines' titles.
    pub lines: Vec<String>,
    pub total: Money,
    /// Payments less refunds.
    pub paid: Money,
    pub status: OnlineOrderStatus,
}

/// An online order as the back office reads it.
#[derive(Debug, Clone)]
pub struct OnlineOrderDetail {
    pub record: OnlineOrderRecord,
    pub created_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
    pub name: String,
    pub paid: Money,
    /// The places of the lines given back, from 0.
    pub refunded_lines: Vec<usize>,
    pub payments: Vec<OrderPayment>,
    pub refunds: Vec<OrderRefund>,
    /// Newest first.
    pub mails: Vec<OrderMail>,
    /// The order's and its registrations', newest first.
    pub audit: Vec<AuditRow>,
}

/// What the online order search matches text in, of the order named
/// `order` in the query: its reference, address, id and lines, lowercased
/// (indexed on PostgreSQL, migration 0048).
fn online_searched(order: &str) -> String {
    format!("lower({order}.reference || ' ' || coalesce({order}.email, '') || ' ' || {order}.id || ' ' || {order}.lines)")
}

/// What an online order holds of the buyer's money: its payments less
/// every refund of them (made or being made), as SQL over `o`.
pub(crate) const ONLINE_NET_PAID: &str = "cast(coalesce((select sum(p.amount) from payment p where p.online_order_id = o.id), 0) \
     - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.online_order_id = o.id), 0) as bigint)";

impl OnlineOrderSearch {
    /// The page of online orders `self` finds on `backend`, newest first,
    /// and one more, and the values of its parameters.
    pub(crate) fn page_sql(&self, backend: Backend) -> (String, Vec<String>) {
        let mut conditions = Vec::new();
        let mut values = Vec::new();
        if let Some(text) = self.text.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            // A reference however it was typed or read out ("e 4hx2m"), or
            // any part of a name, an address, a line's title or an id.
            values.push(typed_code(text).map(|code| format!("E-{code}")).unwrap_or_default());
            values.push(format!("%{}%", like_literal(&text.to_lowercase())));
            conditions.push(match backend {
                // The orders whose text matches and the accounts whose name
                // does, each found once through its trigrams (migration
                // 0048); the orders are then read newest first and stopped
                // at a page. Joining every order of a common surname's
                // accounts and sorting them cost 23 to 48 ms a search at
                // ten years; this 11 ms, and at most a walk of the time
                // index (5 ms) for a reference.
                Backend::Postgres => format!(
                    "(o.id in (select x.id from online_order x where x.reference = $1 or {} like $2 escape '\\') \
                     or o.user_id in (select n.id from user_account n where lower(n.given_name || ' ' || n.family_name) like $2 escape '\\'))",
                    online_searched("x")
                ),
                // Checked on each order read newest first, to a page.
                Backend::Sqlite => format!(
                    "(o.reference = $1 or {} like $2 escape '\\' or lower(coalesce(u.given_name || ' ' || u.family_name, '')) like $2 escape '\\')",
                    online_searched("o")
                ),
            });
        }
        if let Some(status) = self.status {
            values.push(format!("{status:?}").to_lowercase());
            conditions.push(format!("o.status = ${}", values.len()));
        }
        if let Some(course_id) = &self.course_id {
            values.push(format!("%{}%", like_literal(&format!("\"course_id\":{}", serde_json::Value::from(course_id.as_str())))));
            values.push(course_id.clone());
            let (lines, registered) = (values.len() - 1, values.len());
            conditions.push(format!(
                "(o.lines like ${lines} escape '\\' or exists (select 1 from online_registration r \
                 where r.online_order_id = o.id and r.course_id = ${registered}))"
            ));
        }
        if let Some(before) = &self.before {
            let (time, cast) = place_before(backend, before);
            values.extend([time, before.id.clone()]);
            conditions.push(format!(
                "(o.created_at, o.id) < ({}, ${})",
                cast.replace('?', &format!("${}", values.len() - 1)),
                values.len()
            ));
        }
        let filter = if conditions.is_empty() { String::new() } else { format!("where {}", conditions.join(" and ")) };
        let sql = format!(
            "select o.id, o.reference, o.created_at, trim(coalesce(u.given_name || ' ' || u.family_name, '')) as name, \
             coalesce(o.email, u.email, '') as email, o.lines, o.total, {ONLINE_NET_PAID} as paid, o.status \
             from online_order o left join user_account u on u.id = o.user_id {filter} \
             order by o.created_at desc, o.id desc limit {}",
            crate::ORDERS_LISTED + 1
        );
        (sql, values)
    }
}

impl Db {
    /// The page of online orders matching `search`, newest first, at most
    /// [`crate::ORDERS_LISTED`], read in that order from the index of their
    /// time (migration 0048) and stopped at the page.
    pub async fn search_online_orders(&self, search: &OnlineOrderSearch) -> anyhow::Result<OnlineOrderPage> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            reference: String,
            created_at: DateTime<Utc>,
            name: String,
            email: String,
            lines: String,
            total: i64,
            paid: i64,
            status: String,
        }
        let (sql, values) = search.page_sql(self.backend());
        let rows: Vec<Row> = on_pool!(self, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()));
            for value in &values {
                query = query.bind(value);
            }
            query.fetch_all(pool).await
        })
        .context("Failed to search the online orders")?;
        let orders = rows
            .into_iter()
            .map(|row| {
                let lines: Vec<enrol_domain::online_order::PricedLine> =
                    serde_json::from_str(&row.lines).context("Stored order lines are not valid JSON")?;
                Ok(OnlineOrderListing {
                    status: OnlineOrderStatus::parse(&row.status).with_context(|| format!("Unknown online order status {}", row.status))?,
                    lines: lines.into_iter().map(|line| line.title).collect(),
                    id: row.id,
                    reference: row.reference,
                    created_at: row.created_at,
                    name: row.name,
                    email: row.email,
                    total: Money::from_pence(row.total),
                    paid: Money::from_pence(row.paid),
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let (orders, next) = page_of(orders, crate::ORDERS_LISTED, |order| OrderPlace { at: order.created_at, id: order.id.clone() });
        Ok(OnlineOrderPage { orders, next })
    }

    /// Online order `id` with everything that happened to it.
    pub async fn online_order_detail(&self, id: &str) -> anyhow::Result<Option<OnlineOrderDetail>> {
        #[derive(sqlx::FromRow)]
        struct Head {
            created_at: DateTime<Utc>,
            paid_at: Option<DateTime<Utc>>,
            name: String,
            paid: i64,
        }
        let Some(record) = self.online_order(id).await? else { return Ok(None) };
        let (head, refunded_lines): (Head, Vec<i64>) = on_pool!(self, pool => {
            let head = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select o.created_at, o.paid_at, trim(coalesce(u.given_name || ' ' || u.family_name, '')) as name, \
                 {ONLINE_NET_PAID} as paid from online_order o left join user_account u on u.id = o.user_id where o.id = $1"
            ))).bind(id).fetch_one(pool).await?;
            let lines = sqlx::query_scalar("select cast(line as bigint) from online_refund_line where online_order_id = $1 order by line")
                .bind(id).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((head, lines))
        })
        .context("Failed to read the online order")?;
        let mails = self.mails_to(record.email.as_deref().unwrap_or_default()).await?;
        let (payments, refunds) = self.purchase_money(None, Some(id)).await?;
        let audit = self.online_order_audit(id).await?;
        Ok(Some(OnlineOrderDetail {
            record,
            created_at: head.created_at,
            paid_at: head.paid_at,
            name: head.name,
            paid: Money::from_pence(head.paid),
            refunded_lines: refunded_lines.into_iter().filter_map(|line| usize::try_from(line).ok()).collect(),
            payments,
            refunds,
            mails,
            audit,
        }))
    }

    /// The audit trail of online order `id` and of the registrations it
    /// gave, newest first.
    async fn online_order_audit(&self, id: &str) -> anyhow::Result<Vec<AuditRow>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "{AUDIT_ROWS} where (l.entity = 'online_order' and l.entity_id = $1) or (l.entity = 'online_registration' \
             and l.entity_id in (select r.id from online_registration r where r.online_order_id = $1)) order by l.id desc limit 200"
        ))).bind(id).fetch_all(pool).await)
        .context("Failed to read the online order's audit trail")
    }
}
