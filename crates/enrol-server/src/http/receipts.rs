//! Receipts and credit notes (decision 016), each a print-ready
//! HTML page: opened by the signed-in account its payment belongs to
//! (`GET /api/account/receipts/{number}`, linked from the account's
//! payments) or by whoever holds the link its mail gave
//! (`GET /api/receipts/{number}?token=…`). Anything else is not found.
//! Also who issues them and their links, made before the transaction that
//! numbers them.

use std::sync::{Arc, LazyLock};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use utoipa::IntoParams;

use enrol_db::ReceiptAccess;
use enrol_domain::receipt::Document;

use crate::AppState;
use crate::accounts::token_hash;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::student::{Student, kept_private};
use crate::print::receipt::{self, STYLE};

/// A document's page may load nothing and run nothing: only its own
/// styles, allowed by their hash.
static DOCUMENT_POLICY: LazyLock<HeaderValue> = LazyLock::new(|| {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(STYLE.as_bytes()));
    HeaderValue::from_str(&format!(
        "default-src 'none'; style-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ))
    .expect("a policy is a valid header value")
});

/// `document` as its page: shown in the browser, saved as `RCT-000123.html`.
fn document_page(document: &Document) -> Result<Response, ApiError> {
    // The number is the database's own `RCT-000123`: nothing in it to escape.
    let disposition = format!("inline; filename=\"{}.html\"", document.number);
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
        (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?),
        (header::CONTENT_SECURITY_POLICY, DOCUMENT_POLICY.clone()),
    ];
    Ok(kept_private((headers, receipt::page(document)).into_response()))
}

/// `GET /api/account/receipts/{number}`: a receipt or credit note of one
/// of the caller's payments.
#[utoipa::path(
    get,
    path = "/api/account/receipts/{number}",
    tag = "accounts",
    params(("number" = String, Path, description = "The receipt's or credit note's number, like RCT-000123")),
    responses(
        (status = 200, description = "The document, a print-ready page", content_type = "text/html"),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No receipt or credit note of the caller's with that number", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn show_account_receipt(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    Path(number): Path<String>,
) -> Result<Response, ApiError> {
    let document = state.db.receipt(&number, ReceiptAccess::Owner(&record.user.id)).await?.ok_or(ApiError::NotFound)?;
    document_page(&document)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReceiptQuery {
    /// The token of the link the document's mail gave.
    token: Option<String>,
}

/// `GET /api/receipts/{number}?token=…`: a receipt or credit note, by the
/// link its mail gave; it works without signing in, as a mailed link must.
#[utoipa::path(
    get,
    path = "/api/receipts/{number}",
    tag = "accounts",
    params(("number" = String, Path, description = "The receipt's or credit note's number, like RCT-000123"), ReceiptQuery),
    responses(
        (status = 200, description = "The document, a print-ready page", content_type = "text/html"),
        (status = 404, description = "No document with that number and token", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn show_receipt(
    State(state): State<Arc<AppState>>,
    Path(number): Path<String>,
    query: Result<Query<ReceiptQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let token = query.ok().and_then(|Query(query)| query.token).ok_or(ApiError::NotFound)?;
    let document = state.db.receipt(&number, ReceiptAccess::Token(&token_hash(&token))).await?.ok_or(ApiError::NotFound)?;
    document_page(&document)
}
