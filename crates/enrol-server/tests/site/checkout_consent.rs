//! What a buyer agrees to at checkout (decision 020): no order without the
//! terms; no online order without the express request to start at once and
//! the acknowledgement that the right to cancel is then lost; no booking of
//! a course with entry requirements without confirming them. What was agreed
//! is kept word for word with the order, and staff read it on its page.

use enrol_domain::consent::{CONSENT_VERSION, DIGITAL_CONTENT, TERMS};
use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::staff_member;
use crate::admin_codes::admin;
use crate::both_backends;
use crate::enrol_checkout::{COURSE, count, order, post, put, quote};
use crate::helpers::TestApp;
use crate::online_checkout::agreed_online;

/// The order of [`COURSE`] paying its booking fee, agreed to as `agreed` says.
fn order_agreeing(agreed: Value) -> Value {
    let q = quote(false, None);
    let mut body = order("chemical-peels-3", false, None, "card", &q);
    body["data"]["agreed"] = agreed;
    body
}

both_backends! {
    async fn an_order_needs_the_terms_and_each_entry_requirement_and_keeps_them_word_for_word(app: TestApp) {
        let (status, refused) = post(&app, "/api/enroll/", &order_agreeing(json!({ "version": CONSENT_VERSION, "terms": false }))).await;
        assert_eq!(status, 422, "{refused}");
        let fields = &refused["error"]["fields"];
        assert_eq!(fields["agreed.terms"], "Please accept the terms and conditions to continue", "{refused}");
        assert_eq!(fields["agreed.entryRequirements"], "Please confirm you meet the entry requirements of each course", "{refused}");

        let old = json!({ "version": "2020-01-01", "terms": true, "entryRequirements": [COURSE] });
        let (status, refused) = post(&app, "/api/enroll/", &order_agreeing(old)).await;
        assert_eq!((status, refused["error"]["fields"]["agreed"].as_str().is_some()), (422, true), "older wording is read again: {refused}");
        assert_eq!(count(&app, "select count(*) from enrollment").await, 0, "nothing is kept of a refused order");

        let agreed = json!({ "version": CONSENT_VERSION, "terms": true, "entryRequirements": [COURSE] });
        let (status, created) = post(&app, "/api/enroll/", &order_agreeing(agreed)).await;
        assert_eq!(status, 200, "{created}");
        let order_id = created["id"].as_str().unwrap();

        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (status, shown) = admin(&staff, &app, "GET", &format!("/orders/{order_id}"), None).await;
        assert_eq!(status, 200, "{shown}");
        let kept: Vec<(&str, &str, &str)> = shown["order"]["agreed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["kind"].as_str().unwrap(), c["wording"].as_str().unwrap(), c["version"].as_str().unwrap()))
            .collect();
        assert_eq!(kept.len(), 2, "{shown}");
        assert_eq!(kept[0], ("terms", TERMS, CONSENT_VERSION));
        assert_eq!(kept[1].0, "entry_requirements");
        assert!(kept[1].1.starts_with("I meet the entry requirements of Chemical Peels Course,"), "{}", kept[1].1);
        assert!(shown["order"]["agreed"][0]["agreedAt"].as_str().is_some());

        // A changed order is agreed to again, in place of what it had.
        let agreed = json!({ "version": CONSENT_VERSION, "terms": true, "entryRequirements": [COURSE] });
        let (status, changed) = put(&app, "/api/enroll/", &json!({ "id": order_id, "data": order_agreeing(agreed)["data"] })).await;
        assert_eq!(status, 200, "{changed}");
        let kept = count(&app, &format!("select count(*) from order_consent where enrollment_id = '{order_id}'")).await;
        assert_eq!(kept, 2, "the terms and the entry requirement, once each");
        app.stop().await;
    }

    async fn an_online_order_needs_the_request_to_start_at_once(app: TestApp) {
        let offers = app.db().online_offers().await.unwrap();
        let price_id = offers[0].price_id.clone();
        let without = json!({ "priceIds": [price_id], "additional": [], "agreed": { "version": CONSENT_VERSION, "terms": true } });
        let (status, refused) = post(&app, "/api/e-learning/create-checkout", &without).await;
        assert_eq!(status, 422, "{refused}");
        assert_eq!(refused["error"]["fields"]["agreed.digitalContent"], "Please confirm you want access straight away to continue");
        assert_eq!(count(&app, "select count(*) from online_order").await, 0);

        let agreed = json!({ "priceIds": [price_id], "additional": [], "agreed": agreed_online() });
        let (status, created) = post(&app, "/api/e-learning/create-checkout", &agreed).await;
        assert_eq!(status, 200, "{created}");
        assert_eq!(count(&app, "select count(*) from order_consent where online_order_id is not null and kind = 'terms'").await, 1);
        let waiver = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar::<_, String>(
            "select wording from order_consent where online_order_id is not null and kind = 'digital_content'"
        ).fetch_one(pool).await).unwrap();
        assert_eq!(waiver, DIGITAL_CONTENT);
        app.stop().await;
    }
}
