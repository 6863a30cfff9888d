//! The enrol checkout's calls (decision 006): the basket as the
//! catalogue sells it now, discount codes, the order with its seat holds,
//! and the payment intent that pays it. Every amount is the server's own.

use std::collections::BTreeSet;

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDate, Utc};

use enrol_db::{Catalogue, EnrollmentRecord};
use enrol_domain::admission::{CatalogueView, MAX_COURSES, OfferedCourse, Refusal};
use enrol_domain::booking::BookingRefused;
use enrol_domain::enrollment::BookedCourse;
use enrol_payments::GatewayError;

use crate::AppState;
use crate::buyer::Viewer;
use crate::http::{ApiError, limits};

mod basket;
mod intents;
mod orders;

pub(super) use basket::{__path_check_code, __path_show_basket, check_code, show_basket};
pub(super) use intents::{__path_create_intent, __path_update_intent, create_intent, update_intent};
pub(super) use orders::{__path_create_enrollment, __path_update_enrollment, create_enrollment, update_enrollment};

/// `Tuesday 15 December`, for messages about a session.
fn day_label(date: NaiveDate) -> String {
    date.format("%A %-d %B").to_string()
}

fn full_message(title: &str, date: Option<NaiveDate>) -> String {
    match date {
        Some(date) => format!("{title} on {} is fully booked. Please choose another date.", day_label(date)),
        None => format!("The date you chose for {title} is no longer available. Please choose another date."),
    }
}

/// The catalogue as booking reads it for the courses `course_ids`: each
/// with its dates and the seats taken of them now, except those
/// `own_order` holds (its seats are still its own to keep).
async fn booking_view(
    state: &AppState,
    catalogue: &Catalogue,
    course_ids: impl IntoIterator<Item = &str>,
    own_order: Option<&str>,
    now: DateTime<Utc>,
) -> Result<CatalogueView, ApiError> {
    let mut offered = Vec::new();
    for id in course_ids.into_iter().collect::<BTreeSet<_>>() {
        let Some(course) = catalogue.course_by_id(id)? else { continue };
        let dated = catalogue.dated_sessions(id).to_vec();
        // The seats of the dates the catalogue offers, from its first.
        let taken = match dated.iter().map(|session| session.date).min() {
            Some(from) => state.db.seats_taken(id, from, own_order, now).await?,
            None => Default::default(),
        };
        offered.push(OfferedCourse { course, dated, taken });
    }
    Ok(CatalogueView::new(offered))
}

/// The pending order `id` if the caller made it; `None` for anything else,
/// so a stranger learns nothing from an id.
async fn own_order(state: &AppState, viewer: &Viewer, id: Option<&str>) -> Result<Option<EnrollmentRecord>, ApiError> {
    let Some(id) = id.filter(|id| !id.is_empty() && id.len() <= 64) else { return Ok(None) };
    Ok(state.db.enrollment(id).await?.filter(|order| viewer.owns(order.owner_token_hash.as_deref(), order.user_id.as_deref())))
}

/// What an order that is not admitted tells the visitor.
fn not_admitted(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::MethodNotForMode => ApiError::BadRequest("Card payments pay the booking fee; Klarna and Clearpay pay in full.".to_owned()),
        Refusal::Contact(fields) | Refusal::Agreement(fields) => ApiError::Invalid(fields),
        Refusal::TooMuchMetadata => ApiError::BadRequest("Too much metadata.".to_owned()),
        Refusal::NoCourses => ApiError::Unprocessable("Please select a course to enroll onto.".to_owned()),
        Refusal::TooManyCourses => ApiError::Unprocessable(format!("A booking can hold at most {MAX_COURSES} courses.")),
        Refusal::NotSold => {
            ApiError::Unprocessable("A course in your basket is no longer available. Please remove it and try again.".to_owned())
        }
        Refusal::Twice { title } => ApiError::Unprocessable(format!("{title} is in your basket twice. Please remove one.")),
        Refusal::Full { title, date } => ApiError::Conflict(full_message(&title, date)),
        Refusal::DateNeeded { title } => ApiError::Unprocessable(format!("Please choose a date for {title}.")),
        Refusal::CodeUnusable { code } => {
            ApiError::Unprocessable(format!("The discount code {code} can no longer be used. Please remove it and try again."))
        }
        Refusal::CodeMisses { code } => ApiError::Unprocessable(format!(
            "The discount code {code} does not apply to the courses in your basket. Please remove it and try again."
        )),
        Refusal::PriceChanged { sent_total, sent_deposit, quote } => {
            tracing::warn!(
                sent_total = sent_total.pence(),
                total = quote.total.pence(),
                sent_deposit = sent_deposit.pence(),
                deposit = quote.deposit.pence(),
                "Order amounts refused"
            );
            ApiError::Unprocessable(format!(
                "The price of your booking has changed: the total is now {}. Please check your booking and try again.",
                quote.total
            ))
        }
        Refusal::NothingToPay => {
            ApiError::Unprocessable("There is nothing to pay for this booking. Please contact us to complete it.".to_owned())
        }
    }
}

/// The user whose payment account id the browser sent, if any.
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
                Some(day) => format!("{title} on {} has just been fully booked. Please choose another date.", day_label(day)),
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
        BookingRefused::TooManyRequests => ApiError::TooManyRequests(limits::SLOW_DOWN.to_owned()),
        BookingRefused::HoldEnded => {
            ApiError::Conflict("We held your seats for as long as we can. Please check your booking and try again.".to_owned())
        }
    }
}
