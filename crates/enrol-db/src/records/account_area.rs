//! What a student changes in the account area (decision 014): answers to
//! their forms, evidence files, an intake call, their name, phone and
//! password. Every write names the student and touches only their rows, in
//! the same statement or transaction that checks it.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use crate::people::PeopleSteps;
use crate::{Db, on_pool, public_id};

/// A file a student sent, as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredUpload {
    pub file_name: String,
    pub content_type: String,
    pub storage_key: String,
}

/// A file about to be recorded against an evidence request.
#[derive(Debug, Clone)]
pub struct NewUpload<'a> {
    pub request_id: &'a str,
    pub file_name: &'a str,
    pub content_type: &'a str,
    pub size_bytes: i64,
    pub storage_key: &'a str,
}

/// Files a student may send for one evidence request.
pub const FILES_PER_REQUEST: i64 = 10;

/// Whether a student may send a file for an evidence request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UploadRoom {
    /// Theirs, with room for another file.
    Open,
    /// Not theirs, no such request, or one that takes no more files
    /// (accepted, or closed with its booking).
    NotFound,
    /// [`FILES_PER_REQUEST`] sent already.
    Full,
}

impl UploadRoom {
    /// The room of a request with `sent` files, `None` when it is not the sender's.
    fn of(sent: Option<i64>) -> Self {
        match sent {
            None => UploadRoom::NotFound,
            Some(sent) if sent >= FILES_PER_REQUEST => UploadRoom::Full,
            Some(_) => UploadRoom::Open,
        }
    }
}

/// How recording a file went: its id, or why there is no room for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UploadRecorded {
    Recorded { id: String },
    Refused(UploadRoom),
}

/// How booking an intake call went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntakeBooking {
    Booked {
        id: String,
    },
    /// Someone else has that slot.
    SlotTaken,
    /// The student has a call booked already.
    AlreadyBooked,
}

/// How moving an intake call to another time went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntakeMove {
    Moved,
    /// Someone else has that slot; the call keeps its time.
    SlotTaken,
    /// No booked call of the student's with that id.
    Unknown,
}

/// Whether `error` broke a unique index: PostgreSQL names it (`index`),
/// SQLite names its columns (`columns`, as `table.column, …`).
fn violates(error: &sqlx::Error, index: &str, columns: &str) -> bool {
    error.as_database_error().is_some_and(|e| e.is_unique_violation() && (e.constraint() == Some(index) || e.message().ends_with(columns)))
}

/// What opening an email change link did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmailChange {
    /// The account's email is now `new_email`; `old_email` was told.
    Changed { old_email: String, new_email: String },
    /// No live link of this user's with that token.
    Unknown,
    /// Another account took the address meanwhile.
    Taken,
}

impl Db {
    /// Uses `user_id`'s email change link once: moves the account to the
    /// proven address and queues `notice(old, new)` to the old one, in one
    /// transaction.
    pub async fn confirm_email_change(
        &self,
        user_id: &str,
        token_hash: &str,
        now: DateTime<Utc>,
        notice: impl FnOnce(&str, &str) -> enrol_domain::mail::Mail,
    ) -> anyhow::Result<EmailChange> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let new_email: Option<String> = sqlx::query_scalar(
                "delete from email_change where token_hash = $1 and user_id = $2 and expires_at > $3 returning new_email"
            ).bind(token_hash).bind(user_id).bind(now).fetch_optional(&mut *tx).await?;
            let Some(new_email) = new_email else {
                tx.rollback().await?;
                return Ok(EmailChange::Unknown);
            };
            let old_email: String = sqlx::query_scalar("select email from user_account where id = $1").bind(user_id).fetch_one(&mut *tx).await?;
            let moved = sqlx::query("update user_account set email = $1, email_verified_at = $2 where id = $3")
                .bind(&new_email).bind(now).bind(user_id).execute(&mut *tx).await;
            match moved {
                Err(error) if error.as_database_error().is_some_and(|e| e.is_unique_violation()) => {
                    tx.rollback().await?;
                    return Ok(EmailChange::Taken);
                }
                moved => moved?,
            };
            tx.queue_mail(&notice(&old_email, &new_email), now).await?;
            tx.commit().await.context("Failed to change the email")?;
            Ok(EmailChange::Changed { old_email, new_email })
        })
    }

    /// The account with this email, if any.
    pub async fn account_id_by_email(&self, email: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar("select id from user_account where email = $1").bind(email).fetch_optional(pool).await)
            .context("Failed to look up an email")
    }

    /// Replaces the answers of `user_id`'s form `form_id`; with `complete`,
    /// marks it answered in full. False when the form is not theirs.
    pub async fn save_form_answers(
        &self,
        user_id: &str,
        form_id: &str,
        answers: &[(&'static str, String)],
        complete: bool,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let kind: Option<String> = sqlx::query_scalar("select kind from user_form where id = $1 and user_id = $2 and closed_at is null")
                .bind(form_id).bind(user_id).fetch_optional(&mut *tx).await?;
            let Some(kind) = kind else {
                return Ok(false);
            };
            let flagged = enrol_domain::forms::asks_for_a_call(&kind, answers);
            sqlx::query(
                "update user_form set client_complete = $1, completed_at = case when $1 then $2 else null end, flagged = $5 \
                 where id = $3 and user_id = $4"
            ).bind(complete).bind(now).bind(form_id).bind(user_id).bind(flagged).execute(&mut *tx).await?;
            // Medical answers are special category data: kept apart (decision 033).
            let table = if kind == "medical" { "medical_answer" } else { "form_response" };
            sqlx::query(sqlx::AssertSqlSafe(format!("delete from {table} where user_form_id = $1"))).bind(form_id).execute(&mut *tx).await?;
            for (question, answer) in answers {
                sqlx::query(sqlx::AssertSqlSafe(format!("insert into {table} (user_form_id, question, answer) values ($1, $2, $3)")))
                    .bind(form_id).bind(*question).bind(answer).execute(&mut *tx).await?;
            }
            tx.commit().await.context("Failed to save the form")?;
            Ok(true)
        })
    }

    /// The kind of `user_id`'s form `form_id`, if it is theirs.
    pub async fn form_kind(&self, user_id: &str, form_id: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar("select kind from user_form where id = $1 and user_id = $2")
            .bind(form_id).bind(user_id).fetch_optional(pool).await)
        .context("Failed to read a form")
    }

    /// Whether `user_id` may send a file for evidence request `request_id`:
    /// asked before the file is stored, so nothing is kept for a request
    /// that is not theirs or is full ([`Db::record_upload`] decides again).
    pub async fn upload_room(&self, user_id: &str, request_id: &str) -> anyhow::Result<UploadRoom> {
        let sent: Option<i64> = on_pool!(self, pool => sqlx::query_scalar(
            "select (select count(*) from upload u where u.upload_request_id = r.id) from upload_request r where r.id = $1 and r.user_id = $2 \
             and r.closed_at is null and r.status <> 'accepted'"
        ).bind(request_id).bind(user_id).fetch_optional(pool).await)
        .context("Failed to read an evidence request")?;
        Ok(UploadRoom::of(sent))
    }

    /// Records a file against `user_id`'s evidence request, if it is theirs
    /// and has room, counted under the request's row so that files sent at
    /// once cannot pass [`FILES_PER_REQUEST`]. The request is then marked
    /// received.
    pub async fn record_upload(&self, user_id: &str, upload: &NewUpload<'_>, now: DateTime<Utc>) -> anyhow::Result<UploadRecorded> {
        let _turn = self.write_turn().await;
        let id = public_id();
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let theirs = sqlx::query(
                "update upload_request set status = status where id = $1 and user_id = $2 and closed_at is null and status <> 'accepted'"
            )
                .bind(upload.request_id).bind(user_id).execute(&mut *tx).await?.rows_affected() == 1;
            let sent: i64 = sqlx::query_scalar("select count(*) from upload where upload_request_id = $1")
                .bind(upload.request_id).fetch_one(&mut *tx).await?;
            let room = UploadRoom::of(theirs.then_some(sent));
            if room != UploadRoom::Open {
                tx.rollback().await?;
                return Ok(UploadRecorded::Refused(room));
            }
            sqlx::query(
                "insert into upload (id, upload_request_id, user_id, file_name, content_type, size_bytes, storage_key, uploaded_at) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8)"
            ).bind(&id).bind(upload.request_id).bind(user_id).bind(upload.file_name).bind(upload.content_type).bind(upload.size_bytes)
                .bind(upload.storage_key).bind(now).execute(&mut *tx).await?;
            sqlx::query("update upload_request set status = 'received' where id = $1 and status in ('requested', 'rejected')")
                .bind(upload.request_id).execute(&mut *tx).await?;
            tx.commit().await.context("Failed to record an upload")?;
            Ok(UploadRecorded::Recorded { id })
        })
    }

    /// `user_id`'s file `upload_id`, if it is theirs.
    pub async fn upload_of(&self, user_id: &str, upload_id: &str) -> anyhow::Result<Option<StoredUpload>> {
        on_pool!(self, pool => sqlx::query_as("select file_name, content_type, storage_key from upload where id = $1 and user_id = $2")
            .bind(upload_id).bind(user_id).fetch_optional(pool).await)
        .context("Failed to read an upload")
    }

    /// Books the slot for `user_id`: one booking per slot and one booked call
    /// per student, both kept by unique indexes, so two at once cannot both win.
    pub async fn book_intake_call(&self, user_id: &str, date: NaiveDate, time: &str, now: DateTime<Utc>) -> anyhow::Result<IntakeBooking> {
        let _turn = self.write_turn().await;
        let id = public_id();
        let inserted = on_pool!(self, pool => sqlx::query(
            "insert into intake_call (id, student_id, date, time, created_at) values ($1, $2, $3, $4, $5)"
        ).bind(&id).bind(user_id).bind(date).bind(time).bind(now).execute(pool).await.map(|_| ()));
        match inserted {
            Ok(_) => Ok(IntakeBooking::Booked { id }),
            Err(error) if violates(&error, "intake_call_one_booked", "intake_call.student_id") => Ok(IntakeBooking::AlreadyBooked),
            Err(error) if violates(&error, "intake_call_slot_once", "intake_call.date, intake_call.time") => Ok(IntakeBooking::SlotTaken),
            Err(error) => Err(error).context("Failed to book an intake call"),
        }
    }

    /// Cancels `user_id`'s booked call `call_id`; false when it is not theirs or not booked.
    pub async fn cancel_intake_call(&self, user_id: &str, call_id: &str) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        let done = on_pool!(self, pool => sqlx::query(
            "update intake_call set status = 'cancelled' where id = $1 and student_id = $2 and status = 'booked'"
        ).bind(call_id).bind(user_id).execute(pool).await.map(|done| done.rows_affected() == 1))
        .context("Failed to cancel an intake call")?;
        Ok(done)
    }

    /// Moves `user_id`'s booked call `call_id` to another slot in one
    /// statement: the slot's unique index refuses a taken one, and the call
    /// keeps its time until the new one is had.
    pub async fn move_intake_call(&self, user_id: &str, call_id: &str, date: NaiveDate, time: &str) -> anyhow::Result<IntakeMove> {
        let _turn = self.write_turn().await;
        let moved = on_pool!(self, pool => sqlx::query(
            "update intake_call set date = $3, time = $4 where id = $1 and student_id = $2 and status = 'booked'"
        ).bind(call_id).bind(user_id).bind(date).bind(time).execute(pool).await.map(|done| done.rows_affected() == 1));
        match moved {
            Ok(true) => Ok(IntakeMove::Moved),
            Ok(false) => Ok(IntakeMove::Unknown),
            Err(error) if violates(&error, "intake_call_slot_once", "intake_call.date, intake_call.time") => Ok(IntakeMove::SlotTaken),
            Err(error) => Err(error).context("Failed to move an intake call"),
        }
    }

    /// The slots booked from `from` to `to`, inclusive.
    pub async fn booked_intake_slots(&self, from: NaiveDate, to: NaiveDate) -> anyhow::Result<Vec<(NaiveDate, String)>> {
        on_pool!(self, pool => sqlx::query_as("select date, time from intake_call where status = 'booked' and date between $1 and $2")
            .bind(from).bind(to).fetch_all(pool).await)
        .context("Failed to read the booked intake calls")
    }

    /// Changes `user_id`'s name and phone.
    pub async fn update_profile(&self, user_id: &str, given_name: &str, family_name: &str, phone: &str) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => sqlx::query("update user_account set given_name = $1, family_name = $2, contact_number = $3 where id = $4")
            .bind(given_name).bind(family_name).bind(phone).bind(user_id).execute(pool).await.map(drop))
        .context("Failed to update the profile")?;
        Ok(())
    }

    /// `user_id`'s password hash, if they have chosen a password.
    pub async fn password_hash_of(&self, user_id: &str) -> anyhow::Result<Option<String>> {
        let hash: Option<Option<String>> =
            on_pool!(self, pool => sqlx::query_scalar("select password_hash from user_account where id = $1")
            .bind(user_id).fetch_optional(pool).await)
            .context("Failed to read a password")?;
        Ok(hash.flatten())
    }

    /// Sets `user_id`'s password and ends their other sessions (whoever knew
    /// the old password is signed out), keeping `keep_session`.
    pub async fn change_password(&self, user_id: &str, password_hash: &str, keep_session: &str) -> anyhow::Result<()> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("update user_account set password_hash = $1 where id = $2").bind(password_hash).bind(user_id).execute(&mut *tx).await?;
            sqlx::query("delete from user_session where user_id = $1 and token_hash <> $2").bind(user_id).bind(keep_session).execute(&mut *tx).await?;
            tx.commit().await.context("Failed to change the password")
        })
    }
}
