//! Reading the college's site data and course catalogue.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use enrol_domain::course_price::{DatePrice, ShownPrice, follows_course_price, shown_price};
use enrol_domain::money::Money;
use enrol_domain::page::{
    CalendarEntry, CalendarMonth, CourseCard, CoursePage, Faq, Hero, Kit, PriceData, Pricing, SectionCard, SectionOption, Session,
    SessionType, UpcomingSession, UpsellOffer,
};
use enrol_domain::site::{Image, NavSection, Navigation, SiteData, TextLink};

use crate::counting::held_seats;
use crate::{College, Db, on_pool};

mod rows;
mod views;

use rows::{CourseRow, MembershipRow, SessionRow, SiteRow, json};
pub use views::{CourseOrder, section_url};

/// The active sessions from day `$1` on, with their seats held as of `$2`
/// (no order's holds left out: `$3` is empty).
static SESSIONS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "select s.id, ev.course_id, s.start_at, s.end_at, s.date, s.price, s.seat_price, s.seats, s.registrations, s.type, \
         s.status, {} as held from session s join event ev on ev.id = s.event_id \
         where s.date >= $1 and s.status = 'active' order by s.start_at, s.id",
        held_seats("$2", "$3")
    )
});

/// Site data and the home page's hero, which the college edits together.
#[derive(Debug, Clone)]
pub struct SiteRecord {
    pub site: SiteData,
    pub hero: Hero,
}

#[derive(sqlx::FromRow, Debug, Clone)]
pub struct SectionRow {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub intro: String,
    image: String,
    course_count: i64,
}

/// What the content version decides: the site record, the sections, the
/// courses and which sections list them.
#[derive(Debug)]
struct Content {
    site: Option<SiteRecord>,
    sections: Vec<SectionRow>,
    courses: Vec<CourseRow>,
    /// Course ids per section slug, in listing order.
    members: HashMap<String, Vec<usize>>,
}

/// The whole catalogue as of one day: the site record, sections, courses
/// and the sessions still to come with their seats.
#[derive(Debug, Clone)]
pub struct Catalogue {
    /// Shared by the catalogues read until the content changes: a change of
    /// seats reads the sessions only.
    content: Arc<Content>,
    /// Open sessions per course id, soonest first.
    sessions: HashMap<String, Vec<Session>>,
    /// Every session still to come per course id, full or not: a course
    /// with any is never booked without a date.
    dated: HashMap<String, Vec<Session>>,
    /// What the catalogue was read as: the content and seats versions, the
    /// London day, and when the first hold it counted runs out.
    as_of: CatalogueVersion,
}

/// When a loaded catalogue stops being the one a fresh load would give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatalogueVersion {
    pub content: i64,
    pub seats: i64,
    today: NaiveDate,
    /// The earliest end of a seat hold it counts as taken.
    holds_until: Option<DateTime<Utc>>,
}

impl CatalogueVersion {
    /// Whether a catalogue read as `self` is still current at `now`, when
    /// the database's versions are `current` (from [`Db::catalogue_versions`]).
    pub fn is_current(&self, current: (i64, i64), now: DateTime<Utc>) -> bool {
        self.has_content(current, now) && self.seats == current.1 && self.holds_until.is_none_or(|until| now < until)
    }

    /// Whether its courses, prices and dates are still current: the same
    /// content version and London day; its seat counts may be behind.
    pub fn has_content(&self, current: (i64, i64), now: DateTime<Utc>) -> bool {
        self.content == current.0 && self.today == enrol_domain::london::today(now)
    }
}

impl Db {
    pub async fn site(&self) -> anyhow::Result<Option<SiteRecord>> {
        let row: Option<SiteRow> = on_pool!(self, pool => sqlx::query_as(
            "select title, footer_text, address, phone_number, email_address, support_email_address, \
             models_email_address, clinic_url, social_media, footer_logos, footer_links, logo, hero from site where id = 1"
        ).fetch_optional(pool).await)
        .context("Failed to read the site data")?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(SiteRecord {
            site: SiteData {
                title: row.title,
                footer_text: row.footer_text,
                address: row.address,
                phone_number: row.phone_number,
                email_address: row.email_address,
                support_email_address: row.support_email_address,
                models_email_address: row.models_email_address,
                social_media: json(&row.social_media, "social media")?,
                footer_logos: json(&row.footer_logos, "footer logos")?,
                footer_links: json(&row.footer_links, "footer links")?,
                clinic_url: row.clinic_url,
                logo: json(&row.logo, "logo")?,
            },
            hero: json(&row.hero, "hero")?,
        }))
    }

    /// Courses for the back office's menus: id, title, whether online.
    pub async fn course_choices(&self) -> anyhow::Result<Vec<(String, String, bool)>> {
        on_pool!(self, pool => sqlx::query_as("select id, title, online from course order by title").fetch_all(pool).await)
            .context("Failed to list the courses")
    }

    /// Every section's slug and title, in the site's order.
    pub async fn section_choices(&self) -> anyhow::Result<Vec<(String, String)>> {
        on_pool!(self, pool => sqlx::query_as("select slug, title from section order by position, title").fetch_all(pool).await)
            .context("Failed to list the sections")
    }

    pub async fn college(&self) -> anyhow::Result<College> {
        Ok(College::of(self.site().await?.as_ref().map(|r| &r.site)))
    }

    /// Bumped by every content load; 0 before the first.
    pub async fn content_version(&self) -> anyhow::Result<i64> {
        let version: Option<(i64,)> = on_pool!(self, pool =>
            sqlx::query_as("select version from content_version where id = 1").fetch_optional(pool).await)
        .context("Failed to read the content version")?;
        Ok(version.map_or(0, |(v,)| v))
    }

    /// The content version (bumped by every content load) and the seats
    /// version (bumped whenever seats are held, released or taken), in one
    /// read: what decides whether a loaded catalogue or a cached page is
    /// still current.
    pub async fn catalogue_versions(&self) -> anyhow::Result<(i64, i64)> {
        let versions: (Option<i64>, Option<i64>) = on_pool!(self, pool => sqlx::query_as(
            "select (select version from content_version where id = 1), (select version from availability_version where id = 1)"
        ).fetch_one(pool).await)
        .context("Failed to read the catalogue's versions")?;
        Ok((versions.0.unwrap_or(0), versions.1.unwrap_or(0)))
    }

    /// The catalogue with sessions from today (London) onwards, their seats
    /// counted as of `now` (registrations and the live holds of unpaid
    /// orders). The content of `kept` (a catalogue read before) is reused
    /// while the content version is the same.
    pub async fn catalogue(&self, now: DateTime<Utc>, kept: Option<&Catalogue>) -> anyhow::Result<Catalogue> {
        let today = enrol_domain::london::today(now);
        // Read first: a change made while the rest is read makes the
        // catalogue look older than it is, never newer.
        let (content_version, seats) = self.catalogue_versions().await?;
        let content = match kept.filter(|k| k.as_of.content == content_version) {
            Some(kept) => Arc::clone(&kept.content),
            None => Arc::new(self.catalogue_content().await?),
        };
        let (sessions, holds_until) = on_pool!(self, pool => {
            let sessions: Vec<SessionRow> = sqlx::query_as(SESSIONS.as_str())
                .bind(today).bind(now).bind("").fetch_all(pool).await.context("Failed to read the sessions")?;
            let holds_until: Option<DateTime<Utc>> = sqlx::query_scalar(
                "select min(expires_at) from seat_hold where expires_at > $1"
            ).bind(now).fetch_one(pool).await.context("Failed to read the seat holds")?;
            (sessions, holds_until)
        });
        let mut by_course: HashMap<String, Vec<Session>> = HashMap::new();
        let mut dated: HashMap<String, Vec<Session>> = HashMap::new();
        for row in sessions {
            let (course_id, session) = row.into_session()?;
            if session.free_seats() > 0 {
                by_course.entry(course_id.clone()).or_default().push(session.clone());
            }
            dated.entry(course_id).or_default().push(session);
        }
        let as_of = CatalogueVersion { content: content_version, seats, today, holds_until };
        Ok(Catalogue { content, sessions: by_course, dated, as_of })
    }

    async fn catalogue_content(&self) -> anyhow::Result<Content> {
        let site = self.site().await?;
        let (sections, courses, members) = on_pool!(self, pool => {
            let sections: Vec<SectionRow> = sqlx::query_as(
                "select s.slug, s.title, s.summary, s.intro, s.image, \
                 (select count(*) from course_section cs join course c on c.id = cs.course_id \
                 where cs.section_slug = s.slug and not c.withdrawn) as course_count \
                 from section s order by s.position"
            ).fetch_all(pool).await.context("Failed to read the sections")?;
            let courses: Vec<CourseRow> = sqlx::query_as(
                "select c.id, c.section_slug, s.title as section_title, c.url, c.title, c.summary, c.description_html, \
                 c.image, c.online, c.is_package, c.is_new, c.featured, c.price_id, c.unit_amount, c.was_amount, \
                 c.duration, c.level, c.accreditation, c.prerequisites, c.entry_requirements, c.entry_online_course, c.includes, c.what_to_bring, c.kit_name, c.kit_price, \
                 c.kit_worth_price, c.kit_note, c.faqs, u.title as upsell_title, u.description as upsell_description, \
                 u.cta as upsell_cta, u.product_id as upsell_product_id, u.unit_amount as upsell_amount \
                 from course c join section s on s.slug = c.section_slug left join upsell u on u.price_id = c.price_id \
                 where not c.withdrawn order by c.position"
            ).fetch_all(pool).await.context("Failed to read the courses")?;
            let members: Vec<MembershipRow> = sqlx::query_as(
                "select course_id, section_slug from course_section order by position"
            ).fetch_all(pool).await.context("Failed to read the course sections")?;
            (sections, courses, members)
        });
        let index: HashMap<&str, usize> = courses.iter().enumerate().map(|(i, c)| (c.id.as_str(), i)).collect();
        let mut by_section: HashMap<String, Vec<usize>> = HashMap::new();
        for member in members {
            if let Some(&i) = index.get(member.course_id.as_str()) {
                by_section.entry(member.section_slug).or_default().push(i);
            }
        }
        Ok(Content { site, sections, courses, members: by_section })
    }
}
