//! Slow clients are dropped: headers half sent, a kept-alive connection
//! left idle and a body trickled in are each closed within their time, and
//! beyond the cap on connections a client waits until a place is free,
//! while the others are served throughout.

use std::time::{Duration, Instant};

use enrol_server::serve::ConnectionLimits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{Backend, TestApp, spawn_app_with};

const LIMITS: ConnectionLimits =
    ConnectionLimits { max_connections: 12, header_timeout: Duration::from_secs(1), body_grace: Duration::from_secs(2) };

async fn app() -> TestApp {
    spawn_app_with(Backend::Sqlite, |config| config.connections = LIMITS).await.expect("SQLite is always available")
}

async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(app.address.trim_start_matches("http://")).await.expect("a connection")
}

/// Reads until the server closes `stream`: what it sent and when it closed,
/// or `None` when it is still open after `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> Option<(Duration, String)> {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((start + within).into(), stream.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some((start.elapsed(), String::from_utf8_lossy(&got).into_owned())),
            Ok(Ok(read)) => got.extend_from_slice(&buffer[..read]),
        }
    }
}

/// How long a fresh client (no pooled connection) waits for `/healthz`.
async fn health_wait(app: &TestApp) -> Duration {
    let start = Instant::now();
    let client = reqwest::Client::new();
    assert_eq!(client.get(app.url("/healthz")).send().await.expect("an answer").status(), 200);
    start.elapsed()
}

#[tokio::test]
async fn half_sent_headers_and_idle_connections_are_closed_while_others_are_served() {
    let app = app().await;
    let mut half_sent = Vec::new();
    for _ in 0..8 {
        let mut stream = connect(&app).await;
        stream.write_all(b"GET / HTTP/1.1\r\nHost: college\r\nX-Slow: ").await.unwrap();
        half_sent.push(stream);
    }
    let mut idle = connect(&app).await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: college\r\n\r\n").await.unwrap();
    let mut answer = [0u8; 64];
    let read = idle.read(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer[..read]).starts_with("HTTP/1.1 200"), "the idle client was answered first");

    assert!(health_wait(&app).await < LIMITS.header_timeout, "others are served while the slow ones wait");
    for stream in half_sent.iter_mut().chain(std::iter::once(&mut idle)) {
        let closed = closed_within(stream, LIMITS.header_timeout * 4).await;
        assert!(closed.is_some(), "a slow or idle connection stays open past its time");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_trickled_body_is_cut_off_and_a_steady_one_arrives() {
    let app = app().await;
    let host = app.address.trim_start_matches("http://").to_owned();
    let head = |length: usize| {
        format!(
            "POST /api/auth/sign-in HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\n\r\n"
        )
    };
    // 64 KiB allowed 2 s of grace and 2 s at the least rate, sent a byte every 100 ms.
    let mut trickle = connect(&app).await;
    trickle.write_all(head(64 * 1024).as_bytes()).await.unwrap();
    let started = Instant::now();
    let trickling = async {
        for _ in 0..200 {
            if trickle.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), trickling).await.ok();
    let (_, answer) = closed_within(&mut trickle, Duration::from_secs(5)).await.expect("the trickled request is closed");
    assert!(started.elapsed() < Duration::from_secs(10), "cut off within its time");
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 4"), "{answer}");

    // The same request sent whole is answered as a sign-in is.
    let body = r#"{"username":"nobody@example.com","password":"not the password"}"#;
    let mut steady = connect(&app).await;
    steady.write_all(format!("{}{body}", head(body.len())).as_bytes()).await.unwrap();
    let mut answer = [0u8; 64];
    let read = steady.read(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer[..read]).starts_with("HTTP/1.1 401"), "{}", String::from_utf8_lossy(&answer[..read]));
    app.stop().await;
}

#[tokio::test]
async fn beyond_the_cap_a_client_waits_for_a_place() {
    let app = app().await;
    let free = health_wait(&app).await;
    // Every place held by a client that sends nothing.
    let mut holders = Vec::new();
    for _ in 0..LIMITS.max_connections {
        holders.push(connect(&app).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let capped = health_wait(&app).await;
    assert!(
        capped > free + LIMITS.header_timeout / 2,
        "the next client waits until the silent ones are dropped: {capped:?} against {free:?} when free"
    );
    assert!(capped < LIMITS.header_timeout * 4, "and is then served: {capped:?}");
    drop(holders);
    app.stop().await;
}
