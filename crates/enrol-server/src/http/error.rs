//! One JSON error envelope for the API:
//! `{"error": {"code", "message", "fields"?}}`. Internal details go to the
//! log, never to the client.

use std::collections::BTreeMap;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    /// Well-formed, but the college cannot do what it asks (a price that
    /// has changed, a course no longer sold).
    #[error("{0}")]
    Unprocessable(String),
    /// A form with a message per field.
    #[error("Please check the highlighted fields.")]
    Invalid(BTreeMap<&'static str, &'static str>),
    /// A seat or a payment someone else got to first.
    #[error("{0}")]
    Conflict(String),
    /// The payment provider declined; the message is the provider's own.
    #[error("{0}")]
    PaymentFailed(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("Not found")]
    NotFound,
    #[error("This request must come from the site itself.")]
    CrossSite,
    #[error("Send JSON with Content-Type: application/json.")]
    NotJson,
    #[error("Internal error")]
    Internal(#[from] anyhow::Error),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::Invalid(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid"),
            ApiError::Unprocessable(_) => (StatusCode::UNPROCESSABLE_ENTITY, "unprocessable"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "conflict"),
            ApiError::PaymentFailed(_) => (StatusCode::PAYMENT_REQUIRED, "payment_failed"),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::TooManyRequests(_) => (StatusCode::TOO_MANY_REQUESTS, "too_many_requests"),
            ApiError::NotFound => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::CrossSite => (StatusCode::FORBIDDEN, "cross_site"),
            ApiError::NotJson => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "not_json"),
            ApiError::Internal(error) => {
                tracing::error!(error = %format!("{error:#}"), "Request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, "internal")
            }
        };
        let message = match &self {
            ApiError::Internal(_) => "Something went wrong on our side. Please try again.".to_owned(),
            other => other.to_string(),
        };
        let body = match self {
            ApiError::Invalid(fields) => json!({ "error": { "code": code, "message": message, "fields": fields } }),
            _ => json!({ "error": { "code": code, "message": message } }),
        };
        (status, Json(body)).into_response()
    }
}
