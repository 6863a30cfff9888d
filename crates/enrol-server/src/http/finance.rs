//! `POST /api/callback/`: the payment-plan panel's request (§2, §7), stored
//! and mailed to the college, who reply within 2 hours in business hours.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use chrono::Utc;

use enrol_db::FormMail;
use enrol_domain::checkout::{FinanceRequest, FinanceResponse};

use crate::AppState;
use crate::http::ApiError;

#[tracing::instrument(skip_all)]
pub async fn request_finance(
    State(state): State<Arc<AppState>>,
    body: Result<Json<FinanceRequest>, JsonRejection>,
) -> Result<Json<FinanceResponse>, ApiError> {
    let Json(request) = body.map_err(|rejection| ApiError::BadRequest(rejection.body_text()))?;
    if request.kind != "finance" {
        return Err(ApiError::BadRequest("type must be finance".to_owned()));
    }
    let request = request.parse().map_err(ApiError::Invalid)?;
    let site = state.db.site().await?.ok_or_else(|| anyhow::anyhow!("No site data to address the request to"))?.site;
    let mail = FormMail {
        to: &site.email_address,
        reply_to: Some(&request.email),
        subject: format!("Payment plan request: {} {}", request.first_name, request.last_name),
        body: request.mail_body(),
    };
    let data = serde_json::json!({
        "first_name": request.first_name, "last_name": request.last_name, "email": request.email,
        "phone_number": request.phone_number, "courses": request.courses, "type": "finance",
    });
    let id = state.db.save_form("finance", &data.to_string(), &mail, Utc::now()).await?;
    tracing::info!(%id, "Payment plan request received");
    Ok(Json(FinanceResponse { success: true }))
}
