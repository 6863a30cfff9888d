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
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use utoipa::IntoParams;

use enrol_db::{Db, ReceiptAccess};
use enrol_domain::receipt::{Document, DocumentLink, Issuer, STYLE};

use crate::AppState;
use crate::accounts::{random_token, token_hash};
use crate::config::Config;
use crate::http::ApiError;
use crate::http::account_area::{kept_private, require_session};
use crate::http::error::ErrorEnvelope;

/// The college as its documents name it now: the site record's details
/// and the configured VAT number.
pub async fn issuer(db: &Db, config: &Config) -> anyhow::Result<Issuer> {
    let college = db.college().await?;
    Ok(Issuer { name: college.name, address: college.address, email: college.email_address, vat_number: config.vat_number.clone() })
}

/// A new link for a document about to be issued; its token appears only
/// in the mail that tells of it.
pub fn new_document_link(config: &Config) -> DocumentLink {
    let token = random_token();
    let hash = token_hash(&token);
    DocumentLink::new(&config.public_url, token, hash)
}

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
    Ok(kept_private((headers, document.render_html()).into_response()))
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
    headers: HeaderMap,
    Path(number): Path<String>,
) -> Result<Response, ApiError> {
    let record = require_session(&state, &headers).await?;
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
