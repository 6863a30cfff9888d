//! The enrol checkout's calls (§7, decision 006): the basket as the
//! catalogue sells it now, discount codes, the order with its seat holds,
//! and the payment intent that pays it. Every amount is the server's own.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDate, Utc};

use enrol_db::{Catalogue, DiscountCode, EnrollmentRecord, IdempotencyClaim, NewEnrollment, StoredResponse};
use enrol_domain::booking::BookingRefused;
use enrol_domain::checkout::{
    BasketRequest, BasketResponse, CheckoutLine, ChosenCourse, CodeRequest, CodeResponse, EnrollData, EnrollRequest, EnrollResponse,
    EnrollUpdateRequest, IntentRequest, IntentResponse, IntentUpdateRequest, ORDER_ID_KEY,
};
use enrol_domain::enrollment::{BOOKING_FEE, BookedCourse, LinePrice, PaymentMode, Quote, payment_methods};
use enrol_domain::london;
use enrol_domain::page::{CoursePage, EnrollmentStatus, Session};
use enrol_payments::{GatewayError, IntentUpdate};

use crate::AppState;
use crate::accounts::token_hash;
use crate::buyer::{ClientIp, Viewer, buyer};
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::{JsonBody, parse_json};

/// The most courses one enrolment may hold.
mod basket;
mod intents;
mod orders;

pub(super) use basket::{__path_check_code, __path_show_basket, check_code, show_basket};
pub(super) use intents::{__path_create_intent, __path_update_intent, create_intent, update_intent};
pub(super) use orders::{__path_create_enrollment, __path_update_enrollment, create_enrollment, update_enrollment};

const MAX_COURSES: usize = 20;
const MAX_METADATA: usize = 50;

/// `Tuesday 15 December`, for messages about a session.
fn day_label(date: NaiveDate) -> String {
    date.format("%A %-d %B").to_string()
}

fn full_message(title: &str, session: Option<&Session>) -> String {
    match session {
        Some(session) => format!("{title} on {} is fully booked. Please choose another date.", day_label(session.date)),
        None => format!("The date you chose for {title} is no longer available. Please choose another date."),
    }
}

/// The course's sessions that still have a seat once unpaid holds count,
/// except those of `own_order` (its seats are still its own to keep).
async fn open_sessions(
    state: &AppState,
    catalogue: &Catalogue,
    course: &CoursePage,
    own_order: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Vec<Session>, ApiError> {
    let taken = state.db.seats_taken(&course.id, own_order, now).await?;
    Ok(catalogue
        .dated_sessions(&course.id)
        .iter()
        .filter_map(|session| {
            let now_taken = taken.get(&session.id)?;
            let session = Session { registrations: now_taken.registrations, held: now_taken.held, ..session.clone() };
            (session.free_seats() > 0).then_some(session)
        })
        .collect())
}

/// The pending order `id` if the caller made it; `None` for anything else,
/// so a stranger learns nothing from an id.
async fn own_order(state: &AppState, viewer: &Viewer, id: Option<&str>) -> Result<Option<EnrollmentRecord>, ApiError> {
    let Some(id) = id.filter(|id| !id.is_empty() && id.len() <= 64) else { return Ok(None) };
    Ok(state.db.enrollment(id).await?.filter(|order| viewer.owns(order.owner_token_hash.as_deref(), order.user_id.as_deref())))
}

fn in_person(catalogue: &Catalogue, chosen: &ChosenCourse) -> Result<Option<CoursePage>, ApiError> {
    Ok(catalogue.course_by_id(&chosen.course_id)?.filter(|course| !course.online))
}

fn kit_pounds(course: &CoursePage, include_kit: bool) -> Option<i64> {
    course.kit.as_ref().and_then(|kit| kit.price_pounds).filter(|_| include_kit)
}

/// Prices `chosen` from the catalogue, refusing anything it does not sell
/// now: unknown or online courses, dates without a free seat (the seats
/// `own_order` holds are its own), a course twice, a course that has dates
/// booked without one.
async fn book(
    state: &AppState,
    chosen: &[ChosenCourse],
    own_order: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Vec<BookedCourse>, ApiError> {
    if chosen.is_empty() {
        return Err(ApiError::Unprocessable("Please select a course to enroll onto.".to_owned()));
    }
    if chosen.len() > MAX_COURSES {
        return Err(ApiError::Unprocessable(format!("A booking can hold at most {MAX_COURSES} courses.")));
    }
    let catalogue = state.catalogue.for_booking(&state.db, now).await?;
    let mut booked: Vec<BookedCourse> = Vec::with_capacity(chosen.len());
    for choice in chosen {
        let course = in_person(&catalogue, choice)?.ok_or_else(|| {
            ApiError::Unprocessable("A course in your basket is no longer available. Please remove it and try again.".to_owned())
        })?;
        if booked.iter().any(|b| b.course_id == course.id) {
            return Err(ApiError::Unprocessable(format!("{} is in your basket twice. Please remove one.", course.title)));
        }
        let session = match &choice.session_id {
            Some(id) => {
                let open = open_sessions(state, &catalogue, &course, own_order, now).await?;
                let session = open.into_iter().find(|s| &s.id == id);
                Some(session.ok_or_else(|| {
                    ApiError::Conflict(full_message(&course.title, catalogue.dated_sessions(&course.id).iter().find(|s| &s.id == id)))
                })?)
            }
            None if course.is_package || !catalogue.has_dates(&course.id) => None,
            None if open_sessions(state, &catalogue, &course, own_order, now).await?.is_empty() => {
                return Err(ApiError::Conflict(full_message(&course.title, None)));
            }
            None => return Err(ApiError::Unprocessable(format!("Please choose a date for {}.", course.title))),
        };
        let kit_pounds = kit_pounds(&course, choice.include_kit);
        booked.push(BookedCourse {
            event_id: course.id.clone(),
            session_id: session.as_ref().map(|s| s.id.clone()),
            date: session.as_ref().map(|s| s.date),
            session_type: session.as_ref().map(|s| s.session_type),
            kit_name: kit_pounds.and(course.kit.as_ref().map(|kit| kit.name.clone())),
            kit_pounds,
            price: session.map_or(course.pricing.unit_amount, |s| s.price),
            course_id: course.id,
            title: course.title,
            url: course.url,
        });
    }
    Ok(booked)
}

/// The user whose payment account id the browser sent (§6), if any.
async fn payment_account(state: &AppState, account: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(account) = account.filter(|a| !a.is_empty()) else { return Ok(None) };
    match state.db.user_by_payment_account(account).await? {
        Some(user_id) => Ok(Some(user_id)),
        None => Err(ApiError::Unprocessable("Your payment account was not recognised. Please sign in again.".to_owned())),
    }
}

pub(super) fn gateway_error(error: GatewayError) -> ApiError {
    match error {
        GatewayError::Refused(message) => ApiError::Unprocessable(message),
        GatewayError::Unavailable(_) => ApiError::Internal(anyhow::Error::new(error).context("The payment provider failed")),
    }
}

/// An answer that sets the browser's buyer cookie when it is new.
pub(super) fn with_cookie(response: impl IntoResponse, set_cookie: Option<HeaderValue>) -> Response {
    let mut response = response.into_response();
    if let Some(cookie) = set_cookie {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
}

/// What a refused booking tells the visitor.
fn refused(courses: &[BookedCourse], refusal: &BookingRefused) -> ApiError {
    match refusal {
        BookingRefused::SessionFull { session_id } => {
            let course = courses.iter().find(|c| c.session_id.as_deref() == Some(session_id.as_str()));
            let title = course.map_or("A course", |c| c.title.as_str());
            ApiError::Conflict(match course.and_then(|c| c.date) {
                Some(day) => format!("{title} on {} has just been fully booked. Please choose another date.", day.format("%A %-d %B")),
                None => full_message(title, None),
            })
        }
        BookingRefused::CodeUsedUp { code } => {
            ApiError::Conflict(format!("The discount code {code} has just been used up. Please remove it and try again."))
        }
        BookingRefused::TooManyHolds => ApiError::TooManyRequests(
            "You already have several bookings waiting for payment. Please pay for one, or wait 20 minutes for them to be released, and try again."
                .to_owned(),
        ),
        BookingRefused::HoldEnded => {
            ApiError::Conflict("We held your seats for as long as we can. Please check your booking and try again.".to_owned())
        }
    }
}

/// The request's `Idempotency-Key`, if it sent a usable one.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    match headers.get("idempotency-key").map(|v| v.to_str().map(str::trim)) {
        None => Ok(None),
        Some(Ok(key)) if !key.is_empty() && key.len() <= 100 && key.chars().all(|c| c.is_ascii_graphic()) => Ok(Some(key.to_owned())),
        Some(_) => Err(ApiError::BadRequest("Idempotency-Key must be 1 to 100 visible characters.".to_owned())),
    }
}
