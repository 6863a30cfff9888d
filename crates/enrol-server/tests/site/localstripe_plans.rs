//! An instalment plan in Stripe mode against localstripe (decision 036):
//! the booking fee's intent asks for its card to be saved to a customer,
//! localstripe's event names the saved card, the plan starts with it, and
//! each part is an off-session PaymentIntent whose own event records it.

use std::time::Instant;

use enrol_db::on_pool;
use enrol_server::plans::charge_due_parts;

use crate::helpers::Backend;
use crate::instalment_plans::{agreed_plan, morning, payments, plan_status};
use crate::localstripe::{LocalStripe, PAYS, WEBHOOK_WAIT, stripe_app};

async fn a_plan_saves_the_fee_s_card_and_charges_each_part_off_session(backend: Backend) {
    let Some(stripe) = LocalStripe::start().await else {
        return;
    };
    let Some(app) = stripe_app(backend, &stripe).await else {
        return;
    };
    let (order_id, intent, _, parts) = agreed_plan(&app).await;
    let held = stripe.get(&format!("/v1/payment_intents/{intent}")).await;
    assert_eq!(held["setup_future_usage"], "off_session", "{held}");
    let customer = held["customer"].as_str().expect("a customer to save the card to").to_owned();

    let (status, paid) = stripe.pay(&intent, PAYS).await;
    assert_eq!((status, paid["status"].as_str()), (200, Some("succeeded")), "{paid}");
    let deadline = Instant::now() + WEBHOOK_WAIT;
    while plan_status(&app, &order_id).await != "active" {
        assert!(Instant::now() < deadline, "the plan did not start; localstripe's log:\n{}", stripe.log());
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (method, card): (String, String) = on_pool!(app.db(), pool => sqlx::query_as(
        "select payment_method, card_label from payment_plan where enrollment_id = $1"
    ).bind(&order_id).fetch_one(pool).await)
    .unwrap();
    assert_eq!(card, "Visa ending 4242");
    assert_eq!(stripe.get(&format!("/v1/payment_methods/{method}")).await["customer"], customer.as_str(), "saved to the customer");

    let mut expected = vec![10_000];
    for part in &parts {
        assert_eq!(charge_due_parts(&app.state, morning(part.due_on)).await.unwrap(), 1, "part {}", part.number);
        expected.push(part.amount.pence());
        let deadline = Instant::now() + WEBHOOK_WAIT;
        while payments(&app, &order_id).await != expected {
            assert!(Instant::now() < deadline, "part {} was not recorded; localstripe's log:\n{}", part.number, stripe.log());
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(charge_due_parts(&app.state, morning(part.due_on)).await.unwrap(), 0, "part {} once", part.number);
    }
    assert_eq!(plan_status(&app, &order_id).await, "completed");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_saves_the_fee_s_card_and_charges_each_part_off_session_sqlite() {
    a_plan_saves_the_fee_s_card_and_charges_each_part_off_session(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_saves_the_fee_s_card_and_charges_each_part_off_session_postgres() {
    a_plan_saves_the_fee_s_card_and_charges_each_part_off_session(Backend::Postgres).await;
}
