//! The outbox goes out over SMTP: to a local mail server that speaks just
//! enough SMTP to take mail, or to refuse it.

use std::sync::{Arc, Mutex};

use enrol_db::on_pool;
use enrol_server::mailer::{Mailer, Sent};
use mailparse::MailHeaderMap as _;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use crate::both_backends;
use crate::helpers::TestApp;

/// Starts a mail server on a free port; it refuses every recipient when
/// `refuse`, and records the DATA of each mail it takes.
pub(crate) async fn fake_mail_server(refuse: bool) -> (String, Arc<Mutex<Vec<String>>>) {
    let received = Arc::new(Mutex::new(Vec::new()));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let log = Arc::clone(&received);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let log = Arc::clone(&log);
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 fake.example ESMTP\r\n").await.unwrap();
                while let Ok(Some(line)) = lines.next_line().await {
                    let command = line.to_ascii_uppercase();
                    let answer: &[u8] = if command.starts_with("EHLO") || command.starts_with("HELO") {
                        b"250 fake.example\r\n"
                    } else if command.starts_with("RCPT") && refuse {
                        b"550 5.1.1 No such mailbox\r\n"
                    } else if command.starts_with("DATA") {
                        write.write_all(b"354 Go ahead\r\n").await.unwrap();
                        let mut data = String::new();
                        while let Ok(Some(line)) = lines.next_line().await {
                            if line == "." {
                                break;
                            }
                            data.push_str(&line);
                            data.push('\n');
                        }
                        log.lock().unwrap().push(data);
                        b"250 2.0.0 Queued\r\n"
                    } else if command.starts_with("QUIT") {
                        write.write_all(b"221 Bye\r\n").await.unwrap();
                        break;
                    } else {
                        b"250 OK\r\n"
                    };
                    write.write_all(answer).await.unwrap();
                }
            });
        }
    });
    (url, received)
}

async fn enquire(app: &TestApp) {
    let body = json!({ "name": "Ann Lee", "email": "ann@example.org", "message": "Do you run weekend courses?" });
    let response = app.client.post(app.url("/api/enquiries/contact")).json(&body).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 201);
}

async fn column(app: &TestApp, sql: &'static str) -> (i64, bool) {
    on_pool!(app.db(), pool => sqlx::query_as::<_, (i32, bool)>(sql).fetch_one(pool).await).map(|(a, b)| (i64::from(a), b)).expect(sql)
}

both_backends! {
    async fn the_outbox_is_sent_once_from_the_college_as_text_and_in_its_letterhead(app: TestApp) {
        let (url, received) = fake_mail_server(false).await;
        enquire(&app).await;
        let mailer = Mailer::new(&url, None).unwrap();
        let now = chrono::Utc::now();
        assert_eq!(mailer.send_due(&app.state, now).await.unwrap(), Sent { sent: 2, failed: 0 }, "the college's mail and the acknowledgement");
        assert_eq!(mailer.send_due(&app.state, now).await.unwrap(), Sent::default(), "sent mail is not sent again");

        let site = app.db().site().await.unwrap().unwrap().site;
        let mails = received.lock().unwrap().clone();
        let parsed: Vec<mailparse::ParsedMail<'_>> = mails.iter().map(|m| mailparse::parse_mail(m.as_bytes()).unwrap()).collect();
        let to = |address: &str| parsed.iter().find(|m| m.headers.get_first_value("To").is_some_and(|to| to.contains(address))).unwrap();
        let (college, enquirer) = (to(&site.email_address), to("ann@example.org"));
        for mail in [college, enquirer] {
            let from = mail.headers.get_first_value("From").unwrap();
            assert!(from.contains(&site.title) && from.contains(&site.email_address), "{from}");
            assert_eq!(mail.ctype.mimetype, "multipart/alternative", "a plain text and an HTML part");
            let kinds: Vec<&str> = mail.subparts.iter().map(|part| part.ctype.mimetype.as_str()).collect();
            assert_eq!(kinds, ["text/plain", "text/html"], "the HTML last, as the one clients prefer");
            let html = mail.subparts[1].get_body().unwrap();
            assert!(html.contains(&format!("src=\"{}/mail/logo.png\"", app.address)), "{html}");
            assert!(html.contains(&site.phone_number) && html.contains("border-top:6px solid #4a1d3f"), "the college's letterhead: {html}");
        }
        assert_eq!(college.headers.get_first_value("Reply-To").as_deref(), Some("ann@example.org"));
        assert_eq!(college.headers.get_first_value("Subject").as_deref(), Some("Website enquiry: Ann Lee"));
        let text = college.subparts[0].get_body().unwrap();
        assert!(text.contains("Do you run weekend courses?"), "{text}");
        assert!(college.subparts[1].get_body().unwrap().contains("Do you run weekend courses?"));

        assert_eq!(enquirer.headers.get_first_value("Subject"), Some(format!("We have your message: {}", site.title)));
        let thanks = enquirer.subparts[0].get_body().unwrap();
        assert!(thanks.contains("One of our team will reply within one working day.") && thanks.contains(&site.phone_number), "{thanks}");
        assert!(!thanks.contains("Ann") && !thanks.contains("weekend"), "nothing the enquirer typed is sent back: {thanks}");
        let (attempts, sent) = column(&app, "select max(attempts), min(case when sent_at is not null then 1 else 0 end) = 1 from mail_outbox").await;
        assert_eq!((attempts, sent), (0, true));
        app.stop().await;
    }

    async fn the_logo_mails_show_is_a_png(app: TestApp) {
        let response = app.get("/mail/logo.png").await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "image/png");
        let png = response.bytes().await.unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        assert_eq!(width, 360, "twice the 180 px it is shown at, for sharp screens");
        app.stop().await;
    }

    async fn a_refused_mail_waits_and_is_tried_again(app: TestApp) {
        let (url, received) = fake_mail_server(true).await;
        enquire(&app).await;
        let mailer = Mailer::new(&url, Some("Enrol Test <hello@enrol.example>")).unwrap();
        let now = chrono::Utc::now();
        assert_eq!(mailer.send_due(&app.state, now).await.unwrap(), Sent { sent: 0, failed: 2 });
        assert_eq!(mailer.send_due(&app.state, now).await.unwrap(), Sent::default(), "not again straight away");
        assert_eq!(mailer.send_due(&app.state, now + chrono::Duration::minutes(3)).await.unwrap(), Sent { sent: 0, failed: 2 });
        let (attempts, sent) = column(&app, "select min(attempts), max(case when sent_at is not null then 1 else 0 end) = 1 from mail_outbox").await;
        assert_eq!((attempts, sent), (2, false));
        let error: String = on_pool!(app.db(), pool => sqlx::query_scalar("select last_error from mail_outbox limit 1").fetch_one(pool).await).unwrap();
        assert!(error.contains("No such mailbox"), "{error}");
        assert!(received.lock().unwrap().is_empty());
        app.stop().await;
    }

    async fn a_college_address_that_cannot_send_fails_each_mail_for_later_and_stops_nothing(app: TestApp) {
        let (url, received) = fake_mail_server(false).await;
        enquire(&app).await;
        // As an editor once saved it, before addresses were checked on saving.
        on_pool!(app.db(), pool => sqlx::query("update site set email_address = 'hello at calderbrook'").execute(pool).await.map(drop)).unwrap();
        let mailer = Mailer::new(&url, None).unwrap();
        let now = chrono::Utc::now();
        assert_eq!(mailer.send_due(&app.state, now).await.unwrap(), Sent { sent: 0, failed: 2 }, "each mail fails; the outbox goes on");
        let error: String = on_pool!(app.db(), pool => sqlx::query_scalar("select last_error from mail_outbox limit 1").fetch_one(pool).await).unwrap();
        assert!(error.contains("cannot send mail") && error.contains("ENROL_MAIL_FROM"), "{error}");
        // Corrected, the mails go at their next try.
        on_pool!(app.db(), pool => sqlx::query("update site set email_address = 'hello@calderbrook.example'").execute(pool).await.map(drop)).unwrap();
        assert_eq!(mailer.send_due(&app.state, now + chrono::Duration::minutes(3)).await.unwrap(), Sent { sent: 2, failed: 0 });
        assert_eq!(received.lock().unwrap().len(), 2);
        app.stop().await;
    }
}
