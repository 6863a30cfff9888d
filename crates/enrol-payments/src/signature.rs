//! Stripe's webhook signature scheme, `Stripe-Signature: t=<unix>,v1=<hex>,…`.
//!
//! The signed payload is `"{t}.{body}"`, signed with HMAC-SHA256 keyed by the
//! endpoint secret exactly as written (`whsec_…`, not base64-decoded). The
//! sandbox signs its own events with [`sign`], so one [`verify`] serves both.
//! A hosted LMS (decision 029) signs the same payload but sends the
//! timestamp and the hex apart: [`verify_tag`] checks one such pair.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// How far a signature's timestamp may be from now, either way, in seconds
/// (Stripe's default): old enough and a captured event could be replayed.
pub const TOLERANCE_SECS: i64 = 300;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("The Stripe-Signature header is malformed: {0}.")]
    Malformed(&'static str),
    #[error("The Stripe-Signature header has no v1 signature.")]
    NoSignature,
    #[error("No signature matches the body: the webhook secret is wrong or the body was altered.")]
    NoMatch,
    #[error("The signature is {age_secs} s old, more than the {TOLERANCE_SECS} s allowed.")]
    TooOld { age_secs: i64 },
    #[error("The signature is dated {ahead_secs} s in the future, more than the {TOLERANCE_SECS} s allowed.")]
    InFuture { ahead_secs: i64 },
}

/// The `Stripe-Signature` header value for `body` signed at `timestamp`.
pub fn sign(body: &[u8], secret: &str, timestamp: i64) -> String {
    format!("t={timestamp},v1={}", tag_hex(body, secret, timestamp))
}

/// HMAC-SHA256 of `"{timestamp}.{body}"` keyed by `secret`, in hex.
pub fn tag_hex(body: &[u8], secret: &str, timestamp: i64) -> String {
    hex::encode(mac(body, secret, timestamp).finalize().into_bytes())
}

/// Checks one hex signature `tag` of `body` made at `timestamp` (Unix
/// seconds), in constant time, within [`TOLERANCE_SECS`] of `now`.
pub fn verify_tag(tag: &str, timestamp: i64, body: &[u8], secret: &str, now: i64) -> Result<(), SignatureError> {
    if !matches(&mac(body, secret, timestamp), tag) {
        return Err(SignatureError::NoMatch);
    }
    fresh(timestamp, now)
}

/// Checks a `Stripe-Signature` header against the raw request body.
///
/// Any one matching `v1` is enough (Stripe sends several while a secret is
/// being rolled); `v0` and unknown schemes are ignored.
pub fn verify(header: &str, body: &[u8], secret: &str, now: i64) -> Result<(), SignatureError> {
    let (timestamp, signatures) = parse_header(header)?;
    if signatures.is_empty() {
        return Err(SignatureError::NoSignature);
    }
    let expected = mac(body, secret, timestamp);
    // A v1 that is not hex cannot match; it is skipped rather than refused
    // so one garbled entry does not hide a good one.
    if !signatures.iter().any(|signature| matches(&expected, signature)) {
        return Err(SignatureError::NoMatch);
    }
    fresh(timestamp, now)
}

/// Whether a signature made at `timestamp` is recent enough at `now`.
fn fresh(timestamp: i64, now: i64) -> Result<(), SignatureError> {
    let age_secs = now - timestamp;
    if age_secs > TOLERANCE_SECS {
        return Err(SignatureError::TooOld { age_secs });
    }
    if -age_secs > TOLERANCE_SECS {
        return Err(SignatureError::InFuture { ahead_secs: -age_secs });
    }
    Ok(())
}

/// Whether the hex `tag` is `expected`'s, compared in constant time.
fn matches(expected: &Hmac<Sha256>, tag: &str) -> bool {
    hex::decode(tag).is_ok_and(|tag| expected.clone().verify_slice(&tag).is_ok())
}

fn mac(body: &[u8], secret: &str, timestamp: i64) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The timestamp and every `v1` value, in order.
fn parse_header(header: &str) -> Result<(i64, Vec<&str>), SignatureError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for item in header.split(',').map(str::trim) {
        let (scheme, value) = item.split_once('=').ok_or(SignatureError::Malformed("an element has no '='"))?;
        match scheme {
            "t" => {
                if timestamp.is_some() {
                    return Err(SignatureError::Malformed("more than one timestamp"));
                }
                let parsed = value.parse().map_err(|_| SignatureError::Malformed("the timestamp is not a number"))?;
                timestamp = Some(parsed);
            }
            "v1" => signatures.push(value),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed("no timestamp"))?;
    Ok((timestamp, signatures))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test";
    const BODY: &[u8] = br#"{"id":"evt_test","object":"event"}"#;
    const T: i64 = 1_700_000_000;
    /// HMAC-SHA256(b"whsec_test", b"1700000000." + BODY), computed with
    /// Python's `hmac` module, not with [`sign`].
    const BODY_V1: &str = "c25fec335f20601dcb662f0e7c4944646158a9324bb6ed8b7f6ab126449f507a";
    /// The same for the body `{}`.
    const EMPTY_OBJECT_V1: &str = "35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91";

    #[test]
    fn sign_matches_an_independently_computed_vector() {
        assert_eq!(sign(BODY, SECRET, T), format!("t={T},v1={BODY_V1}"));
        assert_eq!(sign(b"{}", SECRET, T), format!("t={T},v1={EMPTY_OBJECT_V1}"));
    }

    #[test]
    fn accepts_an_independently_computed_signature() {
        let header = format!("t={T},v1={BODY_V1}");
        assert_eq!(verify(&header, BODY, SECRET, T + 10), Ok(()));
        assert_eq!(verify(&format!("t={T},v1={EMPTY_OBJECT_V1}"), b"{}", SECRET, T), Ok(()));
    }

    #[test]
    fn a_signature_sent_apart_from_its_timestamp_is_checked_alike() {
        assert_eq!(tag_hex(BODY, SECRET, T), BODY_V1);
        assert_eq!(verify_tag(BODY_V1, T, BODY, SECRET, T + 10), Ok(()));
        assert_eq!(verify_tag(BODY_V1, T + 1, BODY, SECRET, T), Err(SignatureError::NoMatch));
        assert_eq!(verify_tag("not hex", T, BODY, SECRET, T), Err(SignatureError::NoMatch));
        assert_eq!(
            verify_tag(BODY_V1, T, BODY, SECRET, T + TOLERANCE_SECS + 1),
            Err(SignatureError::TooOld { age_secs: TOLERANCE_SECS + 1 })
        );
    }

    #[test]
    fn accepts_its_own_signature() {
        let header = sign(b"{\"type\":\"payment_intent.succeeded\"}", "whsec_sandbox", T);
        assert_eq!(verify(&header, b"{\"type\":\"payment_intent.succeeded\"}", "whsec_sandbox", T), Ok(()));
    }

    #[test]
    fn refuses_the_wrong_secret() {
        let header = sign(BODY, "whsec_other", T);
        assert_eq!(verify(&header, BODY, SECRET, T), Err(SignatureError::NoMatch));
    }

    #[test]
    fn refuses_a_body_altered_by_one_byte() {
        let header = format!("t={T},v1={BODY_V1}");
        let mut altered = BODY.to_vec();
        altered[2] ^= 1;
        assert_eq!(verify(&header, &altered, SECRET, T), Err(SignatureError::NoMatch));
    }

    #[test]
    fn refuses_a_changed_timestamp() {
        // The timestamp is part of what is signed: it cannot be refreshed.
        let header = format!("t={},v1={BODY_V1}", T + 1);
        assert_eq!(verify(&header, BODY, SECRET, T), Err(SignatureError::NoMatch));
    }

    #[test]
    fn tolerance_is_300_seconds_either_way() {
        let header = format!("t={T},v1={BODY_V1}");
        assert_eq!(verify(&header, BODY, SECRET, T + 300), Ok(()));
        assert_eq!(verify(&header, BODY, SECRET, T - 300), Ok(()));
        assert_eq!(verify(&header, BODY, SECRET, T + 301), Err(SignatureError::TooOld { age_secs: 301 }));
        assert_eq!(verify(&header, BODY, SECRET, T - 301), Err(SignatureError::InFuture { ahead_secs: 301 }));
    }

    #[test]
    fn accepts_when_any_one_of_several_v1_matches() {
        let stale = sign(BODY, "whsec_old", T);
        let stale_v1 = stale.split_once("v1=").unwrap().1;
        let header =
            format!("t={T},v1={stale_v1},v1=not-hex,v1={BODY_V1},v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39");
        assert_eq!(verify(&header, BODY, SECRET, T), Ok(()));
    }

    #[test]
    fn refuses_when_no_v1_matches() {
        let header = format!("t={T},v1={},v1={}", "0".repeat(64), &BODY_V1[..62]);
        assert_eq!(verify(&header, BODY, SECRET, T), Err(SignatureError::NoMatch));
    }

    #[test]
    fn refuses_v0_only() {
        // v0 is Stripe's test-mode scheme; a correct MAC under it still counts for nothing.
        let header = format!("t={T},v0={BODY_V1}");
        assert_eq!(verify(&header, BODY, SECRET, T), Err(SignatureError::NoSignature));
    }

    #[test]
    fn refuses_malformed_headers() {
        for header in [
            "",
            "garbage",
            &format!("v1={BODY_V1}"),
            &format!("t=soon,v1={BODY_V1}"),
            &format!("t={T},t={T},v1={BODY_V1}"),
            &format!("t={T};v1={BODY_V1}"),
        ] {
            assert!(
                matches!(verify(header, BODY, SECRET, T), Err(SignatureError::Malformed(_))),
                "{header:?} was not refused as malformed"
            );
        }
    }

    #[test]
    fn tolerates_spaces_after_commas() {
        assert_eq!(verify(&format!("t={T}, v1={BODY_V1}"), BODY, SECRET, T), Ok(()));
    }

    #[test]
    fn errors_read_as_sentences() {
        assert_eq!(SignatureError::TooOld { age_secs: 301 }.to_string(), "The signature is 301 s old, more than the 300 s allowed.");
        assert_eq!(SignatureError::Malformed("no timestamp").to_string(), "The Stripe-Signature header is malformed: no timestamp.");
    }
}
