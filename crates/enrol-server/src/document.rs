//! The HTML document around the React root: head tags from the page data,
//! the hashed assets, and the page data itself for hydration.

use enrol_domain::html::escape_html;
use enrol_domain::page::{Page, PageEnvelope};
use enrol_domain::site::Image;

use crate::assets::ClientAssets;

/// The last script of every page: it starts the page's own scripts (the
/// entry and the chunks it names for a modulepreload, from its data
/// attributes) once the page has loaded, with its picture, and been painted
/// once, or at once when the reader acts first (decision 043). A page
/// without an origin, a staff preview in its sandboxed frame, starts them
/// at once: its links work only through them. Its text is the same on
/// every page, so the Content-Security-Policy allows it by its hash
/// ([`boot_script_source`]).
const BOOT: &str = include_str!("boot.js");

/// The CSP source that allows [`BOOT`] inline: `'sha256-…'`.
pub fn boot_script_source() -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(BOOT)))
}

/// JSON that is safe inside `<script type="application/json">`: nothing in
/// it can close the element or open a comment.
pub fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// The page around `app_html`; `tracking_json` is the configured tools'
/// ids (`TrackingConfig`), read by the browser beside the page data.
pub fn render(
    envelope: &PageEnvelope,
    public_url: &str,
    assets: &ClientAssets,
    app_html: &str,
    data_json: &str,
    tracking_json: &str,
) -> String {
    let head = &envelope.head;
    let mut html = String::with_capacity(app_html.len() + data_json.len() + 2048);
    html.push_str("<!doctype html><html lang=\"en-GB\"><head><meta charset=\"utf-8\">");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    html.push_str(&format!("<title>{}</title>", escape_html(&head.title)));
    html.push_str(&format!("<meta name=\"description\" content=\"{}\">", escape_html(&head.description)));
    html.push_str(&format!("<link rel=\"canonical\" href=\"{}{}\">", escape_html(public_url), escape_html(&head.canonical)));
    html.push_str("<meta name=\"theme-color\" content=\"#4a1d3f\">");
    open_graph(&mut html, envelope, public_url);
    if let Some(site) = &envelope.site {
        html.push_str(&format!("<link rel=\"icon\" href=\"{}\" type=\"image/svg+xml\">", escape_html(&site.logo.url)));
    }
    if let Some(graph) = crate::structured_data::graph(envelope, public_url) {
        html.push_str("<script type=\"application/ld+json\">");
        html.push_str(&script_json(&graph.to_string()));
        html.push_str("</script>");
    }
    for css in &assets.stylesheets {
        html.push_str(&format!("<link rel=\"stylesheet\" href=\"{}\">", escape_html(css)));
    }
    html.push_str("</head><body><div id=\"root\">");
    html.push_str(app_html);
    html.push_str("</div><script type=\"application/json\" id=\"__ENROL_DATA__\">");
    html.push_str(&script_json(data_json));
    html.push_str("</script><script type=\"application/json\" id=\"__ENROL_TRACKING__\">");
    html.push_str(&script_json(tracking_json));
    html.push_str("</script>");
    let preloads: Vec<&str> = assets.preloads.iter().chain(assets.route_preloads(envelope.page.kind())).map(String::as_str).collect();
    html.push_str(&format!(
        "<script data-entry=\"{}\" data-preload=\"{}\">{BOOT}</script></body></html>",
        escape_html(&assets.script),
        escape_html(&preloads.join(" "))
    ));
    html
}

/// The picture that stands for the page when it is shared: its own first
/// image, else the home page hero, else the college's logo.
fn share_image(envelope: &PageEnvelope) -> Option<&Image> {
    match &envelope.page {
        Page::Course(course) => course.images.first(),
        Page::Article(article) => Some(&article.post.image),
        Page::Home(home) => Some(&home.hero.image),
        _ => None,
    }
    .or(envelope.site.as_ref().map(|site| &site.logo))
}

/// OpenGraph and Twitter card tags, so shared links show a title, a summary
/// and a picture (a 1200 px raster from the image endpoint).
fn open_graph(html: &mut String, envelope: &PageEnvelope, public_url: &str) {
    let head = &envelope.head;
    let kind = if matches!(envelope.page, Page::Article(_)) { "article" } else { "website" };
    let mut meta = |property: &str, content: &str| {
        html.push_str(&format!("<meta property=\"{property}\" content=\"{}\">", escape_html(content)));
    };
    meta("og:type", kind);
    meta("og:title", &head.title);
    meta("og:description", &head.description);
    meta("og:url", &format!("{public_url}{}", head.canonical));
    meta("og:locale", "en_GB");
    if let Some(site) = &envelope.site {
        meta("og:site_name", &site.title);
    }
    if let Some(image) = share_image(envelope) {
        let url = format!("{public_url}/_next/image/?url={}&w=1200&q=75", encode_query_value(&image.url));
        meta("og:image", &url);
        meta("og:image:alt", &image.alt);
    }
    html.push_str("<meta name=\"twitter:card\" content=\"summary_large_image\">");
}

fn encode_query_value(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(encode_query_value("/media/courses/bb glow.svg"), "%2Fmedia%2Fcourses%2Fbb%20glow.svg");
    }

    #[test]
    fn page_data_cannot_break_out_of_its_script() {
        let json = r#"{"t":"</script><script>alert(1)</script><!--","s":"a&b"}"#;
        let safe = script_json(json);
        assert!(!safe.contains('<') && !safe.contains('>'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["t"], "</script><script>alert(1)</script><!--");
        assert_eq!(back["s"], "a&b");
    }
}
