//! Accounts (decision 008): users with passwords, their sessions, failed
//! sign-ins and password resets, and what the account area shows.
//!
//! Over 300 lines: each account write is one transaction with its limits, and
//! they share the row types.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::auth::{AccountCreditNote, AccountData, AccountEnrollment, AccountOnlineCourse, AccountPayment, NewAccount, UserData};
use enrol_domain::balance::outstanding;
use enrol_domain::enrollment::{BookedCourse, balance_due};
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::receipt::DocumentKind;

use crate::orders::enrollments::{NET_PAID, REFUNDED};
use crate::people::PeopleSteps;
use crate::{Db, on_pool};

#[derive(sqlx::FromRow)]
struct UserRow {
    id: String,
    email: String,
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

const USER_COLUMNS: &str = "u.id, u.email, u.given_name, u.family_name, u.contact_number, u.stripe_id, u.title, u.gender, u.birthday, \
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

impl MailedLink {
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
    ) -> anyhow::Result<()> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let mut insert = sqlx::query(kind.insert()).bind(token_hash).bind(user_id).bind(expires_at);
            if let MailedLink::EmailChange { new_email } = &kind {
                insert = insert.bind(new_email);
            }
            insert.execute(&mut *tx).await?;
            tx.queue_mail(mail, now).await?;
            tx.commit().await
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

    /// What the account area of `user` shows: bookings newest first,
    /// payments with their receipts and credit notes, and online courses.
    pub async fn account_data(&self, user: UserData) -> anyhow::Result<AccountData> {
        #[derive(sqlx::FromRow)]
        struct EnrollmentRow {
            id: String,
            reference: String,
            status: String,
            discount: i64,
            total: i64,
            lines: String,
            paid: i64,
            refunded: i64,
            created_at: DateTime<Utc>,
            balance_due_on: Option<NaiveDate>,
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
        struct DocumentRow {
            payment_id: String,
            kind: String,
            number: String,
            amount: i64,
        }
        #[derive(sqlx::FromRow)]
        struct CourseRow {
            reference: String,
            course_id: String,
            course_title: String,
            complete: bool,
        }
        let (enrollments, payments, documents, courses) = on_pool!(self, pool => {
            let enrollments: Vec<EnrollmentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select e.id, e.reference, e.status, e.discount, e.total, e.lines, e.created_at, e.balance_due_on, {} as paid, \
                 cast({REFUNDED} as bigint) as refunded from enrollment e where e.user_id = $1 \
                 and e.status in ('deposit', 'completed', 'cancelled') order by e.created_at desc",
                *NET_PAID
            ))).bind(&user.id).fetch_all(pool).await.context("Failed to read the bookings")?;
            let payments: Vec<PaymentRow> = sqlx::query_as(
                "select id, amount, status, method, created_at from payment where user_id = $1 order by created_at desc"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the payments")?;
            let documents: Vec<DocumentRow> = sqlx::query_as(
                "select r.payment_id, r.kind, r.number, r.amount from receipt r join payment p on p.id = r.payment_id \
                 where p.user_id = $1 order by r.kind, r.sequence"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the receipts")?;
            let courses: Vec<CourseRow> = sqlx::query_as(
                "select o.reference, r.course_id, r.course_title, r.complete from online_registration r \
                 join online_order o on o.id = r.online_order_id where r.user_id = $1 and not r.removed order by r.created_at"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the online courses")?;
            (enrollments, payments, documents, courses)
        });
        let enrollments = enrollments
            .into_iter()
            .map(|row| {
                let booked: Vec<BookedCourse> = serde_json::from_str(&row.lines).context("Stored enrollment lines are not valid JSON")?;
                let status = EnrollmentStatus::parse(&row.status).with_context(|| format!("Unknown enrollment status {}", row.status))?;
                // A cancelled booking owes nothing: the terms settled it.
                let balance = match status {
                    EnrollmentStatus::Cancelled => Money::ZERO,
                    _ => outstanding(Money::from_pence(row.total), Money::from_pence(row.paid)),
                };
                let booked_on = london::today(row.created_at);
                let due = balance_due(row.balance_due_on, &booked, booked_on);
                Ok(AccountEnrollment {
                    status,
                    lines: booked.iter().map(BookedCourse::line).collect(),
                    discount: Money::from_pence(row.discount),
                    total: Money::from_pence(row.total),
                    paid: Money::from_pence(row.paid),
                    refunded: Money::from_pence(row.refunded),
                    balance,
                    balance_due_on: due.filter(|_| balance > Money::ZERO).map(|d| d.to_string()),
                    created_at: london::wall_clock(row.created_at),
                    id: row.id,
                    reference: row.reference,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(AccountData {
            user,
            enrollments,
            payments: payments
                .into_iter()
                .map(|p| {
                    let of_payment = || documents.iter().filter(|d| d.payment_id == p.id);
                    AccountPayment {
                        receipt: of_payment().find(|d| d.kind == DocumentKind::Receipt.as_str()).map(|d| d.number.clone()),
                        credit_notes: of_payment()
                            .filter(|d| d.kind == DocumentKind::CreditNote.as_str())
                            .map(|d| AccountCreditNote { number: d.number.clone(), amount: Money::from_pence(d.amount) })
                            .collect(),
                        id: p.id,
                        amount: Money::from_pence(p.amount),
                        status: p.status,
                        method: p.method,
                        created_at: london::wall_clock(p.created_at),
                    }
                })
                .collect(),
            online_courses: courses
                .into_iter()
                .map(|c| AccountOnlineCourse {
                    order_reference: c.reference,
                    course_id: c.course_id,
                    title: c.course_title,
                    complete: c.complete,
                })
                .collect(),
        })
    }
}
