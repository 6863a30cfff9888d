//! Development helpers, mounted only outside production.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{Html, IntoResponse};

use enrol_domain::html::escape_html;

use crate::AppState;
use crate::http::ApiError;
use crate::mail_html::{self, Letterhead};

/// `GET /dev/mailbox`: the outbox, newest first, as the college would read it.
pub async fn show_mailbox(State(state): State<Arc<AppState>>) -> Result<Html<String>, ApiError> {
    let mails = state.db.outbox(100).await?;
    let mut html = String::from(
        "<!doctype html><html lang=\"en-GB\"><head><meta charset=\"utf-8\"><title>Mailbox</title></head><body><main><h1>Mailbox</h1>",
    );
    if mails.is_empty() {
        html.push_str("<p>No mail yet.</p>");
    }
    for mail in mails {
        html.push_str(&format!(
            "<article><h2>{}</h2><p>To: {}{}</p><p><a href=\"/dev/mailbox/{}\">As the mail client shows it</a></p><pre>{}</pre>{}</article>",
            escape_html(&mail.subject),
            escape_html(&mail.to_address),
            mail.reply_to.map(|r| format!(" · Reply-To: {}", escape_html(&r))).unwrap_or_default(),
            escape_html(&mail.id),
            escape_html(&mail.body_text),
            mail.attachment_name.map(|name| format!("<p>Attached: {}</p>", escape_html(&name))).unwrap_or_default(),
        ));
    }
    html.push_str("</main></body></html>");
    Ok(Html(html))
}

/// `GET /dev/mailbox/{id}`: one mail's HTML part, as its recipient's mail
/// client shows it: styles written inline, as mails have them, and no
/// script.
pub async fn show_mail(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<impl IntoResponse, ApiError> {
    let mail = state.db.outbox(100).await?.into_iter().find(|mail| mail.id == id).ok_or(ApiError::NotFound)?;
    let site = state.db.site().await?.ok_or(ApiError::NotFound)?.site;
    let letterhead = Letterhead::of(&site, &state.config.public_url);
    let policy = HeaderValue::from_static("default-src 'none'; img-src 'self'; style-src 'unsafe-inline'");
    Ok(([(header::CONTENT_SECURITY_POLICY, policy)], Html(mail_html::render(&mail.subject, &mail.body_text, &letterhead)?)))
}

#[derive(serde::Deserialize)]
pub struct ClockRequest {
    /// The moment the job runs as if it were now.
    at: chrono::DateTime<chrono::Utc>,
    /// Only this booking's parts, as a provider's test clock moves one customer's time.
    order: Option<String>,
}

/// `POST /dev/clock/instalments`: runs the instalment job as if it were
/// `at`, for one booking's plan when `order` names it, as a payment
/// provider's test clock moves one customer's time: how many charges the
/// bank took on.
pub async fn charge_instalments_at(
    State(state): State<Arc<AppState>>,
    axum::Json(request): axum::Json<ClockRequest>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let charged = crate::plans::charge_parts_due(&state, request.at, request.order.as_deref()).await?;
    Ok(axum::Json(serde_json::json!({ "charged": charged })))
}
