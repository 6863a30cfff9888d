//! The price a course shows: what its dates will charge. A listing, a
//! course page, search results and structured data all read it from here,
//! so no page advertises a price the checkout does not take (decision 019).

use chrono::NaiveDate;
use serde::Serialize;
use ts_rs::TS;

use crate::money::Money;

/// A course's advertised price: the lowest a buyer can pay for it now, and
/// whether some dates cost more (shown as "From £…").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownPrice {
    pub price: Money,
    pub from: bool,
}

/// What a course shows, given the course's own price and the prices of its
/// dates: the dates with a free seat when there are any, else the dates
/// still to come that are full (their waiting lists book at those prices),
/// else the course's price (an online course, or one with no dates yet,
/// whose new dates start at it).
pub fn shown_price(course_price: Money, open_dates: &[Money], full_dates: &[Money]) -> ShownPrice {
    let dates = if open_dates.is_empty() { full_dates } else { open_dates };
    match (dates.iter().min(), dates.iter().max()) {
        (Some(&low), Some(&high)) => ShownPrice { price: low, from: low != high },
        _ => ShownPrice { price: course_price, from: false },
    }
}

/// A date still to come of a course, as the course's editor lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct DatePrice {
    pub session_id: String,
    pub date: NaiveDate,
    #[ts(type = "number")]
    pub price: Money,
    /// Priced apart from the course: a change of the course's price leaves it.
    pub own_price: bool,
}

/// Whether a date carries its own price rather than following the course's:
/// a change of the course's price moves the dates at the old price (the
/// projection's `update session`), and leaves the others as staff priced them.
pub fn follows_course_price(date_price: Money, course_price: Money) -> bool {
    date_price == course_price
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(pence: i64) -> Money {
        Money::from_pence(pence)
    }

    #[test]
    fn a_course_without_dates_shows_its_own_price() {
        assert_eq!(shown_price(p(39_900), &[], &[]), ShownPrice { price: p(39_900), from: false });
    }

    #[test]
    fn dates_at_one_price_show_that_price_not_the_courses() {
        assert_eq!(shown_price(p(119_900), &[p(125_000), p(125_000)], &[]), ShownPrice { price: p(125_000), from: false });
    }

    #[test]
    fn dates_at_different_prices_show_the_lowest_as_from() {
        assert_eq!(shown_price(p(125_000), &[p(135_000), p(125_000)], &[p(99_900)]), ShownPrice { price: p(125_000), from: true });
    }

    #[test]
    fn only_full_dates_show_their_prices() {
        assert_eq!(shown_price(p(125_000), &[], &[p(135_000)]), ShownPrice { price: p(135_000), from: false });
    }

    #[test]
    fn a_date_follows_the_course_only_at_its_price() {
        assert!(follows_course_price(p(125_000), p(125_000)));
        assert!(!follows_course_price(p(135_000), p(125_000)));
    }
}
