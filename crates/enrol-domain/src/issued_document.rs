//! What a receipt or credit note is called and numbered, and how a mail
//! links one just issued: what the mails of a payment or a refund need of
//! a document, apart from the document itself (`crate::receipt`).

use serde::{Deserialize, Serialize};

/// A receipt (money received) or a credit note (money given back).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    Receipt,
    CreditNote,
}

impl DocumentKind {
    /// What its numbers start with; each prefix is numbered on its own.
    pub fn prefix(self) -> &'static str {
        match self {
            DocumentKind::Receipt => "RCT",
            DocumentKind::CreditNote => "CRN",
        }
    }

    /// Its `receipt.kind` in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentKind::Receipt => "receipt",
            DocumentKind::CreditNote => "credit_note",
        }
    }

    /// Its name in the buyer's words.
    pub fn name(self) -> &'static str {
        match self {
            DocumentKind::Receipt => "Receipt",
            DocumentKind::CreditNote => "Credit note",
        }
    }
}

/// `RCT-000123`: the prefix and the sequence, at least six digits.
pub fn document_number(kind: DocumentKind, sequence: i64) -> String {
    format!("{}-{sequence:06}", kind.prefix())
}

/// A document just issued, as the mail that tells of it links it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedDocument {
    pub kind: DocumentKind,
    pub number: String,
    pub url: String,
}

impl IssuedDocument {
    /// `Your receipt RCT-000123: https://…` and a new line.
    pub fn mail_line(&self) -> String {
        format!("Your {} {}: {}\n", self.kind.name().to_lowercase(), self.number, self.url)
    }
}
