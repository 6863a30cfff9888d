//! The data of each page: loaded by the server, rendered by React on the
//! server, embedded in the HTML and hydrated in the browser. Client-side
//! navigation fetches the same envelope from `/api/page-data`.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::money::Money;
use crate::site::{Image, Navigation, SiteData};

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct PageEnvelope {
    /// The path (and query) this data is for.
    pub path: String,
    /// The HTTP status the page is served with.
    pub status: u16,
    /// London wall-clock time of the render, `YYYY-MM-DDTHH:MM:SS`.
    pub now: String,
    /// Absent only before the college's content is loaded.
    pub site: Option<SiteData>,
    pub nav: Navigation,
    pub head: PageHead,
    pub page: Page,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct PageHead {
    pub title: String,
    pub description: String,
    /// Absolute path of the canonical URL.
    pub canonical: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export)]
pub enum Page {
    Home(HomePage),
    CourseIndex(CourseIndexPage),
    CourseSection(CourseSectionPage),
    Course(Box<CoursePage>),
    Calendar(CalendarPage),
    Pathway(PathwayPage),
    Team(TeamPage),
    Careers(CareersPage),
    Blog(BlogPage),
    Article(ArticlePage),
    Offers(OffersPage),
    OnlineOrder(OnlineOrderPage),
    Checkout(CheckoutPage),
    SignIn(AccountFormPage),
    SignUp(AccountFormPage),
    /// `/verify-email/?token=…`, the link of the sign-up mail.
    VerifyEmail(AccountFormPage),
    ForgotPassword(AccountFormPage),
    /// `/reset-password/?token=…`, the link of a password mail.
    ResetPassword(AccountFormPage),
    Account(AccountFormPage),
    Enrollment(EnrollmentPage),
    Content(ContentPage),
    NotFound(NotFoundPage),
}

impl Page {
    /// The page's kind as the page data names it (its serde tag), which is
    /// also the name of its route chunk in the browser build.
    pub fn kind(&self) -> &'static str {
        match self {
            Page::Home(_) => "home",
            Page::CourseIndex(_) => "courseIndex",
            Page::CourseSection(_) => "courseSection",
            Page::Course(_) => "course",
            Page::Calendar(_) => "calendar",
            Page::Pathway(_) => "pathway",
            Page::Team(_) => "team",
            Page::Careers(_) => "careers",
            Page::Blog(_) => "blog",
            Page::Article(_) => "article",
            Page::Offers(_) => "offers",
            Page::OnlineOrder(_) => "onlineOrder",
            Page::Checkout(_) => "checkout",
            Page::SignIn(_) => "signIn",
            Page::SignUp(_) => "signUp",
            Page::VerifyEmail(_) => "verifyEmail",
            Page::ForgotPassword(_) => "forgotPassword",
            Page::ResetPassword(_) => "resetPassword",
            Page::Account(_) => "account",
            Page::Enrollment(_) => "enrollment",
            Page::Content(_) => "content",
            Page::NotFound(_) => "notFound",
        }
    }
}

/// A page of the college's own words, optionally with an enquiry form.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ContentPage {
    pub slug: String,
    pub heading: String,
    pub body_html: String,
    pub form: Option<crate::enquiry::EnquiryKind>,
}

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

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PathwayPage {
    pub heading: String,
    pub body_html: String,
    pub levels: Vec<PathwayLevel>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PathwayLevel {
    #[ts(type = "number")]
    pub level: i64,
    pub title: String,
    pub summary: String,
    pub duration: String,
    pub units: Vec<String>,
    #[ts(type = "number")]
    pub price: Money,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TeamPage {
    pub heading: String,
    pub intro: String,
    pub members: Vec<TeamMember>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TeamMember {
    pub name: String,
    pub role: String,
    pub bio: String,
    pub image: Image,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CareersPage {
    pub heading: String,
    pub body_html: String,
    pub jobs: Vec<Job>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Job {
    pub id: String,
    pub title: String,
    pub location: String,
    pub kind: String,
    pub summary: String,
    pub description_html: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BlogPage {
    pub heading: String,
    pub posts: Vec<BlogCard>,
    /// 1-based.
    pub page: u32,
    pub page_count: u32,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BlogCard {
    pub title: String,
    pub url: String,
    pub excerpt: String,
    pub author: String,
    /// `YYYY-MM-DD`.
    pub published: String,
    pub image: Image,
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ArticlePage {
    pub post: BlogCard,
    pub body_html: String,
    pub more: Vec<BlogCard>,
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
    #[ts(type = "number")]
    pub price: Money,
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
    pub duration: String,
    pub level: String,
    pub accreditation: String,
    pub prerequisites: String,
    pub online: bool,
    pub is_package: bool,
    pub pricing: Pricing,
    #[ts(type = "number | null")]
    pub was_price: Option<Money>,
    pub kit: Option<Kit>,
    /// The add-on offered with this online course in the basket drawer.
    pub upsell: Option<UpsellOffer>,
    pub faqs: Vec<Faq>,
    /// Sessions with a free seat, soonest first (in-person courses only).
    pub sessions: Vec<Session>,
    pub related: Vec<CourseCard>,
}

/// A payment-provider price id and its amount (§3 Online course pricing).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct Pricing {
    pub id: String,
    #[ts(type = "number")]
    pub unit_amount: Money,
}

/// §3 Upsell offer: an add-on at a special price, keyed by the course's price id.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct UpsellOffer {
    pub title: String,
    pub description: String,
    pub cta: String,
    pub price_data: PriceData,
}

/// A price the payment provider is given inline (§7 `additional`).
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

/// The page an e-learning buyer returns to from the payment page. It reads
/// the order's state; fulfilment happens only by webhook.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OnlineOrderPage {
    pub order_id: String,
    pub status: OnlineOrderStatus,
    pub lines: Vec<OrderLine>,
    #[ts(type = "number")]
    pub total: Money,
    /// Where the receipt and the course access go, once paid.
    pub email: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum OnlineOrderStatus {
    /// Waiting for the payment provider's confirmation.
    Pending,
    /// Checked out with a payment still on its way (a bank debit).
    Processing,
    Paid,
    /// The payment did not go through.
    Failed,
}

impl OnlineOrderStatus {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pending" => Some(Self::Pending),
            "processing" => Some(Self::Processing),
            "paid" => Some(Self::Paid),
            "failed" => Some(Self::Failed),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OrderLine {
    pub title: String,
    #[ts(type = "number")]
    pub amount: Money,
    /// The course's page, for course lines; `None` for add-ons.
    pub course_url: Option<String>,
}

/// `/checkout/` (§2 Checkout page). The basket itself lives in the browser;
/// nothing personal is in this data, so the page is cached like any other.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CheckoutPage {
    /// `sandbox` or `stripe`: which payment element to mount.
    pub gateway: String,
    /// Stripe's publishable key when the gateway is Stripe.
    pub publishable_key: Option<String>,
}

/// `/sign-in/`, `/sign-up/`, the pages the account mails link to and the
/// account area (§2): the same for every visitor; who is signed in is asked
/// for by the browser (decision 008).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AccountFormPage {
    pub heading: String,
}

/// `/enrolment/{orderId}`, where the payment provider returns the visitor.
/// It shows the server's records; fulfilment happens only by webhook.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EnrollmentPage {
    pub order_id: String,
    pub status: EnrollmentStatus,
    pub lines: Vec<EnrollmentLine>,
    #[ts(type = "number")]
    pub total: Money,
    #[ts(type = "number")]
    pub discount: Money,
    /// What has been paid so far.
    #[ts(type = "number")]
    pub paid: Money,
    /// What is left to pay, and by when (`YYYY-MM-DD`).
    #[ts(type = "number")]
    pub balance: Money,
    pub balance_due_on: Option<String>,
    pub email: String,
    pub given_name: String,
}

/// §3 Enrollment status, and `failed` when the payment did not go through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum EnrollmentStatus {
    Pending,
    Deposit,
    Completed,
    Failed,
}

impl EnrollmentStatus {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pending" => Some(Self::Pending),
            "deposit" => Some(Self::Deposit),
            "completed" => Some(Self::Completed),
            "failed" => Some(Self::Failed),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Deposit => "deposit",
            Self::Completed => "completed",
            Self::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EnrollmentLine {
    pub title: String,
    pub course_url: String,
    /// `YYYY-MM-DD`, or `None` when the date is to be arranged.
    pub date: Option<String>,
    pub session_type: Option<SessionType>,
    /// The kit taken, if any.
    pub kit_name: Option<String>,
    #[ts(type = "number")]
    pub amount: Money,
}

/// A course's kit (§3 Course line): a choice with a price in pounds, or a note.
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

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct Faq {
    pub question: String,
    pub answer: String,
}

/// A dated session of an in-person course (§3 Session).
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
    /// offered (§9, counting holds).
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

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct NotFoundPage {
    pub suggestions: Vec<CourseCard>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pages_kind_is_its_serde_tag() {
        let form = || AccountFormPage { heading: "Sign in".to_owned() };
        let pages = [
            Page::SignIn(form()),
            Page::SignUp(form()),
            Page::VerifyEmail(form()),
            Page::ForgotPassword(form()),
            Page::ResetPassword(form()),
            Page::Account(form()),
            Page::Checkout(CheckoutPage { gateway: "sandbox".to_owned(), publishable_key: None }),
            Page::NotFound(NotFoundPage { suggestions: Vec::new() }),
        ];
        for page in pages {
            assert_eq!(serde_json::to_value(&page).unwrap()["kind"], page.kind());
        }
    }
}
