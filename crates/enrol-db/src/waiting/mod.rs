//! Waiting lists (decision 015): people waiting for a full date in the
//! order they joined, and the offers of freed seats that become bookings.

pub(crate) mod lists;
pub(crate) mod offers;
