//! The link that starts a guest's online course (decision 025): mailed with
//! the order to a buyer whose address has no proven account, it proves the
//! address, sets the password and names of the account the order made for
//! it, signs them in and opens the course. It is a password link naming
//! the course, used once.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::auth::UserData;

use crate::people::PeopleSteps;
use crate::people::accounts::{USER_COLUMNS, UserRow};
use crate::{Db, on_pool};

/// A start link to keep: the hash of its token, its address as mailed, and
/// when it was made and stops working.
#[derive(Debug, Clone)]
pub struct StartLink {
    pub token_hash: String,
    pub url: String,
    pub made_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// What a live start link opens: whose account, and which course.
#[derive(Debug, Clone)]
pub struct StartingCourse {
    pub user: UserData,
    pub course_id: String,
    pub course_title: String,
}

#[derive(sqlx::FromRow)]
struct StartRow {
    #[sqlx(flatten)]
    user: UserRow,
    course_id: String,
    course_title: Option<String>,
}

const START_SELECT: &str = "select {USER_COLUMNS}, p.course_id, \
     (select r.course_title from online_registration r join online_order o on o.id = r.online_order_id \
      where o.email = u.email and r.course_id = p.course_id order by r.starts_at desc limit 1) as course_title \
     from password_reset p join user_account u on u.id = p.user_id \
     where p.token_hash = $1 and p.expires_at > $2 and p.course_id is not null";

fn start_select() -> String {
    START_SELECT.replace("{USER_COLUMNS}", USER_COLUMNS)
}

impl From<StartRow> for StartingCourse {
    fn from(row: StartRow) -> Self {
        StartingCourse { course_title: row.course_title.unwrap_or_default(), course_id: row.course_id, user: row.user.into() }
    }
}

impl Db {
    /// What the live start link with `token_hash` opens, without using it.
    pub async fn start_link(&self, token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<StartingCourse>> {
        let row: Option<StartRow> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(start_select()))
            .bind(token_hash).bind(now).fetch_optional(pool).await)
        .context("Failed to read the start link")?;
        Ok(row.map(StartingCourse::from))
    }

    /// Uses the start link once: the account gets the password and names,
    /// its address is proven, every other session of it ends and the
    /// purchases made with the address join it. `None` for an unknown,
    /// used or expired link.
    pub async fn use_start_link(
        &self,
        token_hash: &str,
        given_name: &str,
        family_name: &str,
        password_hash: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<StartingCourse>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Deleting it is what uses it, and the transaction's first
            // statement: it takes the write lock at once (on SQLite, a read
            // first could not become a write while another instance writes),
            // and of two requests at once one deletes it and the other stops here.
            let used: Option<(String, String)> = sqlx::query_as(
                "delete from password_reset where token_hash = $1 and expires_at > $2 and course_id is not null \
                 returning user_id, course_id",
            )
            .bind(token_hash).bind(now).fetch_optional(&mut *tx).await?;
            let Some((user_id, course_id)) = used else {
                tx.rollback().await?;
                return Ok(None);
            };
            let course_title: Option<String> = sqlx::query_scalar(
                "select r.course_title from online_registration r join online_order o on o.id = r.online_order_id \
                 join user_account u on u.email = o.email where u.id = $1 and r.course_id = $2 order by r.starts_at desc limit 1",
            )
            .bind(&user_id).bind(&course_id).fetch_optional(&mut *tx).await?;
            sqlx::query(
                "update user_account set password_hash = $2, given_name = $3, family_name = $4, \
                 email_verified_at = coalesce(email_verified_at, $5) where id = $1",
            )
            .bind(&user_id).bind(password_hash).bind(given_name).bind(family_name).bind(now).execute(&mut *tx).await?;
            sqlx::query("delete from user_session where user_id = $1").bind(&user_id).execute(&mut *tx).await?;
            sqlx::query("delete from password_reset where user_id = $1").bind(&user_id).execute(&mut *tx).await?;
            let user: UserRow = sqlx::query_as(sqlx::AssertSqlSafe(format!("select {USER_COLUMNS} from user_account u where u.id = $1")))
                .bind(&user_id).fetch_one(&mut *tx).await?;
            tx.claim_purchases(&user.id, &user.email).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(StartingCourse { course_title: course_title.unwrap_or_default(), course_id, user: user.into() }))
        })
        .context("Failed to use the start link")
    }
}
