//! Accounts: sign-up, sign-in with throttling, the session in an httpOnly
//! cookie or a bearer header, sign-out, password reset, the account area.

use enrol_db::on_pool;
use enrol_domain::enrollment::{Discount, DiscountType};
use serde_json::{Value, json};

use crate::both_backends;
use crate::enrol_checkout::{confirm, count, order, prepared, quote};
use crate::helpers::TestApp;

const EMAIL: &str = "sam.lee@example.com";
const PASSWORD: &str = "correct horse battery";

struct Answer {
    status: u16,
    cookie: Option<String>,
    body: Value,
}

async fn call(app: &TestApp, method: reqwest::Method, path: &str, body: Option<Value>, token: Option<&str>) -> Answer {
    // A browser without a cookie jar: the session travels only as given.
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let mut request = client.request(method, app.url(path));
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
    sign_up_with(app, email, PASSWORD).await
}

async fn sign_up_with(app: &TestApp, email: &str, password: &str) -> Answer {
    post(
        app,
        "/api/auth/sign-up",
        json!({ "email": email, "password": password, "first_name": "Sam", "last_name": "Lee", "phone": "07700 900123" }),
        None,
    )
    .await
}

/// The token of the newest link to `path` mailed to `to`.
pub(crate) async fn mailed_token(app: &TestApp, to: &str, path: &str) -> String {
    // A password reset is mailed just after its answer: wait a little for it.
    for _ in 0..50 {
        let mails = app.db().outbox(50).await.unwrap();
        if let Some(mail) = mails.iter().find(|m| m.to_address == to && m.body_text.contains(path)) {
            let link = mail.body_text.lines().find(|l| l.contains(path)).unwrap();
            return link.split("token=").nth(1).unwrap().trim().to_owned();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no {path} mail to {to}")
}

/// Signs up `email` and opens the verification link: the session token.
/// The statuses of 40 requests to `path` sent at once, each from its own
/// address (so only the per-email limit can stop them), body `i` for the
/// `i`th.
async fn forty_at_once(app: &TestApp, path: &str, body: impl Fn(usize) -> serde_json::Value) -> Vec<u16> {
    let mut requests = tokio::task::JoinSet::new();
    for i in 0..40 {
        let request = app.client.post(app.url(path)).header("x-forwarded-for", format!("10.1.0.{i}")).json(&body(i));
        requests.spawn(async move { request.send().await.expect("request").status().as_u16() });
    }
    requests.join_all().await
}

pub(crate) async fn verified_account(app: &TestApp, email: &str) -> String {
    assert_eq!(sign_up(app, email).await.status, 201);
    let token = mailed_token(app, email, "/verify-email/?token=").await;
    let verified = post(app, "/api/auth/verify", json!({ "token": token, "password": PASSWORD }), None).await;
    assert_eq!(verified.status, 200, "{}", verified.body);
    token_of(&verified.cookie.expect("a session cookie"))
}

both_backends! {
    async fn sign_up_signs_in_and_mails_a_link_that_proves_the_email(app: TestApp) {
        assert_eq!(get(&app, "/api/auth/session", None).await.body, json!({ "user": null, "claims": null }));
        let created = sign_up(&app, "Sam.Lee@Example.com").await;
        assert_eq!(created.status, 201, "{}", created.body);
        assert_eq!((created.body["user"]["email"].as_str(), created.body["user"]["email_verified"].as_bool()), (Some(EMAIL), Some(false)));
        assert_eq!(created.body["claims"]["email_verified"], false);
        let unproven = token_of(&created.cookie.expect("signed in at once"));
        assert_eq!(get(&app, "/api/auth/session", Some(&unproven)).await.body["user"]["email_verified"], false);
        assert_eq!(get(&app, "/api/account", Some(&unproven)).await.status, 200, "the account area opens before the email is proven");
        let again = post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": PASSWORD }), None).await;
        assert_eq!(again.status, 200, "an unproven account signs in: {}", again.body);

        let link = mailed_token(&app, EMAIL, "/verify-email/?token=").await;
        // The owner of the mailbox who did not choose the password (an
        // impostor signed up with their address) cannot confirm the account.
        let clicked = post(&app, "/api/auth/verify", json!({ "token": link, "password": "not what was chosen" }), None).await;
        assert_eq!(clicked.status, 401, "{}", clicked.body);
        assert!(clicked.cookie.is_none());
        let verified = post(&app, "/api/auth/verify", json!({ "token": link, "password": PASSWORD }), None).await;
        assert_eq!(verified.status, 200, "{}", verified.body);
        let cookie = verified.cookie.expect("a session cookie");
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"), "{cookie}");
        assert!(!cookie.contains("Secure"), "plain http in tests");
        assert!(!verified.body.to_string().contains(&token_of(&cookie)), "the token never reaches JavaScript");
        assert_eq!(verified.body["user"]["email"], EMAIL);
        assert_eq!(verified.body["user"]["email_verified"], true);
        assert_eq!(get(&app, "/api/auth/session", Some(&unproven)).await.body["user"]["email_verified"], true, "every session knows");
        assert_eq!(verified.body["user"]["phone_number"], "+447700900123");
        assert_eq!(verified.body["claims"]["https://hasura.io/jwt/claims"]["x-hasura-user-id"], verified.body["user"]["sub"]);
        assert_eq!(post(&app, "/api/auth/verify", json!({ "token": link, "password": PASSWORD }), None).await.status, 422, "a link works once");
        let stored: String = on_pool!(app.db(), pool => sqlx::query_scalar("select password_hash from user_account where email = $1").bind(EMAIL).fetch_one(pool).await).unwrap();
        assert!(stored.starts_with("$argon2id$"));
        let token = token_of(&cookie);
        let kept: i64 = on_pool!(app.db(), pool => sqlx::query_scalar("select count(*) from user_session where token_hash = $1").bind(&token).fetch_one(pool).await).unwrap();
        assert_eq!(kept, 0, "only the token's hash is stored");

        let session = get(&app, "/api/auth/session", Some(&token)).await;
        assert_eq!(session.body["user"]["email"], EMAIL);
        let bearer = app.client.get(app.url("/api/auth/session")).bearer_auth(&token).send().await.unwrap().json::<Value>().await.unwrap();
        assert_eq!(bearer["user"]["email"], EMAIL);
        assert_eq!(post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": PASSWORD }), None).await.status, 200);

        let out = post(&app, "/api/auth/sign-out", json!({}), Some(&token)).await;
        assert_eq!(out.status, 200);
        assert!(out.cookie.unwrap().contains("Max-Age=0"));
        assert_eq!(get(&app, "/api/auth/session", Some(&token)).await.body["user"], Value::Null);
        assert_eq!(get(&app, "/api/account", Some(&token)).await.status, 401);
        app.stop().await;
    }

    async fn a_sign_up_with_a_taken_email_signs_nobody_in_and_mails_its_owner(app: TestApp) {
        let answer = post(&app, "/api/auth/sign-up", json!({}), None).await;
        assert_eq!(answer.status, 422);
        assert_eq!(answer.body["error"]["fields"], json!({
            "email": "Email is required", "password": "Password is required", "first_name": "First name is required",
            "last_name": "Last name is required", "phone": "Phone number is required",
        }));
        assert_eq!(sign_up(&app, EMAIL).await.status, 201);
        let again = sign_up_with(&app, "SAM.LEE@example.com", "an impostor's password").await;
        assert_eq!((again.status, &again.body), (202, &json!({ "sent": true })));
        assert!(again.cookie.is_none());
        let mails = app.db().outbox(10).await.unwrap();
        assert_eq!(mails.len(), 2);
        assert!(mails[0].body_text.contains("already have one") && mails[0].body_text.contains("/reset-password/?token="), "{}", mails[0].body_text);
        let impostor = post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": "an impostor's password" }), None).await;
        assert_eq!(impostor.status, 401, "a second sign-up changes nothing");

        let unknown = post(&app, "/api/auth/password-reset", json!({ "email": "nobody@example.com" }), None).await;
        let known = post(&app, "/api/auth/password-reset", json!({ "email": EMAIL }), None).await;
        assert_eq!((unknown.status, &unknown.body), (known.status, &known.body));
        // The link is mailed just after the answer.
        let mut mailed = 0;
        for _ in 0..50 {
            mailed = app.db().outbox(10).await.unwrap().len();
            if mailed == 3 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(mailed, 3, "only a real account gets a link");
        app.stop().await;
    }

    async fn an_email_without_an_account_takes_as_long_to_refuse_as_one_with(app: TestApp) {
        verified_account(&app, EMAIL).await;
        crate::admin::staff_member(&app, enrol_domain::staff::Role::Staff, "staff@college.test").await;
        let timed = |path: &'static str, body: Value| {
            let request = app.client.post(app.url(path)).json(&body);
            async move {
                let start = std::time::Instant::now();
                let status = request.send().await.expect("request").status().as_u16();
                (start.elapsed(), status)
            }
        };
        let median = |mut times: Vec<std::time::Duration>| {
            times.sort();
            times[times.len() / 2]
        };
        // Alternated, under the five guesses an email is allowed.
        let cases = [
            ("/api/auth/sign-in", json!({ "username": EMAIL, "password": "not the password" }),
             json!({ "username": "nobody@example.com", "password": "not the password" }), 401),
            ("/api/admin/sign-in", json!({ "email": "staff@college.test", "password": "not the password", "code": "123456" }),
             json!({ "email": "nobody@college.test", "password": "not the password", "code": "123456" }), 401),
            ("/api/auth/password-reset", json!({ "email": EMAIL }), json!({ "email": "nobody@example.com" }), 202),
        ];
        for (path, known, unknown, status) in cases {
            let (mut with, mut without) = (Vec::new(), Vec::new());
            for _ in 0..4 {
                let (time, answered) = timed(path, known.clone()).await;
                assert_eq!(answered, status, "{path}");
                with.push(time);
                let (time, answered) = timed(path, unknown.clone()).await;
                assert_eq!(answered, status, "{path}");
                without.push(time);
            }
            let (with, without) = (median(with), median(without));
            // Checking a password costs tens of milliseconds: skipping it for
            // unknown emails shows as several times faster. The margin only
            // absorbs a busy machine's few milliseconds of noise.
            let margin = std::time::Duration::from_millis(10);
            assert!(with < without * 2 + margin && without < with * 2 + margin, "{path}: {with:?} with an account, {without:?} without");
        }
    }

    async fn asking_again_and_again_mails_three_live_links_of_a_kind_at_most(app: TestApp) {
        verified_account(&app, EMAIL).await;
        let other = app.another_instance().await;
        // Twelve resets and sign-ups for the same address at once, on two instances: the same answer to each.
        let mut asks = tokio::task::JoinSet::new();
        for n in 0..12 {
            let target = if n % 2 == 0 { app.url("/api/auth/password-reset") } else { other.url("/api/auth/password-reset") };
            let (url, body) = if n % 3 == 0 {
                (target.replace("password-reset", "sign-up"), json!({ "email": EMAIL, "password": "another long password", "first_name": "Sam", "last_name": "Lee", "phone": "07700 900123" }))
            } else {
                (target, json!({ "email": EMAIL }))
            };
            asks.spawn(async move { crate::helpers::browser().post(url).json(&body).send().await.unwrap().status().as_u16() });
        }
        let statuses = asks.join_all().await;
        assert!(statuses.iter().all(|status| *status == 202), "{statuses:?}");
        let links = "select count(*) from mail_outbox where to_address = 'sam.lee@example.com' and body_text like '%/reset-password/?token=%'";
        // Resets are mailed just after their answer: wait for them to settle.
        for _ in 0..50 {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            if count(&app, links).await >= 3 {
                break;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(count(&app, links).await, 3, "three live links, however many asks");

        // Signed in and unproven, a student asks for verification links: the first and two more, then a clear refusal.
        let session = token_of(&sign_up(&app, "new.student@example.com").await.cookie.unwrap());
        for _ in 0..2 {
            assert_eq!(post(&app, "/api/account/verification-link", json!({}), Some(&session)).await.status, 202);
        }
        let refused = post(&app, "/api/account/verification-link", json!({}), Some(&session)).await;
        assert_eq!(
            (refused.status, refused.body["error"]["message"].as_str()),
            (429, Some("We have emailed you three links already: please use the newest, or ask again later."))
        );
        other.stop().await;
        app.stop().await;
    }

    async fn sign_in_checks_the_password_and_throttles_guessing(app: TestApp) {
        verified_account(&app, EMAIL).await;
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

    async fn forty_guesses_at_once_check_only_five_passwords(app: TestApp) {
        verified_account(&app, EMAIL).await;
        let statuses = forty_at_once(&app, "/api/auth/sign-in", |i| json!({ "username": EMAIL, "password": format!("guess {i}") })).await;
        let checked = statuses.iter().filter(|s| **s == 401).count();
        let refused = statuses.iter().filter(|s| **s == 429).count();
        println!("40 concurrent wrong guesses: {checked} passwords checked, {refused} refused unchecked");
        assert_eq!((checked, refused), (5, 35), "{statuses:?}");
        app.stop().await;
    }

    async fn forty_guesses_at_a_confirmation_link_check_only_five_passwords(app: TestApp) {
        // Whoever holds the mailed link still has to know the password; the
        // guesses count against the same limit as sign-in.
        assert_eq!(sign_up(&app, EMAIL).await.status, 201);
        let link = mailed_token(&app, EMAIL, "/verify-email/?token=").await;
        let statuses = forty_at_once(&app, "/api/auth/verify", |i| json!({ "token": link, "password": format!("guess {i}") })).await;
        let checked = statuses.iter().filter(|s| **s == 401).count();
        let refused = statuses.iter().filter(|s| **s == 429).count();
        println!("40 concurrent wrong passwords on a confirmation link: {checked} checked, {refused} refused unchecked");
        assert_eq!((checked, refused), (5, 35), "{statuses:?}");
        let right = post(&app, "/api/auth/verify", json!({ "token": link, "password": PASSWORD }), None).await;
        assert_eq!(right.status, 429, "the limit holds for the right password too: {}", right.body);
        let verified: Option<String> = on_pool!(app.db(), pool => sqlx::query_scalar(
            "select cast(email_verified_at as text) from user_account where email = $1").bind(EMAIL).fetch_one(pool).await).unwrap();
        assert_eq!(verified, None, "the account is still unconfirmed");
        app.stop().await;
    }

    async fn an_impostors_sign_up_never_sees_the_owners_purchases(app: TestApp) {
        // Someone signs up with Sam's address first, with their own password,
        // and is signed in to an account whose email is not proven.
        let impostor = sign_up_with(&app, EMAIL, "the impostor's password").await;
        assert_eq!(impostor.status, 201);
        let impostor = token_of(&impostor.cookie.unwrap());
        // Sam, as a guest in another browser, books and pays with that address.
        let q = quote(false, None);
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-1", false, None, "card", &q), q.deposit, "booking-fee").await;
        assert_eq!(confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await.0, 200);
        let owner: Option<String> = on_pool!(app.db(), pool => sqlx::query_scalar("select user_id from enrollment where id = $1")
            .bind(&order_id).fetch_one(pool).await).unwrap();
        assert_eq!(owner, None, "an unproven address owns nothing");
        let seen = get(&app, "/api/account", Some(&impostor)).await;
        assert_eq!((seen.body["enrollments"].clone(), seen.body["payments"].clone()), (json!([]), json!([])));
        let path = format!("/api/page-data?path=/enrolment/{order_id}");
        assert_eq!(get(&app, &path, Some(&impostor)).await.status, 404);

        // Sam proves the address with a reset link: the account is Sam's now.
        assert_eq!(post(&app, "/api/auth/password-reset", json!({ "email": EMAIL }), None).await.status, 202);
        let token = mailed_token(&app, EMAIL, "/reset-password/?token=").await;
        let short = post(&app, "/api/auth/password-reset/confirm", json!({ "token": token, "password": "short" }), None).await;
        assert_eq!(short.status, 422);
        let reset = post(&app, "/api/auth/password-reset/confirm", json!({ "token": token, "password": PASSWORD }), None).await;
        assert_eq!(reset.status, 200, "{}", reset.body);
        let reused = post(&app, "/api/auth/password-reset/confirm", json!({ "token": token, "password": "another long password" }), None).await;
        assert_eq!(reused.status, 422, "a link works once");
        let session = token_of(&reset.cookie.unwrap());
        let account = get(&app, "/api/account", Some(&session)).await;
        assert_eq!(account.body["enrollments"][0]["id"], order_id.as_str(), "proven, the purchase joins the account");
        assert_eq!(account.body["payments"][0]["amount"], 10_000);
        assert_eq!(get(&app, "/api/auth/session", Some(&impostor)).await.body["user"], Value::Null, "the reset ended the impostor's session");
        let again = post(&app, "/api/auth/sign-in", json!({ "username": EMAIL, "password": "the impostor's password" }), None).await;
        assert_eq!(again.status, 401);
        app.stop().await;
    }

    async fn what_an_unproven_account_buys_joins_it_once_the_link_proves_the_email(app: TestApp) {
        let signed_up = sign_up(&app, EMAIL).await;
        let token = token_of(&signed_up.cookie.unwrap());
        // Signed in with an unproven email, the order is a guest's: its browser's, and its email's once proven.
        let q = quote(false, None);
        let created = post(&app, "/api/enroll/", order("chemical-peels-1", false, None, "card", &q), Some(&token)).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let order_id = created.body["id"].as_str().unwrap().to_owned();
        let owner = || async {
            on_pool!(app.db(), pool => sqlx::query_scalar::<_, Option<String>>("select user_id from enrollment where id = $1")
                .bind(&order_id).fetch_one(pool).await).unwrap()
        };
        assert_eq!(owner().await, None);

        // The first link is lost: a new one is asked for from the account.
        let resent = post(&app, "/api/account/verification-link", json!({}), Some(&token)).await;
        assert_eq!((resent.status, &resent.body), (202, &json!({ "sent": true })));
        assert_eq!(post(&app, "/api/account/verification-link", json!({}), None).await.status, 401);
        let links = app.db().outbox(10).await.unwrap().into_iter().filter(|m| m.body_text.contains("/verify-email/?token=")).count();
        assert_eq!(links, 2);
        let link = mailed_token(&app, EMAIL, "/verify-email/?token=").await;
        assert_eq!(post(&app, "/api/auth/verify", json!({ "token": link, "password": PASSWORD }), None).await.status, 200);
        assert_eq!(owner().await.as_deref(), get(&app, "/api/auth/session", Some(&token)).await.body["user"]["sub"].as_str());
        let proven = post(&app, "/api/account/verification-link", json!({}), Some(&token)).await;
        assert_eq!(proven.status, 409, "{}", proven.body);
        app.stop().await;
    }

    async fn the_account_area_shows_the_users_bookings_and_payments(app: TestApp) {
        let token = verified_account(&app, EMAIL).await;
        // A guest purchase with a proven address joins its account at once.
        let q = quote(false, Some(Discount { kind: DiscountType::Percent, value: 10 }));
        let (order_id, intent, secret) =
            prepared(&app, &order("chemical-peels-1", false, Some("WELCOME10"), "card", &q), q.deposit, "booking-fee").await;
        assert_eq!(confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await.0, 200);

        let account = get(&app, "/api/account", Some(&token)).await;
        assert_eq!(account.status, 200, "{}", account.body);
        let data = account.body;
        assert_eq!(data["user"]["email"], EMAIL);
        assert_eq!(data["enrollments"][0]["id"], order_id.as_str());
        assert_eq!(data["enrollments"][0]["status"], "deposit");
        assert_eq!(data["enrollments"][0]["paid"], 10_000);
        assert_eq!((data["enrollments"][0]["discount"].as_i64(), data["enrollments"][0]["total"].as_i64()), (Some(q.discount.pence()), Some(q.total.pence())));
        assert!(q.discount.pence() > 0);
        assert_eq!(data["enrollments"][0]["refunded"], 0);
        assert_eq!(data["enrollments"][0]["lines"][0]["title"], "Chemical Peels Course");
        assert_eq!(data["payments"][0]["amount"], 10_000);
        assert_eq!(get(&app, "/api/account", None).await.status, 401);

        // Signed in, an order belongs to the user whatever contact email it gives.
        let mut other = order("chemical-peels-1", false, None, "card", &quote(false, None));
        other["data"]["contact"]["email"] = json!("someone.else@example.com");
        let created = post(&app, "/api/enroll/", other, Some(&token)).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let owner: Option<String> = on_pool!(app.db(), pool => sqlx::query_scalar("select user_id from enrollment where id = $1")
            .bind(created.body["id"].as_str().unwrap()).fetch_one(pool).await).unwrap();
        assert_eq!(owner.as_deref(), data["user"]["id"].as_str());
        // The signed-in owner opens it from any browser; a stranger cannot.
        let path = format!("/api/page-data?path=/enrolment/{}", created.body["id"].as_str().unwrap());
        assert_eq!(get(&app, &path, Some(&token)).await.status, 200);
        assert_eq!(get(&app, &path, None).await.status, 404);
        app.stop().await;
    }
}
