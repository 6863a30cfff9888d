//! What a grown history is made from (decision 037): the demo
//! catalogue's in-person courses and their usual times, its online
//! courses and their lessons, and where the order references and the
//! document numbers have got to.

use chrono::{NaiveDateTime, NaiveTime};

use enrol_domain::issued_document::DocumentKind;

use crate::for_both_engines;

/// An in-person course that is booked by date.
#[derive(Debug, Clone)]
pub(crate) struct Course {
    pub course_id: String,
    pub event_id: String,
    pub title: String,
    pub url: String,
    pub price: i64,
    pub start: NaiveTime,
    pub end: NaiveTime,
    pub session_type: String,
    /// It asks for forms or documents before training.
    pub readiness: bool,
}

/// An online course, sold on its own.
#[derive(Debug, Clone)]
pub(crate) struct OnlineCourse {
    pub course_id: String,
    pub title: String,
    pub url: String,
    pub price_id: String,
    pub amount: i64,
    pub months: u32,
    /// Its built-in lessons' slugs, in order (none for a package or a provider's course).
    pub lessons: Vec<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct Catalogue {
    pub courses: Vec<Course>,
    pub online: Vec<OnlineCourse>,
    /// The last order reference number used.
    pub last_reference: i64,
    pub last_receipt: i64,
    pub last_credit_note: i64,
    /// Where the college's enquiries go.
    pub college_email: String,
}

/// The email of the member of staff a grown history's changes are made
/// by; its being there says the database has a grown history.
pub(crate) const GROWN_STAFF_EMAIL: &str = "records@grown.example";

#[derive(sqlx::FromRow)]
struct CourseRow {
    course_id: String,
    event_id: String,
    title: String,
    url: String,
    price: i64,
    readiness: bool,
}

#[derive(sqlx::FromRow)]
struct Times {
    start_at: NaiveDateTime,
    end_at: NaiveDateTime,
    #[sqlx(rename = "type")]
    session_type: String,
    price: i64,
}

/// The lesson slugs and months of access of a course's published document.
fn learning_of(published: Option<&str>) -> (u32, Vec<String>) {
    let learning =
        published.and_then(|json| serde_json::from_str::<serde_json::Value>(json).ok()).and_then(|body| body.get("learning").cloned());
    let months = learning
        .as_ref()
        .and_then(|l| l.get("access_months").or_else(|| l.get("accessMonths")))
        .and_then(serde_json::Value::as_u64)
        .and_then(|m| u32::try_from(m).ok())
        .unwrap_or(enrol_domain::learning::access::DEFAULT_ACCESS_MONTHS);
    let lessons = learning
        .as_ref()
        .and_then(|l| l.get("modules"))
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|module| module.get("lessons").and_then(serde_json::Value::as_array))
        .flatten()
        .filter_map(|lesson| lesson.get("slug").and_then(serde_json::Value::as_str).map(str::to_owned))
        .collect();
    (months, lessons)
}

pub(crate) trait CatalogueSteps {
    /// Whether a history was grown here before.
    async fn grown_before(&mut self) -> sqlx::Result<bool>;

    /// The catalogue, and the last order reference number read by `reference_read`.
    async fn catalogue(&mut self, reference_read: &'static str) -> sqlx::Result<Catalogue>;
}

for_both_engines! {
    impl CatalogueSteps {
        async fn grown_before(&mut self) -> sqlx::Result<bool> {
            let found: Option<String> = sqlx::query_scalar("select id from staff_account where email = $1")
                .bind(GROWN_STAFF_EMAIL)
                .fetch_optional(&mut *self)
                .await?;
            Ok(found.is_some())
        }

        async fn catalogue(&mut self, reference_read: &'static str) -> sqlx::Result<Catalogue> {
            let rows: Vec<CourseRow> = sqlx::query_as(
                "select c.id as course_id, e.id as event_id, c.title, c.url, e.standard_price as price, \
                 (c.readiness is not null or c.entry_requirements) as readiness from event e join course c on c.id = e.course_id \
                 where not e.is_package and not c.online and not c.withdrawn order by c.position, c.id",
            )
            .fetch_all(&mut *self)
            .await?;
            let mut courses = Vec::new();
            for row in rows {
                let times: Option<Times> =
                    sqlx::query_as("select start_at, end_at, type, price from session where event_id = $1 order by date, id limit 1")
                        .bind(&row.event_id)
                        .fetch_optional(&mut *self)
                        .await?;
                let nine = NaiveTime::from_hms_opt(9, 30, 0).unwrap_or_default();
                let five = NaiveTime::from_hms_opt(16, 30, 0).unwrap_or_default();
                courses.push(Course {
                    price: times.as_ref().map_or(row.price, |t| t.price),
                    start: times.as_ref().map_or(nine, |t| t.start_at.time()),
                    end: times.as_ref().map_or(five, |t| t.end_at.time()),
                    session_type: times.map_or_else(|| "onsite".to_owned(), |t| t.session_type),
                    course_id: row.course_id,
                    event_id: row.event_id,
                    title: row.title,
                    url: row.url,
                    readiness: row.readiness,
                });
            }
            let online_rows: Vec<(String, String, String, String, i64, Option<String>)> = sqlx::query_as(
                "select c.id, c.title, c.url, c.price_id, c.unit_amount, d.published from course c \
                 left join content_document d on d.kind = 'course' and d.key = c.id \
                 where c.online and not c.is_package and not c.withdrawn order by c.position, c.id",
            )
            .fetch_all(&mut *self)
            .await?;
            let online = online_rows
                .into_iter()
                .map(|(course_id, title, url, price_id, amount, published)| {
                    let (months, lessons) = learning_of(published.as_deref());
                    OnlineCourse { course_id, title, url, price_id, amount, months, lessons }
                })
                .collect();
            let last_reference: Option<i64> = sqlx::query_scalar(reference_read).fetch_optional(&mut *self).await?;
            let mut last = [0i64; 2];
            for (slot, kind) in [DocumentKind::Receipt, DocumentKind::CreditNote].into_iter().enumerate() {
                let number: Option<i64> = sqlx::query_scalar("select cast(last_number as bigint) from document_sequence where prefix = $1")
                    .bind(kind.prefix())
                    .fetch_optional(&mut *self)
                    .await?;
                last[slot] = number.unwrap_or(0);
            }
            let college_email: Option<String> =
                sqlx::query_scalar("select email_address from site where id = 1").fetch_optional(&mut *self).await?;
            Ok(Catalogue {
                courses,
                online,
                last_reference: last_reference.unwrap_or(0),
                last_receipt: last[0],
                last_credit_note: last[1],
                college_email: college_email.unwrap_or_else(|| "hello@college.example".to_owned()),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::learning_of;

    #[test]
    fn lessons_come_from_the_published_curriculum() {
        let json = r#"{"learning":{"access_months":6,"modules":[{"lessons":[{"slug":"a"},{"slug":"b"}]},{"lessons":[{"slug":"c"}]}]}}"#;
        assert_eq!(learning_of(Some(json)), (6, vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]));
        assert_eq!(learning_of(None).1, Vec::<String>::new());
    }
}
