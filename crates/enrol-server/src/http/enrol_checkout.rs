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

/// `POST /api/checkout/basket`: the visitor's selection as it can be booked now.
#[utoipa::path(
    post,
    path = "/api/checkout/basket",
    tag = "checkout",
    request_body(content = BasketRequest, example = json!({
        "courses": [{ "courseId": "foundation-dermal-fillers", "sessionId": "foundation-dermal-fillers-1", "includeKit": true }]
    })),
    responses(
        (status = 200, description = "Each course as it can be booked now, and those no longer sold in person", body = BasketResponse),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, description = "More courses than one booking may hold", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn show_basket(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<BasketRequest>,
) -> Result<Json<BasketResponse>, ApiError> {
    if request.courses.len() > MAX_COURSES {
        return Err(ApiError::Unprocessable(format!("A booking can hold at most {MAX_COURSES} courses.")));
    }
    let now = Utc::now();
    let viewer = Viewer::of(&state, &headers).await?;
    let own = own_order(&state, &viewer, request.order_id.as_deref()).await?.filter(|o| o.status == EnrollmentStatus::Pending);
    let own = own.as_ref().map(|o| o.id.as_str());
    let catalogue = state.catalogue.for_booking(&state.db, now).await?;
    let mut response = BasketResponse { lines: Vec::new(), removed: Vec::new() };
    for chosen in &request.courses {
        let Some(course) = in_person(&catalogue, chosen)? else {
            response.removed.push(chosen.course_id.clone());
            continue;
        };
        let sessions = open_sessions(&state, &catalogue, &course, own, now).await?;
        let still_open = chosen.session_id.as_ref().filter(|id| sessions.iter().any(|s| &s.id == *id));
        let session_id = still_open.cloned().or_else(|| sessions.first().map(|s| s.id.clone()));
        let notice = match (&chosen.session_id, still_open) {
            (Some(_), None) if session_id.is_some() => {
                Some(format!("The date you chose for {} is fully booked, so we picked the next one.", course.title))
            }
            (_, None) if session_id.is_none() && catalogue.has_dates(&course.id) => Some(full_message(&course.title, None)),
            _ => None,
        };
        let price =
            session_id.as_ref().and_then(|id| sessions.iter().find(|s| &s.id == id)).map_or(course.pricing.unit_amount, |s| s.price);
        response.lines.push(CheckoutLine {
            include_kit: kit_pounds(&course, chosen.include_kit).is_some(),
            course_id: course.id,
            title: course.title,
            url: course.url,
            image: course.images.into_iter().next().unwrap_or_default(),
            price,
            was_price: course.was_price,
            is_package: course.is_package,
            kit: course.kit,
            sessions,
            session_id,
            notice,
        });
    }
    Ok(Json(response))
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

/// `POST /api/code` (§3 Discount): `valid` false for a code that is
/// unknown, expired or used up.
#[utoipa::path(
    post,
    path = "/api/code",
    tag = "checkout",
    request_body(content = CodeRequest, example = json!({ "code": "WELCOME10" })),
    responses(
        (status = 200, description = "The code's discount, or `valid: false`", body = CodeResponse),
        (status = 400, description = "Not JSON of this shape, or an empty code", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn check_code(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<CodeRequest>,
) -> Result<Json<CodeResponse>, ApiError> {
    let code = request.code.trim();
    if code.is_empty() {
        return Err(ApiError::BadRequest("Discount code required".to_owned()));
    }
    let invalid = CodeResponse { valid: false, code: None, value: None, kind: None, id: None };
    if code.len() > 64 {
        return Ok(Json(invalid));
    }
    let found = state.db.discount_code(code, london::today(Utc::now())).await?;
    Ok(Json(match found.filter(|c| c.is_usable()) {
        Some(found) => CodeResponse {
            valid: true,
            id: Some(found.code.clone()),
            code: Some(found.code),
            value: Some(found.discount.value),
            kind: Some(found.discount.kind),
        },
        None => invalid,
    }))
}

/// The user whose payment account id the browser sent (§6), if any.
async fn payment_account(state: &AppState, account: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(account) = account.filter(|a| !a.is_empty()) else { return Ok(None) };
    match state.db.user_by_payment_account(account).await? {
        Some(user_id) => Ok(Some(user_id)),
        None => Err(ApiError::Unprocessable("Your payment account was not recognised. Please sign in again.".to_owned())),
    }
}

fn gateway_error(error: GatewayError) -> ApiError {
    match error {
        GatewayError::Refused(message) => ApiError::Unprocessable(message),
        GatewayError::Unavailable(_) => ApiError::Internal(anyhow::Error::new(error).context("The payment provider failed")),
    }
}

/// An answer that sets the browser's buyer cookie when it is new.
fn with_cookie(response: impl IntoResponse, set_cookie: Option<HeaderValue>) -> Response {
    let mut response = response.into_response();
    if let Some(cookie) = set_cookie {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    response
}

/// `POST /api/checkout/`: the booking-fee intent the page prepares on load,
/// bound to the browser that asked for it.
#[utoipa::path(
    post,
    path = "/api/checkout/",
    tag = "checkout",
    request_body(content = IntentRequest, example = json!({ "amount": 10000, "email": "amelia@example.org" })),
    responses(
        (status = 200, description = "The payment intent, bound to this browser", body = IntentResponse,
            headers(("set-cookie" = String, description = "The browser's `enrol_buyer` cookie, when it has none yet"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 422, body = ErrorEnvelope,
            description = "An amount other than the booking fee, an unknown payment account, or refused by the payment provider"),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create_intent(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<IntentRequest>,
) -> Result<Response, ApiError> {
    if request.amount != BOOKING_FEE {
        return Err(ApiError::Unprocessable(format!("The first payment prepared is always the booking fee of {BOOKING_FEE}.")));
    }
    payment_account(&state, request.customer_id.as_deref()).await?;
    let (owner, set_cookie) = buyer(&state, &headers);
    let intent = state
        .payments
        .create_payment_intent(&enrol_payments::IntentRequest {
            idempotency_key: uuid::Uuid::new_v4().to_string(),
            amount: request.amount,
            customer: request.customer_id.filter(|c| !c.is_empty()),
            receipt_email: request.email.filter(|e| !e.is_empty()),
            payment_method_types: payment_methods(PaymentMode::Full, BOOKING_FEE).into_iter().map(|m| m.as_str().to_owned()).collect(),
            metadata: BTreeMap::new(),
        })
        .await
        .map_err(gateway_error)?;
    state.db.record_checkout_intent(&intent.id, &owner, Utc::now()).await?;
    Ok(with_cookie(Json(IntentResponse { client_secret: intent.client_secret, id: intent.id }), set_cookie))
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

/// `PUT /api/checkout/`: the intent takes the order's amount for its mode.
/// Only the browser that prepared the intent, for an order it made or its
/// owner's, may; an order has one live intent, and a new one replaces an
/// unpaid one only after the provider has cancelled it.
#[utoipa::path(
    put,
    path = "/api/checkout/",
    tag = "checkout",
    request_body = IntentUpdateRequest,
    responses(
        (status = 200, description = "The intent, now for the order's amount", body = IntentResponse),
        (status = 400, description = "Not JSON of this shape, or an unknown `metadata.type`", body = ErrorEnvelope),
        (status = 404, description = "No such intent or order made by this browser or its signed-in owner", body = ErrorEnvelope),
        (status = 409, description = "A payment already under way, or a seat or code use no longer held", body = ErrorEnvelope),
        (status = 422, body = ErrorEnvelope,
            description = "An order already paid or failed, an amount other than the one due, an unknown payment account"),
        (status = 429, description = "Too many requests from this address, or too many unpaid bookings held", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn update_intent(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<IntentUpdateRequest>,
) -> Result<Json<IntentResponse>, ApiError> {
    let viewer = Viewer::of(&state, &headers).await?;
    let intent_owner = state.db.checkout_intent_owner(&request.intent).await?;
    if intent_owner.is_none() || intent_owner != viewer.buyer_hash {
        return Err(ApiError::NotFound);
    }
    let order_id = &request.metadata.order_id;
    let order = own_order(&state, &viewer, Some(order_id)).await?.ok_or(ApiError::NotFound)?;
    match order.status {
        EnrollmentStatus::Pending => {}
        EnrollmentStatus::Deposit | EnrollmentStatus::Completed => {
            return Err(ApiError::Unprocessable("This booking has already been paid.".to_owned()));
        }
        EnrollmentStatus::Failed => {
            return Err(ApiError::Unprocessable("This booking can no longer be paid. Please try again.".to_owned()));
        }
    }
    let mode = PaymentMode::from_metadata_type(&request.metadata.kind)
        .ok_or_else(|| ApiError::BadRequest("metadata.type must be full-amount or booking-fee".to_owned()))?;
    let due = order.quote.amount_due(order.mode);
    if mode != order.mode || request.amount != due {
        tracing::warn!(%order_id, sent = request.amount.pence(), due = due.pence(), "Intent amount refused");
        return Err(ApiError::Unprocessable(format!(
            "The amount to pay for your booking is {due}. Please check your booking and try again."
        )));
    }
    payment_account(&state, request.customer_id.as_deref()).await?;
    let replacing = order.payment_intent_id.as_deref().filter(|previous| *previous != request.intent);
    if let Some(previous) = replacing {
        state.payments.cancel_payment_intent(previous).await.map_err(|error| match error {
            GatewayError::Refused(_) => {
                ApiError::Conflict("A payment for this booking is already under way. Please wait for it to finish.".to_owned())
            }
            unavailable @ GatewayError::Unavailable(_) => gateway_error(unavailable),
        })?;
        tracing::info!(%order_id, %previous, intent = %request.intent, "An unpaid intent was replaced");
    }
    match state.db.attach_payment_intent(order_id, &request.intent, replacing, Utc::now()).await? {
        None => {
            return Err(ApiError::Conflict("A payment for this booking is already under way. Please wait for it to finish.".to_owned()));
        }
        Some(Err(refusal)) => return Err(refused(&order.courses, &refusal)),
        Some(Ok(())) => {}
    }
    let m = &request.metadata;
    let metadata = BTreeMap::from([
        (ORDER_ID_KEY.to_owned(), m.order_id.clone()),
        ("name".to_owned(), m.name.clone()),
        ("surname".to_owned(), m.surname.clone()),
        ("phone".to_owned(), m.phone.clone()),
        ("email".to_owned(), m.email.clone()),
        ("type".to_owned(), mode.metadata_type().to_owned()),
    ]);
    let update = IntentUpdate {
        amount: due,
        payment_method_types: payment_methods(mode, order.quote.total).into_iter().map(|m| m.as_str().to_owned()).collect(),
        metadata,
    };
    let intent = state.payments.update_payment_intent(&request.intent, &update).await.map_err(gateway_error)?;
    tracing::info!(%order_id, intent = %intent.id, amount = due.pence(), mode = mode.metadata_type(), "Payment prepared");
    Ok(Json(IntentResponse { client_secret: intent.client_secret, id: intent.id }))
}

/// Who is placing an order: the caller, their browser's buyer token hash
/// and their address.
struct Orderer<'a> {
    viewer: &'a Viewer,
    owner_hash: String,
    client_key: String,
}

/// Checks an order as the browser sent it against the server's own
/// pricing, and builds what is stored. `replacing` is the caller's own
/// pending order being changed: its held seats and code use are its own.
async fn priced_order(
    state: &AppState,
    id: String,
    data: EnrollData,
    orderer: &Orderer<'_>,
    replacing: Option<&EnrollmentRecord>,
    now: DateTime<Utc>,
) -> Result<NewEnrollment, ApiError> {
    if data.selected.mode() != data.mode {
        return Err(ApiError::BadRequest("Card payments pay the booking fee; Klarna and Clearpay pay in full.".to_owned()));
    }
    let mode = data.mode;
    let contact = data.contact.parse(data.selected).map_err(ApiError::Invalid)?;
    if data.metadata.len() > MAX_METADATA || data.metadata.iter().any(|(k, v)| k.len() > 100 || v.len() > 500) {
        return Err(ApiError::BadRequest("Too much metadata.".to_owned()));
    }
    let courses = book(state, &data.enrollment.metadata, replacing.map(|o| o.id.as_str()), now).await?;
    let discount = match data.discount.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(code) => {
            let holds_a_use = |found: &DiscountCode| {
                replacing.is_some_and(|o| o.code_reserved && o.discount_code.as_deref() == Some(found.code.as_str()))
            };
            let found = state.db.discount_code(code, london::today(now)).await?.filter(|c| c.is_usable_holding(holds_a_use(c)));
            Some(found.ok_or_else(|| {
                ApiError::Unprocessable(format!("The discount code {code} can no longer be used. Please remove it and try again."))
            })?)
        }
        None => None,
    };
    let prices: Vec<LinePrice> = courses.iter().map(BookedCourse::line_price).collect();
    let quote = Quote::new(&prices, discount.as_ref().map(|d| d.discount));
    let sent = &data.enrollment;
    if (sent.total, sent.deposit, sent.balance, sent.deposit_required)
        != (quote.total, quote.deposit, quote.balance, mode == PaymentMode::Fee)
    {
        tracing::warn!(
            sent_total = sent.total.pence(),
            total = quote.total.pence(),
            sent_deposit = sent.deposit.pence(),
            deposit = quote.deposit.pence(),
            "Order amounts refused"
        );
        return Err(ApiError::Unprocessable(format!(
            "The price of your booking has changed: the total is now {}. Please check your booking and try again.",
            quote.total
        )));
    }
    if quote.amount_due(mode).pence() <= 0 {
        return Err(ApiError::Unprocessable("There is nothing to pay for this booking. Please contact us to complete it.".to_owned()));
    }
    // The order belongs to the signed-in user, else to the payment account sent.
    let user_id = match &orderer.viewer.user_id {
        Some(user_id) => Some(user_id.clone()),
        None => payment_account(state, sent.acct.as_deref()).await?,
    };
    Ok(NewEnrollment {
        id,
        mode,
        quote,
        discount_code: discount.map(|d| d.code),
        courses,
        metadata: data.metadata,
        given_name: contact.given_name().to_owned(),
        family_name: contact.family_name().to_owned(),
        email: contact.email().to_owned(),
        contact_number: contact.phone().to_owned(),
        payment_method: data.selected,
        user_id,
        owner_token_hash: orderer.owner_hash.clone(),
        client_key: orderer.client_key.clone(),
    })
}

/// The request's `Idempotency-Key`, if it sent a usable one.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    match headers.get("idempotency-key").map(|v| v.to_str().map(str::trim)) {
        None => Ok(None),
        Some(Ok(key)) if !key.is_empty() && key.len() <= 100 && key.chars().all(|c| c.is_ascii_graphic()) => Ok(Some(key.to_owned())),
        Some(_) => Err(ApiError::BadRequest("Idempotency-Key must be 1 to 100 visible characters.".to_owned())),
    }
}

/// `POST /api/enroll/`: the order, with its seats and code use held for 20
/// minutes, bound to the browser that made it. With an `Idempotency-Key`,
/// the same request sent again (a double click, a retry after a timeout)
/// gets the first answer and makes no second order.
#[utoipa::path(
    post,
    path = "/api/enroll/",
    tag = "checkout",
    params(("Idempotency-Key" = Option<String>, Header, nullable = false, min_length = 1, max_length = 100, pattern = "^[!-~]+$",
        description = "Sent again with the same body, the first answer is replayed and no second order is made")),
    request_body(content = EnrollRequest, example = json!({ "data": {
        "contact": { "name": "Amelia", "surname": "Hart", "email": "amelia@example.org", "phone": "07700 900123" },
        "selected": "card",
        "mode": "fee",
        "enrollment": {
            "total": 134_500, "deposit": 10_000, "balance": 124_500, "deposit_required": true,
            "metadata": [{ "courseId": "foundation-dermal-fillers", "sessionId": "foundation-dermal-fillers-1", "includeKit": true }],
            "method": "stripe", "status": "pending", "type": "student"
        }
    }})),
    responses(
        (status = 200, description = "The order, priced by the server, with its seats and code use held for 20 minutes", body = EnrollResponse,
            headers(("set-cookie" = String, description = "The browser's `enrol_buyer` cookie, when it has none yet"))),
        (status = 400, body = ErrorEnvelope,
            description = "Not JSON of this shape, a payment method that does not fit the mode, too much metadata, or a malformed `Idempotency-Key`"),
        (status = 409, body = ErrorEnvelope,
            description = "A date just fully booked, a code just used up, or the same `Idempotency-Key` still being placed"),
        (status = 422, body = ErrorEnvelope,
            description = "Contact details to correct (`invalid`), a course not sold or needing a date, amounts not the server's, a reused `Idempotency-Key`"),
        (status = 429, description = "Too many requests from this address, or too many unpaid bookings held", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create_enrollment(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    let now = Utc::now();
    let (owner_hash, set_cookie) = buyer(&state, &headers);
    let key = idempotency_key(&headers)?;
    if let Some(key) = &key {
        match state.db.claim_idempotency_key(&owner_hash, key, &token_hash(&String::from_utf8_lossy(&body)), now).await? {
            IdempotencyClaim::Claimed => {}
            IdempotencyClaim::Replay(first) => {
                let status = StatusCode::from_u16(first.status).unwrap_or(StatusCode::OK);
                let replay = (status, [(header::CONTENT_TYPE, "application/json")], first.body);
                return Ok(with_cookie(replay, set_cookie));
            }
            IdempotencyClaim::InProgress => {
                return Err(ApiError::Conflict("Your booking is still being placed. Please wait a moment.".to_owned()));
            }
            IdempotencyClaim::Mismatch => {
                return Err(ApiError::Unprocessable("This Idempotency-Key was already used for another booking.".to_owned()));
            }
        }
    }
    let viewer = Viewer::of(&state, &headers).await?;
    let orderer = Orderer { viewer: &viewer, owner_hash: owner_hash.clone(), client_key: ip.to_string() };
    let placed = place_order(&state, &body, &orderer, now).await;
    if let Some(key) = &key {
        match &placed {
            Ok(created) => {
                let stored = StoredResponse { status: 200, body: serde_json::to_string(created).map_err(anyhow::Error::new)? };
                state.db.store_idempotent_response(&owner_hash, key, &stored).await?;
            }
            // A refusal may not hold next time (a seat freed, a hold ran out).
            Err(_) => state.db.release_idempotency_key(&owner_hash, key).await?,
        }
    }
    Ok(with_cookie(Json(placed?), set_cookie))
}

async fn place_order(state: &AppState, body: &[u8], orderer: &Orderer<'_>, now: DateTime<Utc>) -> Result<EnrollResponse, ApiError> {
    let request: EnrollRequest = parse_json(body)?;
    let order = priced_order(state, enrol_db::public_id(), request.data, orderer, None, now).await?;
    if let Err(refusal) = state.db.create_enrollment(&order, state.config.limits.live_orders, now).await? {
        tracing::info!(%refusal, client = %orderer.client_key, "Enrollment refused");
        return Err(refused(&order.courses, &refusal));
    }
    tracing::info!(order = %order.id, total = order.quote.total.pence(), "Enrollment created");
    Ok(EnrollResponse { id: order.id, quote: order.quote })
}

/// `PUT /api/enroll/`: a pending order takes the visitor's new choices;
/// only the browser that made it, or its signed-in owner, may change it.
#[utoipa::path(
    put,
    path = "/api/enroll/",
    tag = "checkout",
    request_body = EnrollUpdateRequest,
    responses(
        (status = 200, description = "The order as changed, priced by the server", body = EnrollResponse),
        (status = 400, body = ErrorEnvelope,
            description = "Not JSON of this shape, a payment method that does not fit the mode, or too much metadata"),
        (status = 404, description = "No such order made by this browser or its signed-in owner", body = ErrorEnvelope),
        (status = 409, description = "A date just fully booked, a code just used up, or seats held for as long as they can be", body = ErrorEnvelope),
        (status = 422, body = ErrorEnvelope,
            description = "Contact details to correct (`invalid`), an order no longer pending, a course not sold, amounts not the server's"),
        (status = 429, description = "Too many requests from this address, or too many unpaid bookings held", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn update_enrollment(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<EnrollUpdateRequest>,
) -> Result<Json<EnrollResponse>, ApiError> {
    let now = Utc::now();
    let viewer = Viewer::of(&state, &headers).await?;
    let current = own_order(&state, &viewer, Some(&request.id)).await?.ok_or(ApiError::NotFound)?;
    if current.status != EnrollmentStatus::Pending {
        return Err(ApiError::Unprocessable("This booking can no longer be changed. Please start again.".to_owned()));
    }
    let owner_hash = current.owner_token_hash.clone().or_else(|| viewer.buyer_hash.clone()).unwrap_or_default();
    let orderer = Orderer { viewer: &viewer, owner_hash, client_key: ip.to_string() };
    let order = priced_order(&state, current.id.clone(), request.data, &orderer, Some(&current), now).await?;
    match state.db.replace_enrollment(&order, now).await? {
        None => Err(ApiError::Unprocessable("This booking can no longer be changed. Please start again.".to_owned())),
        Some(Err(refusal)) => Err(refused(&order.courses, &refusal)),
        Some(Ok(())) => Ok(Json(EnrollResponse { id: order.id, quote: order.quote })),
    }
}
