//! `Idempotency-Key`: a request sent again by the same buyer with the same
//! key and body (a double click, a retry after a timeout) gets the first
//! answer and is carried out once. Keys are claimed in the database, so
//! this holds across instances.

use std::future::Future;

use axum::Json;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde::Serialize;

use enrol_db::{IdempotencyClaim, StoredResponse};

use crate::AppState;
use crate::accounts::token_hash;
use crate::http::ApiError;

/// The request's `Idempotency-Key`, if it sent a usable one.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    match headers.get("idempotency-key").map(|v| v.to_str().map(str::trim)) {
        None => Ok(None),
        Some(Ok(key)) if !key.is_empty() && key.len() <= 100 && key.chars().all(|c| c.is_ascii_graphic()) => Ok(Some(key.to_owned())),
        Some(_) => Err(ApiError::BadRequest("Idempotency-Key must be 1 to 100 visible characters.".to_owned())),
    }
}

/// `handle`'s answer as JSON, carried out at most once per key the request
/// sends for buyer `owner` and `body`: the same request again replays the
/// first answer, one sent while the first is still running is refused, and
/// the key with another body is refused. A refusal frees the key, since it
/// may not hold next time (a seat freed, a hold ran out). Without a key,
/// `handle` runs every time.
pub(crate) async fn at_most_once<T: Serialize>(
    state: &AppState,
    headers: &HeaderMap,
    owner: &str,
    body: &[u8],
    now: DateTime<Utc>,
    handle: impl Future<Output = Result<T, ApiError>>,
) -> Result<Response, ApiError> {
    let Some(key) = idempotency_key(headers)? else { return Ok(Json(handle.await?).into_response()) };
    match state.db.claim_idempotency_key(owner, &key, &token_hash(&String::from_utf8_lossy(body)), now).await? {
        IdempotencyClaim::Claimed => {}
        IdempotencyClaim::Replay(first) => {
            let status = StatusCode::from_u16(first.status).unwrap_or(StatusCode::OK);
            return Ok((status, [(header::CONTENT_TYPE, "application/json")], first.body).into_response());
        }
        IdempotencyClaim::InProgress => {
            return Err(ApiError::Conflict("Your booking is still being placed. Please wait a moment.".to_owned()));
        }
        IdempotencyClaim::Mismatch => {
            return Err(ApiError::Unprocessable("This Idempotency-Key was already used for another booking.".to_owned()));
        }
    }
    let answer = handle.await;
    match &answer {
        Ok(answer) => {
            let stored = StoredResponse { status: 200, body: serde_json::to_string(answer).map_err(anyhow::Error::new)? };
            state.db.store_idempotent_response(owner, &key, &stored).await?;
        }
        Err(_) => state.db.release_idempotency_key(owner, &key).await?,
    }
    Ok(Json(answer?).into_response())
}
