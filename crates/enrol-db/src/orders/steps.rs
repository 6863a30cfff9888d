//! The steps of orders inside a caller's transaction, on either engine
//! ([`crate::for_both_engines!`]): a booking locked and read, written as a
//! new order or as a changed one, what its buyer agreed to, what to
//! bring to its training, the course an online order's line gives (and how
//! it is delivered) and the online theory a booking gives.

use chrono::{DateTime, Utc};

use enrol_domain::consent::Consent;
use enrol_domain::content::CourseBody;
use enrol_domain::enrollment::BookedCourse;
use enrol_domain::learning::access::{DEFAULT_ACCESS_MONTHS, access_ends};
use enrol_domain::learning::provider::CourseProvider;
use enrol_domain::online_order::LineItem;

use crate::orders::enrollments::{Column, Row, SELECT, Value, chosen, insert_statement, update_statement};
use crate::{EnrollmentRecord, NewEnrollment, for_both_engines, public_id};

/// How an online course is delivered to a registration made now: for how
/// many months, and by which hosted LMS course, if one teaches it.
pub(crate) struct Delivery {
    pub months: u32,
    pub provider: Option<CourseProvider>,
}

impl Delivery {
    /// The provider's course and group, as a registration's columns keep them.
    pub fn provider_ids(&self) -> (Option<&str>, Option<&str>) {
        let course = self.provider.as_ref().map(CourseProvider::course);
        (course.map(|c| c.course.as_str()), course.and_then(|c| c.group.as_deref()))
    }
}

/// The statement that stores `count` consents of one order: `$1` and `$2`
/// its booking's or online order's id, `$3` when they were agreed, then
/// five placeholders a consent; only placeholders are written into it.
fn consents_sql(count: usize) -> String {
    let rows: Vec<String> = (0..count)
        .map(|i| {
            let [id, kind, course, version, wording] = [4, 5, 6, 7, 8].map(|n| 5 * i + n);
            format!("(${id}, $1, $2, ${kind}, ${course}, ${version}, ${wording}, $3)")
        })
        .collect();
    format!(
        "insert into order_consent (id, enrollment_id, online_order_id, kind, course_id, version, wording, agreed_at) values {}",
        rows.join(", ")
    )
}

pub(crate) trait OrderSteps {
    /// How online course `course_id` is delivered, as published now: its
    /// curriculum's months (or [`DEFAULT_ACCESS_MONTHS`] before it has
    /// one) and the provider course that teaches it, which a registration
    /// keeps so a later change of content moves no one already studying.
    async fn course_delivery(&mut self, course_id: &str) -> sqlx::Result<Delivery>;

    /// The online course a line of an online order gives: a course's own,
    /// or the one an add-on's offer names (`None`: a product, no course).
    async fn line_course(&mut self, item: &LineItem) -> sqlx::Result<Option<String>>;

    /// Takes booking `id`'s row lock and reads it; `None` when there is no
    /// such booking. A payment, a cancellation or another change waits its
    /// turn behind the lock.
    async fn lock_booking(&mut self, id: &str) -> sqlx::Result<Option<EnrollmentRecord>>;

    /// Inserts `new` as a pending order known as `reference`, its seats and
    /// code use kept until `until`, renewable until `hold_ends_at`.
    async fn insert_enrollment(
        &mut self,
        new: &NewEnrollment,
        reference: &str,
        until: DateTime<Utc>,
        hold_ends_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> sqlx::Result<()>;

    /// Writes what the buyer chose again over pending order `new.id` (its
    /// courses as `lines`, its `metadata`, both as JSON), its hold renewed
    /// until `until`.
    async fn rewrite_enrollment(&mut self, new: &NewEnrollment, lines: &str, metadata: &str, until: DateTime<Utc>) -> sqlx::Result<()>;

    /// Runs `sql`, an insert or update of order `id` whose placeholders are
    /// `$1` for the id and then `columns` in their order, binding them so.
    async fn write_enrollment(&mut self, sql: String, id: &str, columns: &[Column<'_>]) -> sqlx::Result<()>;

    /// Stores `consents` agreed at `now` for the order `enrollment_id` or
    /// `online_order_id` (one is `None`), in one statement.
    async fn add_consents(
        &mut self,
        enrollment_id: Option<&str>,
        online_order_id: Option<&str>,
        consents: &[Consent],
        now: DateTime<Utc>,
    ) -> sqlx::Result<()>;

    /// What to bring to the training of `courses`: their courses' lists,
    /// each thing once.
    async fn what_to_bring(&mut self, courses: &[BookedCourse]) -> sqlx::Result<Vec<String>>;

    /// Gives the theory of each of `courses` that names one to the booking
    /// `enrollment_id` (of `user_id`, when it has joined an account), from
    /// `now`; a booking paid again keeps what it was given.
    async fn grant_theory(
        &mut self,
        enrollment_id: &str,
        courses: &[BookedCourse],
        user_id: Option<&str>,
        now: DateTime<Utc>,
    ) -> sqlx::Result<()>;

    /// Ends the theory booking `enrollment_id` gave, at `now`.
    async fn end_theory(&mut self, enrollment_id: &str, now: DateTime<Utc>) -> sqlx::Result<()>;
}

for_both_engines! {
    impl OrderSteps {
        async fn lock_booking(&mut self, id: &str) -> sqlx::Result<Option<EnrollmentRecord>> {
            sqlx::query("update enrollment set status = status where id = $1").bind(id).execute(&mut *self).await?;
            let row: Option<Row> = sqlx::query_as(SELECT.as_str()).bind(id).fetch_optional(&mut *self).await?;
            row.map(|row| row.into_record().map_err(|e| sqlx::Error::Decode(e.into()))).transpose()
        }

        async fn insert_enrollment(
            &mut self,
            new: &NewEnrollment,
            reference: &str,
            until: DateTime<Utc>,
            hold_ends_at: DateTime<Utc>,
            now: DateTime<Utc>,
        ) -> sqlx::Result<()> {
            let lines = serde_json::to_string(&new.courses).map_err(|e| sqlx::Error::Encode(e.into()))?;
            let metadata = serde_json::to_string(&new.metadata).map_err(|e| sqlx::Error::Encode(e.into()))?;
            let mut columns = chosen(new, &lines, &metadata, until).to_vec();
            columns.extend([
                ("status", Value::Text("pending")),
                ("user_id", Value::OptText(new.user_id.as_deref())),
                ("created_at", Value::Time(now)),
                ("owner_token_hash", Value::Text(&new.owner_token_hash)),
                ("client_key", Value::Text(&new.client_key)),
                ("hold_ends_at", Value::Time(hold_ends_at)),
                ("reference", Value::Text(reference)),
            ]);
            self.write_enrollment(insert_statement(&columns), &new.id, &columns).await
        }

        async fn rewrite_enrollment(&mut self, new: &NewEnrollment, lines: &str, metadata: &str, until: DateTime<Utc>) -> sqlx::Result<()> {
            let columns = chosen(new, lines, metadata, until);
            self.write_enrollment(update_statement(&columns), &new.id, &columns).await
        }

        async fn write_enrollment(&mut self, sql: String, id: &str, columns: &[Column<'_>]) -> sqlx::Result<()> {
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id);
            for (_, value) in columns {
                query = match *value {
                    Value::Text(text) => query.bind(text),
                    Value::OptText(text) => query.bind(text),
                    Value::Pence(pence) => query.bind(pence),
                    Value::Flag(flag) => query.bind(flag),
                    Value::Time(time) => query.bind(time),
                };
            }
            query.execute(&mut *self).await?;
            Ok(())
        }

        async fn add_consents(
            &mut self,
            enrollment_id: Option<&str>,
            online_order_id: Option<&str>,
            consents: &[Consent],
            now: DateTime<Utc>,
        ) -> sqlx::Result<()> {
            if consents.is_empty() {
                return Ok(());
            }
            let mut query = sqlx::query(sqlx::AssertSqlSafe(consents_sql(consents.len())))
                .bind(enrollment_id)
                .bind(online_order_id)
                .bind(now);
            for consent in consents {
                query = query.bind(public_id()).bind(consent.kind).bind(&consent.course_id).bind(consent.version).bind(&consent.wording);
            }
            query.execute(&mut *self).await?;
            Ok(())
        }

        async fn what_to_bring(&mut self, courses: &[BookedCourse]) -> sqlx::Result<Vec<String>> {
            let mut things: Vec<String> = Vec::new();
            for course in courses {
                let listed: Option<String> = sqlx::query_scalar("select what_to_bring from course where id = $1")
                    .bind(&course.course_id)
                    .fetch_optional(&mut *self)
                    .await?;
                let listed: Vec<String> = match listed {
                    Some(json) => serde_json::from_str(&json).map_err(|e| sqlx::Error::Decode(e.into()))?,
                    None => Vec::new(),
                };
                for thing in listed {
                    if !things.contains(&thing) {
                        things.push(thing);
                    }
                }
            }
            Ok(things)
        }

        async fn line_course(&mut self, item: &LineItem) -> sqlx::Result<Option<String>> {
            match item {
                LineItem::Course { course_id, .. } => Ok(Some(course_id.clone())),
                LineItem::Upsell { product, .. } => Ok(sqlx::query_scalar::<_, Option<String>>(
                    "select course_id from upsell where product_id = $1 and course_id is not null limit 1",
                )
                .bind(product)
                .fetch_optional(&mut *self)
                .await?
                .flatten()),
            }
        }

        async fn course_delivery(&mut self, course_id: &str) -> sqlx::Result<Delivery> {
            let published: Option<Option<String>> =
                sqlx::query_scalar("select published from content_document where kind = 'course' and key = $1")
                    .bind(course_id)
                    .fetch_optional(&mut *self)
                    .await?;
            let course = published.flatten().and_then(|json| serde_json::from_str::<CourseBody>(&json).ok());
            Ok(Delivery {
                months: course.as_ref().and_then(|c| c.learning.as_ref()).map_or(DEFAULT_ACCESS_MONTHS, |learning| learning.access_months),
                provider: course.and_then(|c| c.provider).map(|provider| *provider),
            })
        }

        async fn grant_theory(
            &mut self,
            enrollment_id: &str,
            courses: &[BookedCourse],
            user_id: Option<&str>,
            now: DateTime<Utc>,
        ) -> sqlx::Result<()> {
            for course in courses {
                let theory: Option<(String, String)> = sqlx::query_as(
                    "select t.id, t.title from course c join course t on t.id = c.online_theory where c.id = $1",
                )
                .bind(&course.course_id)
                .fetch_optional(&mut *self)
                .await?;
                let Some((theory_id, title)) = theory else { continue };
                let months = self.course_delivery(&theory_id).await?.months;
                sqlx::query(
                    "insert into booking_theory (enrollment_id, course_id, course_title, user_id, starts_at, ends_at) \
                     values ($1, $2, $3, $4, $5, $6) on conflict (enrollment_id, course_id) do nothing",
                )
                .bind(enrollment_id).bind(&theory_id).bind(&title).bind(user_id).bind(now).bind(access_ends(now, months))
                .execute(&mut *self)
                .await?;
            }
            Ok(())
        }

        async fn end_theory(&mut self, enrollment_id: &str, now: DateTime<Utc>) -> sqlx::Result<()> {
            sqlx::query("update booking_theory set revoked_at = coalesce(revoked_at, $2) where enrollment_id = $1")
                .bind(enrollment_id).bind(now).execute(&mut *self).await?;
            Ok(())
        }
    }
}
