use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use enrol_domain::enquiry::{Enquiry, EnquiryInput, EnquiryKind};

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

#[derive(Serialize, ToSchema)]
pub struct EnquiryCreated {
    id: String,
}

/// `POST /api/enquiries/{kind}`: stores a form and queues its mail to the
/// college (model sign-ups go to the models address).
#[utoipa::path(
    post,
    path = "/api/enquiries/{kind}",
    tag = "enquiries",
    params(("kind" = EnquiryKind, Path, description = "Which of the site's forms", example = "contact")),
    request_body(content = EnquiryInput, example = json!({
        "name": "Amelia Hart", "email": "amelia@example.org", "phone": "07700 900123",
        "message": "Do you run lip filler courses at weekends?"
    })),
    responses(
        (status = 201, description = "Stored, mailed to the college, and acknowledged to the enquirer when they gave an address", body = EnquiryCreated),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 404, description = "No form of this kind", body = ErrorEnvelope),
        (status = 422, description = "A message per field to correct (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create_enquiry(
    State(state): State<Arc<AppState>>,
    kind: Result<Path<String>, PathRejection>,
    JsonBody(input): JsonBody<EnquiryInput>,
) -> Result<(StatusCode, Json<EnquiryCreated>), ApiError> {
    let kind = kind.ok().and_then(|Path(kind)| EnquiryKind::parse(&kind)).ok_or(ApiError::NotFound)?;
    let enquiry = Enquiry::parse(kind, input).map_err(ApiError::Invalid)?;
    let site = state.db.site().await?.ok_or_else(|| anyhow::anyhow!("No site data to address the enquiry to"))?.site;
    let acknowledgement = enquiry.acknowledgement(&site.title, &site.phone_number);
    let to = if kind == EnquiryKind::Models { site.models_email_address } else { site.email_address };
    let id = state.db.save_enquiry(&enquiry, &to, acknowledgement, Utc::now()).await?;
    tracing::info!(%id, kind = kind.as_str(), "Enquiry received");
    Ok((StatusCode::CREATED, Json(EnquiryCreated { id })))
}
