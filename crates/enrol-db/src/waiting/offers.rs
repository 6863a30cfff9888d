//! A waiting list's offers (decision 015): a freed seat offered, under the
//! session's lock, to the first person waiting (by when they confirmed),
//! the offer holding the seat (`session.offered`, kept by triggers); an
//! offer that runs out, or whose link is not opened within a day, passes to
//! the next; claiming turns the offer into a pending booking that holds the
//! seat until the offer would have run out, once.

use std::collections::BTreeMap;

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::enrollment::{BookedCourse, LinePrice, PaymentMethod, PaymentMode, Quote};
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::money::Money;
use enrol_domain::page::OfferState;
use enrol_domain::page::SessionType;
use enrol_domain::reference::OrderKind;
use enrol_domain::waiting_list::{CONFIRM_WITHIN, OFFER_LIFE, OFFER_OPEN_WITHIN, WaitedSession};

use crate::orders::OrderSteps;
use crate::people::PeopleSteps;
use crate::seats::SeatSteps;
use crate::waiting::lists::{LAPSE_UNCONFIRMED, SESSION_COURSE, SessionCourse};
use crate::{Claim, Db, NewEnrollment, Offer, WaitingListLink, on_pool};

/// The sessions on sale with someone waiting for a seat.
pub(crate) const SESSIONS_WAITED_FOR: &str = "select s.id from session s join event ev on ev.id = s.event_id \
     join course c on c.id = ev.course_id where s.waiting > 0 and s.status = 'active' and not c.withdrawn order by s.id";

/// Whether an offer (`w`) is still open at the moment `now` (a parameter,
/// `$2` say): not run out, and opened or still within the time to open it.
/// Offers made before there was such a time have none.
fn open(now: &str) -> String {
    format!("(w.offer_expires_at > {now} and (w.offer_opened_at is not null or w.offer_open_by is null or w.offer_open_by > {now}))")
}

#[derive(sqlx::FromRow)]
struct Waiter {
    id: String,
    name: String,
    email: String,
}

impl Db {
    /// The offer a claim link opens, which counts as opened if it is still
    /// open: from now it is kept until it runs out.
    pub async fn offer(&self, claim_token_hash: &str, now: DateTime<Utc>) -> anyhow::Result<Option<Offer>> {
        #[derive(sqlx::FromRow)]
        struct Found {
            status: String,
            session_id: String,
            course_id: String,
            offer_expires_at: Option<DateTime<Utc>>,
        }
        let found: Option<Found> = on_pool!(self, pool => {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "update waiting_list_entry as w set offer_opened_at = $2 where claim_token_hash = $1 and status = 'offered' \
                 and offer_opened_at is null and {}", open("$2")
            )))
            .bind(claim_token_hash).bind(now).execute(pool).await?;
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select case when w.status = 'offered' and not {} then 'lapsed' else w.status end as status, w.session_id, ev.course_id, w.offer_expires_at \
                 from waiting_list_entry w join session s on s.id = w.session_id join event ev on ev.id = s.event_id where w.claim_token_hash = $1",
                open("$2")
            )))
            .bind(claim_token_hash).bind(now).fetch_optional(pool).await
        })
        .context("Failed to read the offer")?;
        Ok(found.map(|f| Offer {
            state: match f.status.as_str() {
                "offered" => OfferState::Open,
                "claimed" => OfferState::Claimed,
                _ => OfferState::Closed,
            },
            session_id: f.session_id,
            course_id: f.course_id,
            expires_at: f.offer_expires_at,
        }))
    }

    /// Lapses offers that ran out, then offers every seat free to the list
    /// of each session people wait for, first come first served: the offer
    /// holds the seat, its mail carries a claim link made by `links`.
    /// Safe on any number of instances: each offer is made under the
    /// session's lock and only to someone still waiting. How many offers.
    pub async fn offer_freed_seats(
        &self,
        college: &str,
        claim_link: &(dyn Fn() -> WaitingListLink + Sync),
        now: DateTime<Utc>,
    ) -> anyhow::Result<usize> {
        // Most of the time nobody waits: a read, no write turn.
        let anyone: bool = on_pool!(self, pool => sqlx::query_scalar(
            "select exists (select 1 from waiting_list_entry where status in ('waiting', 'offered'))"
        ).fetch_one(pool).await)
        .context("Failed to read the waiting lists")?;
        if !anyone {
            return Ok(0);
        }
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            sqlx::query(sqlx::AssertSqlSafe(format!("update waiting_list_entry as w set status = 'lapsed' where status = 'offered' and not {}", open("$1"))))
                .bind(now).execute(&mut *tx).await?;
            sqlx::query(LAPSE_UNCONFIRMED).bind(now - CONFIRM_WITHIN).execute(&mut *tx).await?;
            // A course taken off the site offers nothing; its people keep waiting, in case it comes back.
            let sessions: Vec<String> = sqlx::query_scalar(SESSIONS_WAITED_FOR).fetch_all(&mut *tx).await?;
            let mut offered = 0;
            for session_id in &sessions {
                tx.lock_session(session_id).await?;
                // Free for the list: every seat not registered, held or already offered.
                let free: i64 = sqlx::query_scalar(
                    "select s.seats - s.registrations - s.offered - (s.holds - (select count(*) from seat_hold h \
                     where h.session_id = s.id and h.expires_at <= $2)) from session s where s.id = $1"
                ).bind(session_id).bind(now).fetch_one(&mut *tx).await?;
                let Some(course) = sqlx::query_as::<_, SessionCourse>(SESSION_COURSE).bind(session_id).fetch_optional(&mut *tx).await? else {
                    continue;
                };
                for _ in 0..free.max(0) {
                    let next: Option<Waiter> = sqlx::query_as(
                        "select id, name, email from waiting_list_entry where session_id = $1 and status = 'waiting' \
                         order by confirmed_at, id limit 1"
                    ).bind(session_id).fetch_optional(&mut *tx).await?;
                    let Some(next) = next else { break };
                    let claim = claim_link();
                    let (expires, open_by) = (now + OFFER_LIFE, now + OFFER_OPEN_WITHIN);
                    sqlx::query(
                        "update waiting_list_entry set status = 'offered', offered_at = $2, offer_expires_at = $3, claim_token_hash = $4, \
                         offer_open_by = $5 where id = $1 and status = 'waiting'"
                    ).bind(&next.id).bind(now).bind(expires).bind(&claim.token_hash).bind(open_by).execute(&mut *tx).await?;
                    let given_name = next.name.split_whitespace().next().unwrap_or_default().to_owned();
                    let waited = WaitedSession { given_name: &given_name, email: &next.email, title: &course.title, date: course.date };
                    let words = |at: DateTime<Utc>| london::to_london(at).format("%A %-d %B %Y at %H:%M").to_string();
                    let mail: Mail = waited.offer(&claim.url, &words(open_by), &words(expires), college);
                    tx.queue_mail(&mail, now).await?;
                    offered += 1;
                }
            }
            if offered > 0 {
                tx.seats_changed().await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(offered)
        })
        .context("Failed to offer freed seats to the waiting lists")
    }

    /// Claims the offer of `claim_token_hash` once: a pending booking for
    /// its holder, made by the browser `owner_token_hash`, holding the seat
    /// until the offer would have run out.
    pub async fn claim_offer(
        &self,
        claim_token_hash: &str,
        owner_token_hash: &str,
        client_key: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Claim> {
        #[derive(sqlx::FromRow)]
        struct Found {
            id: String,
            session_id: String,
            name: String,
            email: String,
            phone: Option<String>,
            offer_expires_at: DateTime<Utc>,
        }
        let reference = self.next_reference(OrderKind::Booking).await?;
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            // A write first: the entry's row lock (PostgreSQL), the write lock (SQLite).
            sqlx::query("update waiting_list_entry set status = status where claim_token_hash = $1").bind(claim_token_hash).execute(&mut *tx).await?;
            let found: Option<Found> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select id, session_id, name, email, phone, offer_expires_at from waiting_list_entry w \
                 where claim_token_hash = $1 and status = 'offered' and {}", open("$2")
            )))
            .bind(claim_token_hash).bind(now).fetch_optional(&mut *tx).await?;
            let Some(found) = found else {
                tx.rollback().await?;
                return Ok(Claim::Closed);
            };
            tx.lock_session(&found.session_id).await?;
            // Single use: only the first claim moves the offer on.
            let claimed = sqlx::query("update waiting_list_entry set status = 'claimed' where id = $1 and status = 'offered'")
                .bind(&found.id).execute(&mut *tx).await?.rows_affected() == 1;
            let course: Option<SessionCourse> = sqlx::query_as(SESSION_COURSE).bind(&found.session_id).fetch_optional(&mut *tx).await?;
            let (true, Some(course)) = (claimed, course) else {
                tx.rollback().await?;
                return Ok(Claim::Closed);
            };
            let price = Money::from_pence(course.price);
            let (given_name, family_name) = found.name.split_once(' ').unwrap_or((found.name.as_str(), ""));
            let new = NewEnrollment {
                id: crate::public_id(),
                mode: PaymentMode::Fee,
                quote: Quote::new(&[LinePrice { price, kit_pounds: None, code_applies: true }], None),
                discount_code: None,
                courses: vec![BookedCourse {
                    course_id: course.course_id,
                    event_id: course.event_id,
                    session_id: Some(found.session_id.clone()),
                    title: course.title,
                    url: course.url,
                    date: Some(course.date),
                    session_type: SessionType::parse(&course.session_type),
                    kit_name: None,
                    kit_pounds: None,
                    price,
                }],
                metadata: BTreeMap::from([("waiting_list_entry".to_owned(), found.id.clone())]),
                given_name: given_name.to_owned(),
                family_name: family_name.to_owned(),
                email: found.email,
                contact_number: found.phone.unwrap_or_default(),
                payment_method: PaymentMethod::Card,
                user_id: None,
                owner_token_hash: owner_token_hash.to_owned(),
                client_key: client_key.to_owned(),
                // Agreed at the checkout, where the claimed booking is paid.
                consents: Vec::new(),
            };
            tx.insert_enrollment(&new, &reference, found.offer_expires_at, found.offer_expires_at, now).await?;
            // The offer's seat becomes the booking's hold, whatever the list.
            sqlx::query("insert into seat_hold (session_id, enrollment_id, expires_at) values ($1, $2, $3)")
                .bind(&found.session_id).bind(&new.id).bind(found.offer_expires_at).execute(&mut *tx).await?;
            sqlx::query("update waiting_list_entry set enrollment_id = $2 where id = $1").bind(&found.id).bind(&new.id).execute(&mut *tx).await?;
            tx.seats_changed().await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Claim::Claimed { order_id: new.id })
        })
        .context("Failed to claim the offer")
    }
}
