//! One loader per page kind: what each page reads and how it is titled.

use super::*;
use crate::accounts::token_hash;
use enrol_domain::balance::MIN_PART_PAYMENT;
use enrol_domain::page::{
    ConfirmState, FeedbackPage, OfferState, OfferedSeat, WaitedDate, WaitingListClaimPage, WaitingListConfirmPage, WaitingListJoinPage,
    WaitingListLeavePage, calendar_span,
};
use enrol_domain::records::StudentPlan;

fn enrollment_page(order: EnrollmentRecord, today: NaiveDate) -> EnrollmentPage {
    let balance = order.owed();
    EnrollmentPage {
        balance_due_on: order.balance_due_on(today).filter(|_| balance > Money::ZERO).map(|day| day.to_string()),
        lines: order.courses.iter().map(BookedCourse::line).collect(),
        order_id: order.id,
        reference: order.reference,
        status: order.status,
        total: order.quote.total,
        discount: order.quote.discount,
        paid: order.paid,
        balance,
        email: order.email,
        given_name: order.given_name,
    }
}

fn balance_booking(
    order: EnrollmentRecord,
    today: NaiveDate,
    returned_payment_recorded: Option<bool>,
    plan: Option<StudentPlan>,
    max_instalments: u32,
) -> BalanceBooking {
    let booking = enrollment_page(order, today);
    BalanceBooking { min_payment: booking.balance.min(MIN_PART_PAYMENT), booking, returned_payment_recorded, plan, max_instalments }
}

impl Request<'_> {
    pub(super) fn sort(&self) -> CourseOrder {
        CourseOrder::parse(query_value(self.query, "sort").unwrap_or_default()).unwrap_or_default()
    }

    pub(super) fn home(&self) -> Loaded {
        let (catalogue, record) = (self.catalogue, self.record);
        Ok(Some(Found {
            head: head(format!("{} | Beauty and Aesthetics Training Courses", self.college()), record.hero.text.clone(), "/"),
            page: Page::Home(HomePage {
                hero: record.hero.clone(),
                featured: catalogue.featured_courses()?,
                sections: catalogue.section_cards()?,
                upcoming: catalogue.upcoming(8),
            }),
        }))
    }

    pub(super) fn course_index(&self) -> Loaded {
        let mut courses = self.catalogue.all_courses()?;
        self.sort().apply(&mut courses);
        Ok(Some(self.found(
            "All Courses",
            &format!("Every course {} offers: aesthetics, injectables, laser, hair, CPD, e-learning and more.", self.college()),
            Page::CourseIndex(CourseIndexPage {
                heading: "Our Courses".to_owned(),
                intro: "Accredited beauty and aesthetics training, in person at our academy and online.".to_owned(),
                sections: self.catalogue.section_cards()?,
                courses,
            }),
        )))
    }

    pub(super) fn course_section(&self, slug: &str) -> Loaded {
        let Some(section) = self.catalogue.section(slug) else { return Ok(None) };
        let mut courses = self.catalogue.section_courses(slug)?;
        let order = self.sort();
        order.apply(&mut courses);
        Ok(Some(Found {
            head: head(self.titled(&section.title), section.summary.clone(), &section_url(slug)),
            page: Page::CourseSection(CourseSectionPage {
                slug: section.slug.clone(),
                heading: section.title.clone(),
                intro: section.intro.clone(),
                sort: order.as_str().to_owned(),
                courses,
            }),
        }))
    }

    /// A course's page, with the reviews staff published (decision 034).
    pub(super) async fn course(&self) -> Loaded {
        let Some(mut course) = self.catalogue.course_page(self.path)? else { return Ok(None) };
        course.reviews = self.db.course_reviews(&course.id).await?;
        Ok(Some(Found {
            head: head(self.titled(&format!("{} | {}", course.title, course.section_title)), course.summary.clone(), &course.url),
            page: Page::Course(Box::new(course)),
        }))
    }

    pub(super) fn calendar(&self) -> Loaded {
        let section = query_value(self.query, "section").filter(|s| self.catalogue.section(s).is_some());
        let session_type = query_value(self.query, "type").and_then(SessionType::parse);
        let (months, sections) = self.catalogue.calendar(section, session_type);
        let Some(span) = calendar_span(months, query_value(self.query, "from")) else { return Ok(None) };
        Ok(Some(self.found(
            "Training Course Calendar",
            "Every upcoming training date with seats available, month by month.",
            Page::Calendar(CalendarPage {
                heading: "Training Course Calendar".to_owned(),
                months: span.months,
                months_listed: span.months_listed,
                total: span.total,
                earlier: span.earlier,
                later: span.later,
                sections,
                section: section.unwrap_or_default().to_owned(),
                session_type: session_type.map(|t| t.as_str().to_owned()).unwrap_or_default(),
            }),
        )))
    }

    pub(super) async fn team(&self) -> Loaded {
        Ok(Some(self.found(
            "Meet the Team",
            &format!("The trainers, assessors and advisers of {}.", self.college()),
            Page::Team(TeamPage {
                heading: "Meet the Team".to_owned(),
                intro: format!(
                    "Practising clinicians and experienced educators: the people who will train and support you at {}.",
                    self.college()
                ),
                members: self.db.team().await?,
            }),
        )))
    }

    pub(super) async fn blog(&self) -> Loaded {
        let articles = self.db.articles(london::today(self.now)).await?;
        let page_count = articles.len().div_ceil(ARTICLES_PER_PAGE).max(1);
        let Some(page) =
            query_value(self.query, "page").map_or(Some(1), |p| p.parse::<usize>().ok()).filter(|p| (1..=page_count).contains(p))
        else {
            return Ok(None);
        };
        let posts = articles.into_iter().skip((page - 1) * ARTICLES_PER_PAGE).take(ARTICLES_PER_PAGE).map(|a| a.card).collect();
        let canonical = if page == 1 { self.path.to_owned() } else { format!("{}?page={page}", self.path) };
        Ok(Some(Found {
            head: head(
                self.titled(if page == 1 { "Blog".to_owned() } else { format!("Blog, page {page}") }.as_str()),
                "News, advice and career guidance for beauty and aesthetics practitioners.".to_owned(),
                &canonical,
            ),
            page: Page::Blog(BlogPage {
                heading: "Blog".to_owned(),
                posts,
                page: u32::try_from(page)?,
                page_count: u32::try_from(page_count)?,
            }),
        }))
    }

    pub(super) async fn article(&self) -> Loaded {
        let articles = self.db.articles(london::today(self.now)).await?;
        let Some(index) = articles.iter().position(|a| a.card.url == self.path) else { return Ok(None) };
        let more = articles.iter().enumerate().filter(|(i, _)| *i != index).take(3).map(|(_, a)| a.card.clone()).collect();
        let article = articles.into_iter().nth(index).expect("found above");
        Ok(Some(Found {
            head: head(self.titled(&article.card.title), article.card.excerpt.clone(), self.path),
            page: Page::Article(ArticlePage { post: article.card, body_html: article.body_html, more }),
        }))
    }

    pub(super) async fn online_order(&self, order_id: &str) -> Loaded {
        let order = self.db.online_order(order_id).await?.filter(|o| self.viewer.owns(o.owner_token_hash.as_deref(), o.user_id.as_deref()));
        let Some(order) = order else { return Ok(None) };
        Ok(Some(self.found(
            "Your order",
            "Your e-learning order.",
            Page::OnlineOrder(OnlineOrderPage {
                order_id: order.id,
                reference: order.reference,
                status: order.status,
                lines: order.lines.iter().map(PricedLine::order_line).collect(),
                total: order.total,
                email: order.email,
                in_account: order.user_id.is_some(),
            }),
        )))
    }

    pub(super) fn checkout(&self) -> Loaded {
        Ok(Some(self.found(
            "Checkout",
            &format!("Enrol on your {} courses: pay the booking fee or the full amount.", self.college()),
            Page::Checkout(CheckoutPage {
                gateway: self.payments.kind().as_str().to_owned(),
                publishable_key: self.payments.publishable_key().map(str::to_owned),
            }),
        )))
    }

    pub(super) async fn enrollment(&self, order_id: &str) -> Loaded {
        let order = self.db.enrollment(order_id).await?.filter(|o| self.viewer.owns(o.owner_token_hash.as_deref(), o.user_id.as_deref()));
        let Some(order) = order else { return Ok(None) };
        Ok(Some(self.found("Your booking", "Your course booking.", Page::Enrollment(enrollment_page(order, london::today(self.now))))))
    }

    /// The booking a balance link pays, and whether the payment the visitor
    /// returned from (`?payment_intent=`) is recorded yet.
    pub(super) async fn balance(&self) -> Loaded {
        let token = query_value(self.query, "token").filter(|t| !t.is_empty());
        let order = match token {
            Some(token) => self.db.balance_link_enrollment(&token_hash(token), self.now).await?,
            None => None,
        };
        let booking = match order {
            Some(order) => {
                let returned = match query_value(self.query, "payment_intent") {
                    Some(intent) => Some(self.db.payment_recorded(&order.id, intent).await?),
                    None => None,
                };
                let plan = self.db.student_plan(&order.id).await?;
                let max_instalments = self.db.plan_settings().await?.max_instalments;
                Some(balance_booking(order, london::today(self.now), returned, plan, max_instalments))
            }
            None => None,
        };
        Ok(Some(self.found(
            "Pay your balance",
            "Pay the balance of your course booking.",
            Page::Balance(BalancePage {
                booking,
                gateway: self.payments.kind().as_str().to_owned(),
                publishable_key: self.payments.publishable_key().map(str::to_owned),
            }),
        )))
    }

    /// The form that joins the waiting list of the date `?session=` names.
    pub(super) fn waiting_list_join(&self) -> Loaded {
        let session_id = query_value(self.query, "session").unwrap_or_default();
        let today = london::today(self.now);
        let session = self.catalogue.session_with_course(session_id).and_then(|(title, url, session)| {
            (session.date >= today).then(|| WaitedDate {
                session_id: session.id.clone(),
                course_title: title.to_owned(),
                course_url: url.to_owned(),
                date: session.date.to_string(),
                session_type: session.session_type,
                full: session.free_seats() == 0,
            })
        });
        Ok(Some(self.found(
            "Join the waiting list",
            "Wait for a seat on a fully booked date.",
            Page::WaitingListJoin(WaitingListJoinPage { session }),
        )))
    }

    /// The place a waiting-list confirmation link confirms.
    pub(super) async fn waiting_list_confirm(&self) -> Loaded {
        let confirmation = match query_value(self.query, "token").filter(|t| !t.is_empty()) {
            Some(token) => self.db.waiting_confirmation(&token_hash(token), self.now).await?,
            None => None,
        };
        let page = match confirmation {
            Some(c) => {
                WaitingListConfirmPage { state: c.state, waiting_for: Some(format!("{} on {}", c.title, london::long_date(c.date))) }
            }
            None => WaitingListConfirmPage { state: ConfirmState::Closed, waiting_for: None },
        };
        Ok(Some(self.found("Confirm your place", "Confirm your place on a course's waiting list.", Page::WaitingListConfirm(page))))
    }

    /// The offer a waiting-list claim link opens: the seat, until when it
    /// is kept, or that it is closed.
    pub(super) async fn waiting_list_claim(&self) -> Loaded {
        let token = query_value(self.query, "token").filter(|t| !t.is_empty());
        let offer = match token {
            Some(token) => self.db.offer(&token_hash(token), self.now).await?,
            None => None,
        };
        let page = match offer {
            Some(offer) => WaitingListClaimPage {
                state: offer.state,
                seat: self.offered_seat(&offer.course_id, &offer.session_id)?,
                expires_at: offer.expires_at.map(london::wall_clock),
            },
            None => WaitingListClaimPage { state: OfferState::Closed, seat: None, expires_at: None },
        };
        Ok(Some(self.found("A seat for you", "Claim the seat offered to you from the waiting list.", Page::WaitingListClaim(page))))
    }

    fn offered_seat(&self, course_id: &str, session_id: &str) -> anyhow::Result<Option<OfferedSeat>> {
        let Some(course) = self.catalogue.course_by_id(course_id)? else { return Ok(None) };
        let Some(session) = self.catalogue.dated_sessions(course_id).iter().find(|s| s.id == session_id) else { return Ok(None) };
        Ok(course.images.first().map(|image| OfferedSeat {
            course_id: course.id.clone(),
            title: course.title.clone(),
            url: course.url.clone(),
            image: image.clone(),
            price: session.price,
            was_price: course.was_price,
            is_package: course.is_package,
            session_id: session.id.clone(),
            date: session.date.to_string(),
            session_type: session.session_type,
        }))
    }

    /// The page a waiting list's leave link opens.
    pub(super) async fn waiting_list_leave(&self) -> Loaded {
        let waiting_for = match query_value(self.query, "token").filter(|t| !t.is_empty()) {
            Some(token) => self.db.waiting_for(&token_hash(token)).await?,
            None => None,
        };
        Ok(Some(self.found(
            "Leave the waiting list",
            "Leave a course's waiting list.",
            Page::WaitingListLeave(WaitingListLeavePage { waiting_for }),
        )))
    }

    /// The page the feedback mail's link opens (decision 034).
    pub(super) async fn feedback(&self) -> Loaded {
        let asked = match query_value(self.query, "token").filter(|t| !t.is_empty()) {
            Some(token) => self.db.feedback_asked(&token_hash(token)).await?,
            None => None,
        };
        Ok(Some(self.found("How was your training?", "Rate your training day.", Page::Feedback(FeedbackPage { asked }))))
    }

    /// The public check of a certificate `number`, or where one is looked
    /// up; an unknown number is a page that says so and offers another
    /// look, answering "not found" ([`Page::status`]).
    pub(super) async fn certificate(&self, number: Option<String>) -> Loaded {
        let certificate = match &number {
            Some(number) => self.db.certificate_by_number(number).await?.map(|c| VerifiedCertificate {
                holder_name: c.holder_name,
                course_title: c.course_title,
                issued_on: c.issued_on.to_string(),
                revoked: c.revoked,
            }),
            None => None,
        };
        Ok(Some(self.found(
            "Check a certificate",
            "Check that a certificate was issued by the college, by its number.",
            Page::Certificate(CertificatePage { number, certificate }),
        )))
    }

    /// The page of the college's words with `slug`, and the enquiry form
    /// it carries.
    pub(super) async fn content_page(&self, slug: &str, form: Option<EnquiryKind>) -> Loaded {
        self.editorial(slug, |text| async move {
            Ok(Page::Content(ContentPage { slug: slug.to_owned(), heading: text.title, body_html: text.body_html, form }))
        })
        .await
    }

    /// A page led by the college's words in `content/pages/<slug>.md`;
    /// not found until they are written.
    pub(super) async fn editorial<F, Fut>(&self, slug: &str, page: F) -> Loaded
    where
        F: FnOnce(PageRecord) -> Fut,
        Fut: Future<Output = anyhow::Result<Page>>,
    {
        let Some(text) = self.db.page(slug).await? else { return Ok(None) };
        let (title, description) = (text.title.clone(), text.description.clone());
        Ok(Some(Found { head: head(self.titled(&title), description, self.path), page: page(text).await? }))
    }
}
