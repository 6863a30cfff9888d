//! Staff's changes to a student's access to an online course (decision
//! 027): a course given without an order, a registration's last day
//! moved, access withdrawn and given back. Each is one transaction that
//! locks what it changes, lets `enrol_domain::online_access`
//! decide, carries it out and writes the audit row with what was before
//! and after.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;

use enrol_domain::learning::access::{Access, last_day};
use enrol_domain::online_access::{AccessChangeRefused, check_revocation, end_on, grant_ends};

use crate::orders::OrderSteps;
use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool, public_id};

/// A change to one registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegistrationChange {
    /// Access ends at the end of this London day.
    LastDay(NaiveDate),
    /// Withdrawn, for this reason.
    Revoke(String),
    /// Given back after a withdrawal.
    Restore,
}

/// What a change to access did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessChanged {
    /// Done: the registration made or changed.
    Done {
        registration_id: String,
    },
    Refused(AccessChangeRefused),
    /// No student account has that email.
    NoAccount,
    /// No online course has that id.
    UnknownCourse,
    UnknownRegistration,
}

/// A registration's dates as its lock reads them.
#[derive(sqlx::FromRow)]
struct Dates {
    starts_at: DateTime<Utc>,
    ends_at: DateTime<Utc>,
    revoked_at: Option<DateTime<Utc>>,
    revoke_reason: Option<String>,
}

impl Db {
    /// Gives the student whose account is `email` online course
    /// `course_id` from `now`, to the end of `last_day` or for the
    /// curriculum's months, as staff member `staff_id` decided.
    pub async fn grant_course(
        &self,
        email: &str,
        course_id: &str,
        last_day_chosen: Option<NaiveDate>,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<AccessChanged> {
        let email = email.trim().to_lowercase();
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The account's row lock: grants for one student take turns.
            let user_id: Option<String> = sqlx::query_scalar("update user_account set email = email where lower(email) = $1 returning id")
                .bind(&email).fetch_optional(&mut *tx).await?;
            let Some(user_id) = user_id else {
                tx.rollback().await?;
                return Ok(AccessChanged::NoAccount);
            };
            let title: Option<String> = sqlx::query_scalar("select title from course where id = $1 and online")
                .bind(course_id).fetch_optional(&mut *tx).await?;
            let Some(title) = title else {
                tx.rollback().await?;
                return Ok(AccessChanged::UnknownCourse);
            };
            let best: Option<Dates> = sqlx::query_as(
                "select starts_at, ends_at, revoked_at, revoke_reason from online_registration where user_id = $1 and course_id = $2 \
                 and not removed order by (revoked_at is null) desc, ends_at desc limit 1"
            ).bind(&user_id).bind(course_id).fetch_optional(&mut *tx).await?;
            let current = best.map(|d| Access::of(d.starts_at, d.ends_at, d.revoked_at, now));
            let delivery = tx.course_delivery(course_id).await?;
            let ends_at = match grant_ends(current, last_day_chosen, delivery.months, now) {
                Ok(ends_at) => ends_at,
                Err(refused) => {
                    tx.rollback().await?;
                    return Ok(AccessChanged::Refused(refused));
                }
            };
            let id = public_id();
            let (provider_course, provider_group) = delivery.provider_ids();
            sqlx::query(
                "insert into online_registration (id, user_id, online_order_id, course_id, course_title, created_at, starts_at, ends_at, \
                 granted_by, coassemble_course_id, coassemble_group_id) values ($1, $2, null, $3, $4, $5, $5, $6, $7, $8, $9)"
            ).bind(&id).bind(&user_id).bind(course_id).bind(&title).bind(now).bind(ends_at).bind(staff_id)
                .bind(provider_course).bind(provider_group).execute(&mut *tx).await?;
            let entry = AuditEntry::new(staff_id, "access.grant", "online_registration", &id)
                .after(json!({ "email": email, "courseId": course_id, "course": title, "lastDay": last_day(ends_at) }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(AccessChanged::Done { registration_id: id })
        })
        .context("Failed to grant the course")
    }

    /// Makes `change` to registration `id` as staff member `staff_id`
    /// decided at `now`.
    pub async fn change_registration(
        &self,
        id: &str,
        change: &RegistrationChange,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<AccessChanged> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let dates: Option<Dates> = sqlx::query_as(
                "update online_registration set ends_at = ends_at where id = $1 returning starts_at, ends_at, revoked_at, revoke_reason"
            ).bind(id).fetch_optional(&mut *tx).await?;
            let Some(dates) = dates else {
                tx.rollback().await?;
                return Ok(AccessChanged::UnknownRegistration);
            };
            let decided = match change {
                RegistrationChange::LastDay(day) => end_on(*day, dates.starts_at, now).map(|ends_at| {
                    let entry = AuditEntry::new(staff_id, "access.extend", "online_registration", id)
                        .before(json!({ "lastDay": last_day(dates.ends_at) }))
                        .after(json!({ "lastDay": day }));
                    (sqlx::query("update online_registration set ends_at = $2 where id = $1").bind(id).bind(ends_at), entry)
                }),
                RegistrationChange::Revoke(reason) => check_revocation(dates.revoked_at, true).map(|()| {
                    let entry = AuditEntry::new(staff_id, "access.revoke", "online_registration", id)
                        .before(json!({ "revokedAt": null }))
                        .after(json!({ "revokedAt": now, "reason": reason }));
                    let sql = "update online_registration set revoked_at = $2, revoke_reason = $3 where id = $1";
                    (sqlx::query(sql).bind(id).bind(now).bind(reason.clone()), entry)
                }),
                RegistrationChange::Restore => check_revocation(dates.revoked_at, false).map(|()| {
                    let entry = AuditEntry::new(staff_id, "access.restore", "online_registration", id)
                        .before(json!({ "revokedAt": dates.revoked_at, "reason": dates.revoke_reason }))
                        .after(json!({ "revokedAt": null }));
                    (sqlx::query("update online_registration set revoked_at = null, revoke_reason = null where id = $1").bind(id), entry)
                }),
            };
            let (update, entry) = match decided {
                Ok(decided) => decided,
                Err(refused) => {
                    tx.rollback().await?;
                    return Ok(AccessChanged::Refused(refused));
                }
            };
            update.execute(&mut *tx).await?;
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(AccessChanged::Done { registration_id: id.to_owned() })
        })
        .context("Failed to change the registration")
    }
}
