//! Connections as the server takes them: at most `max_connections` served
//! at once, the rest waiting in the listen queue; a request's headers must
//! arrive within `header_timeout` (and a kept-alive connection is closed
//! after as long idle), and its body at a least rate (the `slow_bodies`
//! layer), so a few hundred half-sent requests cannot hold the server. The
//! proxy in front still buffers and limits as the README says.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::Service as _;

/// How many clients are served at once, and how long each may take to
/// send what it asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// `ENROL_MAX_CONNECTIONS` (default 1,024): connections open at once;
    /// more wait to be accepted.
    pub max_connections: usize,
    /// The time a client has to send a request's headers, and that a kept-alive
    /// connection may sit idle.
    pub header_timeout: Duration,
    /// The time a request body may take on top of its length at the least
    /// rate, and the longest pause between two of its parts.
    pub body_grace: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits { max_connections: 1024, header_timeout: Duration::from_secs(10), body_grace: Duration::from_secs(30) }
    }
}

/// How long connections still open at shutdown may finish what they do.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` within `limits` until `shutdown`, then
/// lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // A place is taken before a connection is accepted: beyond the cap,
        // clients wait in the kernel's queue instead of holding memory here.
        let place = tokio::select! {
            place = Arc::clone(&open).acquire_owned() => place.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, say: wait rather than spin.
                    tracing::warn!(%error, "Failed to accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let router = router.clone();
        let service = service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(remote));
            router.clone().call(request)
        });
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "A connection ended with an error");
            }
            drop(place);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await.is_err() {
        tracing::warn!("Connections still open at shutdown were closed");
    }
    Ok(())
}
