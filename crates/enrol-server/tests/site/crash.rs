//! A crash loses nothing (decision 009): the real `enrol` binary is
//! killed with SIGKILL while many checkouts and payments are in flight,
//! then started again on the same database. No order is half written, no
//! hold outlives its life, every payment the provider took is fulfilled
//! (by reconciliation, since the sandbox's events died with the process),
//! and nothing is fulfilled twice.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use enrol_db::{Db, on_pool};
use serde_json::{Value, json};

use crate::enrol_checkout::{order, quote};
use crate::helpers::{Backend, TestApp, browser, fresh_database, repo_root, scratch_of, test_config};

const WEBHOOK_SECRET: &str = "whsec_crash_test";

/// Starts the `enrol` binary on a free port over `database_url`; with
/// `log`, with the demo students, logging everything (`trace`) to that file.
pub(crate) async fn start_enrol(database_url: &str, log: Option<&std::path::Path>) -> (Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let root = repo_root();
    // Its files in the temporary folder, never in the source tree it runs in.
    let scratch = scratch_of(database_url).join(format!("crash-{}", uuid::Uuid::new_v4().simple()));
    let mut command = Command::new(env!("CARGO_BIN_EXE_enrol"));
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("ENROL_LISTEN", format!("127.0.0.1:{port}"))
        .env("ENROL_WEB_DIST", root.join("web/dist"))
        .env("ENROL_CONTENT_DIR", root.join("content"))
        .env("ENROL_UPLOADS_DIR", scratch.join("uploads"))
        .env("ENROL_IMAGE_CACHE", scratch.join("image-cache"))
        .env("ENROL_SSR_ENGINES", "1")
        .env("ENROL_SANDBOX_WEBHOOK_SECRET", WEBHOOK_SECRET)
        .env("ENROL_TRUSTED_PROXIES", "127.0.0.1")
        .env("ENROL_WRITES_PER_MINUTE", "100000")
        .env("ENROL_WRITE_BURST", "100000")
        .env("ENROL_LIVE_ORDERS_PER_CLIENT", "100000")
        .env("RUST_LOG", if log.is_some() { "trace" } else { "error" })
        .env("ENROL_DEMO_STUDENTS", if log.is_some() { "1" } else { "0" });
    match log {
        Some(log) => {
            let file = std::fs::File::create(log).expect("a log file");
            command.stdout(file.try_clone().expect("the log file twice")).stderr(file)
        }
        None => command.stdout(Stdio::null()).stderr(Stdio::null()),
    };
    let mut child = command.spawn().expect("the enrol binary starts");
    let address = format!("http://127.0.0.1:{port}");
    for _ in 0..300 {
        if reqwest::get(format!("{address}/healthz")).await.is_ok_and(|r| r.status().is_success()) {
            return (child, address);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("enrol did not start on {address}");
}

/// One buyer's checkout, from preparing the payment to paying it; stops at
/// the first step that fails (the server was killed).
async fn checkout(address: String, buyer: usize) {
    let client = browser();
    let q = quote(false, None);
    let session = if buyer.is_multiple_of(2) { "chemical-peels-1" } else { "chemical-peels-3" };
    let body = order(session, false, None, "card", &q);
    let ip = format!("10.9.{}.{}", buyer / 200, buyer % 200);
    let call = |method: reqwest::Method, path: &str, body: Value| {
        client.request(method, format!("{address}{path}")).header("x-forwarded-for", ip.clone()).json(&body).send()
    };
    let Ok(Ok(intent)) = call(reqwest::Method::POST, "/api/checkout/", json!({ "amount": 10000 })).await.map(|r| r.error_for_status())
    else {
        return;
    };
    let Ok(intent) = intent.json::<Value>().await else { return };
    let Ok(Ok(created)) = call(reqwest::Method::POST, "/api/enroll/", body).await.map(|r| r.error_for_status()) else { return };
    let Ok(created) = created.json::<Value>().await else { return };
    let order_id = created["id"].as_str().unwrap_or_default().to_owned();
    let update = json!({
        "intent": intent["id"], "amount": q.deposit, "customerId": null, "email": "sam.lee@example.com",
        "metadata": { "Order ID": order_id, "name": "Sam", "surname": "Lee", "phone": "+447700900123", "email": "sam.lee@example.com", "type": "booking-fee" },
    });
    let Ok(Ok(_)) = call(reqwest::Method::PUT, "/api/checkout/", update).await.map(|r| r.error_for_status()) else { return };
    let confirm = json!({
        "client_secret": intent["client_secret"], "payment_method": "card",
        "card": { "number": "4242 4242 4242 4242", "expiry": "12 / 34", "cvc": "123" },
        "return_url": format!("{address}/enrolment/{order_id}"),
    });
    let _ =
        call(reqwest::Method::POST, &format!("/sandbox/payment_intents/{}/confirm", intent["id"].as_str().unwrap_or_default()), confirm)
            .await;
}

async fn scalar(db: &Db, sql: &str) -> i64 {
    let sql = sql.to_owned();
    on_pool!(db, pool => sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.clone())).fetch_one(pool).await).expect("a count")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_checkout_loses_nothing() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let Some(database) = fresh_database(backend).await else { continue };
        let (mut server, address) = start_enrol(&database.url, None).await;
        let db = Db::connect(&database.url).await.unwrap();
        on_pool!(db, pool => sqlx::query("update session set seats = 400, registrations = 0 where id in ('chemical-peels-1', 'chemical-peels-3')").execute(pool).await.map(drop)).unwrap();

        let mut buyers = tokio::task::JoinSet::new();
        for buyer in 0..60 {
            buyers.spawn(checkout(address.clone(), buyer));
        }
        // Let the first checkouts finish and many more be under way: up to
        // ten seconds, for a first start on a loaded two-core machine (four
        // was once too short there).
        let mut paid = 0;
        for _ in 0..500 {
            paid = scalar(&db, "select count(*) from payment").await;
            if paid >= 10 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        server.kill().expect("SIGKILL");
        server.wait().unwrap();
        buyers.join_all().await;
        assert!(paid >= 10, "checkouts were under way when the server died ({paid} paid)");

        // Started again on the same database: reconciliation finds every
        // payment whose event died with the process.
        let (mut restarted, _) = start_enrol(&database.url, None).await;
        let mut config = test_config(database.url.clone());
        config.payments = enrol_server::config::PaymentsConfig::Sandbox { webhook_secret: WEBHOOK_SECRET.to_owned() };
        let app = TestApp::with_config(config).await;
        let later = chrono::Utc::now() + chrono::Duration::minutes(11);
        let report = enrol_server::reconcile::reconcile(&app.state, later).await.unwrap();

        let taken = scalar(&db, "select count(*) from sandbox_payment_intent where status = 'succeeded'").await;
        let payments = scalar(&db, "select count(*) from payment").await;
        let fulfilled = scalar(&db, "select count(*) from enrollment where status in ('deposit', 'completed')").await;
        let registrations = scalar(&db, "select count(*) from registration").await;
        println!(
            "{backend:?}: killed with {paid} paid; after restart {taken} payments taken, {payments} recorded, {fulfilled} orders fulfilled ({} by reconciliation)",
            report.fulfilled
        );
        assert_eq!(payments, taken, "every payment the provider took is recorded, once");
        assert_eq!(fulfilled, taken, "every paid order is fulfilled");
        assert_eq!(registrations, fulfilled, "one seat per paid order, never two");
        let counted = scalar(
            &db,
            "select cast(coalesce(sum(registrations), 0) as bigint) from session where id in ('chemical-peels-1', 'chemical-peels-3')",
        )
        .await;
        assert_eq!(counted, registrations, "the seat counters agree with the registrations");
        assert_eq!(scalar(&db, "select count(*) from enrollment e where status = 'pending' and exists (select 1 from payment p where p.enrollment_id = e.id)").await, 0);
        // Nothing half written: every order holds its seat or has it, and
        // no hold outlives the order's hold life.
        assert_eq!(scalar(&db, "select count(*) from enrollment e where status = 'pending' and not exists (select 1 from seat_hold h where h.enrollment_id = e.id)").await, 0);
        assert_eq!(
            scalar(&db, "select count(*) from seat_hold h join enrollment e on e.id = h.enrollment_id where h.expires_at > e.hold_ends_at")
                .await,
            0
        );
        let released = db.expire_holds(chrono::Utc::now() + chrono::Duration::minutes(46)).await.unwrap();
        assert_eq!(scalar(&db, "select count(*) from seat_hold").await, 0, "every hold runs out ({released} orders released)");

        restarted.kill().unwrap();
        restarted.wait().unwrap();
        app.stop().await;
        db.close().await;
        database.drop_now().await;
    }
}
