//! Discount codes: what a code takes off and which courses it reaches, the
//! uses orders hold of it, and the codes as staff set them up (the
//! bookings that used each are `crate::orders::by_code`). The steps its transactions take are
//! [`CodeSteps`].

pub(crate) mod discount;
pub(crate) mod setup;
mod steps;

pub(crate) use steps::CodeSteps;
