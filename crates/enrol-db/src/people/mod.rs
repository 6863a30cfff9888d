//! People: students' accounts and their sessions, staff and the audit log
//! of what they change, enquiries from the site's forms with the inbox
//! staff work through and the mail outbox, and the newsletter's list. The
//! steps its transactions take are [`PeopleSteps`].

pub(crate) mod accounts;
pub(crate) mod allowance;
pub(crate) mod audit;
pub(crate) mod course_start;
pub(crate) mod enquiries;
pub(crate) mod inbox;
pub(crate) mod newsletter;
pub(crate) mod sign_in;
pub(crate) mod staff;
mod steps;

pub(crate) use steps::PeopleSteps;
