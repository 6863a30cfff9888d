//! What a grown history leaves besides its bookings and money (decision
//! 037): the mails it sent (all delivered), balance reminders, staff
//! changes in the audit log, waiting lists of full dates, enquiries,
//! readiness forms and document requests, and e-learning progress.

use std::collections::BTreeSet;

use chrono::{DateTime, Days, Duration, Utc};
use serde_json::json;

use enrol_domain::balance::{BalanceReminder, UPCOMING_REMINDER_DAYS};
use enrol_domain::enquiry::{Enquiry, EnquiryKind};
use enrol_domain::grow::{self, Fate, Prng};
use enrol_domain::london;

use crate::grow::history::{at_minutes, id_at, token_hash};
use crate::grow::rows::{Batch, GrowSteps, put, row};
use crate::grow::write::{Counts, Grown};

/// A mail the college sent at `at`, delivered a minute later.
fn mail(rng: &mut Prng, to: &str, subject: String, body: String, at: DateTime<Utc>) -> Vec<crate::grow::rows::Cell> {
    row![id_at(rng, at), to, None::<String>, subject, body, at, Some(at + Duration::minutes(1)), 1i64]
}

fn mail_batch(g: &Grown<'_>) -> Batch {
    g.batch("mail_outbox", &["id", "to_address", "reply_to", "subject", "body_text", "created_at", "sent_at", "attempts"])
}

/// Each booking's confirmation, its reminders of the balance (with their
/// mails), the mails of a move or a cancellation, and staff's changes
/// in the audit log.
pub(crate) async fn booking_records<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut mails = mail_batch(g);
    let mut reminders = g.batch("balance_reminder", &["enrollment_id", "stage", "sent_at"]);
    let mut audit = g.batch("audit_log", &["at", "staff_id", "action", "entity", "entity_id", "before_data", "after_data"]);
    let today = g.history.today;
    for (index, b) in g.history.bookings.iter().enumerate() {
        let student = &g.history.students[b.student];
        let money = &g.ledger.bookings[index];
        let session = &g.history.sessions[b.session];
        let title = &money.booked.title;
        let body = format!(
            "Dear {},\n\nThank you for booking {title} on {}. Your reference is {}.\n",
            student.given_name,
            london::long_date(session.date),
            b.reference
        );
        put(conn, &mut mails, mail(rng, &student.email, format!("Your booking {}: {title}", b.reference), body, b.created_at)).await?;

        if money.mode == "fee" {
            let due = money.balance_due_on;
            // Each stage on the day it is first reached (`BalanceReminder::reached`),
            // none on the day of booking nor once training has started.
            let stages = [
                (BalanceReminder::Upcoming, due.checked_sub_days(Days::new(UPCOMING_REMINDER_DAYS))),
                (BalanceReminder::Due, Some(due)),
                (BalanceReminder::Overdue, due.succ_opt()),
            ];
            for (stage, day) in stages {
                let Some(day) = day.filter(|d| *d <= today && *d > london::today(b.created_at) && *d < session.date) else { continue };
                let stage = stage.as_str();
                let at = at_minutes(day, 9 * 60).min(g.now);
                let still_owed = money.balance_paid_at.is_none_or(|paid| paid > at);
                let live = b.cancelled_at.is_none_or(|cancelled| cancelled > at);
                if !(still_owed && live) || (stage == "overdue" && !money.overdue) {
                    continue;
                }
                put(conn, &mut reminders, row![b.id.clone(), stage, at]).await?;
                let body = format!(
                    "Dear {},\n\nThe balance of your booking {} for {title} is due on {}.\n",
                    student.given_name,
                    b.reference,
                    london::long_date(due)
                );
                put(conn, &mut mails, mail(rng, &student.email, format!("Your balance for {title}"), body, at)).await?;
            }
        }
        if let Some((from, at)) = b.moved {
            let old = &g.history.sessions[from];
            let body = format!(
                "Dear {},\n\nYour booking {} for {title} has moved to {}.\n",
                student.given_name,
                b.reference,
                london::long_date(session.date)
            );
            put(conn, &mut mails, mail(rng, &student.email, format!("Your new date for {title}"), body, at)).await?;
            if b.by_staff {
                let before =
                    json!({ "courseId": money.booked.course_id, "sessionId": old.id, "date": old.date, "total": money.quote.total });
                let after = json!({ "courseId": money.booked.course_id, "sessionId": session.id, "date": session.date, "total": money.quote.total, "refunds": [] });
                let r =
                    row![at, g.staff_id.clone(), "order.move", "order", b.id.clone(), Some(before.to_string()), Some(after.to_string())];
                put(conn, &mut audit, r).await?;
            }
        }
        if let (Fate::Cancelled, Some(at)) = (b.fate, b.cancelled_at) {
            let body = format!("Dear {},\n\nYour booking {} for {title} is cancelled.\n", student.given_name, b.reference);
            put(conn, &mut mails, mail(rng, &student.email, format!("Your booking {} is cancelled", b.reference), body, at)).await?;
            if b.by_staff {
                let before = json!({ "status": "deposit" });
                let after = json!({ "status": "cancelled" });
                let r =
                    row![at, g.staff_id.clone(), "order.cancel", "order", b.id.clone(), Some(before.to_string()), Some(after.to_string())];
                put(conn, &mut audit, r).await?;
            }
        }
    }
    for (index, o) in g.history.online_orders.iter().enumerate() {
        let student = &g.history.students[o.student];
        let title = &g.online_lines(index)[0].title;
        let body = format!("Dear {},\n\nThank you for your order {}: {title} is ready in your account.\n", student.given_name, o.reference);
        put(conn, &mut mails, mail(rng, &student.email, format!("Your order {}", o.reference), body, o.created_at)).await?;
    }
    for batch in [&mut mails, &mut reminders, &mut audit] {
        conn.flush(batch).await?;
        counts.push((batch.table(), batch.written));
    }
    Ok(())
}

/// Waiting lists of full dates: people still waiting for dates ahead;
/// for dates past, people who left or whose wait lapsed.
pub(crate) async fn waiting_lists<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut batch = g.batch(
        "waiting_list_entry",
        &["id", "session_id", "name", "email", "phone", "status", "created_at", "leave_token_hash", "confirmed_at"],
    );
    let students = &g.history.students;
    for session in g.history.sessions.iter().filter(|s| s.registrations == s.seats) {
        let mut chosen = BTreeSet::new();
        for _ in 0..grow::waiting_for_full(rng) {
            let who = rng.index(students.len());
            let joined_on = session.date.checked_sub_days(Days::new(rng.below(30) + 1)).unwrap_or(session.date);
            let at = at_minutes(joined_on, rng.between(8 * 60, 21 * 60)).min(g.now);
            if !chosen.insert(who) || students[who].created_at > at {
                continue;
            }
            let status = if session.date >= g.history.today {
                "waiting"
            } else if rng.chance(0.3) {
                "left"
            } else {
                "lapsed"
            };
            let s = &students[who];
            let r = row![
                id_at(rng, at),
                session.id.clone(),
                format!("{} {}", s.given_name, s.family_name),
                s.email.clone(),
                Some(s.phone.clone()),
                status,
                at,
                token_hash(rng),
                Some(at),
            ];
            put(conn, &mut batch, r).await?;
        }
    }
    conn.flush(&mut batch).await?;
    counts.push((batch.table(), batch.written));
    Ok(())
}

const ENQUIRY_KINDS: [EnquiryKind; 4] = [EnquiryKind::Contact, EnquiryKind::Callback, EnquiryKind::Business, EnquiryKind::Models];

/// Enquiries through the site's forms, spread over the years as bookings
/// are, each with its mail to the college; all but the last fortnight's
/// answered.
pub(crate) async fn enquiries<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut forms = g.batch("form_submission", &["id", "kind", "data", "created_at", "status"]);
    let mut mails = mail_batch(g);
    let bookings = &g.history.bookings;
    let wanted = if bookings.is_empty() { 0 } else { usize::try_from(g.enquiries).unwrap_or(0) };
    for _ in 0..wanted {
        // Enquiries come when bookings do.
        let near = &bookings[rng.index(bookings.len())];
        let at = (near.created_at - Duration::days(rng.between(1, 20))).min(g.now);
        let student = &g.history.students[near.student];
        let kind = ENQUIRY_KINDS[rng.index(ENQUIRY_KINDS.len())];
        let course = &g.catalogue.courses[g.history.sessions[near.session].course];
        let enquiry = Enquiry {
            kind,
            name: format!("{} {}", student.given_name, student.family_name),
            email: student.email.clone(),
            phone: student.phone.clone(),
            company: String::new(),
            message: format!("Do you have dates for {} in the spring?", course.title),
            treatment: String::new(),
            best_time: String::new(),
            course: course.title.clone(),
        };
        let status = if at < g.now - Duration::days(14) { "done" } else { "new" };
        let data = serde_json::to_string(&enquiry).map_err(|e| sqlx::Error::Encode(e.into()))?;
        put(conn, &mut forms, row![id_at(rng, at), kind.as_str(), data, at, status]).await?;
        let mut cells = mail(rng, &g.catalogue.college_email, format!("{}: {}", kind.subject(), enquiry.name), enquiry.mail_body(), at);
        cells[2] = Some(enquiry.email.clone()).into();
        put(conn, &mut mails, cells).await?;
    }
    for batch in [&mut forms, &mut mails] {
        conn.flush(batch).await?;
        counts.push((batch.table(), batch.written));
    }
    Ok(())
}

/// For courses that ask for them: the consultation form and the
/// qualification requested before training, done and accepted for dates
/// past, some still to do for dates ahead.
pub(crate) async fn readiness<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, rng: &mut Prng, counts: &mut Counts) -> sqlx::Result<()> {
    let mut forms = g.batch(
        "user_form",
        &["id", "user_id", "kind", "enrollment_id", "course_title", "client_complete", "completed_at", "created_at", "course_id"],
    );
    let mut answers = g.batch("form_response", &["user_form_id", "question", "answer"]);
    let mut requests = g.batch(
        "upload_request",
        &["id", "user_id", "enrollment_id", "title", "description", "status", "created_at", "course_id", "reviewed_at", "reviewed_by"],
    );
    for b in g.history.bookings.iter().filter(|b| b.fate != Fate::Cancelled) {
        let session = &g.history.sessions[b.session];
        let course = &g.catalogue.courses[session.course];
        if !course.readiness {
            continue;
        }
        let student = Some(g.history.students[b.student].id.clone());
        let past = session.date < g.history.today;
        let done = past || rng.chance(0.5);
        let done_at = done.then(|| (b.created_at + Duration::days(rng.between(1, 10))).min(g.now));
        let form = id_at(rng, b.created_at);
        let r = row![
            form.clone(),
            student.clone(),
            "consultation",
            Some(b.id.clone()),
            course.title.clone(),
            done,
            done_at,
            b.created_at,
            Some(course.course_id.clone())
        ];
        put(conn, &mut forms, r).await?;
        if done {
            for (question, answer) in [("experience", "I work as a beauty therapist."), ("goals", "To offer this treatment in my salon.")] {
                // Answers name their form: the forms go first.
                if answers.push(row![form.clone(), question, answer]) {
                    conn.flush(&mut forms).await?;
                    conn.flush(&mut answers).await?;
                }
            }
        }
        let status = if past {
            "accepted"
        } else if done {
            "received"
        } else {
            "requested"
        };
        let reviewed = past.then(|| done_at.unwrap_or(b.created_at));
        let r = row![
            id_at(rng, b.created_at),
            student,
            Some(b.id.clone()),
            "Level 2 certificate",
            "A copy of your Level 2 (or higher) beauty qualification, as a PDF or a photo.",
            status,
            b.created_at,
            Some(course.course_id.clone()),
            reviewed,
            past.then(|| g.staff_id.clone()),
        ];
        put(conn, &mut requests, r).await?;
    }
    for batch in [&mut forms, &mut answers, &mut requests] {
        conn.flush(batch).await?;
        counts.push((batch.table(), batch.written));
    }
    Ok(())
}

/// E-learning progress: the lessons done, a day or two apart, and where
/// each student last was. A student who bought a course twice has one
/// record of it, as the course player keeps.
pub(crate) async fn learning<C: GrowSteps>(conn: &mut C, g: &Grown<'_>, counts: &mut Counts) -> sqlx::Result<()> {
    let mut done = g.batch("lesson_done", &["user_id", "course_id", "lesson", "done_at"]);
    let mut visits = g.batch("course_visit", &["user_id", "course_id", "lesson", "visited_at"]);
    let mut seen = BTreeSet::new();
    for o in &g.history.online_orders {
        let course = &g.catalogue.online[o.course];
        if o.lessons_done == 0 || !seen.insert((o.student, o.course)) {
            continue;
        }
        let user = g.history.students[o.student].id.clone();
        let mut at = o.created_at;
        for lesson in &course.lessons[..o.lessons_done] {
            at = (at + Duration::hours(30)).min(g.now);
            put(conn, &mut done, row![user.clone(), course.course_id.clone(), lesson.clone(), at]).await?;
        }
        put(conn, &mut visits, row![user, course.course_id.clone(), course.lessons[o.lessons_done - 1].clone(), at]).await?;
    }
    for batch in [&mut done, &mut visits] {
        conn.flush(batch).await?;
        counts.push((batch.table(), batch.written));
    }
    Ok(())
}
