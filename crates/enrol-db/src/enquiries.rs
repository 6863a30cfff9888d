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

impl Db {
    /// Stores the enquiry and queues its mail to `college_address` in one
    /// transaction: both or neither.
    pub async fn save_enquiry(&self, enquiry: &Enquiry, college_address: &str, now: DateTime<Utc>) -> anyhow::Result<String> {
        let id = uuid::Uuid::now_v7().to_string();
        let data = serde_json::to_string(enquiry)?;
        let subject = format!("{}: {}", enquiry.kind.subject(), enquiry.name);
        let reply_to = (!enquiry.email.is_empty()).then(|| enquiry.email.clone());
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("insert into form_submission (id, kind, data, created_at) values ($1, $2, $3, $4)")
                .bind(&id).bind(enquiry.kind.as_str()).bind(&data).bind(now)
                .execute(&mut *tx).await?;
            sqlx::query("insert into mail_outbox (id, to_address, reply_to, subject, body_text, created_at) values ($1, $2, $3, $4, $5, $6)")
                .bind(uuid::Uuid::now_v7().to_string()).bind(college_address).bind(&reply_to).bind(&subject)
                .bind(enquiry.mail_body()).bind(now)
                .execute(&mut *tx).await?;
            tx.commit().await
        })
        .context("Failed to store the enquiry")?;
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
