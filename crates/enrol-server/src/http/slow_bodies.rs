//! A request body sent too slowly is cut off: it must arrive within the
//! grace time plus its length at [`LEAST_BYTES_PER_SECOND`], and never
//! pause longer than the grace time between two parts. A client trickling
//! a byte at a time gets a 400 and its connection back for someone else;
//! an upload on a slow line (a 50 MB package at 1 Mbit/s) still arrives.

use std::future::Future as _;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use http_body::Frame;
use tokio::time::{Instant, Sleep, sleep_until};

use crate::serve::ConnectionLimits;

/// The slowest a body may arrive: 32 KiB a second, a slow mobile line.
pub const LEAST_BYTES_PER_SECOND: u64 = 32 * 1024;

/// Wraps each request's body in its deadlines.
pub async fn limit_body_time(State(limits): State<ConnectionLimits>, request: Request, next: Next) -> Response {
    let length = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let grace = limits.body_grace;
    // Without a length, the default body limit (2 MB) bounds what may come.
    let allowed = grace + Duration::from_secs(length.unwrap_or(2 * 1024 * 1024) / LEAST_BYTES_PER_SECOND);
    let request = request.map(|body| Body::new(Deadlined::new(body, allowed, grace)));
    next.run(request).await
}

/// A body read against its deadline and its longest pause.
struct Deadlined {
    body: Body,
    deadline: Pin<Box<Sleep>>,
    pause: Duration,
    paused: Pin<Box<Sleep>>,
}

impl Deadlined {
    fn new(body: Body, allowed: Duration, pause: Duration) -> Self {
        let now = Instant::now();
        Deadlined { body, deadline: Box::pin(sleep_until(now + allowed)), pause, paused: Box::pin(sleep_until(now + pause)) }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("The request body arrived too slowly")]
struct TooSlow;

impl HttpBody for Deadlined {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        if this.deadline.as_mut().poll(cx).is_ready() || this.paused.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(TooSlow.into())));
        }
        let frame = Pin::new(&mut this.body).poll_frame(cx);
        if let Poll::Ready(Some(Ok(_))) = &frame {
            let next_pause = Instant::now() + this.pause;
            this.paused.as_mut().reset(next_pause);
        }
        frame.map_err(Into::into)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}
