//! A grown history in memory, before any database: its shapes and the
//! invariants the writers rely on.

use std::collections::BTreeSet;

use chrono::{NaiveTime, TimeZone, Utc};

use enrol_domain::grow::{Fate, GrowPlan, Prng};

use crate::grow::catalogue::{Catalogue, Course, OnlineCourse};
use crate::grow::history::grow_history;
use crate::grow::money::ledger;

fn catalogue() -> Catalogue {
    let course = |n: usize, price: i64| Course {
        course_id: format!("course-{n}"),
        event_id: format!("course-{n}"),
        title: format!("Course {n}"),
        url: format!("/courses/course-{n}/"),
        price,
        start: NaiveTime::from_hms_opt(9, 30, 0).unwrap(),
        end: NaiveTime::from_hms_opt(16, 30, 0).unwrap(),
        session_type: "onsite".to_owned(),
        readiness: n.is_multiple_of(2),
    };
    Catalogue {
        courses: vec![course(1, 69_500), course(2, 125_000), course(3, 29_500)],
        online: vec![OnlineCourse {
            course_id: "anatomy-online".to_owned(),
            title: "Anatomy online".to_owned(),
            url: "/courses/anatomy-online/".to_owned(),
            price_id: "price_anatomy".to_owned(),
            amount: 19_900,
            months: 12,
            lessons: vec!["a".to_owned(), "b".to_owned()],
        }],
        last_reference: 40,
        last_receipt: 3,
        last_credit_note: 0,
        college_email: "hello@college.example".to_owned(),
    }
}

#[test]
fn a_grown_history_has_a_colleges_shape_and_never_oversells() {
    let now = Utc.with_ymd_and_hms(2026, 11, 29, 10, 0, 0).unwrap();
    let plan = GrowPlan::new(3, 0.05).unwrap();
    let catalogue = catalogue();
    let history = grow_history(plan, 11, &catalogue, now);
    assert_eq!(history.sessions.len(), 300, "a course runs once a day at most, and there are as many dates as planned");
    for session in &history.sessions {
        assert!(session.registrations <= session.seats, "{} oversold", session.id);
    }
    let kept = history.bookings.iter().filter(|b| b.fate != Fate::Cancelled).count();
    assert_eq!(kept, history.sessions.iter().map(|s| usize::try_from(s.registrations).unwrap()).sum::<usize>());
    let share = |fate: Fate| {
        let n = history.bookings.iter().filter(|b| b.fate == fate).count();
        f64::from(u32::try_from(n).unwrap()) / f64::from(u32::try_from(history.bookings.len()).unwrap())
    };
    assert!((0.06..0.10).contains(&share(Fate::Cancelled)), "{}", share(Fate::Cancelled));
    assert!((0.035..0.065).contains(&share(Fate::Moved)), "{}", share(Fate::Moved));
    for b in &history.bookings {
        let session = &history.sessions[b.session];
        assert!(b.created_at <= now);
        assert!(enrol_domain::london::today(b.created_at) < session.date, "booked before the day");
        if let Some(cancelled) = b.cancelled_at {
            assert!(cancelled >= b.created_at && enrol_domain::london::today(cancelled) < session.date);
        }
    }
    let references: BTreeSet<&str> =
        history.bookings.iter().map(|b| b.reference.as_str()).chain(history.online_orders.iter().map(|o| o.reference.as_str())).collect();
    assert_eq!(references.len(), history.bookings.len() + history.online_orders.len());
    assert_eq!(history.last_reference, 40 + i64::try_from(references.len()).unwrap());
    let students = plan.students();
    let made = u64::try_from(history.students.len()).unwrap();
    assert!(made * 10 > students * 8 && made * 10 < students * 12, "about {students} students, made {made}");
    // Spring and autumn are busier than summer and winter.
    let in_months = |months: &[u32]| history.sessions.iter().filter(|s| months.contains(&chrono::Datelike::month(&s.date))).count();
    assert!(in_months(&[3, 4, 5, 9, 10, 11]) > 2 * in_months(&[12, 1, 7, 8]));
}

#[test]
fn the_money_adds_up_and_documents_are_numbered_without_gaps() {
    let now = Utc.with_ymd_and_hms(2026, 11, 29, 10, 0, 0).unwrap();
    let catalogue = catalogue();
    let history = grow_history(GrowPlan::new(2, 0.05).unwrap(), 5, &catalogue, now);
    let ledger = ledger(&mut Prng::new(5), &history, &catalogue, now);
    for (index, money) in ledger.bookings.iter().enumerate() {
        let paid: i64 = ledger.payments.iter().filter(|p| p.booking == Some(index)).map(|p| p.amount - p.refunded).sum();
        match money.status {
            "completed" => assert_eq!(paid, money.quote.total.pence()),
            "deposit" => assert_eq!(paid, money.quote.deposit.pence()),
            "cancelled" => assert!((0..=money.quote.total.pence()).contains(&paid)),
            other => panic!("status {other}"),
        }
    }
    let fee_then_balance = ledger.bookings.iter().filter(|m| m.mode == "fee").count();
    assert!(fee_then_balance * 100 > ledger.bookings.len() * 55, "most pay the fee, then the balance");
    let receipts: Vec<i64> = ledger.payments.iter().map(|p| p.receipt).collect::<BTreeSet<_>>().into_iter().collect();
    assert_eq!(receipts, (4..4 + i64::try_from(ledger.payments.len()).unwrap()).collect::<Vec<_>>());
    assert_eq!(ledger.last_receipt, 3 + i64::try_from(ledger.payments.len()).unwrap());
    let notes: BTreeSet<i64> = ledger.refunds.iter().map(|r| r.credit_note).collect();
    assert_eq!(notes.len(), ledger.refunds.len());
    assert!(!ledger.refunds.is_empty());
    assert_eq!(notes.iter().copied().max(), Some(i64::try_from(ledger.refunds.len()).unwrap()));
    // Numbers follow the order documents were issued in.
    let mut by_number = ledger.payments.clone();
    by_number.sort_by_key(|p| p.receipt);
    assert!(by_number.windows(2).all(|w| w[0].at <= w[1].at));
}

#[test]
fn one_seed_grows_one_history() {
    let now = Utc.with_ymd_and_hms(2026, 11, 29, 10, 0, 0).unwrap();
    let catalogue = catalogue();
    let plan = GrowPlan::new(1, 0.05).unwrap();
    let (a, b) = (grow_history(plan, 3, &catalogue, now), grow_history(plan, 3, &catalogue, now));
    let ids = |h: &crate::grow::history::History| h.bookings.iter().map(|b| (b.id.clone(), b.reference.clone())).collect::<Vec<_>>();
    assert_eq!(ids(&a), ids(&b));
    assert_ne!(ids(&a), ids(&grow_history(plan, 4, &catalogue, now)));
}
