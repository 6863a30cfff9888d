//! CSV files for spreadsheets (rosters, the accountant's exports): UTF-8
//! with a byte-order mark (so Excel reads £ and accents), CRLF lines, every
//! cell quoted, and a cell that a spreadsheet would run as a formula
//! (`=`, `+`, `-`, `@`, tab, CR, and their fullwidth forms, which some
//! spreadsheets read the same; plain numbers aside) opened with `'` so it
//! stays text.

use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt as _;

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

/// One line of the file: its cells quoted and defused, then CRLF.
fn line<S: AsRef<str>>(cells: &[S]) -> String {
    cells.iter().map(|c| cell(c.as_ref())).collect::<Vec<_>>().join(",") + "\r\n"
}

/// The file's text: a header row, then the rows.
pub fn to_csv(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut text = String::from("\u{feff}");
    text.push_str(&line(header));
    for row in rows {
        text.push_str(&line(row));
    }
    text
}

/// Pence as pounds with two decimals, for a spreadsheet's sums: `-12.50`.
pub fn pounds(pence: i64) -> String {
    let sign = if pence < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", pence.unsigned_abs() / 100, pence.unsigned_abs() % 100)
}

/// The headers of a download named `filename`, never cached.
fn download_headers(filename: &str) -> [(header::HeaderName, String); 3] {
    [
        (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
        (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{filename}\"")),
        (header::CACHE_CONTROL, "no-store".to_owned()),
    ]
}

/// A download named `filename`, never cached.
pub fn download(filename: &str, header_row: &[&str], rows: &[Vec<String>]) -> Response {
    (download_headers(filename), to_csv(header_row, rows)).into_response()
}

/// Rows an export reads a page at a time.
pub const PAGE: i64 = 1000;

/// What is left of a streamed download to write.
enum Left<K> {
    Header,
    After(Option<K>),
    Nothing,
}

/// A download named `filename` written as it is read, so a year of rows
/// takes the memory of one page: `page(source, after)` gives at most [`PAGE`]
/// rows after the place `after` (none: the first), `place` names a row's
/// place and `cells` its cells. A page that cannot be read ends the
/// download with an error, so a spreadsheet never gets a cut file as if
/// it were whole.
pub fn streamed<S, R, K, P, F>(
    filename: &str,
    header_row: &'static [&'static str],
    source: S,
    page: P,
    place: fn(&R) -> K,
    cells: fn(R) -> Vec<String>,
) -> Response
where
    S: Clone + Send + 'static,
    R: Send + 'static,
    K: Send + 'static,
    P: Fn(S, Option<K>) -> F + Send + 'static,
    F: Future<Output = anyhow::Result<Vec<R>>> + Send,
{
    let chunks = futures_util::stream::unfold((Left::Header, page), move |(left, page)| {
        let source = source.clone();
        async move {
            match left {
                Left::Header => Some((Ok(format!("\u{feff}{}", line(header_row))), (Left::After(None), page))),
                Left::After(after) => match page(source.clone(), after).await {
                    Ok(rows) => {
                        let full = i64::try_from(rows.len()).is_ok_and(|n| n >= PAGE);
                        let next = if full { rows.last().map(place) } else { None };
                        let text = rows.into_iter().map(|row| line(&cells(row))).collect::<String>();
                        let left = if next.is_some() { Left::After(next) } else { Left::Nothing };
                        Some((Ok(text), (left, page)))
                    }
                    Err(error) => {
                        tracing::error!(error = format!("{error:#}"), "An export stopped: a page of its rows could not be read");
                        Some((Err(std::io::Error::other("the export could not be read")), (Left::Nothing, page)))
                    }
                },
                Left::Nothing => None,
            }
        }
    });
    // Fused: the compression layer asks again after the end.
    (download_headers(filename), Body::from_stream(chunks.fuse())).into_response()
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

    /// A streamed download of `total` numbered rows, whose page after
    /// `fail_after` (if any) cannot be read: its body, or the error it ended with.
    async fn stream_of(total: usize, fail_after: Option<usize>) -> Result<String, axum::Error> {
        let page = |(total, fail_after): (usize, Option<usize>), after: Option<usize>| async move {
            let start = after.unwrap_or(0);
            anyhow::ensure!(fail_after.is_none_or(|limit| start < limit), "the database went away");
            Ok((start + 1..=total).take(usize::try_from(PAGE).unwrap()).collect::<Vec<_>>())
        };
        let response =
            streamed("n.csv", &["Number", "Formula"], (total, fail_after), page, |n: &usize| *n, |n| vec![n.to_string(), format!("=A{n}")]);
        assert_eq!(response.headers()[header::CONTENT_DISPOSITION], "attachment; filename=\"n.csv\"");
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
        Ok(String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn a_streamed_download_is_the_same_file_read_a_page_at_a_time() {
        for total in [0, 1, 999, 1000, 1001, 2345] {
            let rows: Vec<Vec<String>> = (1..=total).map(|n| vec![n.to_string(), format!("=A{n}")]).collect();
            assert_eq!(stream_of(total, None).await.unwrap(), to_csv(&["Number", "Formula"], &rows), "{total} rows");
        }
        assert!(stream_of(2345, Some(1000)).await.is_err(), "a page that fails ends the file with an error, not cut short as if whole");
    }

    #[test]
    fn pence_read_as_pounds() {
        assert_eq!(pounds(123_450), "1234.50");
        assert_eq!(pounds(5), "0.05");
        assert_eq!(pounds(-1250), "-12.50");
    }
}
