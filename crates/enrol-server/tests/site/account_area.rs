//! The account area's writes (decision 014): forms, evidence uploads, intake
//! calls, profile and password, each only on the caller's own rows.

use base64::Engine as _;
use serde_json::{Value, json};

use crate::accounts::verified_account;
use crate::both_backends;
use crate::graphql::{graphql, sign_in};
use crate::helpers::TestApp;

const AMELIA_PASSWORD: &str = enrol_server::DEMO_STUDENT_PASSWORD;

/// Sends `method path` with `body` and the bearer `token`: status and JSON.
async fn call(app: &TestApp, method: reqwest::Method, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = reqwest::Client::new().request(method, app.url(path)).bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// The words of a PDF as a reader finds them (poppler's `pdftotext`).
fn pdf_text(pdf: &[u8]) -> String {
    let file = std::env::temp_dir().join(format!("enrol-certificate-{}.pdf", uuid::Uuid::new_v4()));
    std::fs::write(&file, pdf).unwrap();
    let output = std::process::Command::new("pdftotext")
        .args(["-layout", "-enc", "UTF-8"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils; scripts/check-tools installs it)");
    std::fs::remove_file(&file).unwrap();
    assert!(output.status.success(), "pdftotext could not read the PDF: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

async fn amelia(app: &TestApp) -> String {
    sign_in(app, enrol_db::DEMO_STUDENT_EMAIL, AMELIA_PASSWORD).await
}

both_backends! {
    #[config(|config| config.demo_students = true)]
    async fn a_student_fills_in_and_completes_her_medical_form(app: TestApp) {
        let token = amelia(&app).await;
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let (_, forms) = graphql(&app, Some(&token), "{ forms { id kind client_complete questions { key required } } }", json!({})).await;
        let medical = forms["data"]["forms"].as_array().unwrap().iter().find(|f| f["kind"] == "medical").unwrap().clone();
        assert_eq!(medical["client_complete"], false);
        let path = format!("/api/account/forms/{}", medical["id"].as_str().unwrap());

        let draft = json!({ "answers": { "conditions": "no", "medication": "" }, "complete": false });
        assert_eq!(call(&app, reqwest::Method::PUT, &path, &token, Some(draft)).await, (200, json!({ "complete": false })));
        let early = json!({ "answers": { "conditions": "no" }, "complete": true });
        let (status, refused) = call(&app, reqwest::Method::PUT, &path, &token, Some(early)).await;
        assert_eq!(status, 422);
        assert_eq!(refused["error"]["fields"]["pregnant"], "Please answer this question");
        let full = json!({ "answers": { "conditions": "no", "allergies": "no", "pregnant": "no", "emergency_contact": "Sam Hart 07700 900456" }, "complete": true });
        // Someone else's form is not found, whatever they send.
        assert_eq!(call(&app, reqwest::Method::PUT, &path, &sam, Some(full.clone())).await.0, 404);
        assert_eq!(call(&app, reqwest::Method::PUT, &path, &token, Some(full)).await.0, 200);

        let (_, forms) = graphql(&app, Some(&token), "{ forms { id client_complete completed_at responses { question answer } } }", json!({})).await;
        let saved = forms["data"]["forms"].as_array().unwrap().iter().find(|f| f["id"] == medical["id"]).unwrap().clone();
        assert_eq!(saved["client_complete"], true);
        assert!(saved["completed_at"].is_string());
        assert_eq!(saved["responses"].as_array().unwrap().len(), 4);
        app.stop().await;
    }

    #[config(|config| config.demo_students = true)]
    async fn evidence_is_checked_kept_and_given_back_to_its_owner_only(app: TestApp) {
        let token = amelia(&app).await;
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let (_, uploads) = graphql(&app, Some(&token), "{ uploads { id status } }", json!({})).await;
        let request = uploads["data"]["uploads"][0]["id"].as_str().unwrap().to_owned();
        let path = format!("/api/account/upload-requests/{request}/files");
        let pdf = b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n".to_vec();
        let encode = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);

        let html = json!({ "file_name": "certificate.pdf", "data": encode(b"<html><script>alert(1)</script></html>") });
        let (status, refused) = call(&app, reqwest::Method::POST, &path, &token, Some(html)).await;
        assert_eq!(status, 422, "a page named .pdf is not a PDF");
        assert!(refused["error"]["message"].as_str().unwrap().contains("PDF or an image"));
        let file = json!({ "file_name": "C:\\fakepath\\level-2.pdf", "data": encode(&pdf) });
        // The demo's media is stored too: files are counted from here.
        let before = std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, Iterator::count);
        let stored = || std::fs::read_dir(&app.state.config.uploads_dir).map_or(0, Iterator::count) - before;
        assert_eq!(call(&app, reqwest::Method::POST, &path, &sam, Some(file.clone())).await.0, 404, "not Sam's request");
        assert_eq!(stored(), 0, "nothing is kept for a request that is not the sender's");
        let (status, kept) = call(&app, reqwest::Method::POST, &path, &token, Some(file.clone())).await;
        assert_eq!(status, 201, "{kept}");
        assert_eq!((kept["file_name"].as_str(), kept["content_type"].as_str()), (Some("level-2.pdf"), Some("application/pdf")));

        let (_, uploads) = graphql(&app, Some(&token), "{ uploads { status uploads { id file_name size_bytes } } }", json!({})).await;
        assert_eq!(uploads["data"]["uploads"][0]["status"], "received");
        assert_eq!(uploads["data"]["uploads"][0]["uploads"][0]["size_bytes"], pdf.len());
        let download = format!("/api/account/uploads/{}", kept["id"].as_str().unwrap());
        let response = reqwest::Client::new().get(app.url(&download)).bearer_auth(&token).send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "application/pdf");
        assert_eq!(response.headers()["content-disposition"], "attachment; filename=\"level-2.pdf\"");
        assert_eq!(response.bytes().await.unwrap().as_ref(), pdf.as_slice());
        assert_eq!(reqwest::Client::new().get(app.url(&download)).bearer_auth(&sam).send().await.unwrap().status(), 404);
        assert_eq!(reqwest::Client::new().get(app.url(&download)).send().await.unwrap().status(), 401);

        // A request takes ten files; the eleventh is refused, and nothing of it is kept.
        for _ in 1..10 {
            assert_eq!(call(&app, reqwest::Method::POST, &path, &token, Some(file.clone())).await.0, 201);
        }
        let (status, full) = call(&app, reqwest::Method::POST, &path, &token, Some(file)).await;
        assert_eq!((status, full["error"]["message"].as_str()), (409, Some("You have sent 10 files for this already. If one is wrong, please ask the college to remove it.")));
        assert_eq!(stored(), 10);
        app.stop().await;
    }

    #[config(|config| config.demo_students = true)]
    async fn a_certificate_is_checked_by_anyone_and_kept_by_its_holder_as_a_pdf(app: TestApp) {
        let number = enrol_db::DEMO_CERTIFICATE;
        let data: Value = app.get(&format!("/api/page-data?path=/certificates/{number}")).await.json().await.unwrap();
        assert_eq!(data["page"]["kind"], "certificate");
        assert_eq!(data["page"]["certificate"]["holderName"], "Amelia Hart");
        assert_eq!(data["page"]["certificate"]["courseTitle"], "Foundation Skin Science");
        let issued_on = data["page"]["certificate"]["issuedOn"].as_str().unwrap().parse().unwrap();
        let page = app.get(&format!("/certificates/{number}")).await;
        assert_eq!(page.status(), 200);
        assert_eq!(page.headers()["cache-control"], "private, no-store", "a withdrawn certificate must not live on in a cache");

        let token = amelia(&app).await;
        let sam = verified_account(&app, "sam.lee@example.com").await;
        let path = format!("/api/account/certificates/{number}");
        let response = reqwest::Client::new().get(app.url(&path)).bearer_auth(&token).send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "application/pdf");
        assert_eq!(response.headers()["content-disposition"], format!("attachment; filename=\"certificate-{number}.pdf\""));
        let pdf = response.bytes().await.unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        let text = pdf_text(&pdf);
        for said in [
            "CERTIFICATE OF COMPLETION",
            "Amelia Hart",
            "Foundation Skin Science",
            &format!("at Calderbrook Academy on {}", enrol_domain::london::long_date(issued_on)),
            "Olivia Brennan",
            "Founder and Principal, Calderbrook Academy",
            &format!("Certificate number {number}"),
            &format!("{}/certificates/{number}", app.address),
        ] {
            assert!(text.contains(said), "{said:?} is not in:\n{text}");
        }
        assert!(!text.contains("Accreditation"), "the demo's course is no longer sold, so its accreditation is not known");
        assert!(pdf.windows(14).any(|w| w == b"/Subtype /Imag"), "the logo is drawn");
        assert_eq!(reqwest::Client::new().get(app.url(&path)).bearer_auth(&sam).send().await.unwrap().status(), 404);
        assert_eq!(reqwest::Client::new().get(app.url(&path)).send().await.unwrap().status(), 401);

        // A name with accents reads back as written; a course sold today
        // names its accreditation.
        enrol_db::on_pool!(app.db(), pool => sqlx::query(
            "update certificate set holder_name = 'Zoë Núñez', course_title = sold.title, course_id = sold.id \
             from (select id, title from course where title = 'Foundation Dermal Fillers') as sold where number = $1"
        ).bind(number).execute(pool).await.map(drop)).unwrap();
        let pdf = reqwest::Client::new().get(app.url(&path)).bearer_auth(&token).send().await.unwrap().bytes().await.unwrap();
        let text = pdf_text(&pdf);
        assert!(text.contains("Zoë Núñez") && text.contains("Foundation Dermal Fillers"), "{text}");
        assert!(text.contains("Accreditation: Aesthetic Practice Standards Council (APSC)"), "{text}");
        app.stop().await;
    }

    #[config(|config| config.demo_students = true)]
    async fn an_unknown_certificate_number_is_not_found_and_any_is_looked_up_from_one_page(app: TestApp) {
        let unknown = app.get("/certificates/EA-0000-00000").await;
        assert_eq!(unknown.status(), 404);
        assert!(unknown.text().await.unwrap().contains("We have no certificate with the number EA-0000-00000."));
        let data = app.get("/api/page-data?path=/certificates/EA-0000-00000").await;
        assert_eq!(data.status(), 404);
        let data: Value = data.json().await.unwrap();
        assert_eq!((data["page"]["kind"].as_str(), data["page"]["number"].as_str()), (Some("certificate"), Some("EA-0000-00000")));
        assert_eq!(data["page"]["certificate"], Value::Null);

        let lookup = app.get("/certificates/").await;
        assert_eq!(lookup.status(), 200);
        let html = lookup.text().await.unwrap();
        assert!(html.contains(r#"action="/certificates/""#) && html.contains(r#"name="number""#), "a form that works without JavaScript");
        // Sent without JavaScript, as typed: the number's own check.
        let sent: Value = app.get("/api/page-data?path=/certificates/%3Fnumber%3D+ea-2026-04821+").await.json().await.unwrap();
        assert_eq!(sent["status"], 200);
        assert_eq!(sent["page"]["certificate"]["holderName"], "Amelia Hart");
        let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
        assert!(sitemap.contains("/certificates/<") && !sitemap.contains(enrol_db::DEMO_CERTIFICATE));
        app.stop().await;
    }

    async fn eight_students_asking_for_one_call_time_at_once_get_it_once(app: TestApp) {
        let mut tokens = Vec::new();
        for i in 0..8 {
            tokens.push(verified_account(&app, &format!("student{i}@example.com")).await);
        }
        let (status, slots) = call(&app, reqwest::Method::GET, "/api/account/intake-calls/slots", &tokens[0], None).await;
        assert_eq!(status, 200);
        let day = slots["days"][0].clone();
        let wanted = json!({ "date": day["date"], "time": day["times"][0] });
        let mut requests = tokio::task::JoinSet::new();
        for token in tokens.clone() {
            let (url, wanted) = (app.url("/api/account/intake-calls"), wanted.clone());
            requests.spawn(async move { reqwest::Client::new().post(url).bearer_auth(token).json(&wanted).send().await.unwrap().status().as_u16() });
        }
        let mut statuses = requests.join_all().await;
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);

        let (_, slots) = call(&app, reqwest::Method::GET, "/api/account/intake-calls/slots", &tokens[0], None).await;
        assert_ne!(slots["days"][0]["times"][0], wanted["time"], "the booked time is offered no more");
        let refused = call(&app, reqwest::Method::POST, "/api/account/intake-calls", &tokens[0], Some(json!({ "date": day["date"], "time": "03:00" }))).await;
        assert_eq!(refused.0, 422);

        // The one who got it has one call at a time, and can give it back.
        let mut winner = None;
        for token in &tokens {
            let (_, calls) = graphql(&app, Some(token), "{ intake_calls { id status } }", json!({})).await;
            if let Some(booked) = calls["data"]["intake_calls"].as_array().unwrap().first() {
                winner = Some((token.clone(), booked["id"].as_str().unwrap().to_owned()));
            }
        }
        let (winner, call_id) = winner.expect("one student has the call");
        let another = json!({ "date": day["date"], "time": day["times"][1] });
        let (status, refused) = call(&app, reqwest::Method::POST, "/api/account/intake-calls", &winner, Some(another.clone())).await;
        assert_eq!(status, 409);
        assert!(refused["error"]["message"].as_str().unwrap().contains("already have a call"));

        // Its time moves to another free one; a taken one leaves it where it was.
        let moving = format!("/api/account/intake-calls/{call_id}/move");
        let loser = tokens.iter().find(|t| **t != winner).unwrap();
        let taken = json!({ "date": day["date"], "time": day["times"][2] });
        assert_eq!(call(&app, reqwest::Method::POST, "/api/account/intake-calls", loser, Some(taken.clone())).await.0, 201);
        let (status, refused) = call(&app, reqwest::Method::POST, &moving, &winner, Some(taken)).await;
        assert_eq!((status, refused["error"]["message"].as_str()), (409, Some("Someone has just booked that time. Please choose another.")));
        let odd = json!({ "date": day["date"], "time": "03:00" });
        assert_eq!(call(&app, reqwest::Method::POST, &moving, &winner, Some(odd)).await.0, 422);
        assert_eq!(call(&app, reqwest::Method::POST, &moving, loser, Some(another.clone())).await.0, 404, "not theirs");
        assert_eq!(call(&app, reqwest::Method::POST, &moving, &winner, Some(another.clone())).await, (200, json!({ "moved": true })));
        let (_, calls) = graphql(&app, Some(&winner), "{ intake_calls { id date time status } }", json!({})).await;
        assert_eq!(calls["data"]["intake_calls"][0]["time"], another["time"]);
        let (_, slots) = call(&app, reqwest::Method::GET, "/api/account/intake-calls/slots", &tokens[0], None).await;
        assert_eq!(slots["days"][0]["times"][0], wanted["time"], "the old time is free again");

        let cancel = format!("/api/account/intake-calls/{call_id}/cancel");
        let someone_else = tokens.iter().find(|t| **t != winner).unwrap();
        assert_eq!(call(&app, reqwest::Method::POST, &cancel, someone_else, Some(json!({}))).await.0, 404);
        assert_eq!(call(&app, reqwest::Method::POST, &cancel, &winner, Some(json!({}))).await.0, 200);
        let (_, slots) = call(&app, reqwest::Method::GET, "/api/account/intake-calls/slots", &tokens[0], None).await;
        assert_eq!(slots["days"][0]["times"][1], another["time"], "the time is free again");
        app.stop().await;
    }

    async fn a_new_email_is_used_only_once_the_mailed_link_proves_it(app: TestApp) {
        let (old, new) = ("sam.lee@example.com", "sam.new@example.com");
        let token = verified_account(&app, old).await;
        let other = verified_account(&app, "taken@example.com").await;
        let ask = |email: &str, password: &str| json!({ "email": email, "password": password });
        let (status, refused) = call(&app, reqwest::Method::POST, "/api/account/email", &token, Some(ask(new, "not my password"))).await;
        assert_eq!((status, refused["error"]["fields"]["password"].as_str()), (422, Some("Your current password is not right")));
        assert_eq!(call(&app, reqwest::Method::POST, "/api/account/email", &token, Some(ask("nope", "correct horse battery"))).await.0, 422);
        // An address with an account gets a note, not a link; the answer is the same.
        let taken = call(&app, reqwest::Method::POST, "/api/account/email", &token, Some(ask("taken@example.com", "correct horse battery"))).await;
        assert_eq!(taken, (202, json!({ "sent": true })));
        let mails = app.db().outbox(50).await.unwrap();
        let note = mails.iter().find(|m| m.to_address == "taken@example.com" && m.subject.starts_with("Your ")).expect("a note");
        assert!(!note.body_text.contains("token"), "{}", note.body_text);

        assert_eq!(call(&app, reqwest::Method::POST, "/api/account/email", &token, Some(ask(new, "correct horse battery"))).await.0, 202);
        let link = crate::accounts::mailed_token(&app, new, "/account/profile/?token=").await;
        let confirm = json!({ "token": link });
        let (status, _) = call(&app, reqwest::Method::POST, "/api/account/email/confirm", &other, Some(confirm.clone())).await;
        assert_eq!(status, 422, "another account cannot use the link");
        let (_, session) = call(&app, reqwest::Method::GET, "/api/auth/session", &token, None).await;
        assert_eq!(session["user"]["email"], old, "nothing changes before the link is opened");
        assert_eq!(call(&app, reqwest::Method::POST, "/api/account/email/confirm", &token, Some(confirm.clone())).await, (200, json!({ "email": new })));
        assert_eq!(call(&app, reqwest::Method::POST, "/api/account/email/confirm", &token, Some(confirm)).await.0, 422, "a link works once");
        let (_, session) = call(&app, reqwest::Method::GET, "/api/auth/session", &token, None).await;
        assert_eq!(session["user"]["email"], new);
        let mails = app.db().outbox(50).await.unwrap();
        assert!(mails.iter().any(|m| m.to_address == old && m.body_text.contains(new)), "the old address is told");
        sign_in(&app, new, "correct horse battery").await;
        app.stop().await;
    }

    async fn a_student_changes_her_name_phone_and_password(app: TestApp) {
        let email = "sam.lee@example.com";
        let token = verified_account(&app, email).await;
        let other_browser = sign_in(&app, email, "correct horse battery").await;

        let bad = json!({ "first_name": "Samira", "last_name": "", "phone": "12ab" });
        let (status, refused) = call(&app, reqwest::Method::PUT, "/api/account/profile", &token, Some(bad)).await;
        assert_eq!(status, 422);
        assert_eq!(refused["error"]["fields"], json!({ "last_name": "Last name is required", "phone": "Enter a valid phone number" }));
        let good = json!({ "first_name": "Samira", "last_name": "Lee", "phone": "07700 900999" });
        assert_eq!(call(&app, reqwest::Method::PUT, "/api/account/profile", &token, Some(good)).await.0, 200);
        let (_, session) = call(&app, reqwest::Method::GET, "/api/auth/session", &token, None).await;
        assert_eq!((session["user"]["given_name"].as_str(), session["user"]["phone_number"].as_str()), (Some("Samira"), Some("+447700900999")));

        let wrong = json!({ "current_password": "not my password", "new_password": "a brand new pass phrase" });
        let (status, refused) = call(&app, reqwest::Method::POST, "/api/account/password", &token, Some(wrong)).await;
        assert_eq!((status, refused["error"]["fields"]["current_password"].as_str()), (422, Some("Your current password is not right")));
        let right = json!({ "current_password": "correct horse battery", "new_password": "a brand new pass phrase" });
        assert_eq!(call(&app, reqwest::Method::POST, "/api/account/password", &token, Some(right)).await.0, 200);
        assert_eq!(call(&app, reqwest::Method::GET, "/api/auth/session", &token, None).await.1["user"]["email"], email, "this browser stays in");
        assert_eq!(call(&app, reqwest::Method::GET, "/api/auth/session", &other_browser, None).await.1["user"], Value::Null, "others are out");
        sign_in(&app, email, "a brand new pass phrase").await;
        app.stop().await;
    }
}
