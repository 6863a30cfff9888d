//! Staff accounts as the owner keeps them, and the set-up link a new staff
//! member finishes (decision 017). How they sign in and stay signed in is
//! `people::sign_in`; every change a staff member makes writes one audit
//! row in its own transaction ([`crate::people::PeopleSteps::audit`],
//! `people::audit`).

use anyhow::Context as _;
use chrono::{DateTime, Duration, Utc};

use enrol_domain::staff::Role;

use crate::people::PeopleSteps;
use crate::{AuditEntry, Db, on_pool, public_id};

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

#[derive(sqlx::FromRow)]
pub(super) struct MemberRow {
    id: String,
    email: String,
    name: String,
    role: String,
}

impl MemberRow {
    pub(super) fn into_member(self) -> anyhow::Result<StaffMember> {
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
}

/// The one statement that keeps `hashes` (at least one) as `staff_id`'s
/// recovery codes, made `now`.
pub(super) fn recovery_codes_insert<'q, DB: sqlx::Database>(
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
