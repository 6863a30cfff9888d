//! Which page a path is, and the data it is rendered from.

use chrono::{DateTime, Utc};

use enrol_db::{Catalogue, CourseOrder, Db, EnrollmentRecord, SiteRecord, section_url};
use enrol_domain::enquiry::EnquiryKind;
use enrol_domain::enrolment::{BookedCourse, balance_due_on, first_training_day};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::online_order::PricedLine;
use enrol_domain::page::{
    AccountFormPage, ArticlePage, BlogPage, CalendarPage, CareersPage, CheckoutPage, ContentPage, CourseIndexPage, CourseSectionPage,
    EnrolmentPage, EnrolmentStatus, HomePage, NotFoundPage, OffersPage, OnlineOrderPage, Page, PageEnvelope, PageHead, PathwayPage,
    SessionType, TeamPage,
};
use enrol_domain::site::Navigation;
use enrol_payments::PaymentGateway;

use crate::buyer::Viewer;

/// Articles per page of the blog.
const ARTICLES_PER_PAGE: usize = 6;

/// Pages made of the college's own words (`content/pages/<slug>.md`), at
/// their canonical paths, with the enquiry form each carries.
const CONTENT_PAGES: [(&str, &str, Option<EnquiryKind>); 9] = [
    ("/about/", "about", None),
    ("/franchise-with-us/", "franchise-with-us", None),
    ("/for-business", "for-business", Some(EnquiryKind::Business)),
    ("/models/", "models", Some(EnquiryKind::Models)),
    ("/finance/", "finance", None),
    ("/contact/", "contact", Some(EnquiryKind::Contact)),
    ("/request-a-callback/", "request-a-callback", Some(EnquiryKind::Callback)),
    ("/privacy-policy/", "privacy-policy", None),
    ("/terms-and-conditions/", "terms-and-conditions", None),
];

/// Every public path that is not a course, section or article, for the sitemap.
pub const FIXED_PATHS: [&str; 17] = [
    "/",
    "/courses/",
    "/training-course-calendar/",
    "/pathway-to-aesthetics/",
    "/team/",
    "/careers/",
    "/blog/",
    "/black-friday",
    "/about/",
    "/franchise-with-us/",
    "/for-business",
    "/models/",
    "/finance/",
    "/contact/",
    "/request-a-callback/",
    "/privacy-policy/",
    "/terms-and-conditions/",
];

/// The value of `name` in a query string (`a=1&b=2`), if present.
fn query_value<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query.split('&').filter_map(|pair| pair.split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| v)
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
    matches!(page, Page::OnlineOrder(_) | Page::Enrolment(_) | Page::Account(_) | Page::VerifyEmail(_) | Page::ResetPassword(_))
}

/// Where a visitor returning from a failed payment belongs (§8): back on
/// the checkout page, which then says the payment failed.
pub fn payment_failed_redirect(envelope: &PageEnvelope, query: &str) -> Option<&'static str> {
    let Page::Enrolment(enrolment) = &envelope.page else { return None };
    let failed = enrolment.status == EnrolmentStatus::Failed
        || (enrolment.status == EnrolmentStatus::Pending && query_value(query, "redirect_status") == Some("failed"));
    failed.then_some("/checkout/?status=failed")
}

fn enrolment_page(order: EnrollmentRecord) -> EnrolmentPage {
    let balance = Money::from_pence((order.quote.total.pence() - order.paid.pence()).max(0));
    EnrolmentPage {
        balance_due_on: first_training_day(&order.courses).filter(|_| balance > Money::ZERO).map(|day| balance_due_on(day).to_string()),
        lines: order.courses.iter().map(BookedCourse::line).collect(),
        order_id: order.id,
        status: order.status,
        total: order.quote.total,
        discount: order.quote.discount,
        paid: order.paid,
        balance,
        email: order.email,
        given_name: order.given_name,
    }
}

/// Builds the page data for `path` and its `query` (without `?`) as of `now`.
/// `viewer` opens the pages about one buyer: anyone else gets "not found".
pub async fn load(
    db: &Db,
    payments: &dyn PaymentGateway,
    viewer: &Viewer,
    path: &str,
    query: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<PageEnvelope> {
    let record = db.site().await?;
    let catalogue = db.catalogue(now).await?;
    let college = record.as_ref().map_or("Enrol", |r| r.site.title.as_str()).to_owned();
    let found = match &record {
        Some(record) => find(db, payments, viewer, record, &catalogue, path, query).await?,
        None => None,
    };
    let (status, Found { head: page_head, page }) = match found {
        Some(found) => (200, found),
        None => (
            404,
            Found {
                head: head(format!("Page not found | {college}"), "The page you were looking for could not be found.".to_owned(), path),
                page: Page::NotFound(NotFoundPage { suggestions: catalogue.featured_courses()?.into_iter().take(4).collect() }),
            },
        ),
    };
    Ok(PageEnvelope {
        path: if query.is_empty() { path.to_owned() } else { format!("{path}?{query}") },
        status,
        now: london::wall_clock(now),
        nav: if record.is_some() { catalogue.navigation() } else { Navigation { sections: Vec::new() } },
        site: record.map(|r| r.site),
        head: page_head,
        page,
    })
}

async fn find(
    db: &Db,
    payments: &dyn PaymentGateway,
    viewer: &Viewer,
    record: &SiteRecord,
    catalogue: &Catalogue,
    path: &str,
    query: &str,
) -> anyhow::Result<Option<Found>> {
    let college = &record.site.title;
    let titled = |title: &str| format!("{title} | {college}");
    let order = CourseOrder::parse(query_value(query, "sort").unwrap_or_default()).unwrap_or_default();

    if path == "/" {
        return Ok(Some(Found {
            head: head(format!("{college} | Beauty and Aesthetics Training Courses"), record.hero.text.clone(), "/"),
            page: Page::Home(HomePage {
                hero: record.hero.clone(),
                featured: catalogue.featured_courses()?,
                sections: catalogue.section_cards()?,
                upcoming: catalogue.upcoming(8),
            }),
        }));
    }
    if path == "/courses/" {
        let mut courses = catalogue.all_courses()?;
        order.apply(&mut courses);
        return Ok(Some(Found {
            head: head(
                titled("All Courses"),
                format!("Every course {college} offers: aesthetics, injectables, laser, hair, CPD, e-learning and more."),
                path,
            ),
            page: Page::CourseIndex(CourseIndexPage {
                heading: "Our Courses".to_owned(),
                intro: "Accredited beauty and aesthetics training, in person at our academy and online.".to_owned(),
                sections: catalogue.section_cards()?,
                courses,
            }),
        }));
    }
    if let Some(rest) = path.strip_prefix("/courses/").filter(|r| r.ends_with('/')) {
        let parts: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
        return Ok(match parts.as_slice() {
            [slug] => match catalogue.section(slug) {
                Some(section) => {
                    let mut courses = catalogue.section_courses(slug)?;
                    order.apply(&mut courses);
                    Some(Found {
                        head: head(titled(&section.title), section.summary.clone(), &section_url(slug)),
                        page: Page::CourseSection(CourseSectionPage {
                            slug: section.slug.clone(),
                            heading: section.title.clone(),
                            intro: section.intro.clone(),
                            sort: order.as_str().to_owned(),
                            courses,
                        }),
                    })
                }
                None => None,
            },
            [_, _] => catalogue.course_page(path)?.map(|course| Found {
                head: head(titled(&format!("{} | {}", course.title, course.section_title)), course.summary.clone(), &course.url),
                page: Page::Course(Box::new(course)),
            }),
            _ => None,
        });
    }
    if path == "/training-course-calendar/" {
        let section = query_value(query, "section").filter(|s| catalogue.section(s).is_some());
        let session_type = query_value(query, "type").and_then(SessionType::parse);
        let (months, sections) = catalogue.calendar(section, session_type);
        return Ok(Some(Found {
            head: head(
                titled("Training Course Calendar"),
                "Every upcoming training date with seats available, month by month.".to_owned(),
                path,
            ),
            page: Page::Calendar(CalendarPage {
                heading: "Training Course Calendar".to_owned(),
                months,
                sections,
                section: section.unwrap_or_default().to_owned(),
                session_type: session_type.map(|t| t.as_str().to_owned()).unwrap_or_default(),
            }),
        }));
    }
    if path == "/team/" {
        return Ok(Some(Found {
            head: head(titled("Meet the Team"), format!("The trainers, assessors and advisers of {college}."), path),
            page: Page::Team(TeamPage {
                heading: "Meet the Team".to_owned(),
                intro: format!("Practising clinicians and experienced educators: the people who will train and support you at {college}."),
                members: db.team().await?,
            }),
        }));
    }
    if path == "/blog/" {
        let articles = db.articles().await?;
        let page_count = articles.len().div_ceil(ARTICLES_PER_PAGE).max(1);
        let Some(page) = query_value(query, "page").map_or(Some(1), |p| p.parse::<usize>().ok()).filter(|p| (1..=page_count).contains(p))
        else {
            return Ok(None);
        };
        let posts = articles.into_iter().skip((page - 1) * ARTICLES_PER_PAGE).take(ARTICLES_PER_PAGE).map(|a| a.card).collect();
        let canonical = if page == 1 { path.to_owned() } else { format!("{path}?page={page}") };
        return Ok(Some(Found {
            head: head(
                titled(if page == 1 { "Blog".to_owned() } else { format!("Blog, page {page}") }.as_str()),
                "News, advice and career guidance for beauty and aesthetics practitioners.".to_owned(),
                &canonical,
            ),
            page: Page::Blog(BlogPage {
                heading: "Blog".to_owned(),
                posts,
                page: u32::try_from(page)?,
                page_count: u32::try_from(page_count)?,
            }),
        }));
    }
    if let Some(slug) = path.strip_prefix("/blog/").and_then(|r| r.strip_suffix('/')).filter(|s| !s.contains('/')) {
        let articles = db.articles().await?;
        let Some(index) = articles.iter().position(|a| a.card.url == path) else { return Ok(None) };
        let more = articles.iter().enumerate().filter(|(i, _)| *i != index).take(3).map(|(_, a)| a.card.clone()).collect();
        let article = articles.into_iter().nth(index).expect("found above");
        tracing::debug!(slug, "article");
        return Ok(Some(Found {
            head: head(titled(&article.card.title), article.card.excerpt.clone(), path),
            page: Page::Article(ArticlePage { post: article.card, body_html: article.body_html, more }),
        }));
    }
    if let Some(order_id) = path.strip_prefix("/e-learning/order/").and_then(|r| r.strip_suffix('/')).filter(|s| !s.contains('/')) {
        let order = db.online_order(order_id).await?.filter(|o| viewer.owns(o.owner_token_hash.as_deref(), o.user_id.as_deref()));
        let Some(order) = order else { return Ok(None) };
        return Ok(Some(Found {
            head: head(titled("Your order"), "Your e-learning order.".to_owned(), path),
            page: Page::OnlineOrder(OnlineOrderPage {
                order_id: order.id,
                status: order.status,
                lines: order.lines.iter().map(PricedLine::order_line).collect(),
                total: order.total,
                email: order.email,
            }),
        }));
    }
    let account_page = |title: &str, description: &str, page: fn(AccountFormPage) -> Page| Found {
        head: head(titled(title), description.to_owned(), path),
        page: page(AccountFormPage { heading: title.to_owned() }),
    };
    if path == "/sign-in/" {
        return Ok(Some(account_page("Sign in", "Sign in to see your bookings, payments and online courses.", Page::SignIn)));
    }
    if path == "/sign-up/" {
        return Ok(Some(account_page(
            "Create your account",
            "Create an account to book faster and keep your training in one place.",
            Page::SignUp,
        )));
    }
    // Decision 008: the links the account mails carry their token in `?token=`.
    if path == "/verify-email/" {
        return Ok(Some(account_page(
            "Confirm your email address",
            "Confirm your email address to finish creating your account.",
            Page::VerifyEmail,
        )));
    }
    if path == "/forgot-password/" {
        return Ok(Some(account_page("Reset your password", "We will email you a link to choose a new password.", Page::ForgotPassword)));
    }
    if path == "/reset-password/" {
        return Ok(Some(account_page("Choose a new password", "Choose a new password for your account.", Page::ResetPassword)));
    }
    // §2: any path containing /account/ is the account area.
    if path.starts_with("/account/") {
        return Ok(Some(account_page("Your account", "Your bookings, payments and online courses.", Page::Account)));
    }
    if path == "/checkout/" {
        return Ok(Some(Found {
            head: head(titled("Checkout"), format!("Enrol on your {college} courses: pay the booking fee or the full amount."), path),
            page: Page::Checkout(CheckoutPage {
                gateway: payments.name().to_owned(),
                publishable_key: payments.publishable_key().map(str::to_owned),
            }),
        }));
    }
    if let Some(order_id) = path.strip_prefix("/enrolment/").filter(|s| !s.is_empty() && !s.contains('/')) {
        let order = db.enrollment(order_id).await?.filter(|o| viewer.owns(o.owner_token_hash.as_deref(), o.user_id.as_deref()));
        let Some(order) = order else { return Ok(None) };
        return Ok(Some(Found {
            head: head(titled("Your booking"), "Your course booking.".to_owned(), path),
            page: Page::Enrolment(enrolment_page(order)),
        }));
    }
    let editorial = |slug: &'static str| async move { db.page(slug).await };
    if path == "/pathway-to-aesthetics/" {
        let Some(text) = editorial("pathway-to-aesthetics").await? else { return Ok(None) };
        return Ok(Some(Found {
            head: head(titled(&text.title), text.description, path),
            page: Page::Pathway(PathwayPage { heading: text.title, body_html: text.body_html, levels: db.pathway().await? }),
        }));
    }
    if path == "/careers/" {
        let Some(text) = editorial("careers").await? else { return Ok(None) };
        return Ok(Some(Found {
            head: head(titled(&text.title), text.description, path),
            page: Page::Careers(CareersPage { heading: text.title, body_html: text.body_html, jobs: db.jobs().await? }),
        }));
    }
    if path == "/black-friday" {
        let Some(text) = editorial("black-friday").await? else { return Ok(None) };
        return Ok(Some(Found {
            head: head(titled(&text.title), text.description, path),
            page: Page::Offers(OffersPage { heading: text.title, body_html: text.body_html, courses: catalogue.offers()? }),
        }));
    }
    if let Some(&(_, slug, form)) = CONTENT_PAGES.iter().find(|(p, _, _)| *p == path) {
        let Some(text) = editorial(slug).await? else { return Ok(None) };
        return Ok(Some(Found {
            head: head(titled(&text.title), text.description, path),
            page: Page::Content(ContentPage { slug: slug.to_owned(), heading: text.title, body_html: text.body_html, form }),
        }));
    }
    Ok(None)
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
    fn every_content_page_is_in_the_sitemap_list() {
        for (path, _, _) in CONTENT_PAGES {
            assert!(FIXED_PATHS.contains(&path), "{path}");
        }
    }
}
