//! Instalment plans (decision 036): a plan agreed at checkout with the
//! parts the student was shown, started by the booking fee that saves the
//! card, and its parts charged on their days, each once, whether one job
//! runner or two on two instances run at once and whatever the provider
//! replays; a card the bank wants confirmed mails the student once and is
//! tried again, a part the student paid meanwhile is never charged, and a
//! cancelled booking's plan charges nothing.

use std::time::Duration as StdDuration;

use chrono::{DateTime, Days, NaiveDate, TimeZone, Utc};
use enrol_db::{Actor, on_pool};
use enrol_domain::cancellation::CancellationRefund;
use enrol_domain::enrollment::{LinePrice, Quote, balance_due_on};
use enrol_domain::instalments::{Instalment, PlanSettings, check_plan};
use enrol_domain::london;
use enrol_domain::money::Money;
use enrol_server::plans::charge_due_parts;
use enrol_server::reminders::send_balance_reminders;
use serde_json::json;

use crate::balance::{mails_to_sam, pay, status_of};
use crate::both_backends;
use crate::enrol_checkout::{confirm, count, intent_update, order, post, put};
use crate::helpers::TestApp;
use crate::ownership::deliver;

pub(crate) const SESSION: &str = "chemical-peels-3";
pub(crate) const PRICE: i64 = 199_500;

pub(crate) fn quote() -> Quote {
    Quote::new(&[LinePrice { price: Money::from_pence(PRICE), kit_pounds: None, code_applies: true }], None)
}

/// 9 in the morning in London on `day`, as the job would run.
pub(crate) fn morning(day: NaiveDate) -> DateTime<Utc> {
    Utc.from_utc_datetime(&day.and_hms_opt(9, 0, 0).unwrap())
}

/// A £1,995 booking, training in 150 days, whose fee is paid by `card` with
/// a plan of three parts agreed: its id and the parts.
pub(crate) async fn planned(app: &TestApp, card: &str) -> (String, Vec<Instalment>) {
    let (order_id, intent_id, secret, parts) = agreed_plan(app).await;
    let (status, paid) = confirm(app, &intent_id, &secret, &order_id, "card", Some(card)).await;
    assert_eq!(status, 200, "{paid}");
    (order_id, parts)
}

/// Makes the demo's [`SESSION`] a £1,995 one, 150 days away: its day.
pub(crate) async fn far_session(app: &TestApp) -> NaiveDate {
    let training = london::today(Utc::now()).checked_add_days(Days::new(150)).unwrap();
    on_pool!(app.db(), pool => sqlx::query("update session set price = $1, date = $2 where id = $3")
        .bind(PRICE).bind(training).bind(SESSION).execute(pool).await.map(drop))
    .unwrap();
    training
}

/// A £1,995 booking, training in 150 days, with a plan of three parts
/// agreed at checkout and its booking fee not yet paid: the order, its
/// intent and the intent's client secret, and the parts.
pub(crate) async fn agreed_plan(app: &TestApp) -> (String, String, String, Vec<Instalment>) {
    let today = london::today(Utc::now());
    let training = far_session(app).await;
    let q = quote();
    let parts = check_plan(&q, 3, today, balance_due_on(training, today), &PlanSettings::default()).unwrap();
    let (status, intent) = post(app, "/api/checkout/", &json!({ "amount": 10000 })).await;
    assert_eq!(status, 200, "{intent}");
    let (status, created) = post(app, "/api/enroll/", &order(SESSION, false, None, "card", &q)).await;
    assert_eq!(status, 200, "{created}");
    let order_id = created["id"].as_str().unwrap().to_owned();
    let intent_id = intent["id"].as_str().unwrap().to_owned();
    let with_plan = |parts: &[Instalment], consent: bool| {
        let mut body = intent_update(&intent_id, &order_id, q.deposit, "booking-fee");
        body["plan"] = json!({ "parts": parts, "cardConsent": consent });
        body
    };

    // Parts other than the rules give today, or no consent: refused.
    let mut changed = parts.clone();
    changed[0].amount = Money::from_pence(changed[0].amount.pence() - 1);
    let (status, refused) = put(app, "/api/checkout/", &with_plan(&changed, true)).await;
    assert_eq!(status, 422, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("instalments have changed"), "{refused}");
    let (status, refused) = put(app, "/api/checkout/", &with_plan(&parts, false)).await;
    assert_eq!(status, 422, "{refused}");
    let (status, refused) = put(app, "/api/checkout/", &with_plan(&parts[..1], true)).await;
    assert_eq!((status, refused["error"]["message"].as_str()), (422, Some("Choose 2 to 4 instalments.")), "{refused}");

    let (status, updated) = put(app, "/api/checkout/", &with_plan(&parts, true)).await;
    assert_eq!(status, 200, "{updated}");
    let secret = updated["client_secret"].as_str().unwrap().to_owned();
    (order_id, intent_id, secret, parts)
}

pub(crate) async fn plan_status(app: &TestApp, order_id: &str) -> String {
    on_pool!(app.db(), pool => sqlx::query_scalar("select status from payment_plan where enrollment_id = $1 and status <> 'cancelled'")
        .bind(order_id).fetch_one(pool).await)
    .unwrap()
}

pub(crate) async fn part_statuses(app: &TestApp, order_id: &str) -> Vec<String> {
    on_pool!(app.db(), pool => sqlx::query_scalar("select i.status from plan_instalment i join payment_plan p on p.id = i.plan_id \
        where p.enrollment_id = $1 order by i.number").bind(order_id).fetch_all(pool).await)
    .unwrap()
}

pub(crate) async fn payments(app: &TestApp, order_id: &str) -> Vec<i64> {
    on_pool!(app.db(), pool => sqlx::query_scalar("select amount from payment where enrollment_id = $1 order by created_at, id")
        .bind(order_id).fetch_all(pool).await)
    .unwrap()
}

/// Waits for the sandbox's event of a charge to be recorded: `n` payments.
pub(crate) async fn until_payments(app: &TestApp, order_id: &str, n: usize) -> Vec<i64> {
    for _ in 0..100 {
        let made = payments(app, order_id).await;
        if made.len() >= n {
            return made;
        }
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    payments(app, order_id).await
}

/// The day booking `order_id`'s balance is due.
async fn balance_due(app: &TestApp, order_id: &str) -> NaiveDate {
    on_pool!(app.db(), pool => sqlx::query_scalar("select balance_due_on from enrollment where id = $1").bind(order_id).fetch_one(pool).await)
        .unwrap()
}

both_backends! {
    async fn each_part_is_charged_once_on_its_day_with_two_runners_and_replayed_events(app: TestApp) {
        let (order_id, parts) = planned(&app, "4242 4242 4242 4242").await;
        assert_eq!(parts.iter().map(|p| p.amount.pence()).collect::<Vec<_>>(), [63_168, 63_166, 63_166]);
        assert_eq!(plan_status(&app, &order_id).await, "active", "the paid fee saved the card and started the plan");
        let agreed = mails_to_sam(&app, "Your payment plan: 3 instalments").await;
        assert_eq!(agreed.len(), 1);
        assert!(agreed[0].contains("Visa ending 4242") && agreed[0].contains("Instalment 1: £631.68 on"), "{}", agreed[0]);

        let due = balance_due(&app, &order_id).await;
        assert_eq!(send_balance_reminders(&app.state, morning(due)).await.unwrap(), 0, "the plan takes the balance: no reminder");
        // The day before the first part: nothing.
        let second = app.another_instance().await;
        let before = parts[0].due_on.pred_opt().unwrap();
        assert_eq!(charge_due_parts(&app.state, morning(before)).await.unwrap(), 0);

        let mut expected = vec![10_000];
        for part in &parts {
            let at = morning(part.due_on);
            let (a, b) = tokio::join!(charge_due_parts(&app.state, at), charge_due_parts(&second.state, at));
            assert_eq!(a.unwrap() + b.unwrap(), 1, "two runners at once charge part {} once", part.number);
            expected.push(part.amount.pence());
            assert_eq!(until_payments(&app, &order_id, expected.len()).await, expected);
            // Run again, later that day: nothing more.
            assert_eq!(charge_due_parts(&second.state, at + chrono::Duration::hours(3)).await.unwrap(), 0);
        }
        assert_eq!(expected.iter().sum::<i64>(), PRICE, "the fee and the parts are the total to the penny");
        assert_eq!(status_of(&app, &order_id).await, "completed");
        assert_eq!(plan_status(&app, &order_id).await, "completed");
        assert_eq!(part_statuses(&app, &order_id).await, ["paid", "paid", "paid"]);
        assert_eq!(mails_to_sam(&app, "Payment received").await.len(), 3, "a receipt for each part");

        // The provider replaying a part's event changes nothing.
        let intent: String = on_pool!(app.db(), pool => sqlx::query_scalar("select intent_id from plan_instalment where number = 2")
            .fetch_one(pool).await).unwrap();
        let event = json!({ "id": "evt_part_replayed", "object": "event", "type": "payment_intent.succeeded", "data": { "object": {
            "id": intent, "object": "payment_intent", "amount": parts[1].amount, "amount_received": parts[1].amount, "currency": "gbp",
            "metadata": { "Order ID": order_id, "type": "instalment" }, "status": "succeeded", "payment_method_types": ["card"],
        }}});
        for _ in 0..3 {
            assert_eq!(deliver(&app, &event).await, 200);
        }
        assert_eq!(payments(&app, &order_id).await.len(), 4);
        assert_eq!(count(&app, &format!("select count(*) from refund r join payment p on p.id = r.payment_id where p.enrollment_id = '{order_id}'")).await, 0);
        second.stop().await;
    }

    async fn a_card_the_bank_wants_confirmed_mails_once_and_a_part_paid_meanwhile_is_not_charged(app: TestApp) {
        let (order_id, parts) = planned(&app, "4000 0027 6000 3184").await;
        assert_eq!(plan_status(&app, &order_id).await, "active");
        let at = morning(parts[0].due_on);
        assert_eq!(charge_due_parts(&app.state, at).await.unwrap(), 0);
        assert_eq!(part_statuses(&app, &order_id).await, ["retrying", "scheduled", "scheduled"]);
        assert_eq!(payments(&app, &order_id).await, [10_000]);
        // Again the same day: not before the college's retry day, and no second mail.
        assert_eq!(charge_due_parts(&app.state, at + chrono::Duration::hours(2)).await.unwrap(), 0);
        let mails = mails_to_sam(&app, "Action needed: instalment 1 of £631.68").await;
        assert_eq!(mails.len(), 1);
        assert!(mails[0].contains("Your bank asked for you to confirm"), "{}", mails[0]);
        let url = mails[0].lines().find_map(|l| l.strip_prefix("Pay instalment 1: ")).unwrap().to_owned();
        assert!(url.ends_with("&amount=63168"), "{url}");
        let token = url.split("token=").nth(1).unwrap().split('&').next().unwrap().to_owned();

        // The student pays it from the mail's link.
        pay(&app, &token, 63_168).await;
        assert_eq!(part_statuses(&app, &order_id).await, ["paid", "scheduled", "scheduled"]);
        // The retry day comes: the part is paid, so nothing is charged or mailed.
        assert_eq!(charge_due_parts(&app.state, at + chrono::Duration::days(3)).await.unwrap(), 0);
        assert_eq!(payments(&app, &order_id).await, [10_000, 63_168]);
        assert_eq!(mails_to_sam(&app, "Action needed").await.len(), 1);

        // The next part wants confirming too, and is left failed after the college's retries.
        let at = morning(parts[1].due_on);
        for days in [0, 3, 7 + 3] {
            charge_due_parts(&app.state, at + chrono::Duration::days(days)).await.unwrap();
        }
        assert_eq!(part_statuses(&app, &order_id).await, ["paid", "failed", "scheduled"]);
        assert_eq!(mails_to_sam(&app, "Action needed: instalment 2").await.len(), 1, "one mail per part, whatever the retries");
        let attempts: i32 = on_pool!(app.db(), pool => sqlx::query_scalar("select attempts from plan_instalment where number = 2")
            .fetch_one(pool).await).unwrap();
        assert_eq!(attempts, 3, "the first try and the college's two retries");

        // A part left failed brings back the balance's own reminders, which a plan in good standing keeps away.
        let due = balance_due(&app, &order_id).await;
        assert_eq!(send_balance_reminders(&app.state, morning(due)).await.unwrap(), 1);
        let reminders = mails_to_sam(&app, "Your balance of £1,263.32 is due today").await;
        assert_eq!(reminders.len(), 1);
        assert!(reminders[0].contains("/pay-balance/"), "{}", reminders[0]);
    }

    async fn a_cancelled_booking_s_plan_charges_nothing(app: TestApp) {
        let (order_id, parts) = planned(&app, "4242 4242 4242 4242").await;
        let cancelled = app.db().cancel_enrollment(&order_id, CancellationRefund::Terms, &Actor::Student, "Example Academy", Utc::now()).await.unwrap();
        assert!(matches!(cancelled, enrol_db::Cancellation::Cancelled { .. }), "{cancelled:?}");
        for part in &parts {
            assert_eq!(charge_due_parts(&app.state, morning(part.due_on)).await.unwrap(), 0);
        }
        assert_eq!(part_statuses(&app, &order_id).await, ["cancelled", "cancelled", "cancelled"]);
        assert_eq!(payments(&app, &order_id).await, [10_000]);
    }
}

both_backends! {
    async fn a_date_change_moves_parts_onto_the_new_balance_day_and_keeps_them_adding_up(app: TestApp) {
        let (order_id, parts) = planned(&app, "4242 4242 4242 4242").await;
        // An earlier date, £100 cheaper: its balance is due 56 days from now.
        let today = london::today(Utc::now());
        let earlier = today.checked_add_days(Days::new(70)).unwrap();
        on_pool!(app.db(), pool => sqlx::query("update session set price = $1, date = $2 where id = 'chemical-peels-1'")
            .bind(PRICE - 10_000).bind(earlier).execute(pool).await.map(drop))
        .unwrap();
        let college = enrol_db::College { name: "Example Academy".into(), email_address: String::new(), address: String::new() };
        let now = Utc::now();
        let link = enrol_db::BalanceLink { token_hash: "0".repeat(64), expires_at: now + chrono::Duration::days(30), url: "/pay-balance/".into() };
        let moved = app.db().move_booking(&order_id, "chemical-peels", "chemical-peels-1", &Actor::Student, &college, &link, now).await.unwrap();
        assert!(matches!(moved, enrol_db::DateChange::Moved { .. }), "{moved:?}");

        let due_on = balance_due_on(earlier, today);
        let kept: Vec<(NaiveDate, i64)> = on_pool!(app.db(), pool => sqlx::query_as(
            "select i.due_on, i.amount from plan_instalment i join payment_plan p on p.id = i.plan_id where p.enrollment_id = $1 order by i.number"
        ).bind(&order_id).fetch_all(pool).await).unwrap();
        let days: Vec<NaiveDate> = kept.iter().map(|(day, _)| *day).collect();
        assert_eq!(days, [parts[0].due_on, due_on, due_on], "the parts after the new balance day move onto it");
        assert!(days.iter().all(|day| *day <= due_on));
        let planned_total: i64 = kept.iter().map(|(_, amount)| amount).sum();
        assert_eq!(planned_total, PRICE - 10_000 - 10_000, "the parts add up to the new balance");
        assert_eq!(kept[2].1, parts[2].amount.pence() - 10_000, "the last part takes the difference");
    }
}
