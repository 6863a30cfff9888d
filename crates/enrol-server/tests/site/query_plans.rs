//! The queries that must stay fast whatever the college's size (issue 31)
//! read through an index on both engines: no plan walks a whole table
//! that grows with the years; the scheduled jobs walk only what is live.
//! The accountant's exports are read a page at a time, and a file of many
//! pages is whole.

use chrono::{Duration, TimeZone, Utc};
use enrol_db::{KeptStatement, on_pool};
use enrol_domain::grow::GrowPlan;
use enrol_domain::staff::Role;
use enrol_server::demo_history;

use crate::admin::staff_member;
use crate::both_backends;
use crate::helpers::{Backend, TestApp, fresh_database, postgres_admin_url};

/// The steps of a PostgreSQL plan that read a whole table: a sequential
/// scan, or an index scan with no condition on the index (walking it all
/// for its order, filtering each row).
fn postgres_walks(plan: &str) -> Vec<&str> {
    plan.split("->")
        .filter(|node| {
            node.contains("Seq Scan")
                || (node.contains("Index") && node.contains(" Scan") && !node.contains("Bitmap Heap") && !node.contains("Index Cond:"))
        })
        .collect()
}

/// The steps of a SQLite plan that read a whole table or index. A virtual
/// table read with a constraint its module answers (FTS5's trigram `glob`:
/// `INDEX 192:G0`) is read through its index; one without (`INDEX 0:`) is
/// a walk.
fn sqlite_walks(plan: &str) -> Vec<&str> {
    plan.lines()
        .filter(|step| step.starts_with("SCAN ") && !step.starts_with("SCAN CONSTANT ROW"))
        .filter(|step| !step.contains(" VIRTUAL TABLE INDEX ") || step.ends_with(':'))
        .collect()
}

/// The steps of a plan that sort what they found: PostgreSQL's `Sort` and
/// `Incremental Sort`, SQLite's temporary b-trees for an order or a
/// `distinct`.
fn sorts(plan: &str) -> Vec<&str> {
    plan.lines().filter(|step| step.contains("Sort  (") || step.contains("Sort Key:") || step.contains("USE TEMP B-TREE")).collect()
}

/// Whether a step walks only what `may_walk` names: a table, a partial
/// index or a subquery that stays the size of what is live.
fn walks_only(step: &str, may_walk: &[&str]) -> bool {
    step.split(|c: char| c.is_whitespace() || c == '(' || c == ')').any(|word| may_walk.contains(&word))
}

#[test]
fn a_virtual_table_read_without_a_constraint_is_a_walk() {
    assert_eq!(sqlite_walks("SCAN s VIRTUAL TABLE INDEX 0:"), ["SCAN s VIRTUAL TABLE INDEX 0:"]);
    assert!(sqlite_walks("SCAN s VIRTUAL TABLE INDEX 192:G0").is_empty());
}

#[test]
fn a_walk_over_a_whole_index_is_a_walk() {
    assert_eq!(postgres_walks("Seq Scan on payment  (cost=0.00..1.00 rows=1 width=40)").len(), 1);
    assert_eq!(
        postgres_walks(
            "Index Scan Backward using payment_by_time on payment  (cost=0.14..48.00 rows=1 width=40)\n  Filter: (user_id = 'x'::text)"
        )
        .len(),
        1
    );
    assert!(
        postgres_walks(
            "Index Only Scan Backward using payment_by_user on payment  (cost=0.14..8.16 rows=1 width=40)\n  Index Cond: (user_id = 'x'::text)"
        )
        .is_empty()
    );
    assert!(
        postgres_walks(
            "Bitmap Heap Scan on refund\n  Recheck Cond: (status = 'succeeded')\n  ->  Bitmap Index Scan on refund_by_completed_time\n        Index Cond: (completed_at >= now())"
        )
        .is_empty()
    );
    assert_eq!(sqlite_walks("SEARCH e USING INDEX enrollment_by_user (user_id=?)\nSCAN user_form USING INDEX user_form_open").len(), 1);
    assert!(walks_only("Index Scan using user_form_open on user_form  (cost=0.12..8.14 rows=1 width=64)", &["user_form_open"]));
    assert!(walks_only("SCAN user_form USING INDEX user_form_open", &["user_form_open"]));
    assert!(!walks_only("SCAN user_form", &["user_form_open"]), "the table is not its partial index");
    assert!(!walks_only("Seq Scan on user_form f  (cost=0.00..1.00 rows=1 width=64)", &["user_form_open"]));
}

#[test]
fn a_sort_of_what_was_found_is_a_sort() {
    assert_eq!(sorts("Limit  (cost=1.00..2.00 rows=100 width=40)\n  ->  Sort  (cost=1.00..1.50 rows=6800 width=40)\n        Sort Key: l.created_at DESC").len(), 2);
    assert_eq!(sorts("Limit\n  ->  Incremental Sort  (cost=1.00..1.50 rows=6800 width=40)").len(), 1);
    assert_eq!(sorts("SEARCH l USING INDEX enrollment_line_by_course (course_id=?)\nUSE TEMP B-TREE FOR ORDER BY").len(), 1);
    assert!(sorts("Limit\n  ->  Index Scan Backward using enrollment_line_by_course on enrollment_line l\n        Index Cond: (course_id = 'x'::text)").is_empty());
}

both_backends! {
    async fn the_account_the_dashboard_the_exports_the_order_page_and_the_jobs_read_through_indexes(app: TestApp) {
        // A decade at a hundredth of a busy college's size, analysed as
        // `enrol demo grow` leaves it: the planner weighs real proportions
        // (many bookings, few medical answers kept) as it will at full size.
        demo_history::grow(app.db(), &app.state.config, GrowPlan::new(10, 0.01).unwrap(), 1).await.unwrap();
        let plans = app.db().query_plans().await.unwrap();
        assert_eq!(plans.len(), 28);
        for query in plans {
            let walks = match app.db().backend() {
                enrol_db::Backend::Postgres => postgres_walks(&query.plan),
                enrol_db::Backend::Sqlite => sqlite_walks(&query.plan),
            };
            let walks: Vec<&str> = walks.into_iter().filter(|step| !walks_only(step, query.may_walk)).collect();
            assert!(walks.is_empty(), "the {} walks a table ({walks:?}):\n{}", query.name, query.plan);
            if query.in_order {
                assert!(sorts(&query.plan).is_empty(), "the {} sorts what it found:\n{}", query.name, query.plan);
            }
        }
        app.stop().await;
    }

    async fn forgetting_the_quiet_clients_looks_up_each_clients_unpaid_orders_by_its_key(app: TestApp) {
        // The job reads the clients at work whole, and for each the unpaid
        // orders of its address and of its browser, each through the index
        // of both its columns: never every unpaid order for every client,
        // which a busy sale makes many of both.
        let plans = app.db().query_plans().await.unwrap();
        let plan = &plans.iter().find(|query| query.name == "quiet clients forgotten").unwrap().plan;
        assert_reads_a_clients_unpaid_orders_by_its_keys(plan, app.db().backend(), "hold_client.client_key", "hold_client.client_key");
        app.stop().await;
    }

    async fn what_a_booking_holds_is_kept_as_its_payments_less_its_refunds_however_they_change(app: TestApp) {
        demo_history::grow(app.db(), &app.state.config, GrowPlan::new(10, 0.01).unwrap(), 1).await.unwrap();
        let wrong = || async {
            on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>(
                "select count(*) from enrollment e where e.paid <> coalesce((select sum(p.amount) from payment p where p.enrollment_id = e.id), 0) \
                 - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = e.id), 0)"
            ).fetch_one(pool).await).unwrap()
        };
        let refunded: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select count(*) from refund").fetch_one(pool).await).unwrap();
        assert!(refunded > 0, "the history has refunds");
        assert_eq!(wrong().await, 0, "every payment and refund the history recorded");
        // What the product never does, but a person may by hand.
        for change in [
            "update payment set amount = amount + 1 where id = (select min(payment_id) from refund)",
            "update payment set enrollment_id = (select max(enrollment_id) from payment) where id = (select min(payment_id) from refund)",
            "update refund set amount = amount + 1 where id = (select max(id) from refund)",
            "insert into refund (id, payment_id, amount, reason, created_at) \
             values ('refund-by-hand', (select min(id) from payment where enrollment_id is not null), 100, 'by hand', current_timestamp)",
            "update refund set payment_id = (select max(id) from payment where enrollment_id is not null) where id = 'refund-by-hand'",
            "delete from refund where id = 'refund-by-hand'",
            "insert into payment (id, enrollment_id, amount, status, currency, transaction_id, method, metadata, created_at) \
             values ('pay-by-hand', (select max(id) from enrollment), 1234, 'succeeded', 'gbp', 'by-hand', 'card', '{}', current_timestamp)",
            "delete from payment where id = 'pay-by-hand'",
        ] {
            on_pool!(app.db(), pool => sqlx::query(change).execute(pool).await.map(drop)).unwrap();
            assert_eq!(wrong().await, 0, "after {change}");
        }
        app.stop().await;
    }

    async fn a_payments_export_of_many_pages_has_every_row_once_in_order(app: TestApp) {
        // 2,345 payments in 2026, seven at each instant, so pages end between payments made at once.
        let start = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
        on_pool!(app.db(), pool => async {
            let mut tx = pool.begin().await?;
            for n in 0..2345_i64 {
                sqlx::query("insert into payment (id, amount, status, currency, transaction_id, method, metadata, created_at) \
                             values ($1, $2, 'succeeded', 'gbp', $3, 'card', '{}', $4)")
                    .bind(format!("pay-{:04}", (n * 7919) % 2345)).bind(100 + n).bind(format!("pi_{n}"))
                    .bind(start + Duration::minutes(n / 7)).execute(&mut *tx).await?;
            }
            tx.commit().await
        }.await)
        .unwrap();
        let (staff, _) = staff_member(&app, Role::Owner, "owner@college.test").await;
        let answer = staff.get(app.url("/api/admin/exports/payments.csv?from=2026-01-01&to=2026-12-31")).send().await.unwrap();
        assert_eq!(answer.status(), 200);
        assert_eq!(answer.headers()["content-type"], "text/csv; charset=utf-8");
        let file = answer.text().await.unwrap();
        let mut lines = file.lines();
        assert_eq!(lines.next(), Some("\u{feff}\"Payment\",\"Received\",\"Order reference\",\"Order\",\"Name\",\"Email\",\"Method\",\"Amount\",\"Reference\",\"Status\""));
        let rows: Vec<(String, String)> = lines
            .map(|line| {
                let cells: Vec<&str> = line.split(',').map(|c| c.trim_matches('"')).collect();
                (cells[1].to_owned(), cells[0].to_owned())
            })
            .collect();
        assert_eq!(rows.len(), 2345, "every payment");
        let mut sorted = rows.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(rows, sorted, "once each, by the time received and then by id");
        // Compressed for a browser, whole to its end.
        let compressed = staff.get(app.url("/api/admin/exports/payments.csv?from=2026-01-01&to=2026-12-31"))
            .header("accept-encoding", "gzip").send().await.unwrap();
        assert_eq!(compressed.headers()["content-encoding"], "gzip");
        assert!(compressed.bytes().await.is_ok(), "the compressed file ends as a file does");
        app.stop().await;
    }
}

/// The steps of a plan, each as its engine words it: PostgreSQL's nodes,
/// SQLite's lines.
fn plan_steps(plan: &str, backend: enrol_db::Backend) -> Vec<&str> {
    match backend {
        enrol_db::Backend::Postgres => plan.split("->").collect(),
        enrol_db::Backend::Sqlite => plan.lines().collect(),
    }
}

/// Asserts that `plan` reads a client's unpaid orders (`address` and
/// `browser`: what PostgreSQL's plan compares the two keys with) each
/// through the index of both its columns, the address's and the browser's.
fn assert_reads_a_clients_unpaid_orders_by_its_keys(plan: &str, backend: enrol_db::Backend, address: &str, browser: &str) {
    let ways = match backend {
        enrol_db::Backend::Postgres => [
            ["enrollment_by_client".to_owned(), format!("Index Cond: ((client_key = {address}) AND (status = 'pending'::text))")],
            ["enrollment_by_owner".to_owned(), format!("Index Cond: ((owner_token_hash = {browser}) AND (status = 'pending'::text))")],
        ],
        enrol_db::Backend::Sqlite => [
            ["enrollment_by_client".to_owned(), "(client_key=? AND status=?)".to_owned()],
            ["enrollment_by_owner".to_owned(), "(owner_token_hash=? AND status=?)".to_owned()],
        ],
    };
    let steps = plan_steps(plan, backend);
    for way in ways {
        assert!(steps.iter().any(|step| way.iter().all(|part| step.contains(part.as_str()))), "read by {way:?}:\n{plan}");
    }
}

/// Whether `plan` reads a table whole: PostgreSQL's sequential scans,
/// SQLite's scans (other than of the one row of a select without a table).
fn reads_a_table_whole(plan: &str) -> bool {
    plan.contains("Seq Scan") || plan.lines().any(|step| step.trim_start().starts_with("SCAN ") && !step.contains("SCAN CONSTANT ROW"))
}

/// The steps of a plan that read seat holds: PostgreSQL's scans of
/// `seat_hold` (not the insert into it), SQLite's searches of its alias `h`.
fn seat_hold_reads(plan: &str, backend: enrol_db::Backend) -> Vec<&str> {
    let reads_holds = |step: &&str| match backend {
        enrol_db::Backend::Postgres => step.contains(" Scan ") && step.contains(" on seat_hold "),
        enrol_db::Backend::Sqlite => step.contains(" h "),
    };
    plan_steps(plan, backend).into_iter().filter(reads_holds).collect()
}

/// How the one count of held seats reads the order's own holds, and the
/// session's run-out holds, each read by its key on `backend`.
fn hold_reads(backend: enrol_db::Backend) -> ([&'static str; 2], [&'static str; 2]) {
    match backend {
        enrol_db::Backend::Postgres => (
            // An index scan's condition, or a bitmap heap scan's recheck of
            // it: only the key's index starts with the order.
            ["on seat_hold ", "Cond: (enrollment_id = $3)"],
            ["seat_hold_by_session", "Index Cond: ((session_id = s.id) AND (expires_at <= $2))"],
        ),
        enrol_db::Backend::Sqlite => {
            (["sqlite_autoindex_seat_hold_1", "(enrollment_id=?)"], ["seat_hold_by_session", "(session_id=? AND expires_at<?)"])
        }
    }
}

/// How many of `plan`'s reads of the holds read them as `how` says, with
/// no filter.
fn holds_read_by(plan: &str, backend: enrol_db::Backend, how: [&str; 2]) -> usize {
    seat_hold_reads(plan, backend).iter().filter(|step| how.iter().all(|part| step.contains(part)) && !step.contains("Filter:")).count()
}

/// Fails unless `plan` reads the order's own holds as the one count of held
/// seats must, whatever their number: twice, by the order, the first
/// column of their key.
fn assert_reads_own_holds_by_the_order(plan: &str, backend: enrol_db::Backend) {
    assert_eq!(holds_read_by(plan, backend, hold_reads(backend).0), 2, "the order's own holds, by the order:\n{plan}");
}

/// Fails unless `plan` reads the seat holds as the one count of held seats
/// must, whatever their number: the order's own holds twice by the order,
/// the session's run-out holds once by session and time, none with a
/// filter.
fn assert_reads_holds_by_their_keys(plan: &str, backend: enrol_db::Backend) {
    assert_eq!(seat_hold_reads(plan, backend).len(), 3, "the run-out holds, and the order's own twice:\n{plan}");
    assert_reads_own_holds_by_the_order(plan, backend);
    assert_eq!(holds_read_by(plan, backend, hold_reads(backend).1), 1, "the session's run-out holds, by time:\n{plan}");
}

both_backends! {
    async fn a_new_orders_seat_hold_keeps_a_plan_that_reads_the_orders_own_hold_by_its_key(app: TestApp) {
        // A new database, its holds table empty: the plan a new order's
        // transaction keeps from its first orders (decision 049) must not go
        // through a session's holds to find the order's own, one by one, as
        // the holds grow.
        let plan = app.db().kept_plan(KeptStatement::SeatHold).await.unwrap();
        assert_reads_holds_by_their_keys(&plan, app.db().backend());
        app.stop().await;
    }

    async fn the_seats_taken_of_a_course_keep_a_plan_that_reads_its_dates_ahead_and_holds_by_their_keys(app: TestApp) {
        // The plan `seats_taken` keeps on PostgreSQL (decision 050), made on a
        // new database: the course's event by its key, its dates from the
        // first offered on by the event's index by date, not its years of
        // dates gone, and the holds as the seat hold reads them.
        let plan = app.db().kept_plan(KeptStatement::SeatsTaken).await.unwrap();
        let (event, dates) = match app.db().backend() {
            enrol_db::Backend::Postgres => ("Index Cond: (course_id = $1)", "Index Cond: ((event_id = ev.id) AND (date >= $4))"),
            enrol_db::Backend::Sqlite => ("(course_id=?)", "session_by_event (event_id=? AND date>?)"),
        };
        assert!(plan.contains(event), "the course's event by its key:\n{plan}");
        assert!(plan.contains(dates), "the dates ahead, by the event's index:\n{plan}");
        assert!(!reads_a_table_whole(&plan), "no table read whole:\n{plan}");
        assert_reads_holds_by_their_keys(&plan, app.db().backend());
        app.stop().await;
    }

    async fn an_orders_kept_plans_read_no_table_whole_when_made_on_tables_analysed_empty(app: TestApp) {
        // A quiet night leaves the holds table empty, and analysed so; the
        // next sale's orders keep plans made then (decision 051). A plan
        // that reads the holds whole for each date of the course costs
        // more with every order of the sale.
        on_pool!(app.db(), pool => sqlx::raw_sql("analyze").execute(pool).await.map(drop)).unwrap();
        for statement in [KeptStatement::SeatHold, KeptStatement::SeatsTaken, KeptStatement::LiveOrdersOfClient] {
            let plan = app.db().kept_plan(statement).await.unwrap();
            assert!(!reads_a_table_whole(&plan), "{statement:?} reads no table whole:\n{plan}");
            // The run-out holds may be read through their index by time,
            // which holds only those not yet swept.
            if statement != KeptStatement::LiveOrdersOfClient {
                assert_reads_own_holds_by_the_order(&plan, app.db().backend());
            }
        }
        app.stop().await;
    }

    async fn a_clients_unpaid_orders_keep_a_plan_that_reads_the_clients_own(app: TestApp) {
        // Kept by a new order's transaction from a new database's first orders
        // (decision 050): the address's and the browser's pending orders, each
        // through the index of both its columns, never every pending order.
        let plan = app.db().kept_plan(KeptStatement::LiveOrdersOfClient).await.unwrap();
        assert_reads_a_clients_unpaid_orders_by_its_keys(&plan, app.db().backend(), "$1", "$2");
        assert!(!reads_a_table_whole(&plan), "no table read whole:\n{plan}");
        app.stop().await;
    }
}

#[tokio::test]
async fn postgres_settings_that_keep_its_statistics_current_are_named_when_off() {
    // The server warns at start of each setting named: its statistics go
    // stale with it off, and queries are planned for tables long gone.
    let Some(database) = fresh_database(Backend::Postgres).await else { return };
    let db = enrol_db::Db::connect(&database.url).await.unwrap();
    assert!(!db.statistics_kept_off().await.unwrap().contains(&"track_counts".to_owned()), "on by default");
    db.close().await;
    let name = database.url.rsplit('/').next().unwrap();
    let admin = sqlx::PgPool::connect(&postgres_admin_url()).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("alter database {name} set track_counts = off"))).execute(&admin).await.unwrap();
    admin.close().await;
    let db = enrol_db::Db::connect(&database.url).await.unwrap();
    assert!(db.statistics_kept_off().await.unwrap().contains(&"track_counts".to_owned()));
    db.close().await;
    database.drop_now().await;

    let sqlite = fresh_database(Backend::Sqlite).await.unwrap();
    let db = enrol_db::Db::connect(&sqlite.url).await.unwrap();
    assert!(db.statistics_kept_off().await.unwrap().is_empty(), "SQLite has no such settings");
    db.close().await;
    sqlite.drop_now().await;
}
