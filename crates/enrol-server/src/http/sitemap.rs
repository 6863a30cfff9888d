use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use chrono::Utc;

use enrol_db::section_url;
use enrol_domain::html::escape_html;

use crate::AppState;
use crate::http::ApiError;
use crate::pages;

/// `GET /sitemap.xml`: every public page (the fixed ones, then those staff
/// added), section, course and article.
pub async fn show_sitemap(State(state): State<Arc<AppState>>) -> Result<impl IntoResponse, ApiError> {
    let catalogue = state.catalogue.get(&state.db, Utc::now()).await?;
    let mut paths: Vec<String> = pages::sitemap_paths().map(str::to_owned).collect();
    let added = state.db.page_slugs().await?.into_iter().filter(|slug| !pages::is_fixed_page(slug));
    paths.extend(added.filter_map(|slug| pages::page_path(&slug)));
    paths.extend(catalogue.section_cards()?.into_iter().map(|s| section_url(&s.slug)));
    paths.extend(catalogue.all_courses()?.into_iter().map(|c| c.url));
    paths.extend(state.db.articles(enrol_domain::london::today(chrono::Utc::now())).await?.into_iter().map(|a| a.card.url));
    let mut xml =
        String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for path in paths {
        xml.push_str(&format!("  <url><loc>{}{}</loc></url>\n", escape_html(&state.config.public_url), escape_html(&path)));
    }
    xml.push_str("</urlset>\n");
    Ok(([(header::CONTENT_TYPE, "application/xml; charset=utf-8")], xml))
}
