//! Staff's review of a booked student's readiness for training (issue 29,
//! decision 033): where a booking stands for one course, the student's
//! answers and files opened from a roster (each opening audited in the
//! transaction of the read), and the verdict on a document. Medical
//! answers are read only when the caller's role allows it.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::mail::Mail;
use enrol_domain::readiness::{DocumentState, EntryState, FormKind, Standing, Verdict};
use enrol_domain::records::Upload;

use crate::people::PeopleSteps;
use crate::records::account_area::StoredUpload;
use crate::records::readiness::UploadRow;
use crate::{AuditEntry, Db, for_both_engines, on_pool};

/// The course a registration on `$1` is for, when booking `$2` is on that
/// session's roster as a student.
const ON_SESSION: &str = "select ev.course_id from registration r join session s on s.id = r.session_id join event ev on ev.id = s.event_id \
     where r.session_id = $1 and r.enrollment_id = $2 and r.type = 'STUDENT'";

pub(crate) trait ReadinessSteps {
    /// Where booking `enrollment_id` stands for `course_id`: its open forms
    /// and documents, its entry requirement, the balance and attendance
    /// given.
    async fn standing(
        &mut self,
        enrollment_id: &str,
        course_id: &str,
        attended: Option<bool>,
        balance_paid: bool,
    ) -> sqlx::Result<Standing>;
}

/// A course's entry requirement, and the account of the booking asked.
#[derive(sqlx::FromRow)]
pub(crate) struct EntryRow {
    pub(crate) entry_requirements: bool,
    pub(crate) entry_online_course: Option<String>,
    pub(crate) user_id: Option<String>,
}

impl EntryRow {
    /// The online course whose certificate, held by the booking's account,
    /// meets the entry requirement, and that account.
    pub(crate) fn online_to_meet(&self) -> Option<(&str, &str)> {
        match self {
            EntryRow { entry_requirements: true, entry_online_course: Some(online), user_id: Some(user_id) } => Some((online, user_id)),
            _ => None,
        }
    }
}

/// Where a booking stands from what was read of it: its open forms
/// (`kind`, complete) and documents (`title`, status), its course's entry
/// requirement, whether it holds the online course's certificate that
/// meets it, the balance and attendance given.
pub(crate) fn standing_of(
    forms: Vec<(String, bool)>,
    documents: Vec<(String, String)>,
    asked: Option<&EntryRow>,
    online_met: bool,
    balance_paid: bool,
    attended: Option<bool>,
) -> Standing {
    let documents: Vec<(String, DocumentState)> =
        documents.into_iter().map(|(title, status)| (title, DocumentState::parse(&status))).collect();
    let requires = asked.is_some_and(|a| a.entry_requirements && (a.entry_online_course.is_some() || !documents.is_empty()));
    let documents_met = !documents.is_empty() && documents.iter().all(|(_, state)| *state == DocumentState::Accepted);
    let entry = match (requires, online_met || documents_met) {
        (false, _) => EntryState::None,
        (true, true) => EntryState::Met,
        (true, false) => EntryState::ToCheck,
    };
    Standing {
        forms: forms.into_iter().filter_map(|(kind, complete)| Some((FormKind::parse(&kind)?, complete))).collect(),
        documents,
        entry,
        balance_paid,
        attended,
    }
}

for_both_engines! {
    impl ReadinessSteps {
        async fn standing(&mut self, enrollment_id: &str, course_id: &str, attended: Option<bool>, balance_paid: bool) -> sqlx::Result<Standing> {
            let forms: Vec<(String, bool)> = sqlx::query_as(
                "select kind, client_complete from user_form where enrollment_id = $1 and course_id = $2 and closed_at is null order by kind",
            ).bind(enrollment_id).bind(course_id).fetch_all(&mut *self).await?;
            let documents: Vec<(String, String)> = sqlx::query_as(
                "select title, status from upload_request where enrollment_id = $1 and course_id = $2 and closed_at is null order by title",
            ).bind(enrollment_id).bind(course_id).fetch_all(&mut *self).await?;
            let asked: Option<EntryRow> = sqlx::query_as(
                "select c.entry_requirements, c.entry_online_course, e.user_id from course c join enrollment e on e.id = $2 where c.id = $1",
            ).bind(course_id).bind(enrollment_id).fetch_optional(&mut *self).await?;
            let online_met = match asked.as_ref().and_then(EntryRow::online_to_meet) {
                Some((online, user_id)) => {
                    let held: i64 = sqlx::query_scalar(
                        "select count(*) from certificate where user_id = $1 and course_id = $2 and session_id is null and not revoked",
                    ).bind(user_id).bind(online).fetch_one(&mut *self).await?;
                    held > 0
                }
                None => false,
            };
            Ok(standing_of(forms, documents, asked.as_ref(), online_met, balance_paid, attended))
        }
    }
}

/// One answer as staff read it: the question's words, not its key.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ReviewAnswer {
    pub question: String,
    pub answer: String,
}

/// One of the student's forms, as staff see it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ReviewForm {
    pub kind: FormKind,
    pub complete: bool,
    /// An answer asks the college to call before training.
    pub flagged: bool,
    /// `None` when the caller's role may not read them (medical answers).
    pub answers: Option<Vec<ReviewAnswer>>,
}

/// One document the student was asked for, with what they sent.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ReviewDocument {
    pub id: String,
    pub title: String,
    pub description: String,
    pub state: DocumentState,
    /// Why it was turned down, told to the student.
    pub reason: String,
    pub uploads: Vec<Upload>,
}

/// What a booked student has done before training, for staff.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BookingReadiness {
    pub enrollment_id: String,
    pub name: String,
    pub email: String,
    pub course_title: String,
    pub forms: Vec<ReviewForm>,
    pub documents: Vec<ReviewDocument>,
    pub entry: EntryState,
    pub ready: bool,
}

/// What a verdict on a document did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Review {
    Done,
    /// No such document of a booking on that roster.
    NotFound,
    /// Nothing has been sent for it yet, or it is closed.
    NothingToJudge,
}

/// Who reads, and whether they may read medical answers.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    pub staff_id: &'a str,
    pub medical_answers: bool,
}

#[derive(sqlx::FromRow)]
struct Student {
    name: String,
    email: String,
    course_title: String,
}

#[derive(sqlx::FromRow)]
struct FormRow {
    id: String,
    kind: String,
    client_complete: bool,
    flagged: bool,
}

#[derive(sqlx::FromRow)]
struct AnswerRow {
    user_form_id: String,
    question: String,
    answer: String,
}

#[derive(sqlx::FromRow)]
struct DocumentRow {
    id: String,
    title: String,
    description: String,
    status: String,
    reason: String,
}

/// The question's words for `key` of a form of `kind`.
fn label(kind: &str, key: &str) -> String {
    enrol_domain::forms::questions(kind).iter().find(|q| q.key == key).map_or(key, |q| q.label).to_owned()
}

impl Db {
    /// Booking `enrollment_id`'s readiness for the course of session
    /// `session_id`, when it is on that roster; the opening is audited in
    /// the same transaction (never the answers themselves).
    pub async fn open_booking_readiness(
        &self,
        session_id: &str,
        enrollment_id: &str,
        reader: Reader<'_>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<BookingReadiness>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let course_id: Option<String> = sqlx::query_scalar(ON_SESSION).bind(session_id).bind(enrollment_id).fetch_optional(&mut *tx).await?;
            let Some(course_id) = course_id else {
                tx.rollback().await?;
                return Ok(None);
            };
            let student: Student = sqlx::query_as(
                "select e.given_name || ' ' || e.family_name as name, e.email, c.title as course_title from enrollment e \
                 join course c on c.id = $2 where e.id = $1",
            ).bind(enrollment_id).bind(&course_id).fetch_one(&mut *tx).await?;
            let forms: Vec<FormRow> = sqlx::query_as(
                "select id, kind, client_complete, flagged from user_form where enrollment_id = $1 and course_id = $2 and closed_at is null order by kind",
            ).bind(enrollment_id).bind(&course_id).fetch_all(&mut *tx).await?;
            let medical = if reader.medical_answers { "union all select a.user_form_id, a.question, a.answer from medical_answer a \
                 join user_form f on f.id = a.user_form_id where f.enrollment_id = $1 and f.course_id = $2" } else { "" };
            let answers: Vec<AnswerRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select a.user_form_id, a.question, a.answer from form_response a join user_form f on f.id = a.user_form_id \
                 where f.enrollment_id = $1 and f.course_id = $2 {medical}"
            ))).bind(enrollment_id).bind(&course_id).fetch_all(&mut *tx).await?;
            let documents: Vec<DocumentRow> = sqlx::query_as(
                "select id, title, description, status, reason from upload_request where enrollment_id = $1 and course_id = $2 \
                 and closed_at is null order by created_at, title",
            ).bind(enrollment_id).bind(&course_id).fetch_all(&mut *tx).await?;
            let uploads: Vec<UploadRow> = sqlx::query_as(
                "select u.id, u.upload_request_id, u.file_name, u.content_type, u.size_bytes, u.uploaded_at from upload u \
                 join upload_request r on r.id = u.upload_request_id where r.enrollment_id = $1 and r.course_id = $2 order by u.uploaded_at",
            ).bind(enrollment_id).bind(&course_id).fetch_all(&mut *tx).await?;
            let paid: bool = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "select e.total - {} <= 0 from enrollment e where e.id = $1", crate::orders::enrollments::NET_PAID
            ))).bind(enrollment_id).fetch_one(&mut *tx).await?;
            let standing = tx.standing(enrollment_id, &course_id, None, paid).await?;
            let entry = AuditEntry::new(reader.staff_id, "readiness.open", "enrollment", enrollment_id)
                .after(serde_json::json!({ "sessionId": session_id, "medicalAnswers": reader.medical_answers }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            let forms = forms.into_iter().filter_map(|form| {
                let kind = FormKind::parse(&form.kind)?;
                let readable = kind != FormKind::Medical || reader.medical_answers;
                // In the order the form asks them.
                let answers = readable.then(|| enrol_domain::forms::questions(&form.kind).iter()
                    .filter_map(|q| answers.iter().find(|a| a.user_form_id == form.id && a.question == q.key))
                    .map(|a| ReviewAnswer { question: label(&form.kind, &a.question), answer: a.answer.clone() }).collect());
                Some(ReviewForm { kind, complete: form.client_complete, flagged: form.flagged, answers })
            }).collect();
            let documents = documents.into_iter().map(|d| ReviewDocument {
                uploads: UploadRow::of_request(&uploads, &d.id),
                state: DocumentState::parse(&d.status),
                id: d.id,
                title: d.title,
                description: d.description,
                reason: d.reason,
            }).collect();
            Ok::<_, anyhow::Error>(Some(BookingReadiness {
                enrollment_id: enrollment_id.to_owned(),
                name: student.name,
                email: student.email,
                course_title: student.course_title,
                forms,
                documents,
                entry: standing.entry,
                ready: standing.ready(),
            }))
        })
        .context("Failed to open a booking's readiness")
    }

    /// File `upload_id` sent for booking `enrollment_id` on session
    /// `session_id`'s roster, its opening audited in the same transaction.
    pub async fn open_student_upload(
        &self,
        session_id: &str,
        enrollment_id: &str,
        upload_id: &str,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<StoredUpload>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let found: Option<StoredUpload> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select u.file_name, u.content_type, u.storage_key from upload u join upload_request q on q.id = u.upload_request_id \
                 where u.id = $3 and q.enrollment_id = $2 and q.course_id in ({ON_SESSION})"
            ))).bind(session_id).bind(enrollment_id).bind(upload_id).fetch_optional(&mut *tx).await?;
            let Some(found) = found else {
                tx.rollback().await?;
                return Ok(None);
            };
            let entry = AuditEntry::new(staff_id, "readiness.open_file", "enrollment", enrollment_id)
                .after(serde_json::json!({ "sessionId": session_id, "uploadId": upload_id }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Some(found))
        })
        .context("Failed to open a student's file")
    }

    /// Staff's verdict on document request `request_id` of booking
    /// `enrollment_id` on session `session_id`'s roster, once something was
    /// sent for it; a document turned down mails the student
    /// `mail_for(email, given name, title, reason)`, in the same
    /// transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn review_document(
        &self,
        session_id: &str,
        enrollment_id: &str,
        request_id: &str,
        verdict: &Verdict,
        mail_for: impl FnOnce(&str, &str, &str, &str) -> Mail,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Review> {
        #[derive(sqlx::FromRow)]
        struct Row {
            title: String,
            status: String,
            closed: bool,
            email: String,
            given_name: String,
        }
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The request's row lock: two verdicts at once are taken one after the other.
            let locked = sqlx::query(sqlx::AssertSqlSafe(format!(
                "update upload_request set status = status where id = $3 and enrollment_id = $2 and course_id in ({ON_SESSION})"
            ))).bind(session_id).bind(enrollment_id).bind(request_id).execute(&mut *tx).await?.rows_affected() == 1;
            let row: Option<Row> = if locked {
                sqlx::query_as(
                    "select q.title, q.status, q.closed_at is not null as closed, e.email, e.given_name from upload_request q \
                     join enrollment e on e.id = q.enrollment_id where q.id = $1",
                ).bind(request_id).fetch_optional(&mut *tx).await?
            } else {
                None
            };
            let Some(row) = row else {
                tx.rollback().await?;
                return Ok(Review::NotFound);
            };
            if row.closed || row.status == "requested" {
                tx.rollback().await?;
                return Ok(Review::NothingToJudge);
            }
            let reason = match verdict {
                Verdict::Accept => "",
                Verdict::Reject { reason } => reason.as_str(),
            };
            sqlx::query("update upload_request set status = $2, reason = $3, reviewed_at = $4, reviewed_by = $5 where id = $1")
                .bind(request_id).bind(verdict.status()).bind(reason).bind(now).bind(staff_id).execute(&mut *tx).await?;
            if let Verdict::Reject { reason } = verdict {
                tx.queue_mail(&mail_for(&row.email, &row.given_name, &row.title, reason), now).await?;
            }
            let entry = AuditEntry::new(staff_id, "readiness.review", "enrollment", enrollment_id)
                .before(serde_json::json!({ "document": row.title, "status": row.status }))
                .after(serde_json::json!({ "document": row.title, "status": verdict.status(), "reason": reason }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Review::Done)
        })
        .context("Failed to record a verdict on a document")
    }
}
