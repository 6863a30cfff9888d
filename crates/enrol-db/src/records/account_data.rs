//! What the account area shows of a student's records (decision 008):
//! their bookings with what is paid and owed, their payments with the
//! receipts and credit notes that record them, and their online courses.

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};

use enrol_domain::auth::{AccountCreditNote, AccountData, AccountEnrollment, AccountOnlineCourse, AccountPayment, UserData};
use enrol_domain::balance::outstanding;
use enrol_domain::enrollment::{BookedCourse, balance_due};
use enrol_domain::learning::access::Access;
use enrol_domain::learning::progress::{Progress, package_percent};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_domain::page::EnrollmentStatus;
use enrol_domain::receipt::DocumentKind;

use crate::orders::enrollments::{NET_PAID, REFUNDED};
use crate::{Db, on_pool};

impl Db {
    /// What the account area of `user` shows: bookings newest first,
    /// payments with their receipts and credit notes, and online courses.
    pub async fn account_data(&self, user: UserData, now: DateTime<Utc>) -> anyhow::Result<AccountData> {
        #[derive(sqlx::FromRow)]
        struct EnrollmentRow {
            id: String,
            reference: String,
            status: String,
            discount: i64,
            total: i64,
            lines: String,
            paid: i64,
            refunded: i64,
            created_at: DateTime<Utc>,
            balance_due_on: Option<NaiveDate>,
        }
        #[derive(sqlx::FromRow)]
        struct PaymentRow {
            id: String,
            amount: i64,
            status: String,
            method: String,
            created_at: DateTime<Utc>,
        }
        #[derive(sqlx::FromRow)]
        struct DocumentRow {
            payment_id: String,
            kind: String,
            number: String,
            amount: i64,
        }
        #[derive(sqlx::FromRow)]
        struct CourseRow {
            reference: Option<String>,
            course_id: String,
            course_title: String,
            complete: bool,
            starts_at: DateTime<Utc>,
            ends_at: DateTime<Utc>,
            revoked_at: Option<DateTime<Utc>>,
            /// The hosted LMS course it was sold with (decision 029).
            coassemble_course_id: Option<String>,
        }
        let (enrollments, payments, documents, courses) = on_pool!(self, pool => {
            let enrollments: Vec<EnrollmentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "select e.id, e.reference, e.status, e.discount, e.total, e.lines, e.created_at, e.balance_due_on, {} as paid, \
                 cast({REFUNDED} as bigint) as refunded from enrollment e where e.user_id = $1 \
                 and e.status in ('deposit', 'completed', 'cancelled') order by e.created_at desc",
                NET_PAID
            ))).bind(&user.id).fetch_all(pool).await.context("Failed to read the bookings")?;
            let payments: Vec<PaymentRow> = sqlx::query_as(
                "select id, amount, status, method, created_at from payment where user_id = $1 order by created_at desc"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the payments")?;
            let documents: Vec<DocumentRow> = sqlx::query_as(
                "select r.payment_id, r.kind, r.number, r.amount from receipt r join payment p on p.id = r.payment_id \
                 where p.user_id = $1 order by r.kind, r.sequence"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the receipts")?;
            let courses: Vec<CourseRow> = sqlx::query_as(
                // Bought online (or given by staff, without an order), or the theory of a booking.
                "select * from (select o.reference, r.course_id, r.course_title, r.complete, r.starts_at, r.ends_at, r.revoked_at, \
                 r.coassemble_course_id from online_registration r left join online_order o on o.id = r.online_order_id \
                 where r.user_id = $1 and not r.removed union all select e.reference, t.course_id, t.course_title, false as complete, \
                 t.starts_at, t.ends_at, t.revoked_at, null from booking_theory t join enrollment e on e.id = t.enrollment_id where t.user_id = $1) access \
                 order by course_id, (revoked_at is null), ends_at"
            ).bind(&user.id).fetch_all(pool).await.context("Failed to read the online courses")?;
            (enrollments, payments, documents, courses)
        });
        let enrollments = enrollments
            .into_iter()
            .map(|row| {
                let booked: Vec<BookedCourse> = serde_json::from_str(&row.lines).context("Stored enrollment lines are not valid JSON")?;
                let status = EnrollmentStatus::parse(&row.status).with_context(|| format!("Unknown enrollment status {}", row.status))?;
                // A cancelled booking owes nothing: the terms settled it.
                let balance = match status {
                    EnrollmentStatus::Cancelled => Money::ZERO,
                    _ => outstanding(Money::from_pence(row.total), Money::from_pence(row.paid)),
                };
                let booked_on = london::today(row.created_at);
                let due = balance_due(row.balance_due_on, &booked, booked_on);
                Ok(AccountEnrollment {
                    status,
                    lines: booked.iter().map(BookedCourse::line).collect(),
                    discount: Money::from_pence(row.discount),
                    total: Money::from_pence(row.total),
                    paid: Money::from_pence(row.paid),
                    refunded: Money::from_pence(row.refunded),
                    balance,
                    balance_due_on: due.filter(|_| balance > Money::ZERO).map(|d| d.to_string()),
                    created_at: london::wall_clock(row.created_at),
                    id: row.id,
                    reference: row.reference,
                })
            })
            .collect::<anyhow::Result<_>>()?;
        // One entry a course: the registration giving the most access is
        // each course's last row (not revoked, ending last).
        let mut best: Vec<CourseRow> = Vec::new();
        for row in courses {
            match best.last_mut() {
                Some(last) if last.course_id == row.course_id => *last = row,
                _ => best.push(row),
            }
        }
        let mut online_courses = Vec::with_capacity(best.len());
        for c in best {
            // A course is studied at its hosted LMS when it was sold so (which
            // tells Enrol only of its completion), else by its SCORM package
            // when it has one, else by its lessons.
            let package = if c.coassemble_course_id.is_some() { None } else { self.course_package(&c.course_id).await? };
            let (teaches, percent, complete) = match package {
                None if c.coassemble_course_id.is_some() => (true, if c.complete { 100 } else { 0 }, c.complete),
                Some(_) => {
                    let kept = self.course_cmi(&user.id, &c.course_id).await?;
                    let complete = kept.as_ref().is_some_and(|kept| kept.completed_at.is_some());
                    (true, package_percent(kept.as_ref().map(|kept| &kept.cmi), complete), complete)
                }
                None => {
                    let record = self.study_record(&user.id, &c.course_id).await?;
                    let curriculum = self.published_course(&c.course_id).await?.and_then(|course| course.learning);
                    let progress = curriculum.as_ref().map(|curriculum| Progress::of(curriculum, &record));
                    (curriculum.is_some(), progress.as_ref().map_or(0, |p| p.percent), progress.is_some_and(|p| p.complete))
                }
            };
            online_courses.push(AccountOnlineCourse {
                player_url: teaches.then(|| format!("/learn/{}/", c.course_id)),
                access: Access::of(c.starts_at, c.ends_at, c.revoked_at, now),
                percent,
                complete: c.complete || complete,
                order_reference: c.reference,
                course_id: c.course_id,
                title: c.course_title,
            });
        }
        Ok(AccountData {
            user,
            enrollments,
            payments: payments
                .into_iter()
                .map(|p| {
                    let of_payment = || documents.iter().filter(|d| d.payment_id == p.id);
                    AccountPayment {
                        receipt: of_payment().find(|d| d.kind == DocumentKind::Receipt.as_str()).map(|d| d.number.clone()),
                        credit_notes: of_payment()
                            .filter(|d| d.kind == DocumentKind::CreditNote.as_str())
                            .map(|d| AccountCreditNote { number: d.number.clone(), amount: Money::from_pence(d.amount) })
                            .collect(),
                        id: p.id,
                        amount: Money::from_pence(p.amount),
                        status: p.status,
                        method: p.method,
                        created_at: london::wall_clock(p.created_at),
                    }
                })
                .collect(),
            online_courses,
        })
    }
}
