//! A session's roster and attendance (decision 017): who is booked,
//! whether their forms, balance and online theory (decision 025) are
//! done, their kit, and whether they came, which tutors mark (one audit row per mark; the
//! first mark as come asks for feedback, decision 034); and the certificate
//! staff issue to a student who came and has paid in full, which anyone
//! can check by its number (decision 021).

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::learning::curriculum::Curriculum;
use enrol_domain::learning::progress::{package_percent, percent};
use enrol_domain::mail::Mail;
use enrol_domain::readiness::{DocumentState, EntryState, NotYet, Standing};

use crate::orders::enrollments::NET_PAID;
use crate::people::PeopleSteps;
use crate::records::feedback::{FeedbackLink, FeedbackSteps};
use crate::records::review::ReadinessSteps;
use crate::seats::sessions::ON_ROSTER;
use crate::{AuditEntry, Db, on_pool, public_id};

/// One student on a roster.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RosterStudent {
    pub enrollment_id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub forms_complete: bool,
    pub balance_paid: bool,
    #[ts(type = "number")]
    pub balance_due: i64,
    pub kit: Option<String>,
    pub attended: Option<bool>,
    /// The number of the certificate issued for this session, if any.
    pub certificate: Option<String>,
    /// How much of the course's pre-course online theory the student has
    /// done, in per cent; `None` when the booking gave no theory.
    pub theory_percent: Option<u8>,
    /// When an online course meets the course's entry requirements: the
    /// number of the student's certificate for it, once they completed it.
    pub entry_met_online: Option<String>,
    /// Documents asked of the student, accepted, and sent but not yet judged (decision 033).
    pub documents_asked: u32,
    pub documents_accepted: u32,
    pub documents_waiting: u32,
    pub entry: EntryState,
    /// A medical answer asks the college to call before training.
    pub flagged: bool,
    /// Every form complete, every document accepted, the entry requirement met, the balance paid.
    pub ready: bool,
}

/// The students on a session's roster, and the online course that meets
/// its course's entry requirements, by its title, when there is one.
#[derive(Debug, Clone)]
pub struct RosterStudents {
    pub students: Vec<RosterStudent>,
    pub entry_online_course: Option<String>,
}

#[derive(sqlx::FromRow)]
struct SessionOnlineCourses {
    course_id: Option<String>,
    theory: Option<String>,
    entry_online_course: Option<String>,
}

/// What marking attendance did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttendanceMark {
    Marked,
    NotOnRoster,
    /// The session has not started yet.
    TooEarly,
}

/// What asking for a certificate did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CertificateIssue {
    Issued {
        number: String,
    },
    AlreadyIssued {
        number: String,
    },
    NotOnRoster,
    /// Attendance is not marked as attended.
    NotAttended,
    /// Something is still owed.
    NotPaid,
    /// A form, a document or the entry requirement is still outstanding.
    NotReady,
    /// The booking belongs to no account to hold the certificate.
    NoAccount,
}

/// What a certificate mail needs: the holder and the course.
#[derive(Debug, Clone)]
pub struct CertificateHolder {
    pub email: String,
    pub given_name: String,
    pub course_title: String,
    pub number: String,
}

/// How a course's pre-course theory is taught: by its lessons, or by its
/// SCORM package.
enum Taught {
    Lessons(Box<Curriculum>),
    Package,
}

impl Db {
    /// The students booked on a session, by name.
    pub async fn roster(&self, session_id: &str) -> anyhow::Result<RosterStudents> {
        #[derive(sqlx::FromRow)]
        struct Row {
            enrollment_id: String,
            attended: Option<bool>,
            forms_complete: bool,
            flagged: bool,
            certificate: Option<String>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select r.enrollment_id, r.attended, \
             not exists (select 1 from user_form f where f.enrollment_id = r.enrollment_id and not f.client_complete and f.closed_at is null) \
             as forms_complete, \
             exists (select 1 from user_form f where f.enrollment_id = r.enrollment_id and f.flagged and f.closed_at is null) as flagged, \
             (select min(c.number) from certificate c where c.session_id = r.session_id and c.user_id = e.user_id and not c.revoked) \
             as certificate \
             from registration r join enrollment e on e.id = r.enrollment_id \
             where r.session_id = $1 and {ON_ROSTER} order by e.family_name, e.given_name, e.id"
        ))).bind(session_id).fetch_all(pool).await)
        .context("Failed to read the roster")?;
        let online = self.session_online_courses(session_id).await?;
        let course_id = online.course_id.clone().unwrap_or_default();
        // Taught by its SCORM package when it has one, else by its lessons, as the account shows it.
        let theory = match online.theory {
            Some(course_id) if self.course_package(&course_id).await?.is_some() => Some((course_id, Taught::Package)),
            Some(course_id) => self
                .published_course(&course_id)
                .await?
                .and_then(|course| course.learning)
                .map(|curriculum| (course_id, Taught::Lessons(curriculum))),
            None => None,
        };
        let entry_course = match online.entry_online_course {
            Some(course_id) => {
                self.published_course(&course_id).await?.filter(|course| course.online).map(|course| (course_id, course.title))
            }
            None => None,
        };
        let mut students = Vec::with_capacity(rows.len());
        for row in rows {
            let Some(record) = self.enrollment(&row.enrollment_id).await? else { continue };
            let balance_due = record.owed().pence();
            let kit = record.courses.iter().find(|c| c.session_id.as_deref() == Some(session_id)).and_then(|c| c.kit_name.clone());
            let theory_percent = match &theory {
                Some((course_id, taught)) => self.theory_percent(&record.id, record.user_id.as_deref(), course_id, taught).await?,
                None => None,
            };
            let entry_met_online = match (&entry_course, record.user_id.as_deref()) {
                (Some((course_id, _)), Some(user_id)) => self.online_certificate(user_id, course_id).await?,
                _ => None,
            };
            let standing = self.booking_standing(&record.id, &course_id, row.attended, balance_due == 0).await?;
            let count = |state: DocumentState| u32::try_from(standing.documents.iter().filter(|(_, s)| *s == state).count()).unwrap_or(0);
            students.push(RosterStudent {
                enrollment_id: record.id,
                name: format!("{} {}", record.given_name, record.family_name),
                email: record.email,
                phone: record.contact_number,
                forms_complete: row.forms_complete,
                balance_paid: balance_due == 0,
                balance_due,
                kit,
                attended: row.attended,
                certificate: row.certificate,
                theory_percent,
                entry_met_online,
                documents_asked: u32::try_from(standing.documents.len()).unwrap_or(0),
                documents_accepted: count(DocumentState::Accepted),
                documents_waiting: count(DocumentState::Received),
                entry: standing.entry,
                flagged: row.flagged,
                ready: standing.ready(),
            });
        }
        Ok(RosterStudents { students, entry_online_course: entry_course.map(|(_, title)| title) })
    }

    /// Marks whether a booked student came, from the session's day on; the
    /// first time they are marked as come, asks for their feedback through
    /// `feedback` (decision 034).
    pub async fn mark_attendance(
        &self,
        session_id: &str,
        enrollment_id: &str,
        attended: bool,
        feedback: &FeedbackLink<'_>,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<AttendanceMark> {
        let _turn = self.write_turn().await;
        let today = enrol_domain::london::today(now);
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The registration's row lock first (and SQLite's write lock).
            let locked = sqlx::query(
                "update registration set attended = attended where session_id = $1 and enrollment_id = $2 and type = 'STUDENT' \
                 and session_id in (select id from session where date <= $3)",
            ).bind(session_id).bind(enrollment_id).bind(today).execute(&mut *tx).await?.rows_affected() == 1;
            if !locked {
                let on_roster: i64 = sqlx::query_scalar(
                    "select count(*) from registration where session_id = $1 and enrollment_id = $2 and type = 'STUDENT'",
                ).bind(session_id).bind(enrollment_id).fetch_one(&mut *tx).await?;
                tx.rollback().await?;
                return Ok(if on_roster == 0 { AttendanceMark::NotOnRoster } else { AttendanceMark::TooEarly });
            }
            let before: Option<bool> = sqlx::query_scalar(
                "select attended from registration where session_id = $1 and enrollment_id = $2 and type = 'STUDENT'",
            ).bind(session_id).bind(enrollment_id).fetch_one(&mut *tx).await?;
            sqlx::query("update registration set attended = $3 where session_id = $1 and enrollment_id = $2 and type = 'STUDENT'")
                .bind(session_id).bind(enrollment_id).bind(attended).execute(&mut *tx).await?;
            if attended {
                tx.ask_feedback(session_id, enrollment_id, feedback, now).await?;
            }
            let entry = AuditEntry::new(staff_id, "session.attendance", "session", session_id)
                .before(serde_json::json!({ "enrollmentId": enrollment_id, "attended": before }))
                .after(serde_json::json!({ "enrollmentId": enrollment_id, "attended": attended }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(AttendanceMark::Marked)
        })
        .context("Failed to mark attendance")
    }

    /// Issues the certificate numbered `number` for a student who came to
    /// the session and owes nothing, once, and mails them (`mail_for`).
    pub async fn issue_certificate(
        &self,
        session_id: &str,
        enrollment_id: &str,
        number: &str,
        mail_for: impl Fn(&CertificateHolder) -> Mail,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<CertificateIssue> {
        #[derive(sqlx::FromRow)]
        struct Row {
            attended: Option<bool>,
            user_id: Option<String>,
            holder_name: String,
            given_name: String,
            email: String,
            course_id: String,
            course_title: String,
            owed: i64,
        }
        let _turn = self.write_turn().await;
        let sql = format!(
            "select r.attended, e.user_id, e.given_name || ' ' || e.family_name as holder_name, e.given_name, e.email, \
             c.id as course_id, c.title as course_title, e.total - {} as owed \
             from registration r join enrollment e on e.id = r.enrollment_id join session s on s.id = r.session_id \
             join event ev on ev.id = s.event_id join course c on c.id = ev.course_id \
             where r.session_id = $1 and r.enrollment_id = $2 and r.type = 'STUDENT'",
            NET_PAID
        );
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The registration's row lock: a second request waits, then finds the certificate.
            let on_roster = sqlx::query(
                "update registration set attended = attended where session_id = $1 and enrollment_id = $2 and type = 'STUDENT'",
            ).bind(session_id).bind(enrollment_id).execute(&mut *tx).await?.rows_affected() == 1;
            let row: Option<Row> = if on_roster {
                sqlx::query_as(sqlx::AssertSqlSafe(sql.clone())).bind(session_id).bind(enrollment_id).fetch_optional(&mut *tx).await?
            } else {
                None
            };
            let refused = match &row {
                None => Some(CertificateIssue::NotOnRoster),
                Some(row) if row.attended != Some(true) => Some(CertificateIssue::NotAttended),
                Some(row) if row.owed > 0 => Some(CertificateIssue::NotPaid),
                Some(row) if row.user_id.is_none() => Some(CertificateIssue::NoAccount),
                Some(row) => match tx.standing(enrollment_id, &row.course_id, row.attended, row.owed <= 0).await?.certificate() {
                    Ok(()) => None,
                    Err(NotYet::NotAttended) => Some(CertificateIssue::NotAttended),
                    Err(NotYet::NotPaid) => Some(CertificateIssue::NotPaid),
                    Err(NotYet::NotReady) => Some(CertificateIssue::NotReady),
                },
            };
            let (Some(row), None) = (row, refused.clone()) else {
                tx.rollback().await?;
                return Ok(refused.unwrap_or(CertificateIssue::NotOnRoster));
            };
            let user_id = row.user_id.clone().unwrap_or_default();
            let issued: Option<String> = sqlx::query_scalar(
                "select number from certificate where session_id = $1 and user_id = $2 and not revoked",
            ).bind(session_id).bind(&user_id).fetch_optional(&mut *tx).await?;
            if let Some(number) = issued {
                tx.rollback().await?;
                return Ok(CertificateIssue::AlreadyIssued { number });
            }
            let issued_on = enrol_domain::london::today(now);
            sqlx::query(
                "insert into certificate (id, number, user_id, holder_name, course_id, course_title, session_id, issued_on) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(public_id()).bind(number).bind(&user_id).bind(&row.holder_name).bind(&row.course_id).bind(&row.course_title)
            .bind(session_id).bind(issued_on)
            .execute(&mut *tx).await?;
            let holder = CertificateHolder {
                email: row.email,
                given_name: row.given_name,
                course_title: row.course_title,
                number: number.to_owned(),
            };
            tx.queue_mail(&mail_for(&holder), now).await?;
            let entry = AuditEntry::new(staff_id, "certificate.issue", "session", session_id)
                .after(serde_json::json!({ "enrollmentId": enrollment_id, "number": number, "holder": row.holder_name }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(CertificateIssue::Issued { number: number.to_owned() })
        })
        .context("Failed to issue the certificate")
    }

    /// The online courses the content of session `session_id`'s course
    /// names: its pre-course theory and the one that meets its entry
    /// requirements.
    async fn session_online_courses(&self, session_id: &str) -> anyhow::Result<SessionOnlineCourses> {
        let found: Option<SessionOnlineCourses> = on_pool!(self, pool => sqlx::query_as(
            "select c.id as course_id, c.online_theory as theory, case when c.entry_requirements then c.entry_online_course end as entry_online_course \
             from session s join event ev on ev.id = s.event_id join course c on c.id = ev.course_id where s.id = $1"
        ).bind(session_id).fetch_optional(pool).await)
        .context("Failed to read the session's online courses")?;
        Ok(found.unwrap_or(SessionOnlineCourses { course_id: None, theory: None, entry_online_course: None }))
    }

    /// Where booking `enrollment_id` stands for `course_id` (decision 033).
    async fn booking_standing(&self, enrollment_id: &str, course_id: &str, attended: Option<bool>, paid: bool) -> anyhow::Result<Standing> {
        on_pool!(self, pool => {
            let mut conn = pool.acquire().await?;
            conn.standing(enrollment_id, course_id, attended, paid).await
        })
        .context("Failed to read where a booking stands")
    }

    /// The number of the student's certificate in force for online course
    /// `course_id`, once they completed it.
    async fn online_certificate(&self, user_id: &str, course_id: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar(
            "select number from certificate where user_id = $1 and course_id = $2 and session_id is null and not revoked"
        ).bind(user_id).bind(course_id).fetch_optional(pool).await)
        .context("Failed to read the student's online certificate")
    }

    /// How much of `course_id` the student of booking `enrollment_id` has
    /// done, if the booking gave it: nothing yet until it joins an account.
    async fn theory_percent(
        &self,
        enrollment_id: &str,
        user_id: Option<&str>,
        course_id: &str,
        taught: &Taught,
    ) -> anyhow::Result<Option<u8>> {
        let given: i64 = on_pool!(self, pool => sqlx::query_scalar(
            "select count(*) from booking_theory where enrollment_id = $1 and course_id = $2"
        ).bind(enrollment_id).bind(course_id).fetch_one(pool).await)
        .context("Failed to read the booking's theory")?;
        if given == 0 {
            return Ok(None);
        }
        let Some(user_id) = user_id else { return Ok(Some(0)) };
        Ok(Some(match taught {
            Taught::Lessons(curriculum) => percent(curriculum, &self.study_record(user_id, course_id).await?),
            Taught::Package => {
                let kept = self.course_cmi(user_id, course_id).await?;
                package_percent(kept.as_ref().map(|kept| &kept.cmi), kept.as_ref().is_some_and(|kept| kept.completed_at.is_some()))
            }
        }))
    }
}
