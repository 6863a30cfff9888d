//! Sessions and seats: the dates a course runs on as staff keep them, the
//! seats each holds and takes (counted by the database, decision 011),
//! and when and how they run; the counting itself is `crate::counting`. The steps its transactions take are
//! [`SeatSteps`].

pub(crate) mod sessions;
mod steps;
pub(crate) mod times;

pub(crate) use steps::{HOLD_A_SEAT, NewOrderHold, NewOrderSeats, SeatSteps};
