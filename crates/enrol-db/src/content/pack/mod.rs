//! The demo college's content pack in `content/`: YAML and Markdown files and
//! their images (decision 018). Each file, or entry of a list file, is a
//! content document; loading writes a document, its first revision and its
//! projection only where the database has no document of that kind and
//! key, so it fills an empty database and never overwrites what staff
//! edited. The sessions, upsells and discount codes it seeds are written
//! only where their keys are new, for the same reason.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail, ensure};
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use enrol_domain::content::{ContentBody, ContentKind};

use crate::{Db, MediaRecord, on_pool};

mod catalogue;
mod editorial;
mod export;
mod files;

use super::projection::{ImageSizes, project};
use crate::content::ContentSteps;
use catalogue::{read_courses, read_sections};
use editorial::{read_blog, read_discounts, read_pages, read_people, read_site};
pub use export::export;

/// A parsed content pack, ready to write.
#[derive(Debug)]
pub struct ContentPack {
    root: PathBuf,
    documents: Vec<Document>,
    /// The uploaded images it carries (`media.yaml`), cleaned by the caller.
    media: Vec<MediaRecord>,
    /// What the pack seeds beside the documents, each written only if new.
    seeds: Vec<Statement>,
    pub counts: Counts,
}

/// One content document: its kind, key and body.
#[derive(Debug, Clone)]
pub struct Document {
    pub key: String,
    pub body: ContentBody,
}

impl Document {
    pub fn kind(&self) -> ContentKind {
        self.body.kind()
    }
}

/// How many documents and seeds a load wrote: none when the database had
/// them all.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Loaded {
    pub documents: u64,
    pub seeds: u64,
    pub media: u64,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub sections: usize,
    pub in_person_courses: usize,
    pub online_courses: usize,
    pub sessions: usize,
    pub upsells: usize,
    pub blog_posts: usize,
    pub pages: usize,
}

/// One value bound to a statement.
#[derive(Debug, Clone)]
pub(crate) enum Param {
    Text(String),
    OptText(Option<String>),
    Int(i64),
    OptInt(Option<i64>),
    Bool(bool),
    Date(NaiveDate),
    OptDate(Option<NaiveDate>),
    DateTime(NaiveDateTime),
    Timestamp(DateTime<Utc>),
}

/// One statement of a projection or a seed, with its values.
#[derive(Debug)]
pub struct Statement {
    pub(crate) sql: String,
    pub(crate) params: Vec<Param>,
}

struct Reader<'a> {
    root: &'a Path,
    documents: Vec<Document>,
    seeds: Vec<Statement>,
    counts: Counts,
}

impl Reader<'_> {
    fn document(&mut self, key: impl Into<String>, body: ContentBody) {
        self.documents.push(Document { key: key.into(), body });
    }

    /// A seed: an insert that does nothing when its key is there.
    fn seed(&mut self, sql: &str, params: Vec<Param>) {
        self.seeds.push(Statement { sql: sql.to_owned(), params });
    }

    fn text(&self, relative: &str) -> anyhow::Result<String> {
        let path = self.root.join(relative);
        std::fs::read_to_string(&path).with_context(|| format!("Failed to read {}", path.display()))
    }

    fn yaml<T: serde::de::DeserializeOwned>(&self, relative: &str) -> anyhow::Result<T> {
        serde_yaml::from_str(&self.text(relative)?).with_context(|| format!("Failed to parse {}", self.root.join(relative).display()))
    }
}

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

/// `*.yaml` or `*.md` files of a folder, sorted by name.
fn files(folder: &Path, extension: &str) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).with_context(|| format!("Failed to list {}", folder.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == extension) {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

fn slug_of(path: &Path) -> anyhow::Result<String> {
    path.file_stem().and_then(|s| s.to_str()).map(str::to_owned).context("File name is not UTF-8")
}

/// Splits `---\nfront matter\n---\nbody`.
fn front_matter<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<(T, String)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
    let rest = text.strip_prefix("---\n").with_context(|| format!("{} has no front matter", path.display()))?;
    let end = rest.find("\n---\n").with_context(|| format!("{} has unterminated front matter", path.display()))?;
    let front = serde_yaml::from_str(&rest[..end]).with_context(|| format!("Failed to parse the front matter of {}", path.display()))?;
    Ok((front, rest[end + 5..].to_owned()))
}

impl ContentPack {
    /// Reads and checks the pack in `root` with the uploaded images it
    /// carries, cleaned ([`pack_media`]); session dates are `offset_days`
    /// after `today` (London).
    pub fn read(root: &Path, today: NaiveDate, media: Vec<MediaRecord>) -> anyhow::Result<Self> {
        let mut r = Reader { root, documents: Vec::new(), seeds: Vec::new(), counts: Counts::default() };
        read_site(&mut r)?;
        let sections = read_sections(&mut r)?;
        read_courses(&mut r, &sections, today)?;
        read_pages(&mut r)?;
        read_blog(&mut r)?;
        read_people(&mut r)?;
        read_discounts(&mut r)?;
        let pack = ContentPack { root: root.to_owned(), documents: r.documents, media, seeds: r.seeds, counts: r.counts };
        let images = pack.images();
        for document in &pack.documents {
            let errors = document.body.check(&document.key);
            ensure!(errors.is_empty(), "{} {}: {errors:?}", document.kind().as_str(), document.key);
            project(&document.key, &document.body, &images, Utc::now())
                .with_context(|| format!("In {} {}", document.kind().as_str(), document.key))?;
        }
        Ok(pack)
    }

    fn images(&self) -> PackImages<'_> {
        let uploads = self.media.iter().map(|m| (m.file_name.clone(), (m.width.try_into().unwrap_or(0), m.height.try_into().unwrap_or(0))));
        PackImages { root: &self.root, uploads: uploads.collect() }
    }

    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// Writes, in one transaction, each document the database does not
    /// have (with its first revision and its rows) and each seed whose key
    /// is new; the content version moves when anything was written.
    pub async fn write(&self, db: &Db) -> anyhow::Result<Loaded> {
        let now = Utc::now();
        let images = self.images();
        let mut loaded = Loaded::default();
        let _turn = db.write_turn().await;
        on_pool!(db, pool => {
            let mut tx = pool.begin().await.context("Failed to begin the content transaction")?;
            for media in &self.media {
                loaded.media += tx.insert_media(media, "on conflict (key) do nothing").await?;
            }
            for document in &self.documents {
                let body = serde_json::to_string(&document.body)?;
                let added = sqlx::query(
                    "insert into content_document (kind, key, published, version, updated_at) values ($1, $2, $3, 1, $4) \
                     on conflict (kind, key) do nothing"
                ).bind(document.kind().as_str()).bind(&document.key).bind(&body).bind(now).execute(&mut *tx).await?.rows_affected();
                if added == 0 {
                    continue;
                }
                sqlx::query(
                    "insert into content_revision (kind, key, version, body, action, created_at) values ($1, $2, 1, $3, 'load', $4)"
                ).bind(document.kind().as_str()).bind(&document.key).bind(&body).bind(now).execute(&mut *tx).await?;
                tx.run_statements(&project(&document.key, &document.body, &images, now)?).await?;
                loaded.documents += 1;
            }
            for seed in &self.seeds {
                loaded.seeds += tx.run_statements(std::slice::from_ref(seed)).await?;
            }
            if loaded != Loaded::default() {
                sqlx::query(
                    "insert into content_version (id, version, loaded_at) values (1, 1, $1) \
                     on conflict (id) do update set version = content_version.version + 1, loaded_at = $1"
                ).bind(now).execute(&mut *tx).await?;
            }
            tx.commit().await.context("Failed to commit the content")?;
            Ok::<_, anyhow::Error>(())
        })?;
        Ok(loaded)
    }
}
