//! Orders: bookings of in-person courses and e-learning orders, from the
//! checkout that makes them to what the payment provider's events do to
//! them, their cancellations, what each buyer agreed to, requests carried
//! out once, how staff find them, and online orders given back line by
//! line. The steps its transactions take are [`OrderSteps`].

/// The count of a client's unpaid orders holding seats at `$instant`:
/// those whose `$column` (`client_key`, the address, or
/// `owner_token_hash`, the browser) is `$client`, read through that
/// column's index. The one rule for which orders a client has at work,
/// shared by the order step's count under the client's limit
/// (`LIVE_ORDERS_OF_CLIENT`) and the job that forgets the clients with none
/// (`QUIET_CLIENTS`), so the job never forgets a client the order step
/// still counts under.
macro_rules! unpaid_orders_holding_seats {
    ($column:literal, $client:literal, $instant:literal) => {
        concat!(
            "(select count(*) from enrollment e where e.",
            $column,
            " = ",
            $client,
            " and e.status = 'pending' and e.held_until > ",
            $instant,
            ")"
        )
    };
}

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
