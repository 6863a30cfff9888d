//! Money owed: the balances left after a booking fee, the links that pay
//! them and their reminders, and the figures and exports staff read. What
//! money moved, and its receipts, is the ledger's (`crate::ledger`).

pub(crate) mod balances;
pub(crate) mod figures;
pub(crate) mod plan_charges;
pub(crate) mod plans;
pub(crate) mod reminders;
