//! Pricing the e-learning basket (docs/product.md#online-checkout).
//!
//! The browser names what it wants by price id and upsell `price_data`; the
//! server prices it from its own catalogue. Anything the catalogue does not
//! offer, or offers at another price, is refused: no amount from the browser
//! is ever charged.

use serde::{Deserialize, Serialize};

use crate::issued_document::IssuedDocument;
use crate::money::Money;
use crate::page::{OrderLine, PriceData, UpsellOffer};

/// The most courses one online order may hold.
pub const MAX_COURSES: usize = 50;

/// An online course as the catalogue sells it.
#[derive(Debug, Clone)]
pub struct OnlineOffer {
    pub course_id: String,
    pub title: String,
    pub url: String,
    pub price_id: String,
    pub unit_amount: Money,
    pub upsell: Option<UpsellOffer>,
}

/// What a priced line stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum LineItem {
    Course {
        course_id: String,
        price_id: String,
        url: String,
    },
    /// An add-on bought with `for_course_id`.
    Upsell {
        product: String,
        for_course_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PricedLine {
    pub item: LineItem,
    pub title: String,
    pub amount: Money,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedOnlineOrder {
    pub lines: Vec<PricedLine>,
    pub total: Money,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OnlineOrderError {
    #[error("Add at least one online course to your basket.")]
    Empty,
    #[error("An order can hold at most {MAX_COURSES} courses.")]
    TooMany,
    #[error("A course in your basket is no longer sold online ({0}). Please remove it and try again.")]
    UnknownPrice(String),
    #[error("A course appears twice in your basket ({0}).")]
    Duplicate(String),
    #[error("The add-on {0} is not offered with the courses in your basket.")]
    UnknownUpsell(String),
    #[error("The price of {0} has changed. Please refresh the page to see the current price.")]
    WrongAmount(String),
    #[error("Prices must be in gbp.")]
    WrongCurrency,
}

/// Prices `price_ids` and the chosen `additional` upsells against `offers`.
pub fn price_online_order(
    offers: &[OnlineOffer],
    price_ids: &[String],
    additional: &[PriceData],
) -> Result<PricedOnlineOrder, OnlineOrderError> {
    if price_ids.is_empty() {
        return Err(OnlineOrderError::Empty);
    }
    if price_ids.len() > MAX_COURSES {
        return Err(OnlineOrderError::TooMany);
    }
    let mut chosen: Vec<&OnlineOffer> = Vec::with_capacity(price_ids.len());
    for price_id in price_ids {
        let offer = offers.iter().find(|o| &o.price_id == price_id).ok_or_else(|| OnlineOrderError::UnknownPrice(price_id.clone()))?;
        if chosen.iter().any(|c| c.price_id == offer.price_id) {
            return Err(OnlineOrderError::Duplicate(offer.title.clone()));
        }
        chosen.push(offer);
    }
    let mut lines: Vec<PricedLine> = chosen
        .iter()
        .map(|offer| PricedLine {
            item: LineItem::Course { course_id: offer.course_id.clone(), price_id: offer.price_id.clone(), url: offer.url.clone() },
            title: offer.title.clone(),
            amount: offer.unit_amount,
        })
        .collect();
    let mut used: Vec<&str> = Vec::new();
    for wanted in additional {
        if wanted.currency != "gbp" {
            return Err(OnlineOrderError::WrongCurrency);
        }
        let (course, upsell) = chosen
            .iter()
            .filter(|c| !used.contains(&c.course_id.as_str()))
            .find_map(|c| c.upsell.as_ref().filter(|u| u.price_data.product == wanted.product).map(|u| (c, u)))
            .ok_or_else(|| OnlineOrderError::UnknownUpsell(wanted.product.clone()))?;
        if upsell.price_data.unit_amount != wanted.unit_amount {
            return Err(OnlineOrderError::WrongAmount(upsell.title.clone()));
        }
        used.push(&course.course_id);
        lines.push(PricedLine {
            item: LineItem::Upsell { product: upsell.price_data.product.clone(), for_course_id: course.course_id.clone() },
            title: upsell.title.clone(),
            amount: upsell.price_data.unit_amount,
        });
    }
    let total = lines.iter().map(|l| l.amount).sum();
    Ok(PricedOnlineOrder { lines, total })
}

impl PricedLine {
    /// The line as the order page and the receipt show it.
    pub fn order_line(&self) -> OrderLine {
        OrderLine {
            title: self.title.clone(),
            amount: self.amount,
            course_url: match &self.item {
                LineItem::Course { url, .. } => Some(url.clone()),
                LineItem::Upsell { .. } => None,
            },
        }
    }
}

/// Where the buyer of an online course starts it, as their confirmation
/// says (decision 025).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartCourse<'a> {
    /// In the account their address already proved: sign in.
    InAccount,
    /// From this single-use link, which proves the address, makes the
    /// account with a password of their choosing and opens the course.
    Link(&'a str),
}

/// How long a buyer without an account may use the link that starts their
/// course.
pub const START_LINK_DAYS: i64 = 14;

/// The buyer's confirmation of an online order (plain text), linking the
/// payment's receipt and where the course is started (`start`, or the
/// account on the site at `site_url`), and confirming on a durable medium
/// the request to start at once and the right to cancel given up
/// (decision 020).
pub fn receipt_body(
    college: &str,
    reference: &str,
    lines: &[PricedLine],
    total: Money,
    receipt: &IssuedDocument,
    site_url: &str,
    start: StartCourse<'_>,
) -> String {
    let mut body = format!("Thank you for your order with {college}.\n\nOrder reference {reference}\n\n");
    for line in lines {
        let label = match line.item {
            LineItem::Course { .. } => "Course",
            LineItem::Upsell { .. } => "Add-on",
        };
        body.push_str(&format!("{label}: {} - {}\n", line.title, line.amount));
    }
    body.push_str(&format!("\nTotal paid: {total}\n{}\n", receipt.mail_line()));
    body.push_str(
        "You asked for access to your course straight away and acknowledged that, once your access starts, \
         you lose your right to cancel within 14 days.\n",
    );
    match start {
        StartCourse::InAccount => body.push_str(&format!(
            "\nStart your course: {site_url}/account/online-courses/\n\
             Sign in with this email address: your course is waiting in your account.\n"
        )),
        StartCourse::Link(link) => body.push_str(&format!(
            "\nStart your course: {link}\n\
             This link is yours alone and works once, for {START_LINK_DAYS} days: it creates your account with a password you choose \
             and opens your course. After that, sign in at {site_url}/sign-in/ with this email address.\n"
        )),
    }
    body.push_str("\nIf you have any questions, reply to this email and our support team will help.\n");
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upsell(product: &str, pence: i64) -> UpsellOffer {
        UpsellOffer {
            title: format!("{product} add-on"),
            description: "Extra".to_owned(),
            cta: "Add".to_owned(),
            price_data: PriceData { currency: "gbp".to_owned(), product: product.to_owned(), unit_amount: Money::from_pence(pence) },
        }
    }

    fn offers() -> Vec<OnlineOffer> {
        vec![
            OnlineOffer {
                course_id: "c1".into(),
                title: "Microneedling Online".into(),
                url: "/courses/elearning/microneedling/".into(),
                price_id: "price_micro".into(),
                unit_amount: Money::from_pence(19_900),
                upsell: Some(upsell("prod_micro_kit", 3999)),
            },
            OnlineOffer {
                course_id: "c2".into(),
                title: "BB Glow Online".into(),
                url: "/courses/elearning/bb-glow/".into(),
                price_id: "price_bb".into(),
                unit_amount: Money::from_pence(14_900),
                upsell: Some(upsell("prod_bb_kit", 2999)),
            },
            OnlineOffer {
                course_id: "c3".into(),
                title: "Anatomy Online".into(),
                url: "/courses/elearning/anatomy/".into(),
                price_id: "price_anatomy".into(),
                unit_amount: Money::from_pence(9_900),
                upsell: None,
            },
        ]
    }

    fn ids(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| (*s).to_owned()).collect()
    }

    fn data(product: &str, pence: i64) -> PriceData {
        PriceData { currency: "gbp".into(), product: product.into(), unit_amount: Money::from_pence(pence) }
    }

    #[test]
    fn the_total_is_the_courses_plus_the_chosen_upsells() {
        let order = price_online_order(&offers(), &ids(&["price_micro", "price_bb"]), &[data("prod_micro_kit", 3999)]).unwrap();
        assert_eq!(order.total, Money::from_pence(19_900 + 14_900 + 3999));
        assert_eq!(order.lines.len(), 3);
        assert_eq!(order.lines[2].item, LineItem::Upsell { product: "prod_micro_kit".into(), for_course_id: "c1".into() });
        let plain = price_online_order(&offers(), &ids(&["price_anatomy"]), &[]).unwrap();
        assert_eq!(plain.total, Money::from_pence(9_900));
    }

    #[test]
    fn unknown_or_in_person_price_ids_are_refused() {
        assert_eq!(
            price_online_order(&offers(), &ids(&["price_tampered"]), &[]),
            Err(OnlineOrderError::UnknownPrice("price_tampered".into()))
        );
        assert_eq!(price_online_order(&offers(), &[], &[]), Err(OnlineOrderError::Empty));
        assert_eq!(
            price_online_order(&offers(), &ids(&["price_bb", "price_bb"]), &[]),
            Err(OnlineOrderError::Duplicate("BB Glow Online".into()))
        );
        let many: Vec<String> = (0..=MAX_COURSES).map(|_| "price_bb".to_owned()).collect();
        assert_eq!(price_online_order(&offers(), &many, &[]), Err(OnlineOrderError::TooMany));
    }

    #[test]
    fn an_upsell_of_a_course_not_in_the_basket_is_refused() {
        assert_eq!(
            price_online_order(&offers(), &ids(&["price_anatomy"]), &[data("prod_bb_kit", 2999)]),
            Err(OnlineOrderError::UnknownUpsell("prod_bb_kit".into()))
        );
        // Each upsell once per course.
        assert_eq!(
            price_online_order(&offers(), &ids(&["price_bb"]), &[data("prod_bb_kit", 2999), data("prod_bb_kit", 2999)]),
            Err(OnlineOrderError::UnknownUpsell("prod_bb_kit".into()))
        );
    }

    #[test]
    fn a_made_up_amount_or_currency_is_refused() {
        assert_eq!(
            price_online_order(&offers(), &ids(&["price_bb"]), &[data("prod_bb_kit", 1)]),
            Err(OnlineOrderError::WrongAmount("prod_bb_kit add-on".into()))
        );
        let mut dollars = data("prod_bb_kit", 2999);
        dollars.currency = "usd".into();
        assert_eq!(price_online_order(&offers(), &ids(&["price_bb"]), &[dollars]), Err(OnlineOrderError::WrongCurrency));
    }

    #[test]
    fn the_receipt_lists_every_line_and_the_total() {
        let order = price_online_order(&offers(), &ids(&["price_micro"]), &[data("prod_micro_kit", 3999)]).unwrap();
        let receipt = IssuedDocument {
            kind: crate::issued_document::DocumentKind::Receipt,
            number: "RCT-000004".into(),
            url: "https://academy.example/api/receipts/RCT-000004?token=t".into(),
        };
        let body = receipt_body(
            "Example Academy",
            "order-1",
            &order.lines,
            order.total,
            &receipt,
            "https://academy.example",
            StartCourse::InAccount,
        );
        assert!(body.contains("Course: Microneedling Online - £199.00"));
        assert!(body.contains("Start your course: https://academy.example/account/online-courses/\n"), "{body}");
        assert!(!body.contains("separately"), "nothing is promised that is not sent: {body}");
        assert!(body.contains("Add-on: prod_micro_kit add-on - £39.99"));
        assert!(body.contains("you lose your right to cancel within 14 days"), "the waiver is confirmed in writing: {body}");
        assert!(
            body.contains("Total paid: £238.99\nYour receipt RCT-000004: https://academy.example/api/receipts/RCT-000004?token=t\n"),
            "{body}"
        );
    }

    #[test]
    fn a_buyer_without_an_account_is_sent_the_link_that_starts_the_course() {
        let order = price_online_order(&offers(), &ids(&["price_micro"]), &[]).unwrap();
        let receipt = IssuedDocument {
            kind: crate::issued_document::DocumentKind::Receipt,
            number: "RCT-000005".into(),
            url: "https://academy.example/api/receipts/RCT-000005?token=t".into(),
        };
        let link = "https://academy.example/start-course/?token=abc";
        let body = receipt_body(
            "Example Academy",
            "order-2",
            &order.lines,
            order.total,
            &receipt,
            "https://academy.example",
            StartCourse::Link(link),
        );
        assert!(body.contains(&format!("Start your course: {link}\n")), "{body}");
        assert!(body.contains("works once, for 14 days"), "{body}");
        assert!(!body.contains("/account/online-courses/"), "the account does not exist yet: {body}");
    }
}
