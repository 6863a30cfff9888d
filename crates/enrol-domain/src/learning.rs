//! The learning side of an online course (decision 023, `docs/product.md`,
//! learning records): what the course teaches ([`curriculum`]), how a quiz
//! is shown and marked ([`quiz`]), how far a student has got
//! ([`progress`]), whether they may study it now ([`access`]), the
//! reminder to finish an in-person course's theory ([`reminder`]), and the
//! SCORM packages a course may be taught by instead ([`scorm`]), or the
//! hosted LMS that teaches it in Enrol's place ([`provider`]). Pure
//! rules: the server reads the records, asks these and stores the answers.
//!
//! `curriculum` is the base: `quiz`, `progress` and `access` read it,
//! and not one another; `progress` reads what a package's runtime
//! committed from `scorm`, which reads nothing else here.

pub mod access;
pub mod course_file;
pub mod curriculum;
pub mod progress;
pub mod provider;
pub mod quiz;
pub mod reminder;
pub mod scorm;
