//! What a SCORM package may be, checked entry by entry while it is
//! unpacked and before anything is kept: a zip of at most
//! [`LIMITS`]`.upload_bytes`, unpacking to at most `unpacked_bytes` in at
//! most `files` files, no file unpacking to more than `ratio` times its
//! packed size (a zip bomb), every name a plain relative path inside the
//! package's folder, no links, and only the kinds of file a web page
//! uses ([`content_type`]): no programs or scripts for a computer.

use std::fmt;

/// How large a package may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackageLimits {
    /// The zip as uploaded.
    pub upload_bytes: u64,
    /// Every file unpacked, added up.
    pub unpacked_bytes: u64,
    pub files: usize,
    /// The most a file may unpack to per byte packed, once it is larger
    /// than [`RATIO_FREE_BYTES`].
    pub ratio: u64,
}

/// The limits of every package, uploaded or loaded from the content pack.
/// An authoring tool's export of an hour's course with narration is a
/// few tens of megabytes in a few hundred files; text and scripts pack
/// at most about 10:1.
pub const LIMITS: PackageLimits = PackageLimits { upload_bytes: 50 * MIB, unpacked_bytes: 200 * MIB, files: 2_000, ratio: 100 };

/// Below this a file may pack as well as it likes (a page of spaces).
pub const RATIO_FREE_BYTES: u64 = MIB;

const MIB: u64 = 1024 * 1024;

/// The longest path kept, in characters.
pub const MAX_PATH_CHARS: usize = 300;

/// Why a package is refused: each says what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    NotAZip,
    UploadTooLarge,
    UnpacksTooLarge,
    TooManyFiles,
    /// A file packed far more than real content does.
    Bomb(String),
    /// A name that would leave the package's folder.
    OutsideFolder(String),
    Link(String),
    Encrypted(String),
    FileType(String),
    /// The zip says one size and unpacks to another, or does not unpack.
    Damaged(String),
    NoManifest,
    Manifest(String),
}

fn mb(bytes: u64) -> u64 {
    bytes / MIB
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAZip => write!(f, "This is not a zip file. Export the course from your authoring tool as a SCORM package (.zip)."),
            Refusal::UploadTooLarge => {
                write!(f, "The package is larger than {} MB. Export it with smaller media.", mb(LIMITS.upload_bytes))
            }
            Refusal::UnpacksTooLarge => {
                write!(f, "The package unpacks to more than {} MB. Export it with smaller media.", mb(LIMITS.unpacked_bytes))
            }
            Refusal::TooManyFiles => write!(f, "The package has more than {} files.", LIMITS.files),
            Refusal::Bomb(name) => write!(f, "{name} unpacks to far more than it could hold: the package is refused as unsafe."),
            Refusal::OutsideFolder(name) => write!(f, "{name} is not a plain path inside the package (no .., leading / or \\)."),
            Refusal::Link(name) => write!(f, "{name} is a link; a package may hold only files."),
            Refusal::Encrypted(name) => write!(f, "{name} is encrypted; export the package without a password."),
            Refusal::FileType(name) => {
                write!(f, "{name} is not a kind of file a course page uses (pages, scripts, styles, images, fonts, audio, video, PDF).")
            }
            Refusal::Damaged(name) => write!(f, "{name} is damaged in the zip. Export the package again."),
            Refusal::NoManifest => write!(f, "The package has no imsmanifest.xml at its top: is it a SCORM package?"),
            Refusal::Manifest(why) => write!(f, "imsmanifest.xml: {why}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Names some systems add to a zip that are no part of a package: skipped.
fn is_litter(path: &str) -> bool {
    path.starts_with("__MACOSX/") || matches!(path.rsplit('/').next(), Some(".DS_Store" | "Thumbs.db" | "desktop.ini"))
}

/// Where an entry named `name` goes inside the package: `Ok(None)` for a
/// folder or litter to skip, `Ok(Some(path))` for a file, or a refusal for
/// a name that leaves the folder (`..`, a leading `/`, a colon, a
/// backslash, control characters) or is not a kind of file allowed.
pub fn entry_path(name: &str) -> Result<Option<String>, Refusal> {
    let outside = || Refusal::OutsideFolder(name.chars().take(MAX_PATH_CHARS).collect());
    if name.contains('\\') || name.starts_with('/') || name.chars().any(char::is_control) || name.chars().count() > MAX_PATH_CHARS {
        return Err(outside());
    }
    let is_folder = name.ends_with('/');
    let mut parts = Vec::new();
    for part in name.trim_end_matches('/').split('/') {
        match part {
            "." => {}
            "" | ".." => return Err(outside()),
            // A drive (`C:`) or a Windows stream (`page.html:hidden`).
            part if part.contains(':') => return Err(outside()),
            part => parts.push(part),
        }
    }
    let path = parts.join("/");
    if is_folder || path.is_empty() || is_litter(&path) {
        return Ok(None);
    }
    content_type(&path).ok_or_else(|| Refusal::FileType(path.clone()))?;
    Ok(Some(path))
}

/// The `Content-Type` a package's file is served with, by its extension;
/// `None` for a kind of file no package may hold.
pub fn content_type(path: &str) -> Option<&'static str> {
    let file = path.rsplit('/').next().unwrap_or(path);
    let (_, extension) = file.rsplit_once('.')?;
    Some(match extension.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "xhtml" => "application/xhtml+xml",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "xml" | "xsd" | "dtd" => "application/xml",
        "txt" => "text/plain; charset=utf-8",
        "vtt" => "text/vtt",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "eot" => "application/vnd.ms-fontobject",
        "mp3" => "audio/mpeg",
        "m4a" => "audio/mp4",
        "wav" => "audio/wav",
        "oga" | "ogg" => "audio/ogg",
        "mp4" | "m4v" => "video/mp4",
        "webm" => "video/webm",
        "ogv" => "video/ogg",
        "pdf" => "application/pdf",
        _ => return None,
    })
}

/// Whether a file is a page the package's runtime is added to.
pub fn is_page(path: &str) -> bool {
    content_type(path).is_some_and(|kind| kind.starts_with("text/html") || kind == "application/xhtml+xml")
}

/// The running count of a package's files as they are unpacked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub files: usize,
    pub bytes: u64,
}

impl Tally {
    /// Counts one more file, of `packed` bytes in the zip said to unpack
    /// to `size`, refusing the package when that passes a limit.
    pub fn add(&mut self, path: &str, packed: u64, size: u64) -> Result<(), Refusal> {
        self.files += 1;
        if self.files > LIMITS.files {
            return Err(Refusal::TooManyFiles);
        }
        self.bytes = self.bytes.saturating_add(size);
        if self.bytes > LIMITS.unpacked_bytes {
            return Err(Refusal::UnpacksTooLarge);
        }
        if size > RATIO_FREE_BYTES && size > packed.saturating_mul(LIMITS.ratio) {
            return Err(Refusal::Bomb(path.to_owned()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
