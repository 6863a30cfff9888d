//! The queries that must read through an index whatever the college's
//! size (issue 31): a student's account, the dashboard's takings, the
//! accountant's exports, an order's page, the sessions list and what the
//! scheduled jobs look for. [`Db::query_plans`] asks the database how it
//! would run each, so a test can fail when a change makes one walk a
//! whole table. On PostgreSQL the plans are made with sequential scans,
//! hash and merge joins priced out, as they are on large tables, so a
//! table scanned there has no index the query can use.

use anyhow::Context as _;
use chrono::NaiveDate;
use sqlx::Row as _;

use crate::counting::SEATS_TAKEN;
use crate::money::figures::{BALANCES_OWED, PAYMENT_EXPORT, REFUND_EXPORT, TAKINGS, order_export_sql};
use crate::money::reminders::BALANCES_DUE;
use crate::orders::checkout::{LIVE_ORDERS_OF_CLIENT, ORDER_TRANSACTION_SETTINGS};
use crate::orders::fulfilment::QUIET_CLIENTS;
use crate::orders::search::{MAILS_TO, PAYMENTS_OF_PURCHASE};
use crate::records::readiness_jobs::{REMOVALS_CANDIDATES, TASKS_OPEN};
use crate::records::student::{ENROLLMENTS_OF, PAYMENTS_OF, REGISTRATIONS_OF};
use crate::seats::HOLD_A_SEAT;
use crate::seats::sessions::FilterValue;
use crate::waiting::offers::SESSIONS_WAITED_FOR;
use crate::{Backend, Db, OnlineOrderSearch, OrderPlace, OrderSearch, Pool, SessionFilter, SessionPlace};

/// How the database would run one of the queries.
#[derive(Debug, Clone)]
pub struct QueryPlan {
    pub name: &'static str,
    /// The plan as the engine words it, a step a line.
    pub plan: String,
    /// The tables and partial indexes (or a subquery's name) the query may
    /// read whole: what stays the size of what is live, whatever the years.
    pub may_walk: &'static [&'static str],
    /// Whether what it finds must come in the order asked, from an index,
    /// with no sort of everything found before the page is taken.
    pub in_order: bool,
}

/// A query and values for its parameters, as SQL literals.
struct Explained {
    name: &'static str,
    sql: String,
    values: Vec<String>,
    may_walk: &'static [&'static str],
    in_order: bool,
}

impl Explained {
    fn new(name: &'static str, sql: impl Into<String>, values: &[&str]) -> Self {
        Explained { name, sql: sql.into(), values: values.iter().map(|v| (*v).to_owned()).collect(), may_walk: &[], in_order: false }
    }

    fn walking(self, may_walk: &'static [&'static str]) -> Self {
        Explained { may_walk, ..self }
    }

    fn named(self, name: &'static str) -> Self {
        Explained { name, ..self }
    }

    /// The page of orders `search` finds, on `backend`: its page of ids is
    /// read whole, at most a page.
    fn order_page(name: &'static str, search: &OrderSearch, backend: Backend) -> Self {
        let (sql, values) = search.page_sql(backend);
        let values: Vec<String> = values.iter().map(|value| format!("'{value}'")).collect();
        Explained { name, sql, values, may_walk: &["page"], in_order: true }
    }

    /// The page of online orders `search` finds, on `backend`: read newest
    /// first along the index of their time and stopped at a page.
    fn online_order_page(name: &'static str, search: &OnlineOrderSearch, backend: Backend) -> Self {
        let (sql, values) = search.page_sql(backend);
        let values: Vec<String> = values.iter().map(|value| format!("'{value}'")).collect();
        Explained { name, sql, values, may_walk: &["online_order_by_time"], in_order: true }
    }
}

const RANGE_PAGE: &[&str] = &["'2026-01-01T00:00:00Z'", "'2027-01-01T00:00:00Z'", "'2026-06-01T00:00:00Z'", "'0196'", "1000"];

fn explained(backend: Backend) -> Vec<Explained> {
    let by_user: &[&str] = &["'0196a1b2-user'"];
    let from = NaiveDate::from_ymd_opt(2026, 12, 1);
    let place = SessionPlace::parse("2026-12-14T09:30:00_0196-session");
    let sessions_from = sessions_listed(&SessionFilter { from, ..SessionFilter::default() });
    let sessions_after = sessions_listed(&SessionFilter { from, after: place, ..SessionFilter::default() });
    let before = OrderPlace::parse("2026-06-01T09:30:00.123456Z_0196-order");
    vec![
        Explained::new("account registrations", REGISTRATIONS_OF, by_user),
        Explained::new("account bookings", ENROLLMENTS_OF, by_user),
        Explained::new("account payments", PAYMENTS_OF, by_user),
        Explained::new("dashboard takings", TAKINGS, &RANGE_PAGE[..2]),
        // The bookings on a deposit are those with money still to take.
        Explained::new("dashboard balances owed", BALANCES_OWED, &["'2026-12-01'"])
            .walking(&["enrollment_deposit_owed", "enrollment_deposit_by_start"]),
        Explained::new("orders export page", order_export_sql(), RANGE_PAGE),
        Explained::new("payments export page", PAYMENT_EXPORT, RANGE_PAGE),
        Explained::new("refunds export page", REFUND_EXPORT, RANGE_PAGE),
        Explained::new("order's payments", PAYMENTS_OF_PURCHASE.as_str(), &["'0196-order'", "'0196-online'"]),
        Explained::new("order's mails", MAILS_TO, &["'amelia@student.example'", "200"]),
        Explained::new("client's unpaid orders", LIVE_ORDERS_OF_CLIENT, &["'203.0.113.5'", "'0196-browser'", "'2026-12-01T09:00:00Z'"]),
        // The clients at work are those of the orders holding seats now.
        Explained::new("quiet clients forgotten", QUIET_CLIENTS, &["'2026-12-01T09:00:00Z'"]).walking(&["hold_client"]),
        // An order counts the seats of its course's dates still offered; a
        // course's events are one a course.
        Explained::new(
            "seats taken of a course's dates",
            SEATS_TAKEN.as_str(),
            &["'0196-course'", "'2026-12-01T09:00:00Z'", "''", "'2026-12-01'"],
        )
        .walking(&["ev"]),
        sessions_from.named("sessions list from a day"),
        sessions_after.named("sessions list after a page"),
        // Parts refused for good are few: those of plans still running.
        Explained::new("balance reminders due", BALANCES_DUE.as_str(), &["'2026-12-08'", "'2026-12-01'"])
            .walking(&["plan_instalment_failed"]),
        Explained::new("sessions with a waiting list", SESSIONS_WAITED_FOR, &[]).walking(&["session_with_waiting"]),
        // The open tasks are those of training still ahead.
        Explained::new("readiness tasks open", TASKS_OPEN.as_str(), &[]).walking(&["user_form_open", "upload_request_open", "f"]),
        // Medical answers and files are kept only until some weeks after training.
        // A course's and a day's bookings, the newest hundred of thousands.
        Explained::order_page(
            "orders of a course",
            &OrderSearch { course_id: Some("0196-course".to_owned()), ..OrderSearch::default() },
            backend,
        ),
        Explained::order_page(
            "orders of a day",
            &OrderSearch { date: NaiveDate::from_ymd_opt(2026, 12, 1), ..OrderSearch::default() },
            backend,
        ),
        Explained::order_page(
            "orders of a code",
            &OrderSearch { discount_code: Some("SPRING10".to_owned()), ..OrderSearch::default() },
            backend,
        ),
        // Found by text: through the trigrams of the bookings' text, and on
        // SQLite the few bookings still waiting for its search table (`d`,
        // migration 0049), each booking then by its key. What the text
        // finds is sorted: a page of the newest a surname found (SQLite's
        // subquery), all of them (PostgreSQL's bitmap).
        Explained {
            in_order: false,
            ..Explained::order_page(
                "orders found by text",
                &OrderSearch { text: Some("kelly".to_owned()), ..OrderSearch::default() },
                backend,
            )
        }
        .walking(&["page", "d", "subquery-1"]),
        Explained::order_page("orders after a page", &OrderSearch { before: before.clone(), ..OrderSearch::default() }, backend),
        Explained::order_page(
            "orders of a course after a page",
            &OrderSearch { course_id: Some("0196-course".to_owned()), before: before.clone(), ..OrderSearch::default() },
            backend,
        ),
        // The online orders, newest first, at a first page and after one.
        Explained::online_order_page("online orders", &OnlineOrderSearch::default(), backend),
        Explained::online_order_page("online orders after a page", &OnlineOrderSearch { before, ..OnlineOrderSearch::default() }, backend),
        Explained::online_order_page(
            "online orders found by text",
            &OnlineOrderSearch { text: Some("kelly".to_owned()), ..OnlineOrderSearch::default() },
            backend,
        ),
        Explained::new("removals due", REMOVALS_CANDIDATES, &[]).walking(&[
            "medical_answer",
            "upload",
            "sqlite_autoindex_medical_answer_1",
        ]),
    ]
}

/// The first page of sessions `filter` lists, at 09:00 on 1 December 2026;
/// each session's course and event may be found by walking the courses and
/// their events: one of each a course, as many as the catalogue has.
fn sessions_listed(filter: &SessionFilter) -> Explained {
    let (sql, days) = filter.sql(101);
    let mut values = vec!["'2026-12-01T09:00:00Z'".to_owned()];
    values.extend(days.iter().map(|value| match value {
        FilterValue::Text(text) => format!("'{text}'"),
        FilterValue::Day(day) => format!("'{day}'"),
        FilterValue::Time(time) => format!("'{}'", time.format("%Y-%m-%d %H:%M:%S")),
    }));
    Explained { name: "", sql, values, may_walk: &["ev", "course"], in_order: true }
}

/// `sql` with its parameters `$1`, `$2`, … written as `values`.
fn with_values(sql: &str, values: &[&str]) -> String {
    // The highest first, so `$1` never takes the start of `$10`.
    values.iter().enumerate().rev().fold(sql.to_owned(), |sql, (i, value)| sql.replace(&format!("${}", i + 1), value))
}

/// How SQLite would run `sql`, a step a line.
async fn sqlite_plan(pool: &sqlx::SqlitePool, sql: &str) -> sqlx::Result<Vec<String>> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!("explain query plan {sql}"))).fetch_all(pool).await?;
    rows.iter().map(|row| row.try_get::<String, _>("detail")).collect()
}

impl Db {
    /// How the database would run each of the queries that must use an index.
    pub async fn query_plans(&self) -> anyhow::Result<Vec<QueryPlan>> {
        let mut plans = Vec::new();
        for query in explained(self.backend()) {
            let values: Vec<&str> = query.values.iter().map(String::as_str).collect();
            let sql = with_values(&query.sql, &values);
            let lines: Vec<String> = match self.pool() {
                Pool::Sqlite(pool) => sqlite_plan(pool, &sql).await,
                Pool::Postgres(pool) => {
                    async {
                        let mut tx = pool.begin().await?;
                        // Each table reached through an index from the rows before it, or flagged.
                        for setting in ["enable_seqscan", "enable_hashjoin", "enable_mergejoin"] {
                            sqlx::query(sqlx::AssertSqlSafe(format!("set local {setting} = off"))).execute(&mut *tx).await?;
                        }
                        let lines = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("explain {sql}"))).fetch_all(&mut *tx).await?;
                        tx.rollback().await?;
                        Ok(lines)
                    }
                    .await
                }
            }
            .with_context(|| format!("Failed to explain the {}", query.name))?;
            plans.push(QueryPlan { name: query.name, plan: lines.join("\n"), may_walk: query.may_walk, in_order: query.in_order });
        }
        Ok(plans)
    }
}

/// A statement of a new order whose plan PostgreSQL keeps, made without
/// its values (decisions 049 and 050).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeptStatement {
    /// The seat hold, in `hold_a_seat`.
    SeatHold,
    /// The seats taken of the order's course, in `seats_taken`.
    SeatsTaken,
    /// The client's unpaid orders, in the order's transaction.
    LiveOrdersOfClient,
}

impl KeptStatement {
    fn sql(self) -> &'static str {
        match self {
            KeptStatement::SeatHold => HOLD_A_SEAT.as_str(),
            KeptStatement::SeatsTaken => SEATS_TAKEN.as_str(),
            KeptStatement::LiveOrdersOfClient => LIVE_ORDERS_OF_CLIENT,
        }
    }

    /// The PostgreSQL function that runs it, whose own settings it is
    /// planned under (migration 0053); none: the order's transaction runs
    /// it, under that transaction's settings.
    fn function(self) -> Option<&'static str> {
        match self {
            KeptStatement::SeatHold => Some("hold_a_seat"),
            KeptStatement::SeatsTaken => Some("seats_taken"),
            KeptStatement::LiveOrdersOfClient => None,
        }
    }

    /// Its parameters' types on PostgreSQL, and values to explain it with.
    fn parameters(self) -> (&'static str, &'static str) {
        match self {
            KeptStatement::SeatHold => {
                ("(text, timestamptz, text, timestamptz)", "('session', '2026-12-01T09:00:00Z', 'order', '2026-12-01T09:15:00Z')")
            }
            KeptStatement::SeatsTaken => ("(text, timestamptz, text, date)", "('course', '2026-12-01T09:00:00Z', 'order', '2026-12-01')"),
            KeptStatement::LiveOrdersOfClient => ("(text, text, timestamptz)", "('203.0.113.5', '0196-browser', '2026-12-01T09:00:00Z')"),
        }
    }
}

impl Db {
    /// How the database runs `statement` with the plan it keeps for it, its
    /// values unknown: on PostgreSQL the generic plan (decisions 049 and
    /// 050), as it would be made from the tables as they are now under the
    /// settings of what runs it (its function, or the order's transaction,
    /// decision 051); on SQLite the plan of the
    /// statement prepared now, which the connection keeps.
    pub async fn kept_plan(&self, statement: KeptStatement) -> anyhow::Result<String> {
        let lines: Vec<String> = match self.pool() {
            Pool::Sqlite(pool) => sqlite_plan(pool, statement.sql()).await,
            Pool::Postgres(pool) => {
                async {
                    let (types, values) = statement.parameters();
                    let mut conn = pool.acquire().await?;
                    // The settings it is planned under, for this transaction
                    // alone: its function's own (`name=value` each), or the
                    // order's transaction's.
                    let set = match statement.function() {
                        Some(function) => {
                            let settings: Vec<String> = sqlx::query_scalar("select unnest(proconfig) from pg_proc where proname = $1")
                                .bind(function)
                                .fetch_all(&mut *conn)
                                .await?;
                            settings
                                .iter()
                                .filter_map(|setting| setting.split_once('='))
                                .map(|(name, value)| format!("set local {name} = '{value}'; "))
                                .collect()
                        }
                        None => format!("{ORDER_TRANSACTION_SETTINGS}; "),
                    };
                    let prepare = format!("prepare kept {types} as {}", statement.sql());
                    sqlx::raw_sql(sqlx::AssertSqlSafe(prepare)).execute(&mut *conn).await?;
                    let explain = format!("begin; {set}set local plan_cache_mode = force_generic_plan; explain execute kept {values}");
                    let explained = sqlx::raw_sql(sqlx::AssertSqlSafe(explain)).fetch_all(&mut *conn).await;
                    sqlx::raw_sql("rollback; deallocate kept").execute(&mut *conn).await?;
                    explained?.iter().map(|row| row.try_get::<String, _>(0)).collect()
                }
                .await
            }
        }
        .with_context(|| format!("Failed to explain the kept plan of {statement:?}"))?;
        Ok(lines.join("\n"))
    }

    /// The PostgreSQL settings that keep its statistics current which are
    /// off: `autovacuum`, which analyses a table as it grows and clears its
    /// dead rows and its trigram indexes' pending lists, and `track_counts`,
    /// which tells autovacuum what changed. With either off the plans are
    /// made for the tables as they were long ago: the job that forgets
    /// quiet clients, planned on a count of no unpaid orders, read every
    /// unpaid order for each client (34 s in a busy sale), and now and then
    /// one booking's insert flushes the search index's list in the
    /// foreground (730 ms at ten years). None on SQLite, which has neither.
    pub async fn statistics_kept_off(&self) -> anyhow::Result<Vec<String>> {
        match self.pool() {
            Pool::Sqlite(_) => Ok(Vec::new()),
            Pool::Postgres(pool) => sqlx::query_scalar(
                "select name from pg_settings where name in ('autovacuum', 'track_counts') and setting = 'off' order by name",
            )
            .fetch_all(pool)
            .await
            .context("Failed to read PostgreSQL's settings"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_values;

    #[test]
    fn parameters_are_written_as_their_values() {
        let sql = "select $1, $10, $2 from t where a = $1";
        let values = ["'a'", "2", "3", "4", "5", "6", "7", "8", "9", "'ten'"];
        assert_eq!(with_values(sql, &values), "select 'a', 'ten', 2 from t where a = 'a'");
    }
}
