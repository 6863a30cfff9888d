//! Records: what a student's training leaves. Their forms, evidence files
//! and intake call as they keep them in the account area, the records the
//! account data API reads, a session's roster and attendance, the
//! certificates issued, what a student has done of an online course (its
//! lessons and quizzes, or its SCORM package), who studies each course and
//! staff's changes to their access, and the demo students that show them.

pub(crate) mod access_changes;
pub(crate) mod account_area;
pub(crate) mod account_data;
pub(crate) mod completion;
pub(crate) mod demo;
pub(crate) mod feedback;
pub(crate) mod learners;
pub(crate) mod learning;
pub(crate) mod readiness;
pub(crate) mod readiness_jobs;
pub(crate) mod review;
pub(crate) mod rosters;
pub(crate) mod scorm;
pub(crate) mod student;
pub(crate) mod theory;
