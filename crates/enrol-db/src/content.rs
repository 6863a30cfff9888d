//! The demo college's content pack in `content/`: YAML and Markdown files and
//! their images. Loading is idempotent: every row is upserted by its key, rows
//! the pack no longer has are removed, and seat counts already taken by real
//! bookings are kept.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail, ensure};
use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};

use enrol_domain::page::Hero;
use enrol_domain::site::{FileRef, FooterLogo, Image};

use crate::markdown;
use crate::{Db, on_pool};

mod catalogue;
mod editorial;
mod files;

use catalogue::{read_courses, read_sections};
use editorial::{read_blog, read_discounts, read_pages, read_people, read_site};
use files::ImageRef;

/// A parsed content pack, ready to write.
#[derive(Debug)]
pub struct ContentPack {
    statements: Vec<Statement>,
    pub counts: Counts,
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
enum Param {
    Text(String),
    OptText(Option<String>),
    Int(i64),
    OptInt(Option<i64>),
    Bool(bool),
    Date(NaiveDate),
    OptDate(Option<NaiveDate>),
    DateTime(NaiveDateTime),
}

#[derive(Debug)]
struct Statement {
    sql: String,
    params: Vec<Param>,
}

struct Reader<'a> {
    root: &'a Path,
    statements: Vec<Statement>,
    counts: Counts,
}

impl Reader<'_> {
    fn push(&mut self, sql: &str, params: Vec<Param>) {
        self.statements.push(Statement { sql: sql.to_owned(), params });
    }

    /// Removes the rows of `table` whose key is not among `keep`.
    fn sweep(&mut self, table: &str, key: &str, keep: &[String]) {
        let placeholders: Vec<String> = (1..=keep.len()).map(|i| format!("${i}")).collect();
        let sql = if keep.is_empty() {
            format!("delete from {table}")
        } else {
            format!("delete from {table} where {key} not in ({})", placeholders.join(", "))
        };
        self.statements.push(Statement { sql, params: keep.iter().cloned().map(Param::Text).collect() });
    }

    /// Adds a page to site search.
    fn index(&mut self, kind: &str, url: &str, title: &str, summary: &str, body: &str) {
        self.push(
            "insert into search_document (kind, url, title, summary, body) values ($1, $2, $3, $4, $5)",
            [kind, url, title, summary, body].into_iter().map(|v| Param::Text(v.to_owned())).collect(),
        );
    }

    fn yaml<T: serde::de::DeserializeOwned>(&self, relative: &str) -> anyhow::Result<T> {
        let path = self.root.join(relative);
        let text = std::fs::read_to_string(&path).with_context(|| format!("Failed to read {}", path.display()))?;
        serde_yaml::from_str(&text).with_context(|| format!("Failed to parse {}", path.display()))
    }

    fn image(&self, image: &ImageRef) -> anyhow::Result<Image> {
        let (width, height) = image_size(&self.root.join("images").join(&image.file))?;
        Ok(Image { url: media_url(&image.file), alt: image.alt.clone(), width, height })
    }

    fn image_json(&self, image: &ImageRef) -> anyhow::Result<Param> {
        Ok(Param::Text(serde_json::to_string(&self.image(image)?)?))
    }
}

fn media_url(file: &str) -> String {
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
    /// Reads and checks the pack in `root`; session dates are `offset_days`
    /// after `today` (London).
    pub fn read(root: &Path, today: NaiveDate) -> anyhow::Result<Self> {
        let mut r = Reader { root, statements: Vec::new(), counts: Counts::default() };
        read_site(&mut r)?;
        let sections = read_sections(&mut r)?;
        read_courses(&mut r, &sections, today)?;
        read_pages(&mut r)?;
        read_blog(&mut r)?;
        read_people(&mut r)?;
        read_discounts(&mut r)?;
        r.push(
            "insert into content_version (id, version, loaded_at) values (1, 1, current_timestamp) \
             on conflict (id) do update set version = content_version.version + 1, loaded_at = current_timestamp",
            vec![],
        );
        Ok(ContentPack { statements: r.statements, counts: r.counts })
    }

    /// Writes the pack in one transaction.
    pub async fn write(&self, db: &Db) -> anyhow::Result<()> {
        on_pool!(db, pool => {
            let mut tx = pool.begin().await.context("Failed to begin the content transaction")?;
            for statement in &self.statements {
                let mut query = sqlx::query(sqlx::AssertSqlSafe(statement.sql.clone()));
                for param in &statement.params {
                    query = match param.clone() {
                        Param::Text(v) => query.bind(v),
                        Param::OptText(v) => query.bind(v),
                        Param::Int(v) => query.bind(v),
                        Param::OptInt(v) => query.bind(v),
                        Param::Bool(v) => query.bind(v),
                        Param::Date(v) => query.bind(v),
                        Param::OptDate(v) => query.bind(v),
                        Param::DateTime(v) => query.bind(v),
                    };
                }
                query.execute(&mut *tx).await.with_context(|| format!("Failed to load content: {}", statement.sql))?;
            }
            tx.commit().await.context("Failed to commit the content")
        })
    }
}
