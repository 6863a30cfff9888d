//! `/learn/{course}/` of a registration sold with a hosted LMS's course
//! (decision 029): the course, the student's access, and the form that asks
//! the server for their launch address there; after a launch that failed
//! (`?open=…`), what to do. The page needs nothing of the provider itself.

use enrol_db::CourseRegistration;
use enrol_domain::learning::access::Access;
use enrol_domain::learning::provider::{CourseProvider, LaunchProblem};
use enrol_domain::page::ProviderCoursePage;

use super::learning::learn_course;
use super::*;

impl Request<'_> {
    pub(super) async fn provider_course(&self, course_id: &str, registration: &CourseRegistration, provider: &CourseProvider) -> Loaded {
        let Some(body) = self.db.published_course(course_id).await? else { return Ok(None) };
        let course = learn_course(course_id, &body);
        let access = Access::of(registration.starts_at, registration.ends_at, registration.revoked_at, self.now);
        if !access.may_study() {
            return self.closed(course, access).map(Some);
        }
        let user_id = self.viewer.user_id.as_deref().unwrap_or_default();
        let problem = query_value(self.query, "open").and_then(LaunchProblem::parse);
        let page = ProviderCoursePage {
            certificate: self.db.course_certificate(user_id, course_id).await?,
            open_url: format!("/learn/{course_id}/open"),
            provider: provider.name().to_owned(),
            problem: problem.map(|problem| problem.message(provider.name())),
            access,
            course,
        };
        let title = page.course.title.clone();
        Ok(Some(self.found(&title, "Your online course, taught on the college's learning platform.", Page::ProviderCourse(page))))
    }
}
