//! Reading the pack's sections, courses, sessions and upsells.

use super::files::{CourseFile, SectionFile};
use super::*;
fn wall_clock(date: NaiveDate, time: &str) -> anyhow::Result<NaiveDateTime> {
    let time = NaiveTime::parse_from_str(time, "%H:%M").with_context(|| format!("Bad session time {time:?}"))?;
    Ok(date.and_time(time))
}

pub(super) fn read_sections(r: &mut Reader<'_>) -> anyhow::Result<Vec<String>> {
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

pub(super) fn read_courses(r: &mut Reader<'_>, sections: &[String], today: NaiveDate) -> anyhow::Result<()> {
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
                    "insert into session (id, event_id, start_at, end_at, date, price, seat_price, seats, registrations, type, status, \
                     joining_link) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'active', $11) \
                     on conflict (id) do update set event_id = excluded.event_id, start_at = excluded.start_at, \
                     end_at = excluded.end_at, date = excluded.date, price = excluded.price, \
                     seat_price = excluded.seat_price, seats = excluded.seats, type = excluded.type, joining_link = excluded.joining_link",
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
                        Param::OptText(session.joining_link.clone()),
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
