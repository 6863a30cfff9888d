//! The waiting list's pages: joining a full date's list, claiming an
//! offered seat, leaving. The rules and mails are `crate::waiting_list`'s.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use super::SessionType;
use crate::money::Money;
use crate::site::Image;

/// The session an offer is for, as the claim page shows it and the basket
/// takes it.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OfferedSeat {
    pub course_id: String,
    pub title: String,
    pub url: String,
    pub image: Image,
    #[ts(type = "number")]
    #[schema(value_type = i64)]
    pub price: Money,
    #[ts(type = "number | null")]
    #[schema(value_type = Option<i64>)]
    pub was_price: Option<Money>,
    pub is_package: bool,
    pub session_id: String,
    /// `YYYY-MM-DD`
    pub date: String,
    pub session_type: SessionType,
}

/// Where an offer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum OfferState {
    /// Open until `expiresAt`: the seat is kept for its holder.
    Open,
    /// Claimed already: the link works once.
    Claimed,
    /// Run out, given up, or never issued.
    Closed,
}

/// `/waiting-list/claim/?token=…`, the link of an offer's mail.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct WaitingListClaimPage {
    pub state: OfferState,
    pub seat: Option<OfferedSeat>,
    /// London wall-clock time the offer runs out.
    pub expires_at: Option<String>,
}

/// `/waiting-list/join/?session=…`: the form that joins a full date's list.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct WaitingListJoinPage {
    /// The date waited for; `None` when there is no such date to come.
    pub session: Option<WaitedDate>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct WaitedDate {
    pub session_id: String,
    pub course_title: String,
    pub course_url: String,
    /// `YYYY-MM-DD`
    pub date: String,
    pub session_type: SessionType,
    /// Whether it is full: when a seat is free, it is booked, not waited for.
    pub full: bool,
}

/// `/waiting-list/leave/?token=…`, the link every waiting-list mail carries.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct WaitingListLeavePage {
    /// What the person waits for, while they still wait.
    pub waiting_for: Option<String>,
}

/// Where a place asked for on a waiting list stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ConfirmState {
    /// Asked for and not yet confirmed: the link still works.
    Open,
    /// Confirmed: the person waits (or has moved on, by an offer).
    Confirmed,
    /// The link ran out, or was never issued.
    Closed,
}

/// `/waiting-list/confirm/?token=…`, the link that confirms a place.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct WaitingListConfirmPage {
    pub state: ConfirmState,
    /// The course and date waited for, when the link is known.
    pub waiting_for: Option<String>,
}
