//! The order itself (`/api/enroll/`): priced by the server, stored with
//! its seats and code use held, changed only by the browser that made it.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, State};
use axum::http::HeaderMap;
use axum::response::Response;
use chrono::{DateTime, Utc};

use enrol_db::{Allowance, DiscountCode, EnrollmentRecord, NewEnrollment};
use enrol_domain::admission::{self, CodeOffered};
use enrol_domain::checkout::{EnrollData, EnrollRequest, EnrollResponse, EnrollUpdateRequest};
use enrol_domain::london;
use enrol_domain::page::EnrollmentStatus;

use super::{booking_view, not_admitted, own_order, payment_account, refused, with_cookie};
use crate::AppState;
use crate::buyer::{ClientIp, Viewer, buyer};
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::idempotency::at_most_once;
use crate::http::json_body::{JsonBody, parse_json};
use crate::http::limits::{Allowances, counted_as};

/// Who is placing an order: the caller, their browser's buyer token hash
/// and their address.
struct Orderer<'a> {
    viewer: &'a Viewer,
    owner_hash: String,
    client_key: String,
}

/// The order as the browser sent it, admitted by the domain from the
/// catalogue, the seats taken and the code it names, and what is stored.
/// `replacing` is the caller's own pending order being changed: its held
/// seats and code use are its own.
async fn priced_order(
    state: &AppState,
    id: String,
    data: EnrollData,
    orderer: &Orderer<'_>,
    replacing: Option<&EnrollmentRecord>,
    now: DateTime<Utc>,
) -> Result<NewEnrollment, ApiError> {
    let catalogue = state.catalogue.for_booking(&state.db, now).await?;
    let chosen = data.enrollment.metadata.iter().map(|c| c.course_id.as_str());
    let view = booking_view(state, &catalogue, chosen, replacing.map(|o| o.id.as_str()), now).await?;
    let code = match admission::named_code(&data) {
        Some(code) => {
            let holds_a_use = |found: &DiscountCode| {
                replacing.is_some_and(|o| o.code_reserved && o.discount_code.as_deref() == Some(found.code.as_str()))
            };
            state.db.discount_code(code, london::today(now)).await?.filter(|c| c.is_usable_holding(holds_a_use(c)))
        }
        None => None,
    };
    let offered = code.as_ref().map(|c| CodeOffered { code: &c.code, discount: c.discount, reach: &c.reach });
    let order = admission::admit(&data, &view, offered).map_err(not_admitted)?;
    // The order belongs to the signed-in user, else to the payment account sent.
    let user_id = match &orderer.viewer.user_id {
        Some(user_id) => Some(user_id.clone()),
        None => payment_account(state, data.enrollment.acct.as_deref()).await?,
    };
    let [given_name, family_name, email, contact_number] = order.person.into_parts();
    Ok(NewEnrollment {
        id,
        mode: order.mode,
        quote: order.quote,
        discount_code: order.discount_code,
        courses: order.courses,
        metadata: order.metadata,
        given_name,
        family_name,
        email,
        contact_number,
        payment_method: order.payment_method,
        user_id,
        owner_token_hash: orderer.owner_hash.clone(),
        client_key: orderer.client_key.clone(),
        consents: order.consents,
    })
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
            "metadata": [{ "courseId": "foundation-dermal-fillers", "sessionId": "foundation-dermal-fillers-2", "includeKit": true }],
            "method": "stripe", "status": "pending", "type": "student"
        },
        "agreed": { "version": "2026-11-26", "terms": true, "entryRequirements": ["foundation-dermal-fillers"] }
    }})),
    responses(
        (status = 200, description = "The order, priced by the server, with its seats and code use held for 20 minutes", body = EnrollResponse,
            headers(("set-cookie" = String, description = "The browser's `enrol_buyer` cookie, when it has none yet"))),
        (status = 400, body = ErrorEnvelope,
            description = "Not JSON of this shape, a payment method that does not fit the mode, too much metadata, or a malformed `Idempotency-Key`"),
        (status = 409, body = ErrorEnvelope,
            description = "A date just fully booked, a code just used up, or the same `Idempotency-Key` still being placed"),
        (status = 422, body = ErrorEnvelope,
            description = "Contact details to correct or terms not agreed (`invalid`), a course not sold or needing a date, a code that cannot be used on it, amounts not the server's, a reused `Idempotency-Key`"),
        (status = 429, description = "Too many requests from this address, or too many unpaid bookings held", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn create_enrollment(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(Allowances(allowances)): Extension<Allowances>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body?;
    let now = Utc::now();
    let (owner_hash, set_cookie) = buyer(&state, &headers);
    let placed = at_most_once(&state, &headers, &owner_hash, &body, now, async {
        let viewer = Viewer::of(&state, &headers).await?;
        let orderer = Orderer { viewer: &viewer, owner_hash: owner_hash.clone(), client_key: counted_as(ip).to_string() };
        place_order(&state, &body, &orderer, &allowances, now).await
    })
    .await?;
    Ok(with_cookie(placed, set_cookie))
}

async fn place_order(
    state: &AppState,
    body: &[u8],
    orderer: &Orderer<'_>,
    allowances: &[Allowance],
    now: DateTime<Utc>,
) -> Result<EnrollResponse, ApiError> {
    let request: EnrollRequest = parse_json(body)?;
    let order = priced_order(state, enrol_db::public_id(), request.data, orderer, None, now).await?;
    if let Err(refusal) = state.db.create_enrollment(&order, allowances, state.config.limits.live_order_caps(), now).await? {
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
            description = "Contact details to correct or terms not agreed (`invalid`), an order no longer pending, a course not sold, a code that cannot be used on it, amounts not the server's"),
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
    let orderer = Orderer { viewer: &viewer, owner_hash, client_key: counted_as(ip).to_string() };
    let order = priced_order(&state, current.id.clone(), request.data, &orderer, Some(&current), now).await?;
    match state.db.replace_enrollment(&order, now).await? {
        None => Err(ApiError::Unprocessable("This booking can no longer be changed. Please start again.".to_owned())),
        Some(Err(refusal)) => Err(refused(&order.courses, &refusal)),
        Some(Ok(())) => Ok(Json(EnrollResponse { id: order.id, quote: order.quote })),
    }
}
