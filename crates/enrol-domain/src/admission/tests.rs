//! Every rule of admission, each at its boundary: one table of orders over
//! one small catalogue, with what each is admitted at or refused for.

use std::collections::BTreeSet;

use super::*;
use crate::checkout::{Contact, EnrollmentInput};
use crate::consent::{Agreed, CONSENT_VERSION, ENTRY_REQUIREMENTS_MISSING, TERMS_MISSING};
use crate::enrollment::DiscountType;
use crate::page::{Kit, Pricing, SessionType};

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2027, 3, d).expect("a day")
}

/// A session of `seats` on `day(d)`, as the catalogue lists it.
fn session(id: &str, d: u32, price: i64, seats: i64) -> Session {
    Session {
        id: id.to_owned(),
        start: format!("{}T10:00:00", day(d)),
        end: format!("{}T16:00:00", day(d)),
        date: day(d),
        price: Money::from_pence(price),
        seat_price: Money::from_pence(price),
        seats,
        registrations: 0,
        held: 0,
        session_type: SessionType::Onsite,
        status: "active".to_owned(),
    }
}

fn course(id: &str, title: &str, price: i64) -> CoursePage {
    CoursePage {
        id: id.to_owned(),
        title: title.to_owned(),
        url: format!("/courses/aesthetics/{id}/"),
        section_slug: "aesthetics".to_owned(),
        section_title: "Aesthetics".to_owned(),
        summary: String::new(),
        description_html: String::new(),
        images: Vec::new(),
        includes: Vec::new(),
        what_to_bring: Vec::new(),
        duration: "1 day".to_owned(),
        level: String::new(),
        accreditation: String::new(),
        prerequisites: String::new(),
        entry_requirements: false,
        entry_online_course: None,
        online: false,
        is_package: false,
        pricing: Pricing { id: format!("price_{id}"), unit_amount: Money::from_pence(price) },
        price_from: false,
        was_price: None,
        kit: None,
        upsell: None,
        faqs: Vec::new(),
        sessions: Vec::new(),
        full_sessions: Vec::new(),
        related: Vec::new(),
        reviews: Default::default(),
    }
}

/// `course` with its dates, each with what is taken of it now (`None`: no
/// longer on sale).
fn offered(course: CoursePage, dates: Vec<(Session, Option<(i64, i64)>)>) -> OfferedCourse {
    let taken = dates
        .iter()
        .filter_map(|(s, taken)| taken.map(|(registrations, held)| (s.id.clone(), SeatsTaken { registrations, held })))
        .collect();
    OfferedCourse { course, dated: dates.into_iter().map(|(s, _)| s).collect(), taken }
}

/// The catalogue every case reads.
fn catalogue() -> CatalogueView {
    let fillers = CoursePage {
        kit: Some(Kit { name: "Starter kit".to_owned(), price_pounds: Some(50), worth_pounds: None, note: String::new() }),
        ..course("fillers", "Dermal Fillers", 100_000)
    };
    let package = CoursePage { is_package: true, ..course("package", "Aesthetics Package", 250_000) };
    let online = CoursePage { online: true, ..course("online", "Skin Online", 30_000) };
    let peels = CoursePage { entry_requirements: true, ..course("peels", "Chemical Peels", 60_000) };
    let numbered = (1..=21).map(|n| offered(course(&format!("c{n:02}"), &format!("Course {n}"), 20_000), Vec::new()));
    CatalogueView::new(
        [
            offered(
                fillers,
                vec![
                    (session("fillers-1", 10, 120_000, 10), Some((8, 1))),
                    (session("fillers-2", 17, 100_000, 10), Some((6, 4))),
                    (session("fillers-3", 24, 100_000, 10), None),
                ],
            ),
            offered(course("botox", "Botox", 80_000), Vec::new()),
            offered(package, vec![(session("package-1", 12, 250_000, 6), Some((0, 0)))]),
            offered(course("lips", "Lip Fillers", 90_000), vec![(session("lips-1", 11, 90_000, 8), Some((8, 0)))]),
            offered(online, Vec::new()),
            offered(course("consult", "Consultation", 0), Vec::new()),
            offered(peels, Vec::new()),
        ]
        .into_iter()
        .chain(numbered),
    )
}

/// A card order for the booking fee of `chosen` (course, date, kit), sending
/// `total` and `deposit` as its figures.
fn fee(chosen: &[(&str, Option<&str>, bool)], total: i64, deposit: i64) -> EnrollData {
    EnrollData {
        discount: None,
        contact: Contact {
            name: "Amelia".to_owned(),
            surname: "Hart".to_owned(),
            email: "amelia@example.org".to_owned(),
            phone: "07700 900123".to_owned(),
        },
        selected: PaymentMethod::Card,
        mode: PaymentMode::Fee,
        enrollment: EnrollmentInput {
            total: Money::from_pence(total),
            deposit: Money::from_pence(deposit),
            balance: Money::from_pence(total - deposit),
            deposit_required: true,
            metadata: chosen
                .iter()
                .map(|(id, session, kit)| ChosenCourse {
                    course_id: (*id).to_owned(),
                    session_id: session.map(str::to_owned),
                    include_kit: *kit,
                })
                .collect(),
            method: "stripe".to_owned(),
            acct: None,
            status: "pending".to_owned(),
            kind: "student".to_owned(),
            organization: None,
        },
        agreed: Agreed { version: CONSENT_VERSION.to_owned(), terms: true, digital_content: false, entry_requirements: Vec::new() },
        metadata: BTreeMap::new(),
    }
}

fn with(mut order: EnrollData, change: impl FnOnce(&mut EnrollData)) -> EnrollData {
    change(&mut order);
    order
}

/// `order` paid in full by `method`.
fn full(order: EnrollData, method: PaymentMethod) -> EnrollData {
    with(order, |o| {
        o.selected = method;
        o.mode = PaymentMode::Full;
        o.enrollment.deposit_required = false;
    })
}

fn named(order: EnrollData, code: &str) -> EnrollData {
    with(order, |o| o.discount = Some(code.to_owned()))
}

fn numbered(n: usize) -> Vec<(String, Option<&'static str>, bool)> {
    (1..=n).map(|n| (format!("c{n:02}"), None, false)).collect()
}

fn fee_numbered(n: usize, total: i64, deposit: i64) -> EnrollData {
    let chosen = numbered(n);
    let chosen: Vec<(&str, Option<&str>, bool)> = chosen.iter().map(|(id, s, k)| (id.as_str(), *s, *k)).collect();
    fee(&chosen, total, deposit)
}

fn metadata(entries: usize, key: usize, value: usize) -> BTreeMap<String, String> {
    (0..entries).map(|n| (format!("{n:0key$}"), "v".repeat(value))).collect()
}

fn fields(errors: &[(&'static str, &'static str)]) -> FieldErrors {
    errors.iter().copied().collect()
}

fn full_on(title: &str, date: Option<NaiveDate>) -> Refusal {
    Refusal::Full { title: title.to_owned(), date }
}

struct Case<'a> {
    name: &'static str,
    order: EnrollData,
    code: Option<CodeOffered<'a>>,
    /// The total admitted, or the refusal.
    expect: Result<i64, Refusal>,
}

fn case<'a>(name: &'static str, order: EnrollData, code: Option<CodeOffered<'a>>, expect: Result<i64, Refusal>) -> Case<'a> {
    Case { name, order, code, expect }
}

#[test]
fn admits_or_refuses_every_order_as_the_rules_say() {
    let view = catalogue();
    let every = CodeReach::Every;
    let fillers_only = CodeReach::Only(BTreeSet::from(["fillers".to_owned()]));
    let botox_only = CodeReach::Only(BTreeSet::from(["botox".to_owned()]));
    let percent = |value, reach| Some(CodeOffered { code: "TEN", discount: Discount { kind: DiscountType::Percent, value }, reach });
    let pounds = |value, reach| Some(CodeOffered { code: "OFF", discount: Discount { kind: DiscountType::Pound, value }, reach });
    let fillers_1 = [("fillers", Some("fillers-1"), false)];
    let fillers_and_botox = [("fillers", Some("fillers-1"), false), ("botox", None, false)];
    let price_changed = |sent_total, sent_deposit, total| Refusal::PriceChanged {
        sent_total: Money::from_pence(sent_total),
        sent_deposit: Money::from_pence(sent_deposit),
        quote: Quote::new(&[LinePrice { price: Money::from_pence(total), kit_pounds: None, code_applies: true }], None),
    };
    let cases = vec![
        // Admitted.
        case("a dated course on a date with a seat free", fee(&fillers_1, 120_000, 10_000), None, Ok(120_000)),
        case("its kit adds its whole pounds", fee(&[("fillers", Some("fillers-1"), true)], 125_000, 10_000), None, Ok(125_000)),
        case("a course without dates needs none", fee(&[("botox", None, false)], 80_000, 10_000), None, Ok(80_000)),
        case("a package with dates may go without one", fee(&[("package", None, false)], 250_000, 10_000), None, Ok(250_000)),
        case("twenty courses", fee_numbered(20, 400_000, 200_000), None, Ok(400_000)),
        case(
            "entry requirements confirmed",
            with(fee(&[("peels", None, false)], 60_000, 10_000), |o| o.agreed.entry_requirements = vec!["peels".to_owned()]),
            None,
            Ok(60_000),
        ),
        case(
            "fifty metadata entries with the longest key and value",
            with(fee(&fillers_1, 120_000, 10_000), |o| o.metadata = metadata(MAX_METADATA, MAX_METADATA_KEY, MAX_METADATA_VALUE)),
            None,
            Ok(120_000),
        ),
        case("paid in full by Klarna", full(fee(&fillers_1, 120_000, 10_000), PaymentMethod::Klarna), None, Ok(120_000)),
        case(
            "paid in full by Clearpay with no contact details",
            full(with(fee(&fillers_1, 120_000, 10_000), |o| o.contact = Contact::default()), PaymentMethod::AfterpayClearpay),
            None,
            Ok(120_000),
        ),
        case("a code reaching every course", named(fee(&fillers_and_botox, 180_000, 20_000), "ten"), percent(10, &every), Ok(180_000)),
        case(
            "a code reaching one of the courses",
            named(fee(&fillers_and_botox, 188_000, 20_000), "ten"),
            percent(10, &fillers_only),
            Ok(188_000),
        ),
        case("a blank code names none", named(fee(&fillers_1, 120_000, 10_000), "  "), None, Ok(120_000)),
        case("one penny to pay", named(fee(&[("botox", None, false)], 1, 1), "off"), pounds(79_999, &every), Ok(1)),
        // The payment method and the contact details.
        case(
            "Klarna for the booking fee",
            with(fee(&fillers_1, 0, 0), |o| o.selected = PaymentMethod::Klarna),
            None,
            Err(Refusal::MethodNotForMode),
        ),
        case(
            "a card for the full amount",
            with(fee(&fillers_1, 0, 0), |o| o.mode = PaymentMode::Full),
            None,
            Err(Refusal::MethodNotForMode),
        ),
        case(
            "a card payment without a name",
            with(fee(&fillers_1, 120_000, 10_000), |o| o.contact.name = String::new()),
            None,
            Err(Refusal::Contact(fields(&[("name", "Name is required")]))),
        ),
        // The metadata's limits.
        case(
            "fifty-one metadata entries",
            with(fee(&fillers_1, 120_000, 10_000), |o| o.metadata = metadata(MAX_METADATA + 1, 2, 1)),
            None,
            Err(Refusal::TooMuchMetadata),
        ),
        case(
            "a metadata key one byte too long",
            with(fee(&fillers_1, 120_000, 10_000), |o| o.metadata = metadata(1, MAX_METADATA_KEY + 1, 1)),
            None,
            Err(Refusal::TooMuchMetadata),
        ),
        case(
            "a metadata value one byte too long",
            with(fee(&fillers_1, 120_000, 10_000), |o| o.metadata = metadata(1, 2, MAX_METADATA_VALUE + 1)),
            None,
            Err(Refusal::TooMuchMetadata),
        ),
        // The courses.
        case("no course", fee(&[], 0, 0), None, Err(Refusal::NoCourses)),
        case("twenty-one courses", fee_numbered(21, 420_000, 210_000), None, Err(Refusal::TooManyCourses)),
        case("a course the catalogue does not have", fee(&[("nails", None, false)], 0, 0), None, Err(Refusal::NotSold)),
        case("an online course", fee(&[("online", None, false)], 30_000, 10_000), None, Err(Refusal::NotSold)),
        case(
            "a course twice, on two dates",
            fee(&[("fillers", Some("fillers-1"), false), ("fillers", Some("fillers-2"), false)], 0, 0),
            None,
            Err(Refusal::Twice { title: "Dermal Fillers".to_owned() }),
        ),
        case(
            "a course twice before one not sold",
            fee(&[("botox", None, false), ("botox", None, false), ("nails", None, false)], 0, 0),
            None,
            Err(Refusal::Twice { title: "Botox".to_owned() }),
        ),
        case(
            "a course not sold before one twice",
            fee(&[("nails", None, false), ("botox", None, false), ("botox", None, false)], 0, 0),
            None,
            Err(Refusal::NotSold),
        ),
        // The dates and their seats.
        case(
            "a date whose last seats are held",
            fee(&[("fillers", Some("fillers-2"), false)], 100_000, 10_000),
            None,
            Err(full_on("Dermal Fillers", Some(day(17)))),
        ),
        case(
            "a date whose seats are all registered",
            fee(&[("lips", Some("lips-1"), false)], 90_000, 10_000),
            None,
            Err(full_on("Lip Fillers", Some(day(11)))),
        ),
        case(
            "a date no longer on sale",
            fee(&[("fillers", Some("fillers-3"), false)], 100_000, 10_000),
            None,
            Err(full_on("Dermal Fillers", Some(day(24)))),
        ),
        case(
            "another course's date",
            fee(&[("fillers", Some("lips-1"), false)], 100_000, 10_000),
            None,
            Err(full_on("Dermal Fillers", None)),
        ),
        case(
            "a date for a course without dates",
            fee(&[("botox", Some("botox-1"), false)], 80_000, 10_000),
            None,
            Err(full_on("Botox", None)),
        ),
        case(
            "no date for a course with one free",
            fee(&[("fillers", None, false)], 100_000, 10_000),
            None,
            Err(Refusal::DateNeeded { title: "Dermal Fillers".to_owned() }),
        ),
        case(
            "no date for a course whose dates are all full",
            fee(&[("lips", None, false)], 90_000, 10_000),
            None,
            Err(full_on("Lip Fillers", None)),
        ),
        // What the buyer agreed to.
        case(
            "entry requirements not confirmed",
            fee(&[("peels", None, false)], 60_000, 10_000),
            None,
            Err(Refusal::Agreement(fields(&[("agreed.entryRequirements", ENTRY_REQUIREMENTS_MISSING)]))),
        ),
        case(
            "the terms not accepted",
            with(fee(&fillers_1, 120_000, 10_000), |o| o.agreed.terms = false),
            None,
            Err(Refusal::Agreement(fields(&[("agreed.terms", TERMS_MISSING)]))),
        ),
        // The code.
        case(
            "a code no longer usable, named as typed",
            named(fee(&fillers_1, 120_000, 10_000), " ten "),
            None,
            Err(Refusal::CodeUnusable { code: "ten".to_owned() }),
        ),
        case(
            "a code reaching none of the courses",
            named(fee(&fillers_1, 120_000, 10_000), "ten"),
            percent(10, &botox_only),
            Err(Refusal::CodeMisses { code: "TEN".to_owned() }),
        ),
        case("a course not sold before a code not usable", named(fee(&[("nails", None, false)], 0, 0), "ten"), None, Err(Refusal::NotSold)),
        // The amounts.
        case("a total a penny short", fee(&fillers_1, 119_999, 10_000), None, Err(price_changed(119_999, 10_000, 120_000))),
        case(
            "the booking fee sent for the full amount",
            with(full(fee(&fillers_1, 120_000, 10_000), PaymentMethod::Klarna), |o| o.enrollment.deposit_required = true),
            None,
            Err(price_changed(120_000, 10_000, 120_000)),
        ),
        case("nothing to pay for a free course", fee(&[("consult", None, false)], 0, 0), None, Err(Refusal::NothingToPay)),
        case(
            "nothing to pay once the code takes it all",
            named(fee(&[("botox", None, false)], 0, 0), "ten"),
            percent(100, &every),
            Err(Refusal::NothingToPay),
        ),
        case(
            "nothing to pay in full",
            full(fee(&[("consult", None, false)], 0, 0), PaymentMethod::Klarna),
            None,
            Err(Refusal::NothingToPay),
        ),
    ];
    for case in cases {
        let admitted = admit(&case.order, &view, case.code).map(|order| order.quote.total.pence());
        assert_eq!(admitted, case.expect, "{}", case.name);
    }
}

#[test]
fn an_admitted_order_keeps_its_lines_code_agreements_and_metadata() {
    let view = catalogue();
    let every = CodeReach::Every;
    let order = with(named(fee(&[("fillers", Some("fillers-1"), true), ("peels", None, false)], 166_500, 20_000), " ten "), |o| {
        o.agreed.entry_requirements = vec!["peels".to_owned()];
        o.metadata = BTreeMap::from([("utm_source".to_owned(), "newsletter".to_owned())]);
    });
    let code = CodeOffered { code: "TEN", discount: Discount { kind: DiscountType::Percent, value: 10 }, reach: &every };
    let admitted = admit(&order, &view, Some(code)).expect("admitted");
    assert_eq!(admitted.discount_code.as_deref(), Some("TEN"), "the code as stored, not as typed");
    assert_eq!((admitted.quote.subtotal, admitted.quote.discount), (Money::from_pence(185_000), Money::from_pence(18_500)));
    assert_eq!((admitted.mode, admitted.payment_method), (PaymentMode::Fee, PaymentMethod::Card));
    assert_eq!(
        admitted.courses[0],
        BookedCourse {
            course_id: "fillers".to_owned(),
            event_id: "fillers".to_owned(),
            session_id: Some("fillers-1".to_owned()),
            title: "Dermal Fillers".to_owned(),
            url: "/courses/aesthetics/fillers/".to_owned(),
            date: Some(day(10)),
            session_type: Some(SessionType::Onsite),
            kit_name: Some("Starter kit".to_owned()),
            kit_pounds: Some(50),
            price: Money::from_pence(120_000),
        }
    );
    assert_eq!((admitted.courses[1].session_id.as_deref(), admitted.courses[1].price), (None, Money::from_pence(60_000)));
    let agreed: Vec<(&str, Option<&str>)> = admitted.consents.iter().map(|c| (c.kind, c.course_id.as_deref())).collect();
    assert_eq!(agreed, [("terms", None), ("entry_requirements", Some("peels"))]);
    assert_eq!(admitted.metadata, order.metadata);
    assert_eq!((admitted.person.given_name(), admitted.person.phone()), ("Amelia", "+447700900123"));
}

#[test]
fn a_kit_without_a_price_or_not_chosen_adds_nothing() {
    let view = catalogue();
    let without = admit(&fee(&[("fillers", Some("fillers-1"), false)], 120_000, 10_000), &view, None).expect("admitted");
    assert_eq!((without.courses[0].kit_name.as_deref(), without.courses[0].kit_pounds), (None, None));
    let botox = view.in_person("botox").expect("sold");
    assert_eq!(botox.kit_pounds(true), None, "a course without a kit");
}

#[test]
fn open_sessions_count_the_seats_taken_now_and_drop_those_off_sale() {
    let view = catalogue();
    let fillers = view.in_person("fillers").expect("sold");
    let open: Vec<(String, i64, i64)> = fillers.open_sessions().into_iter().map(|s| (s.id, s.registrations, s.held)).collect();
    assert_eq!(open, [("fillers-1".to_owned(), 8, 1)], "held seats fill a date; a date off sale has none");
    assert!(fillers.has_dates());
    assert!(view.in_person("lips").expect("sold").open_sessions().is_empty());
    assert!(!view.in_person("botox").expect("sold").has_dates());
    assert!(view.in_person("online").is_none(), "online courses are not sold in person");
    assert!(view.in_person("nails").is_none());
}
