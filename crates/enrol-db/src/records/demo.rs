//! Demo students (decision 014): so every part of the account area has
//! something to show under `make run`, a signed-up student with a booking,
//! its payment, two online courses to study (the anatomy course's lessons,
//! decision 025; the infection prevention course's SCORM package, 026),
//! forms, an evidence request, a certificate, a cohort on the Pathway
//! programme with a tutor, an intake call and an invitation. Loaded
//! only when asked (`ENROL_DEMO_STUDENTS=1`, refused in production), once:
//! a database that has the demo email is left as it is.

use anyhow::Context as _;
use chrono::{DateTime, Duration, NaiveDate, Utc};

use enrol_domain::enrollment::{BookedCourse, Quote};
use enrol_domain::learning::access::access_ends;
use enrol_domain::money::Money;
use enrol_domain::online_order::{LineItem, PricedLine};
use enrol_domain::receipt::{DocumentLink, Issuer, Purchase};
use enrol_domain::reference::OrderKind;

use crate::ledger::MoneySteps;
use crate::ledger::payments::NewPayment;
use crate::orders::OrderSteps;
use crate::seats::SeatSteps;
use crate::{Db, on_pool, public_id};

/// The demo student's sign-in email.
pub const DEMO_STUDENT_EMAIL: &str = "amelia@student.example";
/// Her certificate's number, for the public verification page.
pub const DEMO_CERTIFICATE: &str = "EA-2026-04821";

/// The first upcoming in-person session the demo student is booked on.
#[derive(sqlx::FromRow)]
struct FirstSession {
    session_id: String,
    event_id: String,
    course_id: String,
    title: String,
    url: String,
    date: NaiveDate,
    price: i64,
}

impl Db {
    /// Adds the demo students unless they are there; false when they were.
    /// The booking fee's receipt is issued by `issuer`, opened by `receipt_link`.
    pub async fn load_demo_students(
        &self,
        password_hash: &str,
        issuer: &Issuer,
        receipt_link: &DocumentLink,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let today = enrol_domain::london::today(now);
        let reference = self.next_reference(OrderKind::Booking).await?;
        let online_reference = self.next_reference(OrderKind::Online).await?;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let known: Option<String> = sqlx::query_scalar("select id from user_account where email = $1")
                .bind(DEMO_STUDENT_EMAIL).fetch_optional(&mut *tx).await?;
            if known.is_some() {
                return Ok(false);
            }
            let session: FirstSession = sqlx::query_as(
                "select s.id as session_id, e.id as event_id, c.id as course_id, c.title, c.url, s.date, s.price from session s \
                 join event e on e.id = s.event_id join course c on c.id = e.course_id \
                 where s.date > $1 and not e.is_package and s.registrations < s.seats order by s.date, s.id limit 1"
            ).bind(today).fetch_optional(&mut *tx).await?.context("The demo content has no upcoming session to book")?;

            let amelia = public_id();
            let tutor = public_id();
            for (id, email, title, given, family, hash) in [
                (&amelia, DEMO_STUDENT_EMAIL, "Ms", "Amelia", "Hart", Some(password_hash)),
                (&tutor, "sophie.tutor@staff.example", "Dr", "Sophie", "Reyes", None),
            ] {
                sqlx::query(
                    "insert into user_account (id, email, title, given_name, family_name, contact_number, password_hash, \
                     email_verified_at, points, created_at) values ($1, $2, $3, $4, $5, '+447700900123', $6, $7, 120, $7)"
                ).bind(id).bind(email).bind(title).bind(given).bind(family).bind(hash).bind(now).execute(&mut *tx).await?;
            }
            sqlx::query("update user_account set gender = 'female', birthday = $1 where id = $2")
                .bind(NaiveDate::from_ymd_opt(1994, 5, 17)).bind(&amelia).execute(&mut *tx).await?;

            // A booking on the first upcoming session, its booking fee paid.
            let booked = BookedCourse {
                course_id: session.course_id.clone(),
                event_id: session.event_id.clone(),
                session_id: Some(session.session_id.clone()),
                title: session.title.clone(),
                url: session.url.clone(),
                date: Some(session.date),
                session_type: None,
                kit_name: None,
                kit_pounds: None,
                price: Money::from_pence(session.price),
            };
            let lines = serde_json::to_string(&[&booked])?;
            let quote = Quote::new(&[booked.line_price()], None);
            let enrollment = public_id();
            sqlx::query(
                "insert into enrollment (id, status, mode, subtotal, total, deposit, balance, deposit_required, lines, given_name, \
                 family_name, email, contact_number, payment_method, user_id, registered, created_at, paid_at, reference) \
                 values ($1, 'deposit', 'fee', $2, $2, $3, $4, true, $5, 'Amelia', 'Hart', $6, '+447700900123', 'card', $7, true, $8, $8, $9)"
            ).bind(&enrollment).bind(quote.total.pence()).bind(quote.deposit.pence()).bind(quote.balance.pence()).bind(&lines)
                .bind(DEMO_STUDENT_EMAIL).bind(&amelia).bind(now).bind(&reference).execute(&mut *tx).await?;
            sqlx::query(
                "insert into registration (id, event_id, enrollment_id, session_id, type, user_id, created_at) \
                 values ($1, $2, $3, $4, 'STUDENT', $5, $6)"
            ).bind(public_id()).bind(&session.event_id).bind(&enrollment).bind(&session.session_id).bind(&amelia).bind(now)
                .execute(&mut *tx).await?;
            sqlx::query("update session set registrations = registrations + 1 where id = $1")
                .bind(&session.session_id).execute(&mut *tx).await?;
            tx.seats_changed().await?;
            let purchase = Purchase::booking(&reference, "Amelia Hart", DEMO_STUDENT_EMAIL, &[booked], &quote);
            let payment = NewPayment {
                amount: quote.deposit,
                currency: "gbp",
                transaction_id: &format!("demo_{enrollment}"),
                method: "card",
                metadata: "{}".to_owned(),
                enrollment_id: Some(&enrollment),
                online_order_id: None,
                user_id: Some(&amelia),
                purchase: &purchase,
                issuer,
                link: receipt_link,
            };
            tx.record_payment(&payment, now).await?;

            // Two online courses in one order, bought and paid: the anatomy
            // course's lessons and the infection prevention course's SCORM
            // package (decision 026), each in her course player.
            let online: Vec<(String, String, String, i64, String)> = sqlx::query_as(
                "select id, title, url, unit_amount, price_id from course where online \
                 and id in ('anatomy-and-physiology-online', 'infection-prevention-online') order by id"
            ).fetch_all(&mut *tx).await?;
            if !online.is_empty() {
                let lines: Vec<PricedLine> = online.iter().map(|(course_id, title, url, amount, price_id)| PricedLine {
                    item: LineItem::Course { course_id: course_id.clone(), price_id: price_id.clone(), url: url.clone() },
                    title: title.clone(),
                    amount: Money::from_pence(*amount),
                }).collect();
                let total: i64 = online.iter().map(|(_, _, _, amount, _)| amount).sum();
                let order = public_id();
                sqlx::query(
                    "insert into online_order (id, status, lines, total, gateway, user_id, email, created_at, paid_at, reference) \
                     values ($1, 'paid', $2, $3, 'sandbox', $4, $5, $6, $6, $7)"
                ).bind(&order).bind(serde_json::to_string(&lines)?).bind(total).bind(&amelia).bind(DEMO_STUDENT_EMAIL).bind(now)
                    .bind(&online_reference).execute(&mut *tx).await?;
                for (course_id, title, ..) in &online {
                    let months = tx.course_delivery(course_id).await?.months;
                    sqlx::query(
                        "insert into online_registration (id, user_id, online_order_id, course_id, course_title, created_at, starts_at, ends_at) \
                         values ($1, $2, $3, $4, $5, $6, $6, $7)"
                    ).bind(public_id()).bind(&amelia).bind(&order).bind(course_id).bind(title).bind(now)
                        .bind(access_ends(now, months)).execute(&mut *tx).await?;
                }
                let purchase = Purchase::online_order(&online_reference, "Amelia Hart", DEMO_STUDENT_EMAIL, &lines, Money::from_pence(total));
                let payment = NewPayment {
                    amount: Money::from_pence(total),
                    currency: "gbp",
                    transaction_id: &format!("demo_{order}"),
                    method: "card",
                    metadata: "{}".to_owned(),
                    enrollment_id: None,
                    online_order_id: Some(&order),
                    user_id: Some(&amelia),
                    purchase: &purchase,
                    issuer,
                    link: receipt_link,
                };
                tx.record_payment(&payment, now).await?;
            }

            // The forms the course needs: the consultation answered, the medical form to do.
            let consultation = public_id();
            for (id, kind, complete) in [(&consultation, "consultation", true), (&public_id(), "medical", false)] {
                sqlx::query(
                    "insert into user_form (id, user_id, kind, enrollment_id, course_title, client_complete, completed_at, created_at) \
                     values ($1, $2, $3, $4, $5, $6, $7, $8)"
                ).bind(id).bind(&amelia).bind(kind).bind(&enrollment).bind(&session.title).bind(complete)
                    .bind(complete.then_some(now)).bind(now).execute(&mut *tx).await?;
            }
            for (question, answer) in [
                ("experience", "I work as a beauty therapist and offer facials and skin peels."),
                ("goals", "To add anti-wrinkle treatments to my salon's menu."),
                ("qualifications", "NVQ Level 3 in Beauty Therapy"),
            ] {
                sqlx::query("insert into form_response (user_form_id, question, answer) values ($1, $2, $3)")
                    .bind(&consultation).bind(question).bind(answer).execute(&mut *tx).await?;
            }
            sqlx::query(
                "insert into upload_request (id, user_id, enrollment_id, title, description, created_at) values ($1, $2, $3, $4, $5, $6)"
            ).bind(public_id()).bind(&amelia).bind(&enrollment).bind("Level 2 certificate")
                .bind("A copy of your Level 2 (or higher) beauty qualification, as a PDF or a photo.").bind(now).execute(&mut *tx).await?;

            // A course finished last year, its certificate, a referral code and credit.
            sqlx::query(
                "insert into certificate (id, number, user_id, holder_name, course_id, course_title, issued_on) \
                 values ($1, $2, $3, 'Amelia Hart', 'foundation-skin-science', 'Foundation Skin Science', $4)"
            ).bind(public_id()).bind(DEMO_CERTIFICATE).bind(&amelia).bind(today - Duration::days(200)).execute(&mut *tx).await?;
            sqlx::query("insert into referral_link (user_id, code, created_at) values ($1, 'AMELIA-FRIEND', $2)")
                .bind(&amelia).bind(now).execute(&mut *tx).await?;
            sqlx::query("insert into credit (id, user_id, amount, reason, created_at) values ($1, $2, 5000, $3, $4)")
                .bind(public_id()).bind(&amelia).bind("A friend you referred booked a course").bind(now).execute(&mut *tx).await?;

            // The Pathway programme, a cohort with its tutor, an assignment and an intake call.
            let programme = public_id();
            sqlx::query("insert into programme (id, title, level) values ($1, 'Pathway to Aesthetics: Level 4', 4)")
                .bind(&programme).execute(&mut *tx).await?;
            let unit = public_id();
            for (id, title, position) in [(&unit, "Skin science and consultation", 1), (&public_id(), "Chemical skin peels", 2)] {
                sqlx::query("insert into unit (id, programme_id, title, position) values ($1, $2, $3, $4)")
                    .bind(id).bind(&programme).bind(title).bind(position).execute(&mut *tx).await?;
            }
            let cohort = public_id();
            sqlx::query("insert into cohort (id, name, programme_id, starts_on) values ($1, $2, $3, $4)")
                .bind(&cohort).bind("Level 4: next intake").bind(&programme).bind(today + Duration::days(45)).execute(&mut *tx).await?;
            for (user, kind) in [(&amelia, "STUDENT"), (&tutor, "TUTOR")] {
                sqlx::query("insert into cohort_member (cohort_id, user_id, type) values ($1, $2, $3)")
                    .bind(&cohort).bind(user).bind(kind).execute(&mut *tx).await?;
            }
            sqlx::query("insert into invitation (id, cohort_id, email, type, invited_at, accepted_at) values ($1, $2, $3, 'STUDENT', $4, $4)")
                .bind(public_id()).bind(&cohort).bind(DEMO_STUDENT_EMAIL).bind(now).execute(&mut *tx).await?;
            sqlx::query("insert into assignment (id, unit_id, user_id, title, due_on) values ($1, $2, $3, $4, $5)")
                .bind(public_id()).bind(&unit).bind(&amelia).bind("Case study: a client consultation")
                .bind(today + Duration::days(60)).execute(&mut *tx).await?;
            sqlx::query("insert into intake_call (id, student_id, date, time, created_at) values ($1, $2, $3, '10:30', $4)")
                .bind(public_id()).bind(&amelia).bind(today + Duration::days(7)).bind(now).execute(&mut *tx).await?;
            sqlx::query(
                "insert into event_material (id, event_id, title, url, kind, position) values ($1, $2, 'Your joining pack', '/about/', 'link', 1)"
            ).bind(public_id()).bind(&session.event_id).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(true)
        })
    }
}
