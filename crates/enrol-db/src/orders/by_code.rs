//! The bookings that used a discount code, for the back office (decision
//! 017): the order search, narrowed to the code.

use anyhow::Context as _;

use crate::orders::search::{OrderListing, OrderSearch};
use crate::{Db, on_pool};

impl Db {
    /// The bookings that used `code`, newest first (as many as a search
    /// lists); `None` when there is no such code.
    pub async fn code_orders(&self, code: &str) -> anyhow::Result<Option<Vec<OrderListing>>> {
        let known: i64 = on_pool!(self, pool => sqlx::query_scalar("select count(*) from discount_code where code = $1")
            .bind(code).fetch_one(pool).await)
        .context("Failed to read the discount code")?;
        if known == 0 {
            return Ok(None);
        }
        let page = self.search_orders(&OrderSearch { discount_code: Some(code.to_owned()), ..OrderSearch::default() }).await?;
        Ok(Some(page.orders))
    }
}
