//! Instalment plans in the back office (decision 036): the plans staff
//! follow, those a refused charge needs attention for first; pausing,
//! resuming or cancelling one and moving a part's day, each audited by
//! `Db::change_plan` and answering the plan as it is now; and the
//! college's settings (most parts, retry days).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::{PartRecord, PlanListed, PlanRecord};
use enrol_domain::instalments::{PartStatus, PlanChange, PlanSettings, PlanStatus};
use enrol_domain::london;
use enrol_domain::money::Money;

use super::Staff;
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;
use crate::http::student::private;

/// The most plans listed.
const PLANS_LISTED: i64 = 200;

/// A plan, as the plans list and its order show it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub(super) struct PlanView {
    id: String,
    status: PlanStatus,
    /// `Visa ending 4242`, once the booking fee saved the card.
    card: Option<String>,
    agreed_on: NaiveDate,
    parts: Vec<PartView>,
    /// What the job charges next, while the plan is active.
    next_charge: Option<NextCharge>,
    /// A part the bank refused is being tried again, or was refused every time.
    needs_attention: bool,
}

#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct PartView {
    number: u32,
    due_on: NaiveDate,
    #[ts(type = "number")]
    amount: Money,
    status: PartStatus,
    /// Charges tried so far.
    attempts: u32,
    /// Why the bank refused the last charge.
    last_error: Option<String>,
    /// When a refused part is tried again.
    next_attempt_at: Option<DateTime<Utc>>,
}

/// The part charged next, the day it is charged and its amount.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct NextCharge {
    number: u32,
    on: NaiveDate,
    #[ts(type = "number")]
    amount: Money,
}

impl From<PartRecord> for PartView {
    fn from(part: PartRecord) -> Self {
        PartView {
            number: part.instalment.number,
            due_on: part.instalment.due_on,
            amount: part.instalment.amount,
            status: part.status,
            attempts: part.attempts,
            last_error: part.last_error,
            next_attempt_at: part.next_attempt_at,
        }
    }
}

impl From<PlanRecord> for PlanView {
    fn from(plan: PlanRecord) -> Self {
        let next_charge = plan.next_part().filter(|_| plan.status == PlanStatus::Active).map(|part| NextCharge {
            number: part.instalment.number,
            on: part.next_attempt_at.map_or(part.instalment.due_on, london::today),
            amount: part.instalment.amount,
        });
        let needs_attention = matches!(plan.status, PlanStatus::Active | PlanStatus::Paused)
            && plan.parts.iter().any(|p| matches!(p.status, PartStatus::Retrying | PartStatus::Failed));
        PlanView {
            id: plan.id,
            status: plan.status,
            card: plan.card_label,
            agreed_on: plan.agreed_on,
            parts: plan.parts.into_iter().map(PartView::from).collect(),
            next_charge,
            needs_attention,
        }
    }
}

/// A plan with its booking, as the plans list shows it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
struct PlanRow {
    order_id: String,
    /// The booking's reference: `B-7K3P9`.
    reference: String,
    student: String,
    email: String,
    plan: PlanView,
}

impl From<PlanListed> for PlanRow {
    fn from(listed: PlanListed) -> Self {
        PlanRow {
            order_id: listed.plan.enrollment_id.clone(),
            reference: listed.reference,
            student: listed.student.trim().to_owned(),
            email: listed.email,
            plan: PlanView::from(listed.plan),
        }
    }
}

/// The plans, those needing attention first.
#[derive(Serialize, TS)]
#[ts(export)]
struct Plans {
    plans: Vec<PlanRow>,
}

/// `GET /api/admin/plans`: at most [`PLANS_LISTED`], those with a refused
/// part first, then by their next charge.
pub async fn list_plans(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let plans = state.db.plans(PLANS_LISTED).await?.into_iter().map(PlanRow::from).collect();
    Ok(private(StatusCode::OK, Plans { plans }))
}

/// One plan, as every change to it answers.
#[derive(Serialize, TS)]
#[ts(export)]
struct PlanAnswer {
    plan: PlanRow,
}

/// Makes `change` to plan `id` as `staff` decided, and answers the plan as
/// it is now: a refusal is 422 in the rule's words, an unknown plan 404.
async fn change(state: &AppState, staff: &Staff, id: &str, change: PlanChange) -> Result<Response, ApiError> {
    let plan = match state.db.change_plan(id, &change, &staff.id, Utc::now()).await? {
        Some(Ok(plan)) => plan,
        Some(Err(refused)) => return Err(ApiError::Unprocessable(refused.to_string())),
        None => return Err(ApiError::NotFound),
    };
    tracing::info!(plan = %id, staff = %staff.id, ?change, "Payment plan changed");
    let booking = state.db.enrollment(&plan.enrollment_id).await?.ok_or(ApiError::NotFound)?;
    let student = format!("{} {}", booking.given_name, booking.family_name);
    let listed = PlanListed { plan, reference: booking.reference, student, email: booking.email };
    Ok(private(StatusCode::OK, PlanAnswer { plan: PlanRow::from(listed) }))
}

/// `POST /api/admin/plans/{id}/pause`: nothing is charged until resumed.
pub async fn pause_plan(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<Response, ApiError> {
    change(&state, &staff, &id, PlanChange::Pause).await
}

/// `POST /api/admin/plans/{id}/resume`: parts are charged on their days
/// again (a day that passed while paused, at the job's next run).
pub async fn resume_plan(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<Response, ApiError> {
    change(&state, &staff, &id, PlanChange::Resume).await
}

/// `POST /api/admin/plans/{id}/cancel`: no part still to pay is charged;
/// the booking and its balance stay.
pub async fn cancel_plan(State(state): State<Arc<AppState>>, staff: Staff, Path(id): Path<String>) -> Result<Response, ApiError> {
    change(&state, &staff, &id, PlanChange::Cancel).await
}

#[derive(Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MovePartRequest {
    due_on: NaiveDate,
}

/// `PUT /api/admin/plans/{id}/instalments/{number}`: the part is charged
/// on another day, from tomorrow to the day the balance is due; a part
/// refused every time is scheduled again.
pub async fn move_part(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((id, number)): Path<(String, String)>,
    JsonBody(request): JsonBody<MovePartRequest>,
) -> Result<Response, ApiError> {
    // A part that is not a number is no part of the plan.
    let number = number.parse().map_err(|_| ApiError::NotFound)?;
    change(&state, &staff, &id, PlanChange::MovePart { number, due_on: request.due_on }).await
}

/// The college's plan settings, as `GET` and `PUT` answer them.
#[derive(Serialize, TS)]
#[ts(export)]
struct PlanSettingsAnswer {
    settings: PlanSettings,
}

/// `GET /api/admin/plan-settings`.
pub async fn show_plan_settings(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    Ok(private(StatusCode::OK, PlanSettingsAnswer { settings: state.db.plan_settings().await? }))
}

/// `PUT /api/admin/plan-settings`: the most parts a plan is offered and the
/// days a refused charge waits, checked by the domain's rule; plans agreed
/// already keep their parts.
pub async fn save_plan_settings(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    JsonBody(settings): JsonBody<PlanSettings>,
) -> Result<Response, ApiError> {
    settings.check().map_err(|refused| ApiError::Unprocessable(refused.to_string()))?;
    state.db.save_plan_settings(&settings, &staff.id, Utc::now()).await?;
    tracing::info!(staff = %staff.id, max = settings.max_instalments, retries = ?settings.retry_days, "Plan settings saved");
    Ok(private(StatusCode::OK, PlanSettingsAnswer { settings }))
}
