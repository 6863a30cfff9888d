//! `enrol demo grow` (decision 037) on both engines: a small grown
//! history keeps what the site's own code keeps (sessions' counters,
//! seats, money, gapless document numbers), one seed grows the same
//! history twice, a second grow is refused without writing, and a grown
//! student's account and a grown order in the back office open.

use reqwest::Method;
use serde_json::json;

use enrol_db::{Db, on_pool};
use enrol_domain::grow::GrowPlan;
use enrol_domain::staff::Role;
use enrol_server::demo_history;

use crate::admin::staff_member;
use crate::admin_orders::ask;
use crate::both_backends;
use crate::graphql::{graphql, sign_in};
use crate::helpers::{Backend, TestApp, fresh_database, test_config};

const SEED: u64 = 7;

fn small() -> GrowPlan {
    GrowPlan::new(2, 0.005).expect("a plan")
}

async fn number(db: &Db, sql: &str) -> i64 {
    let sql = sql.to_owned();
    on_pool!(db, pool => sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.clone())).fetch_one(pool).await)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// What a booking holds: its payments less its refunds.
const NET: &str = "(coalesce((select sum(p.amount) from payment p where p.enrollment_id = e.id), 0) \
    - coalesce((select sum(r.amount) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = e.id), 0))";

/// Counts and sums that say which history a database holds.
async fn fingerprint(db: &Db) -> Vec<i64> {
    let mut out = Vec::new();
    for sql in [
        "select count(*) from user_account",
        "select count(*) from session",
        "select cast(coalesce(sum(registrations), 0) as bigint) from session",
        "select count(*) from enrollment",
        "select cast(coalesce(sum(total), 0) as bigint) from enrollment",
        "select count(*) from enrollment where status = 'cancelled'",
        "select count(*) from payment",
        "select cast(coalesce(sum(amount), 0) as bigint) from payment",
        "select count(*) from refund",
        "select cast(coalesce(sum(amount), 0) as bigint) from refund",
        "select count(*) from receipt",
        "select count(*) from balance_reminder",
        "select count(*) from waiting_list_entry",
        "select count(*) from form_submission",
        "select count(*) from user_form",
        "select count(*) from mail_outbox",
        "select count(*) from audit_log",
        "select count(*) from online_registration",
        "select count(*) from lesson_done",
    ] {
        out.push(number(db, sql).await);
    }
    out
}

async fn zero(db: &Db, what: &str, sql: &str) {
    assert_eq!(number(db, sql).await, 0, "{what}: {sql}");
}

/// The invariants the site's own code keeps, on a grown database.
async fn invariants_hold(db: &Db) {
    zero(
        db,
        "a session's registrations are its kept bookings",
        "select count(*) from session s where s.id like '%-grown-%' and s.registrations <> \
         (select count(*) from registration r where r.session_id = s.id and r.type = 'STUDENT')",
    )
    .await;
    zero(
        db,
        "holds count the seat holds",
        "select count(*) from session s where s.holds <> (select count(*) from seat_hold h where h.session_id = s.id)",
    )
    .await;
    zero(
        db,
        "waiting counts those waiting",
        "select count(*) from session s where s.waiting <> \
         (select count(*) from waiting_list_entry w where w.session_id = s.id and w.status = 'waiting')",
    )
    .await;
    zero(db, "no session is oversold", "select count(*) from session where registrations > seats").await;
    zero(
        db,
        "a paid booking holds its total",
        &format!("select count(*) from enrollment e where e.status = 'completed' and {NET} <> e.total"),
    )
    .await;
    zero(
        db,
        "a booking with its fee paid holds the fee",
        &format!("select count(*) from enrollment e where e.status = 'deposit' and {NET} <> e.deposit"),
    )
    .await;
    zero(
        db,
        "a cancelled booking keeps what the terms let it keep, never more than its total",
        &format!("select count(*) from enrollment e where e.status = 'cancelled' and ({NET} < 0 or {NET} > e.total)"),
    )
    .await;
    zero(
        db,
        "no payment is refunded beyond itself",
        "select count(*) from payment p where (select coalesce(sum(r.amount), 0) from refund r where r.payment_id = p.id) > p.amount",
    )
    .await;
    zero(
        db,
        "each payment has its receipt",
        "select count(*) from payment p where not exists (select 1 from receipt r where r.payment_id = p.id and r.kind = 'receipt')",
    )
    .await;
    zero(
        db,
        "each refund has its credit note",
        "select count(*) from refund f where not exists (select 1 from receipt r where r.refund_id = f.id)",
    )
    .await;
    for prefix in ["RCT", "CRN"] {
        let (count, first, last, kept) = (
            number(db, &format!("select count(*) from receipt where prefix = '{prefix}'")).await,
            number(db, &format!("select cast(coalesce(min(sequence), 0) as bigint) from receipt where prefix = '{prefix}'")).await,
            number(db, &format!("select cast(coalesce(max(sequence), 0) as bigint) from receipt where prefix = '{prefix}'")).await,
            number(db, &format!("select cast(coalesce(max(last_number), 0) as bigint) from document_sequence where prefix = '{prefix}'"))
                .await,
        );
        assert!(count > 0, "{prefix}: documents were issued");
        assert_eq!((first, last, kept), (1, count, count), "{prefix} numbers run from 1 without gaps to the sequence's last");
    }
    zero(db, "references are unique", "select count(*) - count(distinct reference) from enrollment").await;
}

both_backends! {
    async fn a_grown_history_keeps_the_invariants_opens_on_the_site_and_grows_once(app: TestApp) {
        let db = app.db().clone();
        let grown = demo_history::grow(&db, &app.state.config, small(), SEED).await.expect("grows");
        let written: std::collections::BTreeMap<&str, u64> = grown.tables.iter().copied().collect();
        for table in ["user_account", "session", "enrollment", "registration", "payment", "refund", "receipt", "mail_outbox", "audit_log",
            "balance_reminder", "form_submission", "online_order", "online_registration"] {
            assert!(written.get(table).copied().unwrap_or(0) > 0, "{table} has grown rows: {written:?}");
        }
        assert!(grown.bytes.unwrap_or(0) > 0);
        invariants_hold(&db).await;
        let bookings = number(&db, "select count(*) from enrollment where email like '%@grown.example'").await;
        let cancelled = number(&db, "select count(*) from enrollment where status = 'cancelled'").await;
        assert!(bookings > 100, "{bookings} bookings");
        assert!(cancelled > 0 && cancelled * 100 < bookings * 20, "about 8% cancelled: {cancelled} of {bookings}");

        // One seed grows the same history into two other databases (no
        // server runs on them, so no job adds to what was grown), and a
        // second grow into one of them is refused and writes nothing.
        let backend = match db.backend() {
            enrol_db::Backend::Sqlite => Backend::Sqlite,
            enrol_db::Backend::Postgres => Backend::Postgres,
        };
        let mut prints = Vec::new();
        let mut twins = Vec::new();
        for _ in 0..2 {
            let database = fresh_database(backend).await.expect("another database");
            let twin = Db::connect(&database.url).await.unwrap();
            demo_history::grow(&twin, &test_config(database.url.clone()), small(), SEED).await.expect("grows");
            prints.push(fingerprint(&twin).await);
            twins.push((database, twin));
        }
        assert_eq!(prints[0], prints[1], "one seed, one history");
        assert!(prints[0][0] > 0);
        let (database, twin) = twins.remove(0);
        let refused = demo_history::grow(&twin, &test_config(database.url.clone()), small(), SEED).await.unwrap_err();
        assert!(refused.to_string().contains("already has a grown history"), "{refused:#}");
        assert_eq!(fingerprint(&twin).await, prints[0], "a refused grow writes nothing");
        for (database, twin) in std::iter::once((database, twin)).chain(twins) {
            twin.close().await;
            database.drop_now().await;
        }

        // The student with the most bookings signs in and reads her records.
        let email: String = on_pool!(db, pool => sqlx::query_scalar(
            "select email from enrollment where email like '%@grown.example' group by email order by count(*) desc, email limit 1"
        ).fetch_one(pool).await).unwrap();
        let token = sign_in(&app, &email, enrol_server::DEMO_STUDENT_PASSWORD).await;
        let (status, answer) =
            graphql(&app, Some(&token), "{ registrations { id session_id } enrollments { id status total } payments { id amount } forms { id } }", json!({}))
                .await;
        assert_eq!(status, 200, "{answer}");
        assert!(answer.get("errors").is_none(), "{answer}");
        let hers = number(&db, &format!("select count(*) from enrollment where email = '{email}'")).await;
        assert_eq!(answer["data"]["enrollments"].as_array().map(Vec::len), usize::try_from(hers).ok());
        let page = reqwest::Client::new().get(app.url("/account/")).bearer_auth(&token).send().await.unwrap();
        assert_eq!(page.status(), 200);

        // Staff find one of her orders by its reference and open it.
        let (id, reference): (String, String) = on_pool!(db, pool => sqlx::query_as(
            "select id, reference from enrollment where email = $1 order by created_at desc limit 1"
        ).bind(&email).fetch_one(pool).await).unwrap();
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (status, list) = ask(&app, &staff, Method::GET, &format!("/orders?q={reference}"), None).await;
        assert_eq!(status, 200, "{list}");
        let row = list["orders"].as_array().unwrap().iter().find(|o| o["id"] == id.as_str()).expect("the order is found").clone();
        let net = number(&db, &format!("select cast({NET} as bigint) from enrollment e where e.id = '{id}'")).await;
        assert_eq!(row["paid"].as_i64(), Some(net), "{row}");
        let (status, order) = ask(&app, &staff, Method::GET, &format!("/orders/{id}"), None).await;
        assert_eq!(status, 200, "{order}");
        assert_eq!(order["order"]["id"], id.as_str());
        let (status, list) = ask(&app, &staff, Method::GET, "/orders", None).await;
        assert_eq!(status, 200, "{list}");
        app.stop().await;
    }
}
