use chrono::{NaiveDate, TimeZone, Utc};

use super::*;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn quote(total_pence: i64, courses: usize) -> Quote {
    let fees = crate::enrollment::BOOKING_FEE.pence() * i64::try_from(courses).unwrap();
    let deposit = Money::from_pence(fees.min(total_pence));
    Quote {
        subtotal: Money::from_pence(total_pence),
        discount: Money::ZERO,
        total: Money::from_pence(total_pence),
        deposit,
        balance: Money::from_pence(total_pence - deposit.pence()),
    }
}

#[test]
fn the_parts_add_up_to_the_balance_exactly_for_every_count_and_total() {
    let agreed = day(2026, 11, 29);
    for count in LEAST_INSTALMENTS..=MOST_INSTALMENTS {
        for pence in 0..=2_000_000_i64 {
            if pence % 97 != 0 && pence > 20_000 && pence % 1_000 != 999 {
                continue;
            }
            let balance = Money::from_pence(pence);
            let parts = schedule(balance, count, agreed);
            assert_eq!(parts.len(), usize::try_from(count).unwrap());
            assert_eq!(parts.iter().map(|p| p.amount).sum::<Money>(), balance, "{count} parts of {balance}");
            let rest = parts[1].amount;
            assert!(parts.iter().skip(1).all(|p| p.amount == rest), "equal parts after the first");
            let extra = parts[0].amount.pence() - rest.pence();
            assert!((0..i64::from(count)).contains(&extra), "the first carries only the pennies left over: {extra}");
        }
    }
}

#[test]
fn a_1995_booking_in_three_parts() {
    let q = quote(199_500, 1);
    let parts = check_plan(&q, 3, day(2026, 11, 29), day(2027, 3, 1), &PlanSettings::default()).unwrap();
    let amounts: Vec<i64> = parts.iter().map(|p| p.amount.pence()).collect();
    assert_eq!(amounts, vec![63_168, 63_166, 63_166]);
    let days: Vec<NaiveDate> = parts.iter().map(|p| p.due_on).collect();
    assert_eq!(days, vec![day(2026, 12, 29), day(2027, 1, 29), day(2027, 2, 28)], "the 29th becomes February's last day");
}

#[test]
fn the_last_part_falls_on_or_before_the_balance_due_day() {
    let settings = PlanSettings::default();
    let agreed = day(2026, 1, 31);
    assert_eq!(most_instalments(agreed, day(2026, 3, 30), &settings), 1, "28 February, then 31 March is too late");
    assert_eq!(most_instalments(agreed, day(2026, 3, 31), &settings), 2);
    assert_eq!(most_instalments(agreed, day(2030, 1, 1), &settings), 6, "never more than the college allows");
    let q = quote(150_000, 1);
    assert_eq!(plan_choices(&q, agreed, day(2026, 3, 31), &settings), Ok(vec![2]));
    assert_eq!(plan_choices(&q, agreed, day(2026, 3, 30), &settings), Err(PlanRefused::TooSoon("Monday 30 March 2026".to_owned())));
    for due in [day(2026, 2, 1), day(2026, 5, 15), day(2026, 9, 9)] {
        for count in plan_choices(&q, agreed, due, &settings).unwrap_or_default() {
            let parts = check_plan(&q, count, agreed, due, &settings).unwrap();
            assert!(parts.iter().all(|p| p.due_on <= due && p.due_on > agreed));
        }
    }
}

#[test]
fn no_plan_below_the_threshold_without_a_balance_or_of_a_count_not_offered() {
    let settings = PlanSettings { max_instalments: 4, retry_days: vec![3] };
    let (agreed, due) = (day(2026, 11, 29), day(2028, 1, 1));
    assert_eq!(check_plan(&quote(99_999, 1), 2, agreed, due, &settings), Err(PlanRefused::BelowThreshold));
    assert_eq!(check_plan(&quote(100_000, 10), 2, agreed, due, &settings), Err(PlanRefused::NoBalance), "ten fees are the whole total");
    assert_eq!(check_plan(&quote(100_000, 1), 1, agreed, due, &settings), Err(PlanRefused::Count(4)));
    assert_eq!(check_plan(&quote(100_000, 1), 5, agreed, due, &settings), Err(PlanRefused::Count(4)));
    assert!(check_plan(&quote(100_000, 1), 4, agreed, due, &settings).is_ok());
}

#[test]
fn payments_cover_the_parts_in_order() {
    let parts = schedule(Money::from_pence(90_001), 3, day(2026, 11, 29));
    let [a, b, c] = [parts[0].amount, parts[1].amount, parts[2].amount];
    assert_eq!((a.pence(), b.pence(), c.pence()), (30_001, 30_000, 30_000));
    assert_eq!(still_asked(&parts, 1, Money::ZERO), a);
    assert_eq!(still_asked(&parts, 2, Money::ZERO), b, "a later part asks only for itself");
    assert_eq!(still_asked(&parts, 1, Money::from_pence(10_000)), Money::from_pence(20_001), "a part-payment shrinks the first");
    assert_eq!(still_asked(&parts, 2, Money::from_pence(40_001)), Money::from_pence(20_000));
    assert_eq!(still_asked(&parts, 3, Money::from_pence(90_001)), Money::ZERO, "paid off early: nothing more");
    assert_eq!(still_asked(&parts, 4, Money::ZERO), Money::ZERO, "no such part");
    assert_eq!(covered(&parts, Money::from_pence(60_000)), vec![1]);
    assert_eq!(covered(&parts, Money::from_pence(60_001)), vec![1, 2]);
    assert_eq!(covered(&parts, Money::from_pence(99_999)), vec![1, 2, 3], "more than the balance covers them all");
}

#[test]
fn a_refused_part_is_tried_again_on_the_colleges_days_then_left() {
    let settings = PlanSettings { max_instalments: 6, retry_days: vec![3, 7] };
    let at = Utc.with_ymd_and_hms(2027, 1, 29, 9, 0, 0).unwrap();
    assert_eq!(settings.next_attempt(1, at), Some(at + Duration::days(3)));
    assert_eq!(settings.next_attempt(2, at), Some(at + Duration::days(7)));
    assert_eq!(settings.next_attempt(3, at), None);
    assert_eq!(settings.next_attempt(0, at), None);
    assert_eq!(PlanSettings { max_instalments: 6, retry_days: vec![] }.next_attempt(1, at), None);
    assert_eq!(PartStatus::refused(settings.next_attempt(2, at)), PartStatus::Retrying);
    assert_eq!(PartStatus::refused(settings.next_attempt(3, at)), PartStatus::Failed);
}

#[test]
fn settings_are_checked() {
    assert_eq!(PlanSettings::default().check(), Ok(()));
    assert_eq!(PlanSettings { max_instalments: 1, retry_days: vec![] }.check(), Err(SettingsRefused::Count));
    assert_eq!(PlanSettings { max_instalments: 13, retry_days: vec![] }.check(), Err(SettingsRefused::Count));
    assert_eq!(PlanSettings { max_instalments: 12, retry_days: vec![0] }.check(), Err(SettingsRefused::Retries));
    assert_eq!(PlanSettings { max_instalments: 12, retry_days: vec![1, 2, 3, 4, 5, 6] }.check(), Err(SettingsRefused::Retries));
}

#[test]
fn statuses_read_back() {
    for s in [PlanStatus::AwaitingFee, PlanStatus::Active, PlanStatus::Paused, PlanStatus::Completed, PlanStatus::Cancelled] {
        assert_eq!(PlanStatus::parse(s.as_str()), Some(s));
    }
    for s in
        [PartStatus::Scheduled, PartStatus::Charging, PartStatus::Retrying, PartStatus::Failed, PartStatus::Paid, PartStatus::Cancelled]
    {
        assert_eq!(PartStatus::parse(s.as_str()), Some(s));
    }
    assert_eq!(PlanStatus::parse("nope"), None);
}

fn booking(courses: &[BookedCourse]) -> PlanBooking<'_> {
    PlanBooking { reference: "B-Z20KM", given_name: "Sam", email: "sam@example.com", courses, card: "Visa ending 4242" }
}

#[test]
fn the_plan_mail_lists_every_part_and_day() {
    let parts = schedule(Money::from_pence(189_500), 3, day(2026, 11, 29));
    let mail = plan_agreed(&booking(&[]), &parts, "https://college.example/account/", "Example Academy");
    assert_eq!(mail.subject, "Your payment plan: 3 instalments");
    assert!(
        mail.body.contains("the balance of your booking, £1,895.00, in 3 monthly instalments from your Visa ending 4242"),
        "{}",
        mail.body
    );
    assert!(mail.body.contains("Instalment 1: £631.68 on Tuesday 29 December 2026\n"), "{}", mail.body);
    assert!(mail.body.contains("Instalment 3: £631.66 on Sunday 28 February 2027\n"), "{}", mail.body);
    assert!(mail.body.contains("no interest"), "{}", mail.body);
}

#[test]
fn a_refused_part_mail_says_why_and_links_to_pay_it() {
    let parts = schedule(Money::from_pence(90_000), 3, day(2026, 11, 29));
    let refusal = Refusal {
        part: &parts[0],
        asked: Money::from_pence(30_000),
        authenticate: true,
        retry_on: Some(day(2027, 1, 1)),
        pay_url: "https://college.example/pay-balance/?token=abc&amount=30000",
    };
    let mail = part_refused(&booking(&[]), &refusal, "Example Academy", day(2026, 12, 29));
    assert_eq!(mail.subject, "Action needed: instalment 1 of £300.00");
    assert!(mail.body.contains("Your bank asked for you to confirm"), "{}", mail.body);
    assert!(mail.body.contains("Pay instalment 1: https://college.example/pay-balance/?token=abc&amount=30000\n"), "{}", mail.body);
    assert!(mail.body.contains("try the card again on Friday 1 January 2027"), "{}", mail.body);
    assert!(mail.body.contains("Please pay it now (you do not need to sign in)"), "the part's day has come: {}", mail.body);
    let last = part_refused(&booking(&[]), &Refusal { authenticate: false, retry_on: None, ..refusal }, "Example Academy", day(2027, 1, 5));
    assert!(last.body.contains("the payment was declined") && !last.body.contains("try the card again"), "{}", last.body);
}

#[test]
fn staff_change_only_a_running_plan_and_move_a_part_between_its_neighbours_and_the_balance_day() {
    let (today, last) = (day(2027, 1, 10), day(2027, 3, 1));
    let none = (None, None);
    let move_to = |d| PlanChange::MovePart { number: 2, due_on: d };
    assert_eq!(check_plan_change(PlanStatus::Active, &PlanChange::Pause, None, today, last, none), Ok(()));
    let again = check_plan_change(PlanStatus::Paused, &PlanChange::Pause, None, today, last, none);
    assert_eq!(again, Err(PlanChangeRefused::Status("paused")));
    assert_eq!(check_plan_change(PlanStatus::Paused, &PlanChange::Resume, None, today, last, none), Ok(()));
    let done = check_plan_change(PlanStatus::Completed, &PlanChange::Cancel, None, today, last, none);
    assert_eq!(done, Err(PlanChangeRefused::Status("completed")));
    let scheduled = Some(Some(PartStatus::Scheduled));
    assert_eq!(check_plan_change(PlanStatus::Active, &move_to(day(2027, 2, 1)), scheduled, today, last, none), Ok(()));
    assert_eq!(check_plan_change(PlanStatus::Active, &move_to(last), scheduled, today, last, none), Ok(()));
    let late = check_plan_change(PlanStatus::Active, &move_to(day(2027, 3, 2)), scheduled, today, last, none);
    assert_eq!(late, Err(PlanChangeRefused::Day("Monday 11 January 2027".to_owned(), "Monday 1 March 2027".to_owned())));
    let now = check_plan_change(PlanStatus::Active, &move_to(today), scheduled, today, last, none);
    assert!(now.is_err(), "not today: the job may have run");
    // Between the parts before and after it, so they are charged in order.
    let neighbours = (Some(day(2027, 1, 20)), Some(day(2027, 2, 20)));
    assert!(check_plan_change(PlanStatus::Active, &move_to(day(2027, 2, 20)), scheduled, today, last, neighbours).is_ok());
    let past_next = check_plan_change(PlanStatus::Active, &move_to(day(2027, 2, 21)), scheduled, today, last, neighbours);
    let window = ("Wednesday 20 January 2027".to_owned(), "Saturday 20 February 2027".to_owned());
    assert_eq!(past_next, Err(PlanChangeRefused::Day(window.0, window.1)));
    assert!(check_plan_change(PlanStatus::Active, &move_to(day(2027, 1, 19)), scheduled, today, last, neighbours).is_err());
    let paid = check_plan_change(PlanStatus::Active, &move_to(day(2027, 2, 1)), Some(Some(PartStatus::Paid)), today, last, none);
    assert_eq!(paid, Err(PlanChangeRefused::PartSettled));
    let missing = check_plan_change(PlanStatus::Active, &move_to(day(2027, 2, 1)), Some(None), today, last, none);
    assert_eq!(missing, Err(PlanChangeRefused::NoSuchPart(2)));
}

/// The schedules of `instalment-vectors.json`, which the checkout's
/// TypeScript preview runs too, so the parts shown are the parts charged.
#[test]
fn the_shared_vectors_hold() {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Case {
        name: String,
        total: i64,
        courses: i64,
        agreed_on: NaiveDate,
        first_day: NaiveDate,
        max_instalments: u32,
        expect: Expected,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Expected {
        balance_due_on: NaiveDate,
        choices: Vec<u32>,
        schedules: std::collections::BTreeMap<u32, Vec<Instalment>>,
    }
    let cases: Vec<Case> = serde_json::from_str(include_str!("../instalment-vectors.json")).unwrap();
    for case in cases {
        let due_on = crate::enrollment::balance_due_on(case.first_day, case.agreed_on);
        assert_eq!(due_on, case.expect.balance_due_on, "{}", case.name);
        let settings = PlanSettings { max_instalments: case.max_instalments, retry_days: vec![] };
        let q = quote(case.total, usize::try_from(case.courses).unwrap());
        let choices = plan_choices(&q, case.agreed_on, due_on, &settings).unwrap_or_default();
        assert_eq!(choices, case.expect.choices, "{}", case.name);
        for (count, parts) in &case.expect.schedules {
            assert_eq!(&check_plan(&q, *count, case.agreed_on, due_on, &settings).unwrap(), parts, "{}: {count} parts", case.name);
        }
    }
}
