//! Who changes a booking (decision 017): the student's own paths serve a
//! staff member too, in the same transaction, which then also writes the
//! audit row.

use enrol_domain::date_change::ChangedBy;

use crate::AuditEntry;

/// Who changes a booking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor {
    /// The student, online, under the terms.
    Student,
    /// A staff member (their id), who may go beyond the terms where the
    /// domain allows it, and whose change writes an audit row.
    Staff(String),
}

impl Actor {
    /// Whose request the student's mail says it was.
    pub(crate) fn changed_by(&self) -> ChangedBy {
        match self {
            Actor::Student => ChangedBy::Student,
            Actor::Staff(_) => ChangedBy::College,
        }
    }

    /// The audit row of `action` on order `order_id`: a staff member's
    /// change has one, the student's none.
    pub(crate) fn order_audit(&self, action: &'static str, order_id: &str) -> Option<AuditEntry> {
        match self {
            Actor::Student => None,
            Actor::Staff(staff_id) => Some(AuditEntry::new(staff_id, action, "order", order_id)),
        }
    }
}
