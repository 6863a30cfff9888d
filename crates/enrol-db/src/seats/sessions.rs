//! Staff run the dates (decision 017): sessions listed with their seats,
//! opened, changed and cancelled. Every change writes one audit row in its
//! transaction and bumps the content and seats versions: the dates, times
//! and prices the catalogue keeps per content version, and the seats it
//! counts, are read again, and cached pages are dropped on every instance.

use std::sync::LazyLock;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::mail::Mail;
use enrol_domain::page::SessionType;

use crate::content::ContentSteps;
use crate::people::PeopleSteps;
use crate::seats::SeatSteps;
use crate::{AuditEntry, Db, SessionPlace, on_pool, public_id};

/// Which registrations `r` (of enrollment `e`) a roster lists: students
/// whose booking is paid, a deposit or in full, and not cancelled. The
/// sessions' count of those booked is of the same rows, so the two agree.
pub(crate) const ON_ROSTER: &str = "r.type = 'STUDENT' and e.status in ('deposit', 'completed')";

/// A session as staff see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AdminSession {
    pub id: String,
    pub course_id: String,
    pub course_title: String,
    pub date: NaiveDate,
    #[serde(rename = "startTime", serialize_with = "hours_and_minutes")]
    #[ts(type = "string")]
    pub start_at: NaiveDateTime,
    #[serde(rename = "endTime", serialize_with = "hours_and_minutes")]
    #[ts(type = "string")]
    pub end_at: NaiveDateTime,
    #[sqlx(rename = "type")]
    #[serde(rename = "type")]
    #[ts(as = "SessionType")]
    pub session_type: String,
    #[ts(type = "number")]
    pub price: i64,
    #[ts(type = "number")]
    pub seats: i64,
    /// Students on its roster.
    #[ts(type = "number")]
    pub booked: i64,
    /// Seats counted as taken with no booking on this site behind them:
    /// a content pack's `registrations` (bookings made before the site).
    #[ts(type = "number")]
    pub taken_elsewhere: i64,
    /// Seats held by unpaid orders now.
    #[ts(type = "number")]
    pub held: i64,
    #[ts(type = "number")]
    pub waiting: i64,
    #[ts(type = "number")]
    pub offered: i64,
    pub status: String,
    pub venue: String,
    pub joining_link: Option<String>,
    pub tutor_id: Option<String>,
}

/// A UK wall-clock time as the forms take it: `09:30`.
fn hours_and_minutes<S: serde::Serializer>(at: &NaiveDateTime, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&at.format("%H:%M").to_string())
}

/// What staff set on a session.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionInput {
    pub date: NaiveDate,
    pub start_at: NaiveDateTime,
    pub end_at: NaiveDateTime,
    pub session_type: SessionType,
    pub price: i64,
    pub seats: i64,
    pub venue: String,
    pub joining_link: Option<String>,
    pub tutor_id: Option<String>,
}

impl AdminSession {
    /// The session as read by [`SESSION_SELECT`], with the seats taken
    /// elsewhere: its registrations less its roster.
    fn counted(self) -> Self {
        AdminSession { taken_elsewhere: self.taken_elsewhere - self.booked, ..self }
    }
}

/// Which sessions to list.
#[derive(Debug, Clone, Default)]
pub struct SessionFilter {
    pub course_id: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    /// Only the sessions this tutor teaches.
    pub tutor_id: Option<String>,
    /// Only the sessions still running (not cancelled).
    pub active_only: bool,
    /// Only the sessions listed after this one.
    pub after: Option<SessionPlace>,
}

impl AdminSession {
    /// Where the list goes on after this session.
    pub fn place(&self) -> SessionPlace {
        SessionPlace { at: self.start_at, id: self.id.clone() }
    }
}

/// What a change to a session did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionChange {
    Done(Box<AdminSession>),
    NotFound,
    /// The course sells no dates (an e-learning course).
    NotInPerson,
    /// The seats asked for are fewer than those booked and held.
    SeatsBelowTaken {
        taken: i64,
    },
    /// The tutor named is not an active tutor.
    UnknownTutor,
}

/// A booked student told that their session is cancelled.
#[derive(Debug, Clone)]
pub struct CancelledBooking {
    pub enrollment_id: String,
    pub email: String,
    pub given_name: String,
}

/// A session as staff see it; its `taken_elsewhere` is all its
/// registrations until [`AdminSession::counted`] takes the roster's out,
/// so the roster is counted once (through the session's registrations).
static SESSION_SELECT: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select s.id, ev.course_id, c.title as course_title, s.date, s.start_at, s.end_at, s.type, s.price, s.seats, \
     (select count(*) from registration r join enrollment e on e.id = r.enrollment_id where r.session_id = s.id and {ON_ROSTER}) \
     as booked, s.registrations as taken_elsewhere, \
     s.holds - (select count(*) from seat_hold h where h.session_id = s.id and h.expires_at <= $1) as held, \
     s.waiting, s.offered, s.status, s.venue, s.joining_link, s.tutor_id \
     from session s join event ev on ev.id = s.event_id join course c on c.id = ev.course_id"
    )
});

/// A value a list's filter compares with.
pub(crate) enum FilterValue {
    Text(String),
    Day(NaiveDate),
    Time(NaiveDateTime),
}

impl SessionFilter {
    /// The first `limit` sessions `self` lists, by date, start and id, as
    /// of `$1`, and the values of its other parameters: only the conditions
    /// given, so a first date or a page's place is read through the
    /// sessions' index by date, start and id, in order.
    pub(crate) fn sql(&self, limit: usize) -> (String, Vec<FilterValue>) {
        let mut conditions = Vec::new();
        let mut values = Vec::new();
        let mut given = |test: &str, value: Option<FilterValue>| {
            if let Some(value) = value {
                values.push(value);
                conditions.push(test.replace('?', &format!("${}", values.len() + 1)));
            }
        };
        given("ev.course_id = ?", self.course_id.clone().map(FilterValue::Text));
        given("s.date >= ?", self.from.map(FilterValue::Day));
        given("s.date <= ?", self.to.map(FilterValue::Day));
        given("s.tutor_id = ?", self.tutor_id.clone().map(FilterValue::Text));
        if let Some(after) = &self.after {
            let first = values.len() + 2;
            values.extend([FilterValue::Day(after.at.date()), FilterValue::Time(after.at), FilterValue::Text(after.id.clone())]);
            conditions.push(format!("(s.date, s.start_at, s.id) > (${first}, ${}, ${})", first + 1, first + 2));
        }
        if self.active_only {
            conditions.push("s.status = 'active'".to_owned());
        }
        let filter = if conditions.is_empty() { String::new() } else { format!("where {}", conditions.join(" and ")) };
        (format!("{} {filter} order by s.date, s.start_at, s.id limit {limit}", *SESSION_SELECT), values)
    }
}

/// The seats a session's count may not go below: booked, held and offered.
const TAKEN: &str = "registrations + holds + offered";

impl Db {
    /// The first `limit` sessions `filter` lists, by date, then start.
    pub async fn admin_sessions(&self, filter: &SessionFilter, limit: usize, now: DateTime<Utc>) -> anyhow::Result<Vec<AdminSession>> {
        let (sql, values) = filter.sql(limit);
        on_pool!(self, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone())).bind(now);
            for value in &values {
                query = match value {
                    FilterValue::Text(text) => query.bind(text),
                    FilterValue::Day(day) => query.bind(day),
                    FilterValue::Time(time) => query.bind(time),
                };
            }
            query.fetch_all(pool).await
        })
        .context("Failed to list the sessions")
        .map(|sessions: Vec<AdminSession>| sessions.into_iter().map(AdminSession::counted).collect())
    }

    pub async fn admin_session(&self, id: &str, now: DateTime<Utc>) -> anyhow::Result<Option<AdminSession>> {
        on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("{} where s.id = $2", *SESSION_SELECT)))
            .bind(now).bind(id).fetch_optional(pool).await)
        .context("Failed to read the session")
        .map(|session: Option<AdminSession>| session.map(AdminSession::counted))
    }

    /// Opens a new date of `course_id` (an in-person course).
    pub async fn open_session(
        &self,
        course_id: &str,
        input: &SessionInput,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<SessionChange> {
        let id = public_id();
        let done = on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            let event: Option<String> = sqlx::query_scalar("select id from event where course_id = $1").bind(course_id).fetch_optional(&mut *tx).await?;
            let Some(event) = event else {
                tx.rollback().await?;
                return Ok(SessionChange::NotInPerson);
            };
            if !tx.tutor_is_known(input.tutor_id.as_deref()).await? {
                tx.rollback().await?;
                return Ok(SessionChange::UnknownTutor);
            }
            sqlx::query(
                "insert into session (id, event_id, start_at, end_at, date, price, seat_price, seats, type, status, venue, joining_link, tutor_id) \
                 values ($1, $2, $3, $4, $5, $6, $6, $7, $8, 'active', $9, $10, $11)",
            )
            .bind(&id).bind(&event).bind(input.start_at).bind(input.end_at).bind(input.date).bind(input.price).bind(input.seats)
            .bind(input.session_type.as_str()).bind(&input.venue).bind(input.joining_link.as_deref()).bind(input.tutor_id.as_deref())
            .execute(&mut *tx).await?;
            tx.audit(&AuditEntry::new(staff_id, "session.create", "session", &id).after(input), now).await?;
            tx.seats_changed().await?;
            tx.content_changed(now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(true)
        })
        .context("Failed to open the session")?;
        debug_assert!(done);
        self.changed_session(&id, now).await
    }

    /// Changes a session's date, times, price, seats, type, venue, joining
    /// link or tutor; the seats never below those booked, held or offered
    /// (checked in the statement that changes them).
    pub async fn update_session(
        &self,
        id: &str,
        input: &SessionInput,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<SessionChange> {
        let outcome = on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            tx.lock_session(id).await?;
            // Read under the lock: the audit's "before" is what this change changed.
            let before: Option<AdminSession> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{} where s.id = $2", *SESSION_SELECT)))
                .bind(now).bind(id).fetch_optional(&mut *tx).await?;
            let Some(before) = before.map(AdminSession::counted) else {
                tx.rollback().await?;
                return Ok(SessionChange::NotFound);
            };
            if !tx.tutor_is_known(input.tutor_id.as_deref()).await? {
                tx.rollback().await?;
                return Ok(SessionChange::UnknownTutor);
            }
            let changed = sqlx::query(sqlx::AssertSqlSafe(format!(
                "update session set start_at = $2, end_at = $3, date = $4, price = $5, seat_price = $5, seats = $6, type = $7, \
                 venue = $8, joining_link = $9, tutor_id = $10 where id = $1 and $6 >= {TAKEN}"
            )))
            .bind(id).bind(input.start_at).bind(input.end_at).bind(input.date).bind(input.price).bind(input.seats)
            .bind(input.session_type.as_str()).bind(&input.venue).bind(input.joining_link.as_deref()).bind(input.tutor_id.as_deref())
            .execute(&mut *tx).await?.rows_affected() == 1;
            if !changed {
                let taken: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select {TAKEN} from session where id = $1")))
                    .bind(id).fetch_one(&mut *tx).await?;
                tx.rollback().await?;
                return Ok(SessionChange::SeatsBelowTaken { taken });
            }
            let entry = AuditEntry::new(staff_id, "session.update", "session", id).before(&before).after(input);
            tx.audit(&entry, now).await?;
            tx.seats_changed().await?;
            tx.content_changed(now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(None)
        })
        .context("Failed to change the session")?;
        match outcome {
            Some(refused) => Ok(refused),
            None => self.changed_session(id, now).await,
        }
    }

    async fn changed_session(&self, id: &str, now: DateTime<Utc>) -> anyhow::Result<SessionChange> {
        Ok(self.admin_session(id, now).await?.map_or(SessionChange::NotFound, |s| SessionChange::Done(Box::new(s))))
    }

    /// Cancels an active session: off sale at once, its waiting list
    /// closed, and each booked student mailed by `mail_for` (offered a move
    /// or a full refund, which `enrol_domain` allows for a cancelled
    /// session). `None` when it is unknown or already cancelled.
    pub async fn cancel_session(
        &self,
        id: &str,
        staff_id: &str,
        mail_for: impl Fn(&CancelledBooking) -> Mail,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<Vec<CancelledBooking>>> {
        #[derive(sqlx::FromRow)]
        struct Booked {
            id: String,
            email: String,
            given_name: String,
        }
        on_pool!(self, pool => {
            let (_turn, mut tx) = self.begin_seat_change(pool).await?;
            let cancelled = sqlx::query("update session set status = 'cancelled' where id = $1 and status = 'active'")
                .bind(id).execute(&mut *tx).await?.rows_affected() == 1;
            if !cancelled {
                tx.rollback().await?;
                return Ok(None);
            }
            let booked: Vec<Booked> = sqlx::query_as(
                "select e.id, e.email, e.given_name from registration r join enrollment e on e.id = r.enrollment_id \
                 where r.session_id = $1 and r.type = 'STUDENT' and e.status in ('deposit', 'completed') order by e.id",
            ).bind(id).fetch_all(&mut *tx).await?;
            let students: Vec<CancelledBooking> = booked.into_iter()
                .map(|b| CancelledBooking { enrollment_id: b.id, email: b.email, given_name: b.given_name })
                .collect();
            for student in &students {
                tx.queue_mail(&mail_for(student), now).await?;
            }
            sqlx::query("update waiting_list_entry set status = 'left' where session_id = $1 and status in ('waiting', 'offered')")
                .bind(id).execute(&mut *tx).await?;
            let entry = AuditEntry::new(staff_id, "session.cancel", "session", id)
                .before(serde_json::json!({ "status": "active" }))
                .after(serde_json::json!({ "status": "cancelled", "studentsTold": students.len() }));
            tx.audit(&entry, now).await?;
            tx.seats_changed().await?;
            tx.content_changed(now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Some(students))
        })
        .context("Failed to cancel the session")
    }
}
