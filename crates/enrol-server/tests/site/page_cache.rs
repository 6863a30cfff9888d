//! The page cache cannot be emptied at will: a page is kept once for the
//! query parameters it reads, whatever else the address carries, and a
//! flood of new addresses pushes out the least recently read pages one at
//! a time, never the pages visitors are reading.

use crate::helpers::{Backend, spawn_app_with};

#[tokio::test]
async fn made_up_queries_get_the_cached_page_and_a_flood_of_addresses_keeps_the_pages_in_use() {
    let app = spawn_app_with(Backend::Sqlite, |config| config.page_cache_entries = 16).await.expect("SQLite is always available");
    let (status, listing) = app.text("/courses/aesthetics/").await;
    assert_eq!(status, 200);
    let kept = app.state.pages.len();
    for i in 0..300 {
        let (status, page) = app.text(&format!("/courses/aesthetics/?utm_source=mail{i}&bench={i}")).await;
        assert_eq!((status, page == listing), (200, true), "the same page, from the cache");
    }
    assert_eq!(app.state.pages.len(), kept, "made-up parameters add nothing to the cache");

    // A parameter the page reads is a page of its own.
    let (_, by_price) = app.text("/courses/aesthetics/?sort=price&utm_source=mail").await;
    assert_ne!(by_price, listing);
    assert!(app.state.pages.holds("/courses/aesthetics/?sort=price"));
    // So is each page of the calendar (decision 040).
    let (_, calendar) = app.text("/training-course-calendar/").await;
    let page_data: serde_json::Value = app.get("/api/page-data?path=/training-course-calendar/").await.json().await.unwrap();
    let later = page_data["page"]["later"].as_str().expect("the demo's dates fill more than a page").to_owned();
    let (_, later_page) = app.text(&format!("/training-course-calendar/?from={later}&utm_source=mail")).await;
    assert_ne!(later_page, calendar);
    assert!(app.state.pages.holds(&format!("/training-course-calendar/?from={later}")));

    // Addresses that do not exist, with a visitor reading the home page between them.
    for i in 0..100 {
        assert_eq!(app.text("/").await.0, 200);
        assert_eq!(app.text(&format!("/no-such-page-{i}/")).await.0, 404);
        assert!(app.state.pages.holds("/"), "the page in use stays, after {i}");
    }
    assert_eq!(app.state.pages.len(), 16, "bounded");
    assert!(app.state.pages.holds("/no-such-page-99/") && !app.state.pages.holds("/no-such-page-0/"), "the least recently read went");
    app.stop().await;
}
