//! Sessions in the back office (decision 017): list, open, change and
//! cancel dates. Tutors list only the sessions they teach.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{NaiveDate, NaiveTime, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{AdminSession, CancelledBooking, SessionChange, SessionFilter, SessionInput, StaffMember, page_of};
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::page::SessionType;

use super::{Staff, place_in};
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;

/// `GET /api/admin/courses`: every course, for the menus.
pub async fn list_courses(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let courses: Vec<CourseChoice> =
        state.db.course_choices().await?.into_iter().map(|(id, title, online)| CourseChoice { id, title, online }).collect();
    Ok(Json(CourseChoices { courses }).into_response())
}

/// A course as the menus offer it.
#[derive(Serialize, TS)]
#[ts(export)]
struct CourseChoice {
    id: String,
    title: String,
    online: bool,
}

#[derive(Serialize, TS)]
#[ts(export)]
struct CourseChoices {
    courses: Vec<CourseChoice>,
}

/// `GET /api/admin/tutors`: who can teach a session.
pub async fn list_tutors(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let tutors: Vec<Tutor> = state.db.tutors().await?.into_iter().map(|(id, name)| Tutor { id, name }).collect();
    Ok(Json(Tutors { tutors }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct Tutor {
    id: String,
    name: String,
}

#[derive(Serialize, TS)]
#[ts(export)]
struct Tutors {
    tutors: Vec<Tutor>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionQuery {
    course: Option<String>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    /// The place of the previous page's last session ([`enrol_db::ListPlace::token`]).
    after: Option<String>,
}

/// The most sessions one page lists.
const SESSIONS_LISTED: usize = 100;

/// The tutor whose sessions only a role that does not read every roster
/// may see: the staff member themself.
pub(super) fn own_sessions_of(staff: &StaffMember) -> Option<String> {
    (!staff.role.reads_every_roster()).then(|| staff.id.clone())
}

/// `GET /api/admin/sessions`: from today unless a first or last date is
/// given, so a college's years of past dates never come first; a page of
/// [`SESSIONS_LISTED`], the next starting after the place in `next`.
pub async fn list_sessions(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Query(query): Query<SessionQuery>,
) -> Result<Response, ApiError> {
    let after = place_in(query.after.as_deref(), "sessions")?;
    let filter = SessionFilter {
        course_id: query.course.filter(|c| !c.is_empty()),
        from: query.from.or_else(|| query.to.is_none().then(|| london::today(Utc::now()))),
        to: query.to,
        tutor_id: own_sessions_of(&staff),
        active_only: false,
        after,
    };
    let sessions = state.db.admin_sessions(&filter, SESSIONS_LISTED + 1, Utc::now()).await?;
    let (sessions, next) = page_of(sessions, SESSIONS_LISTED, AdminSession::place);
    Ok(Json(AdminSessions { sessions, next: next.map(|place| place.token()) }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct AdminSessions {
    sessions: Vec<AdminSession>,
    /// The `after` of the next page; none on the last.
    next: Option<String>,
}

/// What `POST /sessions` takes; `PUT /sessions/{id}` takes it without `courseId`.
#[derive(Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct SessionForm {
    /// Only when opening a session.
    course_id: Option<String>,
    date: String,
    start_time: String,
    end_time: String,
    #[serde(rename = "type")]
    #[ts(as = "SessionType")]
    session_type: String,
    #[ts(type = "number")]
    price: i64,
    #[ts(type = "number")]
    seats: i64,
    #[serde(default)]
    venue: String,
    joining_link: Option<String>,
    tutor_id: Option<String>,
}

/// The form as a session, or a message per field.
fn check_form(form: SessionForm, today: NaiveDate) -> Result<SessionInput, ApiError> {
    let mut fields = BTreeMap::new();
    let date = NaiveDate::parse_from_str(form.date.trim(), "%Y-%m-%d").ok();
    match date {
        None => _ = fields.insert("date", "Enter the date as YYYY-MM-DD."),
        Some(day) if day < today => _ = fields.insert("date", "Choose today or a later date."),
        Some(_) => {}
    }
    let time = |raw: &str| NaiveTime::parse_from_str(raw.trim(), "%H:%M").ok();
    let (start, end) = (time(&form.start_time), time(&form.end_time));
    if start.is_none() {
        fields.insert("startTime", "Enter the start time as HH:MM.");
    }
    match (start, end) {
        (_, None) => _ = fields.insert("endTime", "Enter the end time as HH:MM."),
        (Some(start), Some(end)) if end <= start => _ = fields.insert("endTime", "The end must be after the start."),
        _ => {}
    }
    let session_type = SessionType::parse(&form.session_type);
    if session_type.is_none() {
        fields.insert("type", "Choose on site, virtual or blended.");
    }
    if !(1..=10_000_000).contains(&form.price) {
        fields.insert("price", "Enter a price above £0.");
    }
    if !(1..=500).contains(&form.seats) {
        fields.insert("seats", "Enter between 1 and 500 seats.");
    }
    let venue = form.venue.trim().to_owned();
    if venue.chars().count() > 200 {
        fields.insert("venue", "Keep the venue under 200 characters.");
    }
    let joining_link = form.joining_link.map(|l| l.trim().to_owned()).filter(|l| !l.is_empty());
    if joining_link.as_deref().is_some_and(|link| !link.starts_with("https://") || link.len() > 500 || link.contains(char::is_whitespace)) {
        fields.insert("joiningLink", "Enter the full https:// address of the meeting.");
    }
    match (date, start, end, session_type) {
        (Some(date), Some(start), Some(end), Some(session_type)) if fields.is_empty() => Ok(SessionInput {
            date,
            start_at: date.and_time(start),
            end_at: date.and_time(end),
            session_type,
            price: form.price,
            seats: form.seats,
            venue,
            joining_link,
            tutor_id: form.tutor_id.filter(|t| !t.is_empty()),
        }),
        _ => Err(ApiError::Invalid(fields)),
    }
}

fn answer(change: SessionChange, created: bool) -> Result<Response, ApiError> {
    match change {
        SessionChange::Done(session) => {
            let status = if created { StatusCode::CREATED } else { StatusCode::OK };
            Ok((status, Json(*session)).into_response())
        }
        SessionChange::NotFound => Err(ApiError::NotFound),
        SessionChange::NotInPerson => Err(ApiError::field("courseId", "This course is online: it has no dates to book.")),
        SessionChange::UnknownTutor => Err(ApiError::field("tutorId", "Choose one of the college's tutors.")),
        SessionChange::SeatsBelowTaken { taken } => {
            Err(ApiError::Conflict(format!("{taken} seats are booked or held: the session needs at least {taken} seats.")))
        }
    }
}

/// `POST /api/admin/sessions`: a new date, on sale at once.
pub async fn open_session(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    JsonBody(form): JsonBody<SessionForm>,
) -> Result<Response, ApiError> {
    let now = Utc::now();
    let Some(course_id) = form.course_id.clone().filter(|c| !c.is_empty()) else {
        return Err(ApiError::field("courseId", "Choose the course."));
    };
    let input = check_form(form, london::today(now))?;
    answer(state.db.open_session(&course_id, &input, &staff.id, now).await?, true)
}

/// `PUT /api/admin/sessions/{id}`.
pub async fn change_session(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(id): Path<String>,
    JsonBody(form): JsonBody<SessionForm>,
) -> Result<Response, ApiError> {
    let now = Utc::now();
    let input = check_form(form, london::today(now))?;
    answer(state.db.update_session(&id, &input, &staff.id, now).await?, false)
}

/// `POST /api/admin/sessions/{id}/cancel`: off sale, and each booked
/// student is offered a move or a full refund.
pub async fn cancel_session(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<Response, ApiError> {
    let now = Utc::now();
    let session = state.db.admin_session(&id, now).await?.ok_or(ApiError::NotFound)?;
    let college = state.db.college().await?.name;
    let account = format!("{}/account/", state.config.public_url);
    let mail_for = |student: &CancelledBooking| Mail {
        to: student.email.clone(),
        reply_to: None,
        subject: format!("Your {} date has been cancelled", session.course_title),
        body: format!(
            "Hello {},\n\nWe are sorry: {college} has had to cancel {} on {}.\n\nYou can choose another date of the course at no \
             cost, or cancel for a full refund of everything you have paid. Both are in your account, under your booking \
             (reference {}):\n{account}\n\nIf you would rather talk it through, reply to this email.\n",
            student.given_name,
            session.course_title,
            london::long_date(session.date),
            student.enrollment_id,
        ),
        attachment: None,
    };
    match state.db.cancel_session(&id, &staff.id, mail_for, now).await? {
        Some(students) => Ok(Json(SessionCancelled { students: students.len() }).into_response()),
        None => Err(ApiError::Unprocessable("This session is already cancelled.".to_owned())),
    }
}

/// A cancelled session: how many booked students were told.
#[derive(Serialize, TS)]
#[ts(export)]
struct SessionCancelled {
    #[ts(type = "number")]
    students: usize,
}
