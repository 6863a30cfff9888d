//! Who studies an online course, as staff read it (decision 027): each
//! registration with its student, where it came from (an order or a
//! grant), its dates, the student's progress in the course, when they were
//! last there, and the certificate completing it issued. Progress is read
//! for a whole course at once, not a student at a time.

use std::collections::{BTreeSet, HashMap};

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::learning::progress::{StudyRecord, percent};

use crate::{Db, on_pool};

/// Which registrations to read.
#[derive(Debug, Clone, Copy)]
pub enum Registrations<'a> {
    /// Every registration for a course, the newest first.
    OfCourse(&'a str),
    /// Those an online order gave.
    OfOrder(&'a str),
    /// One.
    One(&'a str),
}

/// A registration for an online course with its student's progress.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LearnerRecord {
    pub id: String,
    pub user_id: Option<String>,
    /// The student's name; empty before the purchase joined an account.
    pub name: String,
    pub email: String,
    pub course_id: String,
    pub course_title: String,
    pub online_order_id: Option<String>,
    pub order_reference: Option<String>,
    /// The staff member who granted it, for a registration without an order.
    pub granted_by: Option<String>,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
    pub revoke_reason: Option<String>,
    pub complete: bool,
    pub completed_at: Option<DateTime<Utc>>,
    /// The number of the certificate in force for the course.
    pub certificate: Option<String>,
    /// When the student last opened a lesson of the course.
    pub last_visited: Option<DateTime<Utc>>,
    /// How much of the course's curriculum they have done, 0 to 100.
    #[sqlx(skip)]
    pub percent: u8,
}

impl Db {
    /// The registrations `which` names, each with its student's progress.
    pub async fn learner_records(&self, which: Registrations<'_>) -> anyhow::Result<Vec<LearnerRecord>> {
        let (condition, key) = match which {
            Registrations::OfCourse(course_id) => ("r.course_id = $1", course_id),
            Registrations::OfOrder(order_id) => ("r.online_order_id = $1", order_id),
            Registrations::One(id) => ("r.id = $1", id),
        };
        let sql = format!(
            "select r.id, r.user_id, trim(coalesce(u.given_name || ' ' || u.family_name, '')) as name, \
             coalesce(u.email, o.email, '') as email, r.course_id, r.course_title, r.online_order_id, o.reference as order_reference, \
             s.name as granted_by, r.starts_at, r.ends_at, r.revoked_at, r.revoke_reason, r.complete, r.completed_at, \
             (select c.number from certificate c where c.user_id = r.user_id and c.course_id = r.course_id \
              and c.session_id is null and not c.revoked) as certificate, v.visited_at as last_visited \
             from online_registration r left join user_account u on u.id = r.user_id \
             left join online_order o on o.id = r.online_order_id left join staff_account s on s.id = r.granted_by \
             left join course_visit v on v.user_id = r.user_id and v.course_id = r.course_id \
             where {condition} and not r.removed order by r.created_at desc, r.id"
        );
        let mut records: Vec<LearnerRecord> =
            on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.clone())).bind(key).fetch_all(pool).await)
                .context("Failed to read the course's learners")?;
        let courses: BTreeSet<String> = records.iter().map(|r| r.course_id.clone()).collect();
        for course_id in courses {
            let Some(curriculum) = self.published_course(&course_id).await?.and_then(|course| course.learning) else { continue };
            let studies = self.course_study_records(&course_id).await?;
            for record in records.iter_mut().filter(|r| r.course_id == course_id) {
                let study = record.user_id.as_ref().and_then(|user| studies.get(user));
                record.percent = study.map_or(0, |study| percent(&curriculum, study));
            }
        }
        Ok(records)
    }

    /// What each student has done of `course_id`, by their id.
    async fn course_study_records(&self, course_id: &str) -> anyhow::Result<HashMap<String, StudyRecord>> {
        // (student, lesson or quiz) pairs.
        type Pairs = Vec<(String, String)>;
        let (lessons, quizzes, visits): (Pairs, Pairs, Pairs) = on_pool!(self, pool => {
            let lessons = sqlx::query_as("select user_id, lesson from lesson_done where course_id = $1")
                .bind(course_id).fetch_all(pool).await?;
            let quizzes = sqlx::query_as("select distinct user_id, quiz from quiz_attempt where course_id = $1 and passed")
                .bind(course_id).fetch_all(pool).await?;
            let visits = sqlx::query_as("select user_id, lesson from course_visit where course_id = $1")
                .bind(course_id).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((lessons, quizzes, visits))
        })
        .context("Failed to read the course's progress")?;
        let mut studies: HashMap<String, StudyRecord> = HashMap::new();
        for (user, lesson) in lessons {
            studies.entry(user).or_default().lessons_completed.insert(lesson);
        }
        for (user, quiz) in quizzes {
            studies.entry(user).or_default().quizzes_passed.insert(quiz);
        }
        for (user, lesson) in visits {
            studies.entry(user).or_default().last_lesson = Some(lesson);
        }
        Ok(studies)
    }
}
