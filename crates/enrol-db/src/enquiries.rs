//! Enquiries from the site's forms, and the mail outbox they feed.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::enquiry::Enquiry;

use crate::{Db, on_pool};

/// A mail waiting in (or sent from) the outbox.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxMail {
    pub id: String,
    pub to_address: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub body_text: String,
}

/// The mail a form sends to the college.
pub struct FormMail<'a> {
    pub to: &'a str,
    pub reply_to: Option<&'a str>,
    pub subject: String,
    pub body: String,
}

impl Db {
    /// Stores the enquiry and queues its mail to `college_address`.
    pub async fn save_enquiry(&self, enquiry: &Enquiry, college_address: &str, now: DateTime<Utc>) -> anyhow::Result<String> {
        let mail = FormMail {
            to: college_address,
            reply_to: (!enquiry.email.is_empty()).then_some(enquiry.email.as_str()),
            subject: format!("{}: {}", enquiry.kind.subject(), enquiry.name),
            body: enquiry.mail_body(),
        };
        self.save_form(enquiry.kind.as_str(), &serde_json::to_string(enquiry)?, &mail, now).await
    }

    /// Stores a form of `kind` and queues its mail in one transaction: both
    /// or neither.
    pub async fn save_form(&self, kind: &str, data: &str, mail: &FormMail<'_>, now: DateTime<Utc>) -> anyhow::Result<String> {
        let id = uuid::Uuid::now_v7().to_string();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("insert into form_submission (id, kind, data, created_at) values ($1, $2, $3, $4)")
                .bind(&id).bind(kind).bind(data).bind(now)
                .execute(&mut *tx).await?;
            sqlx::query("insert into mail_outbox (id, to_address, reply_to, subject, body_text, created_at) values ($1, $2, $3, $4, $5, $6)")
                .bind(uuid::Uuid::now_v7().to_string()).bind(mail.to).bind(mail.reply_to).bind(&mail.subject)
                .bind(&mail.body).bind(now)
                .execute(&mut *tx).await?;
            tx.commit().await
        })
        .context("Failed to store the form")?;
        Ok(id)
    }

    /// The newest mails first.
    pub async fn outbox(&self, limit: i64) -> anyhow::Result<Vec<OutboxMail>> {
        on_pool!(self, pool => sqlx::query_as(
            "select id, to_address, reply_to, subject, body_text from mail_outbox order by created_at desc, id desc limit $1"
        ).bind(limit).fetch_all(pool).await)
        .context("Failed to read the outbox")
    }
}
