//! A receipt or credit note as the server issues and shows it (decision
//! 016): the college as it names itself on them, the link a mail gives,
//! and the page the buyer opens: one HTML page, its styles inside, laid
//! out for A4, running no script.

use enrol_db::Db;
use enrol_domain::html::escape_html;
use enrol_domain::london::{long_date, to_london};
use enrol_domain::money::Money;
use enrol_domain::receipt::{Document, DocumentKind, DocumentLink, Issuer};

use crate::accounts::{random_token, token_hash};
use crate::config::Config;

/// The college as its documents name it now: the site record's details
/// and the configured VAT number.
pub async fn issuer(db: &Db, config: &Config) -> anyhow::Result<Issuer> {
    let college = db.college().await?;
    Ok(Issuer { name: college.name, address: college.address, email: college.email_address, vat_number: config.vat_number.clone() })
}

/// A new link for a document about to be issued; its token appears only
/// in the mail that tells of it.
pub fn new_document_link(config: &Config) -> DocumentLink {
    let token = random_token();
    let hash = token_hash(&token);
    DocumentLink::new(&config.public_url, token, hash)
}

/// The page's styles, kept apart so the server can allow exactly them
/// (a `Content-Security-Policy` hash): the page runs no script.
pub const STYLE: &str = "\
@page { size: A4; margin: 16mm; }
body { margin: 0; font-family: 'Helvetica Neue', Arial, sans-serif; color: #1d1d1f; font-size: 11pt; line-height: 1.45; }
main { max-width: 180mm; margin: 0 auto; padding: 8mm 4mm; }
header { display: flex; justify-content: space-between; gap: 2rem; border-bottom: 2px solid #4a1d3f; padding-bottom: 1rem; }
h1 { margin: 0; font-size: 1.8rem; color: #4a1d3f; }
h2 { font-size: 1rem; margin: 1.5rem 0 0.25rem; }
p { margin: 0.2rem 0; }
.heading { text-align: right; }
.college { font-weight: bold; font-size: 1.1rem; }
.number { font-size: 1.2rem; font-weight: bold; }
table { width: 100%; border-collapse: collapse; margin-top: 1.2rem; }
th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid #ddd; vertical-align: top; }
.amount { text-align: right; white-space: nowrap; }
.sums { width: auto; margin-left: auto; }
.sums th { font-weight: normal; }
.correction { margin-top: 1.2rem; padding: 0.6rem 0.8rem; border-left: 4px solid #4a1d3f; background: #f6f1f5; }
footer { margin-top: 2rem; font-size: 0.9rem; color: #555; }
@media print { main { padding: 0; } }
";

/// `document` as one HTML page, styles inside, laid out for A4: it prints
/// or saves as a PDF from any browser. Every value is escaped.
pub fn page(document: &Document) -> String {
    let e = escape_html;
    let (issuer, purchase) = (&document.issuer, &document.purchase);
    let kind = document.kind.name();
    let issued = to_london(document.issued_at);
    let vat = issuer.vat_number.as_ref().map(|n| format!("<p>VAT registration number: {}</p>", e(n))).unwrap_or_default();
    let buyer: Vec<String> = [&purchase.buyer_name, &purchase.buyer_email].into_iter().filter(|v| !v.is_empty()).map(|v| e(v)).collect();
    let lines: String = purchase
        .lines
        .iter()
        .map(|l| format!("<tr><td>{}</td><td>{}</td><td class=\"amount\">{}</td></tr>\n", e(&l.description), e(&l.when), l.amount))
        .collect();
    let correction = document
        .corrects
        .as_ref()
        .map(|c| {
            format!(
                "<p class=\"correction\">This credit note corrects receipt <strong>{}</strong>. Reason: {}.</p>\n",
                e(&c.receipt),
                e(&c.reason)
            )
        })
        .unwrap_or_default();
    let (amount_label, method_label) = match document.kind {
        DocumentKind::Receipt => ("Amount received", "Paid by"),
        DocumentKind::CreditNote => ("Amount refunded", "Refunded to"),
    };
    let excess = Money::from_pence(document.paid_to_date.pence() - purchase.total.pence());
    let excess = if document.kind == DocumentKind::Receipt && excess > Money::ZERO {
        format!("<p>{excess} more than the total was paid: it is being refunded, and a credit note will follow.</p>\n")
    } else {
        String::new()
    };
    format!(
        r#"<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{kind} {number}: {college}</title>
<style>{STYLE}</style>
</head>
<body>
<main>
<header>
<div>
<p class="college">{college}</p>
<p>{address}</p>
<p>{email}</p>
{vat}</div>
<div class="heading">
<h1>{kind}</h1>
<p class="number">{number}</p>
<p>Issued {date} at {time}</p>
</div>
</header>
<h2>Issued to</h2>
<p>{buyer}</p>
<p>{reference}</p>
{correction}<table>
<thead><tr><th scope="col">Description</th><th scope="col">Date</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
{lines}</tbody>
<tfoot><tr><th scope="row" colspan="2">Total</th><td class="amount">{total}</td></tr></tfoot>
</table>
<table class="sums">
<tr><th scope="row">{amount_label}</th><td class="amount">{amount}</td></tr>
<tr><th scope="row">{method_label}</th><td class="amount">{method}</td></tr>
<tr><th scope="row">Paid to date</th><td class="amount">{paid}</td></tr>
<tr><th scope="row">Balance to pay</th><td class="amount">{balance}</td></tr>
</table>
{excess}<footer>
<p>{kind} {number} from {college}. Keep it for your records: it is never changed once issued, only corrected by a credit note.</p>
</footer>
</main>
</body>
</html>
"#,
        number = e(&document.number),
        college = e(&issuer.name),
        address = e(&issuer.address),
        email = e(&issuer.email),
        date = long_date(issued.date()),
        time = issued.format("%H:%M"),
        buyer = buyer.join("<br>"),
        reference = e(&purchase.reference),
        total = purchase.total,
        amount = document.amount,
        method = e(&document.method),
        paid = document.paid_to_date,
        balance = document.balance(),
    )
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, TimeZone, Utc};
    use enrol_domain::receipt::{Correction, DocumentLine, Draft, Issuer, Purchase};

    use super::*;

    fn issuer(vat_number: Option<&str>) -> Issuer {
        Issuer {
            name: "Calderbrook Academy".to_owned(),
            address: "27 Larkspur Row, Manchester, M4 6QT".to_owned(),
            email: "hello@calderbrook.example".to_owned(),
            vat_number: vat_number.map(str::to_owned),
        }
    }

    /// A booking of two courses, one with a kit, and a discount, as
    /// `Purchase::booking` lists it (its own tests say how).
    fn booking() -> Purchase {
        let line = |description: &str, when: &str, pence| DocumentLine {
            description: description.to_owned(),
            when: when.to_owned(),
            amount: Money::from_pence(pence),
        };
        Purchase {
            reference: "Booking B-Z20KM".to_owned(),
            buyer_name: "Sam Lee".to_owned(),
            buyer_email: "sam@example.com".to_owned(),
            lines: vec![
                line("Botox, with the starter kit", "Wednesday 20 January 2027", 134_500),
                line("Peels", "Date to be arranged", 45_000),
                line("Discount", "", -17_950),
            ],
            total: Money::from_pence(161_550),
        }
    }

    fn at(hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 7, 1, hour, 5, 0).unwrap()
    }

    #[test]
    fn a_receipt_shows_the_college_the_buyer_the_lines_and_what_is_left() {
        let receipt =
            Draft::receipt(&issuer(None), &booking(), Money::from_pence(20_000), Money::from_pence(20_000), "card").issue(7, at(13));
        assert_eq!(receipt.number, "RCT-000007");
        assert_eq!(receipt.balance(), Money::from_pence(141_550));
        let html = page(&receipt);
        for shown in [
            "<title>Receipt RCT-000007: Calderbrook Academy</title>",
            "27 Larkspur Row, Manchester, M4 6QT",
            "hello@calderbrook.example",
            "Sam Lee<br>sam@example.com",
            "Booking B-Z20KM",
            "<td>Botox, with the starter kit</td><td>Wednesday 20 January 2027</td><td class=\"amount\">£1,345.00</td>",
            "<td>Discount</td><td></td><td class=\"amount\">-£179.50</td>",
            "Total</th><td class=\"amount\">£1,615.50</td>",
            "Amount received</th><td class=\"amount\">£200.00</td>",
            "Paid by</th><td class=\"amount\">Card</td>",
            "Balance to pay</th><td class=\"amount\">£1,415.50</td>",
        ] {
            assert!(html.contains(shown), "{shown} in {html}");
        }
        assert!(html.contains("Issued Wednesday 1 July 2026 at 14:05"), "London time: {html}");
        assert!(!html.contains("VAT"), "no VAT number unless configured");
        let vat = Draft::receipt(&issuer(Some("GB 123 4567 89")), &booking(), Money::from_pence(1), Money::from_pence(1), "sandbox");
        let html = page(&vat.issue(8, at(9)));
        assert!(html.contains("VAT registration number: GB 123 4567 89") && html.contains("Online payment"), "{html}");
        let cash = Draft::receipt(&issuer(None), &booking(), Money::from_pence(1), Money::from_pence(1), "cash").issue(9, at(9));
        assert!(page(&cash).contains("Paid by</th><td class=\"amount\">Cash</td>"), "money the college took by hand");
    }

    #[test]
    fn every_text_is_escaped() {
        let mut purchase = booking();
        purchase.buyer_name = "<script>alert('name')</script>".to_owned();
        purchase.lines[0].description = "Peels & <b>more</b>".to_owned();
        let mut college = issuer(Some("\"><img src=x>"));
        college.name = "A&B <Academy>".to_owned();
        let html = page(&Draft::receipt(&college, &purchase, Money::from_pence(100), Money::from_pence(100), "card").issue(1, at(9)));
        assert!(html.contains("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"), "{html}");
        assert!(html.contains("Peels &amp; &lt;b&gt;more&lt;/b&gt;") && html.contains("A&amp;B &lt;Academy&gt;"));
        assert!(html.contains("VAT registration number: &quot;&gt;&lt;img src=x&gt;"));
        assert!(!html.contains("<script") && !html.contains("<img") && !html.contains("<b>"), "{html}");
    }

    #[test]
    fn a_receipt_of_an_overpayment_says_the_excess_is_refunded() {
        let purchase = booking();
        let paid = Money::from_pence(purchase.total.pence() + 5_000);
        let html = page(&Draft::receipt(&issuer(None), &purchase, Money::from_pence(10_000), paid, "card").issue(2, at(9)));
        assert!(html.contains("£50.00 more than the total was paid: it is being refunded"), "{html}");
        assert!(html.contains("Balance to pay</th><td class=\"amount\">£0.00</td>"));
    }

    #[test]
    fn a_credit_note_refers_to_the_receipt_it_corrects_and_says_why() {
        let receipt =
            Draft::receipt(&issuer(None), &booking(), Money::from_pence(20_000), Money::from_pence(20_000), "klarna").issue(3, at(9));
        let draft = Draft::credit_note(&receipt, &issuer(None), Money::from_pence(5_000), Money::from_pence(15_000), "overpayment");
        assert_eq!(draft.kind(), DocumentKind::CreditNote);
        let note = draft.issue(1, at(10));
        assert_eq!(note.number, "CRN-000001");
        assert_eq!(note.corrects, Some(Correction { receipt: "RCT-000003".to_owned(), reason: "Paid beyond what was due".to_owned() }));
        assert_eq!(note.purchase, receipt.purchase);
        let html = page(&note);
        assert!(html.contains("<h1>Credit note</h1>") && html.contains("corrects receipt <strong>RCT-000003</strong>"), "{html}");
        assert!(
            html.contains("Amount refunded</th><td class=\"amount\">£50.00</td>")
                && html.contains("Refunded to</th><td class=\"amount\">Klarna")
        );
        assert!(!html.contains("more than the total was paid"));
    }
}
