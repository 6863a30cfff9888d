//! The pack's images: its own SVGs below `images/`, whose sizes content
//! reads, and the uploaded images it carries (`media.yaml`), kept below
//! `images/uploads/` under their file store keys.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context as _, ensure};

use crate::content::projection::ImageSizes;

/// The sizes of the images content names: the pack's own SVGs, in
/// `images/` beside it, and uploads (`uploads/<key>.<ext>`) by their
/// media library record.
pub struct PackImages<'a> {
    pub root: &'a Path,
    pub uploads: HashMap<String, (u32, u32)>,
}

impl ImageSizes for PackImages<'_> {
    fn size(&self, file: &str) -> anyhow::Result<(u32, u32)> {
        if file.starts_with(UPLOADS) {
            return self.uploads.get(file).copied().with_context(|| format!("No uploaded image {file:?}"));
        }
        anyhow::ensure!(!file.split('/').any(|part| part == ".." || part.is_empty()), "Bad image file name {file:?}");
        image_size(&self.root.join("images").join(file))
    }
}

/// Where uploaded images are, below `/media/` and a pack's `images/`.
pub const UPLOADS: &str = "uploads/";

/// An uploaded image a pack carries, as `media.yaml` lists it: its file
/// below `images/` (`uploads/<key>.<ext>`, the name content knows it by),
/// its alt text and, when known, the name it was uploaded with.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackMedia {
    pub file: String,
    pub alt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl PackMedia {
    /// The file store key and the extension in its file name, if it is an
    /// upload's name.
    pub fn key_and_extension(&self) -> Option<(&str, &str)> {
        upload_key(self.file.strip_prefix(UPLOADS)?)
    }
}

/// The file store key and the extension of an uploaded image's name below
/// `uploads/` (`<hex key>.<extension>`), if it is one.
pub fn upload_key(name: &str) -> Option<(&str, &str)> {
    let (key, extension) = name.split_once('.')?;
    (!key.is_empty() && key.bytes().all(|b| b.is_ascii_hexdigit())).then_some((key, extension))
}

/// The uploaded images the pack in `root` carries: none without a
/// `media.yaml`.
pub fn pack_media(root: &Path) -> anyhow::Result<Vec<PackMedia>> {
    let path = root.join("media.yaml");
    if !path.exists() {
        return Ok(Vec::new());
    }
    let listed: Vec<PackMedia> =
        serde_yaml::from_str(&std::fs::read_to_string(&path).with_context(|| format!("Failed to read {}", path.display()))?)
            .with_context(|| format!("Failed to parse {}", path.display()))?;
    for item in &listed {
        ensure!(
            item.key_and_extension().is_some(),
            "{}: {:?} is not an uploaded image's name (uploads/<hex key>.<extension>)",
            path.display(),
            item.file
        );
    }
    Ok(listed)
}

/// An image of the pack itself (below `images/`, outside `uploads/`) that
/// content may name: its file name there and its size.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PackImage {
    pub file_name: String,
    pub width: u32,
    pub height: u32,
}

/// Every image of the pack in `root` that content may name (those whose
/// size [`PackImages`] can read), sorted by file name.
pub fn pack_images(root: &Path) -> anyhow::Result<Vec<PackImage>> {
    let images = root.join("images");
    let mut found = Vec::new();
    let mut folders = vec![images.clone()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries {
            let path = entry.with_context(|| format!("Failed to list {}", folder.display()))?.path();
            let Some(file_name) = path.strip_prefix(&images).ok().and_then(Path::to_str).map(|name| name.replace('\\', "/")) else {
                continue;
            };
            if path.is_dir() {
                if format!("{file_name}/") != UPLOADS {
                    folders.push(path);
                }
            } else if let Ok((width, height)) = image_size(&path) {
                found.push(PackImage { file_name, width, height });
            }
        }
    }
    found.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    Ok(found)
}

pub(crate) fn media_url(file: &str) -> String {
    format!("/media/{file}")
}

/// Width and height from the root `<svg>` element's attributes.
fn image_size(path: &Path) -> anyhow::Result<(u32, u32)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("Missing image {}", path.display()))?;
    let start = text.find("<svg").with_context(|| format!("{} is not an SVG", path.display()))?;
    let tag = &text[start..start + text[start..].find('>').unwrap_or(text.len() - start)];
    let attribute = |name: &str| -> anyhow::Result<u32> {
        let needle = format!(" {name}=\"");
        let from = tag.find(&needle).with_context(|| format!("{} has no {name} attribute", path.display()))? + needle.len();
        let value = &tag[from..from + tag[from..].find('"').unwrap_or(0)];
        value.trim_end_matches("px").parse().with_context(|| format!("{} has a bad {name}: {value:?}", path.display()))
    };
    Ok((attribute("width")?, attribute("height")?))
}
