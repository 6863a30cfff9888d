//! Whether an in-person order may be made, and at what price: one pure
//! decision over the order as the browser sent it, the catalogue as booking
//! reads it (each course asked for, its dates and the seats taken of them
//! now) and the discount code it names. The answer is a priced order to
//! store, or the one reason it is refused; the server reads what the
//! decision needs, maps a refusal to its message and stores the order.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;

use crate::checkout::{ChosenCourse, EnrollData};
use crate::codes::CodeReach;
use crate::consent::{Consent, WithRequirements, check_agreed};
use crate::contact::{FieldErrors, Person};
use crate::enrollment::{BookedCourse, Discount, LinePrice, PaymentMethod, PaymentMode, Quote};
use crate::money::Money;
use crate::page::{CoursePage, Session};

/// The most courses one booking may hold.
pub const MAX_COURSES: usize = 20;
/// The most metadata entries an order may carry.
pub const MAX_METADATA: usize = 50;
/// The longest metadata key, in bytes.
pub const MAX_METADATA_KEY: usize = 100;
/// The longest metadata value, in bytes.
pub const MAX_METADATA_VALUE: usize = 500;

/// What is taken of one session now: paid registrations and the seats
/// unpaid orders hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeatsTaken {
    pub registrations: i64,
    pub held: i64,
}

/// A course as booking reads it: the catalogue's course, its dates still
/// to come, and the seats taken of each as counted now.
#[derive(Debug, Clone)]
pub struct OfferedCourse {
    pub course: CoursePage,
    /// Its sessions still to come, full or not, soonest first.
    pub dated: Vec<Session>,
    /// What is taken of each of its sessions still on sale, by session id;
    /// the seats the order being changed holds are its own and not counted.
    pub taken: HashMap<String, SeatsTaken>,
}

impl OfferedCourse {
    /// Its sessions with a seat free now, soonest first, with the seats
    /// counted now; a session no longer on sale has none.
    pub fn open_sessions(&self) -> Vec<Session> {
        self.dated
            .iter()
            .filter_map(|session| {
                let taken = self.taken.get(&session.id)?;
                let session = Session { registrations: taken.registrations, held: taken.held, ..session.clone() };
                (session.free_seats() > 0).then_some(session)
            })
            .collect()
    }

    /// Whether it has dates still to come, full or not: then it is booked
    /// with one, unless it is a package.
    pub fn has_dates(&self) -> bool {
        !self.dated.is_empty()
    }

    /// Its kit's price in whole pounds, when the kit is chosen and has one.
    pub fn kit_pounds(&self, include_kit: bool) -> Option<i64> {
        self.course.kit.as_ref().and_then(|kit| kit.price_pounds).filter(|_| include_kit)
    }
}

/// The catalogue as booking reads it: the courses a basket asks for.
#[derive(Debug, Clone, Default)]
pub struct CatalogueView {
    courses: HashMap<String, OfferedCourse>,
}

impl CatalogueView {
    pub fn new(courses: impl IntoIterator<Item = OfferedCourse>) -> Self {
        CatalogueView { courses: courses.into_iter().map(|offered| (offered.course.id.clone(), offered)).collect() }
    }

    /// Course `id` if it is sold in person now; `None` for a course the
    /// catalogue does not have and for an online course.
    pub fn in_person(&self, id: &str) -> Option<&OfferedCourse> {
        self.courses.get(id).filter(|offered| !offered.course.online)
    }
}

/// The discount code an order names, as found usable by it (open, with a
/// use left or one the order holds already).
#[derive(Debug, Clone, Copy)]
pub struct CodeOffered<'a> {
    pub code: &'a str,
    pub discount: Discount,
    pub reach: &'a CodeReach,
}

/// The code `order` names, trimmed; `None` when it names none.
pub fn named_code(order: &EnrollData) -> Option<&str> {
    order.discount.as_deref().map(str::trim).filter(|code| !code.is_empty())
}

/// An order admitted: what is stored, priced by the server.
#[derive(Debug, Clone, PartialEq)]
pub struct PricedOrder {
    pub mode: PaymentMode,
    pub payment_method: PaymentMethod,
    pub quote: Quote,
    /// The code applied, as it is stored.
    pub discount_code: Option<String>,
    pub courses: Vec<BookedCourse>,
    pub person: Person,
    pub consents: Vec<Consent>,
    pub metadata: BTreeMap<String, String>,
}

/// Why an order is refused: the first reason found, in the order the
/// rules are listed here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The payment method does not pay what the mode says.
    MethodNotForMode,
    /// The contact details' problems, field by field.
    Contact(FieldErrors),
    /// More metadata than an order carries, or an entry too long.
    TooMuchMetadata,
    NoCourses,
    /// More than [`MAX_COURSES`].
    TooManyCourses,
    /// A course not in the catalogue, or sold online only.
    NotSold,
    /// The same course twice.
    Twice {
        title: String,
    },
    /// The date chosen has no seat free (or is no longer on sale), or the
    /// course has dates and none is free; `date` is the one chosen, when
    /// the course has it.
    Full {
        title: String,
        date: Option<NaiveDate>,
    },
    /// A course with dates still free chosen without one.
    DateNeeded {
        title: String,
    },
    /// The terms or a course's entry requirements not agreed to.
    Agreement(FieldErrors),
    /// The code named is unknown, expired or used up.
    CodeUnusable {
        code: String,
    },
    /// The code reaches none of the order's courses.
    CodeMisses {
        code: String,
    },
    /// The amounts sent are not the server's `quote`.
    PriceChanged {
        sent_total: Money,
        sent_deposit: Money,
        quote: Quote,
    },
    /// The order comes to nothing to pay now.
    NothingToPay,
}

/// Decides whether `order` may be made, and at what price, from `view`
/// and `code`, the usable code found by the name the order gives (see
/// [`named_code`]; `None` when it names none or none usable).
pub fn admit(order: &EnrollData, view: &CatalogueView, code: Option<CodeOffered<'_>>) -> Result<PricedOrder, Refusal> {
    if order.selected.mode() != order.mode {
        return Err(Refusal::MethodNotForMode);
    }
    let person = order.contact.parse(order.selected).map_err(Refusal::Contact)?;
    let metadata = &order.metadata;
    if metadata.len() > MAX_METADATA || metadata.iter().any(|(k, v)| k.len() > MAX_METADATA_KEY || v.len() > MAX_METADATA_VALUE) {
        return Err(Refusal::TooMuchMetadata);
    }
    let courses = book(&order.enrollment.metadata, view)?;
    let requiring: Vec<WithRequirements<'_>> = courses
        .iter()
        .filter(|c| view.in_person(&c.course_id).is_some_and(|offered| offered.course.entry_requirements))
        .map(|c| WithRequirements { course_id: &c.course_id, title: &c.title })
        .collect();
    let consents = check_agreed(&order.agreed, false, &requiring).map_err(Refusal::Agreement)?;
    let code = match (named_code(order), code) {
        (None, _) => None,
        (Some(named), None) => return Err(Refusal::CodeUnusable { code: named.to_owned() }),
        (Some(_), Some(code)) => Some(code),
    };
    let prices: Vec<LinePrice> = match code {
        Some(code) => code.reach.line_prices(&courses).ok_or_else(|| Refusal::CodeMisses { code: code.code.to_owned() })?,
        None => courses.iter().map(BookedCourse::line_price).collect(),
    };
    let quote = Quote::new(&prices, code.map(|c| c.discount));
    let sent = &order.enrollment;
    if (sent.total, sent.deposit, sent.balance, sent.deposit_required)
        != (quote.total, quote.deposit, quote.balance, order.mode == PaymentMode::Fee)
    {
        return Err(Refusal::PriceChanged { sent_total: sent.total, sent_deposit: sent.deposit, quote });
    }
    if quote.amount_due(order.mode).pence() <= 0 {
        return Err(Refusal::NothingToPay);
    }
    Ok(PricedOrder {
        mode: order.mode,
        payment_method: order.selected,
        quote,
        discount_code: code.map(|c| c.code.to_owned()),
        courses,
        person,
        consents,
        metadata: metadata.clone(),
    })
}

/// `chosen` priced from `view`, refusing anything it does not sell now:
/// too many or no courses, unknown or online courses, a course twice,
/// dates without a free seat, a course with dates booked without one.
fn book(chosen: &[ChosenCourse], view: &CatalogueView) -> Result<Vec<BookedCourse>, Refusal> {
    if chosen.is_empty() {
        return Err(Refusal::NoCourses);
    }
    if chosen.len() > MAX_COURSES {
        return Err(Refusal::TooManyCourses);
    }
    let mut booked: Vec<BookedCourse> = Vec::with_capacity(chosen.len());
    for choice in chosen {
        let offered = view.in_person(&choice.course_id).ok_or(Refusal::NotSold)?;
        let course = &offered.course;
        if booked.iter().any(|b| b.course_id == course.id) {
            return Err(Refusal::Twice { title: course.title.clone() });
        }
        let session = match &choice.session_id {
            Some(id) => Some(offered.open_sessions().into_iter().find(|s| &s.id == id).ok_or_else(|| Refusal::Full {
                title: course.title.clone(),
                date: offered.dated.iter().find(|s| &s.id == id).map(|s| s.date),
            })?),
            None if course.is_package || !offered.has_dates() => None,
            None if offered.open_sessions().is_empty() => return Err(Refusal::Full { title: course.title.clone(), date: None }),
            None => return Err(Refusal::DateNeeded { title: course.title.clone() }),
        };
        let kit_pounds = offered.kit_pounds(choice.include_kit);
        booked.push(BookedCourse {
            course_id: course.id.clone(),
            event_id: course.id.clone(),
            session_id: session.as_ref().map(|s| s.id.clone()),
            title: course.title.clone(),
            url: course.url.clone(),
            date: session.as_ref().map(|s| s.date),
            session_type: session.as_ref().map(|s| s.session_type),
            kit_name: kit_pounds.and(course.kit.as_ref().map(|kit| kit.name.clone())),
            kit_pounds,
            price: session.map_or(course.pricing.unit_amount, |s| s.price),
        });
    }
    Ok(booked)
}

#[cfg(test)]
mod tests;
