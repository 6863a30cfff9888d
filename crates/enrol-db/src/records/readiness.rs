//! A student's readiness for training, for the account data API (decision
//! 014): their forms and answers, the evidence asked of them and uploaded,
//! their Pathway cohorts, intake calls and invitations. As in
//! `records::student`, every read takes the caller's user id and returns
//! only their rows, so no resolver can reach another student's records by
//! passing an id.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::london;
use enrol_domain::readiness::Requirements;
use enrol_domain::records::{Cohort, CohortMember, FormResponse, IntakeCall, Invitation, Upload, UploadRequest, UserForm};

use crate::{Db, on_pool};

/// What a booking's task (`f`, a form or a document request) is due by is
/// read from: the first day of its course in the booking, the day the
/// booking fee was paid, and what the course asks.
pub(crate) const DUE: &str = "(select min(s.date) from registration r join session s on s.id = r.session_id join event ev on ev.id = s.event_id \
     where r.enrollment_id = f.enrollment_id and ev.course_id = f.course_id) as starts_on, e.paid_at, c.readiness";
pub(crate) const DUE_JOINS: &str = "left join enrollment e on e.id = f.enrollment_id left join course c on c.id = f.course_id";

#[derive(sqlx::FromRow)]
pub(crate) struct Due {
    starts_on: Option<NaiveDate>,
    paid_at: Option<DateTime<Utc>>,
    readiness: Option<String>,
}

impl Due {
    /// The day the task is due by and the day its booking fee was paid,
    /// when the task is a booking's for a course that asks it.
    pub(crate) fn dates(&self) -> Option<(NaiveDate, NaiveDate)> {
        let asked: Requirements = serde_json::from_str(self.readiness.as_deref()?).ok()?;
        let booked_on = london::today(self.paid_at?);
        Some((asked.due_on(self.starts_on?, booked_on), booked_on))
    }

    /// `YYYY-MM-DD`, when the task is a booking's for a course that asks it.
    fn due_on(&self) -> Option<String> {
        self.dates().map(|(due_on, _)| due_on.to_string())
    }
}

/// A file sent for an evidence request, as read.
#[derive(sqlx::FromRow)]
pub(crate) struct UploadRow {
    id: String,
    upload_request_id: Option<String>,
    file_name: String,
    content_type: String,
    size_bytes: i64,
    uploaded_at: DateTime<Utc>,
}

impl UploadRow {
    /// The files of `uploads` sent for request `request_id`, as the account and staff show them.
    pub(crate) fn of_request(uploads: &[UploadRow], request_id: &str) -> Vec<Upload> {
        uploads
            .iter()
            .filter(|u| u.upload_request_id.as_deref() == Some(request_id))
            .map(|u| Upload {
                id: u.id.clone(),
                file_name: u.file_name.clone(),
                content_type: u.content_type.clone(),
                size_bytes: u.size_bytes,
                uploaded_at: london::wall_clock(u.uploaded_at),
            })
            .collect()
    }
}

impl Db {
    pub async fn forms_of(&self, user_id: &str) -> anyhow::Result<Vec<UserForm>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            kind: String,
            enrollment_id: Option<String>,
            course_title: String,
            client_complete: bool,
            completed_at: Option<DateTime<Utc>>,
            #[sqlx(flatten)]
            due: Due,
        }
        #[derive(sqlx::FromRow)]
        struct AnswerRow {
            user_form_id: String,
            question: String,
            answer: String,
        }
        let (forms, answers): (Vec<Row>, Vec<AnswerRow>) = on_pool!(self, pool => {
            let forms = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select f.id, f.kind, f.enrollment_id, f.course_title, f.client_complete, f.completed_at, {DUE} from user_form f {DUE_JOINS} \
                 where f.user_id = $1 and f.closed_at is null order by f.created_at, f.kind, f.id"
            ))).bind(user_id).fetch_all(pool).await.context("Failed to read the forms")?;
            let answers = sqlx::query_as(
                "select a.user_form_id, a.question, a.answer from form_response a join user_form f on f.id = a.user_form_id \
                 where f.user_id = $1 and f.closed_at is null \
                 union all select a.user_form_id, a.question, a.answer from medical_answer a join user_form f on f.id = a.user_form_id \
                 where f.user_id = $1 and f.closed_at is null order by question"
            ).bind(user_id).fetch_all(pool).await.context("Failed to read the form answers")?;
            (forms, answers)
        });
        Ok(forms
            .into_iter()
            .map(|f| UserForm {
                responses: answers
                    .iter()
                    .filter(|a| a.user_form_id == f.id)
                    .map(|a| FormResponse { question: a.question.clone(), answer: a.answer.clone() })
                    .collect(),
                questions: enrol_domain::forms::questions(&f.kind).to_vec(),
                id: f.id,
                kind: f.kind,
                enrollment_id: f.enrollment_id,
                course_title: f.course_title,
                client_complete: f.client_complete,
                completed_at: f.completed_at.map(london::wall_clock),
                due_on: f.due.due_on(),
            })
            .collect())
    }

    pub async fn upload_requests_of(&self, user_id: &str) -> anyhow::Result<Vec<UploadRequest>> {
        #[derive(sqlx::FromRow)]
        struct RequestRow {
            id: String,
            enrollment_id: Option<String>,
            title: String,
            description: String,
            status: String,
            reason: String,
            #[sqlx(flatten)]
            due: Due,
        }
        let (requests, uploads): (Vec<RequestRow>, Vec<UploadRow>) = on_pool!(self, pool => {
            let requests = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select f.id, f.enrollment_id, f.title, f.description, f.status, f.reason, {DUE} from upload_request f {DUE_JOINS} \
                 where f.user_id = $1 and f.closed_at is null order by f.created_at, f.title, f.id"
            ))).bind(user_id).fetch_all(pool).await.context("Failed to read the upload requests")?;
            let uploads = sqlx::query_as(
                "select id, upload_request_id, file_name, content_type, size_bytes, uploaded_at from upload where user_id = $1 \
                 order by uploaded_at"
            ).bind(user_id).fetch_all(pool).await.context("Failed to read the uploads")?;
            (requests, uploads)
        });
        Ok(requests
            .into_iter()
            .map(|r| UploadRequest {
                uploads: UploadRow::of_request(&uploads, &r.id),
                id: r.id,
                enrollment_id: r.enrollment_id,
                title: r.title,
                description: r.description,
                status: r.status,
                reason: r.reason,
                due_on: r.due.due_on(),
            })
            .collect())
    }

    pub async fn cohorts_of(&self, user_id: &str) -> anyhow::Result<Vec<Cohort>> {
        #[derive(sqlx::FromRow)]
        struct CohortRow {
            id: String,
            name: String,
            programme_title: Option<String>,
            programme_level: Option<i32>,
            starts_on: NaiveDate,
            member_type: String,
        }
        #[derive(sqlx::FromRow)]
        struct MemberRow {
            cohort_id: String,
            user_id: String,
            given_name: String,
            family_name: String,
            kind: String,
        }
        let (cohorts, members): (Vec<CohortRow>, Vec<MemberRow>) = on_pool!(self, pool => {
            let cohorts = sqlx::query_as(
                "select c.id, c.name, p.title as programme_title, p.level as programme_level, c.starts_on, m.type as member_type \
                 from cohort_member m join cohort c on c.id = m.cohort_id left join programme p on p.id = c.programme_id \
                 where m.user_id = $1 order by c.starts_on"
            ).bind(user_id).fetch_all(pool).await.context("Failed to read the cohorts")?;
            let members = sqlx::query_as(
                "select o.cohort_id, o.user_id, u.given_name, u.family_name, o.type as kind from cohort_member o \
                 join user_account u on u.id = o.user_id \
                 where o.cohort_id in (select cohort_id from cohort_member where user_id = $1) order by o.type, u.family_name"
            ).bind(user_id).fetch_all(pool).await.context("Failed to read the cohort members")?;
            (cohorts, members)
        });
        Ok(cohorts
            .into_iter()
            .map(|c| {
                let of_cohort = || members.iter().filter(|m| m.cohort_id == c.id);
                Cohort {
                    members: of_cohort()
                        .filter(|m| m.kind != "STUDENT" || m.user_id == user_id)
                        .map(|m| CohortMember { name: format!("{} {}", m.given_name, m.family_name), kind: m.kind.clone() })
                        .collect(),
                    student_count: i64::try_from(of_cohort().filter(|m| m.kind == "STUDENT").count()).unwrap_or(i64::MAX),
                    id: c.id,
                    name: c.name,
                    programme_title: c.programme_title,
                    programme_level: c.programme_level,
                    starts_on: c.starts_on.to_string(),
                    member_type: c.member_type,
                }
            })
            .collect())
    }

    pub async fn intake_calls_of(&self, user_id: &str) -> anyhow::Result<Vec<IntakeCall>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            date: NaiveDate,
            time: String,
            status: String,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select id, date, time, status from intake_call where student_id = $1 order by date, time"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the intake calls")?;
        Ok(rows
            .into_iter()
            .map(|r| IntakeCall { id: r.id, student_id: user_id.to_owned(), date: r.date.to_string(), time: r.time, status: r.status })
            .collect())
    }

    /// Invitations sent to the caller's account email (proven at sign-up).
    pub async fn invitations_of(&self, user_id: &str) -> anyhow::Result<Vec<Invitation>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            cohort_name: String,
            kind: String,
            invited_at: DateTime<Utc>,
            accepted_at: Option<DateTime<Utc>>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select i.id, c.name as cohort_name, i.type as kind, i.invited_at, i.accepted_at from invitation i \
             join cohort c on c.id = i.cohort_id join user_account u on u.email = i.email \
             where u.id = $1 and u.email_verified_at is not null order by i.invited_at desc"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the invitations")?;
        Ok(rows
            .into_iter()
            .map(|r| Invitation {
                id: r.id,
                cohort_name: r.cohort_name,
                kind: r.kind,
                invited_at: london::wall_clock(r.invited_at),
                accepted_at: r.accepted_at.map(london::wall_clock),
            })
            .collect())
    }
}
