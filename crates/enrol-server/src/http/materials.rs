//! `GET /course-materials/{id}`: a course material's file (decision 035),
//! for the signed-in student whose paid booking holds a seat on its course
//! (on its date, for one date's material). Anyone else, signed in or not,
//! and any material that is an address rather than a file, gets the same
//! 404 as a material that does not exist. Answered in ranges, as a
//! lesson's course file is (decision 028).

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, Method};
use axum::response::Response;

use crate::AppState;
use crate::accounts::current_session;
use crate::http::ApiError;
use crate::http::course_files::{Disposition, serve};

pub async fn show_material_file(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(disposition): Query<Disposition>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let session = current_session(&state, &headers).await?.ok_or(ApiError::NotFound)?;
    let key = state.db.material_file_of(&session.user.id, &id).await?.ok_or(ApiError::NotFound)?;
    let record = state.db.course_file(&key).await?.ok_or(ApiError::NotFound)?;
    serve(&state, &record, &method, &headers, disposition.wants_download()).await
}
