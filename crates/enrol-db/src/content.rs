//! The demo college's content pack in `content/`: YAML and Markdown files and
//! their images. Loading is idempotent: every row is upserted by its key, rows
//! the pack no longer has are removed, and seat counts already taken by real
//! bookings are kept.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail, ensure};
use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};
use serde::Deserialize;

use enrol_domain::page::{Faq, Hero, SessionType};
use enrol_domain::site::{FileRef, FooterLinks, FooterLogo, Image, SocialMedia};

use crate::markdown;
use crate::{Db, on_pool};

/// A parsed content pack, ready to write.
#[derive(Debug)]
pub struct ContentPack {
    statements: Vec<Statement>,
    pub counts: Counts,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub sections: usize,
    pub in_person_courses: usize,
    pub online_courses: usize,
    pub sessions: usize,
    pub upsells: usize,
    pub blog_posts: usize,
    pub pages: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageRef {
    file: String,
    alt: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SiteFile {
    title: String,
    footer_text: String,
    address: String,
    phone_number: String,
    email_address: String,
    support_email_address: String,
    models_email_address: String,
    clinic_url: String,
    logo: ImageRef,
    social_media: SocialMedia,
    footer_logos: Vec<FooterLogoFile>,
    footer_links: FooterLinks,
    hero: HeroFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FooterLogoFile {
    title: String,
    file: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeroFile {
    heading: String,
    text: String,
    image: ImageRef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SectionFile {
    slug: String,
    title: String,
    summary: String,
    intro: String,
    image: ImageRef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CourseFile {
    title: String,
    section: String,
    #[serde(default)]
    also_in: Vec<String>,
    online: bool,
    package: bool,
    #[serde(default)]
    featured: bool,
    summary: String,
    image: ImageRef,
    price_id: String,
    price: i64,
    was_price: Option<i64>,
    duration: String,
    level: String,
    accreditation: String,
    prerequisites: String,
    includes: Vec<String>,
    kit: Option<KitFile>,
    #[serde(default)]
    faqs: Vec<Faq>,
    description: String,
    #[serde(default)]
    sessions: Vec<SessionFile>,
    upsell: Option<UpsellFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KitFile {
    name: Option<String>,
    price: Option<i64>,
    worth: Option<i64>,
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionFile {
    id: String,
    offset_days: i64,
    start: String,
    end: String,
    #[serde(rename = "type")]
    session_type: SessionType,
    seats: i64,
    registrations: i64,
    price: i64,
    seat_price: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpsellFile {
    title: String,
    description: String,
    cta: String,
    product_id: String,
    price: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlogFront {
    title: String,
    excerpt: String,
    author: String,
    published: NaiveDate,
    image: ImageRef,
    tags: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PageFront {
    title: String,
    description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamFile {
    name: String,
    role: String,
    bio: String,
    image: ImageRef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JobFile {
    id: String,
    title: String,
    location: String,
    kind: String,
    summary: String,
    description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PathwayFile {
    level: i64,
    title: String,
    summary: String,
    duration: String,
    units: Vec<String>,
    price: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
struct DiscountFile {
    code: String,
    #[serde(rename = "type")]
    kind: DiscountKind,
    value: i64,
    expires: Option<NaiveDate>,
    max_uses: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum DiscountKind {
    Pound,
    Percent,
}

/// One value bound to a statement.
#[derive(Debug, Clone)]
enum Param {
    Text(String),
    OptText(Option<String>),
    Int(i64),
    OptInt(Option<i64>),
    Bool(bool),
    Date(NaiveDate),
    OptDate(Option<NaiveDate>),
    DateTime(NaiveDateTime),
}

#[derive(Debug)]
struct Statement {
    sql: String,
    params: Vec<Param>,
}

struct Reader<'a> {
    root: &'a Path,
    statements: Vec<Statement>,
    counts: Counts,
}

impl Reader<'_> {
    fn push(&mut self, sql: &str, params: Vec<Param>) {
        self.statements.push(Statement { sql: sql.to_owned(), params });
    }

    /// Removes the rows of `table` whose key is not among `keep`.
    fn sweep(&mut self, table: &str, key: &str, keep: &[String]) {
        let placeholders: Vec<String> = (1..=keep.len()).map(|i| format!("${i}")).collect();
        let sql = if keep.is_empty() {
            format!("delete from {table}")
        } else {
            format!("delete from {table} where {key} not in ({})", placeholders.join(", "))
        };
        self.statements.push(Statement { sql, params: keep.iter().cloned().map(Param::Text).collect() });
    }

    /// Adds a page to site search.
    fn index(&mut self, kind: &str, url: &str, title: &str, summary: &str, body: &str) {
        self.push(
            "insert into search_document (kind, url, title, summary, body) values ($1, $2, $3, $4, $5)",
            [kind, url, title, summary, body].into_iter().map(|v| Param::Text(v.to_owned())).collect(),
        );
    }

    fn yaml<T: serde::de::DeserializeOwned>(&self, relative: &str) -> anyhow::Result<T> {
        let path = self.root.join(relative);
        let text = std::fs::read_to_string(&path).with_context(|| format!("Failed to read {}", path.display()))?;
        serde_yaml::from_str(&text).with_context(|| format!("Failed to parse {}", path.display()))
    }

    fn image(&self, image: &ImageRef) -> anyhow::Result<Image> {
        let (width, height) = image_size(&self.root.join("images").join(&image.file))?;
        Ok(Image { url: media_url(&image.file), alt: image.alt.clone(), width, height })
    }

    fn image_json(&self, image: &ImageRef) -> anyhow::Result<Param> {
        Ok(Param::Text(serde_json::to_string(&self.image(image)?)?))
    }
}

fn media_url(file: &str) -> String {
    format!("/media/{file}")
}

/// Width and height from the root `<svg>` element's attributes.
fn image_size(path: &Path) -> anyhow::Result<(u32, u32)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("Missing image {}", path.display()))?;
    let start = text.find("<svg").with_context(|| format!("{} is not an SVG", path.display()))?;
    let tag = &text[start..start + text[start..].find('>').unwrap_or(text.len() - start)];
    let attribute = |name: &str| -> anyhow::Result<u32> {
        let needle = format!(" {name}=\"");
        let from = tag.find(&needle).with_context(|| format!("{} has no {name} attribute", path.display()))? + needle.len();
        let value = &tag[from..from + tag[from..].find('"').unwrap_or(0)];
        value.trim_end_matches("px").parse().with_context(|| format!("{} has a bad {name}: {value:?}", path.display()))
    };
    Ok((attribute("width")?, attribute("height")?))
}

/// `*.yaml` or `*.md` files of a folder, sorted by name.
fn files(folder: &Path, extension: &str) -> anyhow::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).with_context(|| format!("Failed to list {}", folder.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == extension) {
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

fn slug_of(path: &Path) -> anyhow::Result<String> {
    path.file_stem().and_then(|s| s.to_str()).map(str::to_owned).context("File name is not UTF-8")
}

/// Splits `---\nfront matter\n---\nbody`.
fn front_matter<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<(T, String)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("Failed to read {}", path.display()))?;
    let rest = text.strip_prefix("---\n").with_context(|| format!("{} has no front matter", path.display()))?;
    let end = rest.find("\n---\n").with_context(|| format!("{} has unterminated front matter", path.display()))?;
    let front = serde_yaml::from_str(&rest[..end]).with_context(|| format!("Failed to parse the front matter of {}", path.display()))?;
    Ok((front, rest[end + 5..].to_owned()))
}

fn wall_clock(date: NaiveDate, time: &str) -> anyhow::Result<NaiveDateTime> {
    let time = NaiveTime::parse_from_str(time, "%H:%M").with_context(|| format!("Bad session time {time:?}"))?;
    Ok(date.and_time(time))
}

impl ContentPack {
    /// Reads and checks the pack in `root`; session dates are `offset_days`
    /// after `today` (London).
    pub fn read(root: &Path, today: NaiveDate) -> anyhow::Result<Self> {
        let mut r = Reader { root, statements: Vec::new(), counts: Counts::default() };
        read_site(&mut r)?;
        let sections = read_sections(&mut r)?;
        read_courses(&mut r, &sections, today)?;
        read_pages(&mut r)?;
        read_blog(&mut r)?;
        read_people(&mut r)?;
        read_discounts(&mut r)?;
        r.push(
            "insert into content_version (id, version, loaded_at) values (1, 1, current_timestamp) \
             on conflict (id) do update set version = content_version.version + 1, loaded_at = current_timestamp",
            vec![],
        );
        Ok(ContentPack { statements: r.statements, counts: r.counts })
    }

    /// Writes the pack in one transaction.
    pub async fn write(&self, db: &Db) -> anyhow::Result<()> {
        on_pool!(db, pool => {
            let mut tx = pool.begin().await.context("Failed to begin the content transaction")?;
            for statement in &self.statements {
                let mut query = sqlx::query(sqlx::AssertSqlSafe(statement.sql.clone()));
                for param in &statement.params {
                    query = match param.clone() {
                        Param::Text(v) => query.bind(v),
                        Param::OptText(v) => query.bind(v),
                        Param::Int(v) => query.bind(v),
                        Param::OptInt(v) => query.bind(v),
                        Param::Bool(v) => query.bind(v),
                        Param::Date(v) => query.bind(v),
                        Param::OptDate(v) => query.bind(v),
                        Param::DateTime(v) => query.bind(v),
                    };
                }
                query.execute(&mut *tx).await.with_context(|| format!("Failed to load content: {}", statement.sql))?;
            }
            tx.commit().await.context("Failed to commit the content")
        })
    }
}

fn read_site(r: &mut Reader<'_>) -> anyhow::Result<()> {
    let site: SiteFile = r.yaml("site.yaml")?;
    let logos: Vec<FooterLogo> = site
        .footer_logos
        .iter()
        .map(|logo| {
            image_size(&r.root.join("images").join(&logo.file))?;
            Ok(FooterLogo { title: logo.title.clone(), file: FileRef { url: media_url(&logo.file) } })
        })
        .collect::<anyhow::Result<_>>()?;
    let hero = Hero { heading: site.hero.heading, text: site.hero.text, image: r.image(&site.hero.image)? };
    let params = vec![
        Param::Text(site.title),
        Param::Text(site.footer_text),
        Param::Text(site.address),
        Param::Text(site.phone_number),
        Param::Text(site.email_address),
        Param::Text(site.support_email_address),
        Param::Text(site.models_email_address),
        Param::Text(site.clinic_url),
        Param::Text(serde_json::to_string(&site.social_media)?),
        Param::Text(serde_json::to_string(&logos)?),
        Param::Text(serde_json::to_string(&site.footer_links)?),
        r.image_json(&site.logo)?,
        Param::Text(serde_json::to_string(&hero)?),
    ];
    r.push(
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

fn read_sections(r: &mut Reader<'_>) -> anyhow::Result<Vec<String>> {
    let sections: Vec<SectionFile> = r.yaml("sections.yaml")?;
    let mut slugs = Vec::new();
    for (position, section) in sections.iter().enumerate() {
        let image = r.image_json(&section.image)?;
        r.push(
            "insert into section (slug, title, summary, intro, image, position) values ($1, $2, $3, $4, $5, $6) \
             on conflict (slug) do update set title = excluded.title, summary = excluded.summary, \
             intro = excluded.intro, image = excluded.image, position = excluded.position",
            vec![
                Param::Text(section.slug.clone()),
                Param::Text(section.title.clone()),
                Param::Text(section.summary.clone()),
                Param::Text(section.intro.clone()),
                image,
                Param::Int(position as i64),
            ],
        );
        slugs.push(section.slug.clone());
    }
    r.counts.sections = slugs.len();
    Ok(slugs)
}

fn read_courses(r: &mut Reader<'_>, sections: &[String], today: NaiveDate) -> anyhow::Result<()> {
    let mut course_ids = Vec::new();
    let mut session_ids = Vec::new();
    let mut seen_sessions = HashSet::new();
    r.push("delete from course_section", vec![]);
    r.push("delete from upsell", vec![]);
    r.push("delete from search_document where kind = 'course'", vec![]);
    for (position, path) in files(&r.root.join("courses"), "yaml")?.iter().enumerate() {
        let slug = slug_of(path)?;
        let course: CourseFile = r.yaml(&format!("courses/{slug}.yaml"))?;
        let context = || format!("in course {slug}");
        ensure!(sections.contains(&course.section), "Unknown section {:?} {}", course.section, context());
        for other in &course.also_in {
            ensure!(sections.contains(other), "Unknown also_in section {other:?} {}", context());
        }
        ensure!(course.price > 0, "Price must be positive {}", context());
        ensure!(!course.online || course.sessions.is_empty(), "Online courses have no sessions {}", context());
        ensure!(course.online || course.upsell.is_none(), "Only online courses carry upsells {}", context());
        let url = format!("/courses/{}/{slug}/", course.section);
        r.index("course", &url, &course.title, &course.summary, &format!("{}\n{}", course.description, course.includes.join("\n")));
        let kit = course.kit.as_ref();
        r.push(
            "insert into course (id, section_slug, url, title, summary, description_html, image, online, is_package, \
             is_new, featured, price_id, unit_amount, was_amount, duration, level, accreditation, prerequisites, \
             includes, kit_name, kit_price, kit_worth_price, kit_note, faqs, position) \
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25) \
             on conflict (id) do update set section_slug = excluded.section_slug, url = excluded.url, \
             title = excluded.title, summary = excluded.summary, description_html = excluded.description_html, \
             image = excluded.image, online = excluded.online, is_package = excluded.is_package, \
             is_new = excluded.is_new, featured = excluded.featured, price_id = excluded.price_id, \
             unit_amount = excluded.unit_amount, was_amount = excluded.was_amount, duration = excluded.duration, \
             level = excluded.level, accreditation = excluded.accreditation, prerequisites = excluded.prerequisites, \
             includes = excluded.includes, kit_name = excluded.kit_name, kit_price = excluded.kit_price, \
             kit_worth_price = excluded.kit_worth_price, kit_note = excluded.kit_note, faqs = excluded.faqs, \
             position = excluded.position",
            vec![
                Param::Text(slug.clone()),
                Param::Text(course.section.clone()),
                Param::Text(url),
                Param::Text(course.title.clone()),
                Param::Text(course.summary.clone()),
                Param::Text(markdown::to_html(&course.description)),
                r.image_json(&course.image)?,
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
                Param::Int(position as i64),
            ],
        );
        for (i, section) in std::iter::once(&course.section).chain(&course.also_in).enumerate() {
            r.push(
                "insert into course_section (course_id, section_slug, position) values ($1, $2, $3)",
                vec![Param::Text(slug.clone()), Param::Text(section.clone()), Param::Int((position * 10 + i) as i64)],
            );
        }
        if let Some(upsell) = &course.upsell {
            r.push(
                "insert into upsell (price_id, title, description, cta, product_id, unit_amount) values ($1, $2, $3, $4, $5, $6)",
                vec![
                    Param::Text(course.price_id.clone()),
                    Param::Text(upsell.title.clone()),
                    Param::Text(upsell.description.clone()),
                    Param::Text(upsell.cta.clone()),
                    Param::Text(upsell.product_id.clone()),
                    Param::Int(upsell.price),
                ],
            );
            r.counts.upsells += 1;
        }
        if course.online {
            r.counts.online_courses += 1;
        } else {
            r.counts.in_person_courses += 1;
            r.push(
                "insert into event (id, course_id, standard_price, was_price, is_package) values ($1, $1, $2, $3, $4) \
                 on conflict (id) do update set standard_price = excluded.standard_price, \
                 was_price = excluded.was_price, is_package = excluded.is_package",
                vec![Param::Text(slug.clone()), Param::Int(course.price), Param::OptInt(course.was_price), Param::Bool(course.package)],
            );
            for session in &course.sessions {
                ensure!(seen_sessions.insert(session.id.clone()), "Duplicate session id {} {}", session.id, context());
                ensure!((0..=session.seats).contains(&session.registrations), "Session {} has more registrations than seats", session.id);
                let date = today + Duration::days(session.offset_days);
                r.push(
                    "insert into session (id, event_id, start_at, end_at, date, price, seat_price, seats, registrations, type, status) \
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'active') \
                     on conflict (id) do update set event_id = excluded.event_id, start_at = excluded.start_at, \
                     end_at = excluded.end_at, date = excluded.date, price = excluded.price, \
                     seat_price = excluded.seat_price, seats = excluded.seats, type = excluded.type",
                    vec![
                        Param::Text(session.id.clone()),
                        Param::Text(slug.clone()),
                        Param::DateTime(wall_clock(date, &session.start)?),
                        Param::DateTime(wall_clock(date, &session.end)?),
                        Param::Date(date),
                        Param::Int(session.price),
                        Param::Int(session.seat_price.unwrap_or(session.price)),
                        Param::Int(session.seats),
                        Param::Int(session.registrations),
                        Param::Text(session.session_type.as_str().to_owned()),
                    ],
                );
                session_ids.push(session.id.clone());
            }
            r.counts.sessions += course.sessions.len();
        }
        course_ids.push(slug);
    }
    if course_ids.is_empty() {
        bail!("The content pack has no courses");
    }
    r.sweep("session", "id", &session_ids);
    r.sweep("course", "id", &course_ids);
    r.sweep("section", "slug", sections);
    Ok(())
}

fn read_pages(r: &mut Reader<'_>) -> anyhow::Result<()> {
    r.push("delete from page", vec![]);
    for path in files(&r.root.join("pages"), "md")? {
        let (front, body): (PageFront, String) = front_matter(&path)?;
        r.push(
            "insert into page (slug, title, description, body_html) values ($1, $2, $3, $4)",
            vec![
                Param::Text(slug_of(&path)?),
                Param::Text(front.title),
                Param::Text(front.description),
                Param::Text(markdown::to_html(&body)),
            ],
        );
        r.counts.pages += 1;
    }
    Ok(())
}

fn read_blog(r: &mut Reader<'_>) -> anyhow::Result<()> {
    r.push("delete from blog_post", vec![]);
    r.push("delete from search_document where kind = 'article'", vec![]);
    for path in files(&r.root.join("blog"), "md")? {
        let (front, body): (BlogFront, String) = front_matter(&path)?;
        let image = r.image_json(&front.image)?;
        r.index("article", &format!("/blog/{}/", slug_of(&path)?), &front.title, &front.excerpt, &body);
        r.push(
            "insert into blog_post (slug, title, excerpt, author, published_on, image, tags, body_html) \
             values ($1, $2, $3, $4, $5, $6, $7, $8)",
            vec![
                Param::Text(slug_of(&path)?),
                Param::Text(front.title),
                Param::Text(front.excerpt),
                Param::Text(front.author),
                Param::Date(front.published),
                image,
                Param::Text(serde_json::to_string(&front.tags)?),
                Param::Text(markdown::to_html(&body)),
            ],
        );
        r.counts.blog_posts += 1;
    }
    Ok(())
}

fn read_people(r: &mut Reader<'_>) -> anyhow::Result<()> {
    r.push("delete from team_member", vec![]);
    let team: Vec<TeamFile> = r.yaml("team.yaml")?;
    for (position, member) in team.iter().enumerate() {
        let id = member.name.to_ascii_lowercase().split_whitespace().collect::<Vec<_>>().join("-");
        let image = r.image_json(&member.image)?;
        r.push(
            "insert into team_member (id, name, role, bio, image, position) values ($1, $2, $3, $4, $5, $6)",
            vec![
                Param::Text(id),
                Param::Text(member.name.clone()),
                Param::Text(member.role.clone()),
                Param::Text(member.bio.clone()),
                image,
                Param::Int(position as i64),
            ],
        );
    }
    r.push("delete from job", vec![]);
    let jobs: Vec<JobFile> = r.yaml("jobs.yaml")?;
    for (position, job) in jobs.into_iter().enumerate() {
        r.push(
            "insert into job (id, title, location, kind, summary, description_html, position) values ($1, $2, $3, $4, $5, $6, $7)",
            vec![
                Param::Text(job.id),
                Param::Text(job.title),
                Param::Text(job.location),
                Param::Text(job.kind),
                Param::Text(job.summary),
                Param::Text(markdown::to_html(&job.description)),
                Param::Int(position as i64),
            ],
        );
    }
    r.push("delete from pathway_level", vec![]);
    let levels: Vec<PathwayFile> = r.yaml("pathway.yaml")?;
    for level in levels {
        r.push(
            "insert into pathway_level (level, title, summary, duration, units, price) values ($1, $2, $3, $4, $5, $6)",
            vec![
                Param::Int(level.level),
                Param::Text(level.title),
                Param::Text(level.summary),
                Param::Text(level.duration),
                Param::Text(serde_json::to_string(&level.units)?),
                Param::Int(level.price),
            ],
        );
    }
    Ok(())
}

fn read_discounts(r: &mut Reader<'_>) -> anyhow::Result<()> {
    let codes: Vec<DiscountFile> = r.yaml("discounts.yaml")?;
    for code in codes {
        ensure!(code.value > 0, "Discount {} must have a positive value", code.code);
        let kind = match code.kind {
            DiscountKind::Pound => "pound",
            DiscountKind::Percent => {
                ensure!(code.value <= 100, "Discount {} is over 100 percent", code.code);
                "percent"
            }
        };
        r.push(
            "insert into discount_code (code, type, value, expires_on, max_uses) values ($1, $2, $3, $4, $5) \
             on conflict (code) do update set type = excluded.type, value = excluded.value, \
             expires_on = excluded.expires_on, max_uses = excluded.max_uses",
            vec![
                Param::Text(code.code.to_ascii_uppercase()),
                Param::Text(kind.to_owned()),
                Param::Int(code.value),
                Param::OptDate(code.expires),
                Param::OptInt(code.max_uses),
            ],
        );
    }
    Ok(())
}
