//! Receipts and credit notes (decision 016): every payment gets a
//! numbered receipt linked in its mail, every refund made a credit note
//! that names the receipt it corrects; each opens for its owner's session
//! or with its link's token and for nobody else; the database never lets
//! one change; and numbers stay gap-free when payments arrive at once on
//! two instances.

use base64::Engine as _;
use enrol_db::on_pool;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::accounts::verified_account;
use crate::balance::{booked, link, mails_to_sam, pay, pay_prepared, prepare};
use crate::both_backends;
use crate::enrol_checkout::count;
use crate::helpers::{TestApp, browser};

/// The path of the document a mail's body links (on the site of the
/// instance that sent it), and its number.
pub(crate) fn linked(body: &str) -> (String, String) {
    let line = body.lines().find(|l| l.starts_with("Your receipt ") || l.starts_with("Your credit note ")).expect("a document's line");
    let (name, url) = line.split_once(": ").unwrap();
    let number = name.rsplit(' ').next().unwrap().to_owned();
    let path = url.find("/api/receipts/").map(|at| url[at..].to_owned()).expect("a link to the site's documents");
    (path, number)
}

/// Status, headers and body of `GET path` with the session `token`, if any.
async fn open(app: &TestApp, path: &str, token: Option<&str>) -> (u16, reqwest::header::HeaderMap, String) {
    let mut request = browser().get(app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request");
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    (status, headers, response.text().await.expect("body"))
}

/// Opens `path` as the document page it must be.
async fn document(app: &TestApp, path: &str, token: Option<&str>, number: &str) -> String {
    let (status, headers, html) = open(app, path, token).await;
    assert_eq!(status, 200, "{path}: {html}");
    assert_eq!(headers["content-type"], "text/html; charset=utf-8");
    assert_eq!(headers["cache-control"], "private, no-store");
    assert_eq!(headers["content-disposition"], format!("inline; filename=\"{number}.html\""));
    // The page runs nothing; its one style element is allowed by its hash.
    let style = html.split("<style>").nth(1).and_then(|rest| rest.split("</style>").next()).expect("the page's styles");
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(style.as_bytes()));
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.starts_with(&format!("default-src 'none'; style-src 'sha256-{hash}';")), "{policy}");
    assert!(!html.contains("<script"));
    html
}

async fn account(app: &TestApp, session: &str) -> Value {
    reqwest::Client::new().get(app.url("/api/account")).bearer_auth(session).send().await.unwrap().json().await.unwrap()
}

async fn receipt_sequences(app: &TestApp, prefix: &str) -> Vec<i64> {
    on_pool!(app.db(), pool => sqlx::query_scalar("select sequence from receipt where prefix = $1 order by sequence")
        .bind(prefix).fetch_all(pool).await)
    .unwrap()
}

/// The booking `order_id` copied `n` times (booked and paid alike, each its
/// own id), for payments of many bookings at once.
async fn copies(app: &TestApp, order_id: &str, n: usize) -> Vec<String> {
    let ids: Vec<String> = (0..n).map(|_| enrol_db::public_id()).collect();
    on_pool!(app.db(), pool => {
        let mut tx = pool.begin().await.unwrap();
        // A write first, so SQLite takes its write lock now, not midway.
        sqlx::query("update enrollment set status = status where id = $1").bind(order_id).execute(&mut *tx).await.unwrap();
        let copy = format!("create temporary table booking_copy as select * from enrollment where id = '{order_id}'");
        sqlx::query(sqlx::AssertSqlSafe(copy)).execute(&mut *tx).await.unwrap();
        for id in &ids {
            sqlx::query("update booking_copy set id = $1, reference = 'copy-' || $1").bind(id).execute(&mut *tx).await.unwrap();
            sqlx::query("insert into enrollment select * from booking_copy").execute(&mut *tx).await.unwrap();
        }
        sqlx::query("drop table booking_copy").execute(&mut *tx).await.unwrap();
        tx.commit().await.unwrap();
    });
    ids
}

fn balance_event(event_id: &str, intent: &str, order_id: &str, amount: i64) -> Value {
    json!({ "id": event_id, "object": "event", "type": "payment_intent.succeeded", "data": { "object": {
        "id": intent, "object": "payment_intent", "amount": amount, "amount_received": amount, "currency": "gbp",
        "metadata": { "Order ID": order_id, "type": "balance" }, "status": "succeeded", "payment_method_types": ["card"],
    }}})
}

both_backends! {
    #[config(|config| config.vat_number = Some("GB 123 4567 89".to_owned()))]
    async fn a_booking_fee_and_a_balance_payment_each_get_a_numbered_receipt_linked_in_their_mail(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked(&app).await;
        let confirmation = mails_to_sam(&app, "Your Calderbrook Academy booking is confirmed").await;
        assert_eq!(confirmation.len(), 1);
        let (fee_path, fee_number) = linked(&confirmation[0]);
        assert_eq!(fee_number, "RCT-000001");
        assert!(fee_path.starts_with("/api/receipts/RCT-000001?token="), "{fee_path}");

        link(&app, &order_id, "ab12cd").await;
        pay(&app, "ab12cd", 20_000).await;
        let received = mails_to_sam(&app, "Payment received: £200.00").await;
        assert_eq!(received.len(), 1);
        let (part_path, part_number) = linked(&received[0]);
        assert_eq!(part_number, "RCT-000002", "numbered one after the other");
        assert_eq!(receipt_sequences(&app, "RCT").await, [1, 2]);

        // The mailed link opens it in any browser, without signing in.
        let fee = document(&app, &fee_path, None, "RCT-000001").await;
        let reference = app.db().enrollment(&order_id).await.unwrap().unwrap().reference;
        for shown in [
            "<title>Receipt RCT-000001: Calderbrook Academy</title>",
            "27 Larkspur Row, Manchester, M4 6QT",
            "hello@calderbrookacademy.co.uk",
            "VAT registration number: GB 123 4567 89",
            "Sam Lee<br>sam.lee@example.com",
            &format!("Booking {reference}"),
            "<td>Chemical Peels Course</td>",
            "Total</th><td class=\"amount\">£695.00</td>",
            "Amount received</th><td class=\"amount\">£100.00</td>",
            "Paid by</th><td class=\"amount\">Card</td>",
            "Paid to date</th><td class=\"amount\">£100.00</td>",
            "Balance to pay</th><td class=\"amount\">£595.00</td>",
        ] {
            assert!(fee.contains(shown), "{shown} in {fee}");
        }
        let part = document(&app, &part_path, None, "RCT-000002").await;
        assert!(part.contains("Amount received</th><td class=\"amount\">£200.00</td>"), "{part}");
        assert!(part.contains("Paid to date</th><td class=\"amount\">£300.00</td>") && part.contains("£395.00"), "{part}");

        // Its owner opens both from the account, where the payments list them.
        document(&app, "/api/account/receipts/RCT-000001", Some(&sam), "RCT-000001").await;
        document(&app, "/api/account/receipts/RCT-000002", Some(&sam), "RCT-000002").await;
        let payments = account(&app, &sam).await["payments"].clone();
        let listed: Vec<(&str, &Value)> = payments.as_array().unwrap().iter().map(|p| (p["receipt"].as_str().unwrap(), &p["creditNotes"])).collect();
        assert_eq!(listed, [("RCT-000002", &json!([])), ("RCT-000001", &json!([]))], "{payments}");

        // Nobody else does.
        let other = verified_account(&app, "other.student@example.com").await;
        let token = fee_path.split("token=").nth(1).unwrap();
        for (path, session, why) in [
            ("/api/account/receipts/RCT-000001".to_owned(), Some(other.as_str()), "another account"),
            ("/api/receipts/RCT-000001".to_owned(), None, "another browser, without the link's token"),
            ("/api/receipts/RCT-000001?token=0123456789abcdef".to_owned(), None, "a wrong token"),
            (format!("/api/receipts/RCT-000002?token={token}"), None, "another receipt's token"),
            (format!("/api/receipts/RCT-000003?token={token}"), None, "a number not issued"),
            ("/api/account/receipts/RCT-000009".to_owned(), Some(sam.as_str()), "a number not issued, signed in"),
        ] {
            let (status, _, body) = open(&app, &path, session).await;
            assert_eq!(status, 404, "{why}: {body}");
        }
        assert_eq!(open(&app, "/api/account/receipts/RCT-000001", None).await.0, 401, "the account's route asks to sign in");
        app.stop().await;
    }

    async fn a_refund_made_gets_a_credit_note_that_names_the_receipt_it_corrects(app: TestApp) {
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let order_id = booked(&app).await;
        link(&app, &order_id, "cd34ef").await;
        // Two tabs prepare the whole balance and both pay: the second is all given back.
        let (first_tab, second_tab) = (prepare(&app, "cd34ef", 59_500).await, prepare(&app, "cd34ef", 59_500).await);
        pay_prepared(&app, "cd34ef", &first_tab).await;
        let second_tab = pay_prepared(&app, "cd34ef", &second_tab).await;
        let second: String = on_pool!(app.db(), pool => sqlx::query_scalar(
            "select r.number from receipt r join payment p on p.id = r.payment_id where p.transaction_id = $1 and r.kind = 'receipt'"
        ).bind(&second_tab).fetch_one(pool).await).unwrap();
        assert_eq!(second, "RCT-000003");
        assert_eq!(count(&app, "select count(*) from refund where status = 'succeeded'").await, 1, "the sandbox made the refund");

        let refunded = mails_to_sam(&app, "Your refund of £595.00").await;
        assert_eq!(refunded.len(), 1);
        assert!(refunded[0].contains("Reason: Paid when nothing was owed"), "{}", refunded[0]);
        let (path, number) = linked(&refunded[0]);
        assert_eq!(number, "CRN-000001", "credit notes count on their own");
        let note = document(&app, &path, None, "CRN-000001").await;
        for shown in [
            "<h1>Credit note</h1>",
            "This credit note corrects receipt <strong>RCT-000003</strong>. Reason: Paid when nothing was owed.",
            "Amount refunded</th><td class=\"amount\">£595.00</td>",
            "Refunded to</th><td class=\"amount\">Card</td>",
            "Paid to date</th><td class=\"amount\">£695.00</td>",
            "Balance to pay</th><td class=\"amount\">£0.00</td>",
        ] {
            assert!(note.contains(shown), "{shown} in {note}");
        }
        let overpaid = document(&app, "/api/account/receipts/RCT-000003", Some(&sam), "RCT-000003").await;
        assert!(overpaid.contains("£595.00 more than the total was paid: it is being refunded"), "{overpaid}");
        assert_eq!(count(&app, &format!(
            "select count(*) from receipt c join refund r on r.id = c.refund_id join payment p on p.id = r.payment_id \
             where c.number = 'CRN-000001' and c.payment_id = p.id and p.transaction_id = '{second_tab}' and c.enrollment_id = '{order_id}'"
        )).await, 1, "the credit note records the refund of the payment its receipt records");

        let payments = account(&app, &sam).await["payments"].clone();
        let refunded = payments.as_array().unwrap().iter().find(|p| p["receipt"] == "RCT-000003").expect("the refunded payment");
        assert_eq!(refunded["creditNotes"], json!([{ "number": "CRN-000001", "amount": 59_500 }]));
        document(&app, "/api/account/receipts/CRN-000001", Some(&sam), "CRN-000001").await;
        app.stop().await;
    }

    #[config(|config| config.demo_students = true)]
    async fn the_demo_students_booking_fee_has_its_receipt_in_her_account(app: TestApp) {
        let amelia = crate::graphql::sign_in(&app, enrol_db::DEMO_STUDENT_EMAIL, enrol_server::DEMO_STUDENT_PASSWORD).await;
        let payments = account(&app, &amelia).await["payments"].clone();
        let fee = payments.as_array().unwrap().iter().find(|p| p["amount"] == 10_000).expect("her booking fee");
        assert_eq!(fee["receipt"], "RCT-000001", "{payments}");
        let html = document(&app, "/api/account/receipts/RCT-000001", Some(&amelia), "RCT-000001").await;
        assert!(html.contains("Amelia Hart<br>amelia@student.example") && html.contains("£100.00"), "{html}");
        app.stop().await;
    }

    async fn an_issued_receipt_is_never_changed_nor_removed(app: TestApp) {
        booked(&app).await;
        let change = on_pool!(app.db(), pool => sqlx::query("update receipt set amount = 1").execute(pool).await.map(drop));
        let error = change.expect_err("the database refuses to change a receipt").to_string();
        assert!(error.contains("never changed"), "{error}");
        let removal = on_pool!(app.db(), pool => sqlx::query("delete from receipt").execute(pool).await.map(drop));
        assert!(removal.expect_err("the database refuses to remove a receipt").to_string().contains("never"));
        assert_eq!(count(&app, "select count(*) from receipt where amount = 10000").await, 1);
        app.stop().await;
    }

    async fn forty_payments_at_once_on_two_instances_are_numbered_without_gaps(app: TestApp) {
        let first = booked(&app).await;
        let mut bookings = copies(&app, &first, 39).await;
        bookings.push(first);
        let other = app.another_instance().await;
        let mut deliveries = tokio::task::JoinSet::new();
        for (i, order_id) in bookings.iter().enumerate() {
            // Each instance checks the signatures of its own sandbox.
            let instance = if i % 2 == 0 { &app } else { &other };
            let body = serde_json::to_vec(&balance_event(&format!("evt_race_{i}"), &format!("pi_race_{i}"), order_id, 1_000 + i64::try_from(i).unwrap())).unwrap();
            let signature = enrol_payments::signature::sign(&body, instance.state.payments.webhook_secret(), chrono::Utc::now().timestamp());
            let request = instance.client.post(instance.url("/webhooks/payments")).header("stripe-signature", signature).body(body);
            deliveries.spawn(async move { request.send().await.expect("delivery").status().as_u16() });
        }
        assert_eq!(deliveries.join_all().await, vec![200; 40]);

        assert_eq!(receipt_sequences(&app, "RCT").await, (1..=41).collect::<Vec<i64>>(), "1 to 41: no gap, no number twice");
        assert_eq!(count(&app, "select count(*) from payment").await, 41);
        assert_eq!(count(&app, "select count(distinct payment_id) from receipt where kind = 'receipt'").await, 41, "one receipt per payment");
        assert_eq!(count(&app, "select last_number from document_sequence where prefix = 'RCT'").await, 41);
        let mut mailed: Vec<String> = mails_to_sam(&app, "Payment received").await.iter().map(|body| linked(body).1).collect();
        mailed.sort();
        assert_eq!(mailed, (2..=41).map(|n| format!("RCT-{n:06}")).collect::<Vec<_>>(), "each mail links its own receipt");
        other.stop().await;
        app.stop().await;
    }
}
