//! Who is asking (decision 009): the browser, by an httpOnly
//! buyer cookie that binds the orders and payment intents it makes; the
//! signed-in user, by their session; and the client's address, for limits.
//! A bare order id opens nothing: only its browser or its owner may.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::AppState;
use crate::accounts::{cookie_value, current_session, random_token, request_token, token_hash};

pub const BUYER_COOKIE: &str = "enrol_buyer";
/// Long enough to come back to a booking's page from the payment provider
/// or a confirmation mail weeks later in the same browser.
const BUYER_DAYS: i64 = 90;

/// The caller as far as ownership goes.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// The SHA-256 of the browser's buyer cookie.
    pub buyer_hash: Option<String>,
    /// The signed-in user, once their email is proven: until then what
    /// they buy joins their account only as a guest's purchase would, when
    /// the mailed link proves the address.
    pub user_id: Option<String>,
}

impl Viewer {
    pub async fn of(state: &AppState, headers: &HeaderMap) -> anyhow::Result<Viewer> {
        Ok(Viewer {
            buyer_hash: cookie_value(headers, BUYER_COOKIE).map(|token| token_hash(&token)),
            user_id: current_session(state, headers)
                .await?
                .map(|session| session.user)
                .filter(|user| user.email_verified)
                .map(|user| user.id),
        })
    }

    /// Whether the caller may open something made by the browser whose
    /// buyer cookie hashes to `owner_hash`, or belonging to user `owner`.
    pub fn owns(&self, owner_hash: Option<&str>, owner: Option<&str>) -> bool {
        let same_browser = matches!((self.buyer_hash.as_deref(), owner_hash), (Some(mine), Some(theirs)) if mine == theirs);
        let same_user = matches!((self.user_id.as_deref(), owner), (Some(mine), Some(theirs)) if mine == theirs);
        same_browser || same_user
    }
}

/// The browser's buyer token hash, making one when it has none: the hash,
/// and the `Set-Cookie` header to send when it is new.
pub fn buyer(state: &AppState, headers: &HeaderMap) -> (String, Option<HeaderValue>) {
    if let Some(token) = cookie_value(headers, BUYER_COOKIE) {
        return (token_hash(&token), None);
    }
    let token = random_token();
    let secure = if state.config.is_https() { "; Secure" } else { "" };
    let cookie = format!("{BUYER_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}", BUYER_DAYS * 24 * 3600);
    (token_hash(&token), Some(HeaderValue::from_str(&cookie).expect("a buyer cookie is a valid header value")))
}

/// The browser a request came from, for its own share of the limits
/// (decision 031): the SHA-256 of its session token, else of its buyer
/// cookie. Neither is checked here: a made-up one is a new browser, which
/// its address's share still bounds.
pub fn browser_key(headers: &HeaderMap) -> Option<String> {
    request_token(headers).or_else(|| cookie_value(headers, BUYER_COOKIE)).map(|token| token_hash(&token))
}

/// The address a request came from: the peer's, or, when the peer is one
/// of the configured proxies, the last address in `X-Forwarded-For` that is
/// not a proxy (earlier entries are whatever the client chose to send).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted_proxies: &[IpAddr]) -> IpAddr {
    if !trusted_proxies.contains(&peer) {
        return peer;
    }
    let forwarded: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|ip| ip.trim().parse().ok())
        .collect();
    forwarded.into_iter().rev().find(|ip| !trusted_proxies.contains(ip)).unwrap_or(peer)
}

/// Puts the request's [`ClientIp`] in its extensions for the handlers and
/// the rate limiter.
pub async fn remember_client_ip(State(state): State<std::sync::Arc<AppState>>, mut request: Request, next: Next) -> Response {
    let peer =
        request.extensions().get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::from([127, 0, 0, 1]), |ConnectInfo(address)| address.ip());
    let ip = client_ip(peer, request.headers(), &state.config.trusted_proxies);
    request.extensions_mut().insert(ClientIp(ip));
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_trusted_proxy_may_say_who_the_client_is() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_static("1.1.1.1, 203.0.113.9, 10.0.0.1"));
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        assert_eq!(client_ip(stranger, &headers, &[proxy]), stranger, "a client cannot claim another address");
        assert_eq!(client_ip(proxy, &headers, &[proxy]), "203.0.113.9".parse::<IpAddr>().unwrap());
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &[proxy]), proxy);
    }

    #[test]
    fn a_viewer_owns_what_its_browser_or_its_account_made() {
        let browser = Viewer { buyer_hash: Some("b1".into()), user_id: None };
        assert!(browser.owns(Some("b1"), None));
        assert!(!browser.owns(Some("b2"), Some("u1")));
        assert!(!browser.owns(None, None));
        let user = Viewer { buyer_hash: None, user_id: Some("u1".into()) };
        assert!(user.owns(Some("b2"), Some("u1")));
        assert!(!Viewer::default().owns(None, None), "nobody owns what nobody made");
    }
}
