//! `enrol content export DIR`: the database's published content written
//! out as a content pack (decision 018), for backups and for moving
//! content between environments. Loading the result into an empty
//! database gives the same site.

use std::collections::BTreeSet;

use chrono::NaiveDateTime;
use serde::Serialize;

use enrol_domain::london;

use super::*;

/// A session as the pack writes it (`sessions:` of a course file).
#[derive(Serialize, sqlx::FromRow)]
struct SessionOut {
    id: String,
    #[serde(skip)]
    course_id: String,
    #[serde(skip)]
    date: NaiveDate,
    #[serde(skip)]
    start_at: NaiveDateTime,
    #[serde(skip)]
    end_at: NaiveDateTime,
    #[sqlx(rename = "type")]
    #[serde(rename = "type")]
    session_type: String,
    seats: i64,
    registrations: i64,
    price: i64,
    seat_price: i64,
    joining_link: Option<String>,
}

#[derive(Serialize, sqlx::FromRow)]
struct UpsellOut {
    #[serde(skip)]
    price_id: String,
    title: String,
    description: String,
    cta: String,
    product_id: String,
    #[serde(rename = "price")]
    unit_amount: i64,
    #[serde(rename = "course", skip_serializing_if = "Option::is_none")]
    course_id: Option<String>,
}

#[derive(Serialize, sqlx::FromRow)]
struct CodeOut {
    code: String,
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    kind: String,
    value: i64,
    #[serde(rename = "expires")]
    expires_on: Option<NaiveDate>,
    max_uses: Option<i64>,
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).with_context(|| format!("Failed to create {}", folder.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("Failed to write {}", path.display()))
}

/// A Markdown file: `body` after the rest as front matter.
fn markdown_file(front: &impl Serialize, body: &str) -> anyhow::Result<String> {
    let mut front = serde_yaml::to_value(front)?;
    if let serde_yaml::Value::Mapping(map) = &mut front {
        map.remove("body");
    }
    Ok(format!("---\n{}---\n{body}", serde_yaml::to_string(&front)?))
}

/// Writes the published content into `dir` as a pack, with `media.yaml`
/// listing the media library; the image files it names (under `images/`,
/// which the caller copies).
pub async fn export(db: &Db, dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let today = london::today(Utc::now());
    let (documents, sessions, upsells, codes, media) = on_pool!(db, pool => {
        let documents: Vec<(String, String, String)> =
            sqlx::query_as("select kind, key, published from content_document where withdrawn_at is null order by kind, key").fetch_all(pool).await?;
        let sessions: Vec<SessionOut> = sqlx::query_as(
            "select s.id, ev.course_id, s.date, s.start_at, s.end_at, s.type, s.seats, s.registrations, s.price, s.seat_price, \
             s.joining_link from session s join event ev on ev.id = s.event_id where s.status = 'active' order by s.start_at, s.id"
        ).fetch_all(pool).await?;
        let upsells: Vec<UpsellOut> =
            sqlx::query_as("select price_id, title, description, cta, product_id, unit_amount, course_id from upsell").fetch_all(pool).await?;
        let codes: Vec<CodeOut> =
            sqlx::query_as("select code, type, value, expires_on, max_uses from discount_code where active order by code").fetch_all(pool).await?;
        let media: Vec<(String, String, Option<String>)> =
            sqlx::query_as("select file_name, alt, original_name from media order by created_at, key").fetch_all(pool).await?;
        Ok::<_, sqlx::Error>((documents, sessions, upsells, codes, media))
    })
    .context("Failed to read the content")?;
    let mut images = BTreeSet::new();
    let mut sections = Vec::new();
    let mut team = Vec::new();
    let mut jobs = Vec::new();
    let mut levels = Vec::new();
    for (kind, key, published) in documents {
        let kind = ContentKind::parse(&kind).with_context(|| format!("Unknown content kind {kind}"))?;
        let body = ContentBody::from_json(kind, serde_json::from_str(&published)?)?;
        images.extend(body.image_files().into_iter().map(str::to_owned));
        match body {
            ContentBody::Site(site) => write(&dir.join("site.yaml"), &serde_yaml::to_string(&site)?)?,
            ContentBody::Section(section) => sections.push(section),
            ContentBody::Course(mut course) => {
                if let Some(learning) = course.learning.take() {
                    write(&dir.join(format!("learning/{key}.yaml")), &serde_yaml::to_string(&learning)?)?;
                }
                let mut file = serde_yaml::to_value(&course)?;
                let serde_yaml::Value::Mapping(map) = &mut file else { unreachable!("a course is a mapping") };
                let dated: Vec<serde_yaml::Value> = sessions
                    .iter()
                    .filter(|s| s.course_id == key)
                    .map(|s| {
                        let mut value = serde_yaml::to_value(s)?;
                        if let serde_yaml::Value::Mapping(m) = &mut value {
                            m.insert("offset_days".into(), (s.date - today).num_days().into());
                            m.insert("start".into(), s.start_at.format("%H:%M").to_string().into());
                            m.insert("end".into(), s.end_at.format("%H:%M").to_string().into());
                        }
                        Ok::<_, anyhow::Error>(value)
                    })
                    .collect::<anyhow::Result<_>>()?;
                if !dated.is_empty() {
                    map.insert("sessions".into(), dated.into());
                }
                if let Some(upsell) = upsells.iter().find(|u| u.price_id == course.price_id) {
                    map.insert("upsell".into(), serde_yaml::to_value(upsell)?);
                }
                write(&dir.join(format!("courses/{key}.yaml")), &serde_yaml::to_string(&file)?)?;
            }
            ContentBody::Page(page) => write(&dir.join(format!("pages/{key}.md")), &markdown_file(&page, &page.body)?)?,
            ContentBody::Blog(article) => write(&dir.join(format!("blog/{key}.md")), &markdown_file(&article, &article.body)?)?,
            ContentBody::Team(member) => team.push(member),
            ContentBody::Job(job) => jobs.push(job),
            ContentBody::Pathway(level) => levels.push(level),
        }
    }
    sections.sort_by_key(|s| s.position);
    team.sort_by_key(|m| m.position);
    jobs.sort_by_key(|j| j.position);
    levels.sort_by_key(|l| l.level);
    write(&dir.join("sections.yaml"), &serde_yaml::to_string(&sections)?)?;
    write(&dir.join("team.yaml"), &serde_yaml::to_string(&team)?)?;
    write(&dir.join("jobs.yaml"), &serde_yaml::to_string(&jobs)?)?;
    write(&dir.join("pathway.yaml"), &serde_yaml::to_string(&levels)?)?;
    write(&dir.join("discounts.yaml"), &serde_yaml::to_string(&codes)?)?;
    // The whole media library, used or not: an image on no page yet is
    // still the college's.
    if !media.is_empty() {
        images.extend(media.iter().map(|(file, _, _)| file.clone()));
        let listed: Vec<PackMedia> = media.into_iter().map(|(file, alt, name)| PackMedia { file, alt, name }).collect();
        write(&dir.join("media.yaml"), &serde_yaml::to_string(&listed)?)?;
    }
    Ok(images)
}
