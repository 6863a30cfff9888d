//! The steps of people's data inside a caller's transaction, on either
//! engine ([`crate::for_both_engines!`]): the mail outbox, the audit log,
//! the account a purchase joins, the link that starts a guest's course and
//! the tutors staff name.

use chrono::{DateTime, Utc};

use enrol_domain::mail::Mail;

use crate::people::course_start::StartLink;
use crate::{AuditEntry, for_both_engines, public_id};

pub(crate) trait PeopleSteps {
    /// Queues `mail` in the outbox: sent by the mailer after the
    /// transaction commits, never before, never twice.
    async fn queue_mail(&mut self, mail: &Mail, now: DateTime<Utc>) -> sqlx::Result<()>;

    /// Writes `entry` to the audit log, in the transaction of the change it
    /// describes.
    async fn audit(&mut self, entry: &AuditEntry, now: DateTime<Utc>) -> sqlx::Result<()>;

    /// Links to `user_id` the purchases made with `email` that belong to no
    /// account yet: called when the address is proven (verification or a
    /// password reset), inside that transaction.
    async fn claim_purchases(&mut self, user_id: &str, email: &str) -> sqlx::Result<()>;

    /// The account a paid purchase joins: `user_id` (set when it was bought
    /// signed in), else the account whose proven email is `email`. Only a
    /// proven address links a guest's purchase to an account.
    async fn account_for(&mut self, user_id: &Option<String>, email: &str) -> sqlx::Result<Option<String>>;

    /// Whether `tutor_id` is none or an active tutor's.
    async fn tutor_is_known(&mut self, tutor_id: Option<&str>) -> sqlx::Result<bool>;

    /// Keeps `link`, which starts `course_id`, for the account of `email`,
    /// made (without a password, named `name`) when the address has none.
    async fn keep_start_link(&mut self, email: &str, name: &str, course_id: &str, link: &StartLink) -> sqlx::Result<()>;
}

for_both_engines! {
    impl PeopleSteps {
        async fn queue_mail(&mut self, mail: &Mail, now: DateTime<Utc>) -> sqlx::Result<()> {
            let attachment = mail.attachment.as_ref();
            sqlx::query(
                "insert into mail_outbox (id, to_address, reply_to, subject, body_text, created_at, attachment_name, attachment_type, \
                 attachment_body) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(public_id())
            .bind(&mail.to)
            .bind(&mail.reply_to)
            .bind(&mail.subject)
            .bind(&mail.body)
            .bind(now)
            .bind(attachment.map(|a| a.name.as_str()))
            .bind(attachment.map(|a| a.content_type.as_str()))
            .bind(attachment.map(|a| a.body.as_str()))
            .execute(&mut *self)
            .await?;
            Ok(())
        }

        async fn audit(&mut self, entry: &AuditEntry, now: DateTime<Utc>) -> sqlx::Result<()> {
            sqlx::query(
                "insert into audit_log (at, staff_id, action, entity, entity_id, before_data, after_data) \
                 values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(now)
            .bind(&entry.staff_id)
            .bind(entry.action)
            .bind(entry.entity)
            .bind(&entry.entity_id)
            .bind(entry.before.as_ref().map(|v| v.to_string()))
            .bind(entry.after.as_ref().map(|v| v.to_string()))
            .execute(&mut *self)
            .await?;
            Ok(())
        }

        async fn claim_purchases(&mut self, user_id: &str, email: &str) -> sqlx::Result<()> {
            for sql in [
                "update enrollment set user_id = $1 where email = $2 and user_id is null",
                "update online_order set user_id = $1 where email = $2 and user_id is null",
                "update registration set user_id = $1 where user_id is null and enrollment_id in (select id from enrollment where user_id = $1)",
                "update online_registration set user_id = $1 where user_id is null and online_order_id in (select id from online_order where user_id = $1)",
                "update booking_theory set user_id = $1 where user_id is null and enrollment_id in (select id from enrollment where user_id = $1)",
                "update user_form set user_id = $1 where user_id is null and enrollment_id in (select id from enrollment where user_id = $1)",
                "update upload_request set user_id = $1 where user_id is null and enrollment_id in (select id from enrollment where user_id = $1)",
                "update payment set user_id = $1 where user_id is null and (enrollment_id in (select id from enrollment where user_id = $1) \
                 or online_order_id in (select id from online_order where user_id = $1))",
            ] {
                sqlx::query(sql).bind(user_id).bind(email).execute(&mut *self).await?;
            }
            Ok(())
        }

        async fn account_for(&mut self, user_id: &Option<String>, email: &str) -> sqlx::Result<Option<String>> {
            match user_id {
                Some(id) => Ok(Some(id.clone())),
                None => {
                    sqlx::query_scalar("select id from user_account where email = $1 and email_verified_at is not null")
                        .bind(email)
                        .fetch_optional(&mut *self)
                        .await
                }
            }
        }

        async fn keep_start_link(&mut self, email: &str, name: &str, course_id: &str, link: &StartLink) -> sqlx::Result<()> {
            let (given_name, family_name) = match name.trim().rsplit_once(' ') {
                Some((given, family)) => (given.trim(), family.trim()),
                None => (name.trim(), ""),
            };
            sqlx::query(
                "insert into user_account (id, email, given_name, family_name, created_at) values ($1, $2, $3, $4, $5) \
                 on conflict (email) do nothing",
            )
            .bind(public_id()).bind(email).bind(given_name).bind(family_name).bind(link.made_at)
            .execute(&mut *self)
            .await?;
            sqlx::query(
                "insert into password_reset (token_hash, user_id, expires_at, course_id) \
                 select $1, id, $3, $4 from user_account where email = $2",
            )
            .bind(&link.token_hash).bind(email).bind(link.expires_at).bind(course_id)
            .execute(&mut *self)
            .await?;
            Ok(())
        }

        async fn tutor_is_known(&mut self, tutor_id: Option<&str>) -> sqlx::Result<bool> {
            let Some(id) = tutor_id else { return Ok(true) };
            let found: i64 = sqlx::query_scalar("select count(*) from staff_account where id = $1 and role = 'tutor' and disabled_at is null")
                .bind(id)
                .fetch_one(&mut *self)
                .await?;
            Ok(found == 1)
        }
    }
}
