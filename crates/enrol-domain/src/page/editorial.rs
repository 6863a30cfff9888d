//! The college's own pages: the Pathway, the team, careers and the blog.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::money::Money;
use crate::site::Image;

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PathwayPage {
    pub heading: String,
    pub body_html: String,
    pub levels: Vec<PathwayLevel>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PathwayLevel {
    #[ts(type = "number")]
    pub level: i64,
    pub title: String,
    pub summary: String,
    pub duration: String,
    pub units: Vec<String>,
    #[ts(type = "number")]
    pub price: Money,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TeamPage {
    pub heading: String,
    pub intro: String,
    pub members: Vec<TeamMember>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TeamMember {
    pub name: String,
    pub role: String,
    pub bio: String,
    pub image: Image,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CareersPage {
    pub heading: String,
    pub body_html: String,
    pub jobs: Vec<Job>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Job {
    pub id: String,
    pub title: String,
    pub location: String,
    pub kind: String,
    pub summary: String,
    pub description_html: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BlogPage {
    pub heading: String,
    pub posts: Vec<BlogCard>,
    /// 1-based.
    pub page: u32,
    pub page_count: u32,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BlogCard {
    pub title: String,
    pub url: String,
    pub excerpt: String,
    pub author: String,
    /// `YYYY-MM-DD`.
    pub published: String,
    pub image: Image,
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ArticlePage {
    pub post: BlogCard,
    pub body_html: String,
    pub more: Vec<BlogCard>,
}
