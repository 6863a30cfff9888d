//! Rosters in the back office (decision 017): a session's students,
//! printable and as CSV; attendance; certificates for those who came.
//! Tutors see and mark only the sessions they teach.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{
    AdminSession, AttendanceMark, CertificateHolder, CertificateIssue, FeedbackInvite, FeedbackLink, RosterStudent, RosterStudents,
    StaffMember,
};
use enrol_domain::london;

use super::sessions::own_sessions_of;
use super::{Staff, csv};
use crate::AppState;
use crate::accounts::{random_token, token_hash};
use crate::certificates::{certificate_mail, certificate_number};
use crate::http::ApiError;
use crate::http::feedback::feedback_mail;
use crate::http::json_body::JsonBody;

/// The session if `staff` may read its roster: all of them, or a tutor's own.
pub(super) async fn readable_session(state: &AppState, staff: &StaffMember, id: &str) -> Result<AdminSession, ApiError> {
    let session = state.db.admin_session(id, Utc::now()).await?.ok_or(ApiError::NotFound)?;
    match own_sessions_of(staff) {
        Some(tutor) if session.tutor_id.as_deref() != Some(tutor.as_str()) => Err(ApiError::Forbidden),
        _ => Ok(session),
    }
}

/// `GET /api/admin/sessions/{id}/roster`.
pub async fn show_roster(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<Response, ApiError> {
    let session = readable_session(&state, &staff, &id).await?;
    let RosterStudents { students, entry_online_course } = state.db.roster(&id).await?;
    Ok(Json(Roster { session, students, entry_online_course }).into_response())
}

/// A session and the students on its roster.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct Roster {
    session: AdminSession,
    students: Vec<RosterStudent>,
    /// The title of the online course that meets the course's entry
    /// requirements once completed, when its content names one.
    entry_online_course: Option<String>,
}

/// `GET /api/admin/sessions/{id}/roster.csv`.
pub async fn download_roster(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<Response, ApiError> {
    let session = readable_session(&state, &staff, &id).await?;
    let RosterStudents { students, entry_online_course } = state.db.roster(&id).await?;
    let entry_met = |certificate: Option<String>| entry_online_course.as_ref().map(|_| certificate.unwrap_or_default());
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_owned();
    let rows: Vec<Vec<String>> = students
        .into_iter()
        .map(|s| {
            let entry = entry_met(s.entry_met_online);
            let mut row = vec![
                s.name,
                s.email,
                s.phone,
                yes_no(s.forms_complete),
                yes_no(s.balance_paid),
                csv::pounds(s.balance_due),
                s.kit.unwrap_or_default(),
                s.attended.map(yes_no).unwrap_or_default(),
            ];
            row.extend(entry);
            row
        })
        .collect();
    let mut header = vec!["Name", "Email", "Phone", "Forms complete", "Balance paid", "Balance due (£)", "Kit", "Attended"];
    let entry_header = entry_online_course.as_ref().map(|title| format!("{title} certificate"));
    header.extend(entry_header.as_deref());
    Ok(csv::download(&format!("roster-{}-{}.csv", session.date, session.course_id), &header, &rows))
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Attendance {
    attended: bool,
}

/// `PUT /api/admin/sessions/{id}/attendance/{enrollmentId}`: the first
/// mark as come mails the student for feedback (decision 034).
pub async fn mark_attendance(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, enrollment_id)): Path<(String, String)>,
    JsonBody(body): JsonBody<Attendance>,
) -> Result<StatusCode, ApiError> {
    readable_session(&state, &staff, &id).await?;
    let (college, public_url, token) = (state.db.college().await?.name, &state.config.public_url, random_token());
    let mail_for = |invite: &FeedbackInvite| feedback_mail(invite, &token, &college, public_url);
    let feedback = FeedbackLink { token_hash: &token_hash(&token), mail_for: &mail_for };
    match state.db.mark_attendance(&id, &enrollment_id, body.attended, &feedback, &staff.id, Utc::now()).await? {
        AttendanceMark::Marked => Ok(StatusCode::NO_CONTENT),
        AttendanceMark::NotOnRoster => Err(ApiError::NotFound),
        AttendanceMark::TooEarly => Err(ApiError::Unprocessable("Attendance is marked from the session's day on.".to_owned())),
    }
}

/// `POST /api/admin/sessions/{id}/certificates/{enrollmentId}`: the
/// certificate of a student who came and has paid in full, once.
pub async fn issue_certificate(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, enrollment_id)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let now = Utc::now();
    let college = state.db.college().await?.name;
    let number = certificate_number(&college, london::today(now));
    let public_url = &state.config.public_url;
    let mail_for = |holder: &CertificateHolder| certificate_mail(holder, &college, public_url);
    match state.db.issue_certificate(&id, &enrollment_id, &number, mail_for, &staff.id, now).await? {
        CertificateIssue::Issued { number } => Ok((StatusCode::CREATED, Json(IssuedCertificate { number })).into_response()),
        CertificateIssue::AlreadyIssued { number } => {
            Err(ApiError::Conflict(format!("A certificate ({number}) was already issued for this session.")))
        }
        CertificateIssue::NotOnRoster => Err(ApiError::NotFound),
        CertificateIssue::NotAttended => Err(ApiError::Unprocessable("Mark the student as attended first.".to_owned())),
        CertificateIssue::NotPaid => Err(ApiError::Unprocessable("The student still owes part of the balance.".to_owned())),
        CertificateIssue::NotReady => Err(ApiError::Unprocessable(
            "A form, a document or the entry requirement is still outstanding: see “Before training”.".to_owned(),
        )),
        CertificateIssue::NoAccount => {
            Err(ApiError::Unprocessable("The booking has no account to hold the certificate: ask the student to sign up.".to_owned()))
        }
    }
}

/// The number of a certificate just issued.
#[derive(Serialize, TS)]
#[ts(export)]
struct IssuedCertificate {
    number: String,
}
