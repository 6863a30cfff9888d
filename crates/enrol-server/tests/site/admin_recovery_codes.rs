//! Staff recovery codes (decision 017): ten shown once at set-up, kept only
//! as hashes, each signing in once instead of an authenticator code (two
//! sent at once: one signs in), and a new set, after the password, voiding
//! the last.

use enrol_domain::staff::Role;
use serde_json::json;

use crate::admin::{audit_rows, staff_member_with_codes};
use crate::admin_codes::admin;
use crate::both_backends;
use crate::helpers::{TestApp, browser};

const PASSWORD: &str = "a long staff password";

async fn sign_in(app: &TestApp, email: &str, code: &str, from: &str) -> u16 {
    browser()
        .post(app.url("/api/admin/sign-in"))
        .header("x-forwarded-for", from)
        .json(&json!({ "email": email, "password": PASSWORD, "code": code }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn codes_left(client: &reqwest::Client, app: &TestApp) -> i64 {
    let (status, answer) = admin(client, app, "GET", "/recovery-codes", None).await;
    assert_eq!(status, 200, "{answer}");
    answer["left"].as_i64().unwrap()
}

both_backends! {
    async fn set_up_shows_ten_recovery_codes_kept_as_hashes_each_signing_in_once(app: TestApp) {
        let email = "lost.phone@college.test";
        let (client, _, codes) = staff_member_with_codes(&app, Role::Staff, email).await;
        assert_eq!(codes.len(), 10);
        assert!(codes.iter().all(|code| code.len() == 19 && code.matches('-').count() == 3), "{codes:?}");
        let kept: Vec<String> = enrol_db::on_pool!(app.db(), pool =>
            sqlx::query_scalar("select code_hash from staff_recovery_code").fetch_all(pool).await).unwrap();
        assert_eq!(kept.len(), 10);
        assert!(kept.iter().all(|hash| codes.iter().all(|code| !hash.contains(&code.replace('-', "")))), "only hashes are kept");
        assert_eq!(codes_left(&client, &app).await, 10);

        // Typed as a person might, it signs in instead of an authenticator code; once.
        let typed = codes[0].to_lowercase().replace('-', " ");
        assert_eq!(sign_in(&app, email, &typed, "10.4.0.1").await, 200);
        assert_eq!(codes_left(&client, &app).await, 9);
        assert_eq!(sign_in(&app, email, &codes[0], "10.4.0.2").await, 401, "a recovery code is good once");
        assert_eq!(sign_in(&app, email, "ABCD-EFGH-JKMN-PQRS", "10.4.0.3").await, 401, "nor is one never made");
        // Another member's code does not open this account.
        let (_, _, others) = staff_member_with_codes(&app, Role::Staff, "other@college.test").await;
        assert_eq!(sign_in(&app, email, &others[0], "10.4.0.4").await, 401);
        assert_eq!(sign_in(&app, "other@college.test", &others[0], "10.4.0.5").await, 200);
    }

    async fn one_recovery_code_sent_at_once_from_four_browsers_signs_in_once(app: TestApp) {
        let email = "racer@college.test";
        let (client, _, codes) = staff_member_with_codes(&app, Role::Tutor, email).await;
        let mut sign_ins = tokio::task::JoinSet::new();
        for i in 0..4 {
            let app_url = app.url("/api/admin/sign-in");
            let code = codes[3].clone();
            sign_ins.spawn(async move {
                browser()
                    .post(app_url)
                    .header("x-forwarded-for", format!("10.5.0.{i}"))
                    .json(&json!({ "email": "racer@college.test", "password": PASSWORD, "code": code }))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            });
        }
        let statuses = sign_ins.join_all().await;
        assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
        assert_eq!(statuses.iter().filter(|s| **s == 401).count(), 3, "{statuses:?}");
        assert_eq!(codes_left(&client, &app).await, 9);
        let sessions = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar::<_, i64>("select count(*) from staff_session s \
            join staff_account a on a.id = s.staff_id where a.email = 'racer@college.test'").fetch_one(pool).await).unwrap();
        assert_eq!(sessions, 2, "the set-up's session and one sign-in");
    }

    async fn new_recovery_codes_need_the_password_and_void_the_old_ones(app: TestApp) {
        let email = "renew@college.test";
        let (client, _, old) = staff_member_with_codes(&app, Role::Editor, email).await;
        let before = audit_rows(&app).await;
        let (status, answer) = admin(&client, &app, "POST", "/recovery-codes", Some(json!({ "password": "not my password" }))).await;
        assert_eq!((status, answer["error"]["fields"]["password"].as_str()), (422, Some("That password is not right.")), "{answer}");
        assert_eq!(codes_left(&client, &app).await, 10, "nothing changed");
        assert_eq!(admin(&browser(), &app, "POST", "/recovery-codes", Some(json!({ "password": PASSWORD }))).await.0, 401);

        let (status, answer) = admin(&client, &app, "POST", "/recovery-codes", Some(json!({ "password": PASSWORD }))).await;
        assert_eq!(status, 201, "{answer}");
        let new: Vec<String> = answer["codes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_owned()).collect();
        assert_eq!(new.len(), 10);
        assert!(new.iter().all(|code| !old.contains(code)));
        assert_eq!(audit_rows(&app).await, before + 1);
        let (_, session) = admin(&client, &app, "GET", "/session", None).await;
        let id = session["staff"]["id"].as_str().unwrap().to_owned();
        let action = enrol_db::on_pool!(app.db(), pool => sqlx::query_scalar::<_, String>(
            "select action from audit_log where entity_id = $1 order by id desc limit 1").bind(&id).fetch_one(pool).await).unwrap();
        assert_eq!(action, "staff.recovery_codes");

        assert_eq!(sign_in(&app, email, &old[1], "10.6.0.1").await, 401, "the old set is void");
        assert_eq!(sign_in(&app, email, &new[1], "10.6.0.2").await, 200);
        assert_eq!(codes_left(&client, &app).await, 9);
    }
}
