//! Evidence files a student sends for a course (decision 014; a Level 2
//! certificate, say): a PDF or an image, recognised by its content, never
//! by the name or type the browser claims, and at most [`MAX_BYTES`].

/// The largest file accepted: 5 MB.
pub const MAX_BYTES: usize = 5 * 1024 * 1024;
const MAX_NAME: usize = 120;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvidenceType {
    Pdf,
    Png,
    Jpeg,
    Webp,
}

impl EvidenceType {
    pub fn content_type(self) -> &'static str {
        match self {
            EvidenceType::Pdf => "application/pdf",
            EvidenceType::Png => "image/png",
            EvidenceType::Jpeg => "image/jpeg",
            EvidenceType::Webp => "image/webp",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EvidenceError {
    #[error("The file is empty.")]
    Empty,
    #[error("The file is larger than 5 MB. Please send a smaller copy, such as a photo or a scan at a lower resolution.")]
    TooLarge,
    #[error("Please send a PDF or an image (JPEG, PNG or WebP).")]
    NotAccepted,
}

/// What the file is, from its first bytes.
pub fn check(bytes: &[u8]) -> Result<EvidenceType, EvidenceError> {
    if bytes.is_empty() {
        return Err(EvidenceError::Empty);
    }
    if bytes.len() > MAX_BYTES {
        return Err(EvidenceError::TooLarge);
    }
    if bytes.starts_with(b"%PDF-") {
        Ok(EvidenceType::Pdf)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Ok(EvidenceType::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Ok(EvidenceType::Jpeg)
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Ok(EvidenceType::Webp)
    } else {
        Err(EvidenceError::NotAccepted)
    }
}

/// The name to keep and to offer on download: the last part of what the
/// browser sent, without control characters, quotes or path separators, at
/// most 120 characters; "evidence" when nothing is left.
pub fn file_name(sent: &str) -> String {
    sent_file_name(sent).unwrap_or_else(|| "evidence".to_owned())
}

/// The last part of a file name a browser sent, cleaned as [`file_name`]
/// says; `None` when nothing is left.
pub fn sent_file_name(sent: &str) -> Option<String> {
    let last = sent.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last.chars().filter(|c| !c.is_control() && !matches!(c, '"' | ';')).take(MAX_NAME).collect();
    let cleaned = cleaned.trim().trim_start_matches('.');
    (!cleaned.is_empty()).then(|| cleaned.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_known_by_their_content() {
        assert_eq!(check(b"%PDF-1.7 ..."), Ok(EvidenceType::Pdf));
        assert_eq!(check(b"\x89PNG\r\n\x1a\n...."), Ok(EvidenceType::Png));
        assert_eq!(check(&[0xFF, 0xD8, 0xFF, 0xE0, 0]), Ok(EvidenceType::Jpeg));
        assert_eq!(check(b"RIFF\x10\0\0\0WEBPVP8 "), Ok(EvidenceType::Webp));
        assert_eq!(check(b"<html><script>alert(1)</script>"), Err(EvidenceError::NotAccepted));
        assert_eq!(check(b""), Err(EvidenceError::Empty));
        let mut big = b"%PDF-".to_vec();
        big.resize(MAX_BYTES + 1, b' ');
        assert_eq!(check(&big), Err(EvidenceError::TooLarge));
        big.truncate(MAX_BYTES);
        assert_eq!(check(&big), Ok(EvidenceType::Pdf));
    }

    #[test]
    fn names_lose_their_paths_and_anything_unsafe_in_a_header() {
        assert_eq!(file_name("C:\\Users\\amelia\\level-2.pdf"), "level-2.pdf");
        assert_eq!(file_name("../../etc/passwd"), "passwd");
        assert_eq!(file_name("cert\"; filename=x.html\r\n.pdf"), "cert filename=x.html.pdf");
        assert_eq!(file_name("  .hidden"), "hidden");
        assert_eq!(file_name(""), "evidence");
        assert_eq!(file_name(&"a".repeat(300)).len(), 120);
    }
}
