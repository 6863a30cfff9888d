//! The order itself (`/api/enroll/`): priced by the server, stored with
//! its seats and code use held, changed only by the browser that made it.

use super::*;
use enrol_domain::consent::{WithRequirements, check_agreed};

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
    let requiring: Vec<WithRequirements<'_>> = {
        let catalogue = state.catalogue.for_booking(&state.db, now).await?;
        courses
            .iter()
            .filter(|c| catalogue.has_entry_requirements(&c.course_id))
            .map(|c| WithRequirements { course_id: &c.course_id, title: &c.title })
            .collect()
    };
    let consents = check_agreed(&data.agreed, false, &requiring).map_err(ApiError::Invalid)?;
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
    let prices: Vec<LinePrice> = match &discount {
        Some(code) => code.reach.line_prices(&courses).ok_or_else(|| {
            ApiError::Unprocessable(format!(
                "The discount code {} does not apply to the courses in your basket. Please remove it and try again.",
                code.code
            ))
        })?,
        None => courses.iter().map(BookedCourse::line_price).collect(),
    };
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
        consents,
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
    let orderer = Orderer { viewer: &viewer, owner_hash, client_key: ip.to_string() };
    let order = priced_order(&state, current.id.clone(), request.data, &orderer, Some(&current), now).await?;
    match state.db.replace_enrollment(&order, now).await? {
        None => Err(ApiError::Unprocessable("This booking can no longer be changed. Please start again.".to_owned())),
        Some(Err(refusal)) => Err(refused(&order.courses, &refusal)),
        Some(Ok(())) => Ok(Json(EnrollResponse { id: order.id, quote: order.quote })),
    }
}
