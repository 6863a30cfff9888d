//! The college writes Markdown; pages receive HTML. Raw HTML in the source is
//! escaped, never passed through, and links may only point at web, mail,
//! phone or site addresses, so content cannot inject markup or script. A
//! heading may carry an id to link to (`## Your right to cancel {#cancellation}`),
//! nothing else.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};

pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_HEADING_ATTRIBUTES;
    let parser = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            Event::Start(Tag::Link { link_type, dest_url: safe_url(dest_url), title, id })
        }
        Event::Start(Tag::Image { link_type, dest_url, title, id }) => {
            Event::Start(Tag::Image { link_type, dest_url: safe_url(dest_url), title, id })
        }
        Event::Start(Tag::Heading { level, id, .. }) => Event::Start(Tag::Heading { level, id, classes: Vec::new(), attrs: Vec::new() }),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, parser);
    out
}

fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let trimmed = url.trim_start();
    // `//host/…` (and `/\host`, which browsers read the same) leaves the
    // site: written out as the web address it is, so nothing takes it for
    // one of the site's own pages.
    if trimmed.starts_with("//") || trimmed.starts_with("/\\") || trimmed.starts_with('\\') {
        return CowStr::Boxed(format!("https://{}", trimmed.trim_start_matches(['/', '\\'])).into_boxed_str());
    }
    let lower = trimmed.to_ascii_lowercase();
    let allowed = ["https://", "http://", "mailto:", "tel:", "/", "#"].iter().any(|p| lower.starts_with(p)) || !lower.contains(':');
    if allowed { url } else { CowStr::Borrowed("#") }
}

#[cfg(test)]
mod tests {
    use super::to_html;

    #[test]
    fn renders_markdown() {
        assert_eq!(to_html("## Aftercare\n\n- rest"), "<h2>Aftercare</h2>\n<ul>\n<li>rest</li>\n</ul>\n");
    }

    #[test]
    fn a_heading_keeps_its_id_and_nothing_else() {
        assert_eq!(to_html("## Your right to cancel {#cancellation}"), "<h2 id=\"cancellation\">Your right to cancel</h2>\n");
        assert_eq!(to_html("## Styled {.alert onclick=x}"), "<h2>Styled</h2>\n");
    }

    #[test]
    fn escapes_raw_html() {
        let html = to_html("Hello <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn keeps_only_safe_links() {
        assert!(to_html("[a](javascript:alert(1))").contains("href=\"#\""));
        assert!(to_html("[a]( JavaScript:alert(1))").contains("href=\"#\""));
        assert!(to_html("![a](data:image/svg+xml,x)").contains("src=\"#\""));
        assert!(to_html("[a](/finance/)").contains("href=\"/finance/\""));
        assert!(to_html("[a](//other.example/x)").contains("href=\"https://other.example/x\""), "another site is not the site's own page");
        assert!(to_html("[a](/\\other.example)").contains("href=\"https://other.example\""));
        assert!(to_html("[a](https://example.org)").contains("href=\"https://example.org\""));
        assert!(to_html("[a](mailto:hello@example.org)").contains("mailto:"));
    }
}
