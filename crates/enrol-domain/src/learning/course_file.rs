//! A course's own files (decision 028): the videos, audio and PDFs its
//! lessons play and offer, uploaded by staff and served only to the
//! course's students. What a file is comes from its first bytes, never from
//! its name or what the browser claimed; each kind has its own size limit.
//! Content names a course file as `files/<key>.<extension>`.

/// How many bytes [`sniff`] needs to know a file, at most.
pub const SNIFF_BYTES: usize = 64;

/// The folder a course file's name starts with.
pub const FILES: &str = "files/";

/// What a course file may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CourseFileKind {
    Mp4,
    Webm,
    Mp3,
    Pdf,
}

const KINDS: [CourseFileKind; 4] = [CourseFileKind::Mp4, CourseFileKind::Webm, CourseFileKind::Mp3, CourseFileKind::Pdf];

const MIB: u64 = 1024 * 1024;

/// The largest course file of any kind, in bytes.
pub const MAX_BYTES: u64 = 1024 * MIB;

impl CourseFileKind {
    pub fn extension(self) -> &'static str {
        match self {
            CourseFileKind::Mp4 => "mp4",
            CourseFileKind::Webm => "webm",
            CourseFileKind::Mp3 => "mp3",
            CourseFileKind::Pdf => "pdf",
        }
    }

    /// The format's name, as a student sees it beside a download.
    pub fn format(self) -> &'static str {
        match self {
            CourseFileKind::Mp4 => "MP4",
            CourseFileKind::Webm => "WebM",
            CourseFileKind::Mp3 => "MP3",
            CourseFileKind::Pdf => "PDF",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            CourseFileKind::Mp4 => "video/mp4",
            CourseFileKind::Webm => "video/webm",
            CourseFileKind::Mp3 => "audio/mpeg",
            CourseFileKind::Pdf => "application/pdf",
        }
    }

    /// The largest file of this kind, in bytes: an hour of lesson video, a
    /// long recording, a thick handout.
    pub fn max_bytes(self) -> u64 {
        match self {
            CourseFileKind::Mp4 | CourseFileKind::Webm => MAX_BYTES,
            CourseFileKind::Mp3 => 200 * MIB,
            CourseFileKind::Pdf => 50 * MIB,
        }
    }

    pub fn is_video(self) -> bool {
        matches!(self, CourseFileKind::Mp4 | CourseFileKind::Webm)
    }

    pub fn of_extension(extension: &str) -> Option<Self> {
        KINDS.into_iter().find(|kind| kind.extension() == extension)
    }

    pub fn of_content_type(content_type: &str) -> Option<Self> {
        KINDS.into_iter().find(|kind| kind.content_type() == content_type)
    }
}

/// The kind of file whose first bytes are `head` (at least
/// [`SNIFF_BYTES`] of them, or the whole file when it is shorter); `None`
/// for anything else.
pub fn sniff(head: &[u8]) -> Option<CourseFileKind> {
    if head.starts_with(b"%PDF-") {
        return Some(CourseFileKind::Pdf);
    }
    // An ISO base media file opens with its `ftyp` box, whose major brand
    // says which family it is; QuickTime's `qt  ` and others are not MP4.
    if head.get(4..8) == Some(b"ftyp") {
        const MP4_BRANDS: [&[u8; 4]; 12] =
            [b"isom", b"iso2", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"avc1", b"dash", b"M4V ", b"mmp4", b"MSNV"];
        return head.get(8..12).filter(|brand| MP4_BRANDS.iter().any(|known| &known[..] == *brand)).map(|_| CourseFileKind::Mp4);
    }
    // EBML, whose header names its document type: WebM, not any Matroska.
    if head.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
        return head.windows(7).any(|w| w == b"\x42\x82\x84webm").then_some(CourseFileKind::Webm);
    }
    if head.starts_with(b"ID3") {
        return Some(CourseFileKind::Mp3);
    }
    // An MPEG audio frame: eleven sync bits, a version that exists, layer III.
    match head {
        [0xFF, second, ..] if second & 0xE0 == 0xE0 && (second >> 3) & 0b11 != 0b01 && (second >> 1) & 0b11 == 0b01 => {
            Some(CourseFileKind::Mp3)
        }
        _ => None,
    }
}

/// Why an upload is refused, in words staff can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("The file is empty.")]
    Empty,
    #[error("This is not a file a lesson can use. Upload an MP4 or WebM video, an MP3 recording or a PDF.")]
    NotAccepted,
    #[error("{} is too large: keep it to {} MB or less.", kind_label(*.0), .0.max_bytes() / MIB)]
    TooLarge(CourseFileKind),
    #[error("The file is too large: no course file may be over {} MB.", MAX_BYTES / MIB)]
    LargerThanAny,
}

/// What staff call a kind of file, in a sentence.
pub fn kind_label(kind: CourseFileKind) -> &'static str {
    match kind {
        CourseFileKind::Mp4 => "An MP4 video",
        CourseFileKind::Webm => "A WebM video",
        CourseFileKind::Mp3 => "An MP3 recording",
        CourseFileKind::Pdf => "A PDF",
    }
}

/// The name content gives the course file with `key`.
pub fn file_name(key: &str, kind: CourseFileKind) -> String {
    format!("{FILES}{key}.{}", kind.extension())
}

/// The key and kind a course file's name (`files/<key>.<extension>`, or
/// without the folder as in its address) names; `None` for anything else.
pub fn parse_file_name(name: &str) -> Option<(&str, CourseFileKind)> {
    let name = name.strip_prefix(FILES).unwrap_or(name);
    let (key, extension) = name.split_once('.')?;
    let hex = !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    hex.then_some(())?;
    Some((key, CourseFileKind::of_extension(extension)?))
}

/// Whether `name` is a course file's name.
pub fn is_course_file(name: &str) -> bool {
    name.starts_with(FILES) && parse_file_name(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_known_by_their_first_bytes() {
        assert_eq!(sniff(b"%PDF-1.7\n%..."), Some(CourseFileKind::Pdf));
        assert_eq!(sniff(b"\0\0\0\x20ftypisom\0\0\x02\0isomiso2avc1mp41"), Some(CourseFileKind::Mp4));
        assert_eq!(sniff(b"\0\0\0\x1cftypmp42\0\0\0\0mp42isom"), Some(CourseFileKind::Mp4));
        assert_eq!(sniff(b"\0\0\0\x14ftypqt  \0\0\0\0qt  "), None, "QuickTime is not MP4");
        let webm = b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\xf2\x81\x04\x42\xf3\x81\x08\x42\x82\x84webm\x42\x87";
        assert_eq!(sniff(webm), Some(CourseFileKind::Webm));
        let mkv = b"\x1a\x45\xdf\xa3\xa3\x42\x86\x81\x01\x42\x82\x88matroska";
        assert_eq!(sniff(mkv), None, "Matroska is not WebM");
        assert_eq!(sniff(b"ID3\x04\0\0\0\0\0\0"), Some(CourseFileKind::Mp3));
        assert_eq!(sniff(&[0xFF, 0xFB, 0x90, 0x64]), Some(CourseFileKind::Mp3), "MPEG-1 layer III");
        assert_eq!(sniff(&[0xFF, 0xF3, 0x90, 0x64]), Some(CourseFileKind::Mp3), "MPEG-2 layer III");
        assert_eq!(sniff(&[0xFF, 0xF1, 0x50, 0x80]), None, "AAC in ADTS is layer 0");
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), None, "a JPEG");
        assert_eq!(sniff(b"MZ\x90\0\x03\0\0\0"), None, "a Windows program");
        assert_eq!(sniff(b"\x7fELF\x02\x01\x01"), None, "a Linux program");
        assert_eq!(sniff(b"<!doctype html><script>alert(1)</script>"), None);
        assert_eq!(sniff(b"PK\x03\x04"), None, "a zip, a Word or PowerPoint file");
        assert_eq!(sniff(b""), None);
        assert_eq!(sniff(b"\0\0\0\x20ftyp"), None, "a box cut short");
    }

    #[test]
    fn each_kind_has_its_limit_and_its_words() {
        assert_eq!(CourseFileKind::Webm.max_bytes(), 1024 * 1024 * 1024);
        assert_eq!(CourseFileKind::Pdf.max_bytes(), 50 * 1024 * 1024);
        assert!(KINDS.iter().all(|kind| kind.max_bytes() <= MAX_BYTES));
        assert_eq!(Refusal::TooLarge(CourseFileKind::Pdf).to_string(), "A PDF is too large: keep it to 50 MB or less.");
        assert_eq!(Refusal::LargerThanAny.to_string(), "The file is too large: no course file may be over 1024 MB.");
    }

    #[test]
    fn names_carry_their_key_and_kind() {
        let name = file_name("0a1b2c", CourseFileKind::Webm);
        assert_eq!(name, "files/0a1b2c.webm");
        assert_eq!(parse_file_name(&name), Some(("0a1b2c", CourseFileKind::Webm)));
        assert_eq!(parse_file_name("0a1b2c.pdf"), Some(("0a1b2c", CourseFileKind::Pdf)));
        assert!(is_course_file("files/0a1b2c.mp3"));
        assert!(!is_course_file("0a1b2c.mp3"), "content names the folder");
        for wrong in
            ["files/0A1B.pdf", "files/.pdf", "files/abc.exe", "files/abc.pdf.html", "files/../abc.pdf", "uploads/abc.png", "files/abc"]
        {
            assert!(!is_course_file(wrong), "{wrong}");
        }
    }
}
