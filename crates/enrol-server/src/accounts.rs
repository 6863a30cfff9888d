//! Sessions and passwords (decision 008): a random token in an httpOnly
//! cookie (or `Authorization: Bearer`), stored only as its SHA-256; argon2id
//! password hashes made and checked off the async threads.

use std::sync::OnceLock;

use anyhow::Context as _;
use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use axum::http::{HeaderMap, HeaderValue, header};
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};

use enrol_db::{SessionRecord, StartLink};
use enrol_domain::auth::{AuthSession, UserData};
use enrol_domain::online_order::START_LINK_DAYS;

use crate::AppState;

pub const COOKIE: &str = "enrol_session";
const SESSION_DAYS: i64 = 30;

/// 244 random bits from the operating system (two v4 UUIDs), as hex.
pub fn random_token() -> String {
    format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple())
}

/// What the database keeps of a token.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

pub async fn hash_password(password: String) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::encode_b64(uuid::Uuid::new_v4().as_bytes()).map_err(|e| anyhow::anyhow!("Failed to make a salt: {e}"))?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| anyhow::anyhow!("Failed to hash the password: {e}"))
    })
    .await
    .context("The password hashing thread failed")?
}

/// Checks `password` against `hash`; with no hash (an unknown email, or an
/// account made by a purchase) it still spends the same time, so the answer
/// does not tell which emails have accounts.
pub async fn verify_password(password: String, hash: Option<String>) -> anyhow::Result<bool> {
    static STAND_IN: OnceLock<String> = OnceLock::new();
    let stand_in = match STAND_IN.get() {
        Some(hash) => hash.clone(),
        None => {
            let made = hash_password(random_token()).await?;
            STAND_IN.get_or_init(|| made).clone()
        }
    };
    let known = hash.is_some();
    let hash = hash.unwrap_or(stand_in);
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&hash).map_err(|e| anyhow::anyhow!("A stored password hash is invalid: {e}"))?;
        // Checked before `known` is looked at: `known && …` would skip the
        // hash, and the time saved would tell which emails have accounts.
        let matches = Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok();
        Ok(known && matches)
    })
    .await
    .context("The password checking thread failed")?
}

fn cookie(value: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"))
        .expect("a session cookie is a valid header value")
}

/// Starts a session for `user`: the `Set-Cookie` header and what the
/// session endpoint answers.
pub async fn start_session(state: &AppState, user: UserData, now: DateTime<Utc>) -> anyhow::Result<(HeaderValue, AuthSession)> {
    let token = random_token();
    let expires_at = now + Duration::days(SESSION_DAYS);
    state.db.create_session(&token_hash(&token), &user.id, now, expires_at).await?;
    let set_cookie = cookie(&token, SESSION_DAYS * 24 * 3600, state.config.is_https());
    Ok((set_cookie, AuthSession::signed_in(&user, now.timestamp(), expires_at.timestamp())))
}

/// The `Set-Cookie` header that ends the session in the browser.
pub fn cleared_cookie(state: &AppState) -> HeaderValue {
    cookie("", 0, state.config.is_https())
}

/// The value of cookie `name` in the request, if any.
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|cookies| cookies.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_owned())
        .filter(|value| !value.is_empty() && value.len() <= 128)
}

/// The session token a request carries: the cookie, else a bearer token.
pub fn request_token(headers: &HeaderMap) -> Option<String> {
    let from_cookie = cookie_value(headers, COOKIE);
    let from_bearer = || {
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(|v| v.trim().to_owned())
    };
    from_cookie.or_else(from_bearer).filter(|token| !token.is_empty() && token.len() <= 128)
}

/// The signed-in user's live session, if the request carries one.
pub async fn current_session(state: &AppState, headers: &HeaderMap) -> anyhow::Result<Option<SessionRecord>> {
    match request_token(headers) {
        Some(token) => state.db.session(&token_hash(&token), Utc::now()).await,
        None => Ok(None),
    }
}

/// A password reset token and when it stops working.
pub fn reset_token(now: DateTime<Utc>) -> (String, DateTime<Utc>) {
    (random_token(), now + Duration::hours(1))
}

/// A link that starts a guest's online course at `/start-course/` of the
/// site at `public_url`, for the order about to be fulfilled (decision
/// 025); kept only when the buyer has no proven account.
pub fn start_link(public_url: &str, now: DateTime<Utc>) -> StartLink {
    let token = random_token();
    StartLink {
        token_hash: token_hash(&token),
        url: format!("{public_url}/start-course/?token={token}"),
        made_at: now,
        expires_at: now + Duration::days(START_LINK_DAYS),
    }
}

/// An email verification token and when it stops working.
pub fn verification_token(now: DateTime<Utc>) -> (String, DateTime<Utc>) {
    (random_token(), now + Duration::days(2))
}

/// A new link that pays a booking's balance: its token is shown once, in
/// `url` (decision 015).
pub fn new_balance_link(state: &AppState, now: chrono::DateTime<chrono::Utc>) -> enrol_db::BalanceLink {
    let token = random_token();
    enrol_db::BalanceLink {
        token_hash: token_hash(&token),
        expires_at: now + chrono::Duration::days(enrol_domain::balance::BALANCE_LINK_DAYS),
        url: format!("{}/pay-balance/?token={token}", state.config.public_url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn passwords_are_argon2id_and_only_the_right_one_matches() {
        let hash = hash_password("correct horse battery".to_owned()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("correct horse battery".to_owned(), Some(hash.clone())).await.unwrap());
        assert!(!verify_password("Correct horse battery".to_owned(), Some(hash)).await.unwrap());
        assert!(!verify_password("correct horse battery".to_owned(), None).await.unwrap());
    }

    #[test]
    fn the_token_comes_from_the_cookie_or_a_bearer_header() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_static("theme=dark; enrol_session=abc123; other=1"));
        assert_eq!(request_token(&headers).as_deref(), Some("abc123"));
        let mut bearer = HeaderMap::new();
        bearer.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer xyz789"));
        assert_eq!(request_token(&bearer).as_deref(), Some("xyz789"));
        assert_eq!(request_token(&HeaderMap::new()), None);
    }

    #[test]
    fn tokens_are_long_random_and_stored_hashed() {
        let (a, b) = (random_token(), random_token());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
    }

    #[test]
    fn cookies_are_read_by_name() {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_static("a=1; enrol_buyer=xyz; b=2"));
        assert_eq!(cookie_value(&headers, "enrol_buyer").as_deref(), Some("xyz"));
        assert_eq!(cookie_value(&headers, "missing"), None);
    }
}
