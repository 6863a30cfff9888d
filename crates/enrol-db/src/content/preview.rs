//! What visitors and previews see of content documents (decision 018): the
//! new address of a renamed course, and a draft projected into a
//! transaction that is never committed, for the page's own renderer.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::content::ContentBody;

use crate::content::ContentSteps;
use crate::content::projection::{ImageSizes, project};
use crate::{Db, on_pool};

impl Db {
    /// A view of this database on one connection of its own, in a
    /// transaction that is never committed, with `body` projected as
    /// document `key`: what the site would show with the draft published
    /// (decision 018). Closing it ([`Db::close`]) rolls everything back.
    pub async fn preview(&self, key: &str, body: &ContentBody, sizes: &dyn ImageSizes, now: DateTime<Utc>) -> anyhow::Result<Db> {
        let statements = project(key, body, sizes, now)?;
        let pool = match self.pool() {
            crate::Pool::Sqlite(pool) => crate::Pool::Sqlite(
                sqlx::sqlite::SqlitePoolOptions::new().max_connections(1).connect_with((*pool.connect_options()).clone()).await?,
            ),
            crate::Pool::Postgres(pool) => crate::Pool::Postgres(
                sqlx::postgres::PgPoolOptions::new().max_connections(1).connect_with((*pool.connect_options()).clone()).await?,
            ),
        };
        let preview = Db::on(pool);
        on_pool!(preview, pool => {
            let mut connection = pool.acquire().await?;
            // Begun by hand, so the connection stays in the transaction
            // between the queries the page's loaders make.
            sqlx::query("begin").execute(&mut *connection).await?;
            connection.run_statements(&statements).await?;
            Ok::<_, anyhow::Error>(())
        })
        .context("Failed to project the preview")?;
        Ok(preview)
    }

    /// Where the page that was at `path` (a renamed course) is now.
    pub async fn content_redirect(&self, path: &str) -> anyhow::Result<Option<String>> {
        on_pool!(self, pool => sqlx::query_scalar("select to_path from content_redirect where from_path = $1").bind(path).fetch_optional(pool).await)
            .context("Failed to read the redirects")
    }
}
