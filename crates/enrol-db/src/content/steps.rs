//! The steps of content inside a caller's transaction, on either engine
//! ([`crate::for_both_engines!`]): the content version bumped, a
//! projection's statements run, a course's sections checked and an image
//! recorded.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::content::ContentBody;

use crate::content::media::MEDIA_COLUMNS;
use crate::content::projection::course_url;
use crate::content::{Param, Statement};
use crate::{ContentRefused, MediaRecord, for_both_engines};

pub(crate) trait ContentSteps {
    /// Bumps the content version, in the transaction of a change staff made
    /// to what the catalogue keeps per content version (dates, prices,
    /// offers): every instance reads the catalogue again and drops its
    /// cached pages.
    async fn content_changed(&mut self, now: DateTime<Utc>) -> sqlx::Result<()>;

    /// Runs `statements`; the rows they changed.
    async fn run_statements(&mut self, statements: &[Statement]) -> anyhow::Result<u64>;

    /// The refusal for a course `key` whose section is not on the site, or
    /// whose address is another course's, if `body` is one.
    async fn refused_course(&mut self, key: &str, body: &ContentBody) -> sqlx::Result<Option<ContentRefused>>;

    /// Inserts `media` with `conflict`'s clause (none, or `on conflict …`):
    /// the upload's insert and the pack load's are one statement. The rows
    /// it wrote.
    async fn insert_media(&mut self, media: &MediaRecord, conflict: &'static str) -> sqlx::Result<u64>;
}

for_both_engines! {
    impl ContentSteps {
        async fn content_changed(&mut self, now: DateTime<Utc>) -> sqlx::Result<()> {
            sqlx::query("update content_version set version = version + 1, loaded_at = $1 where id = 1").bind(now).execute(&mut *self).await?;
            Ok(())
        }

        async fn run_statements(&mut self, statements: &[Statement]) -> anyhow::Result<u64> {
            let mut changed = 0u64;
            for statement in statements {
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
                        Param::Timestamp(v) => query.bind(v),
                    };
                }
                changed +=
                    query.execute(&mut *self).await.with_context(|| format!("Failed to write content: {}", statement.sql))?.rows_affected();
            }
            Ok(changed)
        }

        async fn refused_course(&mut self, key: &str, body: &ContentBody) -> sqlx::Result<Option<ContentRefused>> {
            if let ContentBody::Course(course) = body {
                for slug in std::iter::once(&course.section).chain(&course.also_in) {
                    let known: Option<String> =
                        sqlx::query_scalar("select slug from section where slug = $1").bind(slug).fetch_optional(&mut *self).await?;
                    if known.is_none() {
                        return Ok(Some(ContentRefused::Field("section", "Choose a section the site has.")));
                    }
                }
                let taken: Option<String> = sqlx::query_scalar("select id from course where url = $1 and id <> $2")
                    .bind(course_url(key, course)).bind(key).fetch_optional(&mut *self).await?;
                if taken.is_some() {
                    return Ok(Some(ContentRefused::Field("slug", "Another course has this address: choose another slug.")));
                }
            }
            Ok(None)
        }

        async fn insert_media(&mut self, media: &MediaRecord, conflict: &'static str) -> sqlx::Result<u64> {
            let done = sqlx::query(sqlx::AssertSqlSafe(format!(
                "insert into media ({MEDIA_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) {conflict}"
            )))
            .bind(&media.key)
            .bind(&media.file_name)
            .bind(&media.content_type)
            .bind(media.width)
            .bind(media.height)
            .bind(media.bytes)
            .bind(&media.alt)
            .bind(&media.original_name)
            .bind(&media.uploaded_by)
            .bind(media.created_at)
            .execute(&mut *self)
            .await?;
            Ok(done.rows_affected())
        }
    }
}
