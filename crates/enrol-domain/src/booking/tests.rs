//! The booking's holds, payments, times and mails, each rule at its edges.

use super::*;
use crate::enrollment::LinePrice;

fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(1_800_000_000, 0).unwrap() + Duration::minutes(minutes)
}

#[test]
fn a_hold_is_renewed_for_twenty_minutes_but_never_past_its_life() {
    let ends = at(45);
    assert_eq!(renewed_hold(at(0), ends), Some(at(20)));
    assert_eq!(renewed_hold(at(30), ends), Some(at(45)));
    assert_eq!(renewed_hold(at(45), ends), None);
    assert_eq!(renewed_hold(at(90), ends), None);
}

fn quote() -> Quote {
    Quote::new(&[LinePrice { price: Money::from_pence(69_500), kit_pounds: None, code_applies: true }], None)
}

#[test]
fn a_booking_fee_pays_a_deposit_and_a_full_payment_completes() {
    let q = quote();
    assert_eq!(
        checkout_payment(EnrollmentStatus::Pending, PaymentMode::Fee, &q, Money::ZERO, q.deposit),
        CheckoutPayment::Paid { status: EnrollmentStatus::Deposit, excess: Money::ZERO }
    );
    assert_eq!(
        checkout_payment(EnrollmentStatus::Pending, PaymentMode::Full, &q, Money::ZERO, q.total),
        CheckoutPayment::Paid { status: EnrollmentStatus::Completed, excess: Money::ZERO }
    );
}

#[test]
fn too_little_is_underpaid_and_too_much_is_given_back() {
    let q = quote();
    let short = Money::from_pence(q.deposit.pence() - 1);
    assert_eq!(checkout_payment(EnrollmentStatus::Pending, PaymentMode::Fee, &q, Money::ZERO, short), CheckoutPayment::Underpaid);
    assert_eq!(
        checkout_payment(EnrollmentStatus::Pending, PaymentMode::Fee, &q, short, q.deposit),
        CheckoutPayment::Paid { status: EnrollmentStatus::Deposit, excess: short }
    );
}

#[test]
fn a_second_payment_of_a_paid_order_is_given_back_whole() {
    let q = quote();
    for status in [EnrollmentStatus::Deposit, EnrollmentStatus::Completed, EnrollmentStatus::Cancelled] {
        assert_eq!(checkout_payment(status, PaymentMode::Fee, &q, q.deposit, q.deposit), CheckoutPayment::AlreadyPaid);
    }
}

#[test]
fn a_failed_order_paid_later_is_still_paid() {
    let q = quote();
    assert_eq!(
        checkout_payment(EnrollmentStatus::Failed, PaymentMode::Fee, &q, Money::ZERO, q.deposit),
        CheckoutPayment::Paid { status: EnrollmentStatus::Deposit, excess: Money::ZERO }
    );
}

static RECEIPT: std::sync::LazyLock<IssuedDocument> = std::sync::LazyLock::new(|| IssuedDocument {
    kind: crate::issued_document::DocumentKind::Receipt,
    number: "RCT-000001".to_owned(),
    url: "https://academy.example/api/receipts/RCT-000001?token=t0k3n".to_owned(),
});

fn booking<'a>(email: &'a str, courses: &'a [BookedCourse], quote: &'a Quote) -> PaidBooking<'a> {
    PaidBooking {
        order_id: "o-1",
        reference: "B-Z20KM",
        given_name: "Sam",
        family_name: "Lee",
        email,
        contact_number: "+447700900123",
        courses,
        quote,
        mode: PaymentMode::Fee,
        paid_on: NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
        times: &[],
        venue: "27 Larkspur Row, Manchester",
        receipt: &RECEIPT,
        pay_url: "https://academy.example/pay-balance/?token=p4y",
        what_to_bring: &[],
    }
}

fn booked(title: &str, day: Option<(i32, u32, u32)>, kit: Option<(&str, i64)>, price: i64) -> BookedCourse {
    BookedCourse {
        course_id: title.to_lowercase(),
        event_id: title.to_lowercase(),
        session_id: day.map(|_| format!("{title}-s1")),
        title: title.to_owned(),
        url: format!("/courses/aesthetics/{}/", title.to_lowercase()),
        date: day.map(|(y, m, d)| NaiveDate::from_ymd_opt(y, m, d).unwrap()),
        session_type: day.map(|_| crate::page::SessionType::Onsite),
        kit_name: kit.map(|(name, _)| name.to_owned()),
        kit_pounds: kit.map(|(_, pounds)| pounds),
        price: Money::from_pence(price),
    }
}

fn course() -> BookedCourse {
    booked("Chemical peels", Some((2027, 1, 12)), None, 69_500)
}

#[test]
fn the_confirmation_states_the_booking_the_payment_and_the_balance() {
    let courses =
        [booked("Botox", Some((2027, 1, 20)), Some(("starter kit", 95)), 125_000), booked("Peels", Some((2027, 1, 12)), None, 45_000)];
    let prices: Vec<LinePrice> = courses.iter().map(BookedCourse::line_price).collect();
    let quote = Quote::new(&prices, Some(crate::enrollment::Discount { kind: crate::enrollment::DiscountType::Percent, value: 10 }));
    let body = booking("sam@example.com", &courses, &quote).confirmation("Example Academy");
    assert!(body.starts_with("Dear Sam,"));
    assert!(body.contains("Botox - Wednesday 20 January 2027, with the starter kit: £1,345.00"), "{body}");
    assert!(body.contains("Peels - Tuesday 12 January 2027: £450.00"));
    assert!(body.contains("Discount: -£179.50"));
    assert!(body.contains("Paid today: £200.00"));
    assert!(body.contains("Balance to pay: £1,415.50, due by Tuesday 29 December 2026."), "{body}");
    assert!(body.contains("\nYour receipt RCT-000001: https://academy.example/api/receipts/RCT-000001?token=t0k3n\n"), "{body}");
    let late = PaidBooking { paid_on: NaiveDate::from_ymd_opt(2027, 1, 2).unwrap(), ..booking("sam@example.com", &courses, &quote) };
    assert!(
        late.confirmation("Example Academy")
            .contains("due now, as your training starts within 14 days.\nPay online: https://academy.example/pay-balance/?token=p4y\n"),
        "a balance due now comes with the link to pay it"
    );
    let full = PaidBooking { given_name: "", mode: PaymentMode::Full, ..booking("", &courses, &quote) }.confirmation("Example Academy");
    assert!(full.starts_with("Hello,") && full.contains("Your training is paid in full."));
    assert!(!full.contains("What to bring"), "nothing to bring, no heading");
    let bring = ["Photo ID".to_owned(), "A notepad and pen".to_owned()];
    let listed = PaidBooking { what_to_bring: &bring, ..booking("sam@example.com", &courses, &quote) }.confirmation("Example Academy");
    assert!(listed.contains("\nWhat to bring:\n- Photo ID\n- A notepad and pen\n"), "{listed}");
}

fn times(session_type: SessionType, joining_link: Option<&str>) -> SessionTimes {
    let day = NaiveDate::from_ymd_opt(2027, 1, 12).unwrap();
    SessionTimes {
        session_id: "Chemical peels-s1".to_owned(),
        starts: day.and_hms_opt(9, 30, 0).unwrap(),
        ends: day.and_hms_opt(16, 30, 0).unwrap(),
        session_type,
        joining_link: joining_link.map(str::to_owned),
    }
}

#[test]
fn a_seated_booking_confirms_to_the_buyer_only_with_its_calendar_invite() {
    let (q, courses, times) = (quote(), [course()], [times(SessionType::Onsite, None)]);
    let booking = PaidBooking { times: &times, ..booking("sam@example.com", &courses, &q) };
    let mails = booking_mails(&booking, true, "Example Academy", "office@example.com", at(0));
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, "sam@example.com");
    assert_eq!(mails[0].subject, "Your Example Academy booking is confirmed");
    assert!(mails[0].body.contains("Paid today: £100.00"), "{}", mails[0].body);
    assert!(mails[0].body.contains("Booking reference B-Z20KM"), "{}", mails[0].body);
    assert!(mails[0].body.contains("09:30 to 16:30. At the academy: 27 Larkspur Row, Manchester."), "{}", mails[0].body);
    let invite = mails[0].attachment.as_ref().expect("a calendar invite");
    assert_eq!((invite.name.as_str(), invite.content_type.as_str()), ("booking.ics", "text/calendar; charset=utf-8; method=PUBLISH"));
    assert!(invite.body.contains("UID:booking-o-1-chemical peels@enrol\r\n"), "{}", invite.body);
    assert!(invite.body.contains("DTSTART;TZID=Europe/London:20270112T093000\r\n"), "{}", invite.body);
    assert!(invite.body.contains("LOCATION:27 Larkspur Row\\, Manchester\r\n"), "{}", invite.body);
    let unseated = booking_mails(&booking, false, "Example Academy", "office@example.com", at(0));
    assert!(unseated.iter().all(|m| m.attachment.is_none()), "no invite for a seat the booking does not have");
}

fn training<'a>(order_id: &'a str, courses: &'a [BookedCourse], times: &'a [SessionTimes], venue: &'a str) -> BookedTraining<'a> {
    BookedTraining { order_id, reference: "B-Z20KM", sequence: 0, courses, times, venue }
}

#[test]
fn virtual_training_says_how_to_join() {
    let venue = "27 Larkspur Row, Manchester";
    let link = "https://meet.example.com/peels";
    let online = times(SessionType::Virtual, Some(link));
    assert_eq!(
        online.joining_instructions(venue),
        "Join online at https://meet.example.com/peels. Please join ten minutes early on a computer with a camera and microphone, in a quiet room."
    );
    assert_eq!(
        times(SessionType::Virtual, None).joining_instructions(venue),
        "We will email your joining link and instructions before the day."
    );
    assert!(
        times(SessionType::Blended, Some(link))
            .joining_instructions(venue)
            .starts_with("Online and at the academy (27 Larkspur Row, Manchester). Join online at")
    );
    let courses = [course()];
    let invite =
        training("o-1", &courses, std::slice::from_ref(&online), venue).calendar("Example Academy", "office@example.com", at(0)).unwrap();
    assert!(
        invite.body.contains("URL:https://meet.example.com/peels\r\n")
            && invite.body.contains("LOCATION:https://meet.example.com/peels\r\n"),
        "{}",
        invite.body
    );
    assert!(training("o-1", &courses, &[], venue).calendar("Example Academy", "office@example.com", at(0)).is_none(), "undated: no invite");
}

#[test]
fn a_booking_without_its_seat_asks_the_college_to_call() {
    let (q, courses) = (quote(), [course()]);
    let mails = booking_mails(&booking("sam@example.com", &courses, &q), false, "Example Academy", "office@example.com", at(0));
    assert_eq!(mails.iter().map(|m| m.to.as_str()).collect::<Vec<_>>(), ["office@example.com", "sam@example.com"]);
    assert!(mails[0].subject.contains("B-Z20KM") && mails[0].body.contains("call Sam Lee on +447700900123"), "{}", mails[0].body);
    let unnamed = booking_mails(&booking("", &courses, &q), false, "Example Academy", "office@example.com", at(0));
    assert_eq!(unnamed.len(), 1, "no confirmation without an address");
    assert!(booking_mails(&booking("", &courses, &q), true, "Example Academy", "office@example.com", at(0)).is_empty());
}
