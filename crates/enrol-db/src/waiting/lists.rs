//! Waiting lists (decision 015): joining, allowed only for a session that
//! is full to the public, and leaving. A freed seat is offered to the first
//! person waiting and claimed in `seats::offers`.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::page::OfferState;
use enrol_domain::waiting_list::WaitedSession;

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

/// Someone to add to a session's waiting list.
#[derive(Debug, Clone)]
pub struct NewWaiter {
    pub session_id: String,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub leave: WaitingListLink,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    Joined,
    /// The session has a free seat: book it instead.
    NotFull,
    AlreadyWaiting,
    UnknownSession,
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
    /// Adds `waiter` to the end of a full session's list and mails them.
    pub async fn join_waiting_list(&self, waiter: &NewWaiter, college: &str, now: DateTime<Utc>) -> anyhow::Result<Joined> {
        let _turn = self.seat_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
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
            let name = format!("{} {}", waiter.given_name, waiter.family_name);
            let added = sqlx::query(
                "insert into waiting_list_entry (id, session_id, name, email, phone, status, created_at, leave_token_hash) \
                 values ($1, $2, $3, $4, $5, 'waiting', $6, $7) on conflict do nothing"
            ).bind(crate::public_id()).bind(&waiter.session_id).bind(name.trim()).bind(&waiter.email).bind(&waiter.phone).bind(now)
                .bind(&waiter.leave.token_hash).execute(&mut *tx).await?.rows_affected() == 1;
            if !added {
                tx.rollback().await?;
                return Ok(Joined::AlreadyWaiting);
            }
            let waited = WaitedSession { given_name: &waiter.given_name, email: &waiter.email, title: &course.title, date: course.date };
            tx.queue_mail(&waited.joined(&waiter.leave.url, college), now).await?;
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Joined::Joined)
        })
        .context("Failed to join the waiting list")
    }

    /// Takes someone off the list, by the leave link of their first mail
    /// or the claim link of an offer (`token_hash` is either's); an offer
    /// they held passes on. False when they were not waiting.
    pub async fn leave_waiting_list(&self, token_hash: &str) -> anyhow::Result<bool> {
        let _turn = self.seat_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
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
