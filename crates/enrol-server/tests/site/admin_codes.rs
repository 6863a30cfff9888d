//! Discount codes and upsell offers in the back office (decision 017): each
//! change writes one audit row and a refused one none, a code
//! limited to courses or sections takes money off theirs only at the real
//! checkout, an expired code is refused there, and an edited offer shows
//! on its course's page.

use enrol_domain::enrollment::{Discount, DiscountType, LinePrice, Quote};
use enrol_domain::money::Money;
use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::{audit_rows, staff_member};
use crate::both_backends;
use crate::enrol_checkout::{count, execute, order, post, prepared};
use crate::helpers::TestApp;

/// A staff member's call to `/api/admin{path}`: the status and the JSON
/// answer. A write without a body sends `{}`, as the back office does.
pub(crate) async fn admin(client: &reqwest::Client, app: &TestApp, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let url = app.url(&format!("/api/admin{path}"));
    let body = body.unwrap_or_else(|| json!({}));
    let request = match method {
        "GET" => client.get(url),
        "POST" => client.post(url).json(&body),
        "PUT" => client.put(url).json(&body),
        "DELETE" => client.delete(url).json(&body),
        other => panic!("no method {other}"),
    };
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// A code's body as the back office sends it.
fn code(name: Option<&str>, kind: &str, value: i64, max_uses: Option<i64>, courses: &[&str], sections: &[&str]) -> Value {
    let mut body = json!({ "type": kind, "value": value, "expiresOn": null, "maxUses": max_uses, "active": true,
        "courseIds": courses, "sectionSlugs": sections });
    if let Some(name) = name {
        body["code"] = json!(name);
    }
    body
}

fn fields(answer: &Value) -> Vec<&str> {
    assert_eq!(answer["error"]["code"], "invalid", "{answer}");
    answer["error"]["fields"].as_object().unwrap().keys().map(String::as_str).collect()
}

/// One line of the demo's Chemical Peels Course (£695) or Dermaplaning Course (£295), no kit.
fn line(pence: i64, code_applies: bool) -> LinePrice {
    LinePrice { price: Money::from_pence(pence), kit_pounds: None, code_applies }
}

/// The checkout's order for `courses` (course id, session id), as the page sends it.
fn order_of(courses: &[(&str, &str)], code: Option<&str>, q: &Quote) -> Value {
    let mut body = order("chemical-peels-1", false, code, "card", q);
    body["data"]["enrollment"]["metadata"] =
        courses.iter().map(|(course, session)| json!({ "courseId": course, "sessionId": session, "includeKit": false })).collect();
    body
}

both_backends! {
    async fn a_code_chooses_its_sections_from_the_sites_list_by_name(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (status, list) = admin(&staff, &app, "GET", "/sections", None).await;
        assert_eq!(status, 200, "{list}");
        let sections = list["sections"].as_array().unwrap();
        assert_eq!(sections[0], json!({ "slug": "vtct", "title": "VTCT Qualifications" }), "in the site's order, with names");
        assert!(sections.iter().any(|s| s["slug"] == "hair"));
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        assert_eq!(admin(&editor, &app, "GET", "/sections", None).await.0, 403);
    }

    async fn codes_are_created_edited_and_expired_with_one_audit_row_each(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (status, list) = admin(&staff, &app, "GET", "/codes", None).await;
        assert_eq!(status, 200);
        let welcome = list["codes"].as_array().unwrap().iter().find(|c| c["code"] == "WELCOME10").unwrap();
        assert_eq!(welcome, &json!({ "code": "WELCOME10", "type": "percent", "value": 10, "expiresOn": null, "maxUses": null,
            "uses": 0, "active": true, "courseIds": [], "sectionSlugs": [], "state": "active" }));

        let before = audit_rows(&app).await;
        let mut spring = code(Some(" spring-25 "), "percent", 20, Some(10), &[], &[]);
        spring["expiresOn"] = json!("2030-06-30");
        let (status, created) = admin(&staff, &app, "POST", "/codes", Some(spring.clone())).await;
        assert_eq!(status, 201, "{created}");
        assert_eq!((created["code"].as_str(), created["expiresOn"].as_str(), created["uses"].as_i64()), (Some("SPRING-25"), Some("2030-06-30"), Some(0)));
        assert_eq!(audit_rows(&app).await, before + 1);

        // Refused: the same code again, bad fields, courses and sections the college does not have.
        let (status, again) = admin(&staff, &app, "POST", "/codes", Some(spring)).await;
        assert_eq!((status, fields(&again)), (422, vec!["code"]));
        let mut bad = code(Some("x"), "euro", 0, Some(0), &[], &[]);
        bad["expiresOn"] = json!("next spring");
        let (status, answer) = admin(&staff, &app, "POST", "/codes", Some(bad)).await;
        assert_eq!((status, fields(&answer)), (422, vec!["code", "expiresOn", "maxUses", "type"]));
        let (_, answer) = admin(&staff, &app, "POST", "/codes", Some(code(None, "percent", 101, None, &[], &[]))).await;
        assert_eq!(fields(&answer), ["code", "value"]);
        let (_, answer) = admin(&staff, &app, "POST", "/codes", Some(code(Some("NEW-1"), "pound", 500, None, &["chemical-peels", "no-such-course"], &[]))).await;
        assert_eq!(fields(&answer), ["courseIds"]);
        assert_eq!(answer["error"]["fields"]["courseIds"], "Choose courses from the list: one sent is not a course the college has.");
        let (_, answer) = admin(&staff, &app, "POST", "/codes", Some(code(Some("NEW-1"), "pound", 500, None, &[], &["hair", "no-such-section"]))).await;
        assert_eq!(fields(&answer), ["sectionSlugs"]);
        assert_eq!(answer["error"]["fields"]["sectionSlugs"], "Choose sections from the list: one sent is not a section the college has.");
        assert_eq!(audit_rows(&app).await, before + 1, "refused changes write no audit row");

        // Edited: everything but the code, never a limit below the uses counted.
        let (status, edited) = admin(&staff, &app, "PUT", "/codes/spring-25", Some(code(None, "pound", 5000, Some(5), &["chemical-peels"], &["hair"]))).await;
        assert_eq!(status, 200, "{edited}");
        assert_eq!((edited["type"].as_str(), edited["value"].as_i64(), edited["expiresOn"].as_str()), (Some("pound"), Some(5000), None));
        assert_eq!((edited["courseIds"].clone(), edited["sectionSlugs"].clone()), (json!(["chemical-peels"]), json!(["hair"])));
        assert_eq!(audit_rows(&app).await, before + 2);
        let (_, log) = admin(&staff, &app, "GET", "/audit?entity=code&entityId=SPRING-25", None).await;
        assert_eq!(log["entries"][0]["action"], "code.edit");
        assert_eq!((log["entries"][0]["before"]["type"].as_str(), log["entries"][0]["after"]["type"].as_str()), (Some("percent"), Some("pound")));
        let (status, _) = admin(&staff, &app, "PUT", "/codes/spring-25", Some(code(None, "pound", 5000, Some(5), &["chemical-peels"], &["hair"]))).await;
        assert_eq!(status, 200);
        assert_eq!(audit_rows(&app).await, before + 2, "an edit that changes nothing writes nothing");

        execute(&app, "update discount_code set uses = 4 where code = 'SPRING-25'").await;
        let (status, answer) = admin(&staff, &app, "PUT", "/codes/SPRING-25", Some(code(None, "pound", 5000, Some(3), &[], &[]))).await;
        assert_eq!((status, fields(&answer)), (422, vec!["maxUses"]));
        let (status, answer) = admin(&staff, &app, "PUT", "/codes/SPRING-25", Some(code(Some("AUTUMN-25"), "pound", 5000, Some(4), &[], &[]))).await;
        assert_eq!((status, fields(&answer)), (422, vec!["code"]));
        assert_eq!(admin(&staff, &app, "PUT", "/codes/NO-SUCH-CODE", Some(code(None, "pound", 5000, None, &[], &[]))).await.0, 404);
        assert_eq!(audit_rows(&app).await, before + 2);
        let (status, edited) = admin(&staff, &app, "PUT", "/codes/SPRING-25", Some(code(Some("spring-25"), "pound", 5000, Some(4), &[], &[]))).await;
        assert_eq!((status, edited["maxUses"].as_i64(), edited["courseIds"].clone()), (200, Some(4), json!([])));
        assert_eq!(audit_rows(&app).await, before + 3);

        // Expired: no longer usable, once.
        execute(&app, "update discount_code set uses = 0 where code = 'SPRING-25'").await;
        assert_eq!(post(&app, "/api/code", &json!({ "code": "spring-25" })).await.1["valid"], true);
        let (status, expired) = admin(&staff, &app, "POST", "/codes/spring-25/expire", None).await;
        assert_eq!((status, expired["active"].as_bool()), (200, Some(false)));
        assert_eq!(audit_rows(&app).await, before + 4);
        assert_eq!(admin(&staff, &app, "POST", "/codes/spring-25/expire", None).await.0, 200);
        assert_eq!(audit_rows(&app).await, before + 4, "expiring an expired code changes nothing");
        assert_eq!(post(&app, "/api/code", &json!({ "code": "spring-25" })).await.1["valid"], false);
        assert_eq!(admin(&staff, &app, "POST", "/codes/NO-SUCH-CODE/expire", None).await.0, 404);
        assert_eq!(admin(&staff, &app, "GET", "/codes/NO-SUCH-CODE/orders", None).await.0, 404);
        app.stop().await;
    }

    async fn a_code_past_its_last_day_ended_or_used_up_reads_so_not_as_active(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let mut summer = code(Some("SUMMER-20"), "percent", 20, None, &[], &[]);
        summer["expiresOn"] = json!("2020-08-31");
        let (status, created) = admin(&staff, &app, "POST", "/codes", Some(summer)).await;
        assert_eq!((status, created["active"].as_bool(), created["state"].as_str()), (201, Some(true), Some("expired")), "{created}");
        let (_, answer) = admin(&staff, &app, "POST", "/codes", Some(code(Some("FIRST-5"), "pound", 500, Some(5), &[], &[]))).await;
        assert_eq!(answer["state"], "active");
        execute(&app, "update discount_code set uses = 5 where code = 'FIRST-5'").await;
        let (_, ended) = admin(&staff, &app, "POST", "/codes/WELCOME10/expire", None).await;
        assert_eq!(ended["state"], "expired");

        let (_, list) = admin(&staff, &app, "GET", "/codes", None).await;
        let state = |name: &str| list["codes"].as_array().unwrap().iter().find(|c| c["code"] == name).unwrap()["state"].clone();
        assert_eq!((state("SUMMER-20"), state("FIRST-5"), state("WELCOME10")), (json!("expired"), json!("usedUp"), json!("expired")));
        assert_eq!(post(&app, "/api/code", &json!({ "code": "summer-20" })).await.1["valid"], false, "the checkout agrees");
        assert_eq!(post(&app, "/api/code", &json!({ "code": "first-5" })).await.1["valid"], false);
        app.stop().await;
    }

    async fn a_limited_code_discounts_only_its_courses_at_checkout(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (status, _) = admin(&staff, &app, "POST", "/codes", Some(code(Some("PEELS20"), "percent", 20, None, &["chemical-peels"], &[]))).await;
        assert_eq!(status, 201);
        let (_, checked) = post(&app, "/api/code", &json!({ "code": "peels20" })).await;
        assert_eq!((checked["valid"].as_bool(), checked["courseIds"].clone()), (Some(true), json!(["chemical-peels"])));
        assert!(post(&app, "/api/code", &json!({ "code": "WELCOME10" })).await.1.get("courseIds").is_none(), "unlimited codes are answered as before");

        // Two courses: the code takes 20% off the peels line only.
        let discount = Some(Discount { kind: DiscountType::Percent, value: 20 });
        let both = [("chemical-peels", "chemical-peels-1"), ("dermaplaning", "dermaplaning-1")];
        let q = Quote::new(&[line(69_500, true), line(29_500, false)], discount);
        assert_eq!(q.discount, Money::from_pence(13_900));
        let whole = Quote::new(&[line(69_500, true), line(29_500, true)], discount);
        let (status, answer) = post(&app, "/api/enroll/", &order_of(&both, Some("PEELS20"), &whole)).await;
        assert_eq!(status, 422, "the whole basket is not discounted: {answer}");
        let (order_id, _, _) = prepared(&app, &order_of(&both, Some("PEELS20"), &q), q.deposit, "booking-fee").await;
        assert_eq!(count(&app, &format!("select discount from enrollment where id = '{order_id}'")).await, 13_900);
        assert_eq!(count(&app, "select uses from discount_code where code = 'PEELS20'").await, 1);

        // A basket without the course is told the code does not apply.
        let derma = [("dermaplaning", "dermaplaning-1")];
        let plain = Quote::new(&[line(29_500, false)], discount);
        let (status, answer) = post(&app, "/api/enroll/", &order_of(&derma, Some("PEELS20"), &plain)).await;
        assert_eq!(status, 422);
        assert!(answer["error"]["message"].as_str().unwrap().contains("does not apply to the courses in your basket"), "{answer}");

        // Limited to sections: a course's own section and those it is also listed in.
        let (status, _) = admin(&staff, &app, "PUT", "/codes/PEELS20", Some(code(None, "percent", 20, None, &[], &["new"]))).await;
        assert_eq!(status, 200);
        let (_, checked) = post(&app, "/api/code", &json!({ "code": "PEELS20" })).await;
        let reached: Vec<&str> = checked["courseIds"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert!(reached.contains(&"polynucleotides") && reached.contains(&"hifu-skin-tightening"), "{reached:?}");
        assert!(!reached.contains(&"chemical-peels"), "{reached:?}");
        let (status, answer) = post(&app, "/api/enroll/", &order_of(&both, Some("PEELS20"), &Quote::new(&[line(69_500, false), line(29_500, false)], discount))).await;
        assert_eq!(status, 422, "{answer}");

        // The bookings that used it, and an expired code refused at checkout.
        let (status, orders) = admin(&staff, &app, "GET", "/codes/peels20/orders", None).await;
        assert_eq!(status, 200);
        assert_eq!(orders["orders"].as_array().unwrap().len(), 1, "{orders}");
        let first = &orders["orders"][0];
        assert_eq!((first["id"].as_str(), first["name"].as_str(), first["email"].as_str()), (Some(order_id.as_str()), Some("Sam Lee"), Some("sam.lee@example.com")));
        assert_eq!((first["total"].as_i64(), first["paid"].as_i64(), first["status"].as_str()), (Some(q.total.pence()), Some(0), Some("pending")));
        assert_eq!(first["courses"], json!(["Chemical Peels Course", "Dermaplaning Course"]));
        assert_eq!(admin(&staff, &app, "POST", "/codes/PEELS20/expire", None).await.0, 200);
        let peels = Quote::new(&[line(69_500, true)], discount);
        let (status, answer) = post(&app, "/api/enroll/", &order_of(&[("chemical-peels", "chemical-peels-1")], Some("PEELS20"), &peels)).await;
        assert_eq!(status, 422);
        assert!(answer["error"]["message"].as_str().unwrap().contains("can no longer be used"), "{answer}");
        app.stop().await;
    }

    async fn an_edited_upsell_shows_on_its_course_page(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (status, list) = admin(&staff, &app, "GET", "/upsells", None).await;
        assert_eq!(status, 200);
        let offer = list["upsells"].as_array().unwrap().iter().find(|u| u["priceId"] == "price_dermaplaning_online").unwrap();
        assert_eq!(offer["title"], "Microneedling Online Course");

        let before = (audit_rows(&app).await, app.db().content_version().await.unwrap());
        let bad = json!({ "title": " ", "description": "Theory to add.", "cta": "x".repeat(41), "unitAmount": 0 });
        let (status, answer) = admin(&staff, &app, "PUT", "/upsells/price_dermaplaning_online", Some(bad)).await;
        assert_eq!((status, fields(&answer)), (422, vec!["cta", "title", "unitAmount"]));
        let edit = json!({ "title": "Microneedling Theory", "description": "Add the theory of collagen induction.", "cta": "Add for £29.99", "unitAmount": 2999 });
        assert_eq!(admin(&staff, &app, "PUT", "/upsells/price_nothing", Some(edit.clone())).await.0, 404);
        assert_eq!(audit_rows(&app).await, before.0);
        let (status, edited) = admin(&staff, &app, "PUT", "/upsells/price_dermaplaning_online", Some(edit)).await;
        assert_eq!((status, edited["unitAmount"].as_i64()), (200, Some(2999)));
        assert_eq!((audit_rows(&app).await, app.db().content_version().await.unwrap()), (before.0 + 1, before.1 + 1));

        let url: String = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar("select url from course where price_id = 'price_dermaplaning_online'").fetch_one(pool).await).unwrap();
        let data: Value = app.get(&format!("/api/page-data?path={url}")).await.json().await.unwrap();
        let upsell = &data["page"]["upsell"];
        assert_eq!((upsell["title"].as_str(), upsell["cta"].as_str()), (Some("Microneedling Theory"), Some("Add for £29.99")));
        assert_eq!(upsell["price_data"]["unit_amount"], 2999);
        app.stop().await;
    }
}
