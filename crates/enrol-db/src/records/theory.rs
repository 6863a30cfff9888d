//! Pre-course online theory (decision 025): a week before training, a
//! student whose booking gave them an in-person course's online theory
//! (`OrderSteps::grant_theory`) and who has not finished it is reminded,
//! once.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDateTime, Utc};

use enrol_domain::mail::Mail;

use crate::people::PeopleSteps;
use crate::{Db, on_pool};

/// A booked student whose theory is due a reminder: their first session
/// of the booking starts within the week.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TheoryReminder {
    pub enrollment_id: String,
    pub course_id: String,
    pub course_title: String,
    pub user_id: String,
    pub email: String,
    pub given_name: String,
    /// The start of their training, London wall clock.
    pub training_starts: NaiveDateTime,
}

impl Db {
    /// The students booked on training that starts between `now` and a
    /// week after it, whose theory is not yet reminded, still open to them,
    /// and not completed.
    pub async fn theory_reminders_due(
        &self,
        now: DateTime<Utc>,
        week_ahead: NaiveDateTime,
        today: NaiveDateTime,
    ) -> anyhow::Result<Vec<TheoryReminder>> {
        on_pool!(self, pool => sqlx::query_as(
            "select t.enrollment_id, t.course_id, t.course_title, t.user_id, u.email, u.given_name, min(s.start_at) as training_starts \
             from booking_theory t join user_account u on u.id = t.user_id \
             join registration r on r.enrollment_id = t.enrollment_id and r.type = 'STUDENT' join session s on s.id = r.session_id \
             join enrollment e on e.id = t.enrollment_id \
             where t.reminded_at is null and t.revoked_at is null and t.ends_at > $1 and e.status in ('deposit', 'completed') \
             and not exists (select 1 from certificate c where c.user_id = t.user_id and c.course_id = t.course_id \
                             and c.session_id is null and not c.revoked) \
             group by t.enrollment_id, t.course_id, t.course_title, t.user_id, u.email, u.given_name \
             having min(s.start_at) > $3 and min(s.start_at) <= $2"
        ).bind(now).bind(week_ahead).bind(today).fetch_all(pool).await)
        .context("Failed to read the theory reminders due")
    }

    /// Sends `mail` for `reminder` and notes it sent, once: a second call,
    /// from this instance or another, finds it noted and sends nothing.
    pub async fn send_theory_reminder(&self, reminder: &TheoryReminder, mail: &Mail, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let noted = sqlx::query(
                "update booking_theory set reminded_at = $3 where enrollment_id = $1 and course_id = $2 and reminded_at is null",
            ).bind(&reminder.enrollment_id).bind(&reminder.course_id).bind(now).execute(&mut *tx).await?.rows_affected() == 1;
            if noted {
                tx.queue_mail(mail, now).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(noted)
        })
        .context("Failed to send the theory reminder")
    }
}
