//! Course materials (decision 035): documents, videos and links staff
//! attach to an in-person course, for every date or for one, which its
//! booked students read in the account once their booking fee is paid.
//! What a material may be is decided here; the server checks that the
//! date and the course file named exist.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::learning::course_file::{CourseFileKind, parse_file_name};

/// The longest title and address kept.
pub const TITLE_CHARS: usize = 120;
pub const ADDRESS_CHARS: usize = 2000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum MaterialKind {
    /// A course file (decision 028): a PDF handout, a recording.
    Document,
    /// An uploaded video (MP4, WebM) or one on another site (`https://`).
    Video,
    /// A page on another site (`https://`).
    Link,
}

impl MaterialKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MaterialKind::Document => "document",
            MaterialKind::Video => "video",
            MaterialKind::Link => "link",
        }
    }

    pub fn parse(value: &str) -> Option<MaterialKind> {
        [MaterialKind::Document, MaterialKind::Video, MaterialKind::Link].into_iter().find(|kind| kind.as_str() == value)
    }
}

/// A material as staff send it from the back office.
#[derive(Debug, Clone, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct MaterialForm {
    pub title: String,
    /// document, video or link.
    pub kind: String,
    /// For a link or a video elsewhere: `https://…`.
    #[serde(default)]
    pub address: String,
    /// For a document or an uploaded video: the course file, `files/<key>.<ext>`.
    #[serde(default)]
    pub file: String,
    /// One date (a session's id) only; none for every date of the course.
    #[serde(default)]
    pub session_id: Option<String>,
}

/// Where a material's content is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaterialSource {
    /// A course file: its key and kind, and its name as content gives it.
    File { key: String, kind: CourseFileKind, name: String },
    /// An `https://` address on another site.
    Address(String),
}

/// A material that may be kept: its date and file still to be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMaterial {
    pub title: String,
    pub kind: MaterialKind,
    pub source: MaterialSource,
    pub session_id: Option<String>,
}

/// The field and what to do about it, for each problem of a form.
pub type MaterialProblems = BTreeMap<&'static str, &'static str>;

/// `text` as a web address a student may be sent to: `https://` and a
/// host, no spaces or control characters, no credentials, within
/// [`ADDRESS_CHARS`]. Anything else (`javascript:`, `http:`, a path on this
/// site) is refused.
pub fn web_address(text: &str) -> Option<String> {
    let text = text.trim();
    let rest = text.strip_prefix("https://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(host, port)| if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) { host } else { authority });
    let host_ok = !host.is_empty()
        && host.contains('.')
        && !host.starts_with(['.', '-'])
        && !host.ends_with(['.', '-'])
        && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    let clean = !text.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\\' | '`'));
    (host_ok && clean && text.chars().count() <= ADDRESS_CHARS).then(|| text.to_owned())
}

impl NewMaterial {
    /// The material `form` describes, or each field's problem.
    pub fn parse(form: &MaterialForm) -> Result<NewMaterial, MaterialProblems> {
        let mut problems = MaterialProblems::new();
        let title = form.title.trim();
        if title.is_empty() {
            problems.insert("title", "Give the material a title students will recognise.");
        } else if title.chars().count() > TITLE_CHARS || title.chars().any(char::is_control) {
            problems.insert("title", "Keep the title to one line of at most 120 characters.");
        }
        let kind = MaterialKind::parse(&form.kind);
        if kind.is_none() {
            problems.insert("kind", "Choose a document, a video or a link.");
        }
        let file = form.file.trim();
        let address = form.address.trim();
        let file = (!file.is_empty()).then(|| {
            parse_file_name(file)
                .filter(|_| file.starts_with(crate::learning::course_file::FILES))
                .map(|(key, kind)| MaterialSource::File { key: key.to_owned(), kind, name: file.to_owned() })
        });
        let source = match (kind, file, address.is_empty()) {
            (None, ..) => None,
            (Some(MaterialKind::Link), Some(_), _) => {
                problems.insert("file", "A link is an address, not a file: give its address instead.");
                None
            }
            (Some(MaterialKind::Document), None, _) => {
                problems.insert("file", "Choose the course file students will download.");
                None
            }
            (Some(_), Some(_), false) => {
                problems.insert("address", "Give either a course file or an address, not both.");
                None
            }
            (Some(kind), Some(None), true) => {
                problems.insert(
                    "file",
                    if kind == MaterialKind::Video { "Choose an uploaded video." } else { "Choose an uploaded course file." },
                );
                None
            }
            (Some(MaterialKind::Video), Some(Some(MaterialSource::File { kind, .. })), true) if !kind.is_video() => {
                problems.insert("file", "Choose an uploaded video (MP4 or WebM), or give the video's address.");
                None
            }
            (Some(_), Some(Some(source)), true) => Some(source),
            (Some(_), None, true) => {
                problems.insert("address", "Give the address, starting https://.");
                None
            }
            (Some(_), None, false) => match web_address(address) {
                Some(address) => Some(MaterialSource::Address(address)),
                None => {
                    problems.insert("address", "Give a full address starting https:// (for example https://www.youtube.com/watch?v=…).");
                    None
                }
            },
        };
        let session_id = form.session_id.as_deref().map(str::trim).filter(|id| !id.is_empty()).map(str::to_owned);
        match (kind, source) {
            (Some(kind), Some(source)) if problems.is_empty() => Ok(NewMaterial { title: title.to_owned(), kind, source, session_id }),
            _ => Err(problems),
        }
    }
}

/// A material as a booked student reads it in the account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct BookingMaterial {
    pub id: String,
    /// The booking (enrollment) it is for.
    pub enrollment_id: String,
    pub course_title: String,
    pub title: String,
    /// document, video or link.
    pub kind: String,
    /// Where it opens: this site's `/course-materials/{id}` for a course
    /// file, else the `https://` address staff gave.
    pub url: String,
    /// "PDF", "MP4": a course file's format; none for an address.
    pub format: Option<String>,
    /// `YYYY-MM-DD` of the one date it is for; none for every date.
    pub session_date: Option<String>,
}

/// The address at which a booked student reads a material's course file.
pub fn material_file_url(id: &str) -> String {
    format!("/course-materials/{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields `form` is refused for.
    fn problems(form: &MaterialForm) -> Vec<&'static str> {
        NewMaterial::parse(form).unwrap_err().into_keys().collect()
    }

    fn form(kind: &str, address: &str, file: &str) -> MaterialForm {
        MaterialForm {
            title: "Aftercare sheet".to_owned(),
            kind: kind.to_owned(),
            address: address.to_owned(),
            file: file.to_owned(),
            session_id: None,
        }
    }

    #[test]
    fn only_https_addresses_with_a_host_are_kept() {
        for good in [
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
            "https://example.org",
            "https://example.org:8443/a?b=c#d",
            " https://vimeo.com/1 ",
        ] {
            assert_eq!(web_address(good).as_deref(), Some(good.trim()), "{good}");
        }
        for bad in [
            "http://example.org",
            "javascript:alert(1)",
            "JAVASCRIPT://example.org/%0aalert(1)",
            "/about/",
            "https://",
            "https:///path",
            "https://localhost/",
            "https://user:pw@example.org/",
            "https://exa mple.org/",
            "https://example.org/\"onmouseover=\"x",
            "https://example.org/<script>",
            "data:text/html,hi",
            "ftp://example.org",
        ] {
            assert_eq!(web_address(bad), None, "{bad}");
        }
        assert_eq!(web_address(&format!("https://example.org/{}", "a".repeat(ADDRESS_CHARS))), None);
    }

    #[test]
    fn a_link_is_an_address_and_a_document_a_course_file() {
        let link = NewMaterial::parse(&form("link", "https://example.org/aftercare", "")).unwrap();
        assert_eq!(link.source, MaterialSource::Address("https://example.org/aftercare".to_owned()));
        let document = NewMaterial::parse(&form("document", "", "files/abc123.pdf")).unwrap();
        assert_eq!(
            document.source,
            MaterialSource::File { key: "abc123".to_owned(), kind: CourseFileKind::Pdf, name: "files/abc123.pdf".to_owned() }
        );
        assert_eq!(problems(&form("link", "", "files/abc123.pdf")), ["file"]);
        assert_eq!(problems(&form("document", "https://example.org", "")), ["file"]);
        assert_eq!(problems(&form("link", "http://example.org", "")), ["address"]);
        assert_eq!(problems(&form("link", "", "")), ["address"]);
        assert_eq!(problems(&form("document", "", "media/x.pdf")), ["file"]);
    }

    #[test]
    fn a_video_is_an_uploaded_video_or_an_address() {
        assert!(NewMaterial::parse(&form("video", "https://vimeo.com/76979871", "")).is_ok());
        assert!(NewMaterial::parse(&form("video", "", "files/abc.mp4")).is_ok());
        assert_eq!(problems(&form("video", "", "files/abc.pdf")), ["file"]);
        assert_eq!(problems(&form("video", "https://vimeo.com/1", "files/abc.mp4")), ["address"]);
    }

    #[test]
    fn the_title_and_kind_are_named_when_wrong() {
        let mut bad = form("poster", "https://example.org", "");
        bad.title = "  ".to_owned();
        assert_eq!(problems(&bad), ["kind", "title"]);
        bad.title = "x".repeat(TITLE_CHARS + 1);
        bad.kind = "link".to_owned();
        assert_eq!(problems(&bad), ["title"]);
        let mut one_date = form("link", "https://example.org", "");
        one_date.session_id = Some(" chemical-peels-3 ".to_owned());
        assert_eq!(NewMaterial::parse(&one_date).unwrap().session_id.as_deref(), Some("chemical-peels-3"));
    }
}
