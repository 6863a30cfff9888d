//! A session's roster and attendance (issue 14 item 7): who is booked,
//! whether their forms and balance are done, their kit, and whether they
//! came, which tutors mark (one audit row per mark).

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::{AuditEntry, Db, audit, on_pool};

/// One student on a roster.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RosterStudent {
    pub enrollment_id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub forms_complete: bool,
    pub balance_paid: bool,
    pub balance_due: i64,
    pub kit: Option<String>,
    pub attended: Option<bool>,
}

impl Db {
    /// The students booked on a session, by name.
    pub async fn roster(&self, session_id: &str) -> anyhow::Result<Vec<RosterStudent>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            enrollment_id: String,
            attended: Option<bool>,
            forms_complete: bool,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select r.enrollment_id, r.attended, \
             not exists (select 1 from user_form f where f.enrollment_id = r.enrollment_id and not f.client_complete) as forms_complete \
             from registration r join enrollment e on e.id = r.enrollment_id \
             where r.session_id = $1 and r.type = 'STUDENT' and e.status in ('deposit', 'completed') \
             order by e.family_name, e.given_name, e.id"
        ).bind(session_id).fetch_all(pool).await)
        .context("Failed to read the roster")?;
        let mut students = Vec::with_capacity(rows.len());
        for row in rows {
            let Some(record) = self.enrollment(&row.enrollment_id).await? else { continue };
            let balance_due = record.owed().pence();
            let kit = record.courses.iter().find(|c| c.session_id.as_deref() == Some(session_id)).and_then(|c| c.kit_name.clone());
            students.push(RosterStudent {
                enrollment_id: record.id,
                name: format!("{} {}", record.given_name, record.family_name),
                email: record.email,
                phone: record.contact_number,
                forms_complete: row.forms_complete,
                balance_paid: balance_due == 0,
                balance_due,
                kit,
                attended: row.attended,
            });
        }
        Ok(students)
    }

    /// Marks whether a booked student came; false when they are not on
    /// the session's roster.
    pub async fn mark_attendance(
        &self,
        session_id: &str,
        enrollment_id: &str,
        attended: bool,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let before: Option<Option<bool>> = sqlx::query_scalar(
                "select attended from registration where session_id = $1 and enrollment_id = $2 and type = 'STUDENT'",
            ).bind(session_id).bind(enrollment_id).fetch_optional(&mut *tx).await?;
            let Some(before) = before else {
                tx.rollback().await?;
                return Ok(false);
            };
            sqlx::query("update registration set attended = $3 where session_id = $1 and enrollment_id = $2 and type = 'STUDENT'")
                .bind(session_id).bind(enrollment_id).bind(attended).execute(&mut *tx).await?;
            let entry = AuditEntry::new(staff_id, "session.attendance", "session", session_id)
                .before(serde_json::json!({ "enrollmentId": enrollment_id, "attended": before }))
                .after(serde_json::json!({ "enrollmentId": enrollment_id, "attended": attended }));
            audit!(tx, &entry, now)?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(true)
        })
        .context("Failed to mark attendance")
    }
}
