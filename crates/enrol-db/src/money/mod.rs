//! Money: the ledger of payments and refunds, the receipts and credit
//! notes that record them, balances left after a booking fee and their
//! reminders, the figures and exports staff read, and the sandbox
//! gateway's hosted checkouts. The steps its transactions take are
//! [`MoneySteps`].

pub(crate) mod balances;
pub(crate) mod figures;
pub(crate) mod ledger;
pub(crate) mod receipts;
pub(crate) mod reminders;
pub(crate) mod sandbox;
mod steps;

pub(crate) use steps::MoneySteps;
