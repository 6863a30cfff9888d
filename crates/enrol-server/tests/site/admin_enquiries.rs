//! The enquiry inbox in the back office (decision 017): what the
//! site's forms sent, newest first and filtered, its status, owner and
//! notes, and replies mailed from an enquiry's page, each change with one
//! audit row and a refused one with none.

use enrol_domain::staff::Role;
use serde_json::{Value, json};

use crate::admin::{audit_rows, staff_member};
use crate::admin_codes::admin;
use crate::both_backends;
use crate::enrol_checkout::post;
use crate::helpers::TestApp;

/// A contact enquiry, a callback request and a payment-plan request, sent
/// through the site's own forms in that order.
async fn three_enquiries(app: &TestApp) {
    let sent = [
        ("/api/enquiries/contact", json!({ "name": "Ann Hill", "email": "ann@example.org", "message": "Do you teach at weekends?" })),
        (
            "/api/enquiries/callback",
            json!({ "name": "Bea Cole", "phone": "07700 900123", "bestTime": "Mornings", "course": "Dermaplaning Course" }),
        ),
        (
            "/api/callback/",
            json!({ "first_name": "Sam", "last_name": "Lee", "email": "sam@example.com", "phone_number": "07700 900456",
            "courses": ["Chemical Peels Course"], "type": "finance" }),
        ),
    ];
    for (path, body) in sent {
        let (status, answer) = post(app, path, &body).await;
        assert!(matches!(status, 200 | 201), "{path}: {status} {answer}");
    }
}

/// The enquiries listed for `query`.
async fn listed(staff: &reqwest::Client, app: &TestApp, query: &str) -> Vec<Value> {
    let (status, answer) = admin(staff, app, "GET", &format!("/enquiries{query}"), None).await;
    assert_eq!(status, 200, "{answer}");
    answer["enquiries"].as_array().unwrap().clone()
}

/// The signed-in staff member's id.
async fn own_id(client: &reqwest::Client, app: &TestApp) -> String {
    admin(client, app, "GET", "/session", None).await.1["staff"]["id"].as_str().unwrap().to_owned()
}

both_backends! {
    async fn the_inbox_lists_what_the_forms_sent_newest_first(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        three_enquiries(&app).await;
        let all = listed(&staff, &app, "").await;
        let kinds: Vec<&str> = all.iter().map(|e| e["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["finance", "callback", "contact"]);
        let finance = &all[0];
        assert_eq!((finance["name"].as_str(), finance["email"].as_str(), finance["phone"].as_str()), (Some("Sam Lee"), Some("sam@example.com"), Some("+447700900456")));
        assert_eq!(finance["courses"], json!(["Chemical Peels Course"]));
        assert_eq!((finance["status"].as_str(), finance["ownerId"].clone(), finance["notes"].clone()), (Some("new"), Value::Null, json!([])));
        assert!(finance["createdAt"].as_str().is_some_and(|at| at.ends_with('Z') || at.contains('+')), "{finance}");
        assert_eq!((all[1]["message"].as_str(), all[1]["courses"].clone()), (Some("Best time to call: Mornings"), json!(["Dermaplaning Course"])));
        assert_eq!(all[2]["message"], "Do you teach at weekends?");

        assert_eq!(listed(&staff, &app, "?kind=contact").await.len(), 1);
        assert_eq!(listed(&staff, &app, "?status=new&kind=finance").await[0]["name"], "Sam Lee");
        assert!(listed(&staff, &app, "?status=done").await.is_empty());
        assert_eq!(listed(&staff, &app, "?status=&kind=").await.len(), 3);
        let (status, answer) = admin(&staff, &app, "GET", "/enquiries?status=closed&kind=letters", None).await;
        assert_eq!((status, answer["error"]["code"].as_str()), (422, Some("invalid")));
        assert_eq!(answer["error"]["fields"].as_object().unwrap().keys().collect::<Vec<_>>(), ["kind", "status"]);
        app.stop().await;
    }

    async fn staff_take_an_enquiry_on_and_keep_notes_with_one_audit_row_each(app: TestApp) {
        let (owner, _) = staff_member(&app, Role::Owner, "owner@college.test").await;
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        let (staff_id, tutor_id) = (own_id(&staff, &app).await, own_id(&tutor, &app).await);
        three_enquiries(&app).await;
        let id = listed(&staff, &app, "?kind=callback").await[0]["id"].as_str().unwrap().to_owned();
        let path = format!("/enquiries/{id}");
        let before = audit_rows(&app).await;

        let (status, taken) = admin(&staff, &app, "PUT", &path, Some(json!({ "status": "in_progress", "ownerId": staff_id }))).await;
        assert_eq!(status, 200, "{taken}");
        assert_eq!((taken["status"].as_str(), taken["ownerId"].as_str(), taken["ownerName"].as_str()), (Some("in_progress"), Some(staff_id.as_str()), Some("staff staff@college.test")));
        assert_eq!(audit_rows(&app).await, before + 1);
        assert_eq!(admin(&staff, &app, "PUT", &path, Some(json!({ "status": "in_progress", "ownerId": staff_id }))).await.0, 200);
        assert_eq!(audit_rows(&app).await, before + 1, "a change to what it already is writes nothing");

        // Refused: a tutor or nobody known as owner, an unknown status, an unknown enquiry, empty or overlong notes.
        for (body, field) in [
            (json!({ "status": "done", "ownerId": tutor_id }), "ownerId"),
            (json!({ "status": "done", "ownerId": "no-such-staff" }), "ownerId"),
            (json!({ "status": "closed", "ownerId": null }), "status"),
        ] {
            let (status, answer) = admin(&staff, &app, "PUT", &path, Some(body)).await;
            assert_eq!((status, answer["error"]["code"].as_str()), (422, Some("invalid")), "{answer}");
            assert!(answer["error"]["fields"][field].is_string(), "{answer}");
        }
        assert_eq!(admin(&staff, &app, "PUT", "/enquiries/no-such-enquiry", Some(json!({ "status": "done", "ownerId": null }))).await.0, 404);
        for text in [" ".to_owned(), "x".repeat(2001)] {
            let (status, answer) = admin(&staff, &app, "POST", &format!("{path}/notes"), Some(json!({ "text": text }))).await;
            assert_eq!((status, answer["error"]["fields"]["text"].is_string()), (422, true), "{answer}");
        }
        assert_eq!(admin(&staff, &app, "POST", "/enquiries/no-such-enquiry/notes", Some(json!({ "text": "Hello" }))).await.0, 404);
        assert_eq!(audit_rows(&app).await, before + 1, "refused changes write no audit row");

        let (status, noted) = admin(&staff, &app, "POST", &format!("{path}/notes"), Some(json!({ "text": " Called back: booking next week. " }))).await;
        assert_eq!(status, 201, "{noted}");
        assert_eq!(noted["notes"][0]["text"], "Called back: booking next week.");
        assert_eq!(noted["notes"][0]["staffName"], "staff staff@college.test");
        assert!(noted["notes"][0]["at"].is_string());
        assert_eq!(audit_rows(&app).await, before + 2);
        let (status, done) = admin(&owner, &app, "PUT", &path, Some(json!({ "status": "done", "ownerId": null }))).await;
        assert_eq!((status, done["status"].as_str(), done["ownerId"].clone()), (200, Some("done"), Value::Null));
        assert_eq!(audit_rows(&app).await, before + 3);
        let done_list = listed(&owner, &app, "?status=done").await;
        assert_eq!((done_list.len(), done_list[0]["notes"].as_array().unwrap().len()), (1, 1));

        let (_, log) = admin(&owner, &app, "GET", &format!("/audit?entity=enquiry&entityId={id}"), None).await;
        let actions: Vec<&str> = log["entries"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
        assert_eq!(actions, ["enquiry.update", "enquiry.note", "enquiry.update"]);
        assert_eq!((log["entries"][0]["before"]["status"].as_str(), log["entries"][0]["after"]["status"].as_str()), (Some("in_progress"), Some("done")));
        assert_eq!(log["entries"][0]["actorEmail"], "owner@college.test");
        app.stop().await;
    }

    async fn staff_reply_to_an_enquiry_by_mail_kept_on_its_page_and_in_the_audit_log(app: TestApp) {
        let (staff, _) = staff_member(&app, Role::Staff, "staff@college.test").await;
        let (editor, _) = staff_member(&app, Role::Editor, "editor@college.test").await;
        let (tutor, _) = staff_member(&app, Role::Tutor, "tutor@college.test").await;
        three_enquiries(&app).await;
        let contact = listed(&staff, &app, "?kind=contact").await[0]["id"].as_str().unwrap().to_owned();
        let callback = listed(&staff, &app, "?kind=callback").await[0]["id"].as_str().unwrap().to_owned();
        let path = format!("/enquiries/{contact}");
        let replies = format!("{path}/replies");
        let (status, page) = admin(&staff, &app, "GET", &path, None).await;
        assert_eq!((status, page["name"].as_str(), page["replies"].clone()), (200, Some("Ann Hill"), json!([])));
        let mails_before = app.db().outbox(50).await.unwrap().len();
        let before = audit_rows(&app).await;

        // Refused: who may not handle enquiries, nothing or too much to say,
        // an unknown enquiry, one with no email to reply to.
        for client in [&editor, &tutor] {
            assert_eq!(admin(client, &app, "POST", &replies, Some(json!({ "text": "Hello" }))).await.0, 403);
            assert_eq!(admin(client, &app, "GET", &path, None).await.0, 403);
        }
        for text in [" ".to_owned(), "x".repeat(5001)] {
            let (status, answer) = admin(&staff, &app, "POST", &replies, Some(json!({ "text": text }))).await;
            assert_eq!((status, answer["error"]["fields"]["text"].as_str()), (422, Some("Write a reply of up to 5,000 characters.")), "{answer}");
        }
        assert_eq!(admin(&staff, &app, "POST", "/enquiries/no-such-enquiry/replies", Some(json!({ "text": "Hello" }))).await.0, 404);
        assert_eq!(admin(&staff, &app, "GET", "/enquiries/no-such-enquiry", None).await.0, 404);
        let (status, answer) = admin(&staff, &app, "POST", &format!("/enquiries/{callback}/replies"), Some(json!({ "text": "Hello" }))).await;
        assert_eq!((status, answer["error"]["message"].as_str()), (422, Some("This enquiry left no email address to reply to: call them instead.")));
        assert_eq!((audit_rows(&app).await, app.db().outbox(50).await.unwrap().len()), (before, mails_before), "nothing kept, nothing mailed");

        let (status, replied) = admin(&staff, &app, "POST", &replies, Some(json!({ "text": " Yes: every other Saturday. " }))).await;
        assert_eq!(status, 201, "{replied}");
        let reply = &replied["replies"][0];
        assert_eq!((reply["staffName"].as_str(), reply["to"].as_str(), reply["text"].as_str()), (Some("staff staff@college.test"), Some("ann@example.org"), Some("Yes: every other Saturday.")));
        assert!(reply["at"].is_string() && reply["subject"].as_str().unwrap().starts_with("Your enquiry to "), "{reply}");
        assert_eq!(replied["status"], "in_progress", "a new enquiry is taken on by its reply");
        assert_eq!(admin(&staff, &app, "GET", &path, None).await.1["replies"], replied["replies"], "kept on its page");

        // Queued with it: to the enquirer, answers to the college's address.
        let mails = app.db().outbox(50).await.unwrap();
        assert_eq!(mails.len(), mails_before + 1);
        let mail = &mails[0];
        let college = app.db().college().await.unwrap();
        assert_eq!((mail.to_address.as_str(), mail.reply_to.as_deref()), ("ann@example.org", Some(college.email_address.as_str())));
        assert_eq!(mail.subject, format!("Your enquiry to {}", college.name));
        assert!(mail.body_text.starts_with("Hello Ann,\n\nYes: every other Saturday.\n\nstaff staff@college.test\n"), "{}", mail.body_text);
        assert!(mail.body_text.contains("> Do you teach at weekends?"), "{}", mail.body_text);

        assert_eq!(audit_rows(&app).await, before + 1);
        let (_, log) = admin(&staff, &app, "GET", &format!("/audit?entity=enquiry&entityId={contact}"), None).await;
        let entry = &log["entries"][0];
        assert_eq!((entry["action"].as_str(), entry["summary"].as_str()), (Some("enquiry.reply"), Some("Reply mailed to ann@example.org")));
        assert_eq!(entry["after"]["text"], "Yes: every other Saturday.");
        app.stop().await;
    }
}
