//! Site search: what the search overlay shows for a query.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::money::Money;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum SearchKind {
    Course,
    Article,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SearchResult {
    pub kind: SearchKind,
    pub title: String,
    pub url: String,
    pub summary: String,
    /// A course's price as its page shows it; `None` for an article.
    #[ts(type = "number | null")]
    pub price: Option<Money>,
    /// Some of the course's dates cost more than `price`.
    pub price_from: bool,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct SearchResponse {
    pub query: String,
    pub results: Vec<SearchResult>,
}

/// The words of a visitor's query that search can use: letters and digits
/// only, lower-cased, at most eight. Anything else (quotes, operators) is a
/// separator, so no query syntax reaches the database.
pub fn search_terms(query: &str) -> Vec<String> {
    query.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).take(8).collect()
}

#[cfg(test)]
mod tests {
    use super::search_terms;

    #[test]
    fn keeps_words_and_drops_syntax() {
        assert_eq!(search_terms("Lip  fillers!"), ["lip", "fillers"]);
        assert_eq!(search_terms("\"botox\" OR * NEAR(x)"), ["botox", "or", "near", "x"]);
        assert_eq!(search_terms("'; drop table course; --"), ["drop", "table", "course"]);
        assert!(search_terms("  -- ").is_empty());
        assert_eq!(search_terms("a b c d e f g h i j").len(), 8);
    }
}
