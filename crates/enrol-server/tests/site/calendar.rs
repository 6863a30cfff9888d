//! Calendar invites and joining instructions (decision 015): a paid booking's
//! confirmation carries its training as an .ics file, sent over SMTP as a
//! calendar attachment, and the booking's browser downloads the same file;
//! nobody else does.

use enrol_db::on_pool;
use enrol_server::mailer::{Mailer, Sent};

use crate::both_backends;
use crate::enrol_checkout::{confirm, order, prepared, quote};
use crate::helpers::{TestApp, browser};
use crate::mail::fake_mail_server;

async fn session_start(app: &TestApp, session: &str) -> chrono::NaiveDateTime {
    on_pool!(app.db(), pool => sqlx::query_scalar("select start_at from session where id = $1").bind(session).fetch_one(pool).await)
        .unwrap()
}

both_backends! {
    async fn a_booking_confirmation_carries_its_calendar_invite(app: TestApp) {
        let q = quote(false, None);
        let (order_id, intent, secret) = prepared(&app, &order("chemical-peels-3", false, None, "card", &q), q.deposit, "booking-fee").await;
        let (status, _) = confirm(&app, &intent, &secret, &order_id, "card", Some("4242 4242 4242 4242")).await;
        assert_eq!(status, 200);

        let starts = session_start(&app, "chemical-peels-3").await;
        let dtstart = format!("DTSTART;TZID=Europe/London:{}", starts.format("%Y%m%dT%H%M%S"));
        let mail = app.db().outbox(10).await.unwrap().into_iter().find(|m| m.to_address == "sam.lee@example.com").expect("a confirmation");
        assert_eq!(mail.attachment_name.as_deref(), Some("booking.ics"));
        let invite = mail.attachment_body.expect("the invite");
        assert!(invite.contains(&dtstart) && invite.contains(&format!("UID:booking-{order_id}-chemical-peels@enrol")), "{invite}");
        assert!(invite.contains("SUMMARY:Chemical Peels Course") && invite.contains("LOCATION:27 Larkspur Row"), "{invite}");
        assert!(mail.body_text.contains(&format!("{} to ", starts.format("%H:%M"))) && mail.body_text.contains("At the academy: 27 Larkspur Row"), "{}", mail.body_text);

        // The booking's browser downloads the same entry; another browser finds nothing.
        let response = app.get(&format!("/api/enrollments/{order_id}/calendar.ics")).await;
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.headers()["content-type"], "text/calendar; charset=utf-8; method=PUBLISH");
        let reference = app.db().enrollment(&order_id).await.unwrap().unwrap().reference;
        assert_eq!(response.headers()["content-disposition"], format!("attachment; filename=\"booking-{reference}.ics\"").as_str());
        let downloaded = response.text().await.unwrap();
        assert!(downloaded.contains(&dtstart) && downloaded.contains(&format!("UID:booking-{order_id}-chemical-peels@enrol")));
        let stranger = browser().get(app.url(&format!("/api/enrollments/{order_id}/calendar.ics"))).send().await.unwrap();
        assert_eq!(stranger.status().as_u16(), 404);

        // Over SMTP, the invite is a calendar part beside the text.
        let (url, received) = fake_mail_server(false).await;
        let sent = Mailer::new(&url, None).unwrap().send_due(&app.state, chrono::Utc::now()).await.unwrap();
        assert_eq!(sent, Sent { sent: 1, failed: 0 });
        let smtp = received.lock().unwrap().join("\n");
        assert!(smtp.contains("Content-Type: multipart/mixed") && smtp.contains("Content-Type: multipart/alternative"), "{smtp}");
        assert!(smtp.contains("Content-Type: text/calendar; charset=utf-8; method=PUBLISH"), "{smtp}");
        assert!(smtp.contains("filename=\"booking.ics\""), "{smtp}");
        app.stop().await;
    }
}
