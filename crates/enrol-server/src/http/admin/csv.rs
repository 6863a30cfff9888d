//! CSV files for spreadsheets (rosters, the accountant's exports): UTF-8
//! with a byte-order mark (so Excel reads £ and accents), CRLF lines, every
//! cell quoted, and a cell that a spreadsheet would run as a formula
//! (`=`, `+`, `-`, `@`, tab, CR, and their fullwidth forms, which some
//! spreadsheets read the same; plain numbers aside) opened with `'` so it
//! stays text.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// Whether a cell is a plain number (`-12.50`), which no spreadsheet runs.
fn is_number(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') && digits.bytes().filter(|b| *b == b'.').count() <= 1
}

/// One cell, quoted and defused.
fn cell(value: &str) -> String {
    let formula = value.starts_with(['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠']) && !is_number(value);
    let defused = if formula { format!("'{value}") } else { value.to_owned() };
    format!("\"{}\"", defused.replace('"', "\"\""))
}

/// The file's text: a header row, then the rows.
pub fn to_csv(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut text = String::from("\u{feff}");
    let line = |cells: Vec<String>| cells.join(",") + "\r\n";
    text.push_str(&line(header.iter().map(|h| cell(h)).collect()));
    for row in rows {
        text.push_str(&line(row.iter().map(|c| cell(c)).collect()));
    }
    text
}

/// Pence as pounds with two decimals, for a spreadsheet's sums: `-12.50`.
pub fn pounds(pence: i64) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", pence.unsigned_abs() / 100, pence.unsigned_abs() % 100)
}

/// A download named `filename`, never cached.
pub fn download(filename: &str, header_row: &[&str], rows: &[Vec<String>]) -> Response {
    let disposition = format!("attachment; filename=\"{filename}\"");
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        to_csv(header_row, rows),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_formulas_defused() {
        let text = to_csv(&["Name", "Note"], &[vec!["Ann \"Jo\" Lee".into(), "=HYPERLINK(\"x\")".into()]]);
        assert_eq!(text, "\u{feff}\"Name\",\"Note\"\r\n\"Ann \"\"Jo\"\" Lee\",\"'=HYPERLINK(\"\"x\"\")\"\r\n");
        assert_eq!(cell("-12.50"), "\"-12.50\"", "a refund stays a number");
        assert_eq!(cell("-1+1"), "\"'-1+1\"");
        assert_eq!(cell("+44 7700"), "\"'+44 7700\"");
        assert_eq!(cell("＝HYPERLINK(1)"), "\"'＝HYPERLINK(1)\"", "the fullwidth equals sign too");
        assert_eq!(cell("＠SUM(A1)"), "\"'＠SUM(A1)\"");
    }

    #[test]
    fn pence_read_as_pounds() {
        assert_eq!(pounds(123_450), "1234.50");
        assert_eq!(pounds(5), "0.05");
        assert_eq!(pounds(-1250), "-12.50");
    }
}
