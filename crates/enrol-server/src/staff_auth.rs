//! Staff sign-in (decision 017): the `enrol_staff` cookie, which only the
//! admin API ever receives, and the second factor: TOTP codes (RFC 6238:
//! SHA-1, six digits, 30-second steps, one step of clock drift either way),
//! the QR code that carries a new secret to an authenticator app, and the
//! single-use recovery codes that stand in for a code when the phone is
//! lost: 80 random bits each, written in Crockford base32 as four groups
//! of four, kept only as SHA-256 hashes (the bits make guessing hopeless,
//! so a slow hash adds nothing).

use axum::http::{HeaderMap, HeaderValue};
use chrono::{DateTime, Utc};
use qrcode::QrCode;
use qrcode::render::svg;
use totp_rs::{Builder, Secret, Totp};

use enrol_domain::crockford;

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

/// How many recovery codes set-up, or a new set, makes.
pub const RECOVERY_CODES: usize = 10;

/// Characters in a recovery code, without its hyphens: 80 bits.
const RECOVERY_CHARACTERS: usize = 16;

/// A new set of recovery codes as staff are shown them (`7K3P-9QXA-M2DF-8HRT`)
/// and the hashes to keep.
pub fn new_recovery_codes() -> (Vec<String>, Vec<String>) {
    (0..RECOVERY_CODES)
        .map(|_| {
            // A v4 UUID's low 62 bits are random (its fixed version and
            // variant bits lie above them): 62 of one and 18 of another.
            let random_bits = |bits: u32| uuid::Uuid::new_v4().as_u128() & ((1 << bits) - 1);
            let random = random_bits(62) | (random_bits(18) << 62);
            let characters: String = (0..RECOVERY_CHARACTERS)
                .map(|at| char::from(crockford::ALPHABET[usize::try_from((random >> (5 * at)) & 31).unwrap_or(0)]))
                .collect();
            let shown =
                characters.as_bytes().chunks(4).map(|group| String::from_utf8_lossy(group).into_owned()).collect::<Vec<_>>().join("-");
            let hash = token_hash(&characters);
            (shown, hash)
        })
        .unzip()
}

/// The hash of the recovery code typed in `typed`, if it is one: case,
/// spaces and hyphens do not matter, and O, I and L read as 0, 1 and 1.
pub fn recovery_code_hash(typed: &str) -> Option<String> {
    let characters = crockford::read_typed(typed);
    (characters.len() == RECOVERY_CHARACTERS && crockford::is_code(&characters)).then(|| token_hash(&characters))
}

/// The session cookie: host-only (no `Domain`), so only the back office's
/// own host gets it back (decision 030), and only under its API's path.
fn cookie(state: &AppState, value: &str, max_age: i64) -> HeaderValue {
    let secure = if state.config.back_office_url().starts_with("https://") { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{COOKIE}={value}; Path=/api/admin; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"))
        .expect("a staff cookie is a valid header value")
}

/// A new session token: the cookie that carries it and the hash to store.
pub fn new_session(state: &AppState) -> (HeaderValue, String) {
    let token = random_token();
    let max_age = enrol_db::STAFF_SESSION_HOURS * 3600;
    (cookie(state, &token, max_age), token_hash(&token))
}

pub fn cleared_cookie(state: &AppState) -> HeaderValue {
    cookie(state, "", 0)
}

/// The stored hash of the staff session a request carries.
pub fn session_hash(headers: &HeaderMap) -> Option<String> {
    crate::accounts::cookie_value(headers, COOKIE).filter(|token| !token.is_empty() && token.len() <= 128).map(|token| token_hash(&token))
}

/// A set-up link's token and the hash to store.
pub fn setup_token() -> (String, String) {
    let token = random_token();
    let hash = token_hash(&token);
    (token, hash)
}

/// The set-up link, on the back office's address (`back_office_url`).
pub fn setup_link(back_office_url: &str, token: &str) -> String {
    format!("{back_office_url}/admin/setup/?token={token}")
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
    fn recovery_codes_are_ten_different_ones_read_however_typed_and_kept_as_hashes() {
        let (codes, hashes) = new_recovery_codes();
        assert_eq!((codes.len(), hashes.len()), (RECOVERY_CODES, RECOVERY_CODES));
        assert_eq!(codes.iter().collect::<std::collections::HashSet<_>>().len(), RECOVERY_CODES);
        for (code, hash) in codes.iter().zip(&hashes) {
            assert_eq!(code.len(), 19, "{code}");
            assert!(code.split('-').all(|group| group.len() == 4 && group.bytes().all(|b| crockford::ALPHABET.contains(&b))), "{code}");
            assert_eq!(recovery_code_hash(code).as_ref(), Some(hash));
            assert_eq!(recovery_code_hash(&code.to_lowercase().replace('-', " ")).as_ref(), Some(hash));
            assert!(!hash.contains(&code.replace('-', "")), "only the hash is kept");
        }
        assert_eq!(recovery_code_hash("0000-1111-2222-3333"), recovery_code_hash("oooo-iiii-2222-3333"));
        assert_eq!(recovery_code_hash("0000-llll-2222-3333"), recovery_code_hash("0000-1111-2222-3333"));
        for not_one in ["123456", "0000-1111-2222-333", "0000-1111-2222-3333-4", "UUUU-1111-2222-3333", ""] {
            assert_eq!(recovery_code_hash(not_one), None, "{not_one}");
        }
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
