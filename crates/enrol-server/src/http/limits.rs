//! Per-client rate limits on the calls that cost the college something
//! (orders, payment intents, password checks, mail), with `tower_governor`:
//! a burst, then a steady rate per minute, per client address as
//! [`ClientIp`](crate::buyer::ClientIp) names it, an IPv6 client by its
//! /64 (one household or device gets a whole /64, so counting addresses
//! in it would count without end). A client over the limit gets 429 and a
//! message it can act on. Each instance counts on its own.

use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use axum::response::IntoResponse;
use governor::middleware::NoOpMiddleware;
use tower_governor::GovernorLayer;
use tower_governor::errors::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

use crate::buyer::ClientIp;
use crate::config::ClientLimits;
use crate::http::ApiError;

/// The client's address, as the outer middleware found it.
#[derive(Debug, Clone, Copy)]
pub struct ClientKey;

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, request: &Request<T>) -> Result<Self::Key, GovernorError> {
        request.extensions().get::<ClientIp>().map(|ClientIp(ip)| counted_as(*ip)).ok_or(GovernorError::UnableToExtractKey)
    }
}

/// The address a client's requests are counted under: an IPv4 address
/// itself, an IPv6 address's /64.
pub fn counted_as(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

const SLOW_DOWN: &str = "You have sent a lot of requests in a short time. Please wait a minute and try again.";

/// The writes a client may send: `ENROL_WRITES_PER_MINUTE` after a burst.
pub fn per_client(limits: &ClientLimits) -> GovernorLayer<ClientKey, NoOpMiddleware, Body> {
    per_client_at(limits.writes_per_minute, limits.write_burst)
}

/// The account data queries a client may send: six times its writes, as
/// each screen of the account area makes one, after three times the burst.
pub fn queries_per_client(limits: &ClientLimits) -> GovernorLayer<ClientKey, NoOpMiddleware, Body> {
    per_client_at(limits.writes_per_minute.saturating_mul(6), limits.write_burst.saturating_mul(3))
}

fn per_client_at(per_minute: u32, burst: u32) -> GovernorLayer<ClientKey, NoOpMiddleware, Body> {
    let config: Arc<GovernorConfig<ClientKey, NoOpMiddleware>> = Arc::new(
        GovernorConfigBuilder::default()
            .key_extractor(ClientKey)
            .period(Duration::from_secs(60) / per_minute.max(1))
            .burst_size(burst.max(1))
            .finish()
            .expect("the rate and burst are positive"),
    );
    // Forget clients that have been quiet, so the table does not grow.
    let limiter = Arc::clone(config.limiter());
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            limiter.retain_recent();
        }
    });
    GovernorLayer::new(config).error_handler(|error| match error {
        GovernorError::TooManyRequests { .. } => ApiError::TooManyRequests(SLOW_DOWN.to_owned()).into_response(),
        other => {
            tracing::error!(error = %other, "Rate limiting failed");
            ApiError::Internal(anyhow::anyhow!("rate limiting failed: {other}")).into_response()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_counted_by_its_slash_64() {
        let ip = |text: &str| text.parse::<IpAddr>().unwrap();
        assert_eq!(counted_as(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(counted_as(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")), counted_as(ip("2001:db8:1:2::7")));
        assert_ne!(counted_as(ip("2001:db8:1:3::1")), counted_as(ip("2001:db8:1:2::1")));
        assert_eq!(counted_as(ip("198.51.100.9")), ip("198.51.100.9"));
        assert_eq!(counted_as(ip("::ffff:198.51.100.9")), ip("198.51.100.9"));
    }
}
