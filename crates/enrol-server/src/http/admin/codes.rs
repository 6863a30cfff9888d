//! Discount codes and upsell offers in the back office (decision 017), for
//! staff with `Permission::Codes`. What a code takes off at
//! checkout is the domain's (`enrol_domain::codes`, `Quote`).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::Serialize;
use ts_rs::TS;

use enrol_db::{CodeRecord, CodeSaved, UpsellRecord};
use enrol_domain::codes::{CodeForm, CodeState, code_name};
use enrol_domain::london;
use enrol_domain::upsells::UpsellForm;

use super::Staff;
use super::orders::{OrderRow, Orders};
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;

const ENTER_A_CODE: &str = "Enter a code: 3 to 32 letters, digits or hyphens.";

/// A code as the back office shows it: as stored, and whether it can be
/// used today, so one whose last day has passed never reads as active.
#[derive(Serialize, TS)]
#[ts(export)]
struct CodeAnswer {
    #[serde(flatten)]
    code: CodeRecord,
    /// The server's reading of the code on today's date; not sent back.
    state: CodeState,
}

impl From<CodeRecord> for CodeAnswer {
    fn from(code: CodeRecord) -> Self {
        let state = code.state(london::today(Utc::now()));
        CodeAnswer { code, state }
    }
}

/// What the back office is told about a code it tried to save.
fn saved(outcome: CodeSaved, status: StatusCode) -> Result<Response, ApiError> {
    match outcome {
        CodeSaved::Saved(code) => Ok((status, Json(CodeAnswer::from(code))).into_response()),
        CodeSaved::NotFound => Err(ApiError::NotFound),
        CodeSaved::Taken => Err(ApiError::field("code", "A code with this name exists already.")),
        CodeSaved::UnknownCourse(id) => {
            tracing::info!(course = %id, "A code limited to an unknown course was refused");
            Err(ApiError::field("courseIds", "Choose courses from the list: one sent is not a course the college has."))
        }
        CodeSaved::UnknownSection(slug) => {
            tracing::info!(section = %slug, "A code limited to an unknown section was refused");
            Err(ApiError::field("sectionSlugs", "Choose sections from the list: one sent is not a section the college has."))
        }
        CodeSaved::BelowUses { uses } => {
            tracing::info!(uses, "A usage limit below the uses counted was refused");
            Err(ApiError::field("maxUses", "The usage limit cannot be below the uses already counted."))
        }
    }
}

/// `GET /api/admin/sections`: the sections a code may be limited to, in
/// the site's order.
pub async fn list_sections(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let sections: Vec<SectionChoice> =
        state.db.section_choices().await?.into_iter().map(|(slug, title)| SectionChoice { slug, title }).collect();
    Ok(Json(SectionChoices { sections }).into_response())
}

/// A course section, which a code may be limited to.
#[derive(Serialize, TS)]
#[ts(export)]
struct SectionChoice {
    slug: String,
    title: String,
}

#[derive(Serialize, TS)]
#[ts(export)]
struct SectionChoices {
    sections: Vec<SectionChoice>,
}

/// `GET /api/admin/codes`: every code with its uses.
pub async fn list_codes(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let codes: Vec<CodeAnswer> = state.db.codes().await?.into_iter().map(CodeAnswer::from).collect();
    Ok(Json(Codes { codes }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct Codes {
    codes: Vec<CodeAnswer>,
}

/// `POST /api/admin/codes`: 201 with the code as stored (upper-case).
pub async fn create_code(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    JsonBody(form): JsonBody<CodeForm>,
) -> Result<Response, ApiError> {
    let named = form.code.is_some();
    let (code, terms) = match form.parse() {
        Ok((Some(code), terms)) => (code, terms),
        Ok((None, _)) => return Err(ApiError::field("code", ENTER_A_CODE)),
        Err(mut fields) => {
            if !named {
                fields.insert("code", ENTER_A_CODE);
            }
            return Err(ApiError::Invalid(fields));
        }
    };
    saved(state.db.create_code(&code, &terms, &staff.id, Utc::now()).await?, StatusCode::CREATED)
}

/// `PUT /api/admin/codes/{code}`: everything but the code itself, and
/// never a usage limit below the uses already counted.
pub async fn edit_code(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(code): Path<String>,
    JsonBody(form): JsonBody<CodeForm>,
) -> Result<Response, ApiError> {
    let code = code_name(&code).ok_or(ApiError::NotFound)?;
    let renamed = form.code.as_deref().is_some_and(|sent| code_name(sent).is_some_and(|sent| sent != code));
    let (_, terms) = form.parse().map_err(ApiError::Invalid)?;
    if renamed {
        return Err(ApiError::field("code", "The code itself cannot be changed: expire it and create another."));
    }
    saved(state.db.edit_code(&code, &terms, &staff.id, Utc::now()).await?, StatusCode::OK)
}

/// `POST /api/admin/codes/{code}/expire`: no longer usable from now;
/// bookings that hold it keep it.
pub async fn expire_code(State(state): State<Arc<AppState>>, staff: Staff, Path(code): Path<String>) -> Result<Response, ApiError> {
    let code = code_name(&code).ok_or(ApiError::NotFound)?;
    let expired = state.db.expire_code(&code, &staff.id, Utc::now()).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(CodeAnswer::from(expired)).into_response())
}

/// `GET /api/admin/codes/{code}/orders`: the bookings that used it, newest first.
pub async fn list_code_orders(State(state): State<Arc<AppState>>, Path(code): Path<String>) -> Result<Response, ApiError> {
    let code = code_name(&code).ok_or(ApiError::NotFound)?;
    let orders: Vec<OrderRow> = state.db.code_orders(&code).await?.ok_or(ApiError::NotFound)?.into_iter().map(OrderRow::from).collect();
    Ok(Json(Orders { orders }).into_response())
}

/// `GET /api/admin/upsells`.
pub async fn list_upsells(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    Ok(Json(Upsells { upsells: state.db.upsells().await? }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct Upsells {
    upsells: Vec<UpsellRecord>,
}

/// `PUT /api/admin/upsells/{priceId}`: the pages showing the offer are
/// dropped from every instance's cache within seconds.
pub async fn edit_upsell(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(price_id): Path<String>,
    JsonBody(form): JsonBody<UpsellForm>,
) -> Result<Response, ApiError> {
    let terms = form.parse().map_err(ApiError::Invalid)?;
    let edited = state.db.edit_upsell(&price_id, &terms, &staff.id, Utc::now()).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(edited).into_response())
}
