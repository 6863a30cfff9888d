//! A session's roster and attendance (decision 017): who is booked,
//! whether their forms, balance and online theory (decision 025) are
//! done, their kit, and whether they came, which tutors mark (one audit row per mark; the
//! first mark as come asks for feedback, decision 034); and the certificate
//! staff issue to a student who came and has paid in full, which anyone
//! can check by its number (decision 021).

use std::collections::{HashMap, HashSet};

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::learning::curriculum::Curriculum;
use enrol_domain::learning::progress::{package_percent, percent};
use enrol_domain::mail::Mail;
use enrol_domain::readiness::{DocumentState, EntryState, NotYet};

use crate::orders::enrollments::NET_PAID;
use crate::orders::enrollments::{EnrollmentRecord, ROWS, Row};
use crate::people::PeopleSteps;
use crate::records::feedback::{FeedbackLink, FeedbackSteps};
use crate::records::review::{EntryRow, ReadinessSteps, standing_of};
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
    entry_requirements: bool,
    entry_online_course: Option<String>,
}

/// The bookings on a roster, their open forms (booking, kind, complete)
/// and documents (booking, title, status), those that gave the online
/// theory, and the entry certificates (account, number), as read.
type BookedRows = (Vec<Row>, Vec<(String, String, bool)>, Vec<(String, String, String)>, Vec<String>, Vec<(String, String)>);

/// What a roster shows of each booking on it, read for all of them at once
/// (a handful of queries for a roster of any length), by booking id.
#[derive(Default)]
struct Booked {
    records: HashMap<String, EnrollmentRecord>,
    /// Open forms (`kind`, complete), by kind.
    forms: HashMap<String, Vec<(String, bool)>>,
    /// Open documents (`title`, status), by title.
    documents: HashMap<String, Vec<(String, String)>>,
    /// The bookings that gave the course's online theory.
    theory_given: HashSet<String>,
    /// The certificate in force of the online course that meets the entry
    /// requirement, by the account holding it.
    entry_certificates: HashMap<String, String>,
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
        let mut booked = self.booked(session_id, &course_id, &online).await?;
        // Taught by its SCORM package when it has one, else by its lessons, as the account shows it.
        let theory = match online.theory.clone() {
            Some(course_id) if self.course_package(&course_id).await?.is_some() => Some((course_id, Taught::Package)),
            Some(course_id) => self
                .published_course(&course_id)
                .await?
                .and_then(|course| course.learning)
                .map(|curriculum| (course_id, Taught::Lessons(curriculum))),
            None => None,
        };
        let entry_course = match online.entry_online_course.clone() {
            Some(course_id) => {
                self.published_course(&course_id).await?.filter(|course| course.online).map(|course| (course_id, course.title))
            }
            None => None,
        };
        let mut students = Vec::with_capacity(rows.len());
        for row in rows {
            let Some(record) = booked.records.remove(&row.enrollment_id) else { continue };
            let balance_due = record.owed().pence();
            let kit = record.courses.iter().find(|c| c.session_id.as_deref() == Some(session_id)).and_then(|c| c.kit_name.clone());
            let theory_percent = match &theory {
                Some((course_id, taught)) if booked.theory_given.contains(&record.id) => {
                    Some(self.theory_percent(record.user_id.as_deref(), course_id, taught).await?)
                }
                _ => None,
            };
            let certificate = record.user_id.as_ref().and_then(|user_id| booked.entry_certificates.get(user_id));
            let entry_met_online = entry_course.as_ref().and(certificate).cloned();
            let asked = online.course_id.as_ref().map(|_| EntryRow {
                entry_requirements: online.entry_requirements,
                entry_online_course: online.entry_online_course.clone(),
                user_id: record.user_id.clone(),
            });
            let standing = standing_of(
                booked.forms.remove(&record.id).unwrap_or_default(),
                booked.documents.remove(&record.id).unwrap_or_default(),
                asked.as_ref(),
                certificate.is_some(),
                balance_due == 0,
                row.attended,
            );
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
            "select c.id as course_id, c.online_theory as theory, c.entry_requirements, \
             case when c.entry_requirements then c.entry_online_course end as entry_online_course \
             from session s join event ev on ev.id = s.event_id join course c on c.id = ev.course_id where s.id = $1"
        ).bind(session_id).fetch_optional(pool).await)
        .context("Failed to read the session's online courses")?;
        Ok(found.unwrap_or(SessionOnlineCourses { course_id: None, theory: None, entry_requirements: false, entry_online_course: None }))
    }

    /// What the roster of session `session_id`, for `course_id`, shows of
    /// each booking on it: the bookings, their open forms and documents for
    /// the course (decision 033), which gave its `online` theory, and the
    /// certificates of the online course meeting its entry requirement
    /// that their accounts hold.
    async fn booked(&self, session_id: &str, course_id: &str, online: &SessionOnlineCourses) -> anyhow::Result<Booked> {
        let on_session = "select r.enrollment_id from registration r where r.session_id = $1 and r.type = 'STUDENT'";
        let (rows, forms, documents, theory_given, entry_certificates): BookedRows = on_pool!(self, pool => {
            let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!("{} where e.id in ({on_session})", *ROWS)))
                .bind(session_id).fetch_all(pool).await?;
            let forms = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select enrollment_id, kind, client_complete from user_form where enrollment_id in ({on_session}) \
                 and course_id = $2 and closed_at is null order by enrollment_id, kind"
            ))).bind(session_id).bind(course_id).fetch_all(pool).await?;
            let documents = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select enrollment_id, title, status from upload_request where enrollment_id in ({on_session}) \
                 and course_id = $2 and closed_at is null order by enrollment_id, title"
            ))).bind(session_id).bind(course_id).fetch_all(pool).await?;
            let theory = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "select distinct enrollment_id from booking_theory where enrollment_id in ({on_session}) and course_id = $2"
            ))).bind(session_id).bind(online.theory.as_deref().unwrap_or_default()).fetch_all(pool).await?;
            let certificates = sqlx::query_as(
                "select c.user_id, min(c.number) from certificate c where c.course_id = $2 and c.session_id is null and not c.revoked \
                 and c.user_id in (select e.user_id from registration r join enrollment e on e.id = r.enrollment_id \
                 where r.session_id = $1 and r.type = 'STUDENT') group by c.user_id"
            ).bind(session_id).bind(online.entry_online_course.as_deref().unwrap_or_default()).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((rows, forms, documents, theory, certificates))
        })
        .context("Failed to read the roster's bookings")?;
        let mut booked = Booked {
            records: rows
                .into_iter()
                .map(|row| row.into_record().map(|record| (record.id.clone(), record)))
                .collect::<anyhow::Result<_>>()?,
            theory_given: theory_given.into_iter().collect(),
            entry_certificates: entry_certificates.into_iter().collect(),
            ..Booked::default()
        };
        for (enrollment_id, kind, complete) in forms {
            booked.forms.entry(enrollment_id).or_default().push((kind, complete));
        }
        for (enrollment_id, title, status) in documents {
            booked.documents.entry(enrollment_id).or_default().push((title, status));
        }
        Ok(booked)
    }

    /// How much of `course_id` a student whose booking gave it has done:
    /// nothing yet until the booking joins an account.
    async fn theory_percent(&self, user_id: Option<&str>, course_id: &str, taught: &Taught) -> anyhow::Result<u8> {
        let Some(user_id) = user_id else { return Ok(0) };
        Ok(match taught {
            Taught::Lessons(curriculum) => percent(curriculum, &self.study_record(user_id, course_id).await?),
            Taught::Package => {
                let kept = self.course_cmi(user_id, course_id).await?;
                package_percent(kept.as_ref().map(|kept| &kept.cmi), kept.as_ref().is_some_and(|kept| kept.completed_at.is_some()))
            }
        })
    }
}
