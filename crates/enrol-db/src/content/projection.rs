//! A content document's projection: the statements that write the rows the
//! pages read from its body (decision 018). The pack load and publishing in
//! the back office run the same function, so a document always shows the
//! same way, whichever wrote it. Each projection replaces only its own
//! document's rows: courses and sections are upserted (sessions, orders and
//! codes point at them), the rest deleted and written again. Over 300
//! lines because each kind's statements are written out in full, one
//! function per kind, beside one another.

use enrol_domain::content::{BlogBody, ContentBody, CourseBody, ImageRef, JobBody, PageBody, PathwayBody, SectionBody, SiteBody, TeamBody};
use enrol_domain::page::Hero;
use enrol_domain::site::{FileRef, FooterLogo, Image};

use super::{Param, Statement, media_url};
use crate::content::markdown;

/// The width and height of the images a body names.
pub trait ImageSizes: Sync {
    fn size(&self, file: &str) -> anyhow::Result<(u32, u32)>;
}

struct Writer<'a> {
    sizes: &'a dyn ImageSizes,
    statements: Vec<Statement>,
}

impl Writer<'_> {
    fn push(&mut self, sql: &str, params: Vec<Param>) {
        self.statements.push(Statement { sql: sql.to_owned(), params });
    }

    fn image(&self, image: &ImageRef) -> anyhow::Result<Image> {
        let (width, height) = self.sizes.size(&image.file)?;
        Ok(Image { url: media_url(&image.file), alt: image.alt.clone(), width, height })
    }

    fn image_json(&self, image: &ImageRef) -> anyhow::Result<Param> {
        Ok(Param::Text(serde_json::to_string(&self.image(image)?)?))
    }

    /// Puts the page at `url` in site search, replacing what it had there.
    fn index(&mut self, kind: &str, url: &str, title: &str, summary: &str, body: &str) {
        self.push("delete from search_document where url = $1", vec![Param::Text(url.to_owned())]);
        self.push(
            "insert into search_document (kind, url, title, summary, body) values ($1, $2, $3, $4, $5)",
            [kind, url, title, summary, body].into_iter().map(|v| Param::Text(v.to_owned())).collect(),
        );
    }
}

/// The public address of a course: its section's, then its slug.
pub fn course_url(key: &str, course: &CourseBody) -> String {
    format!("/courses/{}/{}/", course.section, course.slug.as_deref().unwrap_or(key))
}

/// The public address of document `key` with `body`, if it has a page of
/// its own.
pub fn path_of(key: &str, body: &ContentBody) -> Option<String> {
    match body {
        ContentBody::Course(course) => Some(course_url(key, course)),
        ContentBody::Section(section) => Some(crate::section_url(&section.slug)),
        ContentBody::Page(_) => Some(format!("/{key}/")),
        ContentBody::Blog(_) => Some(format!("/blog/{key}/")),
        ContentBody::Site(_) => Some("/".to_owned()),
        ContentBody::Team(_) => Some("/team/".to_owned()),
        ContentBody::Job(_) => Some("/careers/".to_owned()),
        ContentBody::Pathway(_) => Some("/pathway-to-aesthetics/".to_owned()),
    }
}

/// The statements that take document `key`, now `body`, off the site:
/// its rows go, but a course's stays (sessions, orders and codes point at
/// it), marked withdrawn, which no page or checkout shows. A section and
/// the site data cannot be withdrawn: `None`.
pub fn withdraw(key: &str, body: &ContentBody) -> Option<Vec<Statement>> {
    let one = |sql: &str, value: Param| Statement { sql: sql.to_owned(), params: vec![value] };
    let id = || Param::Text(key.to_owned());
    Some(match body {
        ContentBody::Site(_) | ContentBody::Section(_) => return None,
        ContentBody::Course(course) => vec![
            one("update course set withdrawn = true where id = $1", id()),
            one("delete from search_document where url = $1", Param::Text(course_url(key, course))),
        ],
        ContentBody::Pathway(level) => vec![one("delete from pathway_level where level = $1", Param::Int(level.level))],
        ContentBody::Page(_) => vec![one("delete from page where slug = $1", id())],
        ContentBody::Blog(_) => vec![
            one("delete from blog_post where slug = $1", id()),
            one("delete from search_document where url = $1", Param::Text(format!("/blog/{key}/"))),
        ],
        ContentBody::Team(_) => vec![one("delete from team_member where id = $1", id())],
        ContentBody::Job(job) => vec![one("delete from job where id = $1", Param::Text(job.id.clone()))],
    })
}

/// The statements that make the site show `body` as document `key`.
pub fn project(
    key: &str,
    body: &ContentBody,
    sizes: &dyn ImageSizes,
    now: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<Vec<Statement>> {
    let mut w = Writer { sizes, statements: Vec::new() };
    match body {
        ContentBody::Site(site) => project_site(&mut w, site)?,
        ContentBody::Section(section) => project_section(&mut w, section)?,
        ContentBody::Course(course) => project_course(&mut w, key, course, now)?,
        ContentBody::Pathway(level) => project_pathway(&mut w, level)?,
        ContentBody::Page(page) => project_page(&mut w, key, page),
        ContentBody::Blog(article) => project_article(&mut w, key, article)?,
        ContentBody::Team(member) => project_member(&mut w, key, member)?,
        ContentBody::Job(job) => project_job(&mut w, job),
    }
    Ok(w.statements)
}

fn project_site(w: &mut Writer<'_>, site: &SiteBody) -> anyhow::Result<()> {
    let logos: Vec<FooterLogo> = site
        .footer_logos
        .iter()
        .map(|logo| {
            w.sizes.size(&logo.file)?;
            Ok(FooterLogo { title: logo.title.clone(), file: FileRef { url: media_url(&logo.file) } })
        })
        .collect::<anyhow::Result<_>>()?;
    let hero = Hero { heading: site.hero.heading.clone(), text: site.hero.text.clone(), image: w.image(&site.hero.image)? };
    let params = vec![
        Param::Text(site.title.clone()),
        Param::Text(site.footer_text.clone()),
        Param::Text(site.address.clone()),
        Param::Text(site.phone_number.clone()),
        Param::Text(site.email_address.clone()),
        Param::Text(site.support_email_address.clone()),
        Param::Text(site.models_email_address.clone()),
        Param::Text(site.clinic_url.clone()),
        Param::Text(serde_json::to_string(&site.social_media)?),
        Param::Text(serde_json::to_string(&logos)?),
        Param::Text(serde_json::to_string(&site.footer_links)?),
        w.image_json(&site.logo)?,
        Param::Text(serde_json::to_string(&hero)?),
    ];
    w.push(
        "insert into site (id, title, footer_text, address, phone_number, email_address, support_email_address, \
         models_email_address, clinic_url, social_media, footer_logos, footer_links, logo, hero) \
         values (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
         on conflict (id) do update set title = excluded.title, footer_text = excluded.footer_text, \
         address = excluded.address, phone_number = excluded.phone_number, email_address = excluded.email_address, \
         support_email_address = excluded.support_email_address, models_email_address = excluded.models_email_address, \
         clinic_url = excluded.clinic_url, social_media = excluded.social_media, footer_logos = excluded.footer_logos, \
         footer_links = excluded.footer_links, logo = excluded.logo, hero = excluded.hero",
        params,
    );
    Ok(())
}

fn project_section(w: &mut Writer<'_>, section: &SectionBody) -> anyhow::Result<()> {
    let image = w.image_json(&section.image)?;
    w.push(
        "insert into section (slug, title, summary, intro, image, position) values ($1, $2, $3, $4, $5, $6) \
         on conflict (slug) do update set title = excluded.title, summary = excluded.summary, \
         intro = excluded.intro, image = excluded.image, position = excluded.position",
        vec![
            Param::Text(section.slug.clone()),
            Param::Text(section.title.clone()),
            Param::Text(section.summary.clone()),
            Param::Text(section.intro.clone()),
            image,
            Param::Int(section.position),
        ],
    );
    Ok(())
}

fn project_course(w: &mut Writer<'_>, key: &str, course: &CourseBody, now: chrono::DateTime<chrono::Utc>) -> anyhow::Result<()> {
    let url = course_url(key, course);
    let id = || Param::Text(key.to_owned());
    // A new address: what pointed at the old one points here, the old one
    // redirects here, and the new one, live again, redirects nowhere.
    w.push(
        "update content_redirect set to_path = $2 where to_path in (select url from course where id = $1)",
        vec![id(), Param::Text(url.clone())],
    );
    w.push(
        "insert into content_redirect (from_path, to_path, created_at) select url, $2, $3 from course where id = $1 and url <> $2 \
         on conflict (from_path) do update set to_path = excluded.to_path",
        vec![id(), Param::Text(url.clone()), Param::Timestamp(now)],
    );
    w.push("delete from content_redirect where from_path = $1", vec![Param::Text(url.clone())]);
    w.push("delete from search_document where url in (select url from course where id = $1)", vec![id()]);
    let kit = course.kit.as_ref();
    w.push(
        "insert into course (id, section_slug, url, title, summary, description_html, image, online, is_package, \
         is_new, featured, price_id, unit_amount, was_amount, duration, level, accreditation, prerequisites, \
         includes, kit_name, kit_price, kit_worth_price, kit_note, faqs, position, withdrawn, entry_requirements, what_to_bring, online_theory, \
         entry_online_course, readiness) \
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, false, $26, $27, $28, $29, \
         $30) \
         on conflict (id) do update set section_slug = excluded.section_slug, url = excluded.url, \
         title = excluded.title, summary = excluded.summary, description_html = excluded.description_html, \
         image = excluded.image, online = excluded.online, is_package = excluded.is_package, \
         is_new = excluded.is_new, featured = excluded.featured, price_id = excluded.price_id, \
         unit_amount = excluded.unit_amount, was_amount = excluded.was_amount, duration = excluded.duration, \
         level = excluded.level, accreditation = excluded.accreditation, prerequisites = excluded.prerequisites, \
         includes = excluded.includes, kit_name = excluded.kit_name, kit_price = excluded.kit_price, \
         kit_worth_price = excluded.kit_worth_price, kit_note = excluded.kit_note, faqs = excluded.faqs, \
         position = excluded.position, withdrawn = false, entry_requirements = excluded.entry_requirements, \
         what_to_bring = excluded.what_to_bring, online_theory = excluded.online_theory, \
         entry_online_course = excluded.entry_online_course, readiness = excluded.readiness",
        vec![
            id(),
            Param::Text(course.section.clone()),
            Param::Text(url.clone()),
            Param::Text(course.title.clone()),
            Param::Text(course.summary.clone()),
            Param::Text(markdown::to_html(&course.description)),
            w.image_json(&course.image)?,
            Param::Bool(course.online),
            Param::Bool(course.package),
            Param::Bool(course.section == "new" || course.also_in.iter().any(|s| s == "new")),
            Param::Bool(course.featured),
            Param::Text(course.price_id.clone()),
            Param::Int(course.price),
            Param::OptInt(course.was_price),
            Param::Text(course.duration.clone()),
            Param::Text(course.level.clone()),
            Param::Text(course.accreditation.clone()),
            Param::Text(course.prerequisites.clone()),
            Param::Text(serde_json::to_string(&course.includes)?),
            Param::OptText(kit.and_then(|k| k.name.clone())),
            Param::OptInt(kit.and_then(|k| k.price)),
            Param::OptInt(kit.and_then(|k| k.worth)),
            Param::OptText(kit.and_then(|k| k.note.clone())),
            Param::Text(serde_json::to_string(&course.faqs)?),
            Param::Int(course.position),
            Param::Bool(course.entry_requirements),
            Param::Text(serde_json::to_string(&course.what_to_bring)?),
            Param::OptText(course.online_theory.clone()),
            Param::OptText(course.entry_online_course.clone()),
            Param::OptText(course.readiness.as_ref().filter(|r| !r.is_empty()).map(serde_json::to_string).transpose()?),
        ],
    );
    w.push("delete from course_section where course_id = $1", vec![id()]);
    for (i, section) in std::iter::once(&course.section).chain(&course.also_in).enumerate() {
        w.push(
            "insert into course_section (course_id, section_slug, position) values ($1, $2, $3)",
            vec![id(), Param::Text(section.clone()), Param::Int(course.position * 10 + i as i64)],
        );
    }
    if !course.online {
        // The dates still to come at the course's old price follow it to the
        // new one; dates staff priced apart keep their own (decision 019).
        w.push(
            "update session set seat_price = case when seat_price = price then $2 else seat_price end, price = $2 \
             where event_id = $1 and date >= $3 and price = (select standard_price from event where id = $1)",
            vec![id(), Param::Int(course.price), Param::Date(enrol_domain::london::today(now))],
        );
        w.push(
            "insert into event (id, course_id, standard_price, was_price, is_package) values ($1, $1, $2, $3, $4) \
             on conflict (id) do update set standard_price = excluded.standard_price, \
             was_price = excluded.was_price, is_package = excluded.is_package",
            vec![id(), Param::Int(course.price), Param::OptInt(course.was_price), Param::Bool(course.package)],
        );
    }
    w.index("course", &url, &course.title, &course.summary, &format!("{}\n{}", course.description, course.includes.join("\n")));
    Ok(())
}

fn project_pathway(w: &mut Writer<'_>, level: &PathwayBody) -> anyhow::Result<()> {
    w.push("delete from pathway_level where level = $1", vec![Param::Int(level.level)]);
    w.push(
        "insert into pathway_level (level, title, summary, duration, units, price) values ($1, $2, $3, $4, $5, $6)",
        vec![
            Param::Int(level.level),
            Param::Text(level.title.clone()),
            Param::Text(level.summary.clone()),
            Param::Text(level.duration.clone()),
            Param::Text(serde_json::to_string(&level.units)?),
            Param::Int(level.price),
        ],
    );
    Ok(())
}

fn project_page(w: &mut Writer<'_>, key: &str, page: &PageBody) {
    w.push("delete from page where slug = $1", vec![Param::Text(key.to_owned())]);
    w.push(
        "insert into page (slug, title, description, body_html) values ($1, $2, $3, $4)",
        vec![
            Param::Text(key.to_owned()),
            Param::Text(page.title.clone()),
            Param::Text(page.description.clone()),
            Param::Text(markdown::to_html(&page.body)),
        ],
    );
}

fn project_article(w: &mut Writer<'_>, key: &str, article: &BlogBody) -> anyhow::Result<()> {
    let image = w.image_json(&article.image)?;
    w.push("delete from blog_post where slug = $1", vec![Param::Text(key.to_owned())]);
    w.push(
        "insert into blog_post (slug, title, excerpt, author, published_on, image, tags, body_html) \
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
        vec![
            Param::Text(key.to_owned()),
            Param::Text(article.title.clone()),
            Param::Text(article.excerpt.clone()),
            Param::Text(article.author.clone()),
            Param::Date(article.published),
            image,
            Param::Text(serde_json::to_string(&article.tags)?),
            Param::Text(markdown::to_html(&article.body)),
        ],
    );
    w.index("article", &format!("/blog/{key}/"), &article.title, &article.excerpt, &article.body);
    Ok(())
}

fn project_member(w: &mut Writer<'_>, key: &str, member: &TeamBody) -> anyhow::Result<()> {
    let image = w.image_json(&member.image)?;
    w.push("delete from team_member where id = $1", vec![Param::Text(key.to_owned())]);
    w.push(
        "insert into team_member (id, name, role, bio, image, position) values ($1, $2, $3, $4, $5, $6)",
        vec![
            Param::Text(key.to_owned()),
            Param::Text(member.name.clone()),
            Param::Text(member.role.clone()),
            Param::Text(member.bio.clone()),
            image,
            Param::Int(member.position),
        ],
    );
    Ok(())
}

fn project_job(w: &mut Writer<'_>, job: &JobBody) {
    w.push("delete from job where id = $1", vec![Param::Text(job.id.clone())]);
    w.push(
        "insert into job (id, title, location, kind, summary, description_html, position) values ($1, $2, $3, $4, $5, $6, $7)",
        vec![
            Param::Text(job.id.clone()),
            Param::Text(job.title.clone()),
            Param::Text(job.location.clone()),
            Param::Text(job.kind.clone()),
            Param::Text(job.summary.clone()),
            Param::Text(markdown::to_html(&job.description)),
            Param::Int(job.position),
        ],
    );
}
