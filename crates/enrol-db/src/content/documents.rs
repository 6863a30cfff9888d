//! Content documents as staff edit them in the back office (decision 018):
//! drafts, publishing, history and reverting. Publishing writes the
//! document's projection, its revision, the audit row and the content
//! version bump in one transaction, so every instance shows the change at
//! its next version poll, and only whole.

use anyhow::Context as _;
use chrono::{DateTime, Utc};

use enrol_domain::content::{ContentBody, ContentKind};

use crate::AuditEntry;
use crate::content::ContentSteps;
use crate::content::projection::{ImageSizes, project, withdraw};
use crate::people::PeopleSteps;
use crate::{Db, on_pool};

/// A document in the list of content.
#[derive(Debug, Clone)]
pub struct ContentSummary {
    pub kind: ContentKind,
    pub key: String,
    pub body: ContentBody,
    pub version: i64,
    pub draft: bool,
    /// Taken off the site, until it is published again.
    pub withdrawn: bool,
    pub updated_at: DateTime<Utc>,
}

/// One published revision of a document.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContentRevision {
    pub version: i64,
    pub action: String,
    /// The name of the staff member, or none for the pack.
    pub by: Option<String>,
    pub at: DateTime<Utc>,
}

/// A document with its draft and history (newest first).
#[derive(Debug, Clone)]
pub struct ContentDetail {
    pub summary: ContentSummary,
    pub draft: Option<ContentBody>,
    pub draft_by: Option<String>,
    pub draft_saved_at: Option<DateTime<Utc>>,
    pub revisions: Vec<ContentRevision>,
}

/// Why a change was not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentRefused {
    NotFound,
    /// A new document's kind and key are taken.
    Exists,
    /// Publishing, with no draft to publish.
    NoDraft,
    /// A field names what does not exist (a course's section).
    Field(&'static str, &'static str),
    /// Withdrawing what is off the site already.
    Withdrawn,
    /// Withdrawing the site data or a section, which the site cannot do without.
    Kept,
}

#[derive(sqlx::FromRow)]
struct DocumentRow {
    kind: String,
    key: String,
    published: String,
    version: i64,
    draft: Option<String>,
    draft_by: Option<String>,
    draft_saved_at: Option<DateTime<Utc>>,
    withdrawn_at: Option<DateTime<Utc>>,
    updated_at: DateTime<Utc>,
}

fn body(kind: ContentKind, json: &str) -> anyhow::Result<ContentBody> {
    ContentBody::from_json(kind, serde_json::from_str(json)?).with_context(|| format!("A stored {} body does not read", kind.as_str()))
}

impl DocumentRow {
    fn summary(&self) -> anyhow::Result<ContentSummary> {
        let kind = ContentKind::parse(&self.kind).with_context(|| format!("Unknown content kind {}", self.kind))?;
        Ok(ContentSummary {
            kind,
            key: self.key.clone(),
            body: body(kind, &self.published)?,
            version: self.version,
            draft: self.draft.is_some(),
            withdrawn: self.withdrawn_at.is_some(),
            updated_at: self.updated_at,
        })
    }
}

const DOCUMENT: &str = "select d.kind, d.key, d.published, d.version, d.draft, s.name as draft_by, d.draft_saved_at, d.withdrawn_at, d.updated_at \
                        from content_document d left join staff_account s on s.id = d.draft_by";

/// Where a publish takes its body from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentSource {
    Draft,
    /// A revert: the body of that revision.
    Revision(i64),
}

impl Db {
    /// Every document, by kind and key.
    pub async fn content_documents(&self) -> anyhow::Result<Vec<ContentSummary>> {
        let rows: Vec<DocumentRow> =
            on_pool!(self, pool => sqlx::query_as(sqlx::AssertSqlSafe(format!("{DOCUMENT} order by d.kind, d.key")))
            .fetch_all(pool).await)
            .context("Failed to list the content")?;
        rows.iter().map(DocumentRow::summary).collect()
    }

    pub async fn content_document(&self, kind: ContentKind, key: &str) -> anyhow::Result<Option<ContentDetail>> {
        let (row, revisions) = on_pool!(self, pool => {
            let row: Option<DocumentRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{DOCUMENT} where d.kind = $1 and d.key = $2")))
                .bind(kind.as_str()).bind(key).fetch_optional(pool).await?;
            let revisions: Vec<ContentRevision> = sqlx::query_as(
                "select r.version, r.action, s.name as by, r.created_at as at from content_revision r \
                 left join staff_account s on s.id = r.staff_id where r.kind = $1 and r.key = $2 order by r.version desc"
            ).bind(kind.as_str()).bind(key).fetch_all(pool).await?;
            Ok::<_, sqlx::Error>((row, revisions))
        })
        .context("Failed to read the content document")?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(ContentDetail {
            summary: row.summary()?,
            draft: row.draft.as_deref().map(|json| body(kind, json)).transpose()?,
            draft_by: row.draft_by,
            draft_saved_at: row.draft_saved_at,
            revisions,
        }))
    }

    /// Keeps `draft` as what `staff_id` is editing of the document; false
    /// when there is no such document. The site does not change.
    pub async fn save_content_draft(&self, key: &str, draft: &ContentBody, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let json = serde_json::to_string(draft)?;
        let _turn = self.write_turn().await;
        let saved = on_pool!(self, pool => sqlx::query(
            "update content_document set draft = $3, draft_by = $4, draft_saved_at = $5 where kind = $1 and key = $2"
        ).bind(draft.kind().as_str()).bind(key).bind(json).bind(staff_id).bind(now).execute(pool).await.map(|done| done.rows_affected()))
        .context("Failed to save the draft")?;
        Ok(saved == 1)
    }

    /// Forgets the document's draft (audited); false when there was none.
    pub async fn discard_content_draft(&self, kind: ContentKind, key: &str, staff_id: &str, now: DateTime<Utc>) -> anyhow::Result<bool> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let dropped: Option<String> = sqlx::query_scalar(
                "update content_document set draft = null, draft_by = null, draft_saved_at = null \
                 where kind = $1 and key = $2 and draft is not null returning key"
            ).bind(kind.as_str()).bind(key).fetch_optional(&mut *tx).await?;
            if dropped.is_none() {
                tx.rollback().await?;
                return Ok(false);
            }
            tx.audit(&AuditEntry::new(staff_id, "content.discard", kind.as_str(), key), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(true)
        })
    }

    /// Makes a new document `key` of `body`, published at once as version 1.
    pub async fn create_content(
        &self,
        key: &str,
        body: &ContentBody,
        sizes: &dyn ImageSizes,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Result<i64, ContentRefused>> {
        let kind = body.kind();
        let json = serde_json::to_string(body)?;
        let statements = project(key, body, sizes, now)?;
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            tx.content_changed(now).await?;
            let added = sqlx::query(
                "insert into content_document (kind, key, published, version, updated_at) values ($1, $2, $3, 1, $4) \
                 on conflict (kind, key) do nothing"
            ).bind(kind.as_str()).bind(key).bind(&json).bind(now).execute(&mut *tx).await?.rows_affected();
            if added == 0 {
                tx.rollback().await?;
                return Ok(Err(ContentRefused::Exists));
            }
            if let Some(refused) = tx.refused_course(key, body).await? {
                tx.rollback().await?;
                return Ok(Err(refused));
            }
            sqlx::query(
                "insert into content_revision (kind, key, version, body, action, staff_id, created_at) values ($1, $2, 1, $3, 'publish', $4, $5)"
            ).bind(kind.as_str()).bind(key).bind(&json).bind(staff_id).bind(now).execute(&mut *tx).await?;
            tx.run_statements(&statements).await?;
            tx.audit(&AuditEntry::new(staff_id, "content.create", kind.as_str(), key).after(body), now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Ok(1))
        })
    }

    /// Publishes the document's draft, or an earlier revision's body
    /// again (a revert), as its next version.
    pub async fn publish_content(
        &self,
        kind: ContentKind,
        key: &str,
        source: ContentSource,
        sizes: &dyn ImageSizes,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Result<i64, ContentRefused>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Locks the document: two publishes of it run one after the other.
            let found: Option<(String, i64, Option<String>)> = sqlx::query_as(
                "update content_document set updated_at = $3 where kind = $1 and key = $2 returning published, version, draft"
            ).bind(kind.as_str()).bind(key).bind(now).fetch_optional(&mut *tx).await?;
            let Some((before, version, draft)) = found else {
                tx.rollback().await?;
                return Ok(Err(ContentRefused::NotFound));
            };
            let (json, action) = match source {
                ContentSource::Draft => (draft, "publish"),
                ContentSource::Revision(number) => (
                    sqlx::query_scalar("select body from content_revision where kind = $1 and key = $2 and version = $3")
                        .bind(kind.as_str()).bind(key).bind(number).fetch_optional(&mut *tx).await?,
                    "revert",
                ),
            };
            let Some(json) = json else {
                tx.rollback().await?;
                return Ok(Err(if action == "publish" { ContentRefused::NoDraft } else { ContentRefused::NotFound }));
            };
            let published = body(kind, &json)?;
            if let Some(refused) = tx.refused_course(key, &published).await? {
                tx.rollback().await?;
                return Ok(Err(refused));
            }
            let next = version + 1;
            sqlx::query(
                "update content_document set published = $3, version = $4, draft = null, draft_by = null, draft_saved_at = null, \
                 withdrawn_at = null where kind = $1 and key = $2"
            ).bind(kind.as_str()).bind(key).bind(&json).bind(next).execute(&mut *tx).await?;
            sqlx::query(
                "insert into content_revision (kind, key, version, body, action, staff_id, created_at) values ($1, $2, $3, $4, $5, $6, $7)"
            ).bind(kind.as_str()).bind(key).bind(next).bind(&json).bind(action).bind(staff_id).bind(now).execute(&mut *tx).await?;
            tx.run_statements(&project(key, &published, sizes, now)?).await?;
            tx.content_changed(now).await?;
            let before: serde_json::Value = serde_json::from_str(&before)?;
            let entry = AuditEntry::new(staff_id, if action == "publish" { "content.publish" } else { "content.revert" }, kind.as_str(), key)
                .before(before)
                .after(&published);
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Ok(next))
        })
    }

    /// Takes the document off the site as its next version (a `withdraw`
    /// revision of its published body): its page and listings go on every
    /// instance at their next version poll. Its history stays, and
    /// publishing it again (its draft, or a revert) puts it back.
    pub async fn withdraw_content(
        &self,
        kind: ContentKind,
        key: &str,
        staff_id: &str,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Result<i64, ContentRefused>> {
        let _turn = self.write_turn().await;
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // Locks the document, as a publish does: a publish and a withdraw
            // of it run one after the other, and only one withdraw counts.
            let found: Option<(String, i64, Option<DateTime<Utc>>)> = sqlx::query_as(
                "update content_document set updated_at = $3 where kind = $1 and key = $2 returning published, version, withdrawn_at"
            ).bind(kind.as_str()).bind(key).bind(now).fetch_optional(&mut *tx).await?;
            let refusal = match &found {
                None => Some(ContentRefused::NotFound),
                Some((_, _, Some(_))) => Some(ContentRefused::Withdrawn),
                Some(_) => None,
            };
            let statements = found.as_ref().map(|(json, _, _)| body(kind, json)).transpose()?.and_then(|b| withdraw(key, &b));
            let (Some((json, version, _)), None, Some(statements)) = (found, &refusal, statements) else {
                tx.rollback().await?;
                return Ok(Err(refusal.unwrap_or(ContentRefused::Kept)));
            };
            let next = version + 1;
            sqlx::query("update content_document set version = $3, withdrawn_at = $4 where kind = $1 and key = $2")
                .bind(kind.as_str()).bind(key).bind(next).bind(now).execute(&mut *tx).await?;
            sqlx::query(
                "insert into content_revision (kind, key, version, body, action, staff_id, created_at) values ($1, $2, $3, $4, 'withdraw', $5, $6)"
            ).bind(kind.as_str()).bind(key).bind(next).bind(&json).bind(staff_id).bind(now).execute(&mut *tx).await?;
            tx.run_statements(&statements).await?;
            tx.content_changed(now).await?;
            let entry = AuditEntry::new(staff_id, "content.withdraw", kind.as_str(), key).before(serde_json::from_str::<serde_json::Value>(&json)?);
            tx.audit(&entry, now).await?;
            tx.commit().await?;
            Ok::<_, anyhow::Error>(Ok(next))
        })
    }
}
