//! An in-person course's materials in the back office (decision 035), for
//! staff with `Permission::Content`: listed with the course's dates,
//! added (a course file, or an `https://` address), moved and removed.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::Deserialize;
use ts_rs::TS;

use enrol_db::MaterialAdded;
use enrol_domain::materials::{MaterialForm, NewMaterial};

use super::Staff;
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;

/// `GET /api/admin/courses/{id}/materials`: the course's materials in
/// order, and its dates; 404 for a course with no dates to book.
pub async fn list_materials(State(state): State<Arc<AppState>>, Path(course_id): Path<String>) -> Result<Response, ApiError> {
    let materials = state.db.course_materials(&course_id).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(materials).into_response())
}

/// `POST /api/admin/courses/{id}/materials`: 201 with the material as
/// kept; 422 naming each field's problem.
#[tracing::instrument(skip_all, fields(staff = %staff.id, course = %course_id))]
pub async fn add_material(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(course_id): Path<String>,
    JsonBody(form): JsonBody<MaterialForm>,
) -> Result<Response, ApiError> {
    let material = NewMaterial::parse(&form).map_err(ApiError::Invalid)?;
    match state.db.add_material(&course_id, &material, &staff.id, Utc::now()).await? {
        MaterialAdded::Added(added) => Ok((StatusCode::CREATED, Json(added)).into_response()),
        MaterialAdded::NoCourse => Err(ApiError::NotFound),
        MaterialAdded::NoSuchDate => Err(ApiError::field("sessionId", "Choose one of this course's dates, or every date.")),
        MaterialAdded::NoSuchFile => Err(ApiError::field("file", "That course file no longer exists: choose another or upload it again.")),
    }
}

/// Which way a material moves in the course's list.
#[derive(Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct MaterialMove {
    /// One place earlier (true) or later (false).
    earlier: bool,
}

/// `POST /api/admin/courses/{id}/materials/{material}/move`: 204.
pub async fn move_material(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((course_id, id)): Path<(String, String)>,
    JsonBody(direction): JsonBody<MaterialMove>,
) -> Result<Response, ApiError> {
    if !state.db.move_material(&course_id, &id, direction.earlier, &staff.id, Utc::now()).await? {
        return Err(ApiError::NotFound);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/admin/courses/{id}/materials/{material}`: 204; students no longer see it.
pub async fn remove_material(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((course_id, id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    if !state.db.remove_material(&course_id, &id, &staff.id, Utc::now()).await? {
        return Err(ApiError::NotFound);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}
