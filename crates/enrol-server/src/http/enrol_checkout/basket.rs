//! The basket as the catalogue sells it now, and discount codes checked
//! against it.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use chrono::Utc;

use enrol_domain::admission::{MAX_COURSES, Refusal};
use enrol_domain::checkout::{BasketRequest, BasketResponse, CheckoutLine, CodeRequest, CodeResponse};
use enrol_domain::london;
use enrol_domain::page::EnrollmentStatus;

use super::{booking_view, full_message, not_admitted, own_order};
use crate::AppState;
use crate::buyer::Viewer;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;

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
        return Err(not_admitted(Refusal::TooManyCourses));
    }
    let now = Utc::now();
    let viewer = Viewer::of(&state, &headers).await?;
    let own = own_order(&state, &viewer, request.order_id.as_deref()).await?.filter(|o| o.status == EnrollmentStatus::Pending);
    let own = own.as_ref().map(|o| o.id.as_str());
    let catalogue = state.catalogue.for_booking(&state.db, now).await?;
    let view = booking_view(&state, &catalogue, request.courses.iter().map(|c| c.course_id.as_str()), own, now).await?;
    let max_instalments = state.db.plan_settings().await?.max_instalments;
    let mut response = BasketResponse { lines: Vec::new(), removed: Vec::new(), max_instalments };
    for chosen in &request.courses {
        let Some(offered) = view.in_person(&chosen.course_id) else {
            response.removed.push(chosen.course_id.clone());
            continue;
        };
        let course = &offered.course;
        let sessions = offered.open_sessions();
        let still_open = chosen.session_id.as_ref().filter(|id| sessions.iter().any(|s| &s.id == *id));
        let session_id = still_open.cloned().or_else(|| sessions.first().map(|s| s.id.clone()));
        let notice = match (&chosen.session_id, still_open) {
            (Some(_), None) if session_id.is_some() => {
                Some(format!("The date you chose for {} is fully booked, so we picked the next one.", course.title))
            }
            (_, None) if session_id.is_none() && offered.has_dates() => Some(full_message(&course.title, None)),
            _ => None,
        };
        let price =
            session_id.as_ref().and_then(|id| sessions.iter().find(|s| &s.id == id)).map_or(course.pricing.unit_amount, |s| s.price);
        response.lines.push(CheckoutLine {
            include_kit: offered.kit_pounds(chosen.include_kit).is_some(),
            course_id: course.id.clone(),
            title: course.title.clone(),
            url: course.url.clone(),
            image: course.images.first().cloned().unwrap_or_default(),
            price,
            was_price: course.was_price,
            is_package: course.is_package,
            entry_requirements: course.entry_requirements.then(|| course.prerequisites.clone()),
            kit: course.kit.clone(),
            sessions,
            session_id,
            notice,
        });
    }
    Ok(Json(response))
}

/// `POST /api/code`: `valid` false for a code that is
/// unknown, expired or used up; a code limited to some courses names them.
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
    let invalid = CodeResponse { valid: false, code: None, value: None, kind: None, id: None, course_ids: None };
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
            course_ids: found.reach.course_ids(),
        },
        None => invalid,
    }))
}
