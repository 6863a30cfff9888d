//! Accounts: sign-up, sign-in with throttling, the session in an httpOnly
//! cookie or a bearer header, sign-out, password reset, the account area.

use enrol_db::on_pool;
use serde_json::{Value, json};

use crate::both_backends;
use crate::enrol_checkout::{confirm, order, prepared, quote};
use crate::helpers::TestApp;

const EMAIL: &str = "sam.lee@example.com";
const PASSWORD: &str = "correct horse battery";

struct Answer {
    status: u16,
    cookie: Option<String>,
    body: Value,
}

async fn call(app: &TestApp, method: reqwest::Method, path: &str, body: Option<Value>, token: Option<&str>) -> Answer {
    let mut request = app.client.request(method, app.url(path));
    if let Some(body) = body {
        request = request.json(&body);
    }
    if let Some(token) = token {
        request = request.header("cookie", format!("enrol_session={token}"));
    }
    let response = request.send().await.expect("request");
    let cookie = response.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_owned());
    Answer { status: response.status().as_u16(), cookie, body: response.json().await.unwrap_or(Value::Null) }
}

async fn post(app: &TestApp, path: &str, body: Value, token: Option<&str>) -> Answer {
    call(app, reqwest::Method::POST, path, Some(body), token).await
}

async fn get(app: &TestApp, path: &str, token: Option<&str>) -> Answer {
    call(app, reqwest::Method::GET, path, None, token).await
}

/// The token of a `Set-Cookie: enrol_session=…` header.
fn token_of(cookie: &str) -> String {
    cookie.strip_prefix("enrol_session=").and_then(|rest| rest.split(';').next()).expect("the session cookie").to_owned()
}

async fn sign_up(app: &TestApp, email: &str) -> Answer {
    post(app, "/api/auth/sign-up", json!({ "email": email, "password": PASSWORD, "first_name": "Sam", "last_name": "Lee", "phone": "07700 900123" }), None).await
}

both_backends! {
    async fn sign_up_signs_in_with_an_http_only_cookie_and_sign_out_ends_it(app: TestApp) {
        assert_eq!(get(&app, "/api/auth/session", None).await.body, json!({ "user": null, "claims": null, "userData": null }));
        let created = sign_up(&app, "Sam.Lee@Example.com").await;
        assert_eq!(created.status, 201, "{}", created.body);
        let cookie = created.cookie.expect("a session cookie");
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"), "{cookie}");
        assert!(!cookie.contains("Secure"), "plain http in tests");
        assert!(!created.body.to_string().contains(&token_of(&cookie)), "the token never reaches JavaScript");
        assert_eq!(created.body["user"]["email"], EMAIL);
        assert_eq!(created.body["user"]["phone_number"], "+447700900123");
        assert_eq!(created.body["claims"]["https://hasura.io/jwt/claims"]["x-hasura-user-id"], created.body["user"]["sub"]);
        let stored: String = on_pool!(app.db(), pool => sqlx::query_scalar("select password_hash from user_account where email = $1").bind(EMAIL).fetch_one(pool).await).unwrap();
        assert!(stored.starts_with("$argon2id$"));
        let token = token_of(&cookie);
        let kept: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select count(*) from user_session where token_hash = $1").bind(&token).fetch_one(pool).await).unwrap();
        assert_eq!(kept, 0, "only the token's hash is stored");

        let session = get(&app, "/api/auth/session", Some(&token)).await;
        assert_eq!(session.body["userData"]["email"], EMAIL);
        let bearer = app.client.get(app.url("/api/auth/session")).bearer_auth(&token).send().await.unwrap().json::<Value>().await.unwrap();
        assert_eq!(bearer["user"]["email"], EMAIL);

        let out = post(&app, "/api/auth/sign-out", json!({}), Some(&token)).await;
        assert_eq!(out.status, 200);
        assert!(out.cookie.unwrap().contains("Max-Age=0"));
        assert_eq!(get(&app, "/api/auth/session", Some(&token)).await.body["user"], Value::Null);
        assert_eq!(get(&app, "/api/account", Some(&token)).await.status, 401);
        app.stop().await;
    }

    async fn sign_up_explains_what_is_missing_and_refuses_a_taken_email(app: TestApp) {
        let answer = post(&app, "/api/auth/sign-up", json!({}), None).await;
        assert_eq!(answer.status, 422);
        assert_eq!(answer.body["error"]["fields"], json!({
            "email": "Email is required", "password": "Password is required", "first_name": "First name is required",
            "last_name": "Last name is required", "phone": "Phone number is required",
        }));
        assert_eq!(sign_up(&app, EMAIL).await.status, 201);
        let again = sign_up(&app, "SAM.LEE@example.com").await;
        assert_eq!(again.status, 409);
        assert!(again.body["error"]["message"].as_str().unwrap().contains("already exists"));
        assert!(again.cookie.is_none());
        app.stop().await;
    }

    async fn sign_in_checks_the_password_and_throttles_guessing(app: TestApp) {
        assert_eq!(sign_up(&app, EMAIL).await.status, 201);
        let wrong = post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": "not the password" }), None).await;
        assert_eq!((wrong.status, wrong.body["error"]["message"].as_str()), (401, Some("Email or password is incorrect.")));
        let nobody = post(&app, "/api/auth/sign-in", json!({ "username": "nobody@example.com", "password": PASSWORD }), None).await;
        assert_eq!(nobody.status, 401, "an unknown email reads the same");
        let right = post(&app, "/api/auth/sign-in", json!({ "username": " SAM.LEE@example.com ", "password": PASSWORD }), None).await;
        assert_eq!(right.status, 200);
        assert!(right.cookie.is_some());
        for _ in 0..5 {
            assert_eq!(post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": "guess" }), None).await.status, 401);
        }
        let throttled = post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": PASSWORD }), None).await;
        assert_eq!(throttled.status, 429);
        assert!(throttled.cookie.is_none());
        app.stop().await;
    }

    async fn a_buyer_claims_their_account_by_a_reset_link(app: TestApp) {
        // A purchase made the account; signing up cannot take it over.
        on_pool!(app.db(), pool => sqlx::query("insert into user_account (id, email, given_name) values ('u-buyer', $1, 'Sam')").bind(EMAIL).execute(pool).await.map(drop)).unwrap();
        assert_eq!(sign_up(&app, EMAIL).await.status, 409);
        assert_eq!(post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": PASSWORD }), None).await.status, 401);

        assert_eq!(post(&app, "/api/auth/password-reset", json!({ "email": "nobody@example.com" }), None).await.body, json!({ "sent": true }));
        assert_eq!(post(&app, "/api/auth/password-reset", json!({ "email": EMAIL }), None).await.body, json!({ "sent": true }));
        let mails = app.db().outbox(10).await.unwrap();
        assert_eq!(mails.len(), 1, "only a real account gets a link");
        let link = mails[0].body_text.lines().find(|l| l.contains("/reset-password/?token=")).expect("a reset link").to_owned();
        let token = link.split("token=").nth(1).unwrap().trim().to_owned();

        let short = post(&app, "/api/auth/password-reset/confirm", json!({ "token": token, "password": "short" }), None).await;
        assert_eq!(short.status, 422);
        let reset = post(&app, "/api/auth/password-reset/confirm", json!({ "token": token, "password": PASSWORD }), None).await;
        assert_eq!(reset.status, 200, "{}", reset.body);
        assert_eq!(reset.body["user"]["sub"], "u-buyer");
        let reused = post(&app, "/api/auth/password-reset/confirm", json!({ "token": token, "password": "another long password" }), None).await;
        assert_eq!(reused.status, 422, "a link works once");
        assert_eq!(post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": PASSWORD }), None).await.status, 200);
        app.stop().await;
    }

    async fn the_account_area_shows_the_users_bookings_and_payments(app: TestApp) {
        let token = token_of(&sign_up(&app, EMAIL).await.cookie.unwrap());
        let q = quote(false, None);
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-1", false, None, "card", &q), q.deposit, "booking-fee").await;
        assert_eq!(confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await.0, 200);

        let account = get(&app, "/api/account", Some(&token)).await;
        assert_eq!(account.status, 200, "{}", account.body);
        let data = account.body;
        assert_eq!(data["user"]["email"], EMAIL);
        assert_eq!(data["enrollments"][0]["id"], order_id.as_str());
        assert_eq!(data["enrollments"][0]["status"], "deposit");
        assert_eq!(data["enrollments"][0]["paid"], 10_000);
        assert_eq!(data["enrollments"][0]["lines"][0]["title"], "Chemical Peels Course");
        assert_eq!(data["payments"][0]["amount"], 10_000);
        assert_eq!(get(&app, "/api/account", None).await.status, 401);

        // Signed in, an order belongs to the user whatever contact email it gives.
        let mut other = order("chemical-peels-1", false, None, "card", &q);
        other["data"]["contact"]["email"] = json!("someone.else@example.com");
        let created = post(&app, "/api/enroll/", other, Some(&token)).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let owner: Option<String> = on_pool!(app.db(), pool => sqlx::query_scalar("select user_id from enrollment where id = $1")
            .bind(created.body["id"].as_str().unwrap()).fetch_one(pool).await).unwrap();
        assert_eq!(owner.as_deref(), data["user"]["id"].as_str());
        app.stop().await;
    }
}
