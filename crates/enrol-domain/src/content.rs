//! The site's content as staff edit it (decision 018): one
//! document per course, section, page, article, team member, job, Pathway
//! level and the site data. Each body is also the content pack's file
//! format, so the pack, the database and `enrol content export` share one
//! shape and one set of checks (`check.rs`).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::learning::curriculum::Curriculum;
use crate::learning::provider::CourseProvider;
use crate::page::Faq;
use crate::readiness::Requirements;
use crate::site::{FooterLinks, SocialMedia};

mod check;
#[cfg(test)]
mod learning_demo_tests;
pub use crate::slug::is_slug;
pub use check::key_is_valid;

/// What kind of thing a content document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ContentKind {
    Site,
    Section,
    Course,
    Pathway,
    Page,
    Blog,
    Team,
    Job,
}

impl ContentKind {
    pub const ALL: [ContentKind; 8] = [
        ContentKind::Site,
        ContentKind::Section,
        ContentKind::Course,
        ContentKind::Pathway,
        ContentKind::Page,
        ContentKind::Blog,
        ContentKind::Team,
        ContentKind::Job,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ContentKind::Site => "site",
            ContentKind::Section => "section",
            ContentKind::Course => "course",
            ContentKind::Pathway => "pathway",
            ContentKind::Page => "page",
            ContentKind::Blog => "blog",
            ContentKind::Team => "team",
            ContentKind::Job => "job",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// An image of the content: a file of the media library (or the pack's
/// `images/` folder) and the words that stand for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct ImageRef {
    pub file: String,
    pub alt: String,
}

/// The site data (the college's details, footer and banner): `site.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct SiteBody {
    pub title: String,
    pub footer_text: String,
    pub address: String,
    pub phone_number: String,
    pub email_address: String,
    pub support_email_address: String,
    pub models_email_address: String,
    pub clinic_url: String,
    pub logo: ImageRef,
    pub social_media: SocialMedia,
    pub footer_logos: Vec<FooterLogoRef>,
    pub footer_links: FooterLinks,
    pub hero: HeroBody,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct FooterLogoRef {
    pub title: String,
    pub file: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct HeroBody {
    pub heading: String,
    pub text: String,
    pub image: ImageRef,
}

/// A section of the course list: one entry of `sections.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct SectionBody {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub intro: String,
    pub image: ImageRef,
    /// Where it is listed; in the pack, its place in the file.
    #[serde(default)]
    #[ts(type = "number")]
    pub position: i64,
}

/// A course or package: `courses/<id>.yaml` without the pack's sessions
/// and upsell, which the back office runs (decision 017).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct CourseBody {
    /// Its address's last part, when it is not the course's id (after a
    /// rename; the old address redirects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub slug: Option<String>,
    pub title: String,
    pub section: String,
    #[serde(default)]
    pub also_in: Vec<String>,
    pub online: bool,
    pub package: bool,
    #[serde(default)]
    pub featured: bool,
    pub summary: String,
    pub image: ImageRef,
    /// The online price's id at the payment provider (e-learning).
    pub price_id: String,
    /// Pence.
    #[ts(type = "number")]
    pub price: i64,
    #[ts(type = "number | null")]
    pub was_price: Option<i64>,
    pub duration: String,
    pub level: String,
    pub accreditation: String,
    pub prerequisites: String,
    /// Whether `prerequisites` are requirements a buyer must meet: the
    /// checkout asks them to confirm it, and to prove it before training.
    #[serde(default)]
    pub entry_requirements: bool,
    pub includes: Vec<String>,
    /// What a student brings to the training, one thing an item: the
    /// booking confirmation and the course page list it.
    #[serde(default)]
    pub what_to_bring: Vec<String>,
    /// An in-person course's pre-course online theory: the id of the online
    /// course each student booked on it may study with the booking
    /// (decision 025).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub online_theory: Option<String>,
    /// A course with entry requirements: the id of an online course whose
    /// completion meets them (decision 025), named on the course page and
    /// shown met on the roster for a student who holds its certificate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub entry_online_course: Option<String>,
    /// What an in-person course asks of each booked student before its
    /// first day (decision 032): forms, documents, and by when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub readiness: Option<Box<Requirements>>,
    pub kit: Option<KitBody>,
    #[serde(default)]
    pub faqs: Vec<Faq>,
    /// Markdown.
    pub description: String,
    #[serde(default)]
    #[ts(type = "number")]
    pub position: i64,
    /// What an online course teaches and for how long (decision 025): its
    /// modules, lessons and quizzes. The pack keeps it apart, in
    /// `learning/<course>.yaml`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub learning: Option<Box<Curriculum>>,
    /// The hosted LMS that teaches this online course instead of its
    /// lessons (decision 029): `provider: {coassemble: {course, group}}`.
    /// A registration keeps the ids it was sold with. Boxed: few courses
    /// name one, and every content body is as large as a course's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<CourseProvider>")]
    pub provider: Option<Box<CourseProvider>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct KitBody {
    pub name: Option<String>,
    #[ts(type = "number | null")]
    pub price: Option<i64>,
    #[ts(type = "number | null")]
    pub worth: Option<i64>,
    pub note: Option<String>,
}

/// A level of the Pathway: one entry of `pathway.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct PathwayBody {
    #[ts(type = "number")]
    pub level: i64,
    pub title: String,
    pub summary: String,
    pub duration: String,
    pub units: Vec<String>,
    #[ts(type = "number")]
    pub price: i64,
}

/// A page: `pages/<slug>.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct PageBody {
    pub title: String,
    pub description: String,
    /// Markdown; in the pack, what follows the front matter.
    #[serde(default)]
    pub body: String,
}

/// An article: `blog/<slug>.md`. It is shown from its `published` day
/// (London) on; a later day schedules it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct BlogBody {
    pub title: String,
    pub excerpt: String,
    pub author: String,
    #[ts(type = "string")]
    pub published: NaiveDate,
    pub image: ImageRef,
    pub tags: Vec<String>,
    #[serde(default)]
    pub body: String,
}

/// A member of the team: one entry of `team.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct TeamBody {
    pub name: String,
    pub role: String,
    pub bio: String,
    pub image: ImageRef,
    #[serde(default)]
    #[ts(type = "number")]
    pub position: i64,
}

/// A job: one entry of `jobs.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct JobBody {
    pub id: String,
    pub title: String,
    pub location: String,
    pub kind: String,
    pub summary: String,
    /// Markdown.
    pub description: String,
    #[serde(default)]
    #[ts(type = "number")]
    pub position: i64,
}

/// One document's body, by kind.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
#[ts(export)]
pub enum ContentBody {
    Site(SiteBody),
    Section(SectionBody),
    Course(CourseBody),
    Pathway(PathwayBody),
    Page(PageBody),
    Blog(BlogBody),
    Team(TeamBody),
    Job(JobBody),
}

impl ContentBody {
    /// Reads a body of `kind` from JSON, refusing unknown fields.
    pub fn from_json(kind: ContentKind, value: serde_json::Value) -> Result<Self, serde_json::Error> {
        Ok(match kind {
            ContentKind::Site => ContentBody::Site(serde_json::from_value(value)?),
            ContentKind::Section => ContentBody::Section(serde_json::from_value(value)?),
            ContentKind::Course => ContentBody::Course(serde_json::from_value(value)?),
            ContentKind::Pathway => ContentBody::Pathway(serde_json::from_value(value)?),
            ContentKind::Page => ContentBody::Page(serde_json::from_value(value)?),
            ContentKind::Blog => ContentBody::Blog(serde_json::from_value(value)?),
            ContentKind::Team => ContentBody::Team(serde_json::from_value(value)?),
            ContentKind::Job => ContentBody::Job(serde_json::from_value(value)?),
        })
    }

    pub fn kind(&self) -> ContentKind {
        match self {
            ContentBody::Site(_) => ContentKind::Site,
            ContentBody::Section(_) => ContentKind::Section,
            ContentBody::Course(_) => ContentKind::Course,
            ContentBody::Pathway(_) => ContentKind::Pathway,
            ContentBody::Page(_) => ContentKind::Page,
            ContentBody::Blog(_) => ContentKind::Blog,
            ContentBody::Team(_) => ContentKind::Team,
            ContentBody::Job(_) => ContentKind::Job,
        }
    }

    /// What staff call it in lists.
    pub fn title(&self) -> &str {
        match self {
            ContentBody::Site(site) => &site.title,
            ContentBody::Section(section) => &section.title,
            ContentBody::Course(course) => &course.title,
            ContentBody::Pathway(level) => &level.title,
            ContentBody::Page(page) => &page.title,
            ContentBody::Blog(article) => &article.title,
            ContentBody::Team(member) => &member.name,
            ContentBody::Job(job) => &job.title,
        }
    }

    /// The image files it names.
    pub fn image_files(&self) -> Vec<&str> {
        match self {
            ContentBody::Site(site) => std::iter::once(site.logo.file.as_str())
                .chain(std::iter::once(site.hero.image.file.as_str()))
                .chain(site.footer_logos.iter().map(|logo| logo.file.as_str()))
                .collect(),
            ContentBody::Section(section) => vec![&section.image.file],
            ContentBody::Course(course) => vec![&course.image.file],
            ContentBody::Blog(article) => vec![&article.image.file],
            ContentBody::Team(member) => vec![&member.image.file],
            ContentBody::Pathway(_) | ContentBody::Page(_) | ContentBody::Job(_) => Vec::new(),
        }
    }
}
