//! Course materials (decision 035): the documents, videos and links staff
//! attach to an in-person course (`event_material`, migration 0039), for
//! every date or for one. Staff's additions, removals and moves each write
//! their audit row in the same transaction. A student reads them only
//! through a booking of theirs whose booking fee is paid and which holds a
//! seat on the course (on the material's date, for one date's): the same
//! condition answers the list and each file.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use ts_rs::TS;

use enrol_domain::learning::course_file::CourseFileKind;
use enrol_domain::materials::{BookingMaterial, MaterialSource, NewMaterial, material_file_url};

use crate::AuditEntry;
use crate::people::PeopleSteps;
use crate::{Db, on_pool, public_id};

/// A material as staff see it in the back office.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseMaterial {
    pub id: String,
    pub title: String,
    /// document, video or link.
    pub kind: String,
    /// The `https://` address, or the course file's name (`files/<key>.<ext>`).
    pub url: String,
    /// The course file's name on the uploader's computer; none for an address.
    pub original_name: Option<String>,
    /// The one date it is for; none for every date.
    pub session_id: Option<String>,
    #[ts(type = "string | null")]
    pub session_date: Option<NaiveDate>,
}

/// A date of the course, to attach a material to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MaterialDate {
    pub id: String,
    #[ts(type = "string")]
    pub date: NaiveDate,
    /// active or cancelled.
    pub status: String,
}

/// An in-person course's materials, in the order students see them, and its dates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseMaterials {
    pub course_id: String,
    pub course_title: String,
    pub dates: Vec<MaterialDate>,
    pub materials: Vec<CourseMaterial>,
}

/// What adding a material did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaterialAdded {
    Added(CourseMaterial),
    /// No in-person course has that id.
    NoCourse,
    /// The date named is not one of the course's.
    NoSuchDate,
    /// No course file has that name.
    NoSuchFile,
}

/// What a student's bookings give them: every material of a course on
/// which a booking of theirs, its fee paid, holds a seat, for every date
/// or for the date they hold. `$1` is the student.
const BOOKED_FROM: &str = "from enrollment e \
     join registration r on r.enrollment_id = e.id and r.type = 'STUDENT' \
     join session s on s.id = r.session_id \
     join event_material m on m.event_id = s.event_id and (m.session_id is null or m.session_id = r.session_id)";
const BOOKED_WHERE: &str = "e.user_id = $1 and e.status in ('deposit', 'completed')";

const LISTED: &str = "select m.id, m.title, m.kind, m.url, f.original_name, m.session_id, s.date as session_date \
     from event_material m left join session s on s.id = m.session_id left join course_file f on f.key = m.course_file";

/// The format a student sees beside a course file ("PDF").
fn format_of(content_type: Option<&str>) -> Option<String> {
    content_type.and_then(CourseFileKind::of_content_type).map(|kind| kind.format().to_owned())
}

impl Db {
    /// The in-person course `course_id`'s materials and dates; none for a
    /// course that has no dates to book (an online one, or none at all).
    pub async fn course_materials(&self, course_id: &str) -> anyhow::Result<Option<CourseMaterials>> {
        on_pool!(self, pool => {
            let course: Option<(String, String)> =
                sqlx::query_as("select c.title, ev.id from course c join event ev on ev.course_id = c.id where c.id = $1")
                    .bind(course_id).fetch_optional(pool).await?;
            let Some((course_title, event_id)) = course else { return Ok(None) };
            let dates = sqlx::query_as("select id, date, status from session where event_id = $1 order by date, start_at, id")
                .bind(&event_id).fetch_all(pool).await?;
            let materials = sqlx::query_as(sqlx::AssertSqlSafe(format!("{LISTED} where m.event_id = $1 order by m.position, m.id")))
                .bind(&event_id).fetch_all(pool).await?;
            Ok::<_, anyhow::Error>(Some(CourseMaterials { course_id: course_id.to_owned(), course_title, dates, materials }))
        })
        .context("Failed to read a course's materials")
    }

    /// Adds `material` after the course's others (`event_material.add`).
    pub async fn add_material(
        &self,
        course_id: &str,
        material: &NewMaterial,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<MaterialAdded> {
        let (url, course_file) = match &material.source {
            MaterialSource::File { key, name, .. } => (name.as_str(), Some(key.as_str())),
            MaterialSource::Address(address) => (address.as_str(), None),
        };
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let event_id: Option<String> = sqlx::query_scalar("select id from event where course_id = $1").bind(course_id).fetch_optional(&mut *tx).await?;
            let Some(event_id) = event_id else { return Ok(MaterialAdded::NoCourse) };
            if let Some(session_id) = &material.session_id {
                let found: i64 = sqlx::query_scalar("select count(*) from session where id = $1 and event_id = $2")
                    .bind(session_id).bind(&event_id).fetch_one(&mut *tx).await?;
                if found == 0 {
                    return Ok(MaterialAdded::NoSuchDate);
                }
            }
            if let Some(key) = course_file {
                let found: i64 = sqlx::query_scalar("select count(*) from course_file where key = $1 and file_name = $2")
                    .bind(key).bind(url).fetch_one(&mut *tx).await?;
                if found == 0 {
                    return Ok(MaterialAdded::NoSuchFile);
                }
            }
            let position: i32 = sqlx::query_scalar("select coalesce(max(position), 0) + 1 from event_material where event_id = $1")
                .bind(&event_id).fetch_one(&mut *tx).await?;
            let id = public_id();
            sqlx::query("insert into event_material (id, event_id, title, url, kind, position, session_id, course_file) values ($1, $2, $3, $4, $5, $6, $7, $8)")
                .bind(&id).bind(&event_id).bind(&material.title).bind(url).bind(material.kind.as_str()).bind(position)
                .bind(&material.session_id).bind(course_file)
                .execute(&mut *tx).await?;
            let added: CourseMaterial = sqlx::query_as(sqlx::AssertSqlSafe(format!("{LISTED} where m.id = $1"))).bind(&id).fetch_one(&mut *tx).await?;
            tx.audit(&AuditEntry::new(staff_id, "event_material.add", "event_material", &id).after(&added), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(MaterialAdded::Added(added))
        })
        .context("Failed to add a course material")
    }

    /// Removes the material `id` of the course `course_id`
    /// (`event_material.remove`); false when the course has no such material.
    pub async fn remove_material(&self, course_id: &str, id: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let found: Option<CourseMaterial> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{LISTED} join event ev on ev.id = m.event_id where m.id = $1 and ev.course_id = $2"
            ))).bind(id).bind(course_id).fetch_optional(&mut *tx).await?;
            let Some(found) = found else { return Ok(false) };
            sqlx::query("delete from event_material where id = $1").bind(id).execute(&mut *tx).await?;
            tx.audit(&AuditEntry::new(staff_id, "event_material.remove", "event_material", id).before(&found), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(true)
        })
        .context("Failed to remove a course material")
    }

    /// Moves the material `id` of the course `course_id` one place earlier
    /// (`earlier`) or later (`event_material.move`); false when the course
    /// has no such material. At either end it stays where it is.
    pub async fn move_material(
        &self,
        course_id: &str,
        id: &str,
        earlier: bool,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let event_id: Option<String> = sqlx::query_scalar("select m.event_id from event_material m join event ev on ev.id = m.event_id where m.id = $1 and ev.course_id = $2")
                .bind(id).bind(course_id).fetch_optional(&mut *tx).await?;
            let Some(event_id) = event_id else { return Ok(false) };
            // Locks the course's materials, so two moves take turns.
            sqlx::query("update event_material set position = position where event_id = $1").bind(&event_id).execute(&mut *tx).await?;
            let mut order: Vec<String> = sqlx::query_scalar("select id from event_material where event_id = $1 order by position, id")
                .bind(&event_id).fetch_all(&mut *tx).await?;
            let at = order.iter().position(|other| other == id).context("the material is the course's")?;
            let to = if earlier { at.checked_sub(1) } else { Some(at + 1).filter(|to| *to < order.len()) };
            if let Some(to) = to {
                order.swap(at, to);
                for (position, material) in (1_i32..).zip(&order) {
                    sqlx::query("update event_material set position = $1 where id = $2").bind(position).bind(material).execute(&mut *tx).await?;
                }
                let moved = serde_json::json!({ "order": order });
                tx.audit(&AuditEntry::new(staff_id, "event_material.move", "event_material", id).after(&moved), now).await?;
            }
            tx.commit().await?;
            Ok::<_, anyhow::Error>(true)
        })
        .context("Failed to move a course material")
    }

    /// The materials of the student `user_id`'s paid bookings, by booking,
    /// each course's in the order staff gave them.
    pub async fn materials_of(&self, user_id: &str) -> anyhow::Result<Vec<BookingMaterial>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            enrollment_id: String,
            course_title: String,
            title: String,
            kind: String,
            url: String,
            course_file: Option<String>,
            content_type: Option<String>,
            session_date: Option<NaiveDate>,
        }
        let rows: Vec<Row> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "select m.id, e.id as enrollment_id, c.title as course_title, m.title, m.kind, m.url, m.course_file, f.content_type, \
             ms.date as session_date {BOOKED_FROM} \
             join event ev on ev.id = s.event_id join course c on c.id = ev.course_id \
             left join session ms on ms.id = m.session_id left join course_file f on f.key = m.course_file \
             where {BOOKED_WHERE} order by e.created_at desc, e.id, c.title, m.position, m.id"
        ))).bind(user_id).fetch_all(pool).await)
        .context("Failed to read the course materials")?;
        let mut materials: Vec<BookingMaterial> = Vec::with_capacity(rows.len());
        for row in rows {
            // A booking holding two dates of a course sees each material once.
            if materials.iter().any(|seen| seen.id == row.id && seen.enrollment_id == row.enrollment_id) {
                continue;
            }
            materials.push(BookingMaterial {
                url: if row.course_file.is_some() { material_file_url(&row.id) } else { row.url },
                format: format_of(row.content_type.as_deref()),
                id: row.id,
                enrollment_id: row.enrollment_id,
                course_title: row.course_title,
                title: row.title,
                kind: row.kind,
                session_date: row.session_date.map(|date| date.to_string()),
            });
        }
        Ok(materials)
    }

    /// The key of the course file of material `id`, when the student
    /// `user_id` may read it (as [`Db::materials_of`] lists it); none otherwise.
    pub async fn material_file_of(&self, user_id: &str, id: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "select m.course_file {BOOKED_FROM} where {BOOKED_WHERE} and m.id = $2 and m.course_file is not null limit 1"
        ))).bind(user_id).bind(id).fetch_optional(pool).await)
        .context("Failed to read a course material")
    }
}
