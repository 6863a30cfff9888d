//! Reading the pack's sections and courses (documents), and the sessions
//! and upsells a course file seeds.

use enrol_domain::content::SectionBody;
use enrol_domain::learning::curriculum::{Curriculum, check as check_curriculum};

use super::files::CourseFile;
use super::*;

fn wall_clock(date: NaiveDate, time: &str) -> anyhow::Result<NaiveDateTime> {
    let time = NaiveTime::parse_from_str(time, "%H:%M").with_context(|| format!("Bad session time {time:?}"))?;
    Ok(date.and_time(time))
}

pub(super) fn read_sections(r: &mut Reader<'_>) -> anyhow::Result<Vec<String>> {
    let sections: Vec<SectionBody> = r.yaml("sections.yaml")?;
    let mut slugs = Vec::new();
    for (position, mut section) in sections.into_iter().enumerate() {
        section.position = position as i64;
        slugs.push(section.slug.clone());
        r.document(section.slug.clone(), ContentBody::Section(section));
    }
    r.counts.sections = slugs.len();
    Ok(slugs)
}

pub(super) fn read_courses(r: &mut Reader<'_>, sections: &[String], today: NaiveDate) -> anyhow::Result<()> {
    let mut seen_sessions = HashSet::new();
    let mut online = HashSet::new();
    let mut add_on_courses = Vec::new();
    let paths = files(&r.root.join("courses"), "yaml")?;
    if paths.is_empty() {
        bail!("The content pack has no courses");
    }
    for (position, path) in paths.iter().enumerate() {
        let slug = slug_of(path)?;
        let CourseFile { mut course, sessions, upsell } =
            CourseFile::parse(&r.text(&format!("courses/{slug}.yaml"))?).with_context(|| format!("Failed to parse {}", path.display()))?;
        let context = || format!("in course {slug}");
        ensure!(sections.contains(&course.section), "Unknown section {:?} {}", course.section, context());
        for other in &course.also_in {
            ensure!(sections.contains(other), "Unknown also_in section {other:?} {}", context());
        }
        ensure!(!course.online || sessions.is_empty(), "Online courses have no sessions {}", context());
        ensure!(course.online || upsell.is_none(), "Only online courses carry upsells {}", context());
        course.position = position as i64;
        let learning = format!("learning/{slug}.yaml");
        if r.root.join(&learning).exists() {
            ensure!(course.online, "Only online courses have lessons {}", context());
            let curriculum: Curriculum = r.yaml(&learning)?;
            if let Err(problems) = check_curriculum(&curriculum) {
                let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
                bail!("{learning} has mistakes: {}", problems.join(" "));
            }
            course.learning = Some(Box::new(curriculum));
        }
        if let Some(upsell) = &upsell {
            if let Some(course) = &upsell.course {
                add_on_courses.push((slug.clone(), course.clone()));
            }
            r.seed(
                "insert into upsell (price_id, title, description, cta, product_id, unit_amount, course_id) \
                 values ($1, $2, $3, $4, $5, $6, $7) on conflict (price_id) do nothing",
                vec![
                    Param::Text(course.price_id.clone()),
                    Param::Text(upsell.title.clone()),
                    Param::Text(upsell.description.clone()),
                    Param::Text(upsell.cta.clone()),
                    Param::Text(upsell.product_id.clone()),
                    Param::Int(upsell.price),
                    Param::OptText(upsell.course.clone()),
                ],
            );
            r.counts.upsells += 1;
        }
        if course.online {
            r.counts.online_courses += 1;
            online.insert(slug.clone());
        } else {
            r.counts.in_person_courses += 1;
        }
        for session in &sessions {
            ensure!(seen_sessions.insert(session.id.clone()), "Duplicate session id {} {}", session.id, context());
            ensure!((0..=session.seats).contains(&session.registrations), "Session {} has more registrations than seats", session.id);
            let date = today + Duration::days(session.offset_days);
            r.seed(
                "insert into session (id, event_id, start_at, end_at, date, price, seat_price, seats, registrations, type, status, \
                 joining_link) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'active', $11) on conflict (id) do nothing",
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
        }
        r.counts.sessions += sessions.len();
        r.document(slug, ContentBody::Course(course));
    }
    for (of, course) in add_on_courses {
        ensure!(online.contains(&course), "The add-on of course {of} names {course:?}, which is not an online course of the pack");
    }
    Ok(())
}
