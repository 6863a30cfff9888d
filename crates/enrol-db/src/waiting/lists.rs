//! Waiting lists (decision 015): asking to join, allowed only for a
//! session that is full to the public and within the limits per client and
//! per list; confirming by the mailed link, which is when someone starts to
//! wait; and leaving. A freed seat is offered to the first person waiting
//! and claimed in `waiting::offers`.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::page::{ConfirmState, OfferState};
use enrol_domain::waiting_list::{CONFIRM_RESEND_AFTER, CONFIRM_WITHIN, JOINS_PER_CLIENT_PER_DAY, LIST_LIMIT, WaitedSession};

use crate::counting::FREE_SEATS;
use crate::people::PeopleSteps;
use crate::seats::SeatSteps;
use crate::{Db, on_pool};

/// A link a waiting-list mail carries: the database keeps the hash of its
/// token; `url` goes only into the mail.
#[derive(Debug, Clone)]
pub struct WaitingListLink {
    pub token_hash: String,
    pub url: String,
}

/// Someone who asks to wait for a session: they wait once they confirm by
/// `confirm`'s link.
#[derive(Debug, Clone)]
pub struct NewWaiter {
    pub session_id: String,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
    pub phone: Option<String>,
    /// The client that asked (an address, an IPv6 /64), whose joins are capped.
    pub client_key: String,
    pub confirm: WaitingListLink,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    /// A link to confirm the place is mailed (or was, within the last
    /// minutes, and is not mailed again).
    Asked,
    /// The session has a free seat: book it instead.
    NotFull,
    AlreadyWaiting,
    /// The list holds [`LIST_LIMIT`] people already.
    ListFull,
    /// The client asked for [`JOINS_PER_CLIENT_PER_DAY`] places today.
    TooManyAsked,
    UnknownSession,
}

/// What confirming a place did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmed {
    /// Now waiting, in the queue from now; the list's mail is sent.
    Confirmed,
    /// Confirmed before: still waiting, or further on.
    Already,
    /// The link ran out or was never issued.
    Closed,
}

/// What a confirmation link is for, for its page.
#[derive(Debug, Clone)]
pub struct Confirmation {
    pub state: ConfirmState,
    pub title: String,
    pub date: NaiveDate,
}

/// What claiming an offer did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// A pending booking now holds the seat: its id.
    Claimed { order_id: String },
    /// Claimed before, run out, given up or never issued.
    Closed,
}

/// The offer a claim link opens, for its page.
#[derive(Debug, Clone)]
pub struct Offer {
    pub state: OfferState,
    pub session_id: String,
    pub course_id: String,
    pub expires_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
pub(super) struct SessionCourse {
    pub(super) course_id: String,
    pub(super) event_id: String,
    pub(super) title: String,
    pub(super) url: String,
    pub(super) date: NaiveDate,
    #[sqlx(rename = "type")]
    pub(super) session_type: String,
    pub(super) price: i64,
}

/// A session of a course on the site: one taken off it (decision 018) has
/// no waiting list to join.
pub(super) const SESSION_COURSE: &str = "select c.id as course_id, ev.id as event_id, c.title, c.url, s.date, s.type, s.price from session s \
     join event ev on ev.id = s.event_id join course c on c.id = ev.course_id where s.id = $1 and not c.withdrawn";

impl Db {
    /// Asks for `waiter`'s place on a full session's list: mails the link
    /// that confirms it. Counted under the client's `hold_client` row, so
    /// one client's joins on many instances at once are capped all the same.
    pub async fn join_waiting_list(&self, waiter: &NewWaiter, college: &str, now: DateTime<Utc>) -> anyhow::Result<Joined> {
        let write_turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The client's row before the seat queue, as a new order takes it (see `Db::seat_turn`).
            sqlx::query("insert into hold_client (client_key) values ($1) on conflict (client_key) do update set client_key = excluded.client_key")
                .bind(&waiter.client_key).execute(&mut *tx).await?;
            let asked: i64 = sqlx::query_scalar("select count(*) from waiting_list_entry where client_key = $1 and created_at > $2")
                .bind(&waiter.client_key).bind(now - chrono::Duration::days(1)).fetch_one(&mut *tx).await?;
            if asked >= JOINS_PER_CLIENT_PER_DAY {
                tx.rollback().await?;
                return Ok(Joined::TooManyAsked);
            }
            let _turn = match write_turn {
                Some(turn) => turn,
                None => self.seat_turn().await,
            };
            tx.lock_session(&waiter.session_id).await?;
            let course: Option<SessionCourse> = sqlx::query_as(SESSION_COURSE).bind(&waiter.session_id).fetch_optional(&mut *tx).await?;
            let free: Option<i64> = sqlx::query_scalar(FREE_SEATS.as_str()).bind(&waiter.session_id).bind(now).bind("").fetch_optional(&mut *tx).await?;
            let (Some(course), Some(free)) = (course, free) else {
                tx.rollback().await?;
                return Ok(Joined::UnknownSession);
            };
            if free > 0 {
                tx.rollback().await?;
                return Ok(Joined::NotFull);
            }
            sqlx::query(LAPSE_UNCONFIRMED).bind(now - CONFIRM_WITHIN).execute(&mut *tx).await?;
            let waited = WaitedSession { given_name: &waiter.given_name, email: &waiter.email, title: &course.title, date: course.date };
            let asked_before: Option<(String, Option<DateTime<Utc>>)> = sqlx::query_as(
                "select status, confirm_mailed_at from waiting_list_entry where session_id = $1 and email = $2 \
                 and status in ('unconfirmed', 'waiting', 'offered')"
            ).bind(&waiter.session_id).bind(&waiter.email).fetch_optional(&mut *tx).await?;
            match asked_before {
                Some((status, _)) if status != "unconfirmed" => {
                    tx.rollback().await?;
                    return Ok(Joined::AlreadyWaiting);
                }
                // Asked again: a new link, but not more often than every few minutes.
                Some((_, mailed)) => {
                    if mailed.is_none_or(|at| at <= now - CONFIRM_RESEND_AFTER) {
                        sqlx::query("update waiting_list_entry set confirm_token_hash = $3, confirm_mailed_at = $4 \
                                     where session_id = $1 and email = $2 and status = 'unconfirmed'")
                            .bind(&waiter.session_id).bind(&waiter.email).bind(&waiter.confirm.token_hash).bind(now).execute(&mut *tx).await?;
                        tx.queue_mail(&waited.confirm(&waiter.confirm.url, college), now).await?;
                    }
                }
                None => {
                    let listed: i64 = sqlx::query_scalar(
                        "select count(*) from waiting_list_entry where session_id = $1 and status in ('unconfirmed', 'waiting', 'offered')"
                    ).bind(&waiter.session_id).fetch_one(&mut *tx).await?;
                    if listed >= LIST_LIMIT {
                        tx.rollback().await?;
                        return Ok(Joined::ListFull);
                    }
                    let name = format!("{} {}", waiter.given_name, waiter.family_name);
                    // The link to leave is mailed once the place is confirmed; until then the
                    // entry keeps a hash no token has (a fresh id), so nothing leaves it.
                    sqlx::query(
                        "insert into waiting_list_entry (id, session_id, name, email, phone, status, created_at, leave_token_hash, \
                         confirm_token_hash, confirm_mailed_at, client_key) values ($1, $2, $3, $4, $5, 'unconfirmed', $6, $7, $8, $6, $9)"
                    ).bind(crate::public_id()).bind(&waiter.session_id).bind(name.trim()).bind(&waiter.email).bind(&waiter.phone).bind(now)
                        .bind(crate::public_id()).bind(&waiter.confirm.token_hash).bind(&waiter.client_key).execute(&mut *tx).await?;
                    tx.queue_mail(&waited.confirm(&waiter.confirm.url, college), now).await?;
                }
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Joined::Asked)
        })
        .context("Failed to join the waiting list")
    }

    /// Confirms the place of the link `confirm_token_hash`: its holder
    /// waits from `now`, and is mailed `leave`'s link.
    pub async fn confirm_waiting(
        &self,
        confirm_token_hash: &str,
        leave: &WaitingListLink,
        college: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Confirmed> {
        #[derive(sqlx::FromRow)]
        struct Waiting {
            session_id: String,
            name: String,
            email: String,
        }
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            let waiting: Option<Waiting> = sqlx::query_as(
                "update waiting_list_entry set status = 'waiting', confirmed_at = $2, leave_token_hash = $3 \
                 where confirm_token_hash = $1 and status = 'unconfirmed' and confirm_mailed_at > $4 returning session_id, name, email"
            ).bind(confirm_token_hash).bind(now).bind(&leave.token_hash).bind(now - CONFIRM_WITHIN).fetch_optional(&mut *tx).await?;
            let Some(waiting) = waiting else {
                let confirmed: bool = sqlx::query_scalar(
                    "select exists (select 1 from waiting_list_entry where confirm_token_hash = $1 and confirmed_at is not null)"
                ).bind(confirm_token_hash).fetch_one(&mut *tx).await?;
                tx.rollback().await?;
                return Ok(if confirmed { Confirmed::Already } else { Confirmed::Closed });
            };
            if let Some(course) = sqlx::query_as::<_, SessionCourse>(SESSION_COURSE).bind(&waiting.session_id).fetch_optional(&mut *tx).await? {
                let given_name = waiting.name.split_whitespace().next().unwrap_or_default();
                let waited = WaitedSession { given_name, email: &waiting.email, title: &course.title, date: course.date };
                tx.queue_mail(&waited.joined(&leave.url, college), now).await?;
            }
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Confirmed::Confirmed)
        })
        .context("Failed to confirm the waiting list place")
    }

    /// What a confirmation link is for, and whether it still works.
    pub async fn waiting_confirmation(&self, confirm_token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<Confirmation>> {
        #[derive(sqlx::FromRow)]
        struct Found {
            status: String,
            confirm_mailed_at: Option<DateTime<Utc>>,
            confirmed_at: Option<DateTime<Utc>>,
            title: String,
            date: NaiveDate,
        }
        let found: Option<Found> = on_pool!(self, pool => sqlx::query_as(
            "select w.status, w.confirm_mailed_at, w.confirmed_at, c.title, s.date from waiting_list_entry w \
             join session s on s.id = w.session_id join event ev on ev.id = s.event_id join course c on c.id = ev.course_id \
             where w.confirm_token_hash = $1"
        ).bind(confirm_token_hash).fetch_optional(pool).await)
        .context("Failed to read the waiting list confirmation")?;
        Ok(found.map(|f| Confirmation {
            state: if f.confirmed_at.is_some() {
                ConfirmState::Confirmed
            } else if f.status == "unconfirmed" && f.confirm_mailed_at.is_some_and(|at| at > now - CONFIRM_WITHIN) {
                ConfirmState::Open
            } else {
                ConfirmState::Closed
            },
            title: f.title,
            date: f.date,
        }))
    }

    /// Takes someone off the list, by the leave link of their first mail
    /// or the claim link of an offer (`token_hash` is either's); an offer
    /// they held passes on. False when they were not waiting.
    pub async fn leave_waiting_list(&self, token_hash: &str) -> anyhow::Result<bool> {
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            let left = sqlx::query(
                "update waiting_list_entry set status = 'left' where (leave_token_hash = $1 or claim_token_hash = $1) \
                 and status in ('waiting', 'offered')"
            ).bind(token_hash).execute(&mut *tx).await?.rows_affected() == 1;
            if left {
                tx.seats_changed().await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(left)
        })
        .context("Failed to leave the waiting list")
    }

    /// What the person behind a leave link waits for: course title, while they wait.
    pub async fn waiting_for(&self, leave_token_hash: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar(
            "select c.title from waiting_list_entry w join session s on s.id = w.session_id join event ev on ev.id = s.event_id \
             join course c on c.id = ev.course_id where w.leave_token_hash = $1 and w.status in ('waiting', 'offered')"
        ).bind(leave_token_hash).fetch_optional(pool).await)
        .context("Failed to read the waiting list entry")
    }
}

/// Lets go the places whose confirmation link ran out (bound: the moment
/// before which a link was mailed too long ago): nobody confirmed them, and
/// they no longer count against their list.
pub(super) const LAPSE_UNCONFIRMED: &str =
    "update waiting_list_entry set status = 'lapsed' where status = 'unconfirmed' and confirm_mailed_at <= $1";
