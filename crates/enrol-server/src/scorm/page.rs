//! A package's page with the site's SCORM runtime added (decision 026):
//! one `<script>` at the start of its `<head>`, before any of the
//! package's own scripts look for the runtime, carrying its seed in a
//! `data-seed` attribute. The page's bytes are otherwise kept as they
//! are, in whatever encoding it is written.

use enrol_domain::html::escape_html;

/// `page` with the script `runtime` (its address) added, seeded with
/// `seed` (JSON); `page` unchanged when there is no runtime built.
pub fn with_runtime(page: &[u8], runtime: Option<&str>, seed: &str) -> Vec<u8> {
    let Some(runtime) = runtime else {
        tracing::warn!("The SCORM runtime is not built (npm run build): a package's page is served without it");
        return page.to_vec();
    };
    let tag = format!(r#"<script src="{}" data-seed="{}"></script>"#, escape_html(runtime), escape_html(seed));
    let at = insertion_point(page);
    let mut out = Vec::with_capacity(page.len() + tag.len());
    out.extend_from_slice(&page[..at]);
    out.extend_from_slice(tag.as_bytes());
    out.extend_from_slice(&page[at..]);
    out
}

/// Just after the opening `<head>` tag; else after `<html>`; else the start.
fn insertion_point(page: &[u8]) -> usize {
    ["head", "html"].iter().find_map(|name| after_tag(page, name)).unwrap_or(0)
}

/// The end of the first opening tag `<name>` or `<name …>`, in any case.
fn after_tag(page: &[u8], name: &str) -> Option<usize> {
    let open = format!("<{name}");
    let mut from = 0;
    while let Some(found) = find_ignoring_case(&page[from..], open.as_bytes()) {
        let start = from + found;
        let next = page.get(start + open.len()).copied();
        if matches!(next, Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/')) {
            return page[start..].iter().position(|b| *b == b'>').map(|end| start + end + 1);
        }
        from = start + open.len();
    }
    None
}

fn find_ignoring_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests;
