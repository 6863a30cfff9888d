//! The steps of discount codes inside a caller's transaction, on either
//! engine ([`crate::for_both_engines!`]): a code's uses counted and given
//! back where orders hold them, and a code read and its limits written
//! where staff set it up.

use enrol_domain::codes::CodeTerms;

use crate::codes::discount::CodeRow;
use crate::codes::setup::{CodeRows, assemble};
use crate::{CodeRecord, CodeSaved, for_both_engines};

pub(crate) trait CodeSteps {
    /// Counts one use of `code` unless it is used up: the conditional
    /// update is the check, so no two orders take the last use.
    async fn reserve_code(&mut self, code: &str) -> sqlx::Result<bool>;

    /// Gives back the use of its code that order `id` holds, once.
    async fn release_code(&mut self, id: &str) -> sqlx::Result<()>;

    /// The codes (every one, or only `only`) with their limits: the code
    /// rows and the `(code, course id)` and `(code, section slug)` pairs,
    /// for [`assemble`].
    async fn read_codes(&mut self, only: Option<&str>) -> sqlx::Result<CodeRows>;

    /// `code` with its limits.
    async fn read_code(&mut self, code: &str) -> anyhow::Result<Option<CodeRecord>>;

    /// Why `terms` cannot be saved: a course or section listed that the
    /// college does not have; `None` when every one exists.
    async fn unknown_limit(&mut self, terms: &CodeTerms) -> sqlx::Result<Option<CodeSaved>>;

    /// Makes `terms`' courses and sections the only limits of `code`.
    async fn write_limits(&mut self, code: &str, terms: &CodeTerms) -> sqlx::Result<()>;
}

for_both_engines! {
    impl CodeSteps {
        async fn reserve_code(&mut self, code: &str) -> sqlx::Result<bool> {
            let done = sqlx::query("update discount_code set uses = uses + 1 where code = $1 and active and (max_uses is null or uses < max_uses)")
                .bind(code)
                .execute(&mut *self)
                .await?;
            Ok(done.rows_affected() == 1)
        }

        async fn release_code(&mut self, id: &str) -> sqlx::Result<()> {
            let code: Option<Option<String>> =
                sqlx::query_scalar("update enrollment set code_reserved = false where id = $1 and code_reserved returning discount_code")
                    .bind(id)
                    .fetch_optional(&mut *self)
                    .await?;
            if let Some(Some(code)) = code {
                sqlx::query("update discount_code set uses = uses - 1 where code = $1 and uses > 0").bind(code).execute(&mut *self).await?;
            }
            Ok(())
        }

        async fn read_codes(&mut self, only: Option<&str>) -> sqlx::Result<CodeRows> {
            let rows: Vec<CodeRow> = sqlx::query_as(
                "select code, type, value, expires_on, max_uses, uses, active from discount_code \
                 where $1 is null or code = $1 order by code",
            )
            .bind(only)
            .fetch_all(&mut *self)
            .await?;
            let courses: Vec<(String, String)> =
                sqlx::query_as("select code, course_id from discount_code_course where $1 is null or code = $1 order by course_id")
                    .bind(only)
                    .fetch_all(&mut *self)
                    .await?;
            let sections: Vec<(String, String)> =
                sqlx::query_as("select code, section_slug from discount_code_section where $1 is null or code = $1 order by section_slug")
                    .bind(only)
                    .fetch_all(&mut *self)
                    .await?;
            Ok((rows, courses, sections))
        }

        async fn read_code(&mut self, code: &str) -> anyhow::Result<Option<CodeRecord>> {
            Ok(assemble(self.read_codes(Some(code)).await?)?.into_iter().next())
        }

        async fn unknown_limit(&mut self, terms: &CodeTerms) -> sqlx::Result<Option<CodeSaved>> {
            for id in &terms.course_ids {
                let found: i64 = sqlx::query_scalar("select count(*) from course where id = $1").bind(id).fetch_one(&mut *self).await?;
                if found == 0 {
                    return Ok(Some(CodeSaved::UnknownCourse(id.clone())));
                }
            }
            for slug in &terms.section_slugs {
                let found: i64 = sqlx::query_scalar("select count(*) from section where slug = $1").bind(slug).fetch_one(&mut *self).await?;
                if found == 0 {
                    return Ok(Some(CodeSaved::UnknownSection(slug.clone())));
                }
            }
            Ok(None)
        }

        async fn write_limits(&mut self, code: &str, terms: &CodeTerms) -> sqlx::Result<()> {
            sqlx::query("delete from discount_code_course where code = $1").bind(code).execute(&mut *self).await?;
            sqlx::query("delete from discount_code_section where code = $1").bind(code).execute(&mut *self).await?;
            for id in &terms.course_ids {
                sqlx::query("insert into discount_code_course (code, course_id) values ($1, $2)")
                    .bind(code)
                    .bind(id)
                    .execute(&mut *self)
                    .await?;
            }
            for slug in &terms.section_slugs {
                sqlx::query("insert into discount_code_section (code, section_slug) values ($1, $2)")
                    .bind(code)
                    .bind(slug)
                    .execute(&mut *self)
                    .await?;
            }
            Ok(())
        }
    }
}
