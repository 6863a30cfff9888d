//! A mail as the outbox keeps it until it is sent.

/// A plain-text mail to queue: the database stores it in the same
/// transaction as what it tells of, and the mailer sends it later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub body: String,
    /// A file sent with it: the booking confirmation's calendar invite.
    pub attachment: Option<Attachment>,
}

/// A text file a mail carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// `booking.ics`
    pub name: String,
    /// `text/calendar; charset=utf-8; method=PUBLISH`
    pub content_type: String,
    pub body: String,
}
