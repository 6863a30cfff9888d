//! Orders in the back office (decision 017): finding bookings and reading
//! one whole (its payments, refunds, seat holds, mails and audit trail).
//! The payments, refunds and mails of an online order are read here too
//! (`online_search`).

use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

use enrol_domain::enrollment::BookedCourse;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::reference::typed_code;

use crate::ledger::payments::{OFFLINE_PAYMENT, PURCHASE_PAYMENTS};
use crate::orders::enrollments::{EnrollmentRecord, NET_PAID};
use crate::{AgreedConsent, AuditFilter, AuditRow, Backend, Db, OrderPlace, Pool, on_pool, page_of};

/// Which orders to find; every criterion given must match.
#[derive(Debug, Clone, Default)]
pub struct OrderSearch {
    /// Part of the name, the email or the order id, in any case.
    pub text: Option<String>,
    pub status: Option<EnrollmentStatus>,
    pub course_id: Option<String>,
    /// A session date of one of its courses.
    pub date: Option<NaiveDate>,
    /// The discount code it used.
    pub discount_code: Option<String>,
    /// Only the orders listed after this one (made before it).
    pub before: Option<OrderPlace>,
}

/// A page of the orders a search finds.
#[derive(Debug, Clone)]
pub struct OrderPage {
    /// Newest first, at most [`ORDERS_LISTED`].
    pub orders: Vec<OrderListing>,
    /// Where the next page starts; none on the last.
    pub next: Option<OrderPlace>,
}

/// An order in a list of them.
#[derive(Debug, Clone)]
pub struct OrderListing {
    pub id: String,
    pub reference: String,
    pub created_at: DateTime<Utc>,
    pub name: String,
    pub email: String,
    pub courses: Vec<BookedCourse>,
    pub total: Money,
    /// Payments less refunds.
    pub paid: Money,
    pub status: EnrollmentStatus,
}

/// A payment of an order.
#[derive(Debug, Clone)]
pub struct OrderPayment {
    pub id: String,
    pub amount: Money,
    pub method: String,
    pub status: String,
    /// What was entered for money taken by hand, else the provider's id.
    pub reference: String,
    pub created_at: DateTime<Utc>,
}

/// A refund of one of an order's payments.
#[derive(Debug, Clone)]
pub struct OrderRefund {
    pub id: String,
    pub amount: Money,
    pub status: String,
    pub reason: String,
    pub created_at: DateTime<Utc>,
    /// Of money taken by hand: a person gives it back and records it.
    pub by_hand: bool,
}

/// A seat an unpaid order holds.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderHold {
    pub session_id: String,
    pub expires_at: DateTime<Utc>,
}

/// A mail queued for an order's address.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderMail {
    pub id: String,
    pub to_address: String,
    pub subject: String,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

/// An order as the back office reads it, with everything that happened to it.
#[derive(Debug, Clone)]
pub struct OrderDetail {
    pub record: EnrollmentRecord,
    pub payments: Vec<OrderPayment>,
    pub refunds: Vec<OrderRefund>,
    pub holds: Vec<OrderHold>,
    /// Newest first.
    pub mails: Vec<OrderMail>,
    /// Newest first.
    pub audit: Vec<AuditRow>,
    /// What the buyer agreed to at checkout.
    pub agreed: Vec<AgreedConsent>,
}

/// The most orders one search lists.
pub const ORDERS_LISTED: usize = 100;
/// A page of orders, newest first, and one more: whether there is a next page.
static NEWEST: LazyLock<String> = LazyLock::new(|| format!("order by e.created_at desc, e.id desc limit {}", ORDERS_LISTED + 1));
/// The most mails and audit rows one order shows.
const HISTORY_SHOWN: i64 = 200;

/// The mails queued for the address `$1` (lowercased), newest first, at most `$2`.
pub(crate) const MAILS_TO: &str = "select id, to_address, subject, created_at, sent_at from mail_outbox \
     where lower(to_address) = $1 and $1 <> '' order by created_at desc, id desc limit $2";

/// The payments of a purchase ([`PURCHASE_PAYMENTS`]), oldest first.
pub(crate) static PAYMENTS_OF_PURCHASE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select id, amount, method, status, transaction_id, metadata, created_at from payment \
         where id in {PURCHASE_PAYMENTS} order by created_at, id"
    )
});

/// What the order search matches text in: a booking's reference, names,
/// address and id, lowercased.
const SEARCHED: &str = "lower(e.reference || ' ' || e.given_name || ' ' || e.family_name || ' ' || e.email || ' ' || e.id)";

/// The part of lowercased search `text` to look up in the trigram index:
/// of a whole address, the part up to the `@` (`sam.lee@`), when it is long
/// enough to have trigrams of its own. The domain's trigrams are in nearly
/// every booking (`example.com`), and a search reads every trigram's list
/// of bookings; the rest of the text is checked on the bookings found.
fn index_probe(text: &str) -> &str {
    match text.find('@') {
        Some(at) if at >= 3 && at + 1 < text.len() => &text[..=at],
        _ => text,
    }
}

/// The time of order place `before` as a value to bind, and the SQL that
/// reads it back (its `?` the value) as the engine keeps an order's time:
/// SQLite as sqlx writes it, to compare as text.
pub(crate) fn place_before(backend: Backend, before: &OrderPlace) -> (String, &'static str) {
    match backend {
        Backend::Postgres => (before.at.to_rfc3339(), "cast(? as timestamptz)"),
        Backend::Sqlite => (before.at.to_rfc3339_opts(SecondsFormat::AutoSi, false), "?"),
    }
}

/// `text` matched literally inside a `like … escape '\'` pattern.
pub(crate) fn like_literal(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// `text` matched literally inside a `glob` pattern.
fn glob_literal(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '*' | '?' | '[' => format!("[{c}]"),
            c => c.to_string(),
        })
        .collect()
}

impl OrderSearch {
    /// The ids of the page of orders `self` finds, newest first, at most
    /// [`ORDERS_LISTED`], on `backend`, and the values of its parameters.
    /// Only the page's ids are chosen here; the page's bookings are read
    /// after. Newest first, each way read in that order from an index and
    /// stopped at a page, so a common surname's or a course's thousands of
    /// bookings are never all read and sorted: by time from the index of
    /// each booking's id and time; a course's or a day's from the lines'
    /// index by course or day and time (migration 0047); on SQLite a text
    /// in the order the search table was written, the order the bookings
    /// were made.
    pub(crate) fn page_sql(&self, backend: Backend) -> (String, Vec<String>) {
        let mut values = Vec::new();
        // Found by text: a reference however it was typed or read out
        // ("b 7k3p9"), or any part of a reference, a name, an address or an
        // id, through the trigrams of that text (migration 0041).
        let text = self.text.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(|text| {
            values.push(typed_code(text).map(|code| format!("B-{code}")).unwrap_or_default());
            let text = text.to_lowercase();
            let probe = index_probe(&text);
            let (pattern, position) = match backend {
                Backend::Postgres => (format!("%{}%", like_literal(probe)), "strpos"),
                // FTS5 reads a pattern through its index only without an
                // escape clause: `glob`, with its own signs in brackets.
                Backend::Sqlite => (format!("*{}*", glob_literal(probe)), "instr"),
            };
            values.push(pattern);
            // The index found the rarer part; the whole text is checked on
            // the bookings it found, by a function no index answers.
            if probe.len() < text.len() {
                values.push(text.clone());
                format!(" and {position}({SEARCHED}, $3) > 0")
            } else {
                String::new()
            }
        });
        // Without a text, a course or else a day leads: its lines are read
        // newest first, each booking once (a booking's lines of one day
        // come together in that order).
        let lead = match (&text, &self.course_id, self.date) {
            (None, Some(course_id), _) => Some(("course_id", course_id.clone())),
            (None, None, Some(date)) => Some(("date", date.to_string())),
            _ => None,
        };
        let leads = |column: &str| lead.as_ref().is_some_and(|(led, _)| *led == column);
        let (course_id, date) = (self.course_id.clone().filter(|_| !leads("course_id")), self.date.filter(|_| !leads("date")));
        let mut others = String::new();
        // A condition, its `?` each the next of `given`.
        let mut condition = |given: &[String], sql: &str| {
            let mut sql = sql.to_owned();
            for value in given {
                values.push(value.clone());
                sql = sql.replacen('?', &format!("${}", values.len()), 1);
            }
            others.push_str(&format!(" and {sql}"));
        };
        if let Some((column, value)) = &lead {
            condition(std::slice::from_ref(value), &format!("l.{column} = ?"));
        }
        if let Some(before) = &self.before {
            let (at, id) = if lead.is_some() { ("l.created_at", "l.enrollment_id") } else { ("e.created_at", "e.id") };
            let (time, cast) = place_before(backend, before);
            condition(&[time, before.id.clone()], &format!("({at}, {id}) < ({cast}, ?)"));
        }
        if let Some(status) = self.status {
            condition(&[status.as_str().to_owned()], "e.status = ?");
        }
        if let Some(course_id) = course_id {
            condition(&[course_id], "e.id in (select l.enrollment_id from enrollment_line l where l.course_id = ?)");
        }
        if let Some(date) = date {
            condition(&[date.to_string()], "e.id in (select l.enrollment_id from enrollment_line l where l.date = ?)");
        }
        if let Some(code) = &self.discount_code {
            condition(std::slice::from_ref(code), "e.discount_code = ?");
        }
        let newest = NEWEST.as_str();
        let page = match (text, lead, backend) {
            (None, Some(_), _) => format!(
                "select enrollment_id from (select l.created_at, l.enrollment_id from enrollment_line l join enrollment e on e.id = l.enrollment_id \
                 where true{others} group by l.created_at, l.enrollment_id order by l.created_at desc, l.enrollment_id desc limit {}) as page",
                ORDERS_LISTED + 1
            ),
            (None, None, _) => format!("select e.id from enrollment e where true{others} {newest}"),
            (Some(whole), _, Backend::Postgres) => {
                format!(
                    "select e.id from enrollment e where (e.reference = $1 or ({SEARCHED} like $2 escape '\\'{whole})){others} {newest}"
                )
            }
            // The bookings of the last second, not yet in the search table
            // (migration 0049), are matched one by one: a few at most. The
            // queue is read first (`cross join`): analysed while empty, it
            // has no statistics, and the planner would read every booking
            // and look each up in it.
            (Some(whole), _, Backend::Sqlite) => format!(
                "select id from (select e.id from enrollment_search s join enrollment e on e.id = s.enrollment_id \
                 where s.text glob $2{whole}{others} order by s.rowid desc limit {}) \
                 union select e.id from enrollment_search_due d cross join enrollment e on e.id = d.enrollment_id \
                 where {SEARCHED} glob $2{whole}{others} \
                 union select e.id from enrollment e where e.reference = $1{others}",
                ORDERS_LISTED + 1
            ),
        };
        (page, values)
    }
}

/// The most bookings one run of [`Db::index_order_search`] writes in one
/// transaction: the turn is given up between them.
const INDEXED_AT_ONCE: i64 = 5_000;

/// SQLite: the bookings waiting for the search table (migration 0049), up to
/// place `$1` in their queue, written to it in the order they came.
static INDEX_DUE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "insert into enrollment_search (text, enrollment_id) select {SEARCHED}, e.id \
         from enrollment_search_due d join enrollment e on e.id = d.enrollment_id where d.seq <= $1 order by d.seq"
    )
});

impl Db {
    /// SQLite: writes the bookings made or changed since the last run to the
    /// order search's trigram table, in batches, each in a transaction of
    /// its own (migration 0049); how many. The server runs it every second,
    /// and `enrol demo grow` after growing. PostgreSQL's trigram index is
    /// kept with each booking's row: nothing to do.
    pub async fn index_order_search(&self) -> anyhow::Result<u64> {
        let Pool::Sqlite(pool) = &self.pool else { return Ok(0) };
        let mut indexed = 0;
        loop {
            let _turn = self.write_turn().await;
            let mut tx = pool.begin().await?;
            let last: Option<i64> =
                sqlx::query_scalar("select max(seq) from (select seq from enrollment_search_due order by seq limit $1) as batch")
                    .bind(INDEXED_AT_ONCE)
                    .fetch_one(&mut *tx)
                    .await?;
            let Some(last) = last else { return Ok(indexed) };
            indexed += sqlx::query(INDEX_DUE.as_str()).bind(last).execute(&mut *tx).await?.rows_affected();
            sqlx::query("delete from enrollment_search_due where seq <= $1").bind(last).execute(&mut *tx).await?;
            tx.commit().await.context("Failed to index the orders for search")?;
        }
    }

    /// The page of orders matching `search`, newest first, at most
    /// [`ORDERS_LISTED`]. Courses and dates are found in `enrollment_line`,
    /// which triggers keep from the lines as stored (migrations 0041, 0047).
    pub async fn search_orders(&self, search: &OrderSearch) -> anyhow::Result<OrderPage> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            reference: String,
            created_at: DateTime<Utc>,
            given_name: String,
            family_name: String,
            email: String,
            lines: String,
            total: i64,
            paid: i64,
            status: String,
        }
        let (page, values) = search.page_sql(self.backend());
        let newest = NEWEST.as_str();
        let sql = format!(
            "select e.id, e.reference, e.created_at, e.given_name, e.family_name, e.email, e.lines, e.total, {NET_PAID} as paid, e.status \
             from enrollment e where e.id in ({page}) {newest}"
        );
        let rows: Vec<Row> = on_pool!(self, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()));
            for value in &values {
                query = query.bind(value);
            }
            query.fetch_all(pool).await
        })
        .context("Failed to search the orders")?;
        let orders = rows
            .into_iter()
            .map(|row| {
                Ok(OrderListing {
                    status: EnrollmentStatus::parse(&row.status).with_context(|| format!("Unknown enrollment status {}", row.status))?,
                    courses: serde_json::from_str(&row.lines).context("Stored enrollment lines are not valid JSON")?,
                    name: format!("{} {}", row.given_name, row.family_name).trim().to_owned(),
                    id: row.id,
                    reference: row.reference,
                    created_at: row.created_at,
                    email: row.email,
                    total: Money::from_pence(row.total),
                    paid: Money::from_pence(row.paid),
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let (orders, next) = page_of(orders, ORDERS_LISTED, |order| OrderPlace { at: order.created_at, id: order.id.clone() });
        Ok(OrderPage { orders, next })
    }

    /// Order `id` with its payments, refunds, holds, the mails sent to its
    /// address and its audit trail.
    pub async fn order_detail(&self, id: &str) -> anyhow::Result<Option<OrderDetail>> {
        let Some(record) = self.enrollment(id).await? else { return Ok(None) };
        let holds: Vec<OrderHold> = on_pool!(self, pool => sqlx::query_as(
            "select session_id, expires_at from seat_hold where enrollment_id = $1 order by session_id"
        ).bind(id).fetch_all(pool).await)
        .context("Failed to read the order's seat holds")?;
        let mails = self.mails_to(&record.email).await?;
        let (payments, refunds) = self.purchase_money(Some(id), None).await?;
        let audit = self
            .audit_entries(&AuditFilter {
                entity: Some("order".to_owned()),
                entity_id: Some(id.to_owned()),
                limit: HISTORY_SHOWN,
                ..AuditFilter::default()
            })
            .await?;
        let agreed = self.enrollment_consents(id).await?;
        Ok(Some(OrderDetail { record, payments, refunds, holds, mails, audit, agreed }))
    }

    /// The mails queued for `email`, newest first.
    pub(crate) async fn mails_to(&self, email: &str) -> anyhow::Result<Vec<OrderMail>> {
        let email = email.trim().to_lowercase();
        on_pool!(self, pool => sqlx::query_as(MAILS_TO).bind(&email).bind(HISTORY_SHOWN).fetch_all(pool).await)
            .context("Failed to read the order's mails")
    }

    /// The payments and refunds of a purchase, the booking `enrollment_id`
    /// or the online order `online_order_id` (the other `None`), oldest
    /// first.
    pub(crate) async fn purchase_money(
        &self,
        enrollment_id: Option<&str>,
        online_order_id: Option<&str>,
    ) -> anyhow::Result<(Vec<OrderPayment>, Vec<OrderRefund>)> {
        #[derive(sqlx::FromRow)]
        struct RefundRow {
            id: String,
            amount: i64,
            status: String,
            reason: String,
            created_at: DateTime<Utc>,
            by_hand: bool,
        }
        #[derive(sqlx::FromRow)]
        struct PaymentRow {
            id: String,
            amount: i64,
            method: String,
            status: String,
            transaction_id: String,
            metadata: String,
            created_at: DateTime<Utc>,
        }
        let (payments, refunds): (Vec<PaymentRow>, Vec<RefundRow>) = on_pool!(self, pool => {
            let payments = sqlx::query_as(sqlx::AssertSqlSafe(PAYMENTS_OF_PURCHASE.as_str())).bind(enrollment_id).bind(online_order_id).fetch_all(pool).await?;
            let refunds = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select r.id, r.amount, r.status, r.reason, r.created_at, p.transaction_id like $3 as by_hand \
                 from refund r join payment p on p.id = r.payment_id where r.payment_id in {PURCHASE_PAYMENTS} \
                 order by r.created_at, r.id"
            ))).bind(enrollment_id).bind(online_order_id).bind(format!("{OFFLINE_PAYMENT}%")).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((payments, refunds))
        })
        .context("Failed to read the payments")?;
        let payments = payments
            .into_iter()
            .map(|row| {
                let metadata: serde_json::Value = serde_json::from_str(&row.metadata).unwrap_or_default();
                OrderPayment {
                    reference: metadata["reference"].as_str().map_or(row.transaction_id, str::to_owned),
                    id: row.id,
                    amount: Money::from_pence(row.amount),
                    method: row.method,
                    status: row.status,
                    created_at: row.created_at,
                }
            })
            .collect();
        let refunds = refunds
            .into_iter()
            .map(|row| OrderRefund {
                id: row.id,
                amount: Money::from_pence(row.amount),
                status: row.status,
                reason: row.reason,
                created_at: row.created_at,
                by_hand: row.by_hand,
            })
            .collect();
        Ok((payments, refunds))
    }
}

#[cfg(test)]
mod tests {
    use super::like_literal;

    #[test]
    fn glob_patterns_match_their_text_literally() {
        assert_eq!(super::glob_literal("50*_off?[x]"), "50[*]_off[?][[]x]");
        assert_eq!(super::glob_literal("sam.lee@example.com"), "sam.lee@example.com");
    }

    #[test]
    fn a_whole_address_is_looked_up_by_its_part_before_the_domain() {
        assert_eq!(super::index_probe("sam.lee@example.com"), "sam.lee@");
        assert_eq!(super::index_probe("sam.lee@"), "sam.lee@");
        assert_eq!(super::index_probe("@example.com"), "@example.com");
        assert_eq!(super::index_probe("al@example.com"), "al@example.com");
        assert_eq!(super::index_probe("smith"), "smith");
    }

    #[test]
    fn like_patterns_match_their_text_literally() {
        assert_eq!(like_literal("50%_off\\"), "50\\%\\_off\\\\");
        assert_eq!(like_literal("sam.lee@example.com"), "sam.lee@example.com");
    }
}
