//! Reading the pack's site data, pages, blog, people and discount codes.

use super::files::{BlogFront, DiscountFile, DiscountKind, JobFile, PageFront, PathwayFile, SiteFile, TeamFile};
use super::*;

pub(super) fn read_site(r: &mut Reader<'_>) -> anyhow::Result<()> {
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

pub(super) fn read_pages(r: &mut Reader<'_>) -> anyhow::Result<()> {
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

pub(super) fn read_blog(r: &mut Reader<'_>) -> anyhow::Result<()> {
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

pub(super) fn read_people(r: &mut Reader<'_>) -> anyhow::Result<()> {
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
