//! E-learning orders: created when the buyer presses Book Now, fulfilled
//! once by the payment provider's `checkout.session.completed` event.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::consent::Consent;
use enrol_domain::learning::access::access_ends;
use enrol_domain::mail::Mail;
use enrol_domain::money::Money;
use enrol_domain::online_order::{OnlineOffer, PricedLine, PricedOnlineOrder, StartCourse, receipt_body};
use enrol_domain::page::{OnlineOrderStatus, PriceData, UpsellOffer};
use enrol_domain::receipt::{DocumentLink, Issuer, Purchase};
use enrol_domain::reference::OrderKind;

use crate::ledger::MoneySteps;
use crate::ledger::payments::NewPayment;
use crate::orders::OrderSteps;
use crate::people::PeopleSteps;
use crate::people::course_start::StartLink;
use crate::{Db, on_pool, public_id};

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
    reference: String,
    status: String,
    lines: String,
    total: i64,
    email: Option<String>,
    checkout_session_id: Option<String>,
    user_id: Option<String>,
    owner_token_hash: Option<String>,
}

const ORDER_COLUMNS: &str = "id, reference, status, lines, total, email, checkout_session_id, user_id, owner_token_hash";

/// An online order as stored.
#[derive(Debug, Clone)]
pub struct OnlineOrderRecord {
    pub id: String,
    /// What a person reads out: `E-4HX2M` (enrol_domain::reference).
    pub reference: String,
    pub status: OnlineOrderStatus,
    pub lines: Vec<PricedLine>,
    pub total: Money,
    pub email: Option<String>,
    pub checkout_session_id: Option<String>,
    pub user_id: Option<String>,
    /// The SHA-256 of the buyer cookie of the browser that made it.
    pub owner_token_hash: Option<String>,
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

/// An online order as the checkout makes it.
#[derive(Debug, Clone, Copy)]
pub struct NewOnlineOrder<'a> {
    pub id: &'a str,
    pub order: &'a PricedOnlineOrder,
    /// The payment gateway's kind (`sandbox`, `stripe`).
    pub gateway: &'a str,
    /// The SHA-256 of the buyer cookie of the browser that made it.
    pub owner_token_hash: &'a str,
    /// The buyer, when signed in.
    pub user_id: Option<&'a str>,
    /// What the buyer agreed to (decision 020).
    pub consents: &'a [Consent],
}

impl Db {
    /// Every course sold online, with its upsell.
    pub async fn online_offers(&self) -> anyhow::Result<Vec<OnlineOffer>> {
        let rows: Vec<OfferRow> = on_pool!(self, pool => sqlx::query_as(
            "select c.id, c.title, c.url, c.price_id, c.unit_amount, u.title as upsell_title, \
             u.description as upsell_description, u.cta as upsell_cta, u.product_id as upsell_product_id, \
             u.unit_amount as upsell_amount \
             from course c left join upsell u on u.price_id = c.price_id where c.online and not c.withdrawn"
        ).fetch_all(pool).await)
        .context("Failed to read the online courses")?;
        Ok(rows.into_iter().map(OfferRow::into_offer).collect())
    }

    /// A new order, with what its buyer agreed to, in one transaction.
    pub async fn create_online_order(&self, new: &NewOnlineOrder<'_>, now: DateTime<Utc>) -> anyhow::Result<()> {
        let NewOnlineOrder { id, order, gateway, owner_token_hash, user_id, consents } = *new;
        let lines = serde_json::to_string(&order.lines)?;
        let reference = self.next_reference(OrderKind::Online).await?;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(
                "insert into online_order (id, status, lines, total, gateway, owner_token_hash, user_id, created_at, reference) \
                 values ($1, 'pending', $2, $3, $4, $5, $6, $7, $8)"
            ).bind(id).bind(&lines).bind(order.total.pence()).bind(gateway).bind(owner_token_hash).bind(user_id).bind(now)
                .bind(&reference).execute(&mut *tx).await?;
            tx.add_consents(None, Some(id), consents, now).await?;
            tx.commit().await
        })
        .context("Failed to store the online order")
    }

    pub async fn set_online_order_checkout(&self, id: &str, checkout_session_id: &str) -> anyhow::Result<()> {
        on_pool!(self, pool => sqlx::query("update online_order set checkout_session_id = $2 where id = $1")
            .bind(id).bind(checkout_session_id).execute(pool).await.map(drop))
        .context("Failed to link the order to its checkout")
    }

    pub async fn online_order(&self, id: &str) -> anyhow::Result<Option<OnlineOrderRecord>> {
        let row: Option<OrderRow> = on_pool!(self, pool => sqlx::query_as(
            sqlx::AssertSqlSafe(format!("select {ORDER_COLUMNS} from online_order where id = $1"))
        ).bind(id).fetch_optional(pool).await)
        .context("Failed to read the online order")?;
        row.map(|row| {
            Ok(OnlineOrderRecord {
                status: OnlineOrderStatus::parse(&row.status).with_context(|| format!("Unknown online order status {}", row.status))?,
                lines: serde_json::from_str(&row.lines).context("Stored order lines are not valid JSON")?,
                total: Money::from_pence(row.total),
                id: row.id,
                reference: row.reference,
                email: row.email,
                checkout_session_id: row.checkout_session_id,
                user_id: row.user_id,
                owner_token_hash: row.owner_token_hash,
            })
        })
        .transpose()
    }

    /// Records the payment and its receipt (from `issuer`, opened by
    /// `receipt_link`), one online registration per course and the
    /// confirmation, in one transaction; the order joins the buyer's
    /// account when it was bought signed in or its email is proven, and
    /// otherwise the confirmation carries `start_link`, kept to start the
    /// first course. An event id or a payment seen before changes nothing.
    pub async fn fulfil_online_order(
        &self,
        done: &CheckoutCompletion,
        issuer: &Issuer,
        receipt_link: &DocumentLink,
        start_link: &StartLink,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Fulfilment> {
        let email = done.email.trim().to_lowercase();
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if !tx.first_delivery(&done.event_id, &done.event_type, now).await? {
                return Ok(Fulfilment::AlreadyHandled);
            }
            let order: Option<OrderRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("select {ORDER_COLUMNS} from online_order where id = $1")))
                .bind(&done.order_id).fetch_optional(&mut *tx).await?;
            let Some(order) = order else {
                tx.commit().await?;
                return Ok(Fulfilment::UnknownOrder);
            };
            let user_id = tx.account_for(&order.user_id, &email).await?;
            let lines: Vec<PricedLine> = serde_json::from_str(&order.lines).map_err(|e| sqlx::Error::Decode(e.into()))?;
            let total = Money::from_pence(order.total);
            let purchase = Purchase::online_order(&order.reference, done.name.as_deref().unwrap_or_default(), &email, &lines, total);
            let payment = NewPayment {
                amount: done.amount,
                currency: &done.currency,
                transaction_id: &done.transaction_id,
                method: &done.method,
                metadata: serde_json::json!({ "order_id": order.id, "event_id": done.event_id }).to_string(),
                enrollment_id: None,
                online_order_id: Some(&order.id),
                user_id: user_id.as_deref(),
                purchase: &purchase,
                issuer,
                link: receipt_link,
            };
            let recorded = tx.record_payment(&payment, now).await?;
            let Some(recorded) = recorded.filter(|_| order.status != "paid") else {
                tx.commit().await?;
                return Ok(Fulfilment::AlreadyHandled);
            };
            if done.amount.pence() < order.total {
                tx.commit().await?;
                return Ok(Fulfilment::Underpaid);
            }
            sqlx::query("update online_order set status = 'paid', email = $2, user_id = $3, paid_at = $4 where id = $1")
                .bind(&order.id).bind(&email).bind(&user_id).bind(now).execute(&mut *tx).await?;
            let mut first_course = None;
            for line in &lines {
                // A course, or an add-on that is a course (its offer names it).
                if let Some(course_id) = &tx.line_course(&line.item).await? {
                    let delivery = tx.course_delivery(course_id).await?;
                    let (provider_course, provider_group) = delivery.provider_ids();
                    sqlx::query(
                        "insert into online_registration (id, user_id, online_order_id, course_id, course_title, created_at, \
                         starts_at, ends_at, coassemble_course_id, coassemble_group_id) values ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9) \
                         on conflict (online_order_id, course_id) do nothing"
                    ).bind(public_id()).bind(&user_id).bind(&order.id).bind(course_id)
                        .bind(&line.title).bind(now).bind(access_ends(now, delivery.months))
                        .bind(provider_course).bind(provider_group).execute(&mut *tx).await?;
                    first_course.get_or_insert_with(|| course_id.clone());
                }
            }
            let start = match (&user_id, &first_course) {
                (None, Some(course_id)) => {
                    tx.keep_start_link(&email, done.name.as_deref().unwrap_or_default(), course_id, start_link).await?;
                    StartCourse::Link(&start_link.url)
                }
                _ => StartCourse::InAccount,
            };
            let college = &issuer.name;
            let body = receipt_body(college, &order.reference, &lines, total, &recorded.receipt, receipt_link.site_url(), start);
            tx.queue_mail(&Mail { to: email.clone(), reply_to: None, subject: format!("Your {college} order"), body, attachment: None }, now).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Fulfilment::Fulfilled)
        })
        .context("Failed to fulfil the online order")
    }

    /// A checkout completed with a payment still on its way (a bank
    /// debit): the order waits for the provider's later event.
    pub async fn online_order_processing(
        &self,
        event_id: &str,
        event_type: &str,
        order_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        self.online_order_transition(event_id, event_type, order_id, "processing", now).await
    }

    /// The payment of a checkout failed after it completed.
    pub async fn fail_online_order(&self, event_id: &str, event_type: &str, order_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        self.online_order_transition(event_id, event_type, order_id, "failed", now).await
    }

    /// Moves an unpaid order to `status`, once per event; a paid order is
    /// never touched.
    async fn online_order_transition(
        &self,
        event_id: &str,
        event_type: &str,
        order_id: &str,
        status: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            if !tx.first_delivery(event_id, event_type, now).await? {
                return Ok(false);
            }
            let moved = sqlx::query("update online_order set status = $2 where id = $1 and status in ('pending', 'processing')")
                .bind(order_id).bind(status).execute(&mut *tx).await?.rows_affected() == 1;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(moved)
        })
        .context("Failed to record the online order's payment state")
    }

    /// Unpaid online orders with a hosted checkout, created between `from`
    /// and `until`: `(order id, checkout session id)`.
    pub async fn online_orders_awaiting_payment(&self, from: DateTime<Utc>, until: DateTime<Utc>) -> anyhow::Result<Vec<(String, String)>> {
        on_pool!(self, pool => sqlx::query_as(
            "select id, checkout_session_id from online_order where status in ('pending', 'processing') \
             and checkout_session_id is not null and created_at >= $1 and created_at < $2 order by created_at"
        ).bind(from).bind(until).fetch_all(pool).await)
        .context("Failed to read the online orders awaiting payment")
    }
}
