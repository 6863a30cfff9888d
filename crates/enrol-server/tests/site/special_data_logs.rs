//! Medical answers never reach the logs (issue 29, decision 033): the real
//! `enrol` binary, logging everything it can (`trace`), takes a student's
//! medical answers as a draft, as a refused answer and as a complete form;
//! its output names the requests but holds none of the answers.

use serde_json::{Value, json};

use crate::crash::start_enrol;
use crate::helpers::{Backend, fresh_database};

const MARKERS: [&str; 3] = ["Marker-Medication-5521", "Marker-Contact-7731", "Marker-Refused-4410"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn medical_answers_never_reach_the_logs_even_at_trace() {
    let database = fresh_database(Backend::Sqlite).await.expect("a SQLite database");
    let log = std::env::temp_dir().join(format!("enrol-trace-{}.log", uuid::Uuid::new_v4().simple()));
    let (mut server, address) = start_enrol(&database.url, Some(&log)).await;
    let client = reqwest::Client::new();

    let signed_in = client
        .post(format!("{address}/api/auth/sign-in"))
        .json(&json!({ "username": enrol_db::DEMO_STUDENT_EMAIL, "password": enrol_server::DEMO_STUDENT_PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), 200);
    let cookie = signed_in.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let forms: Value = client
        .post(format!("{address}/api/graphql"))
        .header("cookie", &cookie)
        .json(&json!({ "query": "{ forms { id kind } }" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let medical = forms["data"]["forms"].as_array().unwrap().iter().find(|f| f["kind"] == "medical").unwrap()["id"].clone();
    let path = format!("{address}/api/account/forms/{}", medical.as_str().unwrap());
    let save = |answers: Value, complete: bool| {
        client
            .put(&path)
            .header("cookie", &cookie)
            .header("origin", &address)
            .json(&json!({ "answers": answers, "complete": complete }))
            .send()
    };
    let draft = save(json!({ "medication": MARKERS[0] }), false).await.unwrap();
    assert_eq!(draft.status(), 200);
    let refused = save(json!({ "conditions": MARKERS[2] }), false).await.unwrap();
    assert_eq!(refused.status(), 422, "yes or no only");
    let complete =
        json!({ "conditions": "no", "allergies": "no", "pregnant": "no", "medication": MARKERS[0], "emergency_contact": MARKERS[1] });
    assert_eq!(save(complete, true).await.unwrap().status(), 200);

    server.kill().expect("stopped");
    server.wait().unwrap();
    let logged = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    database.drop_now().await;
    assert!(logged.contains("/api/account/forms/"), "the trace names the requests, so it is read: {} bytes", logged.len());
    for marker in MARKERS {
        assert!(!logged.contains(marker), "{marker} is in the log");
    }
}
