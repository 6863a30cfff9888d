//! The signed-in student a request comes from, as staff are found by the
//! back office's guard: a [`Student`] extractor that answers 401 to anyone
//! not signed in, and what every call about a student's own things uses.
//! Another student's booking answers 404, as one that does not exist
//! (decision 009).

use std::sync::Arc;

use axum::Json;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use enrol_db::{EnrollmentRecord, SessionRecord};

use crate::AppState;
use crate::accounts::current_session;
use crate::http::ApiError;

/// The caller's session: a handler that takes it runs only for a
/// signed-in student; anyone else gets 401 before it starts.
pub struct Student(pub SessionRecord);

impl FromRequestParts<Arc<AppState>> for Student {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        current_session(state, &parts.headers)
            .await?
            .map(Student)
            .ok_or_else(|| ApiError::Unauthorized("Sign in to see your account.".to_owned()))
    }
}

impl Student {
    /// One of the student's bookings, or 404: another's as one that does
    /// not exist.
    pub async fn booking(&self, state: &AppState, id: &str) -> Result<EnrollmentRecord, ApiError> {
        let owner = Some(self.0.user.id.as_str());
        state.db.enrollment(id).await?.filter(|o| o.user_id.as_deref() == owner).ok_or(ApiError::NotFound)
    }
}

/// A JSON answer no cache may keep.
pub fn private(status: StatusCode, body: impl Serialize) -> Response {
    kept_private((status, Json(body)).into_response())
}

/// `response`, marked for no cache to keep.
pub fn kept_private(mut response: Response) -> Response {
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
    response
}
