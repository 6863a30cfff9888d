//! `POST /api/callback/`: the payment-plan panel's request (docs/product.md#checkout), stored
//! and mailed to the college, who reply within 2 hours in business hours.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use chrono::Utc;

use enrol_domain::checkout::{FinanceRequest, FinanceResponse};
use enrol_domain::mail::Mail;

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

#[utoipa::path(
    post,
    path = "/api/callback/",
    tag = "checkout",
    request_body(content = FinanceRequest, example = json!({
        "first_name": "Amelia", "last_name": "Hart", "email": "amelia@example.org", "phone_number": "07700 900123",
        "courses": ["Foundation Dermal Fillers"], "type": "finance"
    })),
    responses(
        (status = 200, description = "Stored, and mailed to the college", body = FinanceResponse),
        (status = 400, description = "Not JSON of this shape, or a `type` other than `finance`", body = ErrorEnvelope),
        (status = 422, description = "A message per field to correct (`invalid`)", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn request_finance(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<FinanceRequest>,
) -> Result<Json<FinanceResponse>, ApiError> {
    if request.kind != "finance" {
        return Err(ApiError::BadRequest("type must be finance".to_owned()));
    }
    let request = request.parse().map_err(ApiError::Invalid)?;
    let site = state.db.site().await?.ok_or_else(|| anyhow::anyhow!("No site data to address the request to"))?.site;
    let mail = Mail {
        to: site.email_address.clone(),
        reply_to: Some(request.email.clone()),
        subject: format!("Payment plan request: {} {}", request.first_name, request.last_name),
        body: request.mail_body(),
        attachment: None,
    };
    let data = serde_json::json!({
        "first_name": request.first_name, "last_name": request.last_name, "email": request.email,
        "phone_number": request.phone_number, "courses": request.courses, "type": "finance",
    });
    let id = state.db.save_form("finance", &data.to_string(), &[mail], Utc::now()).await?;
    tracing::info!(%id, "Payment plan request received");
    Ok(Json(FinanceResponse { success: true }))
}
