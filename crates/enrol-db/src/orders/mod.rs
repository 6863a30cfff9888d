//! Orders: bookings of in-person courses and e-learning orders, from the
//! checkout that makes them to what the payment provider's events do to
//! them, their cancellations, what each buyer agreed to, requests carried
//! out once, how staff find them, and online orders given back line by
//! line. The steps its transactions take are [`OrderSteps`].

pub(crate) mod actor;
pub(crate) mod by_code;
pub(crate) mod cancellations;
pub(crate) mod checkout;
pub(crate) mod consents;
pub(crate) mod date_changes;
pub(crate) mod enrollments;
pub(crate) mod fulfilment;
pub(crate) mod idempotency;
pub(crate) mod online_orders;
pub(crate) mod online_refunds;
pub(crate) mod online_search;
pub(crate) mod search;
mod steps;
pub(crate) mod tasks;

pub(crate) use steps::OrderSteps;
