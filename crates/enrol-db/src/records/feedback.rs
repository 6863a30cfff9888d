//! Feedback after the day (decision 034): asked for once per student and
//! date, in the transaction that first marks them attended (the row and its
//! mail together); answered once through the mailed link; a low rating put
//! in the inbox in the same transaction; read by staff per course, date and
//! tutor; published on the course page by staff, only with the student's
//! consent, which drops every instance's cached pages.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use serde_json::json;
use ts_rs::TS;

use enrol_domain::feedback::{CourseReview, CourseReviews, FeedbackAnswer, INBOX_KIND, average_rating};
use enrol_domain::mail::Mail;
use enrol_domain::page::FeedbackAsked;

use crate::content::ContentSteps;
use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, for_both_engines, on_pool, public_id};

/// Who is asked, about which day: what the request's mail needs.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FeedbackInvite {
    pub email: String,
    pub given_name: String,
    pub course_title: String,
    pub date: NaiveDate,
}

/// The link a feedback request is answered by (its token, hashed) and the
/// mail that carries it.
pub struct FeedbackLink<'a> {
    pub token_hash: &'a str,
    pub mail_for: &'a (dyn Fn(&FeedbackInvite) -> Mail + Send + Sync),
}

/// What answering through a link did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedbackGiven {
    Recorded,
    /// Feedback is given once; this link's was.
    AlreadyGiven,
    Unknown,
}

/// What publishing (or withdrawing) a comment did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedbackPublished {
    Done,
    NotFound,
    NotAnswered,
    /// The student did not agree to their comment being published.
    NoConsent,
    NoComment,
}

/// One student's answer, as staff read it.
#[derive(Debug, Clone, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct GivenFeedback {
    pub id: String,
    #[serde(skip)]
    pub session_id: String,
    pub student: String,
    pub rating: i32,
    pub comment: String,
    pub may_publish: bool,
    pub published: bool,
    pub answered_at: DateTime<Utc>,
}

/// One training date's feedback: how many were asked, what they said.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FeedbackDay {
    pub session_id: String,
    pub course_id: String,
    pub course_title: String,
    /// `YYYY-MM-DD`
    pub date: String,
    pub tutor: Option<String>,
    pub asked: u32,
    /// The mean rating of the answers, to one decimal place.
    pub average: Option<f64>,
    /// Newest first.
    pub answers: Vec<GivenFeedback>,
}

#[derive(sqlx::FromRow)]
struct AskedRow {
    session_id: String,
    course_id: String,
    course_title: String,
    date: NaiveDate,
    tutor: Option<String>,
    asked: i64,
}

/// The day, course and tutor a feedback row is about, joined from `f`.
const ABOUT: &str = "join session s on s.id = f.session_id join event ev on ev.id = s.event_id join course c on c.id = ev.course_id \
                     join enrollment e on e.id = f.enrollment_id left join staff_account t on t.id = s.tutor_id";

pub(crate) trait FeedbackSteps {
    /// Asks the student of booking `enrollment_id` for feedback on
    /// `session_id` through `link`, the first time only: the request's row
    /// and its mail are written together or not at all.
    async fn ask_feedback(
        &mut self,
        session_id: &str,
        enrollment_id: &str,
        link: &FeedbackLink<'_>,
        now: DateTime<Utc>,
    ) -> sqlx::Result<()>;
}

for_both_engines! {
    impl FeedbackSteps {
        async fn ask_feedback(
            &mut self,
            session_id: &str,
            enrollment_id: &str,
            link: &FeedbackLink<'_>,
            now: DateTime<Utc>,
        ) -> sqlx::Result<()> {
            let asked = sqlx::query(
                "insert into event_feedback (id, session_id, enrollment_id, token_hash, requested_at) values ($1, $2, $3, $4, $5) \
                 on conflict (session_id, enrollment_id) do nothing",
            )
            .bind(public_id()).bind(session_id).bind(enrollment_id).bind(link.token_hash).bind(now)
            .execute(&mut *self).await?.rows_affected() == 1;
            if !asked {
                return Ok(());
            }
            let invite: FeedbackInvite = sqlx::query_as(
                "select e.email, e.given_name, c.title as course_title, s.date from enrollment e, session s \
                 join event ev on ev.id = s.event_id join course c on c.id = ev.course_id where e.id = $1 and s.id = $2",
            )
            .bind(enrollment_id).bind(session_id).fetch_one(&mut *self).await?;
            self.queue_mail(&(link.mail_for)(&invite), now).await
        }
    }
}

impl Db {
    /// The day the link with `token_hash` asks about, if it is known.
    pub async fn feedback_asked(&self, token_hash: &str) -> anyhow::Result<Option<FeedbackAsked>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            course_title: String,
            course_url: String,
            date: NaiveDate,
            tutor: Option<String>,
            given_name: String,
            answered: bool,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select c.title as course_title, c.url as course_url, s.date, t.name as tutor, e.given_name, \
             f.answered_at is not null as answered from event_feedback f {ABOUT} where f.token_hash = $1"
        ))).bind(token_hash).fetch_optional(pool).await)
        .context("Failed to read a feedback request")?;
        Ok(row.map(|row| FeedbackAsked {
            course_title: row.course_title,
            course_url: row.course_url,
            date: row.date.to_string(),
            tutor: row.tutor,
            given_name: row.given_name,
            answered: row.answered,
        }))
    }

    /// Records `answer` through the link with `token_hash`, once; a rating
    /// that needs staff puts an item in the inbox in the same transaction.
    pub async fn give_feedback(&self, token_hash: &str, answer: &FeedbackAnswer, now: DateTime<Utc>) -> anyhow::Result<FeedbackGiven> {
        #[derive(sqlx::FromRow)]
        struct Row {
            given_name: String,
            family_name: String,
            email: String,
            contact_number: String,
            course_title: String,
            date: NaiveDate,
            tutor: Option<String>,
        }
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let recorded = sqlx::query(
                "update event_feedback set rating = $2, comment = $3, may_publish = $4, answered_at = $5 \
                 where token_hash = $1 and answered_at is null",
            )
            .bind(token_hash).bind(i64::from(answer.rating)).bind(&answer.comment).bind(answer.may_publish).bind(now)
            .execute(&mut *tx).await?.rows_affected() == 1;
            if !recorded {
                let known: i64 = sqlx::query_scalar("select count(*) from event_feedback where token_hash = $1")
                    .bind(token_hash).fetch_one(&mut *tx).await?;
                tx.rollback().await?;
                return Ok(if known == 0 { FeedbackGiven::Unknown } else { FeedbackGiven::AlreadyGiven });
            }
            if answer.needs_staff() {
                let row: Row = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                    "select e.given_name, e.family_name, e.email, e.contact_number, c.title as course_title, s.date, t.name as tutor \
                     from event_feedback f {ABOUT} where f.token_hash = $1"
                ))).bind(token_hash).fetch_one(&mut *tx).await?;
                let data = json!({
                    "name": format!("{} {}", row.given_name, row.family_name),
                    "email": row.email,
                    "phone": row.contact_number,
                    "course": row.course_title,
                    "message": answer.inbox_message(&row.date.to_string(), row.tutor.as_deref()),
                });
                sqlx::query("insert into form_submission (id, kind, data, created_at) values ($1, $2, $3, $4)")
                    .bind(uuid::Uuid::now_v7().to_string()).bind(INBOX_KIND).bind(data.to_string()).bind(now)
                    .execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok::<_, anyhow::Error>(FeedbackGiven::Recorded)
        })
        .context("Failed to record feedback")
    }

    /// Every date that asked for feedback, newest first, with its answers;
    /// only `tutor_id`'s sessions when given.
    pub async fn feedback_days(&self, tutor_id: Option<&str>) -> anyhow::Result<Vec<FeedbackDay>> {
        let (days, answers): (Vec<AskedRow>, Vec<GivenFeedback>) = on_pool!(self, pool => {
            let days = sqlx::query_as(
                "select s.id as session_id, c.id as course_id, c.title as course_title, s.date, t.name as tutor, count(*) as asked \
                 from event_feedback f join session s on s.id = f.session_id join event ev on ev.id = s.event_id \
                 join course c on c.id = ev.course_id left join staff_account t on t.id = s.tutor_id \
                 where ($1 is null or s.tutor_id = $1) \
                 group by s.id, c.id, c.title, s.date, t.name order by s.date desc, c.title, s.id",
            ).bind(tutor_id).fetch_all(pool).await?;
            let answers = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select f.id, f.session_id, e.given_name || ' ' || e.family_name as student, f.rating, f.comment, f.may_publish, \
                 f.published_at is not null as published, f.answered_at from event_feedback f {ABOUT} \
                 where f.answered_at is not null and ($1 is null or s.tutor_id = $1) order by f.answered_at desc, f.id"
            ))).bind(tutor_id).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((days, answers))
        })
        .context("Failed to read the feedback")?;
        Ok(days
            .into_iter()
            .map(|day| {
                let answers: Vec<GivenFeedback> = answers.iter().filter(|a| a.session_id == day.session_id).cloned().collect();
                let average = average_rating(answers.iter().map(|a| u8::try_from(a.rating).unwrap_or_default()));
                FeedbackDay {
                    session_id: day.session_id,
                    course_id: day.course_id,
                    course_title: day.course_title,
                    date: day.date.to_string(),
                    tutor: day.tutor,
                    asked: u32::try_from(day.asked).unwrap_or(u32::MAX),
                    average,
                    answers,
                }
            })
            .collect())
    }

    /// Publishes answer `id`'s comment on its course's page (or withdraws
    /// it, `publish` false), only when the student agreed to it; every
    /// instance's cached pages are dropped.
    pub async fn publish_feedback(&self, id: &str, publish: bool, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<FeedbackPublished> {
        #[derive(sqlx::FromRow)]
        struct Row {
            session_id: String,
            answered: bool,
            may_publish: bool,
            comment: String,
            published: bool,
        }
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The row's lock first (and SQLite's write lock): two desks publish once.
            sqlx::query("update event_feedback set id = id where id = $1").bind(id).execute(&mut *tx).await?;
            let row: Option<Row> = sqlx::query_as(
                "select session_id, answered_at is not null as answered, may_publish, comment, published_at is not null as published \
                 from event_feedback where id = $1",
            ).bind(id).fetch_optional(&mut *tx).await?;
            let refused = match &row {
                None => Some(FeedbackPublished::NotFound),
                Some(row) if publish && !row.answered => Some(FeedbackPublished::NotAnswered),
                Some(row) if publish && !row.may_publish => Some(FeedbackPublished::NoConsent),
                Some(row) if publish && row.comment.is_empty() => Some(FeedbackPublished::NoComment),
                _ => None,
            };
            let (Some(row), None) = (row, refused.clone()) else {
                tx.rollback().await?;
                return Ok(refused.unwrap_or(FeedbackPublished::NotFound));
            };
            if row.published == publish {
                tx.rollback().await?;
                return Ok(FeedbackPublished::Done);
            }
            let (at, by) = if publish { (Some(now), Some(staff_id)) } else { (None, None) };
            sqlx::query("update event_feedback set published_at = $2, published_by = $3 where id = $1")
                .bind(id).bind(at).bind(by).execute(&mut *tx).await?;
            tx.content_changed(now).await?;
            let action = if publish { "feedback.publish" } else { "feedback.withdraw" };
            let entry = AuditEntry::new(staff_id, action, "session", &row.session_id)
                .before(json!({ "feedbackId": id, "published": row.published }))
                .after(json!({ "feedbackId": id, "published": publish }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(FeedbackPublished::Done)
        })
        .context("Failed to publish feedback")
    }

    /// The reviews published for course `course_id`, newest first.
    pub async fn course_reviews(&self, course_id: &str) -> anyhow::Result<CourseReviews> {
        #[derive(sqlx::FromRow)]
        struct Row {
            rating: i32,
            comment: String,
            author: String,
            date: NaiveDate,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select f.rating, f.comment, e.given_name as author, s.date from event_feedback f \
             join session s on s.id = f.session_id join event ev on ev.id = s.event_id join enrollment e on e.id = f.enrollment_id \
             where ev.course_id = $1 and f.published_at is not null order by s.date desc, f.published_at desc, f.id"
        ).bind(course_id).fetch_all(pool).await)
        .context("Failed to read the course's reviews")?;
        Ok(CourseReviews::of(
            rows.into_iter()
                .map(|row| CourseReview {
                    rating: u8::try_from(row.rating).unwrap_or_default(),
                    comment: row.comment,
                    author: row.author,
                    date: row.date.to_string(),
                })
                .collect(),
        ))
    }
}
