//! Sends the mail outbox over SMTP (`SMTP_URL`). Every mail is written to
//! the outbox in the same transaction as what it reports, then sent from
//! here: a mail server that is down delays mail, it never loses it or the
//! order. Each instance claims what it sends, so nothing goes out twice
//! unless an instance dies mid-send.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use lettre::message::{Attachment, Mailbox, MultiPart, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use enrol_db::OutboxMail;

use crate::AppState;
use crate::mail_html::{self, Letterhead};

const EVERY: Duration = Duration::from_secs(5);
const LEASE: chrono::Duration = chrono::Duration::minutes(2);
const BATCH: i64 = 20;

pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Option<Mailbox>,
}

/// What one run did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sent {
    pub sent: usize,
    pub failed: usize,
}

impl Mailer {
    pub fn new(smtp_url: &str, from: Option<&str>) -> anyhow::Result<Self> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url)
            .context("SMTP_URL is not a valid smtp:// or smtps:// address")?
            .timeout(Some(Duration::from_secs(20)))
            .build();
        let from = from.map(|f| f.parse::<Mailbox>().context("ENROL_MAIL_FROM is not a valid sender")).transpose()?;
        Ok(Mailer { transport, from })
    }

    /// The mail as sent: its plain text as written, and the same in the
    /// college's letterhead as HTML, the one a mail client prefers.
    fn message(&self, mail: &OutboxMail, sender: &Mailbox, letterhead: &Letterhead) -> anyhow::Result<Message> {
        let html = mail_html::render(&mail.subject, &mail.body_text, letterhead)?;
        let text = MultiPart::alternative_plain_html(mail.body_text.clone(), html);
        let mut builder = Message::builder()
            .from(sender.clone())
            .to(mail.to_address.parse().context("The recipient is not a valid address")?)
            .subject(&mail.subject);
        if let Some(reply_to) = &mail.reply_to {
            builder = builder.reply_to(reply_to.parse().context("The reply-to is not a valid address")?);
        }
        let (Some(name), Some(kind), Some(body)) = (&mail.attachment_name, &mail.attachment_type, &mail.attachment_body) else {
            return builder.multipart(text).context("Failed to build the mail");
        };
        let kind = ContentType::parse(kind).context("The attachment's content type is not valid")?;
        builder
            .multipart(MultiPart::mixed().multipart(text).singlepart(Attachment::new(name.clone()).body(body.clone(), kind)))
            .context("Failed to build the mail")
    }

    /// Sends what is due as of `now`.
    pub async fn send_due(&self, state: &AppState, now: DateTime<Utc>) -> anyhow::Result<Sent> {
        let due = state.db.claim_due_mail(now, LEASE, BATCH).await?;
        let mut result = Sent::default();
        if due.is_empty() {
            return Ok(result);
        }
        let site = state.db.site().await?.context("No site data to send mail from")?.site;
        let letterhead = Letterhead::of(&site, &state.config.public_url);
        // A sender that cannot be used fails each mail like any other
        // error, counted and tried again later, instead of stopping the
        // outbox every few seconds.
        let sender = match &self.from {
            Some(from) => Ok(from.clone()),
            None => site.email_address.trim().parse().map(|address| Mailbox::new(Some(site.title.clone()), address)).map_err(|error| {
                anyhow::anyhow!(
                    "The college's email address {:?} cannot send mail ({error}): correct it in the site settings, or set ENROL_MAIL_FROM",
                    site.email_address
                )
            }),
        };
        for mail in due {
            let outcome = match &sender {
                Ok(sender) => match self.message(&mail, sender, &letterhead) {
                    Ok(message) => self.transport.send(message).await.map(drop).map_err(anyhow::Error::new),
                    Err(error) => Err(error),
                },
                Err(error) => Err(anyhow::anyhow!("{error:#}")),
            };
            match outcome {
                Ok(()) => {
                    state.db.mark_mail_sent(&mail.id, Utc::now()).await?;
                    result.sent += 1;
                }
                Err(error) => {
                    let message = format!("{error:#}");
                    let again = state.db.mark_mail_failed(&mail.id, &message, now).await?;
                    result.failed += 1;
                    if again {
                        tracing::warn!(mail = %mail.id, error = %message, "Mail not sent; will try again");
                    } else {
                        tracing::error!(mail = %mail.id, error = %message, "Mail not sent after every attempt: check it by hand");
                    }
                }
            }
        }
        Ok(result)
    }

    /// Sends the outbox every five seconds while the server runs.
    pub async fn run(self, state: Arc<AppState>) {
        let mut tick = tokio::time::interval(EVERY);
        loop {
            tick.tick().await;
            if let Err(error) = self.send_due(&state, Utc::now()).await {
                tracing::error!(error = %format!("{error:#}"), "Sending mail failed");
            }
        }
    }
}
