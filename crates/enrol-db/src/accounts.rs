//! Accounts (decision 008): users with passwords, their sessions, failed
//! sign-ins and password resets, and what the account area shows.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::auth::{AccountData, AccountEnrollment, AccountOnlineCourse, AccountPayment, NewAccount, UserData};
use enrol_domain::enrolment::{BookedCourse, balance_due_on, first_training_day};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::page::EnrolmentStatus;

use crate::{Db, on_pool};

/// Someone already has an account with that email.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailTaken;

#[derive(sqlx::FromRow)]
struct UserRow {
    id: String,
    email: String,
    given_name: String,
    family_name: String,
    contact_number: String,
    stripe_id: Option<String>,
}

impl From<UserRow> for UserData {
    fn from(row: UserRow) -> Self {
        UserData {
            id: row.id,
            email: row.email,
            given_name: row.given_name,
            family_name: row.family_name,
            contact_number: row.contact_number,
            stripe_id: row.stripe_id,
        }
    }
}

const USER_COLUMNS: &str = "u.id, u.email, u.given_name, u.family_name, u.contact_number, u.stripe_id";

/// A session as stored: whose it is and when it began and ends.
#[derive(Debug, Clone)]
pub struct SessionRecord {
    pub user: UserData,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

impl Db {
    /// A new account with a password. An email that already has an account
    /// (one with a password, or one a purchase made) is [`EmailTaken`]: only
    /// a password reset, which proves the address, opens such an account.
    pub async fn create_account(&self, account: &NewAccount, password_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Result<UserData, EmailTaken>> {
        let id = uuid::Uuid::now_v7().to_string();
        let created = on_pool!(self, pool => sqlx::query(
            "insert into user_account (id, email, given_name, family_name, contact_number, password_hash, created_at) \
             values ($1, $2, $3, $4, $5, $6, $7) on conflict (email) do nothing"
        ).bind(&id).bind(&account.email).bind(&account.given_name).bind(&account.family_name).bind(&account.phone)
            .bind(password_hash).bind(now).execute(pool).await.map(|r| r.rows_affected() == 1))
        .context("Failed to create the account")?;
        if !created {
            return Ok(Err(EmailTaken));
        }
        Ok(Ok(UserData {
            id,
            email: account.email.clone(),
            given_name: account.given_name.clone(),
            family_name: account.family_name.clone(),
            contact_number: account.phone.clone(),
            stripe_id: None,
        }))
    }

    /// The user with `email` and their password hash, if they have one.
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

    pub async fn create_session(&self, token_hash: &str, user_id: &str, now: DateTime<Utc>, expires_at: DateTime<Utc>) -> anyhow::Result<()> {
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

    /// Failed sign-ins for `email` since `since`.
    pub async fn sign_in_failures(&self, email: &str, since: DateTime<Utc>) -> anyhow::Result<i64> {
        on_pool!(self, pool => sqlx::query_scalar("select count(*) from sign_in_failure where email = $1 and failed_at > $2")
            .bind(email).bind(since).fetch_one(pool).await)
        .context("Failed to count failed sign-ins")
    }

    pub async fn record_sign_in_failure(&self, email: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("insert into sign_in_failure (email, failed_at) values ($1, $2)")
            .bind(email).bind(now).execute(pool).await.map(drop))
        .context("Failed to record a failed sign-in")
    }

    pub async fn clear_sign_in_failures(&self, email: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("delete from sign_in_failure where email = $1").bind(email).execute(pool).await.map(drop))
            .context("Failed to clear failed sign-ins")
    }

    /// A single-use reset link for `user_id`, and its mail, in one transaction.
    pub async fn create_password_reset(
        &self,
        user_id: &str,
        token_hash: &str,
        expires_at: DateTime<Utc>,
        mail: &crate::FormMail<'_>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<()> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("insert into password_reset (token_hash, user_id, expires_at) values ($1, $2, $3)")
                .bind(token_hash).bind(user_id).bind(expires_at).execute(&mut *tx).await?;
            sqlx::query("insert into mail_outbox (id, to_address, reply_to, subject, body_text, created_at) values ($1, $2, $3, $4, $5, $6)")
                .bind(uuid::Uuid::now_v7().to_string()).bind(mail.to).bind(mail.reply_to).bind(&mail.subject).bind(&mail.body).bind(now)
                .execute(&mut *tx).await?;
            tx.commit().await
        })
        .context("Failed to store the password reset")
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
            sqlx::query("update user_account set password_hash = $2 where id = $1").bind(&user_id).bind(password_hash).execute(&mut *tx).await?;
            sqlx::query("delete from user_session where user_id = $1").bind(&user_id).execute(&mut *tx).await?;
            sqlx::query("delete from password_reset where user_id = $1").bind(&user_id).execute(&mut *tx).await?;
            let user: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("select {USER_COLUMNS} from user_account u where u.id = $1")))
                .bind(&user_id).fetch_one(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(user.into()))
        })
        .context("Failed to reset the password")
    }

    /// What the account area of `user` shows: bookings newest first,
    /// payments and online courses.
    pub async fn account_data(&self, user: UserData) -> anyhow::Result<AccountData> {
        #[derive(sqlx::FromRow)]
        struct EnrollmentRow {
            id: String,
            status: String,
            total: i64,
            lines: String,
            paid: i64,
            created_at: DateTime<Utc>,
        }
        #[derive(sqlx::FromRow)]
        struct PaymentRow {
            id: String,
            amount: i64,
            status: String,
            method: String,
            created_at: DateTime<Utc>,
        }
        #[derive(sqlx::FromRow)]
        struct CourseRow {
            course_id: String,
            course_title: String,
            complete: bool,
        }
        let (enrollments, payments, courses) = on_pool!(self, pool => {
            let enrollments: Vec<EnrollmentRow> = sqlx::query_as(
                "select e.id, e.status, e.total, e.lines, e.created_at, \
                 cast(coalesce((select sum(p.amount) from payment p where p.enrollment_id = e.id), 0) as bigint) as paid \
                 from enrollment e where e.user_id = $1 and e.status in ('deposit', 'completed') order by e.created_at desc"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the bookings")?;
            let payments: Vec<PaymentRow> = sqlx::query_as(
                "select id, amount, status, method, created_at from payment where user_id = $1 order by created_at desc"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the payments")?;
            let courses: Vec<CourseRow> = sqlx::query_as(
                "select course_id, course_title, complete from online_registration where user_id = $1 and not removed order by created_at"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the online courses")?;
            (enrollments, payments, courses)
        });
        let enrollments = enrollments
            .into_iter()
            .map(|row| {
                let booked: Vec<BookedCourse> = serde_json::from_str(&row.lines).context("Stored enrollment lines are not valid JSON")?;
                let balance = Money::from_pence((row.total - row.paid).max(0));
                let due: Option<NaiveDate> = first_training_day(&booked).filter(|_| balance > Money::ZERO).map(balance_due_on);
                Ok(AccountEnrollment {
                    status: EnrolmentStatus::parse(&row.status).with_context(|| format!("Unknown enrollment status {}", row.status))?,
                    lines: booked.iter().map(BookedCourse::line).collect(),
                    total: Money::from_pence(row.total),
                    paid: Money::from_pence(row.paid),
                    balance,
                    balance_due_on: due.map(|d| d.to_string()),
                    created_at: london::wall_clock(row.created_at),
                    id: row.id,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(AccountData {
            user,
            enrollments,
            payments: payments
                .into_iter()
                .map(|p| AccountPayment {
                    id: p.id,
                    amount: Money::from_pence(p.amount),
                    status: p.status,
                    method: p.method,
                    created_at: london::wall_clock(p.created_at),
                })
                .collect(),
            online_courses: courses
                .into_iter()
                .map(|c| AccountOnlineCourse { course_id: c.course_id, title: c.course_title, complete: c.complete })
                .collect(),
        })
    }
}
