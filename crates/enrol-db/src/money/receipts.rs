//! Receipts and credit notes (issue 13, decision 016): each numbered per
//! prefix without gaps inside the transaction of the payment or refund it
//! records ([`issue_document!`]), kept as issued (the database refuses to
//! change or remove one), and opened by the account its payment belongs to
//! or by whoever holds its mailed link. What they say is decided in
//! `enrol_domain::receipt`.

use anyhow::Context as _;

use enrol_domain::receipt::Document;

use crate::{Db, on_pool};

/// What a document is about, for its row: the payment it records or whose
/// refund it records, and the purchase that payment pays.
pub(crate) struct DocumentOf<'a> {
    pub payment_id: &'a str,
    /// Set for a credit note: the refund it records.
    pub refund_id: Option<&'a str>,
    pub enrollment_id: Option<&'a str>,
    pub online_order_id: Option<&'a str>,
}

/// Issues `$draft` (an `enrol_domain::receipt::Draft`) about `$about` (a
/// [`DocumentOf`]) inside `$tx`, opened by the token of `$link`: the
/// issued `Document`. Its number is the next of its prefix, taken by
/// updating the prefix's row, so a transaction that rolls back gives the
/// number back (no gaps) and the row's lock makes concurrent issuers take
/// turns (no duplicates) until the commit.
macro_rules! issue_document {
    ($tx:expr, $draft:expr, $about:expr, $link:expr, $now:expr) => {
        async {
            let draft: enrol_domain::receipt::Draft = $draft;
            let about: &$crate::money::receipts::DocumentOf<'_> = $about;
            let link: &enrol_domain::receipt::DocumentLink = $link;
            let prefix = draft.kind().prefix();
            sqlx::query("insert into document_sequence (prefix, last_number) values ($1, 0) on conflict (prefix) do nothing")
                .bind(prefix)
                .execute(&mut *$tx)
                .await?;
            let sequence: i64 =
                sqlx::query_scalar("update document_sequence set last_number = last_number + 1 where prefix = $1 returning last_number")
                    .bind(prefix)
                    .fetch_one(&mut *$tx)
                    .await?;
            let document = draft.issue(sequence, $now);
            let json = serde_json::to_string(&document).map_err(|e| sqlx::Error::Encode(e.into()))?;
            sqlx::query(
                "insert into receipt (id, number, prefix, sequence, kind, payment_id, refund_id, enrollment_id, online_order_id, amount, \
                 issued_at, access_token_hash, document) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind($crate::public_id())
            .bind(&document.number)
            .bind(prefix)
            .bind(sequence)
            .bind(document.kind.as_str())
            .bind(about.payment_id)
            .bind(about.refund_id)
            .bind(about.enrollment_id)
            .bind(about.online_order_id)
            .bind(document.amount.pence())
            .bind(document.issued_at)
            .bind(&link.token_hash)
            .bind(&json)
            .execute(&mut *$tx)
            .await?;
            Ok::<_, sqlx::Error>(document)
        }
    };
}
pub(crate) use issue_document;

/// Who asks to open a document.
#[derive(Debug, Clone, Copy)]
pub enum ReceiptAccess<'a> {
    /// The signed-in account with this id: the account its payment belongs to opens it.
    Owner(&'a str),
    /// The SHA-256 of a mailed link's token: the document's own link opens it.
    Token(&'a str),
}

impl Db {
    /// The document numbered `number`, when `access` opens it.
    pub async fn receipt(&self, number: &str, access: ReceiptAccess<'_>) -> anyhow::Result<Option<Document>> {
        let (owner, token_hash) = match access {
            ReceiptAccess::Owner(user_id) => (Some(user_id), None),
            ReceiptAccess::Token(hash) => (None, Some(hash)),
        };
        let json: Option<String> = on_pool!(self, pool => sqlx::query_scalar(
            "select r.document from receipt r join payment p on p.id = r.payment_id \
             where r.number = $1 and (p.user_id = $2 or r.access_token_hash = $3)"
        ).bind(number).bind(owner).bind(token_hash).fetch_optional(pool).await)
        .context("Failed to read the receipt")?;
        json.map(|json| serde_json::from_str(&json).context("A stored receipt is not a document")).transpose()
    }
}
