//! Waiting lists (decision 015): asking to join a full session's list,
//! confirming the place by the mailed link, claiming an offered seat once
//! (which makes a pending booking this browser then pays at the checkout)
//! and leaving.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Extension, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use enrol_db::{Claim, Confirmed, Joined, NewWaiter, WaitingListLink};
use enrol_domain::waiting_list::WaitingListRequest;

use crate::AppState;
use crate::accounts::{random_token, token_hash};
use crate::buyer::{ClientIp, buyer};
use crate::http::ApiError;
use crate::http::enrol_checkout::with_cookie;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::limits::counted_as;

/// A link of a waiting-list mail to `path` (`/waiting-list/claim/`, say).
pub fn waiting_list_link(state: &AppState, path: &str) -> WaitingListLink {
    let token = random_token();
    WaitingListLink { token_hash: token_hash(&token), url: format!("{}{path}?token={token}", state.config.public_url) }
}

/// Offers the seats freed since the last look to the waiting lists: how
/// many offers. A failure is logged (0), and the scheduled jobs try again.
pub async fn offer_freed_seats(state: &AppState) -> usize {
    let offered = match state.db.college().await {
        Ok(college) => state.db.offer_freed_seats(&college.name, &|| waiting_list_link(state, "/waiting-list/claim/"), Utc::now()).await,
        Err(error) => Err(error),
    };
    match offered {
        Ok(offers) => {
            if offers > 0 {
                tracing::info!(offers, "Freed seats offered to the waiting lists");
            }
            offers
        }
        Err(error) => {
            tracing::error!(error = %format!("{error:#}"), "Waiting-list offers failed");
            0
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct JoinedAnswer {
    /// A link that confirms the place is mailed: nobody waits until it is opened.
    mailed: bool,
}

/// `POST /api/waiting-list`: asks to wait for a seat of a full session;
/// the place counts once it is confirmed by the mailed link.
#[utoipa::path(
    post,
    path = "/api/waiting-list",
    tag = "checkout",
    request_body(content = WaitingListRequest, example = json!({
        "sessionId": "chemical-peels-2", "firstName": "Sam", "lastName": "Lee", "email": "sam@example.com", "phone": "07700 900123"
    })),
    responses(
        (status = 202, description = "Asked: a link that confirms the place is mailed (not again within 15 minutes)", body = JoinedAnswer),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 404, description = "No such session", body = ErrorEnvelope),
        (status = 409, description = "This address already waits for this session", body = ErrorEnvelope),
        (status = 422, description = "A message per field to correct (`invalid`), the session has a free seat to book, or its list is full", body = ErrorEnvelope),
        (status = 429, description = "Too many requests, or places asked for today, from this address", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn join_waiting_list(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    JsonBody(request): JsonBody<WaitingListRequest>,
) -> Result<Response, ApiError> {
    let person = request.person().map_err(ApiError::Invalid)?;
    let waiter = NewWaiter {
        session_id: request.session_id.clone(),
        given_name: person.given_name().to_owned(),
        family_name: person.family_name().to_owned(),
        email: person.email().to_owned(),
        phone: Some(person.phone().to_owned()).filter(|p| !p.is_empty()),
        client_key: counted_as(ip).to_string(),
        confirm: waiting_list_link(&state, "/waiting-list/confirm/"),
    };
    let college = state.db.college().await?;
    match state.db.join_waiting_list(&waiter, &college.name, Utc::now()).await? {
        Joined::Asked => Ok((StatusCode::ACCEPTED, Json(JoinedAnswer { mailed: true })).into_response()),
        Joined::NotFull => Err(ApiError::Unprocessable("This date has a free seat: you can book it now.".to_owned())),
        Joined::AlreadyWaiting => Err(ApiError::Conflict("You are already on the waiting list for this date.".to_owned())),
        Joined::ListFull => Err(ApiError::Unprocessable(
            "The waiting list for this date is full. Please choose another date, or ask us about this one.".to_owned(),
        )),
        Joined::TooManyAsked => Err(ApiError::TooManyRequests(
            "You have asked to join several waiting lists today. Please confirm those by the links we emailed, or try again tomorrow."
                .to_owned(),
        )),
        Joined::UnknownSession => Err(ApiError::NotFound),
    }
}

#[derive(Serialize, ToSchema)]
pub struct ConfirmedAnswer {
    /// False when the place was confirmed before.
    confirmed: bool,
}

/// `POST /api/waiting-list/confirm`: confirms a place asked for, by the
/// mailed link: from now its holder waits, in the order people confirmed.
#[utoipa::path(
    post,
    path = "/api/waiting-list/confirm",
    tag = "checkout",
    request_body = OfferToken,
    responses(
        (status = 200, description = "Waiting from now (a mail with the link to leave is sent), or waiting already", body = ConfirmedAnswer),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 409, description = "The link ran out or is not known", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn confirm_place(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<OfferToken>,
) -> Result<Json<ConfirmedAnswer>, ApiError> {
    let college = state.db.college().await?;
    let leave = waiting_list_link(&state, "/waiting-list/leave/");
    match state.db.confirm_waiting(&token_hash(&request.token), &leave, &college.name, Utc::now()).await? {
        Confirmed::Confirmed => {
            // A seat free already (one freed while the list was empty) goes to whoever now waits.
            offer_freed_seats(&state).await;
            Ok(Json(ConfirmedAnswer { confirmed: true }))
        }
        Confirmed::Already => Ok(Json(ConfirmedAnswer { confirmed: false })),
        Confirmed::Closed => {
            Err(ApiError::Conflict("This link has run out: it works for 24 hours. Please join the waiting list again.".to_owned()))
        }
    }
}

/// The token of a waiting list's mailed link.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OfferToken {
    /// The token of the mailed link.
    token: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Claimed {
    /// The pending booking that now holds the seat, paid at the checkout.
    order_id: String,
}

/// `POST /api/waiting-list/claim`: claims an offered seat, once: a pending
/// booking for this browser holds it until the offer would have run out.
#[utoipa::path(
    post,
    path = "/api/waiting-list/claim",
    tag = "checkout",
    request_body = OfferToken,
    responses(
        (status = 200, description = "Claimed: the booking to pay", body = Claimed,
            headers(("set-cookie" = String, description = "The browser's `enrol_buyer` cookie, when it has none yet"))),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 409, description = "Claimed already, run out or given up", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn claim_offer(
    State(state): State<Arc<AppState>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<OfferToken>,
) -> Result<Response, ApiError> {
    let (owner, set_cookie) = buyer(&state, &headers);
    match state.db.claim_offer(&token_hash(&request.token), &owner, &counted_as(ip).to_string(), Utc::now()).await? {
        Claim::Claimed { order_id } => Ok(with_cookie(Json(Claimed { order_id }), set_cookie)),
        Claim::Closed => Err(ApiError::Conflict("This offer has been claimed already or has run out.".to_owned())),
    }
}

#[derive(Serialize, ToSchema)]
pub struct Left {
    left: bool,
}

/// `POST /api/waiting-list/leave`: leaves a waiting list by the link of its
/// first mail or of an offer; an offered seat passes to the next person.
#[utoipa::path(
    post,
    path = "/api/waiting-list/leave",
    tag = "checkout",
    request_body = OfferToken,
    responses(
        (status = 200, description = "Whether someone left (false: not waiting any more)", body = Left),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 429, description = "Too many requests from this address: wait a minute", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn leave_waiting_list(
    State(state): State<Arc<AppState>>,
    JsonBody(request): JsonBody<OfferToken>,
) -> Result<Json<Left>, ApiError> {
    let left = state.db.leave_waiting_list(&token_hash(&request.token)).await?;
    if left {
        offer_freed_seats(&state).await;
    }
    Ok(Json(Left { left }))
}
