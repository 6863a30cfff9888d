//! Ready for training (issue 29, decision 032): what a course asks of each
//! booked student before its first day (forms, documents, an entry
//! requirement), by when, what a student still has to do, the reminders
//! that say so, and when a certificate may be issued. Pure rules: the
//! database keeps the tasks, the job sends the reminders.

pub mod mail;

use std::collections::BTreeMap;

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Days before the first day of training by which everything is due,
/// unless a course says otherwise.
pub const DEFAULT_DUE_DAYS: u32 = 7;
/// The most days before training a course may ask for things by.
pub const MAX_DUE_DAYS: u32 = 60;
/// The most documents one course asks for.
pub const MAX_DOCUMENTS: usize = 8;
/// The longest title and description of a document asked for.
const MAX_TITLE: usize = 120;
const MAX_DESCRIPTION: usize = 500;

/// A form a course asks each student to complete before training; its
/// questions are [`crate::forms::questions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum FormKind {
    Consultation,
    /// Special category data (UK GDPR): kept apart, read only by the roles allowed.
    Medical,
}

impl FormKind {
    /// As stored in `user_form.kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            FormKind::Consultation => "consultation",
            FormKind::Medical => "medical",
        }
    }

    /// From `user_form.kind`.
    pub fn parse(kind: &str) -> Option<FormKind> {
        [FormKind::Consultation, FormKind::Medical].into_iter().find(|form| form.as_str() == kind)
    }
}

/// A document a course asks each student to send, such as a Level 2
/// certificate or photo ID.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct AskedDocument {
    pub title: String,
    /// What the college accepts, in the student's words: shown under the title.
    #[serde(default)]
    pub description: String,
}

/// What a course asks of each booked student before training, in its
/// content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Requirements {
    #[serde(default)]
    pub forms: Vec<FormKind>,
    #[serde(default)]
    pub documents: Vec<AskedDocument>,
    /// Days before the first day of training by which all is due.
    #[serde(default = "default_due_days")]
    pub due_days_before: u32,
}

fn default_due_days() -> u32 {
    DEFAULT_DUE_DAYS
}

impl Default for Requirements {
    fn default() -> Self {
        Requirements { forms: Vec::new(), documents: Vec::new(), due_days_before: DEFAULT_DUE_DAYS }
    }
}

impl Requirements {
    /// Whether a course asks anything at all.
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty() && self.documents.is_empty()
    }

    /// What an editor must correct, by the field it is about
    /// (`readiness.documents.1.title`), so the form says it beside it.
    pub fn check(&self) -> BTreeMap<String, &'static str> {
        let mut errors = BTreeMap::new();
        let mut forms = self.forms.clone();
        forms.sort_unstable();
        forms.dedup();
        if forms.len() != self.forms.len() {
            errors.insert("readiness.forms".to_owned(), "Ask for each form once.");
        }
        if self.documents.len() > MAX_DOCUMENTS {
            errors.insert("readiness.documents".to_owned(), "Ask for at most 8 documents.");
        }
        let mut titles: Vec<String> = Vec::new();
        for (index, document) in self.documents.iter().enumerate() {
            let title = document.title.trim();
            let field = format!("readiness.documents.{index}.title");
            if title.is_empty() {
                errors.insert(field, "Name the document, for example “Photo ID”.");
            } else if title.chars().count() > MAX_TITLE {
                errors.insert(field, "Please keep the name under 120 characters.");
            } else if titles.iter().any(|seen| seen.eq_ignore_ascii_case(title)) {
                errors.insert(field, "This document is asked for already.");
            } else if document.description.chars().count() > MAX_DESCRIPTION {
                errors.insert(field, "Please keep its description under 500 characters.");
            }
            titles.push(title.to_owned());
        }
        if self.due_days_before > MAX_DUE_DAYS {
            errors.insert("readiness.due_days_before".to_owned(), "Ask for things at most 60 days before training.");
        }
        errors
    }

    /// When everything is due for a booking made on `booked_on` whose first
    /// day is `first_day`: the course's days before it, but never before the
    /// day of booking (a late booking has until its first day, not a day
    /// already past), and never after the first day.
    pub fn due_on(&self, first_day: NaiveDate, booked_on: NaiveDate) -> NaiveDate {
        let asked = first_day.checked_sub_days(Days::new(u64::from(self.due_days_before))).unwrap_or(first_day);
        asked.max(booked_on).min(first_day)
    }
}

/// Where a document a student was asked for stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum DocumentState {
    /// Nothing sent yet.
    Requested,
    /// Sent, waiting for staff to look.
    Received,
    Accepted,
    /// Sent and turned down, with a reason: the student sends another.
    Rejected,
}

impl DocumentState {
    /// As stored in `upload_request.status`.
    pub fn parse(status: &str) -> Self {
        match status {
            "received" => DocumentState::Received,
            "accepted" => DocumentState::Accepted,
            "rejected" => DocumentState::Rejected,
            _ => DocumentState::Requested,
        }
    }
}

/// Whether a course's entry requirement is met.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum EntryState {
    /// The course has none.
    None,
    /// Met: the online course that meets it completed, or a document accepted.
    Met,
    /// Not met yet.
    ToCheck,
}

/// Where one student's booking of one course stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The forms asked, each complete or not.
    pub forms: Vec<(FormKind, bool)>,
    /// The documents asked, by title, and where each stands.
    pub documents: Vec<(String, DocumentState)>,
    pub entry: EntryState,
    pub balance_paid: bool,
    /// Marked by the tutor: `None` until marked.
    pub attended: Option<bool>,
}

/// One thing still to do before training, for the student.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum Task {
    /// Complete this form.
    Form { form: FormKind },
    /// Send this document (again, after a rejection).
    Document { title: String, rejected: bool },
}

impl Standing {
    /// What the student still has to do: forms not complete, documents not
    /// sent or turned down. A document sent and waiting for staff is not
    /// the student's to do.
    pub fn to_do(&self) -> Vec<Task> {
        let forms = self.forms.iter().filter(|(_, complete)| !complete).map(|(form, _)| Task::Form { form: *form });
        let documents = self.documents.iter().filter_map(|(title, state)| match state {
            DocumentState::Requested => Some(Task::Document { title: title.clone(), rejected: false }),
            DocumentState::Rejected => Some(Task::Document { title: title.clone(), rejected: true }),
            DocumentState::Received | DocumentState::Accepted => None,
        });
        forms.chain(documents).collect()
    }

    /// Ready for training: every form complete, every document accepted,
    /// the entry requirement met and the balance paid.
    pub fn ready(&self) -> bool {
        self.forms.iter().all(|(_, complete)| *complete)
            && self.documents.iter().all(|(_, state)| *state == DocumentState::Accepted)
            && self.entry != EntryState::ToCheck
            && self.balance_paid
    }

    /// Whether a certificate may be issued, or the first reason it may not.
    pub fn certificate(&self) -> Result<(), NotYet> {
        if self.attended != Some(true) {
            return Err(NotYet::NotAttended);
        }
        if !self.balance_paid {
            return Err(NotYet::NotPaid);
        }
        if !self.ready() {
            return Err(NotYet::NotReady);
        }
        Ok(())
    }
}

/// Why a certificate cannot be issued yet, in words for staff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotYet {
    #[error("The student has not been marked as attending.")]
    NotAttended,
    #[error("The booking still owes its balance.")]
    NotPaid,
    #[error("A form, a document or the entry requirement is still outstanding.")]
    NotReady,
}

/// The reminders of what is still to do: a week and two days before the
/// deadline, each once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TaskReminder {
    Week,
    TwoDays,
}

impl TaskReminder {
    /// Latest first: the one a job that was down sends.
    const ALL: [TaskReminder; 2] = [TaskReminder::TwoDays, TaskReminder::Week];

    fn days_before(self) -> u64 {
        match self {
            TaskReminder::Week => 7,
            TaskReminder::TwoDays => 2,
        }
    }

    /// As stored with the reminder sent.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskReminder::Week => "week",
            TaskReminder::TwoDays => "two_days",
        }
    }
}

/// The reminder due `today` for a booking made on `booked_on` whose tasks
/// are due on `due_on`: only the latest stage reached (a job that was down
/// sends one reminder still true), none on the day of booking (the
/// account lists them from the moment it is paid) and none after the
/// deadline (the college calls instead).
pub fn reminder_due(today: NaiveDate, due_on: NaiveDate, booked_on: NaiveDate) -> Option<TaskReminder> {
    if today <= booked_on || today > due_on {
        return None;
    }
    TaskReminder::ALL.into_iter().find(|stage| due_on.checked_sub_days(Days::new(stage.days_before())).is_some_and(|from| from <= today))
}

/// The longest reason given for turning a document down.
pub const MAX_REASON: usize = 500;

/// Staff's verdict on a document a student sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Accept,
    /// Turned down: the reason is mailed to the student, who sends another.
    Reject {
        reason: String,
    },
}

impl Verdict {
    /// The verdict asked for, or what to correct: a document is turned down
    /// only with a reason the student can act on.
    pub fn new(accepted: bool, reason: &str) -> Result<Verdict, &'static str> {
        let reason = reason.trim();
        if accepted {
            return Ok(Verdict::Accept);
        }
        if reason.is_empty() {
            return Err("Say why, so the student knows what to send instead.");
        }
        if reason.chars().count() > MAX_REASON {
            return Err("Please keep the reason under 500 characters.");
        }
        Ok(Verdict::Reject { reason: reason.to_owned() })
    }

    /// As stored in `upload_request.status`.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::Accept => "accepted",
            Verdict::Reject { .. } => "rejected",
        }
    }
}

/// The day from which a booking's medical answers and files are removed:
/// `keep_days` after its last day of training (or after the day it was
/// cancelled, when it was).
pub fn removal_due(last_day: NaiveDate, keep_days: u32) -> NaiveDate {
    last_day.checked_add_days(Days::new(u64::from(keep_days))).unwrap_or(NaiveDate::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    fn asks(documents: &[&str]) -> Requirements {
        Requirements {
            forms: vec![FormKind::Consultation, FormKind::Medical],
            documents: documents.iter().map(|title| AskedDocument { title: (*title).to_owned(), description: String::new() }).collect(),
            due_days_before: 7,
        }
    }

    #[test]
    fn a_course_reads_its_requirements_from_its_content_with_a_week_by_default() {
        let read: Requirements = serde_yaml::from_str("forms: [medical]\ndocuments:\n  - title: Photo ID\n").unwrap();
        assert_eq!(read.forms, [FormKind::Medical]);
        assert_eq!(read.due_days_before, DEFAULT_DUE_DAYS);
        assert!(serde_yaml::from_str::<Requirements>("forms: [tattoo]").is_err(), "only the forms the site has");
        assert!(Requirements::default().is_empty());
    }

    #[test]
    fn an_editor_is_told_what_to_correct() {
        assert!(asks(&["Photo ID", "Level 2 certificate"]).check().is_empty());
        let mut twice = asks(&["Photo ID", "photo id", ""]);
        twice.forms.push(FormKind::Medical);
        twice.due_days_before = 90;
        let errors = twice.check();
        let said = |field: &str| errors.get(field).copied();
        assert_eq!(said("readiness.forms"), Some("Ask for each form once."));
        assert_eq!(said("readiness.documents.1.title"), Some("This document is asked for already."));
        assert_eq!(said("readiness.documents.2.title"), Some("Name the document, for example “Photo ID”."));
        assert_eq!(said("readiness.due_days_before"), Some("Ask for things at most 60 days before training."));
        let many: Vec<String> = (0..9).map(|n| format!("Document {n}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(asks(&many).check().contains_key("readiness.documents"));
    }

    #[test]
    fn things_are_due_a_week_before_training_but_never_before_the_booking_nor_after_the_first_day() {
        let course = asks(&[]);
        assert_eq!(course.due_on(day("2027-03-15"), day("2027-01-10")), day("2027-03-08"));
        assert_eq!(
            course.due_on(day("2027-03-15"), day("2027-03-12")),
            day("2027-03-12"),
            "a late booking has until today, not a day past"
        );
        let long = Requirements { due_days_before: 0, ..course };
        assert_eq!(long.due_on(day("2027-03-15"), day("2027-01-10")), day("2027-03-15"));
    }

    #[test]
    fn what_is_left_to_do_leaves_out_what_waits_for_staff() {
        let standing = Standing {
            forms: vec![(FormKind::Consultation, true), (FormKind::Medical, false)],
            documents: vec![
                ("Photo ID".to_owned(), DocumentState::Received),
                ("Level 2 certificate".to_owned(), DocumentState::Rejected),
                ("Insurance".to_owned(), DocumentState::Requested),
            ],
            entry: EntryState::None,
            balance_paid: true,
            attended: None,
        };
        assert_eq!(
            standing.to_do(),
            [
                Task::Form { form: FormKind::Medical },
                Task::Document { title: "Level 2 certificate".to_owned(), rejected: true },
                Task::Document { title: "Insurance".to_owned(), rejected: false },
            ]
        );
        assert!(!standing.ready());
    }

    #[test]
    fn a_certificate_needs_attendance_payment_and_every_requirement_accepted() {
        let mut standing = Standing {
            forms: vec![(FormKind::Medical, true)],
            documents: vec![("Photo ID".to_owned(), DocumentState::Accepted)],
            entry: EntryState::Met,
            balance_paid: true,
            attended: Some(true),
        };
        assert_eq!(standing.certificate(), Ok(()));
        assert!(standing.ready());
        standing.entry = EntryState::ToCheck;
        assert_eq!(standing.certificate(), Err(NotYet::NotReady));
        standing.entry = EntryState::Met;
        standing.documents[0].1 = DocumentState::Received;
        assert_eq!(standing.certificate(), Err(NotYet::NotReady), "a document sent but not yet accepted");
        standing.documents[0].1 = DocumentState::Accepted;
        standing.balance_paid = false;
        assert_eq!(standing.certificate(), Err(NotYet::NotPaid));
        standing.attended = Some(false);
        assert_eq!(standing.certificate(), Err(NotYet::NotAttended));
        standing.attended = None;
        assert_eq!(standing.certificate(), Err(NotYet::NotAttended));
    }

    #[test]
    fn a_document_is_turned_down_only_with_a_reason() {
        assert_eq!(Verdict::new(true, ""), Ok(Verdict::Accept));
        assert_eq!(Verdict::new(false, "  "), Err("Say why, so the student knows what to send instead."));
        assert_eq!(Verdict::new(false, " Blurred "), Ok(Verdict::Reject { reason: "Blurred".to_owned() }));
        assert!(Verdict::new(false, &"x".repeat(501)).is_err());
        assert_eq!(Verdict::new(false, "Blurred").unwrap().status(), "rejected");
    }

    #[test]
    fn special_data_is_removed_the_days_kept_after_training() {
        assert_eq!(removal_due(day("2027-03-15"), 90), day("2027-06-13"));
        assert_eq!(removal_due(day("2027-03-15"), 0), day("2027-03-15"));
    }

    #[test]
    fn reminders_go_a_week_and_two_days_before_the_deadline_the_latest_only() {
        let (due, booked) = (day("2027-03-08"), day("2027-01-10"));
        assert_eq!(reminder_due(day("2027-02-28"), due, booked), None);
        assert_eq!(reminder_due(day("2027-03-01"), due, booked), Some(TaskReminder::Week));
        assert_eq!(reminder_due(day("2027-03-05"), due, booked), Some(TaskReminder::Week));
        assert_eq!(reminder_due(day("2027-03-06"), due, booked), Some(TaskReminder::TwoDays));
        assert_eq!(reminder_due(day("2027-03-08"), due, booked), Some(TaskReminder::TwoDays), "on the day itself");
        assert_eq!(reminder_due(day("2027-03-09"), due, booked), None, "after the deadline the college calls");
        assert_eq!(reminder_due(day("2027-03-07"), due, day("2027-03-07")), None, "none on the day of booking");
    }
}
