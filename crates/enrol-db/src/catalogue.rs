//! Reading the college's site data and course catalogue.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use enrol_domain::money::Money;
use enrol_domain::page::{
    CalendarEntry, CalendarMonth, CourseCard, CoursePage, Faq, Hero, Kit, PriceData, Pricing, SectionCard, SectionOption, Session,
    SessionType, UpcomingSession, UpsellOffer,
};
use enrol_domain::site::{Image, NavSection, Navigation, SiteData, TextLink};

use crate::seats::held_seats;
use crate::{Db, on_pool};

/// Site data and the home page's hero, which the college edits together.
#[derive(Debug, Clone)]
pub struct SiteRecord {
    pub site: SiteData,
    pub hero: Hero,
}

/// Who the college is in titles and mails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct College {
    pub name: String,
    pub email_address: String,
}

impl College {
    /// The college of `site`; before any content is loaded, "Enrol".
    pub fn of(site: Option<&SiteData>) -> Self {
        site.map_or_else(
            || College { name: "Enrol".to_owned(), email_address: String::new() },
            |s| College { name: s.title.clone(), email_address: s.email_address.clone() },
        )
    }
}

#[derive(sqlx::FromRow)]
struct SiteRow {
    title: String,
    footer_text: String,
    address: String,
    phone_number: String,
    email_address: String,
    support_email_address: String,
    models_email_address: String,
    clinic_url: String,
    social_media: String,
    footer_logos: String,
    footer_links: String,
    logo: String,
    hero: String,
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

#[derive(sqlx::FromRow, Debug, Clone)]
struct CourseRow {
    id: String,
    section_slug: String,
    section_title: String,
    url: String,
    title: String,
    summary: String,
    description_html: String,
    image: String,
    online: bool,
    is_package: bool,
    is_new: bool,
    featured: bool,
    price_id: String,
    unit_amount: i64,
    was_amount: Option<i64>,
    duration: String,
    level: String,
    accreditation: String,
    prerequisites: String,
    includes: String,
    kit_name: Option<String>,
    kit_price: Option<i64>,
    kit_worth_price: Option<i64>,
    kit_note: Option<String>,
    faqs: String,
    upsell_title: Option<String>,
    upsell_description: Option<String>,
    upsell_cta: Option<String>,
    upsell_product_id: Option<String>,
    upsell_amount: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct MembershipRow {
    course_id: String,
    section_slug: String,
}

#[derive(sqlx::FromRow)]
struct SessionRow {
    id: String,
    course_id: String,
    start_at: NaiveDateTime,
    end_at: NaiveDateTime,
    date: NaiveDate,
    price: i64,
    seat_price: i64,
    seats: i64,
    registrations: i64,
    held: i64,
    #[sqlx(rename = "type")]
    session_type: String,
    status: String,
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

fn json<T: serde::de::DeserializeOwned>(raw: &str, what: &str) -> anyhow::Result<T> {
    serde_json::from_str(raw).with_context(|| format!("Stored {what} is not valid JSON"))
}

const WALL_CLOCK: &str = "%Y-%m-%dT%H:%M:%S";

impl CourseRow {
    fn upsell(&self) -> Option<UpsellOffer> {
        Some(UpsellOffer {
            title: self.upsell_title.clone()?,
            description: self.upsell_description.clone()?,
            cta: self.upsell_cta.clone()?,
            price_data: PriceData {
                currency: "gbp".to_owned(),
                product: self.upsell_product_id.clone()?,
                unit_amount: Money::from_pence(self.upsell_amount?),
            },
        })
    }
}

impl SessionRow {
    fn into_session(self) -> anyhow::Result<(String, Session)> {
        let session_type = SessionType::parse(&self.session_type)
            .with_context(|| format!("Session {} has an unknown type {:?}", self.id, self.session_type))?;
        Ok((
            self.course_id,
            Session {
                id: self.id,
                start: self.start_at.format(WALL_CLOCK).to_string(),
                end: self.end_at.format(WALL_CLOCK).to_string(),
                date: self.date,
                price: Money::from_pence(self.price),
                seat_price: Money::from_pence(self.seat_price),
                seats: self.seats,
                registrations: self.registrations,
                held: self.held,
                session_type,
                status: self.status,
            },
        ))
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
            let sessions: Vec<SessionRow> = sqlx::query_as(concat!(
                "select s.id, ev.course_id, s.start_at, s.end_at, s.date, s.price, s.seat_price, s.seats, s.registrations, s.type, \
                 s.status, ", held_seats!(), " as held from session s join event ev on ev.id = s.event_id \
                 where s.date >= $1 and s.status = 'active' order by s.start_at, s.id"
            )).bind(today).bind(now).bind("").fetch_all(pool).await.context("Failed to read the sessions")?;
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
                 (select count(*) from course_section cs where cs.section_slug = s.slug) as course_count \
                 from section s order by s.position"
            ).fetch_all(pool).await.context("Failed to read the sections")?;
            let courses: Vec<CourseRow> = sqlx::query_as(
                "select c.id, c.section_slug, s.title as section_title, c.url, c.title, c.summary, c.description_html, \
                 c.image, c.online, c.is_package, c.is_new, c.featured, c.price_id, c.unit_amount, c.was_amount, \
                 c.duration, c.level, c.accreditation, c.prerequisites, c.includes, c.kit_name, c.kit_price, \
                 c.kit_worth_price, c.kit_note, c.faqs, u.title as upsell_title, u.description as upsell_description, \
                 u.cta as upsell_cta, u.product_id as upsell_product_id, u.unit_amount as upsell_amount \
                 from course c join section s on s.slug = c.section_slug left join upsell u on u.price_id = c.price_id \
                 order by c.position"
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

impl Catalogue {
    /// The site data and hero, as the content gives them; `None` before
    /// any content is loaded.
    pub fn site(&self) -> Option<&SiteRecord> {
        self.content.site.as_ref()
    }

    pub fn as_of(&self) -> CatalogueVersion {
        self.as_of
    }

    pub fn section(&self, slug: &str) -> Option<&SectionRow> {
        self.content.sections.iter().find(|s| s.slug == slug)
    }

    pub fn navigation(&self) -> Navigation {
        Navigation {
            sections: self
                .content
                .sections
                .iter()
                .map(|s| NavSection {
                    slug: s.slug.clone(),
                    title: s.title.clone(),
                    url: section_url(&s.slug),
                    courses: self.member_rows(&s.slug).map(|c| TextLink { text: c.title.clone(), link: c.url.clone() }).collect(),
                })
                .collect(),
        }
    }

    pub fn section_cards(&self) -> anyhow::Result<Vec<SectionCard>> {
        self.content
            .sections
            .iter()
            .map(|s| {
                Ok(SectionCard {
                    slug: s.slug.clone(),
                    title: s.title.clone(),
                    url: section_url(&s.slug),
                    summary: s.summary.clone(),
                    image: json(&s.image, "section image")?,
                    course_count: u32::try_from(s.course_count).unwrap_or(0),
                })
            })
            .collect()
    }

    fn member_rows(&self, slug: &str) -> impl Iterator<Item = &CourseRow> {
        self.content.members.get(slug).into_iter().flatten().map(|&i| &self.content.courses[i])
    }

    fn card(&self, course: &CourseRow) -> anyhow::Result<CourseCard> {
        Ok(CourseCard {
            id: course.id.clone(),
            title: course.title.clone(),
            url: course.url.clone(),
            section_title: course.section_title.clone(),
            summary: course.summary.clone(),
            image: json::<Image>(&course.image, "course image")?,
            online: course.online,
            is_package: course.is_package,
            is_new: course.is_new,
            price: Money::from_pence(course.unit_amount),
            was_price: course.was_amount.map(Money::from_pence),
            duration: course.duration.clone(),
            level: course.level.clone(),
            next_session: self.sessions.get(&course.id).and_then(|s| s.first()).cloned(),
        })
    }

    /// The courses listed in a section.
    pub fn section_courses(&self, slug: &str) -> anyhow::Result<Vec<CourseCard>> {
        self.member_rows(slug).map(|c| self.card(c)).collect()
    }

    pub fn all_courses(&self) -> anyhow::Result<Vec<CourseCard>> {
        self.content.courses.iter().map(|c| self.card(c)).collect()
    }

    pub fn featured_courses(&self) -> anyhow::Result<Vec<CourseCard>> {
        self.content.courses.iter().filter(|c| c.featured).map(|c| self.card(c)).collect()
    }

    /// The next sessions with a free seat across all courses.
    pub fn upcoming(&self, limit: usize) -> Vec<UpcomingSession> {
        let mut all: Vec<UpcomingSession> = self
            .content
            .courses
            .iter()
            .flat_map(|c| {
                self.sessions.get(&c.id).into_iter().flatten().map(|s| UpcomingSession {
                    session: s.clone(),
                    course_title: c.title.clone(),
                    course_url: c.url.clone(),
                })
            })
            .collect();
        all.sort_by(|a, b| a.session.start.cmp(&b.session.start).then_with(|| a.session.id.cmp(&b.session.id)));
        all.truncate(limit);
        all
    }

    /// Courses on offer: those with a was-price, biggest saving first.
    pub fn offers(&self) -> anyhow::Result<Vec<CourseCard>> {
        let mut cards: Vec<CourseCard> =
            self.content.courses.iter().filter(|c| c.was_amount.is_some()).map(|c| self.card(c)).collect::<anyhow::Result<_>>()?;
        cards.sort_by_key(|c| std::cmp::Reverse(c.was_price.map_or(0, |w| w.pence() - c.price.pence())));
        Ok(cards)
    }

    /// Upcoming sessions with a free seat grouped by month, optionally only
    /// of one section and one session type; and the sections that have any.
    pub fn calendar(&self, section: Option<&str>, session_type: Option<SessionType>) -> (Vec<CalendarMonth>, Vec<SectionOption>) {
        let mut entries: Vec<CalendarEntry> = Vec::new();
        for course in &self.content.courses {
            let Some(sessions) = self.sessions.get(&course.id) else { continue };
            let listed_in =
                |slug: &str| self.content.members.get(slug).is_some_and(|m| m.iter().any(|&i| self.content.courses[i].id == course.id));
            if section.is_some_and(|slug| !listed_in(slug)) {
                continue;
            }
            for session in sessions.iter().filter(|s| session_type.is_none_or(|t| s.session_type == t)) {
                entries.push(CalendarEntry {
                    session: session.clone(),
                    course_title: course.title.clone(),
                    course_url: course.url.clone(),
                    section_slug: course.section_slug.clone(),
                    section_title: course.section_title.clone(),
                });
            }
        }
        entries.sort_by(|a, b| a.session.start.cmp(&b.session.start).then_with(|| a.course_title.cmp(&b.course_title)));
        let mut months: Vec<CalendarMonth> = Vec::new();
        for entry in entries {
            let month = entry.session.date.format("%Y-%m").to_string();
            match months.last_mut() {
                Some(last) if last.month == month => last.sessions.push(entry),
                _ => months.push(CalendarMonth { month, sessions: vec![entry] }),
            }
        }
        let sections = self
            .content
            .sections
            .iter()
            .filter(|s| self.member_rows(&s.slug).any(|c| self.sessions.contains_key(&c.id)))
            .map(|s| SectionOption { slug: s.slug.clone(), title: s.title.clone() })
            .collect();
        (months, sections)
    }

    /// The course with id `id`, as its page shows it.
    /// Whether course `id` has dated sessions still to come, full or not.
    pub fn has_dates(&self, id: &str) -> bool {
        self.dated.contains_key(id)
    }

    /// Course `id`'s sessions still to come, full or not, soonest first.
    pub fn dated_sessions(&self, id: &str) -> &[Session] {
        self.dated.get(id).map_or(&[], Vec::as_slice)
    }

    pub fn course_by_id(&self, id: &str) -> anyhow::Result<Option<CoursePage>> {
        match self.content.courses.iter().find(|c| c.id == id) {
            Some(course) => self.course_page(&course.url),
            None => Ok(None),
        }
    }

    /// The course page at `url` (`/courses/<section>/<slug>/`).
    pub fn course_page(&self, url: &str) -> anyhow::Result<Option<CoursePage>> {
        let Some(course) = self.content.courses.iter().find(|c| c.url == url) else { return Ok(None) };
        let image: Image = json(&course.image, "course image")?;
        let kit = match (&course.kit_name, &course.kit_note) {
            (None, None) => None,
            (name, note) => Some(Kit {
                name: name.clone().unwrap_or_default(),
                price_pounds: course.kit_price,
                worth_pounds: course.kit_worth_price,
                note: note.clone().unwrap_or_default(),
            }),
        };
        let related = self
            .member_rows(&course.section_slug)
            .filter(|c| c.id != course.id)
            .take(4)
            .map(|c| self.card(c))
            .collect::<anyhow::Result<_>>()?;
        Ok(Some(CoursePage {
            id: course.id.clone(),
            title: course.title.clone(),
            url: course.url.clone(),
            section_slug: course.section_slug.clone(),
            section_title: course.section_title.clone(),
            summary: course.summary.clone(),
            description_html: course.description_html.clone(),
            images: vec![image],
            includes: json(&course.includes, "course includes")?,
            duration: course.duration.clone(),
            level: course.level.clone(),
            accreditation: course.accreditation.clone(),
            prerequisites: course.prerequisites.clone(),
            online: course.online,
            is_package: course.is_package,
            pricing: Pricing { id: course.price_id.clone(), unit_amount: Money::from_pence(course.unit_amount) },
            was_price: course.was_amount.map(Money::from_pence),
            kit,
            upsell: course.upsell(),
            faqs: json::<Vec<Faq>>(&course.faqs, "course FAQs")?,
            sessions: self.sessions.get(&course.id).cloned().unwrap_or_default(),
            related,
        }))
    }
}

/// How a listing is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CourseOrder {
    /// The college's own order.
    #[default]
    Featured,
    Name,
    PriceLowToHigh,
    PriceHighToLow,
    NextDate,
}

impl CourseOrder {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "" | "featured" => Some(Self::Featured),
            "name" => Some(Self::Name),
            "price" => Some(Self::PriceLowToHigh),
            "price-desc" => Some(Self::PriceHighToLow),
            "date" => Some(Self::NextDate),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Featured => "featured",
            Self::Name => "name",
            Self::PriceLowToHigh => "price",
            Self::PriceHighToLow => "price-desc",
            Self::NextDate => "date",
        }
    }

    /// Sorts cards in place; the sort is stable, so ties keep the college's order.
    pub fn apply(self, cards: &mut [CourseCard]) {
        match self {
            Self::Featured => {}
            Self::Name => cards.sort_by_key(|card| card.title.to_lowercase()),
            Self::PriceLowToHigh => cards.sort_by_key(|c| c.price),
            Self::PriceHighToLow => cards.sort_by_key(|c| std::cmp::Reverse(c.price)),
            // Courses without a date (online, or fully booked) come last.
            Self::NextDate => cards.sort_by(|a, b| {
                let key = |c: &CourseCard| c.next_session.as_ref().map(|s| s.start.clone());
                match (key(a), key(b)) {
                    (Some(x), Some(y)) => x.cmp(&y),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                }
            }),
        }
    }
}

pub fn section_url(slug: &str) -> String {
    format!("/courses/{slug}/")
}
