//! The newsletter's double opt-in: an address asks, a link is mailed, and
//! it joins only when the link is opened, so nobody is signed up by
//! someone else.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::mail::Mail;

use crate::people::PeopleSteps;
use crate::{Db, on_pool};

impl Db {
    /// Records that `email` asked to join with `consent_text`, and queues
    /// `mail` with its confirmation link, in one transaction. An address
    /// already confirmed is left as it is and gets no mail.
    pub async fn ask_newsletter(
        &self,
        email: &str,
        consent_text: &str,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        mail: &Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let asked = sqlx::query(
                "insert into newsletter_subscriber (email, consent_text, asked_at) values ($1, $2, $3) \
                 on conflict (email) do update set consent_text = excluded.consent_text, asked_at = excluded.asked_at \
                 where newsletter_subscriber.confirmed_at is null"
            ).bind(email).bind(consent_text).bind(now).execute(&mut *tx).await?;
            if asked.rows_affected() == 1 {
                sqlx::query("insert into newsletter_confirmation (token_hash, email, expires_at) values ($1, $2, $3)")
                    .bind(token_hash).bind(email).bind(expires_at).execute(&mut *tx).await?;
                tx.queue_mail(mail, now).await?;
            }
            tx.commit().await
        })
        .context("Failed to record a newsletter request")
    }

    /// Uses a confirmation link once: the address it was mailed to joins.
    /// `None` for an unknown, used or expired link.
    pub async fn confirm_newsletter(&self, token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<String>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let email: Option<String> =
                sqlx::query_scalar("delete from newsletter_confirmation where token_hash = $1 and expires_at > $2 returning email")
                    .bind(token_hash).bind(now).fetch_optional(&mut *tx).await?;
            if let Some(email) = &email {
                sqlx::query("update newsletter_subscriber set confirmed_at = coalesce(confirmed_at, $1) where email = $2")
                    .bind(now).bind(email).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(email)
        })
        .context("Failed to confirm a newsletter subscription")
    }
}
