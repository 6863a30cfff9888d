//! An online course completed (decision 025): the student's registrations
//! for it are marked complete and its certificate is issued once, with its
//! mail, in one transaction.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::mail::Mail;

use crate::people::PeopleSteps;
use crate::records::rosters::CertificateHolder;
use crate::{Db, on_pool, public_id};

/// The number of the certificate in force for a student's (`$1`)
/// completion of an online course (`$2`): one without a session.
const COURSE_CERTIFICATE: &str =
    "select number from certificate where user_id = $1 and course_id = $2 and session_id is null and not revoked";

/// What completing a course did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CourseCompletion {
    /// Completed now: the certificate numbered `number` is issued.
    Issued { number: String },
    /// Completed before: its certificate stands.
    AlreadyIssued { number: String },
    /// The student has no registration for the course.
    NotRegistered,
}

impl Db {
    /// Completes `course_id` for `user_id`: every registration of theirs
    /// for it is marked complete, and the certificate numbered `number` is
    /// issued and mailed (`mail_for`), once. The registrations are locked
    /// first, so requests completing the course at once wait for one
    /// another and only the first issues it.
    pub async fn complete_course(
        &self,
        user_id: &str,
        course_id: &str,
        number: &str,
        mail_for: impl Fn(&CertificateHolder) -> Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<CourseCompletion> {
        #[derive(sqlx::FromRow)]
        struct Holder {
            email: String,
            given_name: String,
            family_name: String,
            course_title: String,
        }
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let bought = sqlx::query(
                "update online_registration set complete = true, completed_at = coalesce(completed_at, $3) \
                 where user_id = $1 and course_id = $2",
            ).bind(user_id).bind(course_id).bind(now).execute(&mut *tx).await?.rows_affected() > 0;
            // The theory of a booking: its rows lock the same way.
            let booked = sqlx::query("update booking_theory set revoked_at = revoked_at where user_id = $1 and course_id = $2")
                .bind(user_id).bind(course_id).execute(&mut *tx).await?.rows_affected() > 0;
            let registered = bought || booked;
            if !registered {
                tx.rollback().await?;
                return Ok(CourseCompletion::NotRegistered);
            }
            let issued: Option<String> = sqlx::query_scalar(
                COURSE_CERTIFICATE,
            ).bind(user_id).bind(course_id).fetch_optional(&mut *tx).await?;
            if let Some(number) = issued {
                tx.commit().await?;
                return Ok(CourseCompletion::AlreadyIssued { number });
            }
            let holder: Holder = sqlx::query_as(
                "select u.email, u.given_name, u.family_name, coalesce( \
                 (select r.course_title from online_registration r where r.user_id = u.id and r.course_id = $2 \
                  order by r.starts_at desc limit 1), \
                 (select t.course_title from booking_theory t where t.user_id = u.id and t.course_id = $2 limit 1)) as course_title \
                 from user_account u where u.id = $1",
            ).bind(user_id).bind(course_id).fetch_one(&mut *tx).await?;
            let full_name = format!("{} {}", holder.given_name.trim(), holder.family_name.trim());
            let holder_name = match full_name.trim() {
                "" => holder.email.clone(),
                name => name.to_owned(),
            };
            sqlx::query(
                "insert into certificate (id, number, user_id, holder_name, course_id, course_title, session_id, issued_on) \
                 values ($1, $2, $3, $4, $5, $6, null, $7)",
            )
            .bind(public_id()).bind(number).bind(user_id).bind(&holder_name).bind(course_id).bind(&holder.course_title)
            .bind(enrol_domain::london::today(now))
            .execute(&mut *tx).await?;
            let mail = mail_for(&CertificateHolder {
                email: holder.email,
                given_name: holder.given_name,
                course_title: holder.course_title,
                number: number.to_owned(),
            });
            tx.queue_mail(&mail, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(CourseCompletion::Issued { number: number.to_owned() })
        })
        .context("Failed to complete the course")
    }
}

impl Db {
    /// The number of the certificate in force for `user_id`'s completion of
    /// the online course `course_id`, if they completed it.
    pub async fn course_certificate(&self, user_id: &str, course_id: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar(
            COURSE_CERTIFICATE
        ).bind(user_id).bind(course_id).fetch_optional(pool).await)
        .context("Failed to read the course's certificate")
    }
}
