//! A course's SCORM package and what its runtime commits (decision 026):
//! the package's manifest and files (their bytes are in the file store),
//! the launches that open them to a student, and the `cmi` values kept
//! per student and course, with when they first completed it.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::learning::scorm::runtime::Cmi;

use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool};

/// A course's package as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PackageRecord {
    pub course_id: String,
    pub id: String,
    /// `1.2` or `2004`.
    pub version: String,
    pub title: String,
    pub launch: String,
    #[ts(type = "number")]
    pub files: i64,
    #[ts(type = "number")]
    pub bytes: i64,
    pub original_name: String,
    /// The staff member's id; none for a package loaded from the content pack.
    pub uploaded_by: Option<String>,
    pub uploaded_at: DateTime<Utc>,
}

const PACKAGE_COLUMNS: &str = "course_id, id, version, title, launch, files, bytes, original_name, uploaded_by, uploaded_at";

/// One file of a package, its bytes in the file store under `file_key`.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PackageFile {
    pub path: String,
    pub file_key: String,
    pub content_type: String,
    pub bytes: i64,
}

/// A student's opening of a package: its token's hash is in the
/// addresses of the package's files.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PackageLaunch {
    pub token_hash: String,
    /// The hash of the session it was opened in.
    pub session_hash: String,
    pub user_id: String,
    pub course_id: String,
    pub expires_at: DateTime<Utc>,
}

/// What a package's runtime committed for a student.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CmiRecord {
    pub package_id: String,
    pub cmi: Cmi,
    pub completed_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct CmiRow {
    package_id: String,
    lesson_status: Option<String>,
    completion_status: Option<String>,
    success_status: Option<String>,
    progress_measure: Option<String>,
    score_raw: Option<String>,
    score_min: Option<String>,
    score_max: Option<String>,
    score_scaled: Option<String>,
    location: Option<String>,
    suspend_data: Option<String>,
    session_time: Option<String>,
    total_time: Option<String>,
    completed_at: Option<DateTime<Utc>>,
}

const CMI_COLUMNS: &str = "lesson_status, completion_status, success_status, progress_measure, score_raw, score_min, score_max, \
     score_scaled, location, suspend_data, session_time, total_time";

impl From<CmiRow> for CmiRecord {
    fn from(row: CmiRow) -> Self {
        CmiRecord {
            package_id: row.package_id,
            completed_at: row.completed_at,
            cmi: Cmi {
                lesson_status: row.lesson_status,
                completion_status: row.completion_status,
                success_status: row.success_status,
                progress_measure: row.progress_measure,
                score_raw: row.score_raw,
                score_min: row.score_min,
                score_max: row.score_max,
                score_scaled: row.score_scaled,
                location: row.location,
                suspend_data: row.suspend_data,
                session_time: row.session_time,
                total_time: row.total_time,
            },
        }
    }
}

impl Db {
    /// The package of `course_id`, if it is taught by one.
    pub async fn course_package(&self, course_id: &str) -> anyhow::Result<Option<PackageRecord>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("select {PACKAGE_COLUMNS} from scorm_package where course_id = $1")))
            .bind(course_id).fetch_optional(pool).await)
        .context("Failed to read the course's SCORM package")
    }

    /// Every course's package, by course.
    pub async fn packages(&self) -> anyhow::Result<Vec<PackageRecord>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("select {PACKAGE_COLUMNS} from scorm_package order by course_id")))
            .fetch_all(pool).await)
        .context("Failed to read the SCORM packages")
    }

    /// The file at `path` in the package `package_id`.
    pub async fn package_file(&self, package_id: &str, path: &str) -> anyhow::Result<Option<PackageFile>> {
        on_pool!(self, pool => sqlx::query_as(
            "select path, file_key, content_type, bytes from scorm_file where package_id = $1 and path = $2"
        ).bind(package_id).bind(path).fetch_optional(pool).await)
        .context("Failed to read a SCORM package's file")
    }

    /// Every file of the package `package_id`, by path.
    pub async fn package_files(&self, package_id: &str) -> anyhow::Result<Vec<PackageFile>> {
        on_pool!(self, pool => sqlx::query_as(
            "select path, file_key, content_type, bytes from scorm_file where package_id = $1 order by path"
        ).bind(package_id).fetch_all(pool).await)
        .context("Failed to read a SCORM package's files")
    }

    /// Makes `package`, whose files' bytes are already in the file store,
    /// the package of its course, in place of any before it, with its
    /// audit row (`scorm.upload`) when staff uploaded it. The file store
    /// keys of the package replaced, whose bytes nothing names any more.
    pub async fn replace_package(&self, package: &PackageRecord, files: &[PackageFile]) -> anyhow::Result<Vec<String>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let before: Option<PackageRecord> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select {PACKAGE_COLUMNS} from scorm_package where course_id = $1"
            ))).bind(&package.course_id).fetch_optional(&mut *tx).await?;
            let mut replaced = Vec::new();
            if let Some(before) = &before {
                replaced = sqlx::query_scalar("delete from scorm_file where package_id = $1 returning file_key")
                    .bind(&before.id).fetch_all(&mut *tx).await?;
                sqlx::query("delete from scorm_package where course_id = $1").bind(&before.course_id).execute(&mut *tx).await?;
            }
            sqlx::query(
                "insert into scorm_package (course_id, id, version, title, launch, files, bytes, original_name, uploaded_by, uploaded_at) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
            ).bind(&package.course_id).bind(&package.id).bind(&package.version).bind(&package.title).bind(&package.launch)
                .bind(package.files).bind(package.bytes).bind(&package.original_name).bind(&package.uploaded_by)
                .bind(package.uploaded_at).execute(&mut *tx).await?;
            for file in files {
                sqlx::query("insert into scorm_file (package_id, path, file_key, content_type, bytes) values ($1, $2, $3, $4, $5)")
                    .bind(&package.id).bind(&file.path).bind(&file.file_key).bind(&file.content_type).bind(file.bytes)
                    .execute(&mut *tx).await?;
            }
            if let Some(staff) = &package.uploaded_by {
                let entry = AuditEntry::new(staff, "scorm.upload", "course", &package.course_id).after(package);
                let entry = match &before { Some(before) => entry.before(before), None => entry };
                tx.audit(&entry, package.uploaded_at).await?;
            }
            tx.commit().await?;
            Ok::<_, anyhow::Error>(replaced)
        })
        .context("Failed to keep the SCORM package")
    }

    /// Keeps a launch of `course_id`'s package for `user_id`, signed in
    /// with the session hashed as `session_hash`, by its token's hash,
    /// dropping their launches that have expired.
    pub async fn start_launch(&self, launch: &PackageLaunch, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("delete from scorm_launch where user_id = $1 and expires_at <= $2").bind(&launch.user_id).bind(now).execute(&mut *tx).await?;
            sqlx::query("insert into scorm_launch (token_hash, session_hash, user_id, course_id, expires_at) values ($1, $2, $3, $4, $5)")
                .bind(&launch.token_hash).bind(&launch.session_hash).bind(&launch.user_id).bind(&launch.course_id).bind(launch.expires_at)
                .execute(&mut *tx).await?;
            tx.commit().await
        })
        .context("Failed to keep the launch")
    }

    /// The unexpired launch of `course_id` whose token is hashed as `token_hash`.
    pub async fn package_launch(&self, token_hash: &str, course_id: &str, now: DateTime<Utc>) -> anyhow::Result<Option<PackageLaunch>> {
        on_pool!(self, pool => sqlx::query_as(
            "select token_hash, session_hash, user_id, course_id, expires_at from scorm_launch \
             where token_hash = $1 and course_id = $2 and expires_at > $3"
        ).bind(token_hash).bind(course_id).bind(now).fetch_optional(pool).await)
        .context("Failed to read the launch")
    }

    /// What the package's runtime last committed for `user_id` in `course_id`.
    pub async fn course_cmi(&self, user_id: &str, course_id: &str) -> anyhow::Result<Option<CmiRecord>> {
        let row: Option<CmiRow> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select package_id, {CMI_COLUMNS}, completed_at from scorm_cmi where user_id = $1 and course_id = $2"
        ))).bind(user_id).bind(course_id).fetch_optional(pool).await)
        .context("Failed to read the student's SCORM progress")?;
        Ok(row.map(CmiRecord::from))
    }

    /// Keeps `cmi`, checked, as what `user_id` has of `course_id`'s package
    /// `package_id`; `completes` notes the course completed at `now`
    /// unless it already was. What is kept afterwards.
    pub async fn commit_cmi(
        &self,
        user_id: &str,
        course_id: &str,
        package_id: &str,
        cmi: &Cmi,
        completes: bool,
        now: DateTime<Utc>,
    ) -> anyhow::Result<CmiRecord> {
        let completed_at = completes.then_some(now);
        let _turn = self.write_turn().await;
        let row: CmiRow = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "insert into scorm_cmi (user_id, course_id, package_id, {CMI_COLUMNS}, committed_at, completed_at) \
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) \
             on conflict (user_id, course_id) do update set package_id = excluded.package_id, \
             lesson_status = excluded.lesson_status, completion_status = excluded.completion_status, \
             success_status = excluded.success_status, progress_measure = excluded.progress_measure, \
             score_raw = excluded.score_raw, score_min = excluded.score_min, score_max = excluded.score_max, \
             score_scaled = excluded.score_scaled, location = excluded.location, suspend_data = excluded.suspend_data, \
             session_time = excluded.session_time, total_time = excluded.total_time, committed_at = excluded.committed_at, \
             completed_at = coalesce(scorm_cmi.completed_at, excluded.completed_at) \
             returning package_id, {CMI_COLUMNS}, completed_at"
        ))).bind(user_id).bind(course_id).bind(package_id)
            .bind(&cmi.lesson_status).bind(&cmi.completion_status).bind(&cmi.success_status).bind(&cmi.progress_measure)
            .bind(&cmi.score_raw).bind(&cmi.score_min).bind(&cmi.score_max).bind(&cmi.score_scaled)
            .bind(&cmi.location).bind(&cmi.suspend_data).bind(&cmi.session_time).bind(&cmi.total_time)
            .bind(now).bind(completed_at).fetch_one(pool).await)
        .context("Failed to keep what the SCORM package committed")?;
        Ok(row.into())
    }
}
