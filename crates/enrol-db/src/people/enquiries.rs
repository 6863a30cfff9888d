//! Enquiries from the site's forms, and the mail outbox they feed, from
//! which staff send an order's mail again (decision 017).

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde_json::json;

use enrol_domain::enquiry::Enquiry;
use enrol_domain::mail::{Attachment, Mail};

use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool};

/// A mail waiting in (or sent from) the outbox.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxMail {
    pub id: String,
    pub to_address: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub body_text: String,
    pub attachment_name: Option<String>,
    pub attachment_type: Option<String>,
    pub attachment_body: Option<String>,
}

impl Db {
    /// Stores the enquiry and queues its mail to `college_address`, and the
    /// enquirer's acknowledgement (`acknowledgement`), all or nothing.
    pub async fn save_enquiry(
        &self,
        enquiry: &Enquiry,
        college_address: &str,
        acknowledgement: Option<Mail>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<String> {
        let mail = Mail {
            to: college_address.to_owned(),
            reply_to: (!enquiry.email.is_empty()).then(|| enquiry.email.clone()),
            subject: format!("{}: {}", enquiry.kind.subject(), enquiry.name),
            body: enquiry.mail_body(),
            attachment: None,
        };
        let mails: Vec<Mail> = std::iter::once(mail).chain(acknowledgement).collect();
        self.save_form(enquiry.kind.as_str(), &serde_json::to_string(enquiry)?, &mails, now).await
    }

    /// Stores a form of `kind` and queues its mails in one transaction: all
    /// or none.
    pub async fn save_form(&self, kind: &str, data: &str, mails: &[Mail], now: DateTime<Utc>) -> anyhow::Result<String> {
        let id = uuid::Uuid::now_v7().to_string();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("insert into form_submission (id, kind, data, created_at) values ($1, $2, $3, $4)")
                .bind(&id).bind(kind).bind(data).bind(now)
                .execute(&mut *tx).await?;
            for mail in mails {
                tx.queue_mail(mail, now).await?;
            }
            tx.commit().await
        })
        .context("Failed to store the form")?;
        Ok(id)
    }

    /// Queues one mail that goes with no other change.
    pub async fn queue_lone_mail(&self, mail: &Mail, now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            tx.queue_mail(mail, now).await?;
            tx.commit().await
        })
        .context("Failed to queue a mail")
    }

    /// The newest mails first.
    pub async fn outbox(&self, limit: i64) -> anyhow::Result<Vec<OutboxMail>> {
        on_pool!(self, pool => sqlx::query_as(
            "select id, to_address, reply_to, subject, body_text, attachment_name, attachment_type, attachment_body from mail_outbox order by created_at desc, id desc limit $1"
        ).bind(limit).fetch_all(pool).await)
        .context("Failed to read the outbox")
    }

    /// Claims up to `limit` mails due for sending as of `now` for `lease`:
    /// another instance will not take them until the lease runs out.
    pub async fn claim_due_mail(&self, now: DateTime<Utc>, lease: chrono::Duration, limit: i64) -> anyhow::Result<Vec<OutboxMail>> {
        let due: Vec<OutboxMail> = on_pool!(self, pool => sqlx::query_as(
            "select id, to_address, reply_to, subject, body_text, attachment_name, attachment_type, attachment_body from mail_outbox \
             where sent_at is null and attempts < $2 and (next_attempt_at is null or next_attempt_at <= $1) \
             and (claimed_until is null or claimed_until <= $1) order by created_at, id limit $3"
        ).bind(now).bind(MAX_ATTEMPTS).bind(limit).fetch_all(pool).await)
        .context("Failed to read the mail due")?;
        let mut claimed = Vec::with_capacity(due.len());
        for mail in due {
            let won = on_pool!(self, pool => sqlx::query(
                "update mail_outbox set claimed_until = $2 where id = $1 and sent_at is null and (claimed_until is null or claimed_until <= $3)"
            ).bind(&mail.id).bind(now + lease).bind(now).execute(pool).await.map(|r| r.rows_affected() == 1))
            .context("Failed to claim a mail")?;
            if won {
                claimed.push(mail);
            }
        }
        Ok(claimed)
    }

    pub async fn mark_mail_sent(&self, id: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("update mail_outbox set sent_at = $2, claimed_until = null, last_error = null where id = $1")
            .bind(id).bind(now).execute(pool).await.map(drop))
        .context("Failed to mark a mail sent")
    }

    /// Records a failed attempt; the next waits longer each time, up to
    /// [`MAX_ATTEMPTS`]. Returns whether the mail will be tried again.
    pub async fn mark_mail_failed(&self, id: &str, error: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let attempts: i32 = on_pool!(self, pool => sqlx::query_scalar(
            "update mail_outbox set attempts = attempts + 1, claimed_until = null, last_error = $2 where id = $1 returning attempts"
        ).bind(id).bind(error).fetch_one(pool).await)
        .context("Failed to record a failed mail")?;
        let wait = chrono::Duration::minutes(1_i64 << attempts.clamp(0, 9)).min(chrono::Duration::hours(6));
        on_pool!(self, pool => sqlx::query("update mail_outbox set next_attempt_at = $2 where id = $1")
            .bind(id).bind(now + wait).execute(pool).await.map(drop))
        .context("Failed to schedule a mail's next attempt")?;
        Ok(attempts < MAX_ATTEMPTS)
    }

    /// Queues a copy of mail `mail_id` (its subject, body and attachment)
    /// if it went to the address of order `order_id`, as staff member
    /// `staff_id` asked: false when it did not.
    pub async fn resend_order_mail(&self, order_id: &str, mail_id: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        #[derive(sqlx::FromRow)]
        struct Row {
            to_address: String,
            reply_to: Option<String>,
            subject: String,
            body_text: String,
            attachment_name: Option<String>,
            attachment_type: Option<String>,
            attachment_body: Option<String>,
        }
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let row: Option<Row> = sqlx::query_as(
                "select m.to_address, m.reply_to, m.subject, m.body_text, m.attachment_name, m.attachment_type, m.attachment_body \
                 from mail_outbox m join enrollment e on lower(m.to_address) = lower(trim(e.email)) \
                 where m.id = $1 and e.id = $2 and trim(e.email) <> ''"
            ).bind(mail_id).bind(order_id).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.rollback().await?;
                return Ok(false);
            };
            let attachment = match (row.attachment_name, row.attachment_type, row.attachment_body) {
                (Some(name), Some(content_type), Some(body)) => Some(Attachment { name, content_type, body }),
                _ => None,
            };
            let mail = Mail { to: row.to_address, reply_to: row.reply_to, subject: row.subject, body: row.body_text, attachment };
            tx.queue_mail(&mail, now).await?;
            let entry = AuditEntry::new(staff_id, "order.resend_mail", "order", order_id)
                .after(json!({ "mailId": mail_id, "to": mail.to, "subject": mail.subject }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .context("Failed to send the mail again")
    }
}

/// After this many failed attempts a mail is left for a person to look at.
pub const MAX_ATTEMPTS: i32 = 10;
