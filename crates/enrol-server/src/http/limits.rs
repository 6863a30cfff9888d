//! Per-client rate limits on the calls that cost the college something
//! (orders, payment intents, password checks, mail), decision 031: a
//! burst, then a steady rate per minute, for each browser (its session or
//! buyer cookie, [`browser_key`]) and for each client address as
//! [`ClientIp`] names it, which may send as much as
//! `browsers_per_address` browsers, so a classroom behind one address can
//! book and a script dropping its cookies still meets the address's cap.
//! An IPv6 client is counted by its /64 (one household or device gets a
//! whole /64, so counting addresses in it would count without end). The
//! buckets are kept in the database, where every instance counts together;
//! each instance first counts the address in memory (`tower_governor`),
//! which keeps a flood from one address off the database. A client over
//! the limit gets 429 and a message it can act on. The account data's
//! queries are reads, counted in memory only.

use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Extension, OriginalUri, Request, State};
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use enrol_db::Allowance;
use governor::middleware::NoOpMiddleware;
use tower_governor::GovernorLayer;
use tower_governor::errors::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

use crate::AppState;
use crate::buyer::{ClientIp, browser_key};
use crate::config::ClientLimits;
use crate::http::ApiError;

/// The client's address, as the outer middleware found it.
#[derive(Debug, Clone, Copy)]
pub struct ClientKey;

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, request: &axum::http::Request<T>) -> Result<Self::Key, GovernorError> {
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

pub(crate) const SLOW_DOWN: &str = "You have sent a lot of requests in a short time. Please wait a minute and try again.";

/// Limits the writes of `routes`: `ENROL_WRITES_PER_MINUTE` after a burst
/// per browser, `ENROL_BROWSERS_PER_ADDRESS` times that per address.
pub fn limit_writes(routes: Router<Arc<AppState>>, state: &Arc<AppState>) -> Router<Arc<AppState>> {
    let (per_minute, burst) = state.config.limits.address_writes();
    routes.layer(middleware::from_fn_with_state(Arc::clone(state), spend_allowance)).layer(per_client_at(per_minute, burst))
}

/// The buckets a request spends, handed to a handler that spends them in
/// its own transaction (one commit with what it writes).
#[derive(Debug, Clone)]
pub struct Allowances(pub Vec<Allowance>);

/// Whether `request` spends its allowance inside its own transaction: an
/// order (`POST /api/enroll/`, `Db::create_enrollment`), the costliest write.
fn spent_in_transaction(request: &Request) -> bool {
    let path = request.extensions().get::<OriginalUri>().map_or(request.uri().path(), |original| original.path());
    request.method() == Method::POST && path == "/api/enroll/"
}

/// Lets a request through when its buckets, shared by every instance, have
/// room; an order takes its buckets to spend them in its own transaction.
async fn spend_allowance(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    mut request: Request,
    next: Next,
) -> Response {
    let buckets = buckets(&state.config.limits, counted_as(ip), browser_key(request.headers()));
    if spent_in_transaction(&request) {
        request.extensions_mut().insert(Allowances(buckets));
        return next.run(request).await;
    }
    match state.db.spend_allowances(&buckets, Utc::now()).await {
        Ok(true) => next.run(request).await,
        Ok(false) => ApiError::TooManyRequests(SLOW_DOWN.to_owned()).into_response(),
        Err(error) => ApiError::Internal(error).into_response(),
    }
}

/// What a write from `address` and `browser` (when it names one) spends.
fn buckets(limits: &ClientLimits, address: IpAddr, browser: Option<String>) -> Vec<Allowance> {
    let bucket = |key: String, per_minute: u32, burst: u32| Allowance {
        key,
        spacing: 60_000_000 / i64::from(per_minute.max(1)),
        burst: i64::from(burst.max(1)),
    };
    let (per_minute, burst) = limits.address_writes();
    let mut buckets = vec![bucket(format!("address {address}"), per_minute, burst)];
    if let Some(browser) = browser {
        buckets.push(bucket(format!("browser {browser}"), limits.writes_per_minute, limits.write_burst));
    }
    buckets
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

    #[test]
    fn a_browser_spends_its_own_share_and_its_addresss() {
        let limits = ClientLimits { writes_per_minute: 10, write_burst: 20, live_orders: 5, browsers_per_address: 10 };
        let address: IpAddr = "198.51.100.9".parse().unwrap();
        let browser = buckets(&limits, address, Some("b1".to_owned()));
        assert_eq!(
            browser,
            [
                Allowance { key: "address 198.51.100.9".to_owned(), spacing: 600_000, burst: 200 },
                Allowance { key: "browser b1".to_owned(), spacing: 6_000_000, burst: 20 },
            ]
        );
        assert_eq!(buckets(&limits, address, None), browser[..1], "without a cookie, the address's share alone");
    }
}
