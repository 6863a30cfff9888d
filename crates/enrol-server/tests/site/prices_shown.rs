//! The price a course shows is the price its dates charge (decision 019):
//! every course page, its card in the listings, its search result and its
//! structured data are walked and compared with what the checkout quotes
//! for each of its dates (or the online checkout charges), before and after
//! staff change a course's price.

use std::collections::BTreeMap;

use enrol_domain::money::Money;
use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::staff_member;
use crate::admin_codes::admin;
use crate::both_backends;
use crate::helpers::TestApp;

async fn page_data(app: &TestApp, path: &str) -> Value {
    app.get(&format!("/api/page-data?path={path}")).await.json().await.unwrap()
}

fn pence(value: &Value) -> i64 {
    value.as_i64().unwrap_or_else(|| panic!("a price in pence: {value}"))
}

/// What the in-person checkout charges for `course_id` on `session_id`
/// (`None`: a course without dates).
async fn quoted(app: &TestApp, course_id: &str, session_id: Option<&str>) -> i64 {
    let body = json!({ "courses": [{ "courseId": course_id, "sessionId": session_id, "includeKit": false }] });
    let answer: Value = app.client.post(app.url("/api/checkout/basket")).json(&body).send().await.unwrap().json().await.unwrap();
    let line = &answer["lines"][0];
    assert_eq!(line["sessionId"].as_str(), session_id, "the date asked for is the date quoted: {answer}");
    pence(&line["price"])
}

/// What the online checkout charges for the course of `price_id` alone,
/// read from its hosted payment page.
async fn online_charge(app: &TestApp, price_id: &str) -> String {
    let body = json!({ "priceIds": [price_id], "additional": [], "agreed": crate::online_checkout::agreed_online() });
    let answer: Value = app.client.post(app.url("/api/e-learning/create-checkout")).json(&body).send().await.unwrap().json().await.unwrap();
    let (_, page) = app.text(answer["url"].as_str().expect("a hosted checkout")).await;
    page
}

/// Walks every course the listings show and checks its price everywhere
/// against what it would be charged; answers the prices shown, by course id.
async fn walk(app: &TestApp) -> BTreeMap<String, (i64, bool)> {
    let index = page_data(app, "/courses/").await;
    let cards = index["page"]["courses"].as_array().expect("the course index lists courses");
    assert!(cards.len() >= 30, "the demo college's courses are all listed");
    let mut shown = BTreeMap::new();
    for card in cards {
        let url = card["url"].as_str().unwrap();
        let page = page_data(app, url).await["page"].clone();
        let (price, from) = (pence(&page["pricing"]["unit_amount"]), page["priceFrom"].as_bool().unwrap());
        let id = page["id"].as_str().unwrap();
        assert_eq!((pence(&card["price"]), card["priceFrom"].as_bool().unwrap()), (price, from), "{url}: the card shows the page's price");

        if page["online"].as_bool().unwrap() {
            assert!(!from, "{url}: an online course has one price");
            let hosted = online_charge(app, page["pricing"]["id"].as_str().unwrap()).await;
            assert!(hosted.contains(&format!("Pay {}", Money::from_pence(price))), "{url}: the online checkout charges {price}");
        } else {
            let open: Vec<&Value> = page["sessions"].as_array().unwrap().iter().collect();
            let mut charged = Vec::new();
            for session in &open {
                let quote = quoted(app, id, session["id"].as_str()).await;
                assert_eq!(quote, pence(&session["price"]), "{url}: a date is charged what the page says of it");
                charged.push(quote);
            }
            let full: Vec<i64> = page["fullSessions"].as_array().unwrap().iter().map(|s| pence(&s["price"])).collect();
            let dates = if charged.is_empty() { full } else { charged };
            match (dates.iter().min(), dates.iter().max()) {
                (Some(&low), Some(&high)) => assert_eq!((price, from), (low, low != high), "{url}: shows what its dates charge"),
                _ => assert_eq!(quoted(app, id, None).await, price, "{url}: a course without dates is charged its price"),
            }
        }

        let title = page["title"].as_str().unwrap();
        let search: Value = app.get(&format!("/api/search?q={}", urlencoding(title))).await.json().await.unwrap();
        let hit = search["results"].as_array().unwrap().iter().find(|r| r["url"] == url);
        let hit = hit.unwrap_or_else(|| panic!("{url}: searching its title finds it: {search}"));
        assert_eq!((pence(&hit["price"]), hit["priceFrom"].as_bool().unwrap()), (price, from), "{url}: search shows the page's price");

        let (_, html) = app.text(url).await;
        let pounds = format!("\"{}.{:02}\"", price / 100, price % 100);
        let key = if from { "\"lowPrice\":" } else { "\"price\":" };
        assert!(html.contains(&format!("{key}{pounds}")), "{url}: the structured data offers {key}{pounds}");
        shown.insert(id.to_owned(), (price, from));
    }
    shown
}

fn urlencoding(text: &str) -> String {
    text.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

both_backends! {
    async fn every_course_shows_what_its_dates_charge(app: TestApp) {
        let shown = walk(&app).await;
        // The demo college prices some dates apart from their course.
        assert_eq!(shown["microneedling"], (75_000, true), "a cheaper date makes the course 'from' its price");
        assert_eq!(shown["foundation-anti-wrinkle"], (129_500, true));
        assert!(!shown["chemical-peels"].1, "its dates share one price");
        app.stop().await;
    }

    async fn a_new_course_price_moves_the_dates_that_follow_it_and_no_others(app: TestApp) {
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let key = "foundation-anti-wrinkle";
        let (status, doc) = admin(&editor, &app, "GET", &format!("/content/course/{key}"), None).await;
        assert_eq!(status, 200, "{doc}");
        let own: Vec<(i64, bool)> =
            doc["dates"].as_array().unwrap().iter().map(|d| (pence(&d["price"]), d["own_price"].as_bool().unwrap())).collect();
        assert_eq!(own, [(129_500, false), (129_500, false), (129_500, false), (135_000, true)], "the editor says which dates carry their own price");

        let mut body = doc["published"].clone();
        body["price"] = json!(119_900);
        let (status, saved) = admin(&editor, &app, "PUT", &format!("/content/course/{key}/draft"), Some(json!({ "body": body }))).await;
        assert_eq!(status, 200, "{saved}");
        let (status, published) = admin(&editor, &app, "POST", &format!("/content/course/{key}/publish"), None).await;
        assert_eq!(status, 200, "{published}");

        let (_, doc) = admin(&editor, &app, "GET", &format!("/content/course/{key}"), None).await;
        let moved: Vec<(i64, bool)> =
            doc["dates"].as_array().unwrap().iter().map(|d| (pence(&d["price"]), d["own_price"].as_bool().unwrap())).collect();
        assert_eq!(moved, [(119_900, false), (119_900, false), (119_900, false), (135_000, true)], "a date with its own price keeps it");
        let shown = walk(&app).await;
        assert_eq!(shown[key], (119_900, true), "the page shows the new price, from, as the dates charge it");
        app.stop().await;
    }
}
