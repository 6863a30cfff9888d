//! The data of each page: loaded by the server, rendered by React on the
//! server, embedded in the HTML and hydrated in the browser. Client-side
//! navigation fetches the same envelope from `/api/page-data`.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::site::{Navigation, SiteData};

mod catalogue;
mod editorial;
mod feedback;
mod learning;
mod orders;
mod waiting_list;

pub use catalogue::*;
pub use editorial::*;
pub use feedback::*;
pub use learning::*;
pub use orders::*;
pub use waiting_list::*;

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
    /// `/start-course/?token=…`, the link that starts a guest's online course.
    StartCourse(AccountFormPage),
    Account(AccountFormPage),
    /// `/newsletter/confirm/?token=…`, the link of the newsletter's mail.
    ConfirmNewsletter(AccountFormPage),
    Enrollment(EnrollmentPage),
    /// `/pay-balance/?token=…`: a booking's balance, paid with or without
    /// signing in (decision 015).
    Balance(BalancePage),
    /// `/waiting-list/join/?session=…`: joining a full date's waiting list.
    WaitingListJoin(WaitingListJoinPage),
    /// `/waiting-list/confirm/?token=…`: confirming a place asked for.
    WaitingListConfirm(WaitingListConfirmPage),
    /// `/waiting-list/claim/?token=…`: the offer of a freed seat.
    WaitingListClaim(WaitingListClaimPage),
    /// `/waiting-list/leave/?token=…`: leaving a waiting list.
    WaitingListLeave(WaitingListLeavePage),
    Content(ContentPage),
    /// `/certificates/{number}`: anyone checks a certificate's number.
    Certificate(CertificatePage),
    /// `/learn/{course}/`: an online course's contents and progress.
    Learn(LearnPage),
    /// `/learn/{course}/{lesson}/`.
    Lesson(LessonPage),
    /// `/learn/{course}/{quiz}/`.
    Quiz(QuizPage),
    /// `/learn/{course}/` of a course taught by a SCORM package.
    ScormCourse(ScormCoursePage),
    /// `/learn/{course}/` of a course a hosted LMS teaches.
    ProviderCourse(ProviderCoursePage),
    /// An online course whose access ended.
    CourseClosed(CourseClosedPage),
    /// `/feedback/?token=…`: a student's rating of a training day.
    Feedback(FeedbackPage),
    NotFound(NotFoundPage),
}

impl Page {
    /// The HTTP status the page answers with: "not found" for the site's
    /// not-found page, and for the check of a certificate number the
    /// college never issued, which still says so and offers another look.
    pub fn status(&self) -> u16 {
        match self {
            Page::NotFound(_) | Page::Certificate(CertificatePage { number: Some(_), certificate: None }) => 404,
            _ => 200,
        }
    }

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
            Page::StartCourse(_) => "startCourse",
            Page::Account(_) => "account",
            Page::ConfirmNewsletter(_) => "confirmNewsletter",
            Page::Enrollment(_) => "enrollment",
            Page::Balance(_) => "balance",
            Page::WaitingListJoin(_) => "waitingListJoin",
            Page::WaitingListConfirm(_) => "waitingListConfirm",
            Page::WaitingListClaim(_) => "waitingListClaim",
            Page::WaitingListLeave(_) => "waitingListLeave",
            Page::Content(_) => "content",
            Page::Certificate(_) => "certificate",
            Page::Learn(_) => "learn",
            Page::Lesson(_) => "lesson",
            Page::Quiz(_) => "quiz",
            Page::ScormCourse(_) => "scormCourse",
            Page::ProviderCourse(_) => "providerCourse",
            Page::CourseClosed(_) => "courseClosed",
            Page::Feedback(_) => "feedback",
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

/// `/checkout/` (docs/product.md#checkout). The basket itself lives in the browser;
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
/// account area: the same for every visitor; who is signed in is asked
/// for by the browser (decision 008).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AccountFormPage {
    pub heading: String,
}

/// The public check of a certificate (`/certificates/{number}`): who
/// holds it, for which course, since when; `certificate` is `None` for a
/// number the college never issued. At `/certificates/`, where a number
/// is looked up, `number` is `None` until one is asked for.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CertificatePage {
    pub number: Option<String>,
    pub certificate: Option<VerifiedCertificate>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct VerifiedCertificate {
    pub holder_name: String,
    pub course_title: String,
    /// `YYYY-MM-DD`.
    pub issued_on: String,
    /// Withdrawn by the college: no longer valid.
    pub revoked: bool,
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
            Page::StartCourse(form()),
            Page::Account(form()),
            Page::ConfirmNewsletter(form()),
            Page::Checkout(CheckoutPage { gateway: "sandbox".to_owned(), publishable_key: None }),
            Page::Certificate(CertificatePage { number: Some("EA-1".to_owned()), certificate: None }),
            Page::NotFound(NotFoundPage { suggestions: Vec::new() }),
        ];
        for page in pages {
            assert_eq!(serde_json::to_value(&page).unwrap()["kind"], page.kind());
        }
    }
}
