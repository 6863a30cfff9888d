//! Documents made to be printed and kept, drawn from what the domain says
//! they hold: a receipt or credit note as one A4 HTML page, a certificate
//! as a PDF.

pub mod certificate;
pub mod receipt;
