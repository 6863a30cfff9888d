//! JSON-LD for search engines: the college, its courses with offers in GBP
//! and their dated sessions, and breadcrumbs. Written into the page head as
//! data blocks, which browsers never execute.

use serde_json::{Value, json};

use enrol_domain::feedback::CourseReviews;
use enrol_domain::money::Money;
use enrol_domain::page::{CoursePage, Page, PageEnvelope, SessionType};
use enrol_domain::site::SiteData;

/// Pounds with two decimals, as schema.org prices are written.
fn price(amount: Money) -> String {
    format!("{}.{:02}", amount.pence() / 100, amount.pence() % 100)
}

fn organization(site: &SiteData, public_url: &str) -> Value {
    json!({
        "@type": "EducationalOrganization",
        "@id": format!("{public_url}/#organization"),
        "name": site.title,
        "url": format!("{public_url}/"),
        "logo": format!("{public_url}{}", site.logo.url),
        "telephone": enrol_domain::phone::to_international(&site.phone_number),
        "email": site.email_address,
        "address": { "@type": "PostalAddress", "streetAddress": site.address, "addressCountry": "GB" },
        "sameAs": [site.social_media.facebook, site.social_media.instagram, site.social_media.youtube, site.social_media.tiktok],
    })
}

fn breadcrumbs(public_url: &str, trail: &[(&str, &str)]) -> Value {
    let items: Vec<Value> = trail
        .iter()
        .enumerate()
        .map(|(i, (name, path))| json!({ "@type": "ListItem", "position": i + 1, "name": name, "item": format!("{public_url}{path}") }))
        .collect();
    json!({ "@type": "BreadcrumbList", "itemListElement": items })
}

fn course(course: &CoursePage, site: &SiteData, public_url: &str) -> Value {
    let provider = json!({ "@id": format!("{public_url}/#organization") });
    let mut offer = json!({
        "@type": "Offer",
        "category": if course.online { "Online course" } else { "In-person course" },
        "price": price(course.pricing.unit_amount),
        "priceCurrency": "GBP",
        "availability": "https://schema.org/InStock",
        "url": format!("{public_url}{}", course.url),
    });
    // The dates' prices, as the page shows them: a range when they differ.
    if let Some(high) = course.sessions.iter().map(|s| s.price).max().filter(|_| course.price_from) {
        offer["@type"] = json!("AggregateOffer");
        offer["lowPrice"] = offer["price"].take();
        offer["highPrice"] = json!(price(high));
        offer["offerCount"] = json!(course.sessions.len());
        if let Some(fields) = offer.as_object_mut() {
            fields.remove("price");
        }
    }
    let instances: Vec<Value> = if course.online {
        vec![json!({ "@type": "CourseInstance", "courseMode": "online", "courseWorkload": course.duration })]
    } else {
        course
            .sessions
            .iter()
            .map(|s| {
                let mode = match s.session_type {
                    SessionType::Onsite => "onsite",
                    SessionType::Virtual => "online",
                    SessionType::Blended => "blended",
                };
                json!({
                    "@type": "CourseInstance",
                    "courseMode": mode,
                    "startDate": s.start,
                    "endDate": s.end,
                    "location": { "@type": "Place", "name": site.title, "address": site.address },
                    "offers": { "@type": "Offer", "price": price(s.price), "priceCurrency": "GBP", "availability": "https://schema.org/InStock" },
                })
            })
            .collect()
    };
    let mut node = json!({
        "@type": "Course",
        "name": course.title,
        "description": course.summary,
        "url": format!("{public_url}{}", course.url),
        "image": course.images.first().map(|i| format!("{public_url}{}", i.url)),
        "provider": provider,
        "educationalLevel": course.level,
        "offers": [offer],
        "hasCourseInstance": instances,
    });
    if let Some(fields) = node.as_object_mut() {
        fields.extend(ratings(&course.reviews));
    }
    node
}

/// A course's rating and reviews, only from the reviews students agreed to
/// publish and staff published (decision 034): none when there are none.
fn ratings(reviews: &CourseReviews) -> Vec<(String, Value)> {
    let Some(average) = reviews.average else { return Vec::new() };
    let shown: Vec<Value> = reviews
        .reviews
        .iter()
        .map(|review| {
            json!({
                "@type": "Review",
                "reviewRating": { "@type": "Rating", "ratingValue": review.rating, "bestRating": 5, "worstRating": 1 },
                "author": { "@type": "Person", "name": review.author },
                "datePublished": review.date,
                "reviewBody": review.comment,
            })
        })
        .collect();
    vec![
        (
            "aggregateRating".to_owned(),
            json!({ "@type": "AggregateRating", "ratingValue": average, "reviewCount": reviews.count, "bestRating": 5, "worstRating": 1 }),
        ),
        ("review".to_owned(), Value::Array(shown)),
    ]
}

/// The JSON-LD graph of a page, if it has one.
pub fn graph(envelope: &PageEnvelope, public_url: &str) -> Option<Value> {
    let site = envelope.site.as_ref()?;
    let mut nodes = vec![organization(site, public_url)];
    match &envelope.page {
        Page::Course(page) => {
            nodes.push(course(page, site, public_url));
            let section_path = format!("/courses/{}/", page.section_slug);
            nodes.push(breadcrumbs(
                public_url,
                &[("Home", "/"), ("Courses", "/courses/"), (&page.section_title, &section_path), (&page.title, &page.url)],
            ));
        }
        Page::CourseSection(section) => {
            let path = format!("/courses/{}/", section.slug);
            nodes.push(breadcrumbs(public_url, &[("Home", "/"), ("Courses", "/courses/"), (&section.heading, &path)]));
        }
        Page::CourseIndex(_) => nodes.push(breadcrumbs(public_url, &[("Home", "/"), ("Courses", "/courses/")])),
        Page::Article(article) => {
            let post = &article.post;
            nodes.push(json!({
                "@type": "BlogPosting",
                "headline": post.title,
                "description": post.excerpt,
                "datePublished": post.published,
                "author": { "@type": "Person", "name": post.author },
                "image": format!("{public_url}{}", post.image.url),
                "url": format!("{public_url}{}", post.url),
                "publisher": { "@id": format!("{public_url}/#organization") },
            }));
            nodes.push(breadcrumbs(public_url, &[("Home", "/"), ("Blog", "/blog/"), (&post.title, &post.url)]));
        }
        Page::Home(_)
        | Page::Calendar(_)
        | Page::Pathway(_)
        | Page::Team(_)
        | Page::Careers(_)
        | Page::Blog(_)
        | Page::Offers(_)
        | Page::OnlineOrder(_)
        | Page::Checkout(_)
        | Page::SignIn(_)
        | Page::SignUp(_)
        | Page::VerifyEmail(_)
        | Page::ForgotPassword(_)
        | Page::ResetPassword(_)
        | Page::StartCourse(_)
        | Page::Certificate(_)
        | Page::ConfirmNewsletter(_)
        | Page::Account(_)
        | Page::Enrollment(_)
        | Page::Balance(_)
        | Page::WaitingListJoin(_)
        | Page::WaitingListClaim(_)
        | Page::WaitingListLeave(_)
        | Page::Feedback(_)
        | Page::WaitingListConfirm(_)
        | Page::Content(_)
        | Page::Learn(_)
        | Page::Lesson(_)
        | Page::Quiz(_)
        | Page::ScormCourse(_)
        | Page::ProviderCourse(_)
        | Page::CourseClosed(_)
        | Page::NotFound(_) => {}
    }
    Some(json!({ "@context": "https://schema.org", "@graph": nodes }))
}

#[cfg(test)]
mod tests {
    use super::{price, ratings};
    use enrol_domain::feedback::{CourseReview, CourseReviews};
    use enrol_domain::money::Money;

    #[test]
    fn a_course_without_published_reviews_has_no_rating() {
        assert!(ratings(&CourseReviews::default()).is_empty());
        let review = |rating| CourseReview { rating, comment: "Clear".to_owned(), author: "Sam".to_owned(), date: "2026-11-28".to_owned() };
        let given = ratings(&CourseReviews::of(vec![review(5), review(2)]));
        assert_eq!(given[0].1["ratingValue"], 3.5);
        assert_eq!(given[0].1["reviewCount"], 2);
        assert_eq!(given[1].1.as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn prices_are_pounds_with_pence() {
        assert_eq!(price(Money::from_pence(125_000)), "1250.00");
        assert_eq!(price(Money::from_pence(3999)), "39.99");
        assert_eq!(price(Money::from_pence(5)), "0.05");
    }
}
