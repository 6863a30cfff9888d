//! The queries that must stay fast whatever the college's size (issue 31)
//! read through an index on both engines: no plan walks a whole table
//! that grows with the years. The accountant's exports are read a page at
//! a time, and a file of many pages is whole.

use chrono::{Duration, TimeZone, Utc};
use enrol_db::on_pool;
use enrol_domain::staff::Role;

use crate::admin::staff_member;
use crate::both_backends;
use crate::helpers::TestApp;

/// Whether a PostgreSQL plan reads a whole table: a sequential scan, or
/// an index scan with no condition on the index (walking it all for its
/// order, filtering each row).
fn postgres_walks(plan: &str) -> bool {
    let nodes: Vec<&str> = plan.split("->").collect();
    nodes.iter().any(|node| {
        node.contains("Seq Scan")
            || (node.contains("Index") && node.contains(" Scan") && !node.contains("Bitmap Heap") && !node.contains("Index Cond:"))
    })
}

#[test]
fn a_walk_over_a_whole_index_is_a_walk() {
    assert!(postgres_walks("Seq Scan on payment  (cost=0.00..1.00 rows=1 width=40)"));
    assert!(postgres_walks(
        "Index Scan Backward using payment_by_time on payment  (cost=0.14..48.00 rows=1 width=40)\n  Filter: (user_id = 'x'::text)"
    ));
    assert!(!postgres_walks(
        "Index Only Scan Backward using payment_by_user on payment  (cost=0.14..8.16 rows=1 width=40)\n  Index Cond: (user_id = 'x'::text)"
    ));
    assert!(!postgres_walks(
        "Bitmap Heap Scan on refund\n  Recheck Cond: (status = 'succeeded')\n  ->  Bitmap Index Scan on refund_by_completed_time\n        Index Cond: (completed_at >= now())"
    ));
}

both_backends! {
    async fn the_account_the_dashboard_and_the_exports_read_through_indexes(app: TestApp) {
        let plans = app.db().query_plans().await.unwrap();
        assert_eq!(plans.len(), 7);
        for query in plans {
            let walks = match app.db().backend() {
                enrol_db::Backend::Postgres => postgres_walks(&query.plan),
                enrol_db::Backend::Sqlite => query.plan.lines().any(|step| step.starts_with("SCAN ") && !step.starts_with("SCAN CONSTANT ROW")),
            };
            assert!(!walks, "the {} walks a table:\n{}", query.name, query.plan);
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
