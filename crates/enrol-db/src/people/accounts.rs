//! Accounts (decision 008): users with passwords, their sessions, failed
//! sign-ins and password resets. What the account area shows of a
//! student's records is `records::account_data`.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::auth::{NewAccount, UserData};
use enrol_domain::mail::Mail;

use crate::people::PeopleSteps;
use crate::{Db, on_pool};

#[derive(sqlx::FromRow)]
pub(crate) struct UserRow {
    pub(crate) id: String,
    pub(crate) email: String,
    given_name: String,
    family_name: String,
    contact_number: String,
    stripe_id: Option<String>,
    title: Option<String>,
    gender: Option<String>,
    birthday: Option<NaiveDate>,
    points: i64,
    elearning_id: Option<String>,
    set_password: bool,
    email_verified: bool,
}

impl From<UserRow> for UserData {
    fn from(row: UserRow) -> Self {
        UserData {
            cognito_id: row.id.clone(),
            id: row.id,
            email: row.email,
            title: row.title,
            given_name: row.given_name,
            family_name: row.family_name,
            gender: row.gender,
            birthday: row.birthday.map(|d| d.to_string()),
            contact_number: row.contact_number,
            points: row.points,
            elearning_id: row.elearning_id,
            stripe_id: row.stripe_id,
            set_password: row.set_password,
            email_verified: row.email_verified,
        }
    }
}

pub(crate) const USER_COLUMNS: &str = "u.id, u.email, u.given_name, u.family_name, u.contact_number, u.stripe_id, u.title, u.gender, u.birthday, \
                            u.points, u.elearning_id, u.password_hash is not null as set_password, \
                            u.email_verified_at is not null as email_verified";

/// A session as stored: whose it is and when it began and ends.
#[derive(Debug, Clone)]
pub struct SessionRecord {
    pub user: UserData,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// What a sign-up did.
#[derive(Debug, Clone)]
pub enum SignUp {
    /// A new account, unverified; its verification mail is queued.
    Created(Box<UserData>),
    /// The email already has an account: it is left as it is.
    Existing(Box<UserData>),
}

/// The single-use links the account mails, each kept (as a hash) in its
/// own table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailedLink {
    /// `/verify-email/?token=`, mailed at sign-up.
    EmailVerification,
    /// `/reset-password/?token=`, to choose a password.
    PasswordReset,
    /// `/account/profile/?token=`, to move the account to this new address.
    EmailChange { new_email: String },
}

/// Links of one kind a user may have alive at once: a request beyond them
/// mails nothing (a reset link lives an hour, so at most three an hour),
/// so nobody can fill someone's inbox by asking.
pub const LIVE_LINKS_PER_KIND: i64 = 3;

impl MailedLink {
    /// The table its links are kept in.
    fn table(&self) -> &'static str {
        match self {
            MailedLink::EmailVerification => "email_verification",
            MailedLink::PasswordReset => "password_reset",
            MailedLink::EmailChange { .. } => "email_change",
        }
    }

    /// The statement storing a link: token hash, user id, expiry.
    fn insert(&self) -> &'static str {
        match self {
            MailedLink::EmailVerification => "insert into email_verification (token_hash, user_id, expires_at) values ($1, $2, $3)",
            MailedLink::PasswordReset => "insert into password_reset (token_hash, user_id, expires_at) values ($1, $2, $3)",
            MailedLink::EmailChange { .. } => {
                "insert into email_change (token_hash, user_id, expires_at, new_email) values ($1, $2, $3, $4)"
            }
        }
    }
}

impl Db {
    /// A new account with a password, unverified, and its verification
    /// mail, in one transaction. An email that already has an account (one
    /// with a password, or one a purchase made) is left untouched.
    pub async fn sign_up(
        &self,
        account: &NewAccount,
        password_hash: &str,
        verification_hash: &str,
        expires_at: DateTime<Utc>,
        mail: &Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<SignUp> {
        let id = crate::public_id();
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let created = sqlx::query(
                "insert into user_account (id, email, given_name, family_name, contact_number, password_hash, created_at) \
                 values ($1, $2, $3, $4, $5, $6, $7) on conflict (email) do nothing"
            ).bind(&id).bind(&account.email).bind(&account.given_name).bind(&account.family_name).bind(&account.phone)
                .bind(password_hash).bind(now).execute(&mut *tx).await?.rows_affected() == 1;
            if !created {
                let user: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("select {USER_COLUMNS} from user_account u where u.email = $1")))
                    .bind(&account.email).fetch_one(&mut *tx).await?;
                tx.rollback().await?;
                return Ok(SignUp::Existing(Box::new(user.into())));
            }
            sqlx::query(MailedLink::EmailVerification.insert())
                .bind(verification_hash).bind(&id).bind(expires_at).execute(&mut *tx).await?;
            tx.queue_mail(mail, now).await?;
            let user: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("select {USER_COLUMNS} from user_account u where u.id = $1")))
                .bind(&id).fetch_one(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(SignUp::Created(Box::new(user.into())))
        })
        .context("Failed to create the account")
    }

    /// The account a live verification link is for, with its password
    /// hash, without using the link.
    pub async fn verification_account(&self, token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<(UserData, Option<String>)>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            user: UserRow,
            password_hash: Option<String>,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select {USER_COLUMNS}, u.password_hash from email_verification v join user_account u on u.id = v.user_id \
             where v.token_hash = $1 and v.expires_at > $2"
        ))).bind(token_hash).bind(now).fetch_optional(pool).await)
        .context("Failed to read the email verification")?;
        Ok(row.map(|row| (row.user.into(), row.password_hash)))
    }

    /// Uses a verification link once: the email is proven, and the
    /// purchases made with it join the account. `None` for an unknown,
    /// used or expired link.
    pub async fn verify_email(&self, token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<UserData>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let user_id: Option<String> = sqlx::query_scalar("delete from email_verification where token_hash = $1 and expires_at > $2 returning user_id")
                .bind(token_hash).bind(now).fetch_optional(&mut *tx).await?;
            let Some(user_id) = user_id else {
                tx.rollback().await?;
                return Ok(None);
            };
            sqlx::query("update user_account set email_verified_at = coalesce(email_verified_at, $2) where id = $1")
                .bind(&user_id).bind(now).execute(&mut *tx).await?;
            let user: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("select {USER_COLUMNS} from user_account u where u.id = $1")))
                .bind(&user_id).fetch_one(&mut *tx).await?;
            tx.claim_purchases(&user.id, &user.email).await?;
            sqlx::query("delete from email_verification where user_id = $1").bind(&user_id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(user.into()))
        })
        .context("Failed to verify the email")
    }

    /// The user with `email` and their password hash if they have one.
    pub async fn user_with_password(&self, email: &str) -> anyhow::Result<Option<(UserData, Option<String>)>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            user: UserRow,
            password_hash: Option<String>,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select {USER_COLUMNS}, u.password_hash from user_account u where u.email = $1"
        ))).bind(email).fetch_optional(pool).await)
        .context("Failed to read the user")?;
        Ok(row.map(|row| (row.user.into(), row.password_hash)))
    }

    pub async fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("insert into user_session (token_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)")
            .bind(token_hash).bind(user_id).bind(now).bind(expires_at).execute(pool).await.map(drop))
        .context("Failed to store the session")
    }

    /// The live session with this token hash as of `now`.
    pub async fn session(&self, token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<SessionRecord>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            #[sqlx(flatten)]
            user: UserRow,
            created_at: DateTime<Utc>,
            expires_at: DateTime<Utc>,
        }
        let row: Option<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select {USER_COLUMNS}, s.created_at, s.expires_at from user_session s join user_account u on u.id = s.user_id \
             where s.token_hash = $1 and s.expires_at > $2"
        ))).bind(token_hash).bind(now).fetch_optional(pool).await)
        .context("Failed to read the session")?;
        Ok(row.map(|row| SessionRecord { user: row.user.into(), created_at: row.created_at, expires_at: row.expires_at }))
    }

    pub async fn delete_session(&self, token_hash: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("delete from user_session where token_hash = $1").bind(token_hash).execute(pool).await.map(drop))
            .context("Failed to end the session")
    }

    /// Counts a sign-in attempt for `email` before its password is
    /// checked, in one statement, and answers the attempts in the current
    /// window (which starts again once `window_start` has passed it).
    pub async fn count_sign_in_attempt(&self, email: &str, now: DateTime<Utc>, window_start: DateTime<Utc>) -> anyhow::Result<i64> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query_scalar(
            "insert into sign_in_throttle (email, window_started_at, attempts) values ($1, $2, 1) \
             on conflict (email) do update set \
             attempts = case when sign_in_throttle.window_started_at <= $3 then 1 else sign_in_throttle.attempts + 1 end, \
             window_started_at = case when sign_in_throttle.window_started_at <= $3 then $2 else sign_in_throttle.window_started_at end \
             returning attempts"
        ).bind(email).bind(now).bind(window_start).fetch_one(pool).await)
        .context("Failed to count a sign-in attempt")
    }

    /// A successful sign-in or reset starts the count again.
    pub async fn clear_sign_in_attempts(&self, email: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("delete from sign_in_throttle where email = $1").bind(email).execute(pool).await.map(drop))
            .context("Failed to clear the sign-in attempts")
    }

    /// A single-use link of `kind` for `user_id` and the mail that carries
    /// it, in one transaction: the mail is sent only if the link is stored.
    pub async fn store_mailed_link(
        &self,
        kind: MailedLink,
        user_id: &str,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        mail: &Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The user's row first: one link of theirs is decided at a time, on every instance.
            sqlx::query("update user_account set email = email where id = $1").bind(user_id).execute(&mut *tx).await?;
            let live: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select count(*) from {} where user_id = $1 and expires_at > $2", kind.table())))
                .bind(user_id).bind(now).fetch_one(&mut *tx).await?;
            if live >= LIVE_LINKS_PER_KIND {
                tx.rollback().await?;
                return Ok(false);
            }
            let mut insert = sqlx::query(kind.insert()).bind(token_hash).bind(user_id).bind(expires_at);
            if let MailedLink::EmailChange { new_email } = &kind {
                insert = insert.bind(new_email);
            }
            insert.execute(&mut *tx).await?;
            tx.queue_mail(mail, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(true)
        })
        .with_context(|| format!("Failed to store the {kind:?} link"))
    }

    /// Uses a reset token once: sets the password, ends every session of the
    /// user and returns them; `None` for an unknown, used or expired token.
    pub async fn reset_password(&self, token_hash: &str, password_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<UserData>> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let user_id: Option<String> = sqlx::query_scalar("delete from password_reset where token_hash = $1 and expires_at > $2 returning user_id")
                .bind(token_hash).bind(now).fetch_optional(&mut *tx).await?;
            let Some(user_id) = user_id else {
                tx.rollback().await?;
                return Ok(None);
            };
            // The reset link came by mail: the address is proven too.
            sqlx::query("update user_account set password_hash = $2, email_verified_at = coalesce(email_verified_at, $3) where id = $1")
                .bind(&user_id).bind(password_hash).bind(now).execute(&mut *tx).await?;
            sqlx::query("delete from user_session where user_id = $1").bind(&user_id).execute(&mut *tx).await?;
            sqlx::query("delete from password_reset where user_id = $1").bind(&user_id).execute(&mut *tx).await?;
            let user: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("select {USER_COLUMNS} from user_account u where u.id = $1")))
                .bind(&user_id).fetch_one(&mut *tx).await?;
            tx.claim_purchases(&user.id, &user.email).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(user.into()))
        })
        .context("Failed to reset the password")
    }
}
