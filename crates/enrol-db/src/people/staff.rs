//! Staff accounts, their set-up links and sessions, and the audit log
//! (issue 14, decision 017). Every change a staff member makes writes one
//! audit row in its own transaction ([`crate::people::PeopleSteps::audit`]).

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use enrol_domain::staff::Role;

use crate::people::PeopleSteps;
use crate::{Db, on_pool, public_id};

/// A staff session ends after this long without a request…
pub const STAFF_IDLE_MINUTES: i64 = 30;
/// …and this long after sign-in, whatever happens.
pub const STAFF_SESSION_HOURS: i64 = 12;

/// A staff member as the back office sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffMember {
    pub id: String,
    pub email: String,
    pub name: String,
    pub role: Role,
}

/// A staff member in the owner's list.
#[derive(Debug, Clone)]
pub struct StaffListing {
    pub member: StaffMember,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub last_sign_in_at: Option<DateTime<Utc>>,
}

/// What signing in checks: the password hash and the second factor.
#[derive(Debug, Clone)]
pub struct StaffCredentials {
    pub member: StaffMember,
    pub password_hash: Option<String>,
    pub totp_secret: String,
}

/// A set-up link's staff member and their secret.
#[derive(Debug, Clone)]
pub struct StaffSetup {
    pub member: StaffMember,
    pub totp_secret: String,
}

/// One row of the audit log: who did what to which object, before and after.
#[derive(Debug, Clone)]
pub struct AuditEntry {
    pub staff_id: String,
    pub action: &'static str,
    pub entity: &'static str,
    pub entity_id: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

impl AuditEntry {
    pub fn new(staff_id: &str, action: &'static str, entity: &'static str, entity_id: &str) -> Self {
        AuditEntry { staff_id: staff_id.to_owned(), action, entity, entity_id: entity_id.to_owned(), before: None, after: None }
    }

    pub fn before(mut self, value: impl serde::Serialize) -> Self {
        self.before = serde_json::to_value(value).ok();
        self
    }

    pub fn after(mut self, value: impl serde::Serialize) -> Self {
        self.after = serde_json::to_value(value).ok();
        self
    }
}

/// An audit row as read back.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub staff_id: String,
    pub actor_name: String,
    pub actor_email: String,
    pub action: String,
    pub entity: String,
    pub entity_id: String,
    pub before_data: Option<String>,
    pub after_data: Option<String>,
}

/// Which audit rows to read, newest first.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub actor: Option<String>,
    pub entity: Option<String>,
    pub entity_id: Option<String>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    /// Only rows older than this id (the next page).
    pub before: Option<i64>,
    pub limit: i64,
}

#[derive(sqlx::FromRow)]
struct MemberRow {
    id: String,
    email: String,
    name: String,
    role: String,
}

impl MemberRow {
    fn into_member(self) -> anyhow::Result<StaffMember> {
        let role = Role::parse(&self.role).with_context(|| format!("Unknown staff role {}", self.role))?;
        Ok(StaffMember { id: self.id, email: self.email, name: self.name, role })
    }
}

/// What adding a staff member did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddedStaff {
    Added { id: String },
    EmailTaken,
}

impl Db {
    /// Adds a staff member who is not yet usable: they finish set-up (a
    /// password and a first code) through the link whose hash is
    /// `setup_token_hash`. `added_by` is the owner adding them, or `None`
    /// from the command line, where the new owner is the actor.
    #[allow(clippy::too_many_arguments)]
    pub async fn add_staff(
        &self,
        email: &str,
        name: &str,
        role: Role,
        totp_secret: &str,
        setup_token_hash: &str,
        added_by: Option<&str>,
        mail: Option<&enrol_domain::mail::Mail>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<AddedStaff> {
        let _turn = self.write_turn().await;
        let id = public_id();
        let email = email.trim().to_lowercase();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let inserted = sqlx::query(
                "insert into staff_account (id, email, name, role, totp_secret, created_at) values ($1, $2, $3, $4, $5, $6) \
                 on conflict (email) do nothing",
            )
            .bind(&id).bind(&email).bind(name.trim()).bind(role.as_str()).bind(totp_secret).bind(now)
            .execute(&mut *tx).await?;
            if inserted.rows_affected() == 0 {
                tx.rollback().await?;
                return Ok(AddedStaff::EmailTaken);
            }
            sqlx::query("insert into staff_setup (token_hash, staff_id, expires_at) values ($1, $2, $3)")
                .bind(setup_token_hash).bind(&id).bind(now + Duration::hours(48)).execute(&mut *tx).await?;
            let entry = AuditEntry::new(added_by.unwrap_or(&id), "staff.add", "staff", &id)
                .after(serde_json::json!({"email": email, "name": name.trim(), "role": role.as_str()}));
            tx.audit(&entry, now).await?;
            if let Some(mail) = mail {
                tx.queue_mail(mail, now).await?;
            }
            tx.commit().await?;
            Ok::<_, anyhow::Error>(AddedStaff::Added { id })
        })
        .context("Failed to add the staff member")
    }

    /// The staff member a live set-up link is for.
    pub async fn staff_setup(&self, token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<StaffSetup>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            member: MemberRow,
            totp_secret: String,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(
            "select a.id, a.email, a.name, a.role, a.totp_secret from staff_setup s join staff_account a on a.id = s.staff_id \
             where s.token_hash = $1 and s.expires_at > $2 and a.disabled_at is null"
        ).bind(token_hash).bind(now).fetch_optional(pool).await)
        .context("Failed to read the set-up link")?;
        row.map(|row| Ok(StaffSetup { member: row.member.into_member()?, totp_secret: row.totp_secret })).transpose()
    }

    /// Finishes set-up once: the link is spent, the password kept, the
    /// code's time step recorded, the recovery codes (their hashes) kept
    /// and the account made usable.
    pub async fn finish_staff_setup(
        &self,
        token_hash: &str,
        password_hash: &str,
        step: i64,
        recovery_hashes: &[String],
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<StaffMember>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let staff_id: Option<String> = sqlx::query_scalar(
                "delete from staff_setup where token_hash = $1 and expires_at > $2 returning staff_id",
            ).bind(token_hash).bind(now).fetch_optional(&mut *tx).await?;
            let Some(staff_id) = staff_id else {
                tx.rollback().await?;
                return Ok(None);
            };
            let row: Option<MemberRow> = sqlx::query_as(
                "update staff_account set password_hash = $2, totp_last_step = $3, active = true, last_sign_in_at = $4 \
                 where id = $1 and disabled_at is null returning id, email, name, role",
            ).bind(&staff_id).bind(password_hash).bind(step).bind(now).fetch_optional(&mut *tx).await?;
            let Some(row) = row else {
                tx.rollback().await?;
                return Ok(None);
            };
            recovery_codes_insert(&staff_id, recovery_hashes, now).execute(&mut *tx).await?;
            tx.audit(&AuditEntry::new(&staff_id, "staff.set_up", "staff", &staff_id), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Some(row.into_member()?))
        })
        .context("Failed to finish the staff set-up")
    }

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

    /// The staff member of a live session, which this request keeps alive:
    /// one statement both checks the idle and absolute limits and renews.
    pub async fn staff_session(&self, session_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<StaffMember>> {
        let idle_since = now - Duration::minutes(STAFF_IDLE_MINUTES);
        let started_since = now - Duration::hours(STAFF_SESSION_HOURS);
        let staff_id: Option<String> = on_pool!(self, pool => sqlx::query_scalar(
            "update staff_session set last_seen_at = $2 where token_hash = $1 and last_seen_at > $3 and created_at > $4 \
             returning staff_id"
        ).bind(session_hash).bind(now).bind(idle_since).bind(started_since).fetch_optional(pool).await)
        .context("Failed to read the staff session")?;
        let Some(staff_id) = staff_id else { return Ok(None) };
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

    /// Everyone, for the owner.
    pub async fn staff_list(&self) -> anyhow::Result<Vec<StaffListing>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            member: MemberRow,
            active: bool,
            disabled: bool,
            created_at: DateTime<Utc>,
            last_sign_in_at: Option<DateTime<Utc>>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(
            "select id, email, name, role, active, disabled_at is not null as disabled, created_at, last_sign_in_at \
             from staff_account order by name, email"
        ).fetch_all(pool).await)
        .context("Failed to list the staff")?;
        rows.into_iter()
            .map(|row| {
                Ok(StaffListing {
                    active: row.active && !row.disabled,
                    member: row.member.into_member()?,
                    created_at: row.created_at,
                    last_sign_in_at: row.last_sign_in_at,
                })
            })
            .collect()
    }

    /// Disables a staff member and ends their sessions; false when unknown
    /// or already disabled.
    pub async fn disable_staff(&self, id: &str, by: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query("update staff_account set disabled_at = $2 where id = $1 and disabled_at is null")
                .bind(id).bind(now).execute(&mut *tx).await?.rows_affected() == 1;
            if !done {
                tx.rollback().await?;
                return Ok(false);
            }
            sqlx::query("delete from staff_session where staff_id = $1").bind(id).execute(&mut *tx).await?;
            sqlx::query("delete from staff_setup where staff_id = $1").bind(id).execute(&mut *tx).await?;
            let entry = AuditEntry::new(by, "staff.disable", "staff", id)
                .before(serde_json::json!({"active": true}))
                .after(serde_json::json!({"active": false}));
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(true)
        })
        .context("Failed to disable the staff member")
    }

    /// Active tutors, for the session form.
    pub async fn tutors(&self) -> anyhow::Result<Vec<(String, String)>> {
        on_pool!(self, pool => sqlx::query_as(
            "select id, name from staff_account where role = 'tutor' and disabled_at is null order by name"
        ).fetch_all(pool).await)
        .context("Failed to list the tutors")
    }

    /// The audit log, newest first.
    pub async fn audit_entries(&self, filter: &AuditFilter) -> anyhow::Result<Vec<AuditRow>> {
        let mut conditions = Vec::new();
        let mut next = 0;
        let mut condition = |present: bool, sql: &str| {
            if present {
                next += 1;
                conditions.push(sql.replace('?', &format!("${next}")));
            }
        };
        condition(filter.actor.is_some(), "(a.email = ? or a.id = ?)");
        condition(filter.entity.is_some(), "l.entity = ?");
        condition(filter.entity_id.is_some(), "l.entity_id = ?");
        condition(filter.from.is_some(), "l.at >= ?");
        condition(filter.to.is_some(), "l.at < ?");
        condition(filter.before.is_some(), "l.id < ?");
        let filter_sql = if conditions.is_empty() { String::new() } else { format!("where {}", conditions.join(" and ")) };
        let sql = format!(
            "select l.id, l.at, l.staff_id, a.name as actor_name, a.email as actor_email, l.action, l.entity, l.entity_id, \
             l.before_data, l.after_data from audit_log l join staff_account a on a.id = l.staff_id {filter_sql} \
             order by l.id desc limit {}",
            filter.limit.clamp(1, 500)
        );
        on_pool!(self, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()));
            if let Some(actor) = &filter.actor {
                query = query.bind(actor.trim().to_lowercase());
            }
            if let Some(entity) = &filter.entity {
                query = query.bind(entity);
            }
            if let Some(entity_id) = &filter.entity_id {
                query = query.bind(entity_id);
            }
            if let Some(from) = filter.from {
                query = query.bind(from);
            }
            if let Some(to) = filter.to {
                query = query.bind(to);
            }
            if let Some(before) = filter.before {
                query = query.bind(before);
            }
            query.fetch_all(pool).await
        })
        .context("Failed to read the audit log")
    }
}

/// The one statement that keeps `hashes` (at least one) as `staff_id`'s
/// recovery codes, made `now`.
fn recovery_codes_insert<'q, DB: sqlx::Database>(
    staff_id: &str,
    hashes: &[String],
    now: DateTime<Utc>,
) -> sqlx::query::Query<'q, DB, DB::Arguments>
where
    for<'t> String: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'t> DateTime<Utc>: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    let rows: Vec<String> = (0..hashes.len()).map(|at| format!("(${}, $1, $2)", at + 3)).collect();
    let sql = format!("insert into staff_recovery_code (code_hash, staff_id, created_at) values {}", rows.join(", "));
    hashes.iter().fold(sqlx::query(sqlx::AssertSqlSafe(sql)).bind(staff_id.to_owned()).bind(now), |query, hash| query.bind(hash.clone()))
}
