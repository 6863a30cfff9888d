//! Which page a path is, and the data it is rendered from.

use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};

use enrol_db::{Catalogue, College, CourseOrder, Db, EnrollmentRecord, PageRecord, SiteRecord, section_url};
use enrol_domain::content::CourseBody;
use enrol_domain::enquiry::EnquiryKind;
use enrol_domain::enrollment::BookedCourse;
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::online_order::PricedLine;
use enrol_domain::page::{
    AccountFormPage, ArticlePage, BalanceBooking, BalancePage, BlogPage, CalendarPage, CareersPage, CertificatePage, CheckoutPage,
    ContentPage, CourseIndexPage, CourseSectionPage, EnrollmentPage, EnrollmentStatus, HomePage, NotFoundPage, OffersPage, OnlineOrderPage,
    Page, PageEnvelope, PageHead, PathwayPage, SessionType, TeamPage, VerifiedCertificate,
};
use enrol_domain::site::Navigation;
use enrol_payments::PaymentGateway;

use crate::AppState;
use crate::buyer::Viewer;

/// Articles per page of the blog.
mod learning;
mod loaders;
mod provider_course;

const ARTICLES_PER_PAGE: usize = 6;

/// The query parameters the pages anyone may see read: the page cache keys
/// a page on its path and these alone, so any other parameter (a tracking
/// tag, or a made-up one to force a render) is served the same cached page.
/// A page that reads another parameter must be personal, never cached.
const PAGE_PARAMETERS: [&str; 7] = ["from", "number", "page", "section", "session", "sort", "type"];

/// The page cache's key for `path` and `query`: the path, then the
/// parameters of [`PAGE_PARAMETERS`] present, in that order.
pub fn cache_key(path: &str, query: &str) -> String {
    let read: Vec<String> =
        PAGE_PARAMETERS.iter().filter_map(|name| query_value(query, name).map(|value| format!("{name}={value}"))).collect();
    if read.is_empty() { path.to_owned() } else { format!("{path}?{}", read.join("&")) }
}

/// The value of `name` in a query string (`a=1&b=2`), if present.
fn query_value<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query.split('&').filter_map(|pair| pair.split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| v)
}

/// A certificate number as someone typed it into the check's address or
/// form (`+` and `%XX` still encoded): decoded, trimmed and in capitals, as
/// numbers are issued.
fn typed_certificate_number(raw: &str) -> String {
    let spaced = raw.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced).decode_utf8_lossy().trim().to_uppercase()
}

struct Found {
    head: PageHead,
    page: Page,
}

fn head(title: String, description: String, canonical: &str) -> PageHead {
    PageHead { title, description, canonical: canonical.to_owned() }
}

/// Pages about one buyer: never cached (here or by any proxy), never
/// indexed, shown only to the browser that bought or the buyer's account.
/// The pages of mailed links count too: their address holds a one-time
/// token, which no cache may keep.
pub fn is_personal(page: &Page) -> bool {
    matches!(
        page,
        Page::OnlineOrder(_)
            | Page::Enrollment(_)
            | Page::Balance(_)
            | Page::WaitingListConfirm(_)
            | Page::WaitingListClaim(_)
            | Page::WaitingListLeave(_)
            | Page::Feedback(_)
            | Page::Account(_)
            | Page::VerifyEmail(_)
            | Page::ResetPassword(_)
            | Page::StartCourse(_)
            | Page::Certificate(CertificatePage { number: Some(_), .. })
            | Page::Learn(_)
            | Page::Lesson(_)
            | Page::Quiz(_)
            | Page::ScormCourse(_)
            | Page::ProviderCourse(_)
            | Page::CourseClosed(_)
    )
}

/// Where a visitor returning from a failed payment belongs: back on
/// the checkout page, which then says the payment failed.
pub fn payment_failed_redirect(envelope: &PageEnvelope, query: &str) -> Option<&'static str> {
    let Page::Enrollment(enrollment) = &envelope.page else { return None };
    let failed = enrollment.status == EnrollmentStatus::Failed
        || (enrollment.status == EnrollmentStatus::Pending && query_value(query, "redirect_status") == Some("failed"));
    failed.then_some("/checkout/?status=failed")
}
/// A kind of page: the loader its path is resolved by.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Home,
    CourseIndex,
    CourseSection,
    Course,
    Calendar,
    Team,
    Blog,
    Article,
    OnlineOrder,
    /// The account forms, with their title and description.
    AccountForm(&'static str, &'static str, fn(AccountFormPage) -> Page),
    Checkout,
    Enrollment,
    Balance,
    WaitingListJoin,
    WaitingListConfirm,
    WaitingListClaim,
    WaitingListLeave,
    Feedback,
    Pathway,
    Careers,
    Offers,
    Certificate,
    /// `/learn/{course}/`: an online course's contents (decision 025).
    Learn,
    /// `/learn/{course}/{step}/`: one of its lessons or quizzes.
    LearnStep,
    /// A page of the college's own words (`content/pages/<slug>.md`) with
    /// the enquiry form it carries.
    Content(&'static str, Option<EnquiryKind>),
    /// A page staff added in the back office, at `/{slug}/` (decision 018).
    AddedPage,
}

impl Kind {
    /// The page of the college's words this kind of page is led by.
    fn editorial_slug(self) -> Option<&'static str> {
        match self {
            Kind::Content(slug, _) => Some(slug),
            Kind::Pathway => Some("pathway-to-aesthetics"),
            Kind::Careers => Some("careers"),
            Kind::Offers => Some("black-friday"),
            _ => None,
        }
    }
}

/// Whether a page without parameters belongs in the sitemap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listed {
    Yes,
    No,
}

/// Every page the site has, by path pattern (`{name}` is one segment,
/// `{*rest}` the rest of the path). Adding a page is one line here and a
/// loader; the sitemap lists each listed pattern without parameters.
const ROUTES: &[(&str, Kind, Listed)] = &[
    ("/", Kind::Home, Listed::Yes),
    ("/courses/", Kind::CourseIndex, Listed::Yes),
    ("/courses/{section}/", Kind::CourseSection, Listed::Yes),
    ("/courses/{section}/{course}/", Kind::Course, Listed::Yes),
    ("/training-course-calendar/", Kind::Calendar, Listed::Yes),
    ("/pathway-to-aesthetics/", Kind::Pathway, Listed::Yes),
    ("/team/", Kind::Team, Listed::Yes),
    ("/careers/", Kind::Careers, Listed::Yes),
    ("/blog/", Kind::Blog, Listed::Yes),
    ("/blog/{slug}/", Kind::Article, Listed::Yes),
    ("/black-friday", Kind::Offers, Listed::Yes),
    ("/about/", Kind::Content("about", None), Listed::Yes),
    ("/franchise-with-us/", Kind::Content("franchise-with-us", None), Listed::Yes),
    ("/for-business", Kind::Content("for-business", Some(EnquiryKind::Business)), Listed::Yes),
    ("/models/", Kind::Content("models", Some(EnquiryKind::Models)), Listed::Yes),
    ("/finance/", Kind::Content("finance", None), Listed::Yes),
    ("/contact/", Kind::Content("contact", Some(EnquiryKind::Contact)), Listed::Yes),
    ("/request-a-callback/", Kind::Content("request-a-callback", Some(EnquiryKind::Callback)), Listed::Yes),
    ("/privacy-policy/", Kind::Content("privacy-policy", None), Listed::Yes),
    ("/terms-and-conditions/", Kind::Content("terms-and-conditions", None), Listed::Yes),
    ("/checkout/", Kind::Checkout, Listed::No),
    ("/enrolment/{order}", Kind::Enrollment, Listed::No),
    // A booking's balance, paid from a mailed link (`?token=`) or the account.
    ("/pay-balance/", Kind::Balance, Listed::No),
    // The links of the waiting lists' mails (`?token=`).
    ("/waiting-list/join/", Kind::WaitingListJoin, Listed::No),
    ("/waiting-list/confirm/", Kind::WaitingListConfirm, Listed::No),
    ("/waiting-list/claim/", Kind::WaitingListClaim, Listed::No),
    ("/waiting-list/leave/", Kind::WaitingListLeave, Listed::No),
    // The link of the mail that asks for feedback after training (`?token=`).
    ("/feedback/", Kind::Feedback, Listed::No),
    ("/e-learning/order/{order}/", Kind::OnlineOrder, Listed::No),
    ("/sign-in/", Kind::AccountForm("Sign in", "Sign in to see your bookings, payments and online courses.", Page::SignIn), Listed::No),
    (
        "/sign-up/",
        Kind::AccountForm("Create your account", "Create an account to book faster and keep your training in one place.", Page::SignUp),
        Listed::No,
    ),
    // Decision 008: the links the account mails carry their token in `?token=`.
    (
        "/verify-email/",
        Kind::AccountForm("Confirm your email address", "Confirm your email address to finish creating your account.", Page::VerifyEmail),
        Listed::No,
    ),
    (
        "/forgot-password/",
        Kind::AccountForm("Reset your password", "We will email you a link to choose a new password.", Page::ForgotPassword),
        Listed::No,
    ),
    (
        "/reset-password/",
        Kind::AccountForm("Choose a new password", "Choose a new password for your account.", Page::ResetPassword),
        Listed::No,
    ),
    (
        "/start-course/",
        Kind::AccountForm("Start your course", "Choose your password to start your online course.", Page::StartCourse),
        Listed::No,
    ),
    // Any path under /account/ is the account area.
    ("/account/", Kind::AccountForm("Your account", "Your bookings, payments and online courses.", Page::Account), Listed::No),
    ("/account/{*rest}", Kind::AccountForm("Your account", "Your bookings, payments and online courses.", Page::Account), Listed::No),
    (
        "/newsletter/confirm/",
        Kind::AccountForm("Confirm your subscription", "Confirm that you would like our newsletter.", Page::ConfirmNewsletter),
        Listed::No,
    ),
    // Employers and insurers check a certificate by its number, looked up
    // at `/certificates/` (`?number=` when sent without JavaScript).
    ("/certificates/", Kind::Certificate, Listed::Yes),
    ("/certificates/{number}", Kind::Certificate, Listed::No),
    // The course player: a student's own, never listed.
    ("/learn/{course}/", Kind::Learn, Listed::No),
    ("/learn/{course}/{step}/", Kind::LearnStep, Listed::No),
    // Every fixed path above comes first; the sitemap lists added pages itself.
    ("/{page}/", Kind::AddedPage, Listed::No),
];

/// The first segments of what the server answers before any page.
const SERVER_PATHS: &[&str] = &["api", "admin", "assets", "media", "sandbox", "dev", "webhooks", "healthz", "_next"];

static ROUTER: LazyLock<matchit::Router<Kind>> = LazyLock::new(|| {
    let mut router = matchit::Router::new();
    for &(pattern, kind, _) in ROUTES {
        router.insert(pattern, kind).unwrap_or_else(|error| panic!("page route {pattern}: {error}"));
    }
    router
});

/// Where the page of the college's words with `slug` shows: on the fixed
/// page it leads, or at `/{slug}/` for a page staff added; `None` when that
/// address is another page's or the server's, or leads to the site's own
/// pages under it (`/enrolment/`, `/learn/`, `/waiting-list/`).
pub fn page_path(slug: &str) -> Option<String> {
    if let Some((pattern, _, _)) = ROUTES.iter().find(|(_, kind, _)| kind.editorial_slug() == Some(slug)) {
        return Some((*pattern).to_owned());
    }
    let path = format!("/{slug}/");
    let site_own = ROUTES.iter().any(|(pattern, kind, _)| !matches!(kind, Kind::AddedPage) && pattern.starts_with(&path));
    let free = !SERVER_PATHS.contains(&slug) && !site_own && ROUTER.at(&path).is_ok_and(|found| matches!(found.value, Kind::AddedPage));
    free.then_some(path)
}

/// Whether the page with `slug` is one the site's own pages are led by, so
/// it cannot be taken off the site.
pub fn is_fixed_page(slug: &str) -> bool {
    ROUTES.iter().any(|(_, kind, _)| kind.editorial_slug() == Some(slug))
}

/// The listed pages with a fixed path, for the sitemap.
pub fn sitemap_paths() -> impl Iterator<Item = &'static str> {
    ROUTES.iter().filter(|(pattern, _, listed)| *listed == Listed::Yes && !pattern.contains('{')).map(|(pattern, _, _)| *pattern)
}

/// Builds the page data for `path` and its `query` (without `?`) as of `now`.
/// `viewer` opens the pages about one buyer: anyone else gets "not found".
pub async fn load(state: &AppState, viewer: &Viewer, path: &str, query: &str, now: DateTime<Utc>) -> anyhow::Result<PageEnvelope> {
    let catalogue = state.catalogue.get(&state.db, now).await?;
    load_from(&state.db, &catalogue, state.payments.as_ref(), viewer, path, query, now).await
}

/// [`load`] reading `db` and `catalogue`: the site's own, or a preview's
/// (decision 018).
pub async fn load_from(
    db: &Db,
    catalogue: &Catalogue,
    payments: &dyn PaymentGateway,
    viewer: &Viewer,
    path: &str,
    query: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<PageEnvelope> {
    let record = catalogue.site();
    let found = match (record, ROUTER.at(path)) {
        (Some(record), Ok(matched)) => {
            let request = Request { db, payments, viewer, record, catalogue, path, query, now };
            request.load(*matched.value, &matched.params).await?
        }
        _ => None,
    };
    envelope(catalogue, path, query, now, found)
}

/// Staff's preview of online course `course_id` as `body` (its draft)
/// teaches it (decision 018): the course player's contents, or its lesson
/// or quiz `step`, at `path`, whose contents page is `player_url`. The
/// player's own loaders build it, as for a student who has just started.
pub async fn load_learning_preview(
    state: &AppState,
    course_id: &str,
    body: CourseBody,
    player_url: String,
    step: Option<&str>,
    path: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<PageEnvelope> {
    let catalogue = state.catalogue.get(&state.db, now).await?;
    let viewer = Viewer { buyer_hash: None, user_id: None };
    let found = match catalogue.site() {
        Some(record) => {
            let request = Request {
                db: &state.db,
                payments: state.payments.as_ref(),
                viewer: &viewer,
                record,
                catalogue: &catalogue,
                path,
                query: "",
                now,
            };
            request.learn_preview(course_id, body, player_url, step).await?
        }
        None => None,
    };
    envelope(&catalogue, path, "", now, found)
}

/// The page data of what a loader `found` at `path`, or of the not-found page.
fn envelope(catalogue: &Catalogue, path: &str, query: &str, now: DateTime<Utc>, found: Option<Found>) -> anyhow::Result<PageEnvelope> {
    let record = catalogue.site();
    let college = College::of(record.map(|r| &r.site)).name;
    let Found { head: page_head, page } = match found {
        Some(found) => found,
        None => Found {
            head: head(format!("Page not found | {college}"), "The page you were looking for could not be found.".to_owned(), path),
            page: Page::NotFound(NotFoundPage { suggestions: catalogue.featured_courses()?.into_iter().take(4).collect() }),
        },
    };
    Ok(PageEnvelope {
        path: if query.is_empty() { path.to_owned() } else { format!("{path}?{query}") },
        status: page.status(),
        now: london::wall_clock(now),
        nav: if record.is_some() { catalogue.navigation() } else { Navigation { sections: Vec::new() } },
        site: record.map(|r| r.site.clone()),
        head: page_head,
        page,
    })
}

/// One page request, for the loaders.
struct Request<'a> {
    db: &'a Db,
    payments: &'a dyn PaymentGateway,
    viewer: &'a Viewer,
    record: &'a SiteRecord,
    catalogue: &'a Catalogue,
    path: &'a str,
    query: &'a str,
    now: DateTime<Utc>,
}

type Loaded = anyhow::Result<Option<Found>>;

impl Request<'_> {
    async fn load(&self, kind: Kind, params: &matchit::Params<'_, '_>) -> Loaded {
        let param = |name: &str| params.get(name).unwrap_or_default();
        let slug = kind.editorial_slug().unwrap_or_else(|| param("page"));
        match kind {
            Kind::Home => self.home(),
            Kind::CourseIndex => self.course_index(),
            Kind::CourseSection => self.course_section(param("section")),
            Kind::Course => self.course().await,
            Kind::Calendar => self.calendar(),
            Kind::Team => self.team().await,
            Kind::Blog => self.blog().await,
            Kind::Article => self.article().await,
            Kind::OnlineOrder => self.online_order(param("order")).await,
            Kind::AccountForm(title, description, page) => {
                Ok(Some(self.found(title, description, page(AccountFormPage { heading: title.to_owned() }))))
            }
            Kind::Checkout => self.checkout(),
            Kind::Enrollment => self.enrollment(param("order")).await,
            Kind::Balance => self.balance().await,
            Kind::WaitingListJoin => self.waiting_list_join(),
            Kind::WaitingListConfirm => self.waiting_list_confirm().await,
            Kind::WaitingListClaim => self.waiting_list_claim().await,
            Kind::WaitingListLeave => self.waiting_list_leave().await,
            Kind::Feedback => self.feedback().await,
            Kind::Learn => self.learn(param("course")).await,
            Kind::LearnStep => self.learn_step(param("course"), param("step")).await,
            Kind::Certificate => {
                let number = params.get("number").or_else(|| query_value(self.query, "number")).map(typed_certificate_number);
                self.certificate(number.filter(|n| !n.is_empty())).await
            }
            Kind::Pathway => {
                self.editorial(slug, |text| async move {
                    Ok(Page::Pathway(PathwayPage { heading: text.title, body_html: text.body_html, levels: self.db.pathway().await? }))
                })
                .await
            }
            Kind::Careers => {
                self.editorial(slug, |text| async move {
                    Ok(Page::Careers(CareersPage { heading: text.title, body_html: text.body_html, jobs: self.db.jobs().await? }))
                })
                .await
            }
            Kind::Offers => {
                self.editorial(slug, |text| async move {
                    Ok(Page::Offers(OffersPage { heading: text.title, body_html: text.body_html, courses: self.catalogue.offers()? }))
                })
                .await
            }
            Kind::Content(_, form) => self.content_page(slug, form).await,
            Kind::AddedPage if page_path(slug).as_deref() == Some(self.path) => self.content_page(slug, None).await,
            Kind::AddedPage => Ok(None),
        }
    }

    /// The college's name, as its site data gives it.
    fn college(&self) -> &str {
        &self.record.site.title
    }

    fn titled(&self, title: &str) -> String {
        format!("{title} | {}", self.college())
    }

    /// A page titled `title` at its own path.
    fn found(&self, title: &str, description: &str, page: Page) -> Found {
        Found { head: head(self.titled(title), description.to_owned(), self.path), page }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_query_values() {
        assert_eq!(query_value("sort=price&page=2", "page"), Some("2"));
        assert_eq!(query_value("sort=price", "page"), None);
        assert_eq!(query_value("", "page"), None);
    }

    #[test]
    fn a_typed_certificate_number_is_read_as_issued() {
        assert_eq!(typed_certificate_number("+ca-2026-k7q2m9xd%20"), "CA-2026-K7Q2M9XD");
        assert_eq!(typed_certificate_number("EA-2026-04821"), "EA-2026-04821");
        assert_eq!(typed_certificate_number("%20+"), "");
    }

    #[test]
    fn every_route_is_a_valid_pattern() {
        let router = &*ROUTER;
        assert!(matches!(router.at("/courses/aesthetics/bb-glow/").map(|m| *m.value), Ok(Kind::Course)));
        assert!(matches!(router.at("/account/").map(|m| *m.value), Ok(Kind::AccountForm(..))));
        assert!(matches!(router.at("/account/bookings/2/").map(|m| *m.value), Ok(Kind::AccountForm(..))));
        assert!(matches!(router.at("/enrolment/abc").map(|m| m.params.get("order")), Ok(Some("abc"))));
        assert!(router.at("/enrolment/abc/def").is_err());
        assert!(router.at("/courses/a/b/c/").is_err());
    }

    #[test]
    fn an_added_page_never_takes_an_address_the_site_answers_or_leads_to() {
        assert_eq!(page_path("open-day").as_deref(), Some("/open-day/"));
        assert_eq!(page_path("about").as_deref(), Some("/about/"), "a fixed page keeps its own address");
        for taken in
            ["enrolment", "certificates", "learn", "waiting-list", "e-learning", "account", "courses", "blog", "checkout", "api", "admin"]
        {
            assert_eq!(page_path(taken), None, "{taken}");
        }
    }

    #[test]
    fn the_sitemap_lists_public_pages_with_fixed_paths() {
        let paths: Vec<&str> = sitemap_paths().collect();
        assert!(paths.contains(&"/") && paths.contains(&"/about/") && paths.contains(&"/black-friday"));
        assert!(!paths.iter().any(|p| p.contains('{') || ["/checkout/", "/sign-in/", "/account/"].contains(p)), "{paths:?}");
    }
}
