//! The audit log (decision 017): one row for every change a staff member
//! makes, written in the change's own transaction
//! ([`crate::people::PeopleSteps::audit`]), and read back newest first.

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::{Db, on_pool};

/// One row of the audit log: who did what to which object, before and after.
#[derive(Debug, Clone)]
pub struct AuditEntry {
    pub staff_id: String,
    pub action: &'static str,
    pub entity: &'static str,
    pub entity_id: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

impl AuditEntry {
    pub fn new(staff_id: &str, action: &'static str, entity: &'static str, entity_id: &str) -> Self {
        AuditEntry { staff_id: staff_id.to_owned(), action, entity, entity_id: entity_id.to_owned(), before: None, after: None }
    }

    pub fn before(mut self, value: impl serde::Serialize) -> Self {
        self.before = serde_json::to_value(value).ok();
        self
    }

    pub fn after(mut self, value: impl serde::Serialize) -> Self {
        self.after = serde_json::to_value(value).ok();
        self
    }
}

/// An audit row as read back.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub staff_id: String,
    pub actor_name: String,
    pub actor_email: String,
    pub action: String,
    pub entity: String,
    pub entity_id: String,
    pub before_data: Option<String>,
    pub after_data: Option<String>,
}

/// The audit rows as [`AuditRow`] reads them (`l`), with who wrote them
/// (`a`), for a caller to filter.
pub(crate) const AUDIT_ROWS: &str = "select l.id, l.at, l.staff_id, a.name as actor_name, a.email as actor_email, l.action, \
     l.entity, l.entity_id, l.before_data, l.after_data from audit_log l join staff_account a on a.id = l.staff_id";

/// Which audit rows to read, newest first.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub actor: Option<String>,
    pub entity: Option<String>,
    pub entity_id: Option<String>,
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    /// Only rows older than this id (the next page).
    pub before: Option<i64>,
    pub limit: i64,
}

impl Db {
    /// The audit log, newest first.
    pub async fn audit_entries(&self, filter: &AuditFilter) -> anyhow::Result<Vec<AuditRow>> {
        let mut conditions = Vec::new();
        let mut next = 0;
        let mut condition = |present: bool, sql: &str| {
            if present {
                next += 1;
                conditions.push(sql.replace('?', &format!("${next}")));
            }
        };
        condition(filter.actor.is_some(), "(a.email = ? or a.id = ?)");
        condition(filter.entity.is_some(), "l.entity = ?");
        condition(filter.entity_id.is_some(), "l.entity_id = ?");
        condition(filter.from.is_some(), "l.at >= ?");
        condition(filter.to.is_some(), "l.at < ?");
        condition(filter.before.is_some(), "l.id < ?");
        let filter_sql = if conditions.is_empty() { String::new() } else { format!("where {}", conditions.join(" and ")) };
        let sql = format!("{AUDIT_ROWS} {filter_sql} order by l.id desc limit {}", filter.limit.clamp(1, 500));
        on_pool!(self, pool => {
            let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql.clone()));
            if let Some(actor) = &filter.actor {
                query = query.bind(actor.trim().to_lowercase());
            }
            if let Some(entity) = &filter.entity {
                query = query.bind(entity);
            }
            if let Some(entity_id) = &filter.entity_id {
                query = query.bind(entity_id);
            }
            if let Some(from) = filter.from {
                query = query.bind(from);
            }
            if let Some(to) = filter.to {
                query = query.bind(to);
            }
            if let Some(before) = filter.before {
                query = query.bind(before);
            }
            query.fetch_all(pool).await
        })
        .context("Failed to read the audit log")
    }
}
