//! A student's records as `POST /api/graphql` answers them (docs/product.md#data):
//! registrations, enrollments, payments, certificates, forms and their
//! answers, evidence uploads, cohorts, intake calls and invitations.
//!
//! Field names are the data model's (snake_case, as the college's earlier
//! GraphQL data service named them). Amounts are pence; dates `YYYY-MM-DD`; times London
//! wall-clock `YYYY-MM-DDTHH:MM:SS` (decision 002). With the `graphql`
//! feature each type is also a GraphQL object, so the API and the pages read
//! one definition.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// A seat a booking took on one session (a registration), with the session
/// it is for.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct Registration {
    pub id: String,
    pub event_id: String,
    pub enrollment_id: String,
    pub session_id: String,
    pub status: String,
    /// STUDENT, MODEL or CANCELLED.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "graphql", graphql(name = "type"))]
    pub kind: String,
    pub user_id: String,
    pub course_title: String,
    pub course_url: String,
    /// The session's first day, `YYYY-MM-DD`.
    pub date: String,
    pub start: String,
    pub end: String,
    /// onsite, virtual or blended.
    pub session_type: String,
    /// The session is today or later (London).
    pub upcoming: bool,
}

/// An enrollment: a booking and its money.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct Enrollment {
    pub id: String,
    /// pending, deposit, completed or failed.
    pub status: String,
    #[ts(type = "number")]
    pub total: i64,
    #[ts(type = "number")]
    pub deposit: i64,
    #[ts(type = "number")]
    pub balance: i64,
    pub deposit_required: bool,
    pub registered: bool,
    pub call: bool,
    pub created_at: String,
}

/// A payment.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct Payment {
    pub id: String,
    #[ts(type = "number")]
    pub amount: i64,
    pub status: String,
    pub currency: String,
    pub transaction_id: String,
    pub invoice_id: Option<String>,
    pub method: String,
    pub enrollment_id: Option<String>,
    pub created_at: String,
}

/// A certificate as issued: the holder's name and the course as they were.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct Certificate {
    pub id: String,
    /// Printed on the certificate and checked at `/certificates/{number}`.
    pub number: String,
    pub holder_name: String,
    pub course_title: String,
    pub issued_on: String,
    pub revoked: bool,
}

/// One answer of a form.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct FormResponse {
    pub question: String,
    pub answer: String,
}

/// A form a course needs before training, and the student's answers.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct UserForm {
    pub id: String,
    /// consultation or medical.
    pub kind: String,
    pub enrollment_id: Option<String>,
    pub course_title: String,
    pub client_complete: bool,
    pub completed_at: Option<String>,
    /// `YYYY-MM-DD` the form is due by, for a booking's form (decision 032).
    pub due_on: Option<String>,
    pub responses: Vec<FormResponse>,
    /// What the form asks, in order.
    pub questions: Vec<crate::forms::FormQuestion>,
}

/// A file a student sent.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct Upload {
    pub id: String,
    pub file_name: String,
    pub content_type: String,
    #[ts(type = "number")]
    pub size_bytes: i64,
    pub uploaded_at: String,
}

/// Evidence a course asks for (such as a Level 2 certificate), with the
/// files sent for it.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct UploadRequest {
    pub id: String,
    /// The booking that asked for it, when a booking did (decision 032).
    pub enrollment_id: Option<String>,
    pub title: String,
    pub description: String,
    /// requested, received, accepted or rejected.
    pub status: String,
    /// Why staff turned the last file down, when they did (decision 033).
    pub reason: String,
    /// `YYYY-MM-DD` the document is due by, for a booking's request (decision 032).
    pub due_on: Option<String>,
    pub uploads: Vec<Upload>,
}

/// A member of a cohort as another member sees them: staff by name, the
/// caller as themselves. Fellow students are counted, not named.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct CohortMember {
    pub name: String,
    /// STUDENT, TUTOR, ASSESSOR or IQA.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "graphql", graphql(name = "type"))]
    pub kind: String,
}

/// A cohort the caller belongs to, on its programme.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct Cohort {
    pub id: String,
    pub name: String,
    pub programme_title: Option<String>,
    pub programme_level: Option<i32>,
    pub starts_on: String,
    /// The caller's own role in it.
    pub member_type: String,
    pub members: Vec<CohortMember>,
    #[ts(type = "number")]
    pub student_count: i64,
}

/// An intake call: a call with an adviser before a programme starts.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct IntakeCall {
    pub id: String,
    pub student_id: String,
    pub date: String,
    /// London wall-clock `HH:MM`.
    pub time: String,
    /// booked, done or cancelled.
    pub status: String,
}

/// An invitation to join a cohort, sent to the caller's email.
#[derive(Debug, Clone, Serialize, TS)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct Invitation {
    pub id: String,
    pub cohort_name: String,
    #[serde(rename = "type")]
    #[cfg_attr(feature = "graphql", graphql(name = "type"))]
    pub kind: String,
    pub invited_at: String,
    pub accepted_at: Option<String>,
}

/// An instalment plan as its student reads it, in the account and on the
/// balance page (decision 036).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct StudentPlan {
    /// The booking (enrollment) it pays.
    pub enrollment_id: String,
    /// active, paused or completed.
    pub status: String,
    /// `Visa ending 4242`.
    pub card: String,
    pub parts: Vec<StudentPart>,
}

/// One part of a plan, as its student reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct StudentPart {
    pub number: u32,
    /// `YYYY-MM-DD`.
    pub due_on: String,
    /// Pence.
    #[ts(type = "number")]
    pub amount: i64,
    /// scheduled, charging, retrying, failed, paid or cancelled.
    pub status: String,
}
