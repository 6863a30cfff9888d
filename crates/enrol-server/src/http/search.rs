use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use chrono::Utc;
use serde::Deserialize;
use utoipa::IntoParams;

use enrol_domain::search::SearchResponse;

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// What the visitor typed; only its first 200 characters are used.
    #[serde(default)]
    q: String,
}

/// `GET /api/search?q=`: courses and articles for the search overlay.
#[utoipa::path(
    get,
    path = "/api/search",
    tag = "pages",
    params(SearchQuery),
    responses(
        (status = 200, description = "At most 12 courses and articles, best first", body = SearchResponse),
        (status = 400, description = "A query string that cannot be read", body = ErrorEnvelope),
    )
)]
pub async fn search_site(
    State(state): State<Arc<AppState>>,
    query: Result<Query<SearchQuery>, QueryRejection>,
) -> Result<Json<SearchResponse>, ApiError> {
    let Query(query) = query?;
    let q: String = query.q.chars().take(200).collect();
    let catalogue = state.catalogue.get(&state.db, Utc::now()).await?;
    let results = state.db.search(&catalogue, &q, 12).await?;
    Ok(Json(SearchResponse { query: q, results }))
}
