//! Sessions and seats: the dates a course runs on as staff keep them, the
//! seats each holds and takes (counted by the database, decision 011),
//! when and how they run, their waiting lists, and moving a booking from
//! one date to another. The steps its transactions take are
//! [`SeatSteps`].

pub(crate) mod counting;
pub(crate) mod date_changes;
pub(crate) mod offers;
pub(crate) mod sessions;
mod steps;
pub(crate) mod times;
pub(crate) mod waiting_lists;

pub(crate) use steps::SeatSteps;
