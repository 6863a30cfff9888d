//! Who studies an online course and staff's changes to their access
//! (decision 027): each course's learners with their progress (and as
//! CSV), a course given to a student by email, a registration's last day
//! moved, access withdrawn with a reason and given back. Each change is
//! one `Db` call that writes its audit row, and answers the registration
//! as it is now.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{AccessChanged, LearnerRecord, RegistrationChange, Registrations};
use enrol_domain::learning::access::{Access, last_day};
use enrol_domain::london;
use enrol_domain::online_access::reason;

use super::{Staff, csv};
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;
use crate::http::student::private;

/// A student's registration for an online course, as staff read it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub(super) struct LearnerView {
    id: String,
    name: String,
    email: String,
    course_id: String,
    course_title: String,
    /// The order that bought it; `None` for a course staff granted.
    order_id: Option<String>,
    order_reference: Option<String>,
    /// Who granted it, for a course given without an order.
    granted_by: Option<String>,
    starts_at: DateTime<Utc>,
    /// The last day of access (London).
    last_day: NaiveDate,
    access: Access,
    revoke_reason: Option<String>,
    /// How much of the course is done, 0 to 100.
    percent: u8,
    last_visited: Option<DateTime<Utc>>,
    complete: bool,
    completed_at: Option<DateTime<Utc>>,
    /// The certificate completing it.
    certificate: Option<String>,
}

impl LearnerView {
    pub(super) fn new(r: LearnerRecord, now: DateTime<Utc>) -> Self {
        LearnerView {
            access: Access::of(r.starts_at, r.ends_at, r.revoked_at, now),
            last_day: last_day(r.ends_at),
            id: r.id,
            name: r.name,
            email: r.email,
            course_id: r.course_id,
            course_title: r.course_title,
            order_id: r.online_order_id,
            order_reference: r.order_reference,
            granted_by: r.granted_by,
            starts_at: r.starts_at,
            revoke_reason: r.revoke_reason,
            percent: r.percent,
            last_visited: r.last_visited,
            complete: r.complete,
            completed_at: r.completed_at,
            certificate: r.certificate,
        }
    }
}

/// An online course and who studies it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct Learners {
    course_id: String,
    course_title: String,
    learners: Vec<LearnerView>,
}

/// The title of online course `id`, or 404.
async fn online_course_title(state: &AppState, id: &str) -> Result<String, ApiError> {
    let courses = state.db.course_choices().await?;
    courses.into_iter().find(|(course, _, online)| course == id && *online).map(|(_, title, _)| title).ok_or(ApiError::NotFound)
}

/// `GET /api/admin/courses/{id}/learners`: newest registration first.
pub async fn show_learners(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let course_title = online_course_title(&state, &id).await?;
    let now = Utc::now();
    let learners = state.db.learner_records(Registrations::OfCourse(&id)).await?.into_iter().map(|r| LearnerView::new(r, now)).collect();
    Ok(private(StatusCode::OK, Learners { course_id: id, course_title, learners }))
}

/// `GET /api/admin/courses/{id}/learners.csv`.
pub async fn download_learners(State(state): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    online_course_title(&state, &id).await?;
    let now = Utc::now();
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_owned();
    let wall_clock = |at: Option<DateTime<Utc>>| at.map(london::wall_clock).unwrap_or_default();
    let rows: Vec<Vec<String>> = state
        .db
        .learner_records(Registrations::OfCourse(&id))
        .await?
        .into_iter()
        .map(|r| {
            let access = match Access::of(r.starts_at, r.ends_at, r.revoked_at, now) {
                Access::Active { .. } => "active",
                Access::Expired { .. } => "expired",
                Access::Revoked => "revoked",
                Access::NotStarted { .. } => "not started",
            };
            vec![
                r.name,
                r.email,
                r.order_reference.or(r.granted_by.map(|by| format!("granted by {by}"))).unwrap_or_default(),
                london::today(r.starts_at).to_string(),
                last_day(r.ends_at).to_string(),
                access.to_owned(),
                r.percent.to_string(),
                wall_clock(r.last_visited),
                yes_no(r.complete),
                r.certificate.unwrap_or_default(),
            ]
        })
        .collect();
    let header = ["Name", "Email", "Order", "Starts", "Last day", "Access", "Progress (%)", "Last visited", "Completed", "Certificate"];
    Ok(csv::download(&format!("learners-{id}.csv"), &header, &rows))
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GrantRequest {
    email: String,
    course_id: String,
    /// The last day of access; `None` for the curriculum's months.
    last_day: Option<NaiveDate>,
}

/// A registration, as each change answers it.
#[derive(Serialize, TS)]
#[ts(export)]
struct RegistrationAnswer {
    registration: LearnerView,
}

/// Answers what a change did: the registration as it is now, or why not.
async fn changed(state: &AppState, outcome: AccessChanged, status: StatusCode) -> Result<Response, ApiError> {
    let id = match outcome {
        AccessChanged::Done { registration_id } => registration_id,
        AccessChanged::Refused(refused) => return Err(ApiError::Unprocessable(refused.to_string())),
        AccessChanged::NoAccount => {
            return Err(ApiError::field("email", "No student account has this email: ask them to create one first."));
        }
        AccessChanged::UnknownCourse => return Err(ApiError::field("courseId", "Choose an online course from the list.")),
        AccessChanged::UnknownRegistration => return Err(ApiError::NotFound),
    };
    let record = state.db.learner_records(Registrations::One(&id)).await?.into_iter().next().ok_or(ApiError::NotFound)?;
    Ok(private(status, RegistrationAnswer { registration: LearnerView::new(record, Utc::now()) }))
}

/// `POST /api/admin/online-registrations`: gives a student with an
/// account an online course, to the day chosen or for its months.
pub async fn grant_course(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    JsonBody(request): JsonBody<GrantRequest>,
) -> Result<Response, ApiError> {
    let outcome = state.db.grant_course(&request.email, &request.course_id, request.last_day, &staff.id, Utc::now()).await?;
    tracing::info!(staff = %staff.id, course = %request.course_id, ?outcome, "Course granted");
    changed(&state, outcome, StatusCode::CREATED).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LastDayRequest {
    last_day: NaiveDate,
}

/// `POST /api/admin/online-registrations/{id}/last-day`: access ends on
/// another day, from today and its start on.
pub async fn change_last_day(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<LastDayRequest>,
) -> Result<Response, ApiError> {
    let outcome = state.db.change_registration(&id, &RegistrationChange::LastDay(request.last_day), &staff.id, Utc::now()).await?;
    changed(&state, outcome, StatusCode::OK).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct RevokeRequest {
    reason: String,
}

/// `POST /api/admin/online-registrations/{id}/revoke`: access ends now.
pub async fn revoke_access(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<RevokeRequest>,
) -> Result<Response, ApiError> {
    let reason =
        reason(&request.reason).map_err(|_| ApiError::field("reason", "Say why (up to 200 characters): the audit log keeps it."))?;
    let outcome = state.db.change_registration(&id, &RegistrationChange::Revoke(reason.to_owned()), &staff.id, Utc::now()).await?;
    changed(&state, outcome, StatusCode::OK).await
}

/// `POST /api/admin/online-registrations/{id}/restore`: a withdrawn
/// registration gives access again, to its last day.
pub async fn restore_access(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<Response, ApiError> {
    let outcome = state.db.change_registration(&id, &RegistrationChange::Restore, &staff.id, Utc::now()).await?;
    changed(&state, outcome, StatusCode::OK).await
}
