//! The college's pages, people, vacancies, articles and the pathway.

use anyhow::Context as _;
use chrono::NaiveDate;

use enrol_domain::money::Money;
use enrol_domain::page::{BlogCard, Job, PathwayLevel, TeamMember};

use crate::{Db, on_pool};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PageRecord {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub body_html: String,
}

#[derive(sqlx::FromRow)]
struct TeamRow {
    name: String,
    role: String,
    bio: String,
    image: String,
}

#[derive(sqlx::FromRow)]
struct JobRow {
    id: String,
    title: String,
    location: String,
    kind: String,
    summary: String,
    description_html: String,
}

#[derive(sqlx::FromRow)]
struct PostRow {
    slug: String,
    title: String,
    excerpt: String,
    author: String,
    published_on: NaiveDate,
    image: String,
    tags: String,
    body_html: String,
}

#[derive(sqlx::FromRow)]
struct LevelRow {
    level: i64,
    title: String,
    summary: String,
    duration: String,
    units: String,
    price: i64,
}

/// An article and its body.
pub struct Article {
    pub card: BlogCard,
    pub body_html: String,
}

fn json<T: serde::de::DeserializeOwned>(raw: &str, what: &str) -> anyhow::Result<T> {
    serde_json::from_str(raw).with_context(|| format!("Stored {what} is not valid JSON"))
}

pub fn article_url(slug: &str) -> String {
    format!("/blog/{slug}/")
}

impl PostRow {
    fn into_article(self) -> anyhow::Result<Article> {
        Ok(Article {
            card: BlogCard {
                url: article_url(&self.slug),
                title: self.title,
                excerpt: self.excerpt,
                author: self.author,
                published: self.published_on.format("%Y-%m-%d").to_string(),
                image: json(&self.image, "article image")?,
                tags: json(&self.tags, "article tags")?,
            },
            body_html: self.body_html,
        })
    }
}

const POST_COLUMNS: &str = "select slug, title, excerpt, author, published_on, image, tags, body_html from blog_post";

impl Db {
    pub async fn page(&self, slug: &str) -> anyhow::Result<Option<PageRecord>> {
        on_pool!(self, pool => sqlx::query_as("select slug, title, description, body_html from page where slug = $1")
            .bind(slug).fetch_optional(pool).await)
        .with_context(|| format!("Failed to read the page {slug}"))
    }

    /// The slug of every page of the college's words.
    pub async fn page_slugs(&self) -> anyhow::Result<Vec<String>> {
        on_pool!(self, pool => sqlx::query_scalar("select slug from page order by slug").fetch_all(pool).await)
            .context("Failed to list the pages")
    }

    pub async fn team(&self) -> anyhow::Result<Vec<TeamMember>> {
        let rows: Vec<TeamRow> = on_pool!(self, pool => sqlx::query_as(
            "select name, role, bio, image from team_member order by position"
        ).fetch_all(pool).await)
        .context("Failed to read the team")?;
        rows.into_iter().map(|r| Ok(TeamMember { name: r.name, role: r.role, bio: r.bio, image: json(&r.image, "portrait")? })).collect()
    }

    pub async fn jobs(&self) -> anyhow::Result<Vec<Job>> {
        let rows: Vec<JobRow> = on_pool!(self, pool => sqlx::query_as(
            "select id, title, location, kind, summary, description_html from job order by position"
        ).fetch_all(pool).await)
        .context("Failed to read the vacancies")?;
        Ok(rows
            .into_iter()
            .map(|r| Job {
                id: r.id,
                title: r.title,
                location: r.location,
                kind: r.kind,
                summary: r.summary,
                description_html: r.description_html,
            })
            .collect())
    }

    /// The articles published by `today` (London), newest first: one with
    /// a later day is scheduled, and shows from that day on.
    pub async fn articles(&self, today: NaiveDate) -> anyhow::Result<Vec<Article>> {
        let sql = format!("{POST_COLUMNS} where published_on <= $1 order by published_on desc, slug");
        let rows: Vec<PostRow> = on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(today).fetch_all(pool).await)
            .context("Failed to read the articles")?;
        rows.into_iter().map(PostRow::into_article).collect()
    }

    pub async fn pathway(&self) -> anyhow::Result<Vec<PathwayLevel>> {
        let rows: Vec<LevelRow> = on_pool!(self, pool => sqlx::query_as(
            "select level, title, summary, duration, units, price from pathway_level order by level"
        ).fetch_all(pool).await)
        .context("Failed to read the pathway")?;
        rows.into_iter()
            .map(|r| {
                Ok(PathwayLevel {
                    level: r.level,
                    title: r.title,
                    summary: r.summary,
                    duration: r.duration,
                    units: json(&r.units, "pathway units")?,
                    price: Money::from_pence(r.price),
                })
            })
            .collect()
    }
}
