//! The demo college's content pack in `content/`: YAML and Markdown files and
//! their images (decision 018). Each file, or entry of a list file, is a
//! content document; loading writes a document, its first revision and its
//! projection only where the database has no document of that kind and
//! key, so it fills an empty database and never overwrites what staff
//! edited. The sessions, upsells and discount codes it seeds are written
//! only where their keys are new, for the same reason.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail, ensure};
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use enrol_domain::content::{ContentBody, ContentKind};

use crate::{Db, MediaRecord, on_pool};

mod catalogue;
mod editorial;
mod export;
mod files;
mod images;

use super::projection::project;
use crate::content::ContentSteps;
use catalogue::{read_courses, read_sections};
use editorial::{read_blog, read_discounts, read_pages, read_people, read_site};
pub use export::export;
pub(crate) use images::media_url;
pub use images::{PackImage, PackImages, PackMedia, UPLOADS, pack_images, pack_media, upload_key};

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
