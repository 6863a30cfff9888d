//! Development helpers, mounted only outside production.

use std::sync::Arc;

use axum::extract::State;
use axum::response::Html;

use enrol_domain::html::escape_html;

use crate::AppState;
use crate::http::ApiError;

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
            "<article><h2>{}</h2><p>To: {}{}</p><pre>{}</pre>{}</article>",
            escape_html(&mail.subject),
            escape_html(&mail.to_address),
            mail.reply_to.map(|r| format!(" · Reply-To: {}", escape_html(&r))).unwrap_or_default(),
            escape_html(&mail.body_text),
            mail.attachment_name.map(|name| format!("<p>Attached: {}</p>", escape_html(&name))).unwrap_or_default(),
        ));
    }
    html.push_str("</main></body></html>");
    Ok(Html(html))
}
