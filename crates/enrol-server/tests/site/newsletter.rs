//! The newsletter's double opt-in (docs/product.md#enquiries): an address joins only by the
//! link mailed to it, once, and the answer is the same for every address.

use serde_json::{Value, json};

use crate::accounts::mailed_token;
use crate::both_backends;
use crate::helpers::TestApp;

async fn post(app: &TestApp, path: &str, body: Value) -> (u16, Value) {
    let response = app.client.post(app.url(path)).json(&body).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

async fn confirmed(app: &TestApp, email: &str) -> Option<bool> {
    let at: Option<Option<String>> = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar(
        "select cast(confirmed_at as text) from newsletter_subscriber where email = $1"
    ).bind(email).fetch_optional(pool).await)
    .unwrap();
    at.map(|at| at.is_some())
}

both_backends! {
    async fn an_address_joins_the_newsletter_only_by_its_mailed_link(app: TestApp) {
        let email = "amelia@example.org";
        let (status, refused) = post(&app, "/api/newsletter", json!({ "email": email, "consent": false })).await;
        assert_eq!((status, refused["error"]["fields"]["consent"].as_str()), (422, Some("Please tick the box to agree to our emails")));
        assert_eq!(post(&app, "/api/newsletter", json!({ "email": " Amelia@Example.org ", "consent": true })).await, (202, json!({ "sent": true })));
        assert_eq!(confirmed(&app, email).await, Some(false), "asked, not yet joined");

        let token = mailed_token(&app, email, "/newsletter/confirm/?token=").await;
        assert_eq!(post(&app, "/api/newsletter/confirm", json!({ "token": "not-a-token" })).await.0, 422);
        assert_eq!(post(&app, "/api/newsletter/confirm", json!({ "token": token })).await, (200, json!({ "subscribed": true })));
        assert_eq!(post(&app, "/api/newsletter/confirm", json!({ "token": token })).await.0, 422, "a link works once");
        assert_eq!(confirmed(&app, email).await, Some(true));

        // Asking again once subscribed: the same answer, and no new mail.
        let mails_before = app.db().outbox(100).await.unwrap().len();
        assert_eq!(post(&app, "/api/newsletter", json!({ "email": email, "consent": true })).await.0, 202);
        assert_eq!(app.db().outbox(100).await.unwrap().len(), mails_before);
        app.stop().await;
    }
}
