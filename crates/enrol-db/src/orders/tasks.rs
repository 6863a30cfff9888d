//! A paid booking's tasks before training (issue 29, decision 032): the
//! forms and documents each of its courses asks for (`course.readiness`),
//! made once per booking, course and form or document by the transaction
//! that records the booking fee, whichever way the payment arrived;
//! closed, not deleted, when the booking is cancelled.

use chrono::{DateTime, Utc};

use enrol_domain::enrollment::BookedCourse;
use enrol_domain::readiness::Requirements;

use crate::{for_both_engines, public_id};

pub(crate) trait TaskSteps {
    /// Gives the booking `enrollment_id` (of `user_id`, when it has joined
    /// an account) the forms and document requests each of `courses` asks
    /// for; those it has already stay as they are.
    async fn create_tasks(
        &mut self,
        enrollment_id: &str,
        courses: &[BookedCourse],
        user_id: Option<&str>,
        now: DateTime<Utc>,
    ) -> sqlx::Result<()>;

    /// Closes the booking's tasks at `now`: nothing more is asked or reminded.
    async fn close_tasks(&mut self, enrollment_id: &str, now: DateTime<Utc>) -> sqlx::Result<()>;
}

for_both_engines! {
    impl TaskSteps {
        async fn create_tasks(&mut self, enrollment_id: &str, courses: &[BookedCourse], user_id: Option<&str>, now: DateTime<Utc>) -> sqlx::Result<()> {
            for course in courses {
                let asked: Option<Option<String>> = sqlx::query_scalar("select readiness from course where id = $1")
                    .bind(&course.course_id).fetch_optional(&mut *self).await?;
                let Some(asked) = asked.flatten() else { continue };
                let asked: Requirements = serde_json::from_str(&asked).map_err(|e| sqlx::Error::Decode(e.into()))?;
                for form in &asked.forms {
                    sqlx::query(
                        "insert into user_form (id, user_id, kind, enrollment_id, course_title, created_at, course_id) \
                         values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing",
                    )
                    .bind(public_id()).bind(user_id).bind(form.as_str()).bind(enrollment_id).bind(&course.title).bind(now).bind(&course.course_id)
                    .execute(&mut *self).await?;
                }
                for document in &asked.documents {
                    sqlx::query(
                        "insert into upload_request (id, user_id, enrollment_id, title, description, created_at, course_id) \
                         values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing",
                    )
                    .bind(public_id()).bind(user_id).bind(enrollment_id).bind(document.title.trim()).bind(&document.description).bind(now)
                    .bind(&course.course_id)
                    .execute(&mut *self).await?;
                }
            }
            Ok(())
        }

        async fn close_tasks(&mut self, enrollment_id: &str, now: DateTime<Utc>) -> sqlx::Result<()> {
            for table in ["user_form", "upload_request"] {
                sqlx::query(sqlx::AssertSqlSafe(format!("update {table} set closed_at = coalesce(closed_at, $2) where enrollment_id = $1")))
                    .bind(enrollment_id).bind(now).execute(&mut *self).await?;
            }
            Ok(())
        }
    }
}
