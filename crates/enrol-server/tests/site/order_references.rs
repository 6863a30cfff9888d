//! References a person can read out (`B-7K3P9`, `E-4HX2M`): every order
//! has one, no two orders share one however many are made at once on two
//! instances, and the mails, receipts, exports and the back office's search
//! all know a booking by it, however it is typed.

use std::collections::HashSet;

use enrol_db::on_pool;
use enrol_domain::staff::Role;
use serde_json::json;

use crate::admin::staff_member;
use crate::admin_codes::admin;
use crate::admin_sessions::{open, session_form};
use crate::balance::{booked, mails_to_sam};
use crate::both_backends;
use crate::enrol_checkout::{order, quote};
use crate::helpers::TestApp;
use crate::online_checkout::agreed_online;
use crate::receipts::linked;

/// A reference as the college reads them: the kind's letter, a dash and
/// five characters of Crockford's base 32.
fn well_formed(reference: &str, kind: char) -> bool {
    let mut parts = reference.split('-');
    let (Some(letter), Some(code), None) = (parts.next(), parts.next(), parts.next()) else { return false };
    letter == kind.to_string()
        && code.len() == 5
        && code.chars().all(|c| c.is_ascii_digit() || (c.is_ascii_uppercase() && !"ILOU".contains(c)))
}

async fn references(app: &TestApp, table: &str) -> Vec<String> {
    let sql = format!("select reference from {table}");
    on_pool!(app.db(), pool => sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await).unwrap()
}

both_backends! {
    async fn a_booking_is_known_by_its_reference_in_its_mails_receipt_export_and_search(app: TestApp) {
        let order_id = booked(&app).await;
        let reference: String = on_pool!(app.db(), pool => sqlx::query_scalar("select reference from enrollment where id = $1")
            .bind(&order_id).fetch_one(pool).await).unwrap();
        assert!(well_formed(&reference, 'B'), "{reference}");

        let confirmation = mails_to_sam(&app, "Your").await.pop().expect("the confirmation");
        assert!(confirmation.contains(&format!("Booking reference {reference}\n")), "{confirmation}");
        let (receipt, _) = linked(&confirmation);
        let receipt = app.get(&receipt).await.text().await.unwrap();
        assert!(receipt.contains(&format!("Booking {reference}")), "{receipt}");
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;

        // Read out on the phone and typed as heard: lower case, a space, an O for a nought.
        let code = &reference[2..];
        let heard = [reference.to_lowercase(), format!("b {}", code.to_lowercase()), code.replace('0', "O").replace('1', "l")];
        for typed in heard {
            let (status, found) = admin(&staff, &app, "GET", &format!("/orders?q={}", typed.replace(' ', "%20")), None).await;
            assert_eq!(status, 200, "{found}");
            let ids: Vec<&str> = found["orders"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap()).collect();
            assert_eq!(ids, [order_id.as_str()], "{typed}: {found}");
            assert_eq!(found["orders"][0]["reference"], reference.as_str());
        }
        let (_, shown) = admin(&staff, &app, "GET", &format!("/orders/{order_id}"), None).await;
        assert_eq!(shown["order"]["reference"], reference.as_str(), "{shown}");

        let today = enrol_domain::london::today(chrono::Utc::now());
        let export = staff.get(app.url(&format!("/api/admin/exports/orders.csv?from={today}&to={today}"))).send().await.unwrap();
        let export = export.text().await.unwrap();
        let row = export.lines().find(|line| line.contains(&order_id)).expect("the booking is exported");
        assert!(row.starts_with(&format!("\"{reference}\",\"{order_id}\"")), "{row}");
        app.stop().await;
    }

    async fn orders_made_at_once_on_two_instances_never_share_a_reference(app: TestApp) {
        let other = app.another_instance().await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let session = open(&app, &staff, &session_form(100, 60)).await;
        let booking = order(&session, false, None, "card", &quote(false, None));
        let price_id = app.db().online_offers().await.unwrap()[0].price_id.clone();
        let online = json!({ "priceIds": [price_id], "additional": [], "agreed": agreed_online() });
        let mut orders = tokio::task::JoinSet::new();
        for i in 0..40 {
            let target = if i % 2 == 0 { &app } else { &other };
            let (path, body) = if i % 4 < 3 { ("/api/enroll/", &booking) } else { ("/api/e-learning/create-checkout", &online) };
            let request = target.client.post(target.url(path)).header("x-forwarded-for", format!("10.9.0.{i}")).json(body);
            orders.spawn(async move { request.send().await.expect("request").status().as_u16() });
        }
        let statuses = orders.join_all().await;
        assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
        let (bookings, online) = (references(&app, "enrollment").await, references(&app, "online_order").await);
        assert_eq!((bookings.len(), online.len()), (30, 10));
        assert!(bookings.iter().all(|r| well_formed(r, 'B')) && online.iter().all(|r| well_formed(r, 'E')), "{bookings:?} {online:?}");
        let codes: HashSet<&str> = bookings.iter().chain(&online).map(|r| &r[2..]).collect();
        assert_eq!(codes.len(), 40, "no two orders share the five characters: {bookings:?} {online:?}");
        other.stop().await;
        app.stop().await;
    }
}
