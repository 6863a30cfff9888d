//! The public pages as a visitor and a search engine see them: links,
//! prices, seats left, structured data and not-found answers.

use chrono::Utc;
use enrol_domain::london;
use enrol_domain::money::Money;

use crate::both_backends;

/// Text as React writes it into HTML.
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#x27;")
}

/// Paths linked for search engines on every page (docs/product.md#pages).
const HIDDEN_LINKS: [&str; 8] = [
    "/courses/injectables/",
    "/courses/cpd/",
    "/training-course-calendar/",
    "/about/",
    "/team/",
    "/courses/education",
    "/courses/masterclasses/",
    "/courses/new/",
];

both_backends! {
    async fn home_page_arrives_complete_in_the_html(app: TestApp) {
        let (status, html) = app.text("/").await;
        assert_eq!(status, 200);
        let record = app.db().site().await.unwrap().expect("site data");
        assert!(html.starts_with("<!doctype html><html lang=\"en-GB\">"));
        assert!(html.contains(&html_text(&record.hero.heading)), "hero heading missing");
        assert!(html.contains(&html_text(&record.site.footer_text)), "footer text missing");
        assert!(html.contains("Save Up To 50%"), "promotional banner missing");
        assert!(html.contains("href=\"/black-friday\""));
        assert!(html.contains("href=\"/pathway-to-aesthetics/\""));
        let year = london::today(Utc::now()).format("%Y").to_string();
        assert!(html.contains(&format!("© {year}")), "copyright year missing");
        for link in HIDDEN_LINKS {
            assert!(html.contains(&format!("href=\"{link}\"")), "hidden link {link} missing");
        }
        let phone = enrol_domain::phone::to_international(&record.site.phone_number);
        assert!(html.contains(&format!("href=\"tel:{phone}\"")), "phone link not in +44 form");
        assert!(html.contains("<script type=\"application/json\" id=\"__ENROL_DATA__\">"));
        for featured in app.db().catalogue(Utc::now(), None).await.unwrap().featured_courses().unwrap() {
            assert!(html.contains(&html_text(&featured.title)), "featured course {} missing", featured.title);
        }
        app.stop().await;
    }

    async fn a_section_lists_its_courses_with_en_gb_prices(app: TestApp) {
        let (status, html) = app.text("/courses/aesthetics/").await;
        assert_eq!(status, 200);
        let courses = app.db().catalogue(Utc::now(), None).await.unwrap().section_courses("aesthetics").unwrap();
        assert!(courses.len() >= 3, "the demo has aesthetics courses");
        for course in &courses {
            assert!(html.contains(&html_text(&course.title)), "{} missing", course.title);
            assert!(html.contains(&course.price.to_string()), "price {} of {} missing", course.price, course.title);
        }
        assert!(html.contains(&Money::from_pence(courses[0].price.pence()).to_string()));
        assert!(regex_like_price(&html), "no price formatted like £1,250.00");
        app.stop().await;
    }

    async fn a_course_page_offers_only_sessions_with_free_seats(app: TestApp) {
        let today = london::today(Utc::now());
        let (full_session, url): (String, String) = enrol_db::on_pool!(app.db(), pool => sqlx::query_as(
            "select se.id, c.url from session se join event e on e.id = se.event_id join course c on c.id = e.course_id \
             where se.registrations = se.seats and se.date >= $1 \
             and exists (select 1 from session o where o.event_id = se.event_id and o.registrations < o.seats and o.date >= $1) \
             order by se.id limit 1"
        ).bind(today).fetch_one(pool).await).expect("the demo has a full session beside an open one");
        let (status, html) = app.text(&url).await;
        assert_eq!(status, 200);
        assert!(html.contains("Select course date:"));
        let data: serde_json::Value = app.get(&format!("/api/page-data?path={url}")).await.json().await.unwrap();
        let sessions = data["page"]["sessions"].as_array().expect("sessions");
        assert!(!sessions.is_empty());
        assert!(sessions.iter().all(|s| s["registrations"] != s["seats"]));
        assert!(sessions.iter().all(|s| s["id"] != full_session.as_str()), "a full session is offered");
        for session in sessions {
            assert!(html.contains(session["id"].as_str().unwrap()), "open session not offered in the HTML");
        }
        assert!(!html.contains(&format!("value=\"{full_session}\"")), "the full session is offered in the HTML");
        let full: Vec<&str> = data["page"]["fullSessions"].as_array().expect("full sessions").iter().filter_map(|s| s["id"].as_str()).collect();
        assert!(full.contains(&full_session.as_str()), "the full session has its waiting list");
        app.stop().await;
    }

    async fn unknown_pages_are_404_with_a_helpful_page(app: TestApp) {
        let (status, html) = app.text("/no-such-page/").await;
        assert_eq!(status, 404);
        assert!(html.contains("Page not found"));
        assert!(html.contains("href=\"/courses/\""));
        let (status, _) = app.text("/courses/aesthetics/no-such-course/").await;
        assert_eq!(status, 404);
        app.stop().await;
    }

    async fn a_path_missing_its_trailing_slash_is_redirected(app: TestApp) {
        let response = app.get("/courses/aesthetics?sort=price").await;
        assert_eq!(response.status().as_u16(), 308);
        assert_eq!(response.headers()["location"], "/courses/aesthetics/?sort=price");
        app.stop().await;
    }

    async fn health_and_security_headers(app: TestApp) {
        let response = app.get("/healthz").await;
        assert_eq!(response.status().as_u16(), 200);
        let response = app.get("/").await;
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap().to_owned();
        assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "strict-origin-when-cross-origin");
        assert!(headers.contains_key("x-request-id"));
        // The page's one inline script, which starts its scripts (decision
        // 043), is allowed by its hash and no other way.
        let html = response.text().await.unwrap();
        let (attributes, text) = boot_script(&html);
        use base64::Engine as _;
        use sha2::Digest as _;
        let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text));
        assert!(csp.contains(&format!("'sha256-{hash}'")), "{csp}");
        let entry = app.state.assets.script.clone();
        assert!(attributes.contains(&format!("data-entry=\"{entry}\"")), "{attributes}");
        assert!(!html.contains("type=\"module\""), "no script is fetched before the page has loaded");
        app.stop().await;
    }

    async fn page_data_serves_client_navigation(app: TestApp) {
        let response = app.get("/api/page-data?path=/courses/").await;
        assert_eq!(response.status().as_u16(), 200);
        let data: serde_json::Value = response.json().await.unwrap();
        assert_eq!(data["page"]["kind"], "courseIndex");
        assert_eq!(data["path"], "/courses/");
        assert!(data["site"]["title"].is_string());
        let missing = app.get("/api/page-data?path=/nope/").await;
        assert_eq!(missing.status().as_u16(), 404);
        let data: serde_json::Value = missing.json().await.unwrap();
        assert_eq!(data["page"]["kind"], "notFound");
        let bad = app.get("/api/page-data?path=//evil.example/").await;
        assert_eq!(bad.status().as_u16(), 400);
        let error: serde_json::Value = bad.json().await.unwrap();
        assert_eq!(error["error"]["code"], "bad_request");
        app.stop().await;
    }

    async fn hashed_assets_are_cached_for_a_year(app: TestApp) {
        let script = app.state.assets.script.clone();
        let response = app.get(&script).await;
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
        // Sent as the build compressed it, at the highest quality, in the
        // form the browser accepts; as it is to one that accepts none.
        let file = app.state.config.web_dist.join("client").join(script.trim_start_matches('/'));
        for (accepted, encoding, suffix) in [("br, gzip", Some("br"), ".br"), ("gzip", Some("gzip"), ".gz"), ("identity", None, "")] {
            let response = app.client.get(app.url(&script)).header("accept-encoding", accepted).send().await.unwrap();
            assert_eq!(response.headers().get("content-encoding").map(|v| v.to_str().unwrap()), encoding, "{accepted}");
            assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
            let sent = response.bytes().await.unwrap();
            let built = std::fs::read(format!("{}{suffix}", file.display())).unwrap();
            assert_eq!(sent.as_ref(), built.as_slice(), "{accepted}: the file the build wrote");
        }
        let missing = app.get("/assets/nothing-here.js").await;
        assert_eq!(missing.status().as_u16(), 404);
        app.stop().await;
    }
}

/// Some price on the page looks like `£1,250.00`.
fn regex_like_price(html: &str) -> bool {
    html.match_indices('£').any(|(i, _)| {
        let rest = &html[i + '£'.len_utf8()..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.').collect();
        digits.len() >= 8
            && digits.contains(',')
            && digits.ends_with(|c: char| c.is_ascii_digit())
            && digits[digits.len() - 3..].starts_with('.')
    })
}

/// The attributes and text of the page's script that starts its scripts.
fn boot_script(html: &str) -> (&str, &str) {
    let start = html.find("<script data-entry=").expect("the page starts its scripts");
    let rest = &html[start + "<script".len()..];
    let (attributes, rest) = rest.split_once('>').unwrap();
    (attributes, rest.split_once("</script>").unwrap().0)
}

/// The JSON-LD block of a page.
fn json_ld(html: &str) -> serde_json::Value {
    let start = html.find("<script type=\"application/ld+json\">").expect("JSON-LD present") + 35;
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).expect("JSON-LD is valid JSON")
}

both_backends! {
    async fn course_pages_describe_the_course_for_search_engines(app: TestApp) {
        let index: serde_json::Value = app.get("/api/page-data?path=/courses/aesthetics/").await.json().await.unwrap();
        let url = index["page"]["courses"][0]["url"].as_str().unwrap().to_owned();
        let (_, html) = app.text(&url).await;
        let graph = json_ld(&html);
        assert_eq!(graph["@context"], "https://schema.org");
        let nodes = graph["@graph"].as_array().unwrap();
        let of_type = |t: &str| nodes.iter().find(|n| n["@type"] == t).unwrap_or_else(|| panic!("no {t}")).clone();
        assert!(of_type("EducationalOrganization")["name"].is_string());
        let course = of_type("Course");
        assert_eq!(course["offers"][0]["priceCurrency"], "GBP");
        assert!(course["offers"][0]["price"].as_str().unwrap().contains('.'));
        assert_eq!(of_type("BreadcrumbList")["itemListElement"].as_array().unwrap().len(), 4);
        let public = &app.state.config.public_url;
        assert!(html.contains(&format!("<meta property=\"og:url\" content=\"{public}{url}\">")), "og:url");
        assert!(html.contains(&format!("<meta property=\"og:title\" content=\"{}", course["name"].as_str().unwrap())), "og:title");
        assert!(html.contains("<meta property=\"og:image\" content=\"") && html.contains("&amp;w=1200&amp;q=75\">"), "og:image");
        let (_, home) = app.text("/").await;
        assert!(json_ld(&home)["@graph"][0]["@type"] == "EducationalOrganization");
        app.stop().await;
    }
}

both_backends! {
    async fn the_sitemap_lists_every_course_and_article(app: TestApp) {
        let (status, xml) = app.text("/sitemap.xml").await;
        assert_eq!(status, 200);
        let public = app.state.config.public_url.clone();
        let index: serde_json::Value = app.get("/api/page-data?path=/courses/").await.json().await.unwrap();
        for course in index["page"]["courses"].as_array().unwrap() {
            assert!(xml.contains(&format!("{public}{}</loc>", course["url"].as_str().unwrap())), "{course}");
        }
        for article in app.db().articles(london::today(Utc::now())).await.unwrap() {
            assert!(xml.contains(&format!("{}</loc>", article.card.url)));
        }
        for path in ["/training-course-calendar/", "/for-business", "/black-friday", "/terms-and-conditions/"] {
            assert!(xml.contains(&format!("{public}{path}</loc>")), "{path}");
        }
        app.stop().await;
    }

    async fn every_route_of_the_site_answers_with_its_own_page(app: TestApp) {
        let expect = [
            ("/training-course-calendar/", "calendar"), ("/pathway-to-aesthetics/", "pathway"), ("/about/", "content"),
            ("/team/", "team"), ("/careers/", "careers"), ("/franchise-with-us/", "content"), ("/blog/", "blog"),
            ("/contact/", "content"), ("/request-a-callback/", "content"), ("/for-business", "content"),
            ("/models/", "content"), ("/finance/", "content"), ("/privacy-policy/", "content"),
            ("/terms-and-conditions/", "content"), ("/black-friday", "offers"),
        ];
        for (path, kind) in expect {
            let response = app.get(&format!("/api/page-data?path={path}")).await;
            assert_eq!(response.status().as_u16(), 200, "{path}");
            let data: serde_json::Value = response.json().await.unwrap();
            assert_eq!(data["page"]["kind"], kind, "{path}");
        }
        let redirect = app.get("/for-business/").await;
        assert_eq!(redirect.status().as_u16(), 308);
        assert_eq!(redirect.headers()["location"], "/for-business");
        let blog: serde_json::Value = app.get("/api/page-data?path=/blog/").await.json().await.unwrap();
        let article = blog["page"]["posts"][0]["url"].as_str().unwrap().to_owned();
        let data: serde_json::Value = app.get(&format!("/api/page-data?path={article}")).await.json().await.unwrap();
        assert_eq!(data["page"]["kind"], "article");
        assert!(!data["page"]["bodyHtml"].as_str().unwrap().is_empty());
        let too_far = app.get("/api/page-data?path=/blog/%3Fpage%3D99").await;
        assert_eq!(too_far.status().as_u16(), 404);
        app.stop().await;
    }

    async fn the_pages_of_mailed_links_are_their_own_out_of_the_sitemap_and_kept_by_no_cache(app: TestApp) {
        let (_, xml) = app.text("/sitemap.xml").await;
        for (path, kind, cache) in [
            ("/verify-email/?token=abc", "verifyEmail", "private, no-store"),
            ("/reset-password/?token=abc", "resetPassword", "private, no-store"),
            ("/forgot-password/", "forgotPassword", "no-cache"),
        ] {
            let response = app.get(&format!("/api/page-data?path={}", path.replace('?', "%3F").replace('=', "%3D"))).await;
            assert_eq!(response.headers()["cache-control"], cache, "{path}");
            let data: serde_json::Value = response.json().await.unwrap();
            assert_eq!(data["page"]["kind"], kind, "{path}");
            let html = app.get(path).await;
            assert_eq!((html.status().as_u16(), html.headers()["cache-control"].to_str().unwrap()), (200, cache), "{path}");
            assert!(!xml.contains(path.split('?').next().unwrap()), "{path} is in the sitemap");
        }
        app.stop().await;
    }

    async fn the_calendar_filters_by_section_and_session_type(app: TestApp) {
        let all: serde_json::Value = app.get("/api/page-data?path=/training-course-calendar/").await.json().await.unwrap();
        let count = |v: &serde_json::Value| v["page"]["total"].as_u64().unwrap();
        let total = count(&all);
        assert!(total > 20);
        let months: Vec<&str> = all["page"]["monthsListed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let mut sorted = months.clone();
        sorted.sort();
        assert_eq!(months, sorted, "months in order");
        let blended: serde_json::Value = app.get("/api/page-data?path=/training-course-calendar/%3Ftype%3Dblended").await.json().await.unwrap();
        assert!(count(&blended) > 0 && count(&blended) < total);
        for month in blended["page"]["months"].as_array().unwrap() {
            for entry in month["sessions"].as_array().unwrap() {
                assert_eq!(entry["session"]["type"], "blended");
                assert_ne!(entry["session"]["registrations"], entry["session"]["seats"]);
            }
        }
        let injectables: serde_json::Value = app.get("/api/page-data?path=/training-course-calendar/%3Fsection%3Dinjectables").await.json().await.unwrap();
        assert!(count(&injectables) > 0 && count(&injectables) < total);
        assert_eq!(injectables["page"]["section"], "injectables");
        app.stop().await;
    }

    async fn the_calendar_shows_whole_months_a_page_at_a_time_and_every_date_once(app: TestApp) {
        let page = |from: &str| {
            let path = if from.is_empty() { "/training-course-calendar/".to_owned() } else { format!("/training-course-calendar/?type=onsite&from={from}") };
            let app = &app;
            async move {
                let data: serde_json::Value = app.get(&format!("/api/page-data?path={}", path.replace('?', "%3F").replace('=', "%3D").replace('&', "%26"))).await.json().await.unwrap();
                data["page"].clone()
            }
        };
        let dates = |page: &serde_json::Value| page["months"].as_array().unwrap().iter().map(|m| m["sessions"].as_array().unwrap().len()).collect::<Vec<_>>();
        let first: serde_json::Value = app.get("/api/page-data?path=/training-course-calendar/%3Ftype%3Donsite").await.json().await.unwrap();
        let first = first["page"].clone();
        let listed: Vec<String> = first["monthsListed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect();
        assert!(listed.len() > 2, "the demo's dates span months: {listed:?}");
        assert_eq!(first["earlier"], serde_json::Value::Null);
        // Following "later" from the first page shows every month once, in
        // order, each page whole months until it holds 60 dates.
        let (mut seen, mut ids, mut current, mut pages) = (Vec::new(), std::collections::HashSet::new(), first.clone(), 0);
        loop {
            pages += 1;
            let counts = dates(&current);
            assert!(!counts.is_empty());
            assert!(counts[..counts.len() - 1].iter().sum::<usize>() < enrol_domain::page::CALENDAR_DATES, "no month more than needed: {counts:?}");
            for month in current["months"].as_array().unwrap() {
                seen.push(month["month"].as_str().unwrap().to_owned());
                for entry in month["sessions"].as_array().unwrap() {
                    assert!(ids.insert(entry["session"]["id"].as_str().unwrap().to_owned()), "a date on two pages");
                    assert_eq!(entry["session"]["type"], "onsite");
                }
            }
            assert_eq!(current["total"], first["total"]);
            let Some(later) = current["later"].as_str().map(str::to_owned) else { break };
            current = page(&later).await;
            assert!(current["earlier"].is_string(), "a later page links back");
        }
        assert_eq!(seen, listed);
        assert_eq!(ids.len() as u64, first["total"].as_u64().unwrap());
        assert!(pages > 1 || first["total"].as_u64().unwrap() < 60);
        // A month without dates starts at the next one with some; one that
        // is not a month, or after the last, is no page.
        let before_all = page("2000-01").await;
        assert_eq!(dates(&before_all), dates(&first));
        let last = listed.last().unwrap();
        let (year, month) = last.split_once('-').unwrap();
        let after = if month == "12" { format!("{}-01", year.parse::<i32>().unwrap() + 1) } else { format!("{year}-{:02}", month.parse::<u32>().unwrap() + 1) };
        for missing in [after.as_str(), "2027-13", "soon"] {
            let response = app.get(&format!("/api/page-data?path=/training-course-calendar/%3Ffrom%3D{missing}")).await;
            assert_eq!(response.status().as_u16(), 404, "{missing}");
        }
        app.stop().await;
    }

    async fn a_section_can_be_sorted_by_price(app: TestApp) {
        let data: serde_json::Value = app.get("/api/page-data?path=/courses/aesthetics/%3Fsort%3Dprice").await.json().await.unwrap();
        assert_eq!(data["page"]["sort"], "price");
        let prices: Vec<i64> = data["page"]["courses"].as_array().unwrap().iter().map(|c| c["price"].as_i64().unwrap()).collect();
        let mut sorted = prices.clone();
        sorted.sort_unstable();
        assert_eq!(prices, sorted);
        app.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configured_tools_reach_the_page_and_the_policy_and_nothing_else_does() {
    use crate::helpers::{Backend, spawn_app, spawn_app_with};
    let plain = spawn_app(Backend::Sqlite).await.expect("SQLite");
    let response = plain.get("/").await;
    let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"<script type="application/json" id="__ENROL_TRACKING__">{"tagManager":null,"#), "no tool is on by default");
    assert!(!csp.contains("googletagmanager"));
    plain.stop().await;

    let app = spawn_app_with(Backend::Sqlite, |config| config.tracking.tag_manager = Some("GTM-TEST123".into())).await.expect("SQLite");
    let response = app.get("/").await;
    let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"{"tagManager":"GTM-TEST123","heap":null"#), "the id reaches the browser");
    let boot = enrol_server::document::boot_script_source();
    assert!(csp.contains(&format!("script-src 'self' {boot} https://www.googletagmanager.com;")), "{csp}");
    assert!(!html.contains("googletagmanager.com/gtm.js"), "no tool script is in the HTML: it loads only with consent");
    app.stop().await;
}
