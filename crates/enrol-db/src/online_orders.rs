//! E-learning orders: created when the buyer presses Book Now, fulfilled
//! once by the payment provider's `checkout.session.completed` event.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::money::Money;
use enrol_domain::online_order::{LineItem, OnlineOffer, PricedLine, PricedOnlineOrder, receipt_body};
use enrol_domain::page::{OnlineOrderStatus, PriceData, UpsellOffer};

use crate::{Db, on_pool};

#[derive(sqlx::FromRow)]
struct OfferRow {
    id: String,
    title: String,
    url: String,
    price_id: String,
    unit_amount: i64,
    upsell_title: Option<String>,
    upsell_description: Option<String>,
    upsell_cta: Option<String>,
    upsell_product_id: Option<String>,
    upsell_amount: Option<i64>,
}

impl OfferRow {
    fn into_offer(self) -> OnlineOffer {
        let upsell = match (self.upsell_title, self.upsell_description, self.upsell_cta, self.upsell_product_id, self.upsell_amount) {
            (Some(title), Some(description), Some(cta), Some(product), Some(amount)) => Some(UpsellOffer {
                title,
                description,
                cta,
                price_data: PriceData { currency: "gbp".to_owned(), product, unit_amount: Money::from_pence(amount) },
            }),
            _ => None,
        };
        OnlineOffer {
            course_id: self.id,
            title: self.title,
            url: self.url,
            price_id: self.price_id,
            unit_amount: Money::from_pence(self.unit_amount),
            upsell,
        }
    }
}

#[derive(sqlx::FromRow)]
struct OrderRow {
    id: String,
    status: String,
    lines: String,
    total: i64,
    email: Option<String>,
    checkout_session_id: Option<String>,
}

/// An online order as stored.
#[derive(Debug, Clone)]
pub struct OnlineOrderRecord {
    pub id: String,
    pub status: OnlineOrderStatus,
    pub lines: Vec<PricedLine>,
    pub total: Money,
    pub email: Option<String>,
    pub checkout_session_id: Option<String>,
}

/// A completed hosted checkout, as the provider's event reports it.
#[derive(Debug, Clone)]
pub struct CheckoutCompletion {
    pub event_id: String,
    pub event_type: String,
    pub order_id: String,
    /// The provider's payment id (the payment intent, else the session).
    pub transaction_id: String,
    pub amount: Money,
    pub currency: String,
    pub email: String,
    pub name: Option<String>,
    pub method: String,
}

/// What handling a completion did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fulfilment {
    /// Payment recorded, access granted, receipt queued.
    Fulfilled,
    /// This event (or this payment) was handled before: nothing changed.
    AlreadyHandled,
    /// No such order: recorded as handled, reported for a person to check.
    UnknownOrder,
    /// Less was paid than the order's total: the payment is recorded, the
    /// order stays pending for a person to check.
    Underpaid,
}

impl Db {
    /// Every course sold online, with its upsell.
    pub async fn online_offers(&self) -> anyhow::Result<Vec<OnlineOffer>> {
        let rows: Vec<OfferRow> = on_pool!(self, pool => sqlx::query_as(
            "select c.id, c.title, c.url, c.price_id, c.unit_amount, u.title as upsell_title, \
             u.description as upsell_description, u.cta as upsell_cta, u.product_id as upsell_product_id, \
             u.unit_amount as upsell_amount \
             from course c left join upsell u on u.price_id = c.price_id where c.online"
        ).fetch_all(pool).await)
        .context("Failed to read the online courses")?;
        Ok(rows.into_iter().map(OfferRow::into_offer).collect())
    }

    pub async fn create_online_order(&self, id: &str, order: &PricedOnlineOrder, gateway: &str, now: DateTime<Utc>) -> anyhow::Result<()> {
        let lines = serde_json::to_string(&order.lines)?;
        on_pool!(self, pool => sqlx::query(
            "insert into online_order (id, status, lines, total, gateway, created_at) values ($1, 'pending', $2, $3, $4, $5)"
        ).bind(id).bind(&lines).bind(order.total.pence()).bind(gateway).bind(now).execute(pool).await.map(drop))
        .context("Failed to store the online order")
    }

    pub async fn set_online_order_checkout(&self, id: &str, checkout_session_id: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("update online_order set checkout_session_id = $2 where id = $1")
            .bind(id).bind(checkout_session_id).execute(pool).await.map(drop))
        .context("Failed to link the order to its checkout")
    }

    pub async fn online_order(&self, id: &str) -> anyhow::Result<Option<OnlineOrderRecord>> {
        let row: Option<OrderRow> = on_pool!(self, pool => sqlx::query_as(
            "select id, status, lines, total, email, checkout_session_id from online_order where id = $1"
        ).bind(id).fetch_optional(pool).await)
        .context("Failed to read the online order")?;
        row.map(|row| {
            Ok(OnlineOrderRecord {
                status: if row.status == "paid" { OnlineOrderStatus::Paid } else { OnlineOrderStatus::Pending },
                lines: serde_json::from_str(&row.lines).context("Stored order lines are not valid JSON")?,
                total: Money::from_pence(row.total),
                id: row.id,
                email: row.email,
                checkout_session_id: row.checkout_session_id,
            })
        })
        .transpose()
    }

    /// Records the payment, the buyer (found or created by email), one
    /// online registration per course and the receipt, in one transaction.
    /// An event id or a payment seen before changes nothing.
    pub async fn fulfil_online_order(&self, done: &CheckoutCompletion, college: &str, now: DateTime<Utc>) -> anyhow::Result<Fulfilment> {
        let email = done.email.trim().to_lowercase();
        let (given_name, family_name) = match done.name.as_deref().map(str::trim) {
            Some(name) => name.split_once(' ').map_or((name, ""), |(g, f)| (g, f.trim())),
            None => ("", ""),
        };
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let first = sqlx::query("insert into webhook_event (id, type, received_at) values ($1, $2, $3) on conflict (id) do nothing")
                .bind(&done.event_id).bind(&done.event_type).bind(now)
                .execute(&mut *tx).await?.rows_affected() == 1;
            if !first {
                return Ok(Fulfilment::AlreadyHandled);
            }
            let order: Option<OrderRow> = sqlx::query_as(
                "select id, status, lines, total, email, checkout_session_id from online_order where id = $1"
            ).bind(&done.order_id).fetch_optional(&mut *tx).await?;
            let Some(order) = order else {
                tx.commit().await?;
                return Ok(Fulfilment::UnknownOrder);
            };
            let user_id: String = sqlx::query_scalar(
                "insert into user_account (id, email, given_name, family_name, created_at) values ($1, $2, $3, $4, $5) \
                 on conflict (email) do update set email = excluded.email returning id"
            ).bind(uuid::Uuid::now_v7().to_string()).bind(&email).bind(given_name).bind(family_name).bind(now)
                .fetch_one(&mut *tx).await?;
            let metadata = serde_json::json!({ "order_id": order.id, "event_id": done.event_id }).to_string();
            let recorded = sqlx::query(
                "insert into payment (id, amount, status, currency, transaction_id, method, metadata, online_order_id, user_id, created_at) \
                 values ($1, $2, 'succeeded', $3, $4, $5, $6, $7, $8, $9) on conflict (transaction_id) do nothing"
            ).bind(uuid::Uuid::now_v7().to_string()).bind(done.amount.pence()).bind(&done.currency).bind(&done.transaction_id)
                .bind(&done.method).bind(&metadata).bind(&order.id).bind(&user_id).bind(now)
                .execute(&mut *tx).await?.rows_affected() == 1;
            if !recorded || order.status == "paid" {
                tx.commit().await?;
                return Ok(Fulfilment::AlreadyHandled);
            }
            if done.amount.pence() < order.total {
                tx.commit().await?;
                return Ok(Fulfilment::Underpaid);
            }
            sqlx::query("update online_order set status = 'paid', email = $2, user_id = $3, paid_at = $4 where id = $1")
                .bind(&order.id).bind(&email).bind(&user_id).bind(now).execute(&mut *tx).await?;
            let lines: Vec<PricedLine> = serde_json::from_str(&order.lines)?;
            for line in &lines {
                if let LineItem::Course { course_id, .. } = &line.item {
                    sqlx::query(
                        "insert into online_registration (id, user_id, online_order_id, course_id, course_title, created_at) \
                         values ($1, $2, $3, $4, $5, $6) on conflict (online_order_id, course_id) do nothing"
                    ).bind(uuid::Uuid::now_v7().to_string()).bind(&user_id).bind(&order.id).bind(course_id)
                        .bind(&line.title).bind(now).execute(&mut *tx).await?;
                }
            }
            let body = receipt_body(college, &order.id, &lines, Money::from_pence(order.total));
            sqlx::query("insert into mail_outbox (id, to_address, subject, body_text, created_at) values ($1, $2, $3, $4, $5)")
                .bind(uuid::Uuid::now_v7().to_string()).bind(&email).bind(format!("Your {college} order"))
                .bind(&body).bind(now).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Fulfilment::Fulfilled)
        })
        .context("Failed to fulfil the online order")
    }
}
