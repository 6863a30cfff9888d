//! A student moves a booked course to another date (decision 015). One
//! transaction takes a seat of the new session (only if one is free,
//! counted under the sessions' locks) before it gives back the old one,
//! changes the price and the balance, refunds what was paid beyond the new
//! total, and mails the new date with its updated calendar entry. A staff
//! member's move is the same transaction, beyond the 14-day limit and with
//! its audit row (decision 017). What the terms allow is decided in
//! `enrol_domain::date_change`.

use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;

use enrol_domain::booking::BookedTraining;
use enrol_domain::date_change::{DateChangeGrounds, DateChangeRefused, MovedBooking, OtherDate, check_date_change, date_change_money};
use enrol_domain::enrollment::{BookedCourse, balance_due_on, first_training_day};
use enrol_domain::london;
use enrol_domain::mail::Mail;
use enrol_domain::money::Money;
use enrol_domain::page::SessionType;

use crate::Actor;
use crate::counting::{FREE_SEATS, held_seats};
use crate::instalments::PlanSteps;
use crate::ledger::BalanceLink;
use crate::ledger::MoneySteps;
use crate::orders::OrderSteps;
use crate::orders::enrollments::EnrollmentRecord;
use crate::people::PeopleSteps;
use crate::seats::SeatSteps;
use crate::{College, Db, on_pool};

/// What asking to move did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateChange {
    Moved {
        total: Money,
        refund: Money,
    },
    Refused(DateChangeRefused),
    /// No such booking, course in it or session of that course.
    NotFound,
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    id: String,
    event_id: String,
    date: NaiveDate,
    start_at: chrono::NaiveDateTime,
    end_at: chrono::NaiveDateTime,
    #[sqlx(rename = "type")]
    session_type: String,
    price: i64,
    free: i64,
}

/// The active sessions of event `$1` after day `$4` other than `$5`, with
/// their seats free as of `$2` not counting the holds of order `$3`.
static OTHER_DATES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select s.id, s.event_id, s.date, s.start_at, s.end_at, s.type, s.price, s.seats - s.registrations - {} as free \
         from session s where s.event_id = $1 and s.status = 'active' and s.date > $4 and s.id <> $5 order by s.date, s.id",
        held_seats("$2", "$3")
    )
});

/// Active session `$1`, with its seats free as of `$2` not counting the
/// holds of order `$3`.
static TARGET_DATE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select s.id, s.event_id, s.date, s.start_at, s.end_at, s.type, s.price, s.seats - s.registrations - {} as free \
         from session s where s.id = $1 and s.status = 'active'",
        held_seats("$2", "$3")
    )
});

impl EnrollmentRecord {
    /// On what grounds `actor` may move `course` of it: a staff member
    /// beyond the terms; the student beyond them too when the college
    /// cancelled the session booked.
    pub fn date_change_grounds(&self, course: &BookedCourse, actor: &Actor) -> DateChangeGrounds {
        match actor {
            Actor::Staff(_) => DateChangeGrounds::Staff,
            Actor::Student if course.session_id.as_ref().is_some_and(|id| self.cancelled_sessions.contains(id)) => {
                DateChangeGrounds::SessionCancelled
            }
            Actor::Student => DateChangeGrounds::Terms,
        }
    }
}

impl Db {
    /// The other dates with a free seat that `course_id` of booking
    /// `order_id` could move to, as of `now`.
    pub async fn other_dates(
        &self,
        order_id: &str,
        event_id: &str,
        current: &str,
        price: Money,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Vec<OtherDate>> {
        let today = london::today(now);
        let rows: Vec<SessionRow> = on_pool!(self, pool => sqlx::query_as(OTHER_DATES.as_str())
            .bind(event_id).bind(now).bind(order_id).bind(today).bind(current).fetch_all(pool).await)
        .context("Failed to read the other dates")?;
        Ok(rows
            .into_iter()
            .filter(|row| row.free > 0)
            .filter_map(|row| {
                Some(OtherDate {
                    session_type: SessionType::parse(&row.session_type)?,
                    date: row.date.to_string(),
                    start: row.start_at.format("%Y-%m-%dT%H:%M:%S").to_string(),
                    end: row.end_at.format("%Y-%m-%dT%H:%M:%S").to_string(),
                    difference: Money::from_pence(row.price - price.pence()),
                    session_id: row.id,
                })
            })
            .collect())
    }

    /// Moves `course_id` of booking `order_id` to session `to` for
    /// `actor`, as of `now`. The balance falls due as if booked today (at
    /// once, moved into the last 14 days); any left to pay is mailed with
    /// `pay_link`, kept only then.
    #[allow(clippy::too_many_arguments)]
    pub async fn move_booking(
        &self,
        order_id: &str,
        course_id: &str,
        to: &str,
        actor: &Actor,
        college: &College,
        pay_link: &BalanceLink,
        now: DateTime<Utc>,
    ) -> anyhow::Result<DateChange> {
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            let Some(record) = tx.lock_booking(order_id).await? else {
                tx.rollback().await?;
                return Ok(DateChange::NotFound);
            };
            let target: Option<SessionRow> =
                sqlx::query_as(TARGET_DATE.as_str()).bind(to).bind(now).bind(order_id).fetch_optional(&mut *tx).await?;
            let line = record.courses.iter().position(|c| c.course_id == course_id);
            let (Some(target), Some(line)) = (target, line) else {
                tx.rollback().await?;
                return Ok(DateChange::NotFound);
            };
            let old = record.courses[line].clone();
            if target.event_id != old.event_id {
                tx.rollback().await?;
                return Ok(DateChange::NotFound);
            }
            let grounds = record.date_change_grounds(&old, actor);
            let refused = check_date_change(record.status, london::today(now), old.date, target.date, grounds).err()
                .or_else(|| (old.session_id.as_deref() == Some(to)).then_some(DateChangeRefused::SameDate));
            if let Some(refused) = refused {
                tx.rollback().await?;
                return Ok(DateChange::Refused(refused));
            }
            let from = old.session_id.clone().unwrap_or_default();
            let mut sessions = vec![from.clone(), to.to_owned()];
            sessions.sort_unstable();
            tx.lock_sessions(&sessions).await?;
            // The new seat first, counted after the lock: the old one is given back only once it is held.
            let free: Option<i64> = sqlx::query_scalar(FREE_SEATS.as_str()).bind(to).bind(now).bind(order_id).fetch_optional(&mut *tx).await?;
            let taken = free.unwrap_or(0) > 0
                && sqlx::query("update session set registrations = registrations + 1 where id = $1 and registrations < seats")
                    .bind(to).execute(&mut *tx).await?.rows_affected() == 1;
            if !taken {
                tx.rollback().await?;
                return Ok(DateChange::Refused(DateChangeRefused::Full));
            }
            sqlx::query("update session set registrations = registrations - 1 where id = $1 and registrations > 0")
                .bind(&from).execute(&mut *tx).await?;
            sqlx::query("update registration set session_id = $3 where enrollment_id = $1 and session_id = $2")
                .bind(order_id).bind(&from).bind(to).execute(&mut *tx).await?;
            tx.seats_changed().await?;

            let new_price = Money::from_pence(target.price);
            let money = date_change_money(record.quote.total, record.paid, old.price, new_price);
            let mut courses = record.courses.clone();
            courses[line].session_id = Some(to.to_owned());
            courses[line].date = Some(target.date);
            courses[line].session_type = SessionType::parse(&target.session_type);
            courses[line].price = new_price;
            let starts_on = first_training_day(&courses);
            let today = london::today(now);
            let due_on = starts_on.map(|day| balance_due_on(day, today));
            let subtotal = record.quote.subtotal.pence() + new_price.pence() - old.price.pence();
            sqlx::query(
                "update enrollment set lines = $2, subtotal = $3, total = $4, balance = $5, status = $6, starts_on = $7, \
                 balance_due_on = $8, calendar_sequence = calendar_sequence + 1 where id = $1"
            )
            .bind(order_id)
            .bind(serde_json::to_string(&courses).map_err(|e| sqlx::Error::Encode(e.into()))?)
            .bind(subtotal)
            .bind(money.total.pence())
            .bind((money.total.pence() - record.quote.deposit.pence()).max(0))
            .bind(money.status.as_str())
            .bind(starts_on)
            .bind(due_on)
            .execute(&mut *tx).await?;
            tx.fit_plan(order_id, due_on, Money::from_pence((money.total.pence() - record.quote.deposit.pence()).max(0))).await?;
            let refunds =
                if money.refund > Money::ZERO { tx.refund_purchase(Some(order_id), None, money.refund, "date change", now).await? } else { Vec::new() };
            let email = record.email.trim().to_lowercase();
            if !email.is_empty() {
                let session_ids: Vec<String> = courses.iter().filter_map(|c| c.session_id.clone()).collect();
                let times = tx.session_times(&session_ids).await?;
                let training = BookedTraining {
                    order_id,
                    reference: &record.reference,
                    sequence: record.calendar_sequence + 1,
                    courses: &courses,
                    times: &times,
                    venue: &college.address,
                };
                let owed = Money::from_pence((money.total.pence() - record.paid.pence() + money.refund.pence()).max(0));
                if owed > Money::ZERO {
                    tx.store_balance_link(order_id, pay_link, now).await?;
                }
                let moved = MovedBooking {
                    given_name: &record.given_name,
                    reference: &record.reference,
                    course: &courses[line],
                    from_day: old.date.unwrap_or(target.date),
                    money: &money,
                    owed,
                    due_on,
                    pay_url: &pay_link.url,
                    moved_by: actor.changed_by(),
                };
                let mail = Mail {
                    to: email,
                    reply_to: None,
                    subject: format!("Your new date for {}", courses[line].title),
                    body: moved.mail_body(&college.name, today),
                    attachment: training.calendar(&college.name, &college.email_address, now),
                };
                tx.queue_mail(&mail, now).await?;
            }
            if let Some(entry) = actor.order_audit("order.move", order_id) {
                let entry = entry
                    .before(json!({ "courseId": course_id, "sessionId": from, "date": old.date, "total": record.quote.total }))
                    .after(json!({ "courseId": course_id, "sessionId": to, "date": target.date, "total": money.total, "refunds": refunds }));
                tx.audit(&entry, now).await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(DateChange::Moved { total: money.total, refund: money.refund })
        })
        .context("Failed to change the booking's date")
    }
}
