//! Error reporting (decision 013) against a local stand-in for Sentry's ingest
//! endpoint that this test starts and reads: a server error reaches it,
//! an error the ignore rules leave out does not. Its own test binary,
//! because the Sentry client is one per process.

#[path = "site/helpers.rs"]
#[allow(dead_code)]
mod helpers;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use helpers::{Backend, TestApp, fresh_database, test_config};

/// Accepts HTTP requests and keeps their bodies.
async fn ingest_endpoint() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let received = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&received);
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let kept = Arc::clone(&kept);
            tokio::spawn(async move {
                let mut data = Vec::new();
                let mut buffer = [0u8; 8192];
                loop {
                    let n = socket.read(&mut buffer).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    data.extend_from_slice(&buffer[..n]);
                    let text = String::from_utf8_lossy(&data).to_string();
                    let Some(end) = text.find("\r\n\r\n") else { continue };
                    let length = text[..end]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap_or(0))
                        })
                        .unwrap_or(0);
                    if data.len() >= end + 4 + length {
                        kept.lock().unwrap().push(String::from_utf8_lossy(&data[end + 4..end + 4 + length]).to_string());
                        let _ = socket.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}").await;
                        return;
                    }
                }
            });
        }
    });
    (format!("http://public@{address}/1"), received)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_reaches_error_reporting_and_an_ignored_one_does_not() {
    let (dsn, received) = ingest_endpoint().await;
    let database = fresh_database(Backend::Sqlite).await.expect("SQLite");
    let mut config = test_config(database.url.clone());
    config.tracking = enrol_server::config::Config::from_lookup(|key| (key == "SENTRY_DSN").then(|| dsn.clone())).unwrap().tracking;
    let guard = enrol_server::telemetry::init_error_reporting(&config).expect("reporting is on with a DSN");
    let app = TestApp::with_config(config).await;

    // The ignore rules: a message mentioning prototype is left out.
    enrol_server::telemetry::report(&anyhow::anyhow!("Cannot read properties of undefined (reading 'prototype')"));
    // A server error: the discount codes' table is gone.
    enrol_db::on_pool!(app.db(), pool => sqlx::query("drop table discount_code").execute(pool).await.map(drop)).unwrap();
    let answer = app.client.post(app.url("/api/code")).json(&serde_json::json!({ "code": "SAVE10" })).send().await.unwrap();
    assert_eq!(answer.status(), 500);
    assert!(!answer.text().await.unwrap().contains("discount_code"), "details stay out of the answer");
    assert!(guard.flush(Some(Duration::from_secs(10))));

    let bodies = received.lock().unwrap().clone();
    assert_eq!(bodies.iter().filter(|b| b.contains("discount_code")).count(), 1, "{bodies:?}");
    assert!(bodies.iter().all(|b| !b.contains("prototype")), "{bodies:?}");
    let event = bodies.iter().find(|b| b.contains("discount_code")).unwrap();
    assert!(event.contains("\"environment\":\"production\""), "{event}");
    app.stop().await;
    database.drop_now().await;
}
