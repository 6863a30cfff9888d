//! The enquiry inbox as staff work through it (decision 017): what the
//! site's forms stored, where staff are with each, who owns it, their notes
//! and the replies they mailed. Each change is one transaction with its one
//! audit row ([`crate::people::PeopleSteps::audit`]); a reply's mail is
//! queued in the same one.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use ts_rs::TS;

use enrol_domain::inbox::{EnquiryDetails, EnquiryStatus, reply_mail};
use enrol_domain::staff::{Permission, Role};

use crate::AuditEntry;
use crate::people::PeopleSteps;
use crate::{College, Db, on_pool, public_id};

/// The most enquiries the inbox lists at once, newest first.
pub const INBOX_LIMIT: i64 = 500;

/// An enquiry in the inbox (decision 017's enquiry row).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct InboxEnquiry {
    pub id: String,
    pub kind: String,
    pub created_at: DateTime<Utc>,
    #[serde(flatten)]
    pub details: EnquiryDetails,
    pub status: EnquiryStatus,
    pub owner_id: Option<String>,
    pub owner_name: Option<String>,
    /// Oldest first.
    pub notes: Vec<EnquiryNote>,
    /// Oldest first.
    pub replies: Vec<EnquiryReply>,
}

/// A reply staff mailed to whoever sent an enquiry.
#[derive(Debug, Clone, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EnquiryReply {
    #[serde(skip)]
    pub submission_id: String,
    pub at: DateTime<Utc>,
    pub staff_name: String,
    pub to: String,
    pub subject: String,
    pub text: String,
}

/// What replying to an enquiry did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnquiryReplied {
    /// Kept, and its mail queued.
    Sent,
    NotFound,
    /// Whoever sent it left no email address.
    NoEmail,
}

/// A note staff kept on an enquiry.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EnquiryNote {
    pub at: DateTime<Utc>,
    pub staff_name: String,
    pub text: String,
}

/// What changing an enquiry's status and owner did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnquiryChange {
    /// Changed, or left as it was when nothing changed.
    Done,
    NotFound,
    /// The owner is not an active staff member who handles enquiries.
    UnknownOwner,
}

/// The submissions that the placeholders `id`, `status` and `kind` pick,
/// each when given: an id, a status and a kind.
fn picked(id: &str, status: &str, kind: &str) -> String {
    format!("({id} is null or f.id = {id}) and ({status} is null or f.status = {status}) and ({kind} is null or f.kind = {kind})")
}

impl Db {
    /// The newest [`INBOX_LIMIT`] enquiries of `status` and `kind`, each
    /// when given.
    pub async fn enquiries(&self, status: Option<EnquiryStatus>, kind: Option<&str>) -> anyhow::Result<Vec<InboxEnquiry>> {
        self.inbox(None, status, kind).await
    }

    /// One enquiry, as the inbox lists it.
    pub async fn enquiry(&self, id: &str) -> anyhow::Result<Option<InboxEnquiry>> {
        Ok(self.inbox(Some(id), None, None).await?.into_iter().next())
    }

    async fn inbox(&self, id: Option<&str>, status: Option<EnquiryStatus>, kind: Option<&str>) -> anyhow::Result<Vec<InboxEnquiry>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            kind: String,
            data: String,
            created_at: DateTime<Utc>,
            status: String,
            owner_id: Option<String>,
            owner_name: Option<String>,
        }
        #[derive(sqlx::FromRow)]
        struct NoteRow {
            submission_id: String,
            at: DateTime<Utc>,
            staff_name: String,
            body: String,
        }
        let status = status.map(EnquiryStatus::as_str);
        let filter = picked("$1", "$2", "$3");
        let (rows, notes, replies): (Vec<Row>, Vec<NoteRow>, Vec<EnquiryReply>) = on_pool!(self, pool => {
            let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select f.id, f.kind, f.data, f.created_at, f.status, f.owner_id, a.name as owner_name from form_submission f \
                 left join staff_account a on a.id = f.owner_id where {filter} order by f.created_at desc, f.id desc limit $4"
            ))).bind(id).bind(status).bind(kind).bind(INBOX_LIMIT).fetch_all(pool).await?;
            let notes = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select n.submission_id, n.at, a.name as staff_name, n.body from enquiry_note n \
                 join staff_account a on a.id = n.staff_id join form_submission f on f.id = n.submission_id where {filter} \
                 order by n.at, n.id"
            ))).bind(id).bind(status).bind(kind).fetch_all(pool).await?;
            let replies = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select r.submission_id, r.at, a.name as staff_name, r.to_address as \"to\", r.subject, r.body as text from enquiry_reply r \
                 join staff_account a on a.id = r.staff_id join form_submission f on f.id = r.submission_id where {filter} \
                 order by r.at, r.id"
            ))).bind(id).bind(status).bind(kind).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((rows, notes, replies))
        })
        .context("Failed to read the enquiries")?;
        rows.into_iter()
            .map(|row| {
                Ok(InboxEnquiry {
                    details: EnquiryDetails::read(&row.kind, &row.data),
                    status: EnquiryStatus::parse(&row.status).with_context(|| format!("Unknown enquiry status {}", row.status))?,
                    notes: notes
                        .iter()
                        .filter(|note| note.submission_id == row.id)
                        .map(|note| EnquiryNote { at: note.at, staff_name: note.staff_name.clone(), text: note.body.clone() })
                        .collect(),
                    replies: replies.iter().filter(|reply| reply.submission_id == row.id).cloned().collect(),
                    id: row.id,
                    kind: row.kind,
                    created_at: row.created_at,
                    owner_id: row.owner_id,
                    owner_name: row.owner_name,
                })
            })
            .collect()
    }

    /// Sets where staff are with enquiry `id` and who owns it (`None`:
    /// nobody): an active staff member whose role handles enquiries.
    pub async fn change_enquiry(
        &self,
        id: &str,
        status: EnquiryStatus,
        owner_id: Option<&str>,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<EnquiryChange> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Locks the row, so the audit row's "before" is what was changed.
            sqlx::query("update form_submission set status = status where id = $1").bind(id).execute(&mut *tx).await?;
            let before: Option<(String, Option<String>)> =
                sqlx::query_as("select status, owner_id from form_submission where id = $1").bind(id).fetch_optional(&mut *tx).await?;
            let Some((before_status, before_owner)) = before else {
                tx.rollback().await?;
                return Ok(EnquiryChange::NotFound);
            };
            if let Some(owner_id) = owner_id {
                let role: Option<String> =
                    sqlx::query_scalar("select role from staff_account where id = $1 and active and disabled_at is null")
                        .bind(owner_id).fetch_optional(&mut *tx).await?;
                if !role.as_deref().and_then(Role::parse).is_some_and(|role| role.allows(Permission::Enquiries)) {
                    tx.rollback().await?;
                    return Ok(EnquiryChange::UnknownOwner);
                }
            }
            if before_status == status.as_str() && before_owner.as_deref() == owner_id {
                tx.rollback().await?;
                return Ok(EnquiryChange::Done);
            }
            sqlx::query("update form_submission set status = $2, owner_id = $3 where id = $1")
                .bind(id).bind(status.as_str()).bind(owner_id).execute(&mut *tx).await?;
            let entry = AuditEntry::new(staff_id, "enquiry.update", "enquiry", id)
                .before(json!({ "status": before_status, "ownerId": before_owner }))
                .after(json!({ "status": status.as_str(), "ownerId": owner_id }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(EnquiryChange::Done)
        })
        .context("Failed to change the enquiry")
    }

    /// Keeps `text` (already checked) as a note by `staff_id` on enquiry
    /// `id`; false when there is no such enquiry.
    pub async fn add_enquiry_note(&self, id: &str, text: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        let note_id = public_id();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let added = sqlx::query(
                "insert into enquiry_note (id, submission_id, staff_id, at, body) \
                 select $1, f.id, $3, $4, $5 from form_submission f where f.id = $2",
            )
            .bind(&note_id).bind(id).bind(staff_id).bind(now).bind(text).execute(&mut *tx).await?.rows_affected() == 1;
            if !added {
                tx.rollback().await?;
                return Ok(false);
            }
            let entry = AuditEntry::new(staff_id, "enquiry.note", "enquiry", id).after(json!({ "note": note_id, "text": text }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .context("Failed to add the note")
    }

    /// Mails staff member `staff_id`'s reply `text` (already checked) to
    /// whoever sent enquiry `id`, answers going to `college`'s address, and
    /// keeps it on the enquiry: the reply, its mail and its audit row in one
    /// transaction. A new enquiry is in progress from then on.
    pub async fn reply_to_enquiry(
        &self,
        id: &str,
        text: &str,
        staff_id: &str,
        college: &College,
        now: DateTime<Utc>,
    ) -> anyhow::Result<EnquiryReplied> {
        let _turn = self.write_turn().await;
        let reply_id = public_id();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("update form_submission set status = status where id = $1").bind(id).execute(&mut *tx).await?;
            let found: Option<(String, String, String)> =
                sqlx::query_as("select kind, data, status from form_submission where id = $1").bind(id).fetch_optional(&mut *tx).await?;
            let Some((kind, data, status)) = found else {
                tx.rollback().await?;
                return Ok(EnquiryReplied::NotFound);
            };
            let staff_name: String = sqlx::query_scalar("select name from staff_account where id = $1").bind(staff_id).fetch_one(&mut *tx).await?;
            let Some(mail) = reply_mail(&EnquiryDetails::read(&kind, &data), text, &staff_name, &college.name, &college.email_address) else {
                tx.rollback().await?;
                return Ok(EnquiryReplied::NoEmail);
            };
            sqlx::query(
                "insert into enquiry_reply (id, submission_id, staff_id, at, to_address, subject, body) values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&reply_id).bind(id).bind(staff_id).bind(now).bind(&mail.to).bind(&mail.subject).bind(text).execute(&mut *tx).await?;
            tx.queue_mail(&mail, now).await?;
            let status = if status == EnquiryStatus::New.as_str() {
                sqlx::query("update form_submission set status = $2 where id = $1")
                    .bind(id).bind(EnquiryStatus::InProgress.as_str()).execute(&mut *tx).await?;
                EnquiryStatus::InProgress.as_str().to_owned()
            } else {
                status
            };
            let entry = AuditEntry::new(staff_id, "enquiry.reply", "enquiry", id)
                .after(json!({ "reply": reply_id, "to": mail.to, "subject": mail.subject, "text": text, "status": status }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(EnquiryReplied::Sent)
        })
        .context("Failed to send the reply")
    }
}
