use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use serde::Deserialize;

use enrol_domain::search::SearchResponse;

use crate::AppState;
use crate::http::ApiError;

#[derive(Deserialize)]
pub struct SearchQuery {
    #[serde(default)]
    q: String,
}

/// `GET /api/search?q=`: courses and articles for the search overlay.
pub async fn search_site(State(state): State<Arc<AppState>>, Query(query): Query<SearchQuery>) -> Result<Json<SearchResponse>, ApiError> {
    let q: String = query.q.chars().take(200).collect();
    let results = state.db.search(&q, 12).await?;
    Ok(Json(SearchResponse { query: q, results }))
}
