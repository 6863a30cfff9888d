//! Receipts and credit notes (decision 016): what each one says,
//! kept as issued (the server prints it: `enrol_server::print`). Every payment
//! gets a receipt and every refund made a credit note; the database numbers
//! them (per prefix, without gaps) in the transaction of the money they
//! record. This module only decides what they say, from what that
//! transaction gives it: the number, the time and the college's details.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::back_office::OfflineMethod;
use crate::balance::outstanding;
use crate::enrollment::{BookedCourse, PaymentMethod, Quote};
use crate::london::long_date;
use crate::mail::Mail;
use crate::money::Money;
use crate::online_order::{LineItem, PricedLine};

pub use crate::issued_document::{DocumentKind, IssuedDocument, document_number};

/// The college as its documents name it: the site record's name, address
/// and email, and its VAT number when it has one (`ENROL_VAT_NUMBER`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issuer {
    pub name: String,
    pub address: String,
    pub email: String,
    pub vat_number: Option<String>,
}

/// One thing bought, as a document lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentLine {
    pub description: String,
    /// When it takes place, in words: a date, "Date to be arranged", "Online".
    pub when: String,
    pub amount: Money,
}

/// What a payment was for: a booking or an online order, its buyer, its
/// lines and its total, as they were when the document was issued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Purchase {
    /// `Booking …` or `Order …`, with its reference (enrol_domain::reference).
    pub reference: String,
    /// Empty when the buyer gave none (Klarna and Clearpay ask for no contact details).
    pub buyer_name: String,
    pub buyer_email: String,
    pub lines: Vec<DocumentLine>,
    pub total: Money,
}

impl Purchase {
    /// A booking of in-person courses: a line per course (with its kit) and
    /// one for the discount, adding up to the quote's total.
    pub fn booking(order_reference: &str, buyer_name: &str, buyer_email: &str, courses: &[BookedCourse], quote: &Quote) -> Purchase {
        let mut lines: Vec<DocumentLine> = courses
            .iter()
            .map(|course| DocumentLine {
                description: match &course.kit_name {
                    Some(kit) => format!("{}, with the {kit}", course.title),
                    None => course.title.clone(),
                },
                when: course.date.map_or_else(|| "Date to be arranged".to_owned(), long_date),
                amount: course.line_price().amount(),
            })
            .collect();
        if quote.discount > Money::ZERO {
            lines.push(DocumentLine {
                description: "Discount".to_owned(),
                when: String::new(),
                amount: Money::from_pence(-quote.discount.pence()),
            });
        }
        Purchase {
            reference: format!("Booking {order_reference}"),
            buyer_name: buyer_name.trim().to_owned(),
            buyer_email: buyer_email.to_owned(),
            lines,
            total: quote.total,
        }
    }

    /// An online order: its courses and their add-ons.
    pub fn online_order(order_reference: &str, buyer_name: &str, buyer_email: &str, lines: &[PricedLine], total: Money) -> Purchase {
        let lines = lines
            .iter()
            .map(|line| DocumentLine {
                description: match line.item {
                    LineItem::Course { .. } => line.title.clone(),
                    LineItem::Upsell { .. } => format!("Add-on: {}", line.title),
                },
                when: "Online".to_owned(),
                amount: line.amount,
            })
            .collect();
        Purchase {
            reference: format!("Order {order_reference}"),
            buyer_name: buyer_name.trim().to_owned(),
            buyer_email: buyer_email.to_owned(),
            lines,
            total,
        }
    }
}

/// What a credit note corrects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    /// The number of the receipt of the payment refunded.
    pub receipt: String,
    pub reason: String,
}

/// Everything a receipt or credit note shows, as issued: kept whole with
/// it (`receipt.document`), so it never changes when the catalogue, the
/// site record or the configuration do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    pub kind: DocumentKind,
    pub number: String,
    pub issued_at: DateTime<Utc>,
    pub issuer: Issuer,
    pub purchase: Purchase,
    /// The payment received, or the refund made.
    pub amount: Money,
    /// The purchase's payments less its refunds, this document's counted.
    pub paid_to_date: Money,
    /// How it was paid, in the buyer's words; a refund goes back the same way.
    pub method: String,
    pub corrects: Option<Correction>,
}

/// A document before the database numbers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    kind: DocumentKind,
    issuer: Issuer,
    purchase: Purchase,
    amount: Money,
    paid_to_date: Money,
    method: String,
    corrects: Option<Correction>,
}

impl Draft {
    /// The receipt of a payment of `amount` by `method` (the provider's
    /// name for it, or how the college took it offline) towards
    /// `purchase`, which holds `paid_to_date` with it.
    pub fn receipt(issuer: &Issuer, purchase: &Purchase, amount: Money, paid_to_date: Money, method: &str) -> Draft {
        Draft {
            kind: DocumentKind::Receipt,
            issuer: issuer.clone(),
            purchase: purchase.clone(),
            amount,
            paid_to_date,
            method: PaymentMethod::parse(method)
                .map(PaymentMethod::label)
                .or_else(|| OfflineMethod::parse(method).map(OfflineMethod::label))
                .unwrap_or("Online payment")
                .to_owned(),
            corrects: None,
        }
    }

    /// The credit note of a refund of `amount` of the payment `receipt`
    /// records, given back for `reason` (as `queue_refund!` gives it); the
    /// purchase holds `paid_to_date` once it is made.
    pub fn credit_note(receipt: &Document, issuer: &Issuer, amount: Money, paid_to_date: Money, reason: &str) -> Draft {
        let reason = match reason {
            "overpayment" => "Paid beyond what was due",
            "nothing owed" => "Paid when nothing was owed",
            other => other,
        };
        Draft {
            kind: DocumentKind::CreditNote,
            issuer: issuer.clone(),
            purchase: receipt.purchase.clone(),
            amount,
            paid_to_date,
            method: receipt.method.clone(),
            corrects: Some(Correction { receipt: receipt.number.clone(), reason: reason.to_owned() }),
        }
    }

    pub fn kind(&self) -> DocumentKind {
        self.kind
    }

    /// The document numbered `sequence` of its prefix, issued at `issued_at`.
    pub fn issue(self, sequence: i64, issued_at: DateTime<Utc>) -> Document {
        Document {
            number: document_number(self.kind, sequence),
            kind: self.kind,
            issued_at,
            issuer: self.issuer,
            purchase: self.purchase,
            amount: self.amount,
            paid_to_date: self.paid_to_date,
            method: self.method,
            corrects: self.corrects,
        }
    }
}

/// The link a mail gives to a document, opened without signing in: a
/// random token of which the database keeps only the SHA-256. Made by the
/// server before the transaction that issues the document (tokens are its
/// to make), and complete once that transaction gives the number.
#[derive(Debug, Clone)]
pub struct DocumentLink {
    pub token_hash: String,
    token: String,
    site_url: String,
}

impl DocumentLink {
    pub fn new(site_url: &str, token: String, token_hash: String) -> DocumentLink {
        DocumentLink { token_hash, token, site_url: site_url.to_owned() }
    }

    /// The site's address, which its links start with.
    pub fn site_url(&self) -> &str {
        &self.site_url
    }

    /// `GET /api/receipts/{number}?token=…` on the site.
    pub fn url(&self, number: &str) -> String {
        format!("{}/api/receipts/{number}?token={}", self.site_url, self.token)
    }

    /// `document`, issued with this link, as its mail links it.
    pub fn issued(&self, document: &Document) -> IssuedDocument {
        IssuedDocument { kind: document.kind, number: document.number.clone(), url: self.url(&document.number) }
    }
}

/// The buyer's mail once a refund is made, linking its credit note; none
/// when the buyer gave no address.
pub fn refund_mail(credit_note: &Document, issued: &IssuedDocument) -> Option<Mail> {
    let purchase = &credit_note.purchase;
    if purchase.buyer_email.is_empty() {
        return None;
    }
    let greeting = if purchase.buyer_name.is_empty() { "Hello".to_owned() } else { format!("Dear {}", purchase.buyer_name) };
    let reason = credit_note.corrects.as_ref().map(|c| format!("\nReason: {}", c.reason)).unwrap_or_default();
    let body = format!(
        "{greeting},\n\nWe have refunded {} to the way you paid ({}). Refunds usually take 5 to 10 working days to arrive.\n\n\
         {}{reason}\n\n{}\n{}\n",
        credit_note.amount,
        credit_note.method,
        purchase.reference,
        issued.mail_line(),
        credit_note.issuer.name,
    );
    Some(Mail {
        to: purchase.buyer_email.clone(),
        reply_to: None,
        subject: format!("Your refund of {}", credit_note.amount),
        body,
        attachment: None,
    })
}

impl Document {
    /// What is left to pay of the purchase; never below zero.
    pub fn balance(&self) -> Money {
        outstanding(self.purchase.total, self.paid_to_date)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, TimeZone};

    use super::*;
    use crate::enrollment::{Discount, DiscountType, LinePrice};

    fn issuer(vat_number: Option<&str>) -> Issuer {
        Issuer {
            name: "Calderbrook Academy".to_owned(),
            address: "27 Larkspur Row, Manchester, M4 6QT".to_owned(),
            email: "hello@calderbrook.example".to_owned(),
            vat_number: vat_number.map(str::to_owned),
        }
    }

    fn course(title: &str, date: Option<NaiveDate>, kit: Option<(&str, i64)>, price: i64) -> BookedCourse {
        BookedCourse {
            course_id: title.to_lowercase(),
            event_id: title.to_lowercase(),
            session_id: None,
            title: title.to_owned(),
            url: format!("/courses/{}/", title.to_lowercase()),
            date,
            session_type: None,
            kit_name: kit.map(|(name, _)| name.to_owned()),
            kit_pounds: kit.map(|(_, pounds)| pounds),
            price: Money::from_pence(price),
        }
    }

    fn booking() -> Purchase {
        let courses = [
            course("Botox", NaiveDate::from_ymd_opt(2027, 1, 20), Some(("starter kit", 95)), 125_000),
            course("Peels", None, None, 45_000),
        ];
        let prices: Vec<LinePrice> = courses.iter().map(BookedCourse::line_price).collect();
        let quote = Quote::new(&prices, Some(Discount { kind: DiscountType::Percent, value: 10 }));
        Purchase::booking("B-Z20KM", " Sam Lee ", "sam@example.com", &courses, &quote)
    }

    fn at(hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 7, 1, hour, 5, 0).unwrap()
    }

    #[test]
    fn numbers_count_per_prefix_with_six_digits_at_least() {
        assert_eq!(document_number(DocumentKind::Receipt, 123), "RCT-000123");
        assert_eq!(document_number(DocumentKind::CreditNote, 1), "CRN-000001");
        assert_eq!(document_number(DocumentKind::Receipt, 1_234_567), "RCT-1234567");
    }

    #[test]
    fn a_booking_lists_its_courses_kits_and_discount_adding_up_to_its_total() {
        let purchase = booking();
        assert_eq!(purchase.reference, "Booking B-Z20KM");
        assert_eq!(purchase.buyer_name, "Sam Lee");
        let described: Vec<(&str, &str, i64)> =
            purchase.lines.iter().map(|l| (l.description.as_str(), l.when.as_str(), l.amount.pence())).collect();
        assert_eq!(
            described,
            [
                ("Botox, with the starter kit", "Wednesday 20 January 2027", 134_500),
                ("Peels", "Date to be arranged", 45_000),
                ("Discount", "", -17_950),
            ]
        );
        assert_eq!(purchase.lines.iter().map(|l| l.amount).sum::<Money>(), purchase.total);
    }

    #[test]
    fn an_online_order_lists_its_courses_and_add_ons() {
        let line = |item, title: &str, pence| PricedLine { item, title: title.to_owned(), amount: Money::from_pence(pence) };
        let lines = [
            line(LineItem::Course { course_id: "c".into(), price_id: "p".into(), url: "/c/".into() }, "Skin Science Online", 4_999),
            line(LineItem::Upsell { product: "kit".into(), for_course_id: "c".into() }, "Practice kit", 2_500),
        ];
        let purchase = Purchase::online_order("E-MPM59", "", "sam@example.com", &lines, Money::from_pence(7_499));
        assert_eq!(purchase.reference, "Order E-MPM59");
        assert_eq!(purchase.lines[1].description, "Add-on: Practice kit");
        assert_eq!(purchase.lines[0].when, "Online");
    }

    #[test]
    fn a_document_is_kept_as_json_and_read_back_the_same() {
        let receipt =
            Draft::receipt(&issuer(Some("GB1")), &booking(), Money::from_pence(20_000), Money::from_pence(20_000), "card").issue(3, at(9));
        let json = serde_json::to_string(&receipt).unwrap();
        assert_eq!(serde_json::from_str::<Document>(&json).unwrap(), receipt);
    }

    #[test]
    fn mails_link_the_document_and_a_refund_mail_needs_an_address() {
        let link = DocumentLink::new("https://academy.example", "t0k3n".to_owned(), "hash".to_owned());
        assert_eq!(link.url("RCT-000001"), "https://academy.example/api/receipts/RCT-000001?token=t0k3n");
        let receipt =
            Draft::receipt(&issuer(None), &booking(), Money::from_pence(20_000), Money::from_pence(20_000), "card").issue(3, at(9));
        let note = Draft::credit_note(&receipt, &issuer(None), Money::from_pence(5_000), Money::from_pence(15_000), "nothing owed")
            .issue(2, at(10));
        let issued = link.issued(&note);
        assert_eq!(issued.mail_line(), "Your credit note CRN-000002: https://academy.example/api/receipts/CRN-000002?token=t0k3n\n");
        let mail = refund_mail(&note, &issued).expect("a mail");
        assert_eq!((mail.to.as_str(), mail.subject.as_str()), ("sam@example.com", "Your refund of £50.00"));
        assert!(mail.body.starts_with("Dear Sam Lee,"), "{}", mail.body);
        assert!(mail.body.contains("Reason: Paid when nothing was owed") && mail.body.contains(&issued.mail_line()), "{}", mail.body);
        let mut anonymous = note;
        anonymous.purchase.buyer_email = String::new();
        assert_eq!(refund_mail(&anonymous, &issued), None);
    }
}
