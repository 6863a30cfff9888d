//! One JSON error envelope for the API:
//! `{"error": {"code", "message", "fields"?}}`. Internal details go to the
//! log, never to the client.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

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
    /// A form with a message per field, some named by where they are in a
    /// list (`learning.modules.0.title`).
    #[error("Please check the highlighted fields.")]
    InvalidAt(BTreeMap<String, String>),
    /// A seat or a payment someone else got to first.
    #[error("{0}")]
    Conflict(String),
    /// The payment provider declined; the message is the provider's own.
    #[error("{0}")]
    PaymentFailed(String),
    #[error("{0}")]
    Unauthorized(String),
    /// Signed in, but the role does not allow it.
    #[error("You do not have access to this.")]
    Forbidden,
    #[error("{0}")]
    TooManyRequests(String),
    /// Work that took longer than it may; worth trying again later.
    #[error("{0}")]
    Unavailable(String),
    #[error("Not found")]
    NotFound,
    #[error("This request must come from the site itself.")]
    CrossSite,
    #[error("Send JSON with Content-Type: application/json.")]
    NotJson,
    #[error("Internal error")]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    /// A form refused for one field, with the message shown beside it.
    pub fn field(name: &'static str, message: &'static str) -> Self {
        ApiError::Invalid(BTreeMap::from([(name, message)]))
    }
}

/// A query string the handler cannot read (a missing or malformed parameter).
impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::BadRequest(rejection.body_text())
    }
}

/// A body that cannot be read (cut short, or over the size limit).
impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        ApiError::BadRequest(rejection.body_text())
    }
}

/// What every refused or failed API call answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorEnvelope {
    pub error: ErrorBody,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub code: ErrorCode,
    /// What went wrong, for a person, with what to do about it.
    pub message: String,
    /// With `invalid`: a message per form field, keyed by the field's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, value_type = Option<BTreeMap<String, String>>)]
    pub fields: Option<BTreeMap<String, String>>,
}

/// The kind of error, for programs; one per status, except 422, which is
/// `invalid` for a form with a message per field, else `unprocessable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    BadRequest,
    Invalid,
    Unprocessable,
    Conflict,
    PaymentFailed,
    Unauthorized,
    Forbidden,
    TooManyRequests,
    Unavailable,
    NotFound,
    CrossSite,
    NotJson,
    Internal,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = match &self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, ErrorCode::BadRequest),
            ApiError::Invalid(_) | ApiError::InvalidAt(_) => (StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::Invalid),
            ApiError::Unprocessable(_) => (StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::Unprocessable),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, ErrorCode::Conflict),
            ApiError::PaymentFailed(_) => (StatusCode::PAYMENT_REQUIRED, ErrorCode::PaymentFailed),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized),
            ApiError::Forbidden => (StatusCode::FORBIDDEN, ErrorCode::Forbidden),
            ApiError::TooManyRequests(_) => (StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyRequests),
            ApiError::Unavailable(_) => (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable),
            ApiError::NotFound => (StatusCode::NOT_FOUND, ErrorCode::NotFound),
            ApiError::CrossSite => (StatusCode::FORBIDDEN, ErrorCode::CrossSite),
            ApiError::NotJson => (StatusCode::UNSUPPORTED_MEDIA_TYPE, ErrorCode::NotJson),
            ApiError::Internal(error) => {
                tracing::error!(error = %format!("{error:#}"), "Request failed");
                crate::telemetry::report(error);
                (StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal)
            }
        };
        let message = match &self {
            ApiError::Internal(_) => "Something went wrong on our side. Please try again.".to_owned(),
            other => other.to_string(),
        };
        let fields = match self {
            ApiError::Invalid(fields) => Some(fields.into_iter().map(|(field, message)| (field.to_owned(), message.to_owned())).collect()),
            ApiError::InvalidAt(fields) => Some(fields),
            _ => None,
        };
        (status, Json(ErrorEnvelope { error: ErrorBody { code, message, fields } })).into_response()
    }
}
