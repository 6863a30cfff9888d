//! A student's records for the account data API (§3, §7; decision 014).
//! Every read takes the caller's user id and returns only their rows: there
//! is no read here by another key, so no resolver can reach another
//! student's records by passing an id.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use enrol_domain::london;
use enrol_domain::records::{
    Certificate, Cohort, CohortMember, Enrollment, FormResponse, IntakeCall, Invitation, Payment, Registration, Upload, UploadRequest,
    UserForm,
};

use crate::{Db, on_pool};

fn wall_clock(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// A certificate as the public verification page shows it, and whose it
/// is and of which course, for the holder's copy.
#[derive(Debug, Clone)]
pub struct IssuedCertificate {
    pub number: String,
    pub user_id: String,
    pub course_id: String,
    pub holder_name: String,
    pub course_title: String,
    pub issued_on: NaiveDate,
    pub revoked: bool,
}

impl Db {
    /// The caller's registrations, soonest first; `today` (London) tells which are still to come.
    pub async fn registrations_of(&self, user_id: &str, today: NaiveDate) -> anyhow::Result<Vec<Registration>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            event_id: String,
            enrollment_id: String,
            session_id: String,
            status: String,
            kind: String,
            course_title: String,
            course_url: String,
            date: NaiveDate,
            start_at: NaiveDateTime,
            end_at: NaiveDateTime,
            session_type: String,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select r.id, r.event_id, r.enrollment_id, r.session_id, r.status, r.type as kind, c.title as course_title, \
             c.url as course_url, s.date, s.start_at, s.end_at, s.type as session_type \
             from registration r join session s on s.id = r.session_id join event e on e.id = s.event_id \
             join course c on c.id = e.course_id where r.user_id = $1 order by s.date, s.start_at"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the registrations")?;
        Ok(rows
            .into_iter()
            .map(|r| Registration {
                id: r.id,
                event_id: r.event_id,
                enrollment_id: r.enrollment_id,
                session_id: r.session_id,
                status: r.status,
                kind: r.kind,
                user_id: user_id.to_owned(),
                course_title: r.course_title,
                course_url: r.course_url,
                date: r.date.to_string(),
                start: wall_clock(r.start_at),
                end: wall_clock(r.end_at),
                session_type: r.session_type,
                upcoming: r.date >= today,
            })
            .collect())
    }

    pub async fn enrollments_of(&self, user_id: &str) -> anyhow::Result<Vec<Enrollment>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            status: String,
            total: i64,
            deposit: i64,
            balance: i64,
            deposit_required: bool,
            registered: bool,
            call: bool,
            created_at: DateTime<Utc>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select id, status, total, deposit, balance, deposit_required, registered, call, created_at \
             from enrollment where user_id = $1 order by created_at desc"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the enrollments")?;
        Ok(rows
            .into_iter()
            .map(|r| Enrollment {
                id: r.id,
                status: r.status,
                total: r.total,
                deposit: r.deposit,
                balance: r.balance,
                deposit_required: r.deposit_required,
                registered: r.registered,
                call: r.call,
                created_at: london::wall_clock(r.created_at),
            })
            .collect())
    }

    pub async fn payments_of(&self, user_id: &str) -> anyhow::Result<Vec<Payment>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            amount: i64,
            status: String,
            currency: String,
            transaction_id: String,
            invoice_id: Option<String>,
            method: String,
            enrollment_id: Option<String>,
            created_at: DateTime<Utc>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select id, amount, status, currency, transaction_id, invoice_id, method, enrollment_id, created_at \
             from payment where user_id = $1 order by created_at desc"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the payments")?;
        Ok(rows
            .into_iter()
            .map(|r| Payment {
                id: r.id,
                amount: r.amount,
                status: r.status,
                currency: r.currency,
                transaction_id: r.transaction_id,
                invoice_id: r.invoice_id,
                method: r.method,
                enrollment_id: r.enrollment_id,
                created_at: london::wall_clock(r.created_at),
            })
            .collect())
    }

    pub async fn certificates_of(&self, user_id: &str) -> anyhow::Result<Vec<Certificate>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            number: String,
            holder_name: String,
            course_title: String,
            issued_on: NaiveDate,
            revoked: bool,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select id, number, holder_name, course_title, issued_on, revoked from certificate where user_id = $1 order by issued_on desc"
        ).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the certificates")?;
        Ok(rows
            .into_iter()
            .map(|r| Certificate {
                id: r.id,
                number: r.number,
                holder_name: r.holder_name,
                course_title: r.course_title,
                issued_on: r.issued_on.to_string(),
                revoked: r.revoked,
            })
            .collect())
    }

    /// The certificate with this number.
    pub async fn certificate_by_number(&self, number: &str) -> anyhow::Result<Option<IssuedCertificate>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            number: String,
            user_id: String,
            course_id: String,
            holder_name: String,
            course_title: String,
            issued_on: NaiveDate,
            revoked: bool,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            "select number, user_id, course_id, holder_name, course_title, issued_on, revoked from certificate where number = $1"
        ).bind(number).fetch_optional(pool).await)
        .context("Failed to read a certificate")?;
        Ok(row.map(|r| IssuedCertificate {
            number: r.number,
            user_id: r.user_id,
            course_id: r.course_id,
            holder_name: r.holder_name,
            course_title: r.course_title,
            issued_on: r.issued_on,
            revoked: r.revoked,
        }))
    }

    pub async fn forms_of(&self, user_id: &str) -> anyhow::Result<Vec<UserForm>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            kind: String,
            enrollment_id: Option<String>,
            course_title: String,
            client_complete: bool,
            completed_at: Option<DateTime<Utc>>,
        }
        #[derive(sqlx::FromRow)]
        struct AnswerRow {
            user_form_id: String,
            question: String,
            answer: String,
        }
        let (forms, answers): (Vec<Row>, Vec<AnswerRow>) = on_pool!(self, pool => {
            let forms = sqlx::query_as(
                "select id, kind, enrollment_id, course_title, client_complete, completed_at from user_form where user_id = $1 \
                 order by created_at, id"
            ).bind(user_id).fetch_all(pool).await.context("Failed to read the forms")?;
            let answers = sqlx::query_as(
                "select a.user_form_id, a.question, a.answer from form_response a join user_form f on f.id = a.user_form_id \
                 where f.user_id = $1 order by a.question"
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
            })
            .collect())
    }

    pub async fn upload_requests_of(&self, user_id: &str) -> anyhow::Result<Vec<UploadRequest>> {
        #[derive(sqlx::FromRow)]
        struct RequestRow {
            id: String,
            title: String,
            description: String,
            status: String,
        }
        #[derive(sqlx::FromRow)]
        struct UploadRow {
            id: String,
            upload_request_id: Option<String>,
            file_name: String,
            content_type: String,
            size_bytes: i64,
            uploaded_at: DateTime<Utc>,
        }
        let (requests, uploads): (Vec<RequestRow>, Vec<UploadRow>) = on_pool!(self, pool => {
            let requests = sqlx::query_as(
                "select id, title, description, status from upload_request where user_id = $1 order by created_at, id"
            ).bind(user_id).fetch_all(pool).await.context("Failed to read the upload requests")?;
            let uploads = sqlx::query_as(
                "select id, upload_request_id, file_name, content_type, size_bytes, uploaded_at from upload where user_id = $1 \
                 order by uploaded_at"
            ).bind(user_id).fetch_all(pool).await.context("Failed to read the uploads")?;
            (requests, uploads)
        });
        Ok(requests
            .into_iter()
            .map(|r| UploadRequest {
                uploads: uploads
                    .iter()
                    .filter(|u| u.upload_request_id.as_deref() == Some(r.id.as_str()))
                    .map(|u| Upload {
                        id: u.id.clone(),
                        file_name: u.file_name.clone(),
                        content_type: u.content_type.clone(),
                        size_bytes: u.size_bytes,
                        uploaded_at: london::wall_clock(u.uploaded_at),
                    })
                    .collect(),
                id: r.id,
                title: r.title,
                description: r.description,
                status: r.status,
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
