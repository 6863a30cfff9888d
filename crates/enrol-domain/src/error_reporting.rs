//! What error reporting leaves out (docs/product.md#errors): the messages 'script error' and
//! 'resize observer loop', health-check transactions, transactions of the
//! not-found page, and errors whose message mentions prototype. One rule
//! for the server and the browser: both are tested against
//! `error-report-vectors.json` beside this file.

/// The name given to transactions of the not-found page.
pub const NOT_FOUND_TRANSACTION: &str = "not-found";

/// Whether an event with this message or transaction name is left out.
pub fn is_ignored(message: Option<&str>, transaction: Option<&str>) -> bool {
    let message = message.unwrap_or_default().to_lowercase();
    let squeezed: String = message.chars().filter(|c| !c.is_whitespace()).collect();
    let transaction = transaction.unwrap_or_default();
    message.contains("script error")
        || squeezed.contains("resizeobserverloop")
        || message.contains("prototype")
        || transaction.trim_start_matches("GET ").trim_end_matches('/') == "/healthz"
        || transaction == NOT_FOUND_TRANSACTION
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Vector {
        message: Option<String>,
        transaction: Option<String>,
        ignored: bool,
    }

    #[test]
    fn agrees_with_every_vector() {
        let vectors: Vec<Vector> = serde_json::from_str(include_str!("error-report-vectors.json")).unwrap();
        for v in vectors {
            assert_eq!(is_ignored(v.message.as_deref(), v.transaction.as_deref()), v.ignored, "{:?} {:?}", v.message, v.transaction);
        }
    }
}
