//! The catalogue's pages: home, course index, sections, courses, the
//! calendar and offers, with the cards and sessions they list.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::money::Money;
use crate::site::{Image, TextLink};

/// Every upcoming session with a free seat, by month, filterable.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CalendarPage {
    pub heading: String,
    pub months: Vec<CalendarMonth>,
    /// Sections that have sessions, for the filter.
    pub sections: Vec<SectionOption>,
    /// The filters applied (from the query string), empty when none.
    pub section: String,
    pub session_type: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SectionOption {
    pub slug: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CalendarMonth {
    /// `YYYY-MM`.
    pub month: String,
    pub sessions: Vec<CalendarEntry>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CalendarEntry {
    pub session: Session,
    pub course_title: String,
    pub course_url: String,
    pub section_slug: String,
    pub section_title: String,
}

/// The promotion behind the banner: courses with a was-price.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OffersPage {
    pub heading: String,
    pub body_html: String,
    pub courses: Vec<CourseCard>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct HomePage {
    pub hero: Hero,
    pub featured: Vec<CourseCard>,
    pub sections: Vec<SectionCard>,
    pub upcoming: Vec<UpcomingSession>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Hero {
    pub heading: String,
    pub text: String,
    pub image: Image,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SectionCard {
    pub slug: String,
    pub title: String,
    pub url: String,
    pub summary: String,
    pub image: Image,
    pub course_count: u32,
}

/// A course as listings show it.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseCard {
    pub id: String,
    pub title: String,
    pub url: String,
    pub section_title: String,
    pub summary: String,
    pub image: Image,
    pub online: bool,
    pub is_package: bool,
    pub is_new: bool,
    /// What its dates charge, the lowest when they differ (`course_price`).
    #[ts(type = "number")]
    pub price: Money,
    /// Some dates cost more than `price`: shown as "From".
    pub price_from: bool,
    #[ts(type = "number | null")]
    pub was_price: Option<Money>,
    pub duration: String,
    pub level: String,
    /// The first session with a free seat, for in-person courses.
    pub next_session: Option<Session>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct UpcomingSession {
    pub session: Session,
    pub course_title: String,
    pub course_url: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseIndexPage {
    pub heading: String,
    pub intro: String,
    pub sections: Vec<SectionCard>,
    pub courses: Vec<CourseCard>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseSectionPage {
    pub slug: String,
    pub heading: String,
    pub intro: String,
    /// The order applied: `featured`, `name`, `price`, `price-desc` or `date`.
    pub sort: String,
    pub courses: Vec<CourseCard>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CoursePage {
    pub id: String,
    pub title: String,
    pub url: String,
    pub section_slug: String,
    pub section_title: String,
    pub summary: String,
    /// Rendered from the college's Markdown with raw HTML escaped.
    pub description_html: String,
    pub images: Vec<Image>,
    pub includes: Vec<String>,
    pub what_to_bring: Vec<String>,
    pub duration: String,
    pub level: String,
    pub accreditation: String,
    pub prerequisites: String,
    /// The prerequisites are requirements a buyer confirms meeting.
    pub entry_requirements: bool,
    /// The college's online course whose completion meets them, while it is
    /// on sale.
    pub entry_online_course: Option<TextLink>,
    pub online: bool,
    pub is_package: bool,
    /// The provider's price id, and what the course's dates charge, the
    /// lowest when they differ (`course_price`).
    pub pricing: Pricing,
    /// Some dates cost more than `pricing.unit_amount`: shown as "From".
    pub price_from: bool,
    #[ts(type = "number | null")]
    pub was_price: Option<Money>,
    pub kit: Option<Kit>,
    /// The add-on offered with this online course in the basket drawer.
    pub upsell: Option<UpsellOffer>,
    pub faqs: Vec<Faq>,
    /// Sessions with a free seat, soonest first (in-person courses only).
    pub sessions: Vec<Session>,
    /// Sessions still to come with no seat free: their waiting lists (decision 015).
    pub full_sessions: Vec<Session>,
    pub related: Vec<CourseCard>,
    /// What students who trained said, as staff published it with their
    /// consent (decision 034).
    pub reviews: crate::feedback::CourseReviews,
}

/// An online course's payment-provider price id and its amount.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct Pricing {
    pub id: String,
    #[ts(type = "number")]
    pub unit_amount: Money,
}

/// An upsell offer: an add-on at a special price, keyed by the course's price id.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct UpsellOffer {
    pub title: String,
    pub description: String,
    pub cta: String,
    pub price_data: PriceData,
}

/// A price the payment provider is given inline (the online checkout's `additional`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct PriceData {
    /// Always `gbp`.
    pub currency: String,
    /// The payment provider's product id.
    pub product: String,
    #[ts(type = "number")]
    pub unit_amount: Money,
}

/// A course's kit: a choice with a price in pounds, or a note.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Kit {
    pub name: String,
    /// Whole pounds; `None` when the kit is only a note.
    #[ts(type = "number | null")]
    pub price_pounds: Option<i64>,
    #[ts(type = "number | null")]
    pub worth_pounds: Option<i64>,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

/// A dated session of an in-person course (docs/product.md#catalogue).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct Session {
    pub id: String,
    /// London wall-clock `YYYY-MM-DDTHH:MM:SS`.
    pub start: String,
    pub end: String,
    /// The London day it starts, `YYYY-MM-DD` on the wire.
    #[ts(type = "string")]
    #[schema(value_type = String, format = Date)]
    pub date: NaiveDate,
    #[ts(type = "number")]
    pub price: Money,
    #[ts(type = "number")]
    pub seat_price: Money,
    #[ts(type = "number")]
    pub seats: i64,
    #[ts(type = "number")]
    pub registrations: i64,
    /// Seats held for unpaid bookings right now.
    #[ts(type = "number")]
    pub held: i64,
    #[serde(rename = "type")]
    pub session_type: SessionType,
    pub status: String,
}

impl Session {
    /// Seats neither registered nor held: only sessions with one are
    /// offered (counting holds; docs/product.md#bookings).
    pub fn free_seats(&self) -> i64 {
        (self.seats - self.registrations - self.held).max(0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum SessionType {
    Onsite,
    Virtual,
    Blended,
}

impl SessionType {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "onsite" => Some(Self::Onsite),
            "virtual" => Some(Self::Virtual),
            "blended" => Some(Self::Blended),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Onsite => "onsite",
            Self::Virtual => "virtual",
            Self::Blended => "blended",
        }
    }
}
