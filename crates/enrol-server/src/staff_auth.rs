//! Staff sign-in (decision 017): the `enrol_staff` cookie, which only the
//! admin API ever receives, and the second factor: TOTP codes (RFC 6238:
//! SHA-1, six digits, 30-second steps, one step of clock drift either way)
//! and the QR code that carries a new secret to an authenticator app.

use axum::http::{HeaderMap, HeaderValue};
use chrono::{DateTime, Utc};
use qrcode::QrCode;
use qrcode::render::svg;
use totp_rs::{Builder, Secret, Totp};

use crate::AppState;
use crate::accounts::{random_token, token_hash};

pub const COOKIE: &str = "enrol_staff";

/// A new TOTP secret: 160 random bits (RFC 4226's recommendation), base32.
pub fn new_secret() -> String {
    let mut bytes = uuid::Uuid::new_v4().into_bytes().to_vec();
    bytes.extend_from_slice(&uuid::Uuid::new_v4().into_bytes()[..4]);
    Secret::from(bytes).to_base32()
}

/// The authenticator apps' default: SHA-1, six digits, 30-second steps,
/// one step of drift either way.
fn totp(secret: &str, account: &str, issuer: &str) -> anyhow::Result<Totp> {
    let secret = Secret::try_from_base32(secret).map_err(|e| anyhow::anyhow!("A stored TOTP secret is invalid: {e}"))?;
    Builder::new()
        .with_secret(secret)
        .with_account_name(account.replace(':', " "))
        .with_issuer(Some(issuer.replace(':', " ")))
        .build()
        .map_err(|e| anyhow::anyhow!("Failed to make a TOTP: {e}"))
}

/// The time step `code` belongs to if it is right for `secret` at `now`.
pub fn check_code(secret: &str, code: &str, now: DateTime<Utc>) -> anyhow::Result<Option<i64>> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    let now = u64::try_from(now.timestamp()).unwrap_or_default();
    Ok(totp(secret, "staff", "Enrol")?.check(&code, now).and_then(|step| i64::try_from(step).ok()))
}

/// What the set-up page shows: the `otpauth://` address and its QR code.
pub fn enrolment(secret: &str, email: &str, college: &str) -> anyhow::Result<(String, String)> {
    let uri = totp(secret, email, college)?.to_url().map_err(|e| anyhow::anyhow!("Failed to make the otpauth address: {e}"))?;
    let code = QrCode::new(uri.as_bytes()).map_err(|e| anyhow::anyhow!("Failed to make the QR code: {e}"))?;
    let image = code.render::<svg::Color<'_>>().min_dimensions(200, 200).quiet_zone(true).build();
    Ok((uri, image))
}

fn cookie(value: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{COOKIE}={value}; Path=/api/admin; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"))
        .expect("a staff cookie is a valid header value")
}

/// A new session token: the cookie that carries it and the hash to store.
pub fn new_session(state: &AppState) -> (HeaderValue, String) {
    let token = random_token();
    let max_age = enrol_db::STAFF_SESSION_HOURS * 3600;
    (cookie(&token, max_age, state.config.is_https()), token_hash(&token))
}

pub fn cleared_cookie(state: &AppState) -> HeaderValue {
    cookie("", 0, state.config.is_https())
}

/// The stored hash of the staff session a request carries.
pub fn session_hash(headers: &HeaderMap) -> Option<String> {
    crate::buyer::cookie_value(headers, COOKIE).filter(|token| !token.is_empty() && token.len() <= 128).map(|token| token_hash(&token))
}

/// A set-up link's token and the hash to store.
pub fn setup_token() -> (String, String) {
    let token = random_token();
    let hash = token_hash(&token);
    (token, hash)
}

pub fn setup_link(public_url: &str, token: &str) -> String {
    format!("{public_url}/admin/setup/?token={token}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 Appendix B's SHA-1 vectors, cut to six digits.
    #[test]
    fn codes_match_the_rfc_vectors() {
        let secret = Secret::from(b"12345678901234567890".to_vec()).to_base32();
        let at = |seconds: i64| DateTime::from_timestamp(seconds, 0).unwrap();
        assert_eq!(check_code(&secret, "287082", at(59)).unwrap(), Some(1));
        assert_eq!(check_code(&secret, "081804", at(1_111_111_109)).unwrap(), Some(37_037_036));
        assert_eq!(check_code(&secret, "005924", at(1_234_567_890)).unwrap(), Some(41_152_263));
        // One step either side is accepted, two are not.
        assert_eq!(check_code(&secret, "287082", at(89)).unwrap(), Some(1));
        assert_eq!(check_code(&secret, "287082", at(150)).unwrap(), None);
        assert_eq!(check_code(&secret, "28708", at(59)).unwrap(), None);
        assert_eq!(check_code(&secret, "abcdef", at(59)).unwrap(), None);
    }

    #[test]
    fn a_new_secret_is_160_bits_and_makes_an_otpauth_address() {
        let secret = new_secret();
        assert_eq!(Secret::try_from_base32(&secret).unwrap().len(), 20);
        assert_ne!(secret, new_secret());
        let (uri, svg) = enrolment(&secret, "owner@college.test", "Beauty: College").unwrap();
        assert!(uri.starts_with("otpauth://totp/"), "{uri}");
        assert!(uri.contains(&format!("secret={secret}")), "{uri}");
        assert!(svg.contains("<svg"), "{svg}");
    }
}
