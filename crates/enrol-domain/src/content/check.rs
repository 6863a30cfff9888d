//! What a content document must be to be saved: its key, and a message
//! per field of its body that is missing, too long or out of range.

use super::{ContentBody, ContentKind};
use crate::contact::{FieldErrors, is_valid_email};
use crate::learning::curriculum::check as check_curriculum;
use crate::slug::is_slug;

/// The longest a one-line text may be; longer texts are Markdown bodies.
const LINE: usize = 300;
const TEXT: usize = 100_000;

/// Whether `key` can name a document of `kind`: a slug of lower-case
/// letters, digits and hyphens (the site data's key is `site`; a level's
/// is its number).
pub fn key_is_valid(kind: ContentKind, key: &str) -> bool {
    match kind {
        ContentKind::Site => key == "site",
        ContentKind::Pathway => key.parse::<u8>().is_ok_and(|level| (1..=9).contains(&level)),
        _ => is_slug(key),
    }
}

impl ContentBody {
    /// The checks a body must pass to be saved as `key`, a message per
    /// field. Whether a course's sections exist is for the database.
    pub fn check(&self, key: &str) -> FieldErrors {
        let mut errors = FieldErrors::new();
        let mut line = |field: &'static str, text: &str| {
            if text.trim().is_empty() {
                errors.insert(field, "Fill this in.");
            } else if text.chars().count() > LINE {
                errors.insert(field, "Keep this to 300 characters.");
            }
        };
        match self {
            ContentBody::Site(site) => {
                line("title", &site.title);
                line("address", &site.address);
                line("phone_number", &site.phone_number);
                line("email_address", &site.email_address);
                line("logo", &site.logo.alt);
                line("hero", &site.hero.heading);
            }
            ContentBody::Section(section) => {
                line("title", &section.title);
                line("summary", &section.summary);
                line("image", &section.image.alt);
                if section.slug != key {
                    errors.insert("slug", "A section's slug is its key and cannot change.");
                }
            }
            ContentBody::Course(course) => {
                line("title", &course.title);
                line("summary", &course.summary);
                line("duration", &course.duration);
                line("level", &course.level);
                line("image", &course.image.alt);
                if course.slug.as_deref().is_some_and(|slug| !is_slug(slug)) {
                    errors.insert("slug", "Use lower-case letters, digits and hyphens.");
                }
                if course.price <= 0 {
                    errors.insert("price", "Enter a price in pence above 0.");
                }
                if course.was_price.is_some_and(|was| was <= course.price) {
                    errors.insert("was_price", "A was-price must be above the price, or left empty.");
                }
                if course.kit.as_ref().is_some_and(|kit| kit.price.is_some_and(|p| p < 0) || kit.worth.is_some_and(|w| w < 0)) {
                    errors.insert("kit", "Kit prices cannot be negative.");
                }
                if course.what_to_bring.len() > 15
                    || course.what_to_bring.iter().any(|item| item.trim().is_empty() || item.chars().count() > 160)
                {
                    errors.insert("what_to_bring", "List up to 15 things, each in 160 characters or fewer.");
                }
                if course.online_theory.as_deref().is_some_and(|theory| !is_slug(theory) || course.online) {
                    errors.insert("online_theory", "Name the online course (its id) that an in-person course's students study first.");
                }
                if course
                    .entry_online_course
                    .as_deref()
                    .is_some_and(|met_by| !is_slug(met_by) || course.online || !course.entry_requirements)
                {
                    errors.insert(
                        "entry_online_course",
                        "Name the online course (its id) that meets an in-person course's entry requirements, or leave it blank.",
                    );
                }
                if let Some(readiness) = &course.readiness {
                    if course.online && !readiness.is_empty() {
                        errors.insert("readiness", "An online course has no training day to get ready for.");
                    } else if !readiness.check().is_empty() {
                        errors.insert("readiness", "Check what the course asks before training: each problem is named where it is.");
                    }
                }
                if course.faqs.iter().any(|faq| faq.question.trim().is_empty() || faq.answer.trim().is_empty()) {
                    errors.insert("faqs", "Every question needs an answer.");
                }
                if course.description.len() > TEXT {
                    errors.insert("description", "The description is too long.");
                }
                if let Some(learning) = &course.learning {
                    if !course.online {
                        errors.insert("learning", "Only an online course has lessons.");
                    } else if check_curriculum(learning).is_err() {
                        errors.insert("learning", "Check the lessons and quizzes: each problem is named where it is.");
                    }
                }
                if let Some(provider) = &course.provider {
                    if !course.online {
                        errors.insert("provider", "Only an online course is taught by a hosted LMS.");
                    } else if let Some(problem) = provider.problem() {
                        errors.insert("provider", problem);
                    }
                }
            }
            ContentBody::Pathway(level) => {
                line("title", &level.title);
                line("summary", &level.summary);
                if level.level.to_string() != key {
                    errors.insert("level", "A level's number is its key and cannot change.");
                }
                if level.price <= 0 {
                    errors.insert("price", "Enter a price in pence above 0.");
                }
            }
            ContentBody::Page(page) => {
                line("title", &page.title);
                line("description", &page.description);
                if page.body.len() > TEXT {
                    errors.insert("body", "The page is too long.");
                }
            }
            ContentBody::Blog(article) => {
                line("title", &article.title);
                line("excerpt", &article.excerpt);
                line("author", &article.author);
                line("image", &article.image.alt);
                if article.body.len() > TEXT {
                    errors.insert("body", "The article is too long.");
                }
            }
            ContentBody::Team(member) => {
                line("name", &member.name);
                line("role", &member.role);
                line("image", &member.image.alt);
            }
            ContentBody::Job(job) => {
                line("title", &job.title);
                line("location", &job.location);
                line("summary", &job.summary);
                if job.id != key {
                    errors.insert("id", "A job's id is its key and cannot change.");
                }
            }
        }
        if let ContentBody::Site(site) = self {
            // Mail is sent from the college's address unless the server
            // names a sender: one that cannot send would stop every mail.
            for (field, address) in [
                ("email_address", &site.email_address),
                ("support_email_address", &site.support_email_address),
                ("models_email_address", &site.models_email_address),
            ] {
                if !address.trim().is_empty() && !is_valid_email(address.trim()) {
                    errors.insert(field, "Enter an email address like hello@college.co.uk.");
                }
            }
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_their_names() {
        for kind in ContentKind::ALL {
            assert_eq!(ContentKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(ContentKind::parse("discount"), None);
    }

    #[test]
    fn keys_are_slugs_levels_or_the_site() {
        assert!(key_is_valid(ContentKind::Course, "chemical-peels"));
        assert!(!key_is_valid(ContentKind::Course, "Chemical Peels"));
        assert!(!key_is_valid(ContentKind::Course, "../etc"));
        assert!(!key_is_valid(ContentKind::Page, "-about"));
        assert!(key_is_valid(ContentKind::Pathway, "4"));
        assert!(!key_is_valid(ContentKind::Pathway, "four"));
        assert!(key_is_valid(ContentKind::Site, "site"));
        assert!(!key_is_valid(ContentKind::Site, "other"));
    }

    #[test]
    fn a_body_with_an_unknown_field_is_refused() {
        let page = serde_json::json!({"title": "About", "description": "Us", "body": "", "script": "x"});
        assert!(ContentBody::from_json(ContentKind::Page, page).is_err());
    }

    #[test]
    fn a_course_needs_a_price_and_a_was_price_above_it() {
        let course = serde_json::json!({
            "title": "Peels", "section": "aesthetics", "online": false, "package": false, "summary": "Skin",
            "image": {"file": "a.svg", "alt": "A peel"}, "price_id": "price_1", "price": 0, "was_price": 0,
            "duration": "1 day", "level": "Level 4", "accreditation": "", "prerequisites": "", "includes": [],
            "what_to_bring": ["Photo ID", " "], "kit": null, "description": "", "slug": "Bad Slug"
        });
        let errors = ContentBody::from_json(ContentKind::Course, course).unwrap().check("chemical-peels");
        assert_eq!(errors.keys().copied().collect::<Vec<_>>(), ["price", "slug", "was_price", "what_to_bring"]);
    }

    #[test]
    fn only_an_online_course_names_a_hosted_lms_and_its_course_id_is_checked() {
        let course = |online: bool, provider: serde_json::Value| {
            let body = serde_json::json!({
                "title": "Dermaplaning", "section": "elearning", "online": online, "package": false, "summary": "Online",
                "image": {"file": "a.svg", "alt": "A course"}, "price_id": "price_1", "price": 9_900, "was_price": null,
                "duration": "6 hours", "level": "Level 3", "accreditation": "", "prerequisites": "", "includes": [],
                "kit": null, "description": "", "provider": provider
            });
            ContentBody::from_json(ContentKind::Course, body).unwrap().check("dermaplaning-online")
        };
        assert!(course(true, serde_json::json!({"coassemble": {"course": "4321", "group": "level-4"}})).is_empty());
        let errors = course(false, serde_json::json!({"coassemble": {"course": "4321"}}));
        assert_eq!(errors.get("provider"), Some(&"Only an online course is taught by a hosted LMS."));
        assert!(course(true, serde_json::json!({"coassemble": {"course": "abc"}}))["provider"].contains("course id"));
    }
}
