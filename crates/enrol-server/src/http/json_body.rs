//! JSON request bodies, read the same way by every handler: a body that is
//! not JSON of the expected shape is a 400 in the API's envelope, and so is
//! one whose text holds a NUL character, which PostgreSQL cannot store in
//! a text column (it failed there with a 500 before; decision 010).
//! `Content-Type: application/json` is checked before, by the
//! [`guard`](super::guard).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::http::ApiError;

/// A handler's JSON body of type `T`.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state).await?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// `bytes` as JSON of type `T`, for a handler that keeps the raw body.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if holds_nul(bytes) {
        return Err(ApiError::BadRequest("Text cannot contain NUL characters (\\u0000).".to_owned()));
    }
    Json::<T>::from_bytes(bytes).map(|Json(value)| value).map_err(|rejection| ApiError::BadRequest(rejection.body_text()))
}

/// Whether JSON text has a NUL character in a string or a key. JSON can
/// only write it escaped, `\u0000`; a backslash escaped itself (`\\u0000`)
/// is text, not a NUL.
fn holds_nul(json: &[u8]) -> bool {
    json.windows(6)
        .enumerate()
        .any(|(at, window)| window == b"\\u0000" && json[..at].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 0)
}

#[cfg(test)]
mod tests {
    use super::holds_nul;

    #[test]
    fn finds_a_nul_escape_but_not_an_escaped_backslash() {
        assert!(holds_nul(br#"{"name":"A\u0000"}"#));
        assert!(holds_nul(br#"{"a\u0000":1}"#));
        assert!(holds_nul(br#"["\\\u0000"]"#));
        assert!(!holds_nul(br#"{"name":"C:\\u0000"}"#));
        assert!(!holds_nul(br#"{"name":"\u0030"}"#));
        assert!(!holds_nul(b"{}"));
    }
}
