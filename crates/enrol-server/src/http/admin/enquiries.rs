//! The enquiry and payment-plan inbox in the back office (decision 017),
//! for staff with `Permission::Enquiries`: what the site's
//! forms sent, where staff are with each, who owns it, their notes, and
//! the replies they mail from an enquiry's page (answers go to the
//! college's address).

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{EnquiryChange, EnquiryReplied, InboxEnquiry};
use enrol_domain::inbox::{EnquiryStatus, FORM_KINDS, note_text, reply_text};

use super::Staff;
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;

const CHOOSE_A_STATUS: &str = "Choose new, in_progress or done.";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InboxQuery {
    status: Option<String>,
    kind: Option<String>,
}

/// `GET /api/admin/enquiries?status=&kind=`: newest first, each filter when given.
pub async fn list_enquiries(State(state): State<Arc<AppState>>, Query(query): Query<InboxQuery>) -> Result<Response, ApiError> {
    let given = |value: Option<String>| value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let mut fields = BTreeMap::new();
    let status = given(query.status).map(|raw| EnquiryStatus::parse(&raw));
    if status.is_some_and(|s| s.is_none()) {
        fields.insert("status", CHOOSE_A_STATUS);
    }
    let kind = given(query.kind);
    if kind.as_deref().is_some_and(|kind| !FORM_KINDS.contains(&kind)) {
        fields.insert("kind", "Choose contact, callback, business, models or finance.");
    }
    if !fields.is_empty() {
        return Err(ApiError::Invalid(fields));
    }
    let enquiries = state.db.enquiries(status.flatten(), kind.as_deref()).await?;
    Ok(Json(Enquiries { enquiries }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct Enquiries {
    enquiries: Vec<InboxEnquiry>,
}

#[derive(Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct EnquiryChangeRequest {
    status: String,
    /// `null`: nobody owns it.
    #[serde(default)]
    owner_id: Option<String>,
}

/// The enquiry `id` as the inbox lists it, answered after a change.
async fn answer(state: &AppState, id: &str, status: StatusCode) -> Result<Response, ApiError> {
    let enquiry = state.db.enquiry(id).await?.ok_or(ApiError::NotFound)?;
    Ok((status, Json(enquiry)).into_response())
}

/// `GET /api/admin/enquiries/{id}`: one enquiry, as the inbox lists it.
pub async fn show_enquiry(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    answer(&state, &id, StatusCode::OK).await
}

/// `PUT /api/admin/enquiries/{id}`: where staff are with it, and who owns it.
pub async fn change_enquiry(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<EnquiryChangeRequest>,
) -> Result<Response, ApiError> {
    let status = EnquiryStatus::parse(&request.status).ok_or_else(|| ApiError::field("status", CHOOSE_A_STATUS))?;
    let owner_id = request.owner_id.as_deref().map(str::trim).filter(|id| !id.is_empty());
    match state.db.change_enquiry(&id, status, owner_id, &staff.id, Utc::now()).await? {
        EnquiryChange::Done => answer(&state, &id, StatusCode::OK).await,
        EnquiryChange::NotFound => Err(ApiError::NotFound),
        EnquiryChange::UnknownOwner => Err(ApiError::field("ownerId", "Choose someone on the staff who handles enquiries, or nobody.")),
    }
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct NoteRequest {
    text: String,
}

/// `POST /api/admin/enquiries/{id}/notes`: 201 with the enquiry and its notes.
pub async fn add_enquiry_note(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<NoteRequest>,
) -> Result<Response, ApiError> {
    let text = note_text(&request.text).ok_or_else(|| ApiError::field("text", "Write a note of up to 2,000 characters."))?;
    if !state.db.add_enquiry_note(&id, &text, &staff.id, Utc::now()).await? {
        return Err(ApiError::NotFound);
    }
    answer(&state, &id, StatusCode::CREATED).await
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct ReplyRequest {
    text: String,
}

/// `POST /api/admin/enquiries/{id}/replies`: mails the reply to whoever
/// sent it and keeps it; 201 with the enquiry and its replies.
#[tracing::instrument(skip_all, fields(staff = %staff.id, enquiry = %id))]
pub async fn reply_to_enquiry(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<ReplyRequest>,
) -> Result<Response, ApiError> {
    let text = reply_text(&request.text).ok_or_else(|| ApiError::field("text", "Write a reply of up to 5,000 characters."))?;
    let college = state.db.college().await?;
    match state.db.reply_to_enquiry(&id, &text, &staff.id, &college, Utc::now()).await? {
        EnquiryReplied::Sent => answer(&state, &id, StatusCode::CREATED).await,
        EnquiryReplied::NotFound => Err(ApiError::NotFound),
        EnquiryReplied::NoEmail => {
            Err(ApiError::Unprocessable("This enquiry left no email address to reply to: call them instead.".to_owned()))
        }
    }
}
