//! The account data API (`POST /api/graphql`, decision 014): each user
//! reads their own rows only, whatever ids, tokens or emails are tried.

use chrono::Utc;
use enrol_db::on_pool;
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::both_backends;
use crate::enrol_checkout::{order, quote};
use crate::helpers::TestApp;

/// Every list of the account data, and the user by sign-in id.
const EVERYTHING: &str = "query Everything($id: ID!) {
  user(cognito_id: $id) { id cognito_id email title given_name family_name points set_password }
  registrations { id enrollment_id session_id type user_id course_title date session_type }
  enrollments { id status total deposit balance }
  payments { id amount status enrollment_id }
  certificates { number holder_name course_title issued_on }
  forms { id kind client_complete responses { question answer } }
  uploads { id title status uploads { file_name } }
  cohorts { name programme_title member_type student_count members { name type } }
  intake_calls { student_id date time status }
  invitations { cohort_name type }
}";

/// The lists of what the account's bookings have besides (the whole within the complexity limit).
const BESIDES: &str = "{
  materials { enrollment_id }
  payment_plans { enrollment_id status card parts { number due_on amount status } }
}";

/// Posts a GraphQL request with `token` as a bearer token (none: signed out).
pub(crate) async fn graphql(app: &TestApp, token: Option<&str>, query: &str, variables: Value) -> (u16, Value) {
    let client = reqwest::Client::new();
    let mut request = client.post(app.url("/api/graphql")).json(&json!({ "query": query, "variables": variables }));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// Signs in by password: the session token.
pub(crate) async fn sign_in(app: &TestApp, email: &str, password: &str) -> String {
    let response = reqwest::Client::new()
        .post(app.url("/api/auth/sign-in"))
        .json(&json!({ "username": email, "password": password }))
        .send()
        .await
        .expect("sign in");
    assert_eq!(response.status(), 200);
    let cookie = response.headers().get("set-cookie").expect("a session cookie").to_str().unwrap().to_owned();
    cookie.strip_prefix("enrol_session=").and_then(|rest| rest.split(';').next()).unwrap().to_owned()
}

fn len(data: &Value, list: &str) -> usize {
    data[list].as_array().unwrap_or_else(|| panic!("{list} is a list: {data}")).len()
}

both_backends! {
    #[config(|config| config.demo_students = true)]
    async fn one_user_never_reads_another_users_rows(app: TestApp) {
        let amelia = sign_in(&app, enrol_db::DEMO_STUDENT_EMAIL, enrol_server::DEMO_STUDENT_PASSWORD).await;
        let sam = verified_account(&app, "sam.lee@example.com").await;

        // Sam, signed in, books with Amelia's email as the contact: the order is Sam's.
        let q = quote(false, None);
        let mut booking = order("chemical-peels-1", false, None, "card", &q);
        booking["data"]["contact"]["email"] = json!(enrol_db::DEMO_STUDENT_EMAIL);
        let created = reqwest::Client::new().post(app.url("/api/enroll/")).bearer_auth(&sam).json(&booking).send().await.unwrap();
        assert_eq!(created.status(), 200);
        let sams_order = created.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();

        // Amelia pays her booking's balance by an instalment plan (decision 036).
        on_pool!(app.db(), pool => async {
            let booking: String = sqlx::query_scalar("select e.id from enrollment e join user_account u on u.id = e.user_id where u.email = $1")
                .bind(enrol_db::DEMO_STUDENT_EMAIL).fetch_one(pool).await?;
            let now = Utc::now();
            sqlx::query("insert into payment_plan (id, enrollment_id, status, customer, payment_method, card_label, agreed_on, created_at, updated_at) \
                         values ('plan-amelia', $1, 'active', 'cus_amelia', 'pm_amelia', 'Visa ending 4242', $2, $3, $3)")
                .bind(&booking).bind(now.date_naive()).bind(now).execute(pool).await?;
            sqlx::query("insert into plan_instalment (id, plan_id, number, due_on, amount) values ('part-amelia', 'plan-amelia', 1, $1, 5000)")
                .bind(now.date_naive() + chrono::Days::new(30)).execute(pool).await.map(drop)
        }.await)
        .unwrap();

        // Amelia sees all of her records, and only hers.
        let (status, answer) = graphql(&app, Some(&amelia), "query Me { user(cognito_id: \"?\") { id } }", json!({})).await;
        assert_eq!(status, 200);
        assert_eq!(answer["data"]["user"], json!([]), "an id not the caller's finds no one");
        let session = reqwest::Client::new().get(app.url("/api/auth/session")).bearer_auth(&amelia).send().await.unwrap();
        let amelia_id = session.json::<Value>().await.unwrap()["user"]["sub"].as_str().unwrap().to_owned();
        let (status, answer) = graphql(&app, Some(&amelia), EVERYTHING, json!({ "id": amelia_id })).await;
        assert_eq!(status, 200, "{answer}");
        assert!(answer.get("errors").is_none(), "{answer}");
        let mine = &answer["data"];
        assert_eq!(mine["user"][0]["email"], enrol_db::DEMO_STUDENT_EMAIL);
        assert_eq!(mine["user"][0]["points"], 120);
        assert_eq!(mine["user"][0]["set_password"], true);
        assert_eq!(len(mine, "registrations"), 1);
        assert_eq!(mine["registrations"][0]["user_id"], amelia_id.as_str());
        assert_eq!(mine["registrations"][0]["type"], "STUDENT");
        assert_eq!(len(mine, "enrollments"), 1);
        assert_eq!(mine["enrollments"][0]["status"], "deposit");
        assert_ne!(mine["enrollments"][0]["id"], sams_order.as_str(), "an order with her email as contact is not hers");
        let fee = mine["payments"].as_array().unwrap().iter().find(|p| p["enrollment_id"] == mine["enrollments"][0]["id"]);
        assert_eq!(fee.map(|p| &p["amount"]), Some(&json!(10_000)), "her booking's fee: {mine}");
        assert_eq!(mine["certificates"][0]["number"], enrol_db::DEMO_CERTIFICATE);
        assert_eq!(len(mine, "forms"), 2);
        assert_eq!(mine["forms"].as_array().unwrap().iter().map(|f| f["responses"].as_array().unwrap().len()).sum::<usize>(), 3);
        assert_eq!(mine["uploads"][0]["title"], "Level 2 certificate");
        assert_eq!(mine["cohorts"][0]["member_type"], "STUDENT");
        assert_eq!(mine["cohorts"][0]["members"], json!([{ "name": "Amelia Hart", "type": "STUDENT" }, { "name": "Sophie Reyes", "type": "TUTOR" }]));
        assert_eq!(mine["intake_calls"][0]["student_id"], amelia_id.as_str());
        assert_eq!(mine["invitations"][0]["type"], "STUDENT");
        let (status, answer) = graphql(&app, Some(&amelia), BESIDES, json!({})).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(len(&answer["data"], "payment_plans"), 1, "{answer}");
        assert_eq!(answer["data"]["payment_plans"][0]["card"], "Visa ending 4242");
        assert_eq!(answer["data"]["payment_plans"][0]["parts"][0]["amount"], 5000);

        // Sam asks for Amelia by her id with his own token: nothing of hers.
        let (status, answer) = graphql(&app, Some(&sam), EVERYTHING, json!({ "id": amelia_id })).await;
        assert_eq!(status, 200, "{answer}");
        let his = &answer["data"];
        assert_eq!(his["user"], json!([]));
        for list in ["registrations", "payments", "certificates", "forms", "uploads", "cohorts", "intake_calls", "invitations"] {
            assert_eq!(len(his, list), 0, "{list}: {his}");
        }
        let (status, answer) = graphql(&app, Some(&sam), BESIDES, json!({})).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!((len(&answer["data"], "materials"), len(&answer["data"], "payment_plans")), (0, 0), "{answer}");
        assert_eq!(his["enrollments"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect::<Vec<_>>(), [sams_order.as_str()]);

        // Signed out, or with a token that is not a session: no data at all.
        let (status, answer) = graphql(&app, None, EVERYTHING, json!({ "id": amelia_id })).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (401, Some("unauthorized")));
        assert_eq!(graphql(&app, Some("not-a-session-token"), EVERYTHING, json!({ "id": amelia_id })).await.0, 401);

        // A query asking for too much is refused before it runs.
        let greedy: String = (0..80).map(|i| format!("p{i}: payments {{ id amount status }} ")).collect();
        let (status, answer) = graphql(&app, Some(&amelia), &format!("{{ {greedy} }}"), json!({})).await;
        assert_eq!(status, 200);
        assert!(answer["errors"][0]["message"].as_str().unwrap().contains("complex"), "{answer}");
        assert!(answer["data"].is_null(), "{answer}");
        app.stop().await;
    }

    async fn the_session_cookie_works_as_the_bearer_token_does(app: TestApp) {
        let token = verified_account(&app, "sam.lee@example.com").await;
        let response = reqwest::Client::new()
            .post(app.url("/api/graphql"))
            .header("cookie", format!("enrol_session={token}"))
            .json(&json!({ "query": "{ payments { id } certificates { number } }" }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "no-store");
        assert_eq!(response.json::<Value>().await.unwrap()["data"], json!({ "payments": [], "certificates": [] }));
        app.stop().await;
    }
}
