//! The owner's staff list (add, disable) and the audit log.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{AddedStaff, AuditFilter, AuditRow};
use enrol_domain::audit::audit_sentence;
use enrol_domain::contact::is_valid_email;
use enrol_domain::mail::Mail;
use enrol_domain::staff::Role;

use super::Staff;
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;
use crate::staff_auth;

/// Someone on the staff list.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct StaffRow {
    id: String,
    email: String,
    name: String,
    role: Role,
    active: bool,
    created_at: DateTime<Utc>,
    last_sign_in_at: Option<DateTime<Utc>>,
}

/// `GET /api/admin/staff`.
pub async fn list_staff(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let staff: Vec<StaffRow> = state
        .db
        .staff_list()
        .await?
        .into_iter()
        .map(|s| StaffRow {
            id: s.member.id,
            email: s.member.email,
            name: s.member.name,
            role: s.member.role,
            active: s.active,
            created_at: s.created_at,
            last_sign_in_at: s.last_sign_in_at,
        })
        .collect();
    Ok(Json(StaffList { staff }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct StaffList {
    staff: Vec<StaffRow>,
}

#[derive(Serialize, TS)]
#[ts(export)]
struct NameRow {
    id: String,
    name: String,
}

/// `GET /api/admin/staff/names`: who can own an enquiry.
pub async fn list_staff_names(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let staff: Vec<NameRow> = state
        .db
        .staff_list()
        .await?
        .into_iter()
        .filter(|s| s.active && matches!(s.member.role, Role::Owner | Role::Staff))
        .map(|s| NameRow { id: s.member.id, name: s.member.name })
        .collect();
    Ok(Json(StaffNames { staff }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct StaffNames {
    staff: Vec<NameRow>,
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct NewStaff {
    email: String,
    name: String,
    role: String,
}

/// `POST /api/admin/staff`: adds someone who sets themselves up through
/// the mailed link (also answered, for the owner to pass on).
pub async fn add_staff(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    JsonBody(request): JsonBody<NewStaff>,
) -> Result<Response, ApiError> {
    let mut fields = BTreeMap::new();
    let email = request.email.trim().to_lowercase();
    if !is_valid_email(&email) {
        fields.insert("email", "Enter an email address like name@example.com.");
    }
    let name = request.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        fields.insert("name", "Enter their name (up to 100 characters).");
    }
    let role = Role::parse(&request.role);
    if role.is_none() {
        fields.insert("role", "Choose owner, staff, tutor or editor.");
    }
    let Some(role) = role.filter(|_| fields.is_empty()) else {
        return Err(ApiError::Invalid(fields));
    };
    let now = Utc::now();
    let college = state.db.college().await?.name;
    let (token, hash) = staff_auth::setup_token();
    let link = staff_auth::setup_link(state.config.back_office_url(), &token);
    let mail = Mail {
        to: email.clone(),
        reply_to: None,
        subject: format!("Your {college} back office account"),
        body: format!(
            "Hello {name},\n\n{} has added you to the {college} back office as {}.\n\nOpen this link within 48 hours to choose a \
             password and connect an authenticator app (the back office asks for its code every time you sign in):\n{link}\n",
            staff.name,
            role.as_str()
        ),
        attachment: None,
    };
    let secret = staff_auth::new_secret();
    match state.db.add_staff(&email, name, role, &secret, &hash, Some(&staff.id), Some(&mail), now).await? {
        AddedStaff::Added { id } => Ok((StatusCode::CREATED, Json(StaffAdded { id, setup_link: link })).into_response()),
        AddedStaff::EmailTaken => Err(ApiError::field("email", "Someone on the staff already has this email.")),
    }
}

/// Someone added to the staff, and the link that sets them up.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct StaffAdded {
    id: String,
    setup_link: String,
}

/// `POST /api/admin/staff/{id}/disable`: they are signed out everywhere.
pub async fn disable_staff(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    if id == staff.id {
        return Err(ApiError::Unprocessable("You cannot disable your own account.".to_owned()));
    }
    if state.db.disable_staff(&id, &staff.id, Utc::now()).await? { Ok(StatusCode::NO_CONTENT) } else { Err(ApiError::NotFound) }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuditQuery {
    actor: Option<String>,
    entity: Option<String>,
    entity_id: Option<String>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    before: Option<i64>,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AuditView {
    /// The audit log's row number: newer rows have larger ones.
    #[ts(type = "number")]
    id: i64,
    at: DateTime<Utc>,
    actor_name: String,
    actor_email: String,
    action: String,
    entity: String,
    entity_id: String,
    before: Option<serde_json::Value>,
    after: Option<serde_json::Value>,
    /// What it did, in words, beside the code (`audit_sentence`).
    summary: String,
}

impl From<AuditRow> for AuditView {
    fn from(row: AuditRow) -> Self {
        let parse = |text: Option<String>| text.and_then(|t| serde_json::from_str(&t).ok());
        let (before, after): (Option<serde_json::Value>, Option<serde_json::Value>) = (parse(row.before_data), parse(row.after_data));
        AuditView {
            summary: audit_sentence(&row.action, before.as_ref(), after.as_ref()),
            id: row.id,
            at: row.at,
            actor_name: row.actor_name,
            actor_email: row.actor_email,
            action: row.action,
            entity: row.entity,
            entity_id: row.entity_id,
            before,
            after,
        }
    }
}

const AUDIT_PAGE: i64 = 50;

/// `GET /api/admin/audit`: newest first, 50 a page.
pub async fn show_audit(State(state): State<Arc<AppState>>, Query(query): Query<AuditQuery>) -> Result<Response, ApiError> {
    let day_start = |day: NaiveDate| enrol_domain::london::start_of_day(day);
    let filter = AuditFilter {
        actor: query.actor.filter(|s| !s.trim().is_empty()),
        entity: query.entity.filter(|s| !s.trim().is_empty()),
        entity_id: query.entity_id.filter(|s| !s.trim().is_empty()),
        from: query.from.map(day_start),
        to: query.to.and_then(|day| day.succ_opt()).map(day_start),
        before: query.before,
        limit: AUDIT_PAGE + 1,
    };
    let mut rows = state.db.audit_entries(&filter).await?;
    let more = rows.len() as i64 > AUDIT_PAGE;
    rows.truncate(AUDIT_PAGE as usize);
    let next = if more { rows.last().map(|row| row.id) } else { None };
    let entries: Vec<AuditView> = rows.into_iter().map(AuditView::from).collect();
    Ok(Json(AuditPage { entries, next }).into_response())
}

/// A page of the audit log.
#[derive(Serialize, TS)]
#[ts(export)]
struct AuditPage {
    entries: Vec<AuditView>,
    /// The `before` of the next (older) page; none on the last.
    #[ts(type = "number | null")]
    next: Option<i64>,
}
