//! The ledger: payments and refunds as they happen, the receipts and
//! credit notes that record them, the payment provider's events handled
//! once, and the sandbox gateway's hosted checkouts. Every transaction
//! that moves money takes its steps from here ([`MoneySteps`]), so orders,
//! balances and records all stand on it.

pub(crate) mod payments;
pub(crate) mod receipts;
pub(crate) mod sandbox;
mod steps;

pub use steps::BalanceLink;
pub(crate) use steps::MoneySteps;
