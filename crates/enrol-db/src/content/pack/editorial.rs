//! Reading the pack's site data, pages, blog, people and Pathway
//! (documents), and the discount codes it seeds.

use enrol_domain::content::{BlogBody, JobBody, PageBody, PathwayBody, SiteBody, TeamBody};

use super::files::{DiscountFile, DiscountKind};
use super::*;

pub(super) fn read_site(r: &mut Reader<'_>) -> anyhow::Result<()> {
    let site: SiteBody = r.yaml("site.yaml")?;
    r.document("site", ContentBody::Site(site));
    Ok(())
}

pub(super) fn read_pages(r: &mut Reader<'_>) -> anyhow::Result<()> {
    for path in files(&r.root.join("pages"), "md")? {
        let (mut page, body): (PageBody, String) = front_matter(&path)?;
        page.body = body;
        r.document(slug_of(&path)?, ContentBody::Page(page));
        r.counts.pages += 1;
    }
    Ok(())
}

pub(super) fn read_blog(r: &mut Reader<'_>) -> anyhow::Result<()> {
    for path in files(&r.root.join("blog"), "md")? {
        let (mut article, body): (BlogBody, String) = front_matter(&path)?;
        article.body = body;
        r.document(slug_of(&path)?, ContentBody::Blog(article));
        r.counts.blog_posts += 1;
    }
    Ok(())
}

/// The key of a team member: their name as a slug.
pub(super) fn member_key(name: &str) -> String {
    name.to_ascii_lowercase().split_whitespace().collect::<Vec<_>>().join("-")
}

pub(super) fn read_people(r: &mut Reader<'_>) -> anyhow::Result<()> {
    let team: Vec<TeamBody> = r.yaml("team.yaml")?;
    for (position, mut member) in team.into_iter().enumerate() {
        member.position = position as i64;
        r.document(member_key(&member.name), ContentBody::Team(member));
    }
    let jobs: Vec<JobBody> = r.yaml("jobs.yaml")?;
    for (position, mut job) in jobs.into_iter().enumerate() {
        job.position = position as i64;
        r.document(job.id.clone(), ContentBody::Job(job));
    }
    let levels: Vec<PathwayBody> = r.yaml("pathway.yaml")?;
    for level in levels {
        r.document(level.level.to_string(), ContentBody::Pathway(level));
    }
    Ok(())
}

pub(super) fn read_discounts(r: &mut Reader<'_>) -> anyhow::Result<()> {
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
        r.seed(
            "insert into discount_code (code, type, value, expires_on, max_uses) values ($1, $2, $3, $4, $5) \
             on conflict (code) do nothing",
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
