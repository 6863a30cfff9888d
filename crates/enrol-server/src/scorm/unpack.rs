//! A SCORM package's zip read within limits (decision 026): every entry
//! is checked by `enrol_domain::learning::scorm::package` before its
//! bytes are read, and its bytes are read no further than it said they
//! were, so a header that lies is caught too. Nothing is written here: the
//! caller keeps the files only once the whole package passed.

use std::collections::HashSet;
use std::io::{Cursor, Read as _, Write as _};
use std::path::Path;

use anyhow::Context as _;
use zip::ZipArchive;
use zip::write::SimpleFileOptions;

use enrol_domain::learning::scorm::manifest::{self, Manifest};
use enrol_domain::learning::scorm::package::{LIMITS, Refusal, Tally, content_type, entry_path};

/// The manifest's name at the package's top.
pub const MANIFEST: &str = "imsmanifest.xml";

/// A package that passed: what its manifest says, and its files.
#[derive(Debug)]
pub struct Unpacked {
    pub manifest: Manifest,
    pub files: Vec<UnpackedFile>,
}

#[derive(Debug)]
pub struct UnpackedFile {
    pub path: String,
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

/// Reads the zip `bytes` into a package, or the first reason to refuse it.
pub fn unpack(bytes: &[u8]) -> Result<Unpacked, Refusal> {
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > LIMITS.upload_bytes {
        return Err(Refusal::UploadTooLarge);
    }
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(|_| Refusal::NotAZip)?;
    // Folders and litter are entries too, so twice the files allowed is
    // certainly too many, before any is read.
    if archive.len() > 2 * LIMITS.files {
        return Err(Refusal::TooManyFiles);
    }
    let mut tally = Tally::default();
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(|error| match error {
            zip::result::ZipError::UnsupportedArchive(why) if why.contains("assword") => Refusal::Encrypted(format!("File {}", index + 1)),
            _ => Refusal::Damaged(format!("File {}", index + 1)),
        })?;
        let name = entry.name().map_err(|_| Refusal::Damaged(format!("File {}", index + 1)))?.into_owned();
        if entry.is_symlink() {
            return Err(Refusal::Link(name));
        }
        let Some(path) = entry_path(&name)? else { continue };
        if entry.encrypted() {
            return Err(Refusal::Encrypted(path));
        }
        if !seen.insert(path.clone()) {
            return Err(Refusal::Damaged(path));
        }
        let size = entry.size();
        tally.add(&path, entry.compressed_size(), size)?;
        let mut content = Vec::with_capacity(usize::try_from(size.min(1024 * 1024)).unwrap_or(0));
        entry.by_ref().take(size.saturating_add(1)).read_to_end(&mut content).map_err(|_| Refusal::Damaged(path.clone()))?;
        if u64::try_from(content.len()).ok() != Some(size) {
            return Err(Refusal::Damaged(path));
        }
        let content_type = content_type(&path).ok_or_else(|| Refusal::FileType(path.clone()))?;
        files.push(UnpackedFile { path, content_type, bytes: content });
    }
    let manifest = files.iter().find(|file| file.path == MANIFEST).ok_or(Refusal::NoManifest)?;
    let manifest = manifest::parse(&manifest.bytes)?;
    if !files.iter().any(|file| file.path == manifest.launch_file()) {
        return Err(Refusal::Manifest(format!("its launch page {} is not in the package.", manifest.launch_file())));
    }
    Ok(Unpacked { manifest, files })
}

/// The files below `folder` as a zip, to be unpacked as an upload is: the
/// content pack's package goes through the same checks. A link is refused.
pub fn pack_folder(folder: &Path) -> anyhow::Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let mut pending = vec![folder.to_owned()];
    while let Some(dir) = pending.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .with_context(|| format!("Failed to read {}", dir.display()))?
            .collect::<Result<_, _>>()
            .with_context(|| format!("Failed to read {}", dir.display()))?;
        entries.sort_by_key(std::fs::DirEntry::path);
        for entry in entries {
            let path = entry.path();
            let kind = entry.file_type().with_context(|| format!("Failed to read {}", path.display()))?;
            anyhow::ensure!(!kind.is_symlink(), "{} is a link; a package holds only files", path.display());
            if kind.is_dir() {
                pending.push(path);
                continue;
            }
            let name = path.strip_prefix(folder).context("below the folder")?;
            let name = name.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            zip.start_file(name, options).context("Failed to zip the package")?;
            zip.write_all(&std::fs::read(&path).with_context(|| format!("Failed to read {}", path.display()))?)?;
        }
    }
    Ok(zip.finish().context("Failed to zip the package")?.into_inner())
}

#[cfg(test)]
mod tests;
