use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::Utc;
use serde_json::{Value, json};

use enrol_domain::enquiry::{Enquiry, EnquiryInput, EnquiryKind};

use crate::AppState;
use crate::http::ApiError;

/// `POST /api/enquiries/{kind}`: stores a form and queues its mail to the
/// college (model sign-ups go to the models address).
#[tracing::instrument(skip(state, body))]
pub async fn create_enquiry(
    State(state): State<Arc<AppState>>,
    Path(kind): Path<String>,
    body: Result<Json<EnquiryInput>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let kind = EnquiryKind::parse(&kind).ok_or(ApiError::NotFound)?;
    let Json(input) = body.map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
    let enquiry = Enquiry::parse(kind, input).map_err(ApiError::Invalid)?;
    let site = state.db.site().await?.ok_or_else(|| anyhow::anyhow!("No site data to address the enquiry to"))?.site;
    let to = if kind == EnquiryKind::Models { site.models_email_address } else { site.email_address };
    let id = state.db.save_enquiry(&enquiry, &to, Utc::now()).await?;
    tracing::info!(%id, kind = kind.as_str(), "Enquiry received");
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))))
}
