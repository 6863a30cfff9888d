//! Discount codes: what a code takes off and which courses it reaches, the
//! uses orders hold of it, and the codes as staff set them up with the
//! bookings that used each. The steps its transactions take are
//! [`CodeSteps`].

pub(crate) mod discount;
pub(crate) mod orders;
pub(crate) mod setup;
mod steps;

pub(crate) use steps::CodeSteps;
