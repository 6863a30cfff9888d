//! The HTML part of every mail: the plain text as written, laid out in
//! the college's letterhead (its logo, name, colours and contact details)
//! by the `templates/mail.html` template, whose styles are written inline
//! as mail clients need. Everything from the text is escaped by the
//! template.

use askama::Template;

use enrol_domain::mail::{Block, Inline, blocks};
use enrol_domain::site::SiteData;

/// The college as the top and foot of its mails show it.
#[derive(Debug, Clone)]
pub struct Letterhead {
    pub college: String,
    /// The logo as a PNG (mail clients show no SVG), absolute.
    pub logo_url: String,
    pub site_url: String,
    pub address: String,
    pub phone: String,
    pub email: String,
}

/// Where the logo is served as a PNG for mails.
pub const LOGO_PATH: &str = "/mail/logo.png";

impl Letterhead {
    pub fn of(site: &SiteData, public_url: &str) -> Self {
        Letterhead {
            college: site.title.clone(),
            logo_url: format!("{public_url}{LOGO_PATH}"),
            site_url: format!("{public_url}/"),
            address: site.address.clone(),
            phone: site.phone_number.clone(),
            email: site.email_address.clone(),
        }
    }
}

#[derive(Template)]
#[template(path = "mail.html")]
struct MailHtml<'a> {
    subject: &'a str,
    preheader: String,
    blocks: Vec<Block>,
    letterhead: &'a Letterhead,
}

/// What an inbox shows beside the subject: the first paragraph after the
/// greeting, cut at a word near 110 characters.
fn preheader(blocks: &[Block]) -> String {
    let words: String = blocks
        .iter()
        .filter_map(|block| match block {
            Block::Paragraph(lines) => Some(
                lines
                    .iter()
                    .map(|line| {
                        line.iter()
                            .map(|part| match part {
                                Inline::Text(text) => text.as_str(),
                                Inline::Link { text, .. } => text.as_str(),
                            })
                            .collect::<String>()
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => None,
        })
        .find(|text| !(text.starts_with("Dear ") || text.starts_with("Hello") || text.starts_with("Hi ")))
        .unwrap_or_default();
    if words.chars().count() <= 110 {
        return words;
    }
    let cut: String = words.chars().take(110).collect();
    format!("{}…", cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head))
}

/// The HTML part of a mail of `subject` whose plain text is `body`.
pub fn render(subject: &str, body: &str, letterhead: &Letterhead) -> anyhow::Result<String> {
    let blocks = blocks(body);
    let html = MailHtml { subject, preheader: preheader(&blocks), blocks, letterhead };
    Ok(html.render()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letterhead() -> Letterhead {
        Letterhead {
            college: "Example & Co Academy".into(),
            logo_url: "https://academy.example/mail/logo.png".into(),
            site_url: "https://academy.example/".into(),
            address: "27 Larkspur Row, Manchester".into(),
            phone: "0161 496 0000".into(),
            email: "hello@academy.example".into(),
        }
    }

    #[test]
    fn the_text_is_laid_out_in_the_letterhead_and_escaped() {
        let body = "Dear <Sam>,\n\nThank you for enrolling.\n\nPaid today: £100.00\nBalance: £1,150.00\n\n\
                    Pay online: https://academy.example/pay-balance/?token=a&b\n\nWhat to bring:\n- Photo ID\n- <b>shoes</b>\n";
        let html = render("Your booking", body, &letterhead()).unwrap();
        assert!(html.contains("<title>Your booking</title>"));
        assert!(html.contains("Dear &#60;Sam&#62;,") || html.contains("Dear &lt;Sam&gt;,"), "{html}");
        assert!(!html.contains("<Sam>") && !html.contains("<b>shoes</b>"));
        assert!(html.contains("alt=\"Example &#38; Co Academy\"") || html.contains("alt=\"Example &amp; Co Academy\""), "{html}");
        assert!(html.contains(">Pay online</a>"), "the link shows as a button with its label: {html}");
        assert!(html.contains("href=\"https://academy.example/pay-balance/?token=a&#38;b\"") || html.contains("token=a&amp;b"), "{html}");
        assert!(html.contains(">What to bring</h2>") && html.contains("<li style=\"margin:0 0 4px 0;\">Photo ID</li>"), "{html}");
        assert!(html.contains(">Paid today</th>") && html.contains(">£100.00</td>"), "{html}");
        assert!(html.contains("0161 496 0000") && html.contains("mailto:hello@academy.example"), "{html}");
        assert!(html.contains(">Thank you for enrolling.</div>"), "the preheader: {html}");
    }

    #[test]
    fn the_preheader_is_cut_at_a_word() {
        let long = "word ".repeat(40);
        let preheader = preheader(&blocks(&format!("Hello,\n\n{long}")));
        assert!(preheader.ends_with("word…") && preheader.chars().count() <= 111, "{preheader}");
    }
}
