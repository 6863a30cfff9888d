//! What a student has of an online course (decision 025): the access their
//! registrations give, the lessons they completed, where they were last,
//! and their attempts at its quizzes. Progress is the student's and the
//! course's, whichever registration gave the access.

use std::collections::BTreeSet;

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::content::{ContentBody, ContentKind, CourseBody};
use enrol_domain::learning::access::Access;
use enrol_domain::learning::progress::StudyRecord;
use enrol_domain::learning::provider::CourseProvider;
use enrol_domain::learning::quiz::{Answers, Graded};

use crate::{Db, on_pool, public_id};

/// The dates of the registration that gives a student the most access to
/// a course, bought or with a booking: one not revoked and ending last,
/// else the latest revoked; and the hosted LMS course it was sold with
/// (decision 029), which a booking's theory never has.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CourseRegistration {
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
    coassemble_course_id: Option<String>,
    coassemble_group_id: Option<String>,
}

impl CourseRegistration {
    /// The hosted LMS course that teaches this registration, if one does.
    pub fn provider(&self) -> Option<CourseProvider> {
        CourseProvider::from_columns(self.coassemble_course_id.clone(), self.coassemble_group_id.clone())
    }
}

/// A student's attempts at one quiz so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QuizAttempts {
    pub used: u32,
    pub best_score: Option<u8>,
    pub passed: bool,
}

/// What recording an attempt did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptRecorded {
    /// Kept: the attempts used, this one counted.
    Kept { used: u32 },
    /// Refused: the quiz's attempts were used up by then.
    NoneLeft,
}

impl Db {
    /// The published online course `course_id`, with its curriculum.
    pub async fn published_course(&self, course_id: &str) -> anyhow::Result<Option<CourseBody>> {
        let published: Option<Option<String>> = on_pool!(self, pool => sqlx::query_scalar(
            "select published from content_document where kind = $1 and key = $2"
        ).bind(ContentKind::Course.as_str()).bind(course_id).fetch_optional(pool).await)
        .context("Failed to read the course")?;
        let Some(json) = published.flatten() else { return Ok(None) };
        match ContentBody::from_json(ContentKind::Course, serde_json::from_str(&json)?)? {
            ContentBody::Course(course) => Ok(Some(course)),
            _ => Ok(None),
        }
    }

    /// The registration of `user_id` for `course_id` that gives the most
    /// access; `None` when they never had one.
    pub async fn course_registration(&self, user_id: &str, course_id: &str) -> anyhow::Result<Option<CourseRegistration>> {
        on_pool!(self, pool => sqlx::query_as(
            "select * from (select starts_at, ends_at, revoked_at, coassemble_course_id, coassemble_group_id from online_registration \
             where user_id = $1 and course_id = $2 union all select starts_at, ends_at, revoked_at, null, null from booking_theory \
             where user_id = $1 and course_id = $2) access \
             order by (revoked_at is null) desc, ends_at desc limit 1"
        ).bind(user_id).bind(course_id).fetch_optional(pool).await)
        .context("Failed to read the course's registration")
    }

    /// The online courses `user_id` may study now through a registration
    /// sold with the Coassemble course `provider_course` (decision 029):
    /// those its completion there completes.
    pub async fn courses_taught_by(&self, user_id: &str, provider_course: &str, now: DateTime<Utc>) -> anyhow::Result<Vec<String>> {
        #[derive(sqlx::FromRow)]
        struct Taught {
            course_id: String,
            starts_at: DateTime<Utc>,
            ends_at: DateTime<Utc>,
            revoked_at: Option<DateTime<Utc>>,
        }
        let rows: Vec<Taught> = on_pool!(self, pool => sqlx::query_as(
            "select course_id, starts_at, ends_at, revoked_at from online_registration \
             where user_id = $1 and coassemble_course_id = $2 and not removed order by course_id"
        ).bind(user_id).bind(provider_course).fetch_all(pool).await)
        .context("Failed to read the registrations a provider's course teaches")?;
        let mut courses: Vec<String> = rows
            .into_iter()
            .filter(|row| Access::of(row.starts_at, row.ends_at, row.revoked_at, now).may_study())
            .map(|row| row.course_id)
            .collect();
        courses.dedup();
        Ok(courses)
    }

    /// What `user_id` has done of `course_id`: lessons completed, quizzes
    /// passed, and the lesson last opened.
    pub async fn study_record(&self, user_id: &str, course_id: &str) -> anyhow::Result<StudyRecord> {
        let (lessons, quizzes, last): (Vec<String>, Vec<String>, Option<String>) = on_pool!(self, pool => {
            let lessons = sqlx::query_scalar("select lesson from lesson_done where user_id = $1 and course_id = $2")
                .bind(user_id).bind(course_id).fetch_all(pool).await?;
            let quizzes = sqlx::query_scalar(
                "select distinct quiz from quiz_attempt where user_id = $1 and course_id = $2 and passed"
            ).bind(user_id).bind(course_id).fetch_all(pool).await?;
            let last = sqlx::query_scalar("select lesson from course_visit where user_id = $1 and course_id = $2")
                .bind(user_id).bind(course_id).fetch_optional(pool).await?;
            Ok::<_, sqlx::Error>((lessons, quizzes, last))
        })
        .context("Failed to read the student's progress")?;
        Ok(StudyRecord {
            lessons_completed: lessons.into_iter().collect::<BTreeSet<_>>(),
            quizzes_passed: quizzes.into_iter().collect::<BTreeSet<_>>(),
            last_lesson: last,
        })
    }

    /// Notes that `user_id` opened `lesson` at `now`; a visit older than
    /// the one kept (a slow request from another tab) changes nothing.
    pub async fn visit_lesson(&self, user_id: &str, course_id: &str, lesson: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query(
            "insert into course_visit (user_id, course_id, lesson, visited_at) values ($1, $2, $3, $4) \
             on conflict (user_id, course_id) do update set lesson = excluded.lesson, visited_at = excluded.visited_at \
             where course_visit.visited_at < excluded.visited_at"
        ).bind(user_id).bind(course_id).bind(lesson).bind(now).execute(pool).await.map(drop))
        .context("Failed to note the lesson visited")?;
        Ok(())
    }

    /// Marks `lesson` completed by `user_id`, once: completing it again,
    /// from another tab or later, keeps the first.
    pub async fn complete_lesson(&self, user_id: &str, course_id: &str, lesson: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query(
            "insert into lesson_done (user_id, course_id, lesson, done_at) values ($1, $2, $3, $4) \
             on conflict (user_id, course_id, lesson) do nothing"
        ).bind(user_id).bind(course_id).bind(lesson).bind(now).execute(pool).await.map(drop))
        .context("Failed to mark the lesson completed")?;
        Ok(())
    }

    /// The attempts `user_id` made at `quiz`.
    pub async fn quiz_attempts(&self, user_id: &str, course_id: &str, quiz: &str) -> anyhow::Result<QuizAttempts> {
        let (used, best, passed): (i64, Option<i64>, Option<bool>) = on_pool!(self, pool => sqlx::query_as(
            "select count(*), max(score), max(case when passed then 1 else 0 end) = 1 from quiz_attempt \
             where user_id = $1 and course_id = $2 and quiz = $3"
        ).bind(user_id).bind(course_id).bind(quiz).fetch_one(pool).await)
        .context("Failed to read the quiz's attempts")?;
        Ok(QuizAttempts {
            used: u32::try_from(used).unwrap_or(u32::MAX),
            best_score: best.and_then(|score| u8::try_from(score).ok()),
            passed: passed.unwrap_or(false),
        })
    }

    /// Keeps a graded attempt at `quiz` if the quiz allows another
    /// (`max_attempts`), counting and writing in one transaction that first
    /// locks the student's registrations for the course, so attempts sent
    /// at once cannot pass the limit together.
    #[allow(clippy::too_many_arguments)]
    pub async fn record_quiz_attempt(
        &self,
        user_id: &str,
        course_id: &str,
        quiz: &str,
        max_attempts: Option<u32>,
        answers: &Answers,
        graded: &Graded,
        now: DateTime<Utc>,
    ) -> anyhow::Result<AttemptRecorded> {
        let answers = serde_json::to_string(&answers.0)?;
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("update online_registration set revoked_at = revoked_at where user_id = $1 and course_id = $2")
                .bind(user_id).bind(course_id).execute(&mut *tx).await?;
            let used: i64 = sqlx::query_scalar("select count(*) from quiz_attempt where user_id = $1 and course_id = $2 and quiz = $3")
                .bind(user_id).bind(course_id).bind(quiz).fetch_one(&mut *tx).await?;
            if max_attempts.is_some_and(|max| used >= i64::from(max)) {
                tx.rollback().await?;
                return Ok(AttemptRecorded::NoneLeft);
            }
            sqlx::query(
                "insert into quiz_attempt (id, user_id, course_id, quiz, answers, score, passed, submitted_at) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8)"
            ).bind(public_id()).bind(user_id).bind(course_id).bind(quiz).bind(&answers)
                .bind(i64::from(graded.score)).bind(graded.passed).bind(now).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(AttemptRecorded::Kept { used: u32::try_from(used + 1).unwrap_or(u32::MAX) })
        })
        .context("Failed to keep the quiz attempt")
    }
}
