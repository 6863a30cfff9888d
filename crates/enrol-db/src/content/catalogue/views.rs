//! What the pages read of a loaded catalogue: navigation, cards, the
//! calendar, course pages, in the order a listing asks for.

use super::*;

impl Catalogue {
    /// The site data and hero, as the content gives them; `None` before
    /// any content is loaded.
    pub fn site(&self) -> Option<&SiteRecord> {
        self.content.site.as_ref()
    }

    pub fn as_of(&self) -> CatalogueVersion {
        self.as_of
    }

    pub fn section(&self, slug: &str) -> Option<&SectionRow> {
        self.content.sections.iter().find(|s| s.slug == slug)
    }

    pub fn navigation(&self) -> Navigation {
        Navigation {
            sections: self
                .content
                .sections
                .iter()
                .map(|s| NavSection {
                    slug: s.slug.clone(),
                    title: s.title.clone(),
                    url: section_url(&s.slug),
                    courses: self.member_rows(&s.slug).map(|c| TextLink { text: c.title.clone(), link: c.url.clone() }).collect(),
                })
                .collect(),
        }
    }

    pub fn section_cards(&self) -> anyhow::Result<Vec<SectionCard>> {
        self.content
            .sections
            .iter()
            .map(|s| {
                Ok(SectionCard {
                    slug: s.slug.clone(),
                    title: s.title.clone(),
                    url: section_url(&s.slug),
                    summary: s.summary.clone(),
                    image: json(&s.image, "section image")?,
                    course_count: u32::try_from(s.course_count).unwrap_or(0),
                })
            })
            .collect()
    }

    fn member_rows(&self, slug: &str) -> impl Iterator<Item = &CourseRow> {
        self.content.members.get(slug).into_iter().flatten().map(|&i| &self.content.courses[i])
    }

    /// What course `course` shows as its price: what its dates charge.
    fn shown_price(&self, course: &CourseRow) -> ShownPrice {
        let open: Vec<Money> = self.sessions.get(&course.id).into_iter().flatten().map(|s| s.price).collect();
        let full: Vec<Money> = self.dated_sessions(&course.id).iter().filter(|s| s.free_seats() == 0).map(|s| s.price).collect();
        shown_price(Money::from_pence(course.unit_amount), &open, &full)
    }

    /// Course `id`'s dates still to come with their prices, and which of
    /// them follow the course's own price.
    pub fn date_prices(&self, id: &str) -> Vec<DatePrice> {
        let Some(course) = self.content.courses.iter().find(|c| c.id == id) else { return Vec::new() };
        let course_price = Money::from_pence(course.unit_amount);
        self.dated_sessions(id)
            .iter()
            .map(|s| DatePrice {
                session_id: s.id.clone(),
                date: s.date,
                price: s.price,
                own_price: !follows_course_price(s.price, course_price),
            })
            .collect()
    }

    /// Whether course `id` asks its buyers to confirm its entry requirements.
    pub fn has_entry_requirements(&self, id: &str) -> bool {
        self.content.courses.iter().any(|c| c.id == id && c.entry_requirements)
    }

    /// The price the course at `url` shows, if there is one.
    pub fn price_at(&self, url: &str) -> Option<ShownPrice> {
        self.content.courses.iter().find(|c| c.url == url).map(|c| self.shown_price(c))
    }

    fn card(&self, course: &CourseRow) -> anyhow::Result<CourseCard> {
        let shown = self.shown_price(course);
        Ok(CourseCard {
            id: course.id.clone(),
            title: course.title.clone(),
            url: course.url.clone(),
            section_title: course.section_title.clone(),
            summary: course.summary.clone(),
            image: json::<Image>(&course.image, "course image")?,
            online: course.online,
            is_package: course.is_package,
            is_new: course.is_new,
            price: shown.price,
            price_from: shown.from,
            was_price: course.was_amount.map(Money::from_pence),
            duration: course.duration.clone(),
            level: course.level.clone(),
            next_session: self.sessions.get(&course.id).and_then(|s| s.first()).cloned(),
        })
    }

    /// The courses listed in a section.
    pub fn section_courses(&self, slug: &str) -> anyhow::Result<Vec<CourseCard>> {
        self.member_rows(slug).map(|c| self.card(c)).collect()
    }

    pub fn all_courses(&self) -> anyhow::Result<Vec<CourseCard>> {
        self.content.courses.iter().map(|c| self.card(c)).collect()
    }

    pub fn featured_courses(&self) -> anyhow::Result<Vec<CourseCard>> {
        self.content.courses.iter().filter(|c| c.featured).map(|c| self.card(c)).collect()
    }

    /// The next sessions with a free seat across all courses.
    pub fn upcoming(&self, limit: usize) -> Vec<UpcomingSession> {
        let mut all: Vec<UpcomingSession> = self
            .content
            .courses
            .iter()
            .flat_map(|c| {
                self.sessions.get(&c.id).into_iter().flatten().map(|s| UpcomingSession {
                    session: s.clone(),
                    course_title: c.title.clone(),
                    course_url: c.url.clone(),
                })
            })
            .collect();
        all.sort_by(|a, b| a.session.start.cmp(&b.session.start).then_with(|| a.session.id.cmp(&b.session.id)));
        all.truncate(limit);
        all
    }

    /// Courses on offer: those with a was-price, biggest saving first.
    pub fn offers(&self) -> anyhow::Result<Vec<CourseCard>> {
        let mut cards: Vec<CourseCard> =
            self.content.courses.iter().filter(|c| c.was_amount.is_some()).map(|c| self.card(c)).collect::<anyhow::Result<_>>()?;
        cards.sort_by_key(|c| std::cmp::Reverse(c.was_price.map_or(0, |w| w.pence() - c.price.pence())));
        Ok(cards)
    }

    /// Upcoming sessions with a free seat grouped by month, optionally only
    /// of one section and one session type; and the sections that have any.
    pub fn calendar(&self, section: Option<&str>, session_type: Option<SessionType>) -> (Vec<CalendarMonth>, Vec<SectionOption>) {
        let mut entries: Vec<CalendarEntry> = Vec::new();
        for course in &self.content.courses {
            let Some(sessions) = self.sessions.get(&course.id) else { continue };
            let listed_in =
                |slug: &str| self.content.members.get(slug).is_some_and(|m| m.iter().any(|&i| self.content.courses[i].id == course.id));
            if section.is_some_and(|slug| !listed_in(slug)) {
                continue;
            }
            for session in sessions.iter().filter(|s| session_type.is_none_or(|t| s.session_type == t)) {
                entries.push(CalendarEntry {
                    session: session.clone(),
                    course_title: course.title.clone(),
                    course_url: course.url.clone(),
                    section_slug: course.section_slug.clone(),
                    section_title: course.section_title.clone(),
                });
            }
        }
        entries.sort_by(|a, b| a.session.start.cmp(&b.session.start).then_with(|| a.course_title.cmp(&b.course_title)));
        let mut months: Vec<CalendarMonth> = Vec::new();
        for entry in entries {
            let month = entry.session.date.format("%Y-%m").to_string();
            match months.last_mut() {
                Some(last) if last.month == month => last.sessions.push(entry),
                _ => months.push(CalendarMonth { month, sessions: vec![entry] }),
            }
        }
        let sections = self
            .content
            .sections
            .iter()
            .filter(|s| self.member_rows(&s.slug).any(|c| self.sessions.contains_key(&c.id)))
            .map(|s| SectionOption { slug: s.slug.clone(), title: s.title.clone() })
            .collect();
        (months, sections)
    }

    /// The course with id `id`, as its page shows it.
    /// Whether course `id` has dated sessions still to come, full or not.
    pub fn has_dates(&self, id: &str) -> bool {
        self.dated.contains_key(id)
    }

    /// The session `session_id` still to come, full or not, with its
    /// course's title and page.
    pub fn session_with_course(&self, session_id: &str) -> Option<(&str, &str, &Session)> {
        self.dated.iter().find_map(|(course_id, sessions)| {
            let session = sessions.iter().find(|s| s.id == session_id)?;
            let course = self.content.courses.iter().find(|c| &c.id == course_id)?;
            Some((course.title.as_str(), course.url.as_str(), session))
        })
    }

    /// Course `id`'s sessions still to come, full or not, soonest first.
    pub fn dated_sessions(&self, id: &str) -> &[Session] {
        self.dated.get(id).map_or(&[], Vec::as_slice)
    }

    pub fn course_by_id(&self, id: &str) -> anyhow::Result<Option<CoursePage>> {
        match self.content.courses.iter().find(|c| c.id == id) {
            Some(course) => self.course_page(&course.url),
            None => Ok(None),
        }
    }

    /// The course page at `url` (`/courses/<section>/<slug>/`).
    pub fn course_page(&self, url: &str) -> anyhow::Result<Option<CoursePage>> {
        let Some(course) = self.content.courses.iter().find(|c| c.url == url) else { return Ok(None) };
        let image: Image = json(&course.image, "course image")?;
        let kit = match (&course.kit_name, &course.kit_note) {
            (None, None) => None,
            (name, note) => Some(Kit {
                name: name.clone().unwrap_or_default(),
                price_pounds: course.kit_price,
                worth_pounds: course.kit_worth_price,
                note: note.clone().unwrap_or_default(),
            }),
        };
        let related = self
            .member_rows(&course.section_slug)
            .filter(|c| c.id != course.id)
            .take(4)
            .map(|c| self.card(c))
            .collect::<anyhow::Result<_>>()?;
        let shown = self.shown_price(course);
        Ok(Some(CoursePage {
            id: course.id.clone(),
            title: course.title.clone(),
            url: course.url.clone(),
            section_slug: course.section_slug.clone(),
            section_title: course.section_title.clone(),
            summary: course.summary.clone(),
            description_html: course.description_html.clone(),
            images: vec![image],
            includes: json(&course.includes, "course includes")?,
            what_to_bring: json(&course.what_to_bring, "what to bring")?,
            duration: course.duration.clone(),
            level: course.level.clone(),
            accreditation: course.accreditation.clone(),
            prerequisites: course.prerequisites.clone(),
            entry_requirements: course.entry_requirements,
            entry_online_course: course.entry_online_course.as_deref().and_then(|id| {
                let met_by = self.content.courses.iter().find(|c| c.id == id && c.online)?;
                Some(TextLink { text: met_by.title.clone(), link: met_by.url.clone() })
            }),
            online: course.online,
            is_package: course.is_package,
            pricing: Pricing { id: course.price_id.clone(), unit_amount: shown.price },
            price_from: shown.from,
            was_price: course.was_amount.map(Money::from_pence),
            kit,
            upsell: course.upsell(),
            faqs: json::<Vec<Faq>>(&course.faqs, "course FAQs")?,
            sessions: self.sessions.get(&course.id).cloned().unwrap_or_default(),
            full_sessions: self.dated_sessions(&course.id).iter().filter(|s| s.free_seats() == 0).cloned().collect(),
            related,
            reviews: Default::default(),
        }))
    }
}

/// How a listing is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CourseOrder {
    /// The college's own order.
    #[default]
    Featured,
    Name,
    PriceLowToHigh,
    PriceHighToLow,
    NextDate,
}

impl CourseOrder {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "" | "featured" => Some(Self::Featured),
            "name" => Some(Self::Name),
            "price" => Some(Self::PriceLowToHigh),
            "price-desc" => Some(Self::PriceHighToLow),
            "date" => Some(Self::NextDate),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Featured => "featured",
            Self::Name => "name",
            Self::PriceLowToHigh => "price",
            Self::PriceHighToLow => "price-desc",
            Self::NextDate => "date",
        }
    }

    /// Sorts cards in place; the sort is stable, so ties keep the college's order.
    pub fn apply(self, cards: &mut [CourseCard]) {
        match self {
            Self::Featured => {}
            Self::Name => cards.sort_by_key(|card| card.title.to_lowercase()),
            Self::PriceLowToHigh => cards.sort_by_key(|c| c.price),
            Self::PriceHighToLow => cards.sort_by_key(|c| std::cmp::Reverse(c.price)),
            // Courses without a date (online, or fully booked) come last.
            Self::NextDate => cards.sort_by(|a, b| {
                let key = |c: &CourseCard| c.next_session.as_ref().map(|s| s.start.clone());
                match (key(a), key(b)) {
                    (Some(x), Some(y)) => x.cmp(&y),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                }
            }),
        }
    }
}

pub fn section_url(slug: &str) -> String {
    format!("/courses/{slug}/")
}
