//! Receipts and credit notes (decision 016): each numbered per prefix
//! without gaps inside the transaction of the payment or refund it records
//! ([`crate::ledger::MoneySteps::issue_document`]), kept as issued (the
//! database refuses to change or remove one), and opened by the account
//! its payment belongs to or by whoever holds its mailed link. What they
//! say is decided in `enrol_domain::receipt`.

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
