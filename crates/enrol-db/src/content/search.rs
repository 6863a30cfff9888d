//! Site search: SQLite's FTS5 or PostgreSQL's full-text search over the
//! same `search_document` rows. Words are not stemmed, so every prefix of
//! a word finds it while the visitor is still typing.

use anyhow::Context as _;

use enrol_domain::search::{SearchKind, SearchResult, search_terms};

use crate::{Backend, Catalogue, Db, on_pool};

#[derive(sqlx::FromRow)]
struct HitRow {
    kind: String,
    title: String,
    url: String,
    summary: String,
}

impl Db {
    /// Courses and articles matching every word of `query` (each word also
    /// as a prefix, so results appear while typing), best first; courses
    /// with the price `catalogue` shows on their pages.
    pub async fn search(&self, catalogue: &Catalogue, query: &str, limit: i64) -> anyhow::Result<Vec<SearchResult>> {
        let terms = search_terms(query);
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let (sql, expression) = match self.backend() {
            Backend::Sqlite => (
                "select kind, title, url, summary from search_document where search_document match $1 \
                 order by bm25(search_document, 0.0, 0.0, 10.0, 4.0, 1.0) limit $2",
                terms.iter().map(|t| format!("\"{t}\"*")).collect::<Vec<_>>().join(" "),
            ),
            Backend::Postgres => (
                "select kind, title, url, summary from search_document, to_tsquery('simple', $1) query \
                 where document @@ query order by ts_rank(document, query) desc, title limit $2",
                terms.iter().map(|t| format!("{t}:*")).collect::<Vec<_>>().join(" & "),
            ),
        };
        let rows: Vec<HitRow> =
            on_pool!(self, pool => sqlx::query_as(sql).bind(&expression).bind(limit).fetch_all(pool).await).context("Failed to search")?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let shown = if row.kind == "course" { catalogue.price_at(&row.url) } else { None };
                SearchResult {
                    kind: if row.kind == "course" { SearchKind::Course } else { SearchKind::Article },
                    price: shown.map(|p| p.price),
                    price_from: shown.is_some_and(|p| p.from),
                    title: row.title,
                    url: row.url,
                    summary: row.summary,
                }
            })
            .collect())
    }
}
