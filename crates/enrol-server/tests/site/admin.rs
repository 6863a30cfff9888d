//! The back office's doors (decision 017): set-up and sign-in
//! with a second factor, sessions that end, every admin route refusing
//! whoever its permission does not allow, and the audit log.

use chrono::{Duration, Utc};
use reqwest::StatusCode;
use serde_json::{Value, json};
use totp_rs::{Builder, Secret};

use enrol_domain::staff::Role;
use enrol_server::http::admin::{AdminRoute, ROUTES};

use crate::accounts::{mailed_token, verified_account};
use crate::both_backends;
use crate::helpers::{TestApp, browser};

/// The code an authenticator app shows for `secret`, `offset` seconds from now.
pub(crate) fn code(secret: &str, offset: i64) -> String {
    let totp = Builder::new().with_secret(Secret::try_from_base32(secret).unwrap()).build().unwrap();
    totp.generate(u64::try_from((Utc::now() + Duration::seconds(offset)).timestamp()).unwrap()).to_string()
}

/// A signed-in staff member of `role`: their browser and TOTP secret. They
/// are added as the command line adds an owner and finish set-up over HTTP.
pub(crate) async fn staff_member(app: &TestApp, role: Role, email: &str) -> (reqwest::Client, String) {
    let (client, secret, _) = staff_member_with_codes(app, role, email).await;
    (client, secret)
}

/// [`staff_member`], with the recovery codes set-up showed them.
pub(crate) async fn staff_member_with_codes(app: &TestApp, role: Role, email: &str) -> (reqwest::Client, String, Vec<String>) {
    staff_member_in(app, browser(), role, email).await
}

/// [`staff_member_with_codes`] in `client`, a browser of the caller's.
pub(crate) async fn staff_member_in(
    app: &TestApp,
    client: reqwest::Client,
    role: Role,
    email: &str,
) -> (reqwest::Client, String, Vec<String>) {
    let (token, hash) = enrol_server::staff_auth::setup_token();
    let secret = enrol_server::staff_auth::new_secret();
    let added =
        app.db().add_staff(email, &format!("{} {}", role.as_str(), email), role, &secret, &hash, None, None, Utc::now()).await.unwrap();
    assert!(matches!(added, enrol_db::AddedStaff::Added { .. }));
    let response = client
        .post(app.url(&format!("/api/admin/invitations/{token}")))
        .json(&json!({ "password": "a long staff password", "code": code(&secret, 0) }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let answer: Value = response.json().await.unwrap();
    let codes = answer["recoveryCodes"].as_array().unwrap().iter().map(|code| code.as_str().unwrap().to_owned()).collect();
    (client, secret, codes)
}

/// Who `client` is signed in as (`null` when signed out).
async fn session_of(app: &TestApp, client: &reqwest::Client) -> Value {
    let response = client.get(app.url("/api/admin/session")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json::<Value>().await.unwrap()["staff"].clone()
}

/// The audit rows written so far.
pub(crate) async fn audit_rows(app: &TestApp) -> i64 {
    enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>("select count(*) from audit_log").fetch_one(pool).await).unwrap()
}

/// A route's path with every `{name}` filled in.
fn concrete(path: &str) -> String {
    path.split('/').map(|part| if part.starts_with('{') { "x" } else { part }).collect::<Vec<_>>().join("/")
}

async fn call(client: &reqwest::Client, app: &TestApp, method: &str, path: &str, bearer: Option<&str>) -> StatusCode {
    let url = app.url(&format!("/api/admin{}", concrete(path)));
    let mut request = match method {
        "GET" => client.get(url),
        "POST" => client.post(url).json(&json!({})),
        "PUT" => client.put(url).json(&json!({})),
        "DELETE" => client.delete(url).json(&json!({})),
        other => panic!("no method {other}"),
    };
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap().status()
}

both_backends! {
    async fn a_new_owner_sets_up_a_second_factor_and_signs_in_with_it(app: TestApp) {
        let (token, hash) = enrol_server::staff_auth::setup_token();
        let secret = enrol_server::staff_auth::new_secret();
        app.db().add_staff("Owner@College.test", "Ada Owner", Role::Owner, &secret, &hash, None, None, Utc::now()).await.unwrap();
        let invitation = app.get(&format!("/api/admin/invitations/{token}")).await;
        assert_eq!(invitation.status(), 200);
        let invitation: Value = invitation.json().await.unwrap();
        assert_eq!(invitation["email"], "owner@college.test");
        assert_eq!(invitation["secret"], secret.as_str());
        assert!(invitation["otpauthUri"].as_str().unwrap().starts_with("otpauth://totp/"));
        assert!(invitation["qrSvg"].as_str().unwrap().contains("<svg"));

        // A wrong code and a short password are both named; nothing is spent.
        let owner = browser();
        let url = app.url(&format!("/api/admin/invitations/{token}"));
        let wrong = owner.post(&url).json(&json!({ "password": "short", "code": "000000" })).send().await.unwrap();
        assert_eq!(wrong.status(), 422);
        let wrong: Value = wrong.json().await.unwrap();
        assert!(wrong["error"]["fields"]["password"].is_string() && wrong["error"]["fields"]["code"].is_string(), "{wrong}");
        // Kept for the sign-in below: a code worked out again later could
        // fall in the next 30-second step, which was never used.
        let setup_code = code(&secret, 0);
        let done = owner.post(&url).json(&json!({ "password": "a long owner password", "code": setup_code.clone() })).send().await.unwrap();
        assert_eq!(done.status(), 200);
        let cookie = done.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/api/admin"), "{cookie}");
        let session: Value = owner.get(app.url("/api/admin/session")).send().await.unwrap().json().await.unwrap();
        assert_eq!(session["staff"]["role"], "owner");
        assert!(session["staff"]["permissions"].as_array().unwrap().contains(&json!("manage_staff")));
        // The link is spent.
        assert_eq!(app.get(&format!("/api/admin/invitations/{token}")).await.status(), 404);

        // Sign out, then in: the set-up code cannot be used again, the next one can.
        assert_eq!(owner.post(app.url("/api/admin/sign-out")).json(&json!({})).send().await.unwrap().status(), 204);
        assert_eq!(session_of(&app, &owner).await, Value::Null);
        let sign_in = |password: &'static str, code: String| {
            let owner = owner.clone();
            let url = app.url("/api/admin/sign-in");
            async move {
                owner.post(url).json(&json!({ "email": "owner@college.test", "password": password, "code": code })).send().await.unwrap()
            }
        };
        let used = sign_in("a long owner password", setup_code).await;
        assert_eq!(used.status(), 401, "a code is good once");
        let wrong = sign_in("a wrong owner password", code(&secret, 30)).await;
        assert_eq!(wrong.status(), 401);
        let (used, wrong): (Value, Value) = (used.json().await.unwrap(), wrong.json().await.unwrap());
        assert_eq!(used["error"]["message"], wrong["error"]["message"], "a used code says no more than a wrong password");
        let signed_in = sign_in("a long owner password", code(&secret, 30)).await;
        assert_eq!(signed_in.status(), 200);
        assert_eq!(session_of(&app, &owner).await["email"], "owner@college.test");
    }

    async fn sign_in_is_throttled_per_email(app: TestApp) {
        let (_, secret) = staff_member(&app, Role::Staff, "busy@college.test").await;
        let client = browser();
        for _ in 0..5 {
            let response = client.post(app.url("/api/admin/sign-in"))
                .json(&json!({ "email": "busy@college.test", "password": "guess", "code": "123456" })).send().await.unwrap();
            assert_eq!(response.status(), 401);
        }
        // The sixth attempt is refused even with everything right.
        let response = client.post(app.url("/api/admin/sign-in"))
            .json(&json!({ "email": "busy@college.test", "password": "a long staff password", "code": code(&secret, 30) }))
            .send().await.unwrap();
        assert_eq!(response.status(), 429);
    }

    async fn one_code_sent_ten_times_at_once_signs_in_once_and_guesses_at_once_are_throttled(app: TestApp) {
        let (_, secret) = staff_member(&app, Role::Staff, "racer@college.test").await;
        // Ten browsers send the same right code at once: the time step is taken once.
        let code = code(&secret, 30);
        let mut sign_ins = tokio::task::JoinSet::new();
        for i in 0..10 {
            let request = browser().post(app.url("/api/admin/sign-in")).header("x-forwarded-for", format!("10.2.0.{i}"))
                .json(&json!({ "email": "racer@college.test", "password": "a long staff password", "code": code }));
            sign_ins.spawn(async move { request.send().await.unwrap().status().as_u16() });
        }
        let statuses = sign_ins.join_all().await;
        // Each attempt counts against the email's five, so some are throttled (429); the rest find the code used (401).
        assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
        assert!(statuses.iter().all(|s| [200, 401, 429].contains(s)), "{statuses:?}");
        let sessions = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>("select count(*) from staff_session s \
            join staff_account a on a.id = s.staff_id where a.email = 'racer@college.test'").fetch_one(pool).await).unwrap();
        assert_eq!(sessions, 2, "the set-up's session and one sign-in");

        // Forty guesses at once from forty addresses at another member: five are checked, the rest refused.
        staff_member(&app, Role::Staff, "guessed@college.test").await;
        let mut guesses = tokio::task::JoinSet::new();
        for i in 0..40 {
            let request = browser().post(app.url("/api/admin/sign-in")).header("x-forwarded-for", format!("10.3.0.{i}"))
                .json(&json!({ "email": "guessed@college.test", "password": format!("guess {i}"), "code": "123456" }));
            guesses.spawn(async move { request.send().await.unwrap().status().as_u16() });
        }
        let statuses = guesses.join_all().await;
        assert_eq!(statuses.iter().filter(|s| **s == 401).count(), 5, "{statuses:?}");
        assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 35, "{statuses:?}");
    }

    async fn a_session_ends_when_idle_and_when_the_member_is_disabled(app: TestApp) {
        let (owner, _) = staff_member(&app, Role::Owner, "owner@college.test").await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        assert_eq!(session_of(&app, &staff).await["role"], "staff");
        // Seen 29 minutes ago: renewed by this request. Seen 30 seconds ago:
        // not written again (a screen's requests are reads), still live.
        let seen = |ago: Duration| {
            let db = app.db().clone();
            async move {
                enrol_db::on_pool!(&db, pool => sqlx::query("update staff_session set last_seen_at = $1")
                    .bind(Utc::now() - ago).execute(pool).await.map(drop)).unwrap();
            }
        };
        let last_seen = || {
            let db = app.db().clone();
            async move {
                let at: Vec<chrono::DateTime<Utc>> = enrol_db::on_pool!(&db, pool => sqlx::query_scalar("select last_seen_at from staff_session")
                    .fetch_all(pool).await).unwrap();
                at.into_iter().max().unwrap()
            }
        };
        seen(Duration::minutes(29)).await;
        assert_eq!(session_of(&app, &staff).await["role"], "staff");
        assert!(Utc::now() - last_seen().await < Duration::minutes(1), "renewed");
        seen(Duration::seconds(30)).await;
        let before = last_seen().await;
        assert_eq!(session_of(&app, &staff).await["role"], "staff");
        assert_eq!(last_seen().await, before, "not written again within the minute");
        // Idle for 31 minutes: signed out.
        enrol_db::on_pool!(app.db(), pool => sqlx::query("update staff_session set last_seen_at = $1")
            .bind(Utc::now() - Duration::minutes(31)).execute(pool).await.map(drop)).unwrap();
        assert_eq!(session_of(&app, &staff).await, Value::Null);
        assert_eq!(owner.get(app.url("/api/admin/dashboard")).send().await.unwrap().status(), 401);

        let (owner, _) = staff_member(&app, Role::Owner, "owner2@college.test").await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff2@college.test").await;
        let list: Value = owner.get(app.url("/api/admin/staff")).send().await.unwrap().json().await.unwrap();
        let id = list["staff"].as_array().unwrap().iter().find(|s| s["email"] == "staff2@college.test").unwrap()["id"].as_str().unwrap().to_owned();
        let before = audit_rows(&app).await;
        let disabled = owner.post(app.url(&format!("/api/admin/staff/{id}/disable"))).json(&json!({})).send().await.unwrap();
        assert_eq!(disabled.status(), 204);
        assert_eq!(audit_rows(&app).await, before + 1);
        assert_eq!(session_of(&app, &staff).await, Value::Null);
    }

    async fn every_admin_route_refuses_whoever_it_does_not_allow(app: TestApp) {
        let signed_out = browser();
        let student = verified_account(&app, "student@example.com").await;
        let mut members = Vec::new();
        for role in Role::ALL {
            let (client, _) = staff_member(&app, role, &format!("{}@college.test", role.as_str())).await;
            members.push((role, client));
        }
        // A method a route does not take is 405, whoever asks.
        let owner = &members[0].1;
        assert_eq!(owner.delete(app.url("/api/admin/audit")).json(&json!({})).send().await.unwrap().status(), 405);
        // Signing out ends the session the other calls use: it goes last.
        let (sign_out, others): (Vec<&AdminRoute>, Vec<&AdminRoute>) = ROUTES.iter().partition(|r| r.path == "/sign-out");
        for route in others.into_iter().chain(sign_out) {
            assert_eq!(call(&signed_out, &app, route.method, route.path, None).await, 401, "signed out: {route:?}");
            assert_eq!(call(&signed_out, &app, route.method, route.path, Some(&student)).await, 401, "a student: {route:?}");
            for (role, client) in &members {
                let status = call(client, &app, route.method, route.path, None).await;
                let allowed = route.permission.is_none_or(|p| role.allows(p));
                if allowed {
                    assert!(status != 401 && status != 403, "{role:?} may use {route:?}, got {status}");
                } else {
                    assert_eq!(status, 403, "{role:?} on {route:?}");
                }
            }
        }
    }

    async fn staff_are_added_once_with_a_mailed_link_and_an_audit_row(app: TestApp) {
        let (owner, _) = staff_member(&app, Role::Owner, "owner@college.test").await;
        let before = audit_rows(&app).await;
        // Whatever host the request names, the link is on the site's public address.
        let added = owner.post(app.url("/api/admin/staff")).header("host", "intranet.example:8080").header("x-forwarded-host", "other.example")
            .json(&json!({ "email": "Tutor@College.test", "name": "Tia Tutor", "role": "tutor" })).send().await.unwrap();
        assert_eq!(added.status(), 201);
        let added: Value = added.json().await.unwrap();
        let link = added["setupLink"].as_str().unwrap();
        assert!(link.starts_with(&format!("{}/admin/setup/?token=", app.state.config.public_url)), "{link}");
        assert_eq!(audit_rows(&app).await, before + 1);
        let token = mailed_token(&app, "tutor@college.test", "/admin/setup/?token=").await;
        assert!(link.ends_with(&token), "the mail carries the link: {link}");
        let again = owner.post(app.url("/api/admin/staff"))
            .json(&json!({ "email": "tutor@college.test", "name": "Tia", "role": "tutor" })).send().await.unwrap();
        assert_eq!(again.status(), 422);
        let bad = owner.post(app.url("/api/admin/staff"))
            .json(&json!({ "email": "nope", "name": "", "role": "admin" })).send().await.unwrap();
        let bad: Value = bad.json().await.unwrap();
        assert_eq!(bad["error"]["fields"].as_object().unwrap().len(), 3, "{bad}");
        assert_eq!(audit_rows(&app).await, before + 1, "refused changes write no audit row");

        let log: Value = owner.get(app.url("/api/admin/audit?entity=staff")).send().await.unwrap().json().await.unwrap();
        let first = &log["entries"][0];
        assert_eq!(first["action"], "staff.add");
        assert_eq!(first["actorEmail"], "owner@college.test");
        assert_eq!(first["after"]["role"], "tutor");
        assert_eq!(first["summary"], "Added to the staff as tutor");
    }

    async fn the_audit_log_cannot_be_changed_or_deleted(app: TestApp) {
        staff_member(&app, Role::Owner, "owner@college.test").await;
        assert!(audit_rows(&app).await > 0);
        let update = enrol_db::on_pool!(app.db(), pool => sqlx::query("update audit_log set action = 'nothing'").execute(pool).await.map(drop));
        assert!(update.is_err(), "an update is refused");
        let delete = enrol_db::on_pool!(app.db(), pool => sqlx::query("delete from audit_log").execute(pool).await.map(drop));
        assert!(delete.is_err(), "a delete is refused");
    }
}
