//! A course's own files (decision 028): videos, recordings and PDFs staff
//! upload for lessons, kept in the file store under their key. Which
//! courses use a file is read from the courses' lessons, published and
//! draft, and from their materials (decision 035); a file a course uses is
//! never removed. Each upload and removal
//! writes its audit row in its own transaction.

use std::collections::BTreeMap;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::content::{ContentBody, ContentKind};
use enrol_domain::learning::course_file::is_course_file;

use crate::AuditEntry;
use crate::people::PeopleSteps;
use crate::{Db, on_pool};

/// One course file as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseFileRecord {
    /// Server-made hex, the file store's key.
    pub key: String,
    /// As content names it: `files/<key>.<extension>`.
    pub file_name: String,
    pub content_type: String,
    #[ts(type = "number")]
    pub bytes: i64,
    /// The file's name on the uploader's computer.
    pub original_name: String,
    /// The staff member's id; none for a file loaded from a content pack.
    pub uploaded_by: Option<String>,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: &str = "key, file_name, content_type, bytes, original_name, uploaded_by, created_at";

/// A course whose lessons name a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseFileUse {
    pub course_id: String,
    pub title: String,
    /// Its published lessons or its materials name the file; else only its draft does.
    pub published: bool,
}

/// What removing a course file did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CourseFileRemoved {
    /// The row is gone; its bytes are the caller's to remove.
    Removed(CourseFileRecord),
    NotFound,
    /// Kept: these courses' lessons name it.
    InUse(Vec<CourseFileUse>),
}

/// The courses whose lessons name each course file, by file name, from
/// the course documents' `(key, published, draft)`.
fn uses_of(documents: Vec<(String, Option<String>, Option<String>)>) -> BTreeMap<String, Vec<CourseFileUse>> {
    let mut uses: BTreeMap<String, Vec<CourseFileUse>> = BTreeMap::new();
    for (course_id, published, draft) in documents {
        for (json, published) in [(published, true), (draft, false)] {
            let body = json
                .and_then(|json| serde_json::from_str(&json).ok())
                .and_then(|value| ContentBody::from_json(ContentKind::Course, value).ok());
            let Some(ContentBody::Course(course)) = body else { continue };
            let Some(curriculum) = &course.learning else { continue };
            for file in curriculum.files().filter(|file| is_course_file(file)) {
                let listed = uses.entry(file.to_owned()).or_default();
                if !listed.iter().any(|known| known.course_id == course_id) {
                    listed.push(CourseFileUse { course_id: course_id.clone(), title: course.title.clone(), published });
                }
            }
        }
    }
    uses
}

const COURSE_DOCUMENTS: &str = "select key, published, draft from content_document where kind = 'course' order by key";

/// The course files the courses' materials name: `(file name, course id, course title)`.
const MATERIAL_FILES: &str = "select m.url, c.id, c.title from event_material m join event ev on ev.id = m.event_id \
     join course c on c.id = ev.course_id where m.course_file is not null order by c.id, m.position";

/// `uses` with the courses whose materials name a file, each course once.
fn with_materials(
    mut uses: BTreeMap<String, Vec<CourseFileUse>>,
    materials: Vec<(String, String, String)>,
) -> BTreeMap<String, Vec<CourseFileUse>> {
    for (file, course_id, title) in materials {
        let listed = uses.entry(file).or_default();
        match listed.iter_mut().find(|known| known.course_id == course_id) {
            Some(known) => known.published = true,
            None => listed.push(CourseFileUse { course_id, title, published: true }),
        }
    }
    uses
}

impl Db {
    /// Records a course file whose bytes are already in the file store,
    /// with its audit row (`course_file.upload`) when staff uploaded it; a
    /// file loaded from a pack that is already kept changes nothing.
    pub async fn add_course_file(&self, file: &CourseFileRecord) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(sqlx::AssertSqlSafe(format!("insert into course_file ({COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7) on conflict (key) do nothing")))
                .bind(&file.key).bind(&file.file_name).bind(&file.content_type).bind(file.bytes).bind(&file.original_name)
                .bind(&file.uploaded_by).bind(file.created_at)
                .execute(&mut *tx).await?;
            if let Some(staff) = &file.uploaded_by {
                tx.audit(&AuditEntry::new(staff, "course_file.upload", "course_file", &file.key).after(file), file.created_at).await?;
            }
            tx.commit().await?;
            Ok::<_, anyhow::Error>(())
        })
        .context("Failed to record a course file")
    }

    /// Every course file, newest first.
    pub async fn course_files(&self) -> anyhow::Result<Vec<CourseFileRecord>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("select {COLUMNS} from course_file order by created_at desc, key desc")))
            .fetch_all(pool).await)
        .context("Failed to read the course files")
    }

    /// The course file with `key`, if there is one.
    pub async fn course_file(&self, key: &str) -> anyhow::Result<Option<CourseFileRecord>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("select {COLUMNS} from course_file where key = $1"))).bind(key).fetch_optional(pool).await)
            .context("Failed to read a course file")
    }

    /// The courses whose lessons (published or draft) name each course
    /// file, by its name (`files/<key>.<ext>`).
    pub async fn course_file_uses(&self) -> anyhow::Result<BTreeMap<String, Vec<CourseFileUse>>> {
        let (documents, materials) = on_pool!(self, pool => {
            let documents = sqlx::query_as(COURSE_DOCUMENTS).fetch_all(pool).await?;
            let materials = sqlx::query_as(MATERIAL_FILES).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((documents, materials))
        })
        .context("Failed to read the courses")?;
        Ok(with_materials(uses_of(documents), materials))
    }

    /// Removes the course file `key` (`course_file.remove`) unless a
    /// course's lessons, published or draft, or its materials name it.
    pub async fn remove_course_file(&self, key: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<CourseFileRemoved> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Locks the row, so two removals take turns.
            sqlx::query("update course_file set key = key where key = $1").bind(key).execute(&mut *tx).await?;
            let file: Option<CourseFileRecord> =
                sqlx::query_as(sqlx::AssertSqlSafe(format!("select {COLUMNS} from course_file where key = $1"))).bind(key).fetch_optional(&mut *tx).await?;
            let Some(file) = file else {
                tx.rollback().await?;
                return Ok(CourseFileRemoved::NotFound);
            };
            let documents = sqlx::query_as(COURSE_DOCUMENTS).fetch_all(&mut *tx).await?;
            let materials = sqlx::query_as(MATERIAL_FILES).fetch_all(&mut *tx).await?;
            if let Some(uses) = with_materials(uses_of(documents), materials).remove(&file.file_name) {
                tx.rollback().await?;
                return Ok(CourseFileRemoved::InUse(uses));
            }
            sqlx::query("delete from course_file where key = $1").bind(key).execute(&mut *tx).await?;
            tx.audit(&AuditEntry::new(staff_id, "course_file.remove", "course_file", key).before(&file), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(CourseFileRemoved::Removed(file))
        })
        .context("Failed to remove a course file")
    }
}
