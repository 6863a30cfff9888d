//! How staff sign in (decision 017): a password and a time-based code, or
//! a recovery code, each good once, and the session that follows, which
//! ends when idle and after a fixed time whatever happens.

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};

use crate::people::PeopleSteps;
use crate::people::staff::{MemberRow, recovery_codes_insert};
use crate::{AuditEntry, Db, StaffCredentials, StaffMember, on_pool};

/// A staff session ends after this long without a request…
pub const STAFF_IDLE_MINUTES: i64 = 30;
/// …and this long after sign-in, whatever happens.
pub const STAFF_SESSION_HOURS: i64 = 12;
/// How often a staff session in use is renewed: the idle limit counts
/// from the last renewal, so it may end up to this much sooner.
const STAFF_RENEW_SECONDS: i64 = 60;

impl Db {
    /// An active staff member's credentials, by email.
    pub async fn staff_credentials(&self, email: &str) -> anyhow::Result<Option<StaffCredentials>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            member: MemberRow,
            password_hash: Option<String>,
            totp_secret: String,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            "select id, email, name, role, password_hash, totp_secret from staff_account \
             where email = $1 and active and disabled_at is null"
        ).bind(email.trim().to_lowercase()).fetch_optional(pool).await)
        .context("Failed to read the staff member")?;
        row.map(|row| {
            Ok(StaffCredentials { member: row.member.into_member()?, password_hash: row.password_hash, totp_secret: row.totp_secret })
        })
        .transpose()
    }

    /// Accepts a code of time step `step` for `staff_id` if no code of that
    /// step or a later one was accepted before (RFC 6238 §5.2: a code is
    /// good once), in one statement; and starts a session on success.
    pub async fn accept_staff_code(&self, staff_id: &str, step: i64, session_hash: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let accepted = sqlx::query(
                "update staff_account set totp_last_step = $2, last_sign_in_at = $3 \
                 where id = $1 and active and disabled_at is null and (totp_last_step is null or totp_last_step < $2)",
            ).bind(staff_id).bind(step).bind(now).execute(&mut *tx).await?.rows_affected() == 1;
            if accepted {
                sqlx::query("insert into staff_session (token_hash, staff_id, created_at, last_seen_at) values ($1, $2, $3, $3)")
                    .bind(session_hash).bind(staff_id).bind(now).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok::<_, anyhow::Error>(accepted)
        })
        .context("Failed to accept the sign-in code")
    }

    /// Spends `staff_id`'s unused recovery code with hash `code_hash` and
    /// starts a session, in one transaction: the one statement that marks
    /// it used succeeds for one request only, however many send it at once.
    pub async fn use_recovery_code(&self, staff_id: &str, code_hash: &str, session_hash: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let used = sqlx::query(
                "update staff_recovery_code set used_at = $3 where code_hash = $1 and staff_id = $2 and used_at is null \
                 and exists (select 1 from staff_account a where a.id = $2 and a.active and a.disabled_at is null)",
            ).bind(code_hash).bind(staff_id).bind(now).execute(&mut *tx).await?.rows_affected() == 1;
            if used {
                sqlx::query("update staff_account set last_sign_in_at = $2 where id = $1").bind(staff_id).bind(now).execute(&mut *tx).await?;
                sqlx::query("insert into staff_session (token_hash, staff_id, created_at, last_seen_at) values ($1, $2, $3, $3)")
                    .bind(session_hash).bind(staff_id).bind(now).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok::<_, anyhow::Error>(used)
        })
        .context("Failed to use a recovery code")
    }

    /// How many of `staff_id`'s recovery codes are unused.
    pub async fn recovery_codes_left(&self, staff_id: &str) -> anyhow::Result<i64> {
        on_pool!(self, pool => sqlx::query_scalar("select count(*) from staff_recovery_code where staff_id = $1 and used_at is null")
            .bind(staff_id).fetch_one(pool).await)
        .context("Failed to count the recovery codes")
    }

    /// Voids every recovery code of `staff_id` and keeps the new ones'
    /// hashes, with the audit row, in one transaction.
    pub async fn replace_recovery_codes(&self, staff_id: &str, recovery_hashes: &[String], now: DateTime<Utc>) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let voided = sqlx::query("delete from staff_recovery_code where staff_id = $1").bind(staff_id).execute(&mut *tx).await?.rows_affected();
            recovery_codes_insert(staff_id, recovery_hashes, now).execute(&mut *tx).await?;
            let entry = AuditEntry::new(staff_id, "staff.recovery_codes", "staff", staff_id)
                .before(serde_json::json!({ "codes": voided }))
                .after(serde_json::json!({ "codes": recovery_hashes.len() }));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(())
        })
        .context("Failed to make new recovery codes")
    }

    /// Starts a session for a staff member who has just finished set-up.
    pub async fn create_staff_session(&self, session_hash: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query(
            "insert into staff_session (token_hash, staff_id, created_at, last_seen_at) values ($1, $2, $3, $3)"
        ).bind(session_hash).bind(staff_id).bind(now).execute(pool).await.map(drop))
        .context("Failed to start the staff session")
    }

    /// The staff member of a live session, which this request keeps alive.
    /// The session is read, and renewed only when it was last renewed
    /// [`STAFF_RENEW_SECONDS`] ago or more: a screen's many requests are
    /// reads, not a write each on one row (which every request of the
    /// session would queue behind, and SQLite's log would grow with).
    pub async fn staff_session(&self, session_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<StaffMember>> {
        let idle_since = now - Duration::minutes(STAFF_IDLE_MINUTES);
        let started_since = now - Duration::hours(STAFF_SESSION_HOURS);
        let live: Option<(String, DateTime<Utc>)> = on_pool!(self, pool => sqlx::query_as(
            "select staff_id, last_seen_at from staff_session where token_hash = $1 and last_seen_at > $2 and created_at > $3"
        ).bind(session_hash).bind(idle_since).bind(started_since).fetch_optional(pool).await)
        .context("Failed to read the staff session")?;
        let Some((staff_id, last_seen_at)) = live else { return Ok(None) };
        if now - last_seen_at >= Duration::seconds(STAFF_RENEW_SECONDS) {
            on_pool!(self, pool => sqlx::query("update staff_session set last_seen_at = $2 where token_hash = $1 and last_seen_at < $2")
                .bind(session_hash).bind(now).execute(pool).await.map(drop))
            .context("Failed to renew the staff session")?;
        }
        let row: Option<MemberRow> = on_pool!(self, pool => sqlx::query_as(
            "select id, email, name, role from staff_account where id = $1 and active and disabled_at is null"
        ).bind(&staff_id).fetch_optional(pool).await)
        .context("Failed to read the staff member")?;
        row.map(MemberRow::into_member).transpose()
    }

    pub async fn end_staff_session(&self, session_hash: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("delete from staff_session where token_hash = $1").bind(session_hash).execute(pool).await.map(drop))
            .context("Failed to end the staff session")
    }
}
