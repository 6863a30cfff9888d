//! The catalogue's pages: home, course index, sections, courses, the
//! calendar and offers, with the cards and sessions they list.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::money::Money;
use crate::site::{Image, TextLink};

/// Every upcoming session with a free seat, by month, filterable, a few
/// whole months to a page (decision 040).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CalendarPage {
    pub heading: String,
    /// The months this page shows, each whole.
    pub months: Vec<CalendarMonth>,
    /// Every month with dates under the filters (`YYYY-MM`), soonest first.
    pub months_listed: Vec<String>,
    /// The dates under the filters, in every month.
    pub total: u32,
    /// The first month of the page before this one; none on the first.
    pub earlier: Option<String>,
    /// The first month after this page's; none on the last.
    pub later: Option<String>,
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

/// The dates a calendar page holds at least, when it has them: whole
/// months are shown, the next added while fewer are (decision 040).
pub const CALENDAR_DATES: usize = 60;

/// The part of a calendar a page shows.
#[derive(Debug, Clone)]
pub struct CalendarSpan {
    pub months: Vec<CalendarMonth>,
    pub months_listed: Vec<String>,
    pub total: u32,
    pub earlier: Option<String>,
    pub later: Option<String>,
}

/// The page of `months` (soonest first, each with dates) that starts at
/// month `from` (`YYYY-MM`), or at the first month after it with dates;
/// the first page when `from` is none. Whole months, the next added while
/// fewer than [`CALENDAR_DATES`] are shown; the page before ends where
/// this one starts. None when `from` is not a month or no month from it
/// on has dates.
pub fn calendar_span(months: Vec<CalendarMonth>, from: Option<&str>) -> Option<CalendarSpan> {
    let start = match from {
        None => 0,
        Some(from) => {
            NaiveDate::parse_from_str(&format!("{from}-01"), "%Y-%m-%d").ok().filter(|_| from.len() == 7)?;
            months.iter().position(|m| m.month.as_str() >= from)?
        }
    };
    let total = months.iter().map(|m| m.sessions.len()).sum::<usize>();
    let (mut end, mut shown) = (start, 0);
    while end < months.len() && (end == start || shown < CALENDAR_DATES) {
        shown += months[end].sessions.len();
        end += 1;
    }
    let (mut first, mut before) = (start, 0);
    while first > 0 && before < CALENDAR_DATES {
        first -= 1;
        before += months[first].sessions.len();
    }
    let months_listed: Vec<String> = months.iter().map(|m| m.month.clone()).collect();
    Some(CalendarSpan {
        earlier: (start > 0).then(|| months_listed[first].clone()),
        later: months_listed.get(end).cloned(),
        total: u32::try_from(total).unwrap_or(u32::MAX),
        months: months.into_iter().skip(start).take(end - start).collect(),
        months_listed,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Months of a calendar, each with `dates` dates.
    fn months(dates: &[(&str, usize)]) -> Vec<CalendarMonth> {
        dates
            .iter()
            .map(|&(month, count)| CalendarMonth {
                month: month.to_owned(),
                sessions: (0..count)
                    .map(|i| CalendarEntry {
                        session: Session {
                            id: format!("{month}-{i}"),
                            start: format!("{month}-01T10:00:00"),
                            end: format!("{month}-01T16:00:00"),
                            date: NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").unwrap(),
                            price: Money::from_pence(10_000),
                            seat_price: Money::from_pence(10_000),
                            seats: 8,
                            registrations: 0,
                            held: 0,
                            session_type: SessionType::Onsite,
                            status: "open".to_owned(),
                        },
                        course_title: "Chemical Peels Course".to_owned(),
                        course_url: "/courses/aesthetics/chemical-peels/".to_owned(),
                        section_slug: "aesthetics".to_owned(),
                        section_title: "Aesthetics".to_owned(),
                    })
                    .collect(),
            })
            .collect()
    }

    fn shown(span: &CalendarSpan) -> Vec<&str> {
        span.months.iter().map(|m| m.month.as_str()).collect()
    }

    const YEAR: [(&str, usize); 6] = [("2027-01", 30), ("2027-02", 20), ("2027-03", 25), ("2027-04", 70), ("2027-05", 5), ("2027-06", 10)];

    #[test]
    fn a_page_holds_whole_months_until_it_has_enough_dates() {
        let first = calendar_span(months(&YEAR), None).unwrap();
        assert_eq!(shown(&first), ["2027-01", "2027-02", "2027-03"], "30 + 20 < 60, so March too");
        assert_eq!((first.total, first.earlier.as_deref(), first.later.as_deref()), (160, None, Some("2027-04")));
        assert_eq!(first.months_listed, ["2027-01", "2027-02", "2027-03", "2027-04", "2027-05", "2027-06"]);
        let busy = calendar_span(months(&YEAR), Some("2027-04")).unwrap();
        assert_eq!(shown(&busy), ["2027-04"], "a month of more than a page is one page, whole");
        assert_eq!(
            (busy.earlier.as_deref(), busy.later.as_deref()),
            (Some("2027-01"), Some("2027-05")),
            "back to the first page: 25 + 20 < 60"
        );
        let last = calendar_span(months(&YEAR), Some("2027-05")).unwrap();
        assert_eq!(shown(&last), ["2027-05", "2027-06"]);
        assert_eq!((last.earlier.as_deref(), last.later), (Some("2027-04"), None));
    }

    #[test]
    fn a_page_starts_at_the_first_month_with_dates_from_the_one_asked() {
        let gap = months(&[("2027-01", 3), ("2027-03", 4)]);
        assert_eq!(shown(&calendar_span(gap.clone(), Some("2027-02")).unwrap()), ["2027-03"]);
        assert_eq!(shown(&calendar_span(gap.clone(), Some("2020-01")).unwrap()), ["2027-01", "2027-03"]);
        assert!(calendar_span(gap.clone(), Some("2027-04")).is_none(), "nothing from April on");
        for bad in ["2027-13", "2027-1", "2027-01-01", "soon", ""] {
            assert!(calendar_span(gap.clone(), Some(bad)).is_none(), "{bad}");
        }
        let none = calendar_span(Vec::new(), None).unwrap();
        assert_eq!((none.months.len(), none.total, none.earlier, none.later), (0, 0, None, None));
    }
}
