//! A mail as the outbox keeps it until it is sent.

/// A plain-text mail to queue: the database stores it in the same
/// transaction as what it tells of, and the mailer sends it later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub body: String,
    /// A file sent with it: the booking confirmation's calendar invite.
    pub attachment: Option<Attachment>,
}

/// A text file a mail carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// `booking.ics`
    pub name: String,
    /// `text/calendar; charset=utf-8; method=PUBLISH`
    pub content_type: String,
    pub body: String,
}

/// A mail's plain text as its HTML part lays it out. The text is what is
/// written (every mail is written as plain text first, and sent as that
/// too); the HTML part shows the same words in blocks, found by how the
/// lines are written:
/// - `Label: https://…` alone on its line is a button, `Label`: the
///   first of the mail stands out, the others are quieter;
/// - `Label: value` lines together are a table of facts;
/// - `- item` lines are a list, under the line ending in `:` before them;
/// - any other lines are a paragraph, their links shown short.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Paragraph(Vec<Vec<Inline>>),
    Facts(Vec<(String, String)>),
    List { heading: Option<String>, items: Vec<String> },
    Action { label: String, url: String, primary: bool },
}

/// Part of a line: words, or a link shown by `text` (its address without
/// the query, which holds only a token a reader does not need to see).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Link { text: String, url: String },
}

enum Line<'a> {
    Action(&'a str, &'a str),
    Fact(&'a str, &'a str),
    Item(&'a str),
    Text(&'a str),
}

fn is_url(text: &str) -> bool {
    (text.starts_with("https://") || text.starts_with("http://")) && !text.contains(char::is_whitespace)
}

fn line_kind(line: &str) -> Line<'_> {
    if let Some(item) = line.strip_prefix("- ") {
        return Line::Item(item.trim());
    }
    // An indented line continues the one above it.
    if !line.starts_with(char::is_whitespace)
        && let Some((label, value)) = line.split_once(": ")
        && (1..=60).contains(&label.chars().count())
        && !label.contains("://")
    {
        let value = value.trim();
        if is_url(value) {
            return Line::Action(label, value);
        }
        if !value.contains("://") && !label.ends_with('.') {
            return Line::Fact(label, value);
        }
    }
    Line::Text(line.trim())
}

/// `https://academy.example/pay-balance/?token=…` shown as
/// `academy.example/pay-balance/`.
fn short_link(url: &str) -> String {
    let bare = url.split_once("://").map_or(url, |(_, rest)| rest);
    bare.split(['?', '#']).next().unwrap_or(bare).to_owned()
}

fn inlines(line: &str) -> Vec<Inline> {
    let mut parts = Vec::new();
    let mut text = String::new();
    for (i, word) in line.split(' ').enumerate() {
        if i > 0 {
            text.push(' ');
        }
        let trimmed = word.trim_end_matches(['.', ',', ')', ';']);
        if is_url(trimmed) {
            if !text.is_empty() {
                parts.push(Inline::Text(std::mem::take(&mut text)));
            }
            parts.push(Inline::Link { text: short_link(trimmed), url: trimmed.to_owned() });
            text.push_str(&word[trimmed.len()..]);
        } else {
            text.push_str(word);
        }
    }
    if !text.is_empty() {
        parts.push(Inline::Text(text));
    }
    parts
}

/// The blocks of `body`, in order.
pub fn blocks(body: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for paragraph in body.split("\n\n").map(str::trim_end).filter(|p| !p.trim().is_empty()) {
        let mut lines = paragraph.lines().filter(|l| !l.trim().is_empty()).map(line_kind).peekable();
        while let Some(line) = lines.next() {
            match line {
                Line::Action(label, url) => {
                    let primary = !blocks.iter().any(|block| matches!(block, Block::Action { .. }));
                    blocks.push(Block::Action { label: label.to_owned(), url: url.to_owned(), primary });
                }
                Line::Fact(label, value) => {
                    let mut facts = vec![(label.to_owned(), value.to_owned())];
                    while let Some(Line::Fact(label, value)) = lines.peek() {
                        facts.push(((*label).to_owned(), (*value).to_owned()));
                        lines.next();
                    }
                    blocks.push(Block::Facts(facts));
                }
                Line::Item(item) => {
                    let mut items = vec![item.to_owned()];
                    while let Some(Line::Item(item)) = lines.peek() {
                        items.push((*item).to_owned());
                        lines.next();
                    }
                    // The paragraph line just before, ending in a colon, is its heading.
                    let heading = match blocks.last() {
                        Some(Block::Paragraph(above)) => match above.as_slice() {
                            [line] => match line.as_slice() {
                                [Inline::Text(t)] if t.ends_with(':') => Some(t.trim_end_matches(':').to_owned()),
                                _ => None,
                            },
                            _ => None,
                        },
                        _ => None,
                    };
                    if heading.is_some() {
                        blocks.pop();
                    }
                    blocks.push(Block::List { heading, items });
                }
                Line::Text(text) => {
                    let mut paragraph = vec![inlines(text)];
                    while let Some(Line::Text(text)) = lines.peek() {
                        paragraph.push(inlines(text));
                        lines.next();
                    }
                    blocks.push(Block::Paragraph(paragraph));
                }
            }
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Inline {
        Inline::Text(t.to_owned())
    }

    #[test]
    fn a_confirmation_reads_as_paragraphs_facts_a_list_and_buttons() {
        let body = "Dear Sam,\n\nThank you for enrolling with Example Academy.\n\nBooking reference B-Z20KM\n\n\
                    Chemical Peels - Tuesday 12 January 2027: £1,250.00\n  09:30 to 16:30. At the academy: 27 Larkspur Row.\n\n\
                    Training total: £1,250.00\nPaid today: £100.00\nPay online: https://academy.example/pay-balance/?token=abc\n\n\
                    What to bring:\n- Photo ID\n- A pen\n\nQuestions? See https://academy.example/faq/, or reply.\n";
        let found = blocks(body);
        assert_eq!(found[0], Block::Paragraph(vec![vec![text("Dear Sam,")]]));
        assert_eq!(found[2], Block::Paragraph(vec![vec![text("Booking reference B-Z20KM")]]));
        assert_eq!(found[3], Block::Facts(vec![("Chemical Peels - Tuesday 12 January 2027".into(), "£1,250.00".into())]));
        assert_eq!(found[4], Block::Paragraph(vec![vec![text("09:30 to 16:30. At the academy: 27 Larkspur Row.")]]));
        assert_eq!(found[5], Block::Facts(vec![("Training total".into(), "£1,250.00".into()), ("Paid today".into(), "£100.00".into())]));
        assert_eq!(
            found[6],
            Block::Action { label: "Pay online".into(), url: "https://academy.example/pay-balance/?token=abc".into(), primary: true }
        );
        assert_eq!(found[7], Block::List { heading: Some("What to bring".into()), items: vec!["Photo ID".into(), "A pen".into()] });
        assert_eq!(
            found[8],
            Block::Paragraph(vec![vec![
                text("Questions? See "),
                Inline::Link { text: "academy.example/faq/".into(), url: "https://academy.example/faq/".into() },
                text(", or reply."),
            ]])
        );
        assert_eq!(found.len(), 9);
        let second = blocks("Pay online: https://a.example/p\n\nYour receipt: https://a.example/r");
        assert!(matches!(&second[..], [Block::Action { primary: true, .. }, Block::Action { primary: false, .. }]), "{second:?}");
    }

    #[test]
    fn a_link_shows_its_address_without_the_token() {
        assert_eq!(short_link("https://academy.example/api/receipts/RCT-000001?token=secret"), "academy.example/api/receipts/RCT-000001");
        assert_eq!(blocks("Hello\n- one")[0], Block::Paragraph(vec![vec![text("Hello")]]), "no colon: no heading");
    }
}
