//! The course player's pages (decision 025): an online course's contents
//! with the student's progress, a lesson, a quiz, a course taught by a
//! SCORM package, and the page of a course whose access ended.
//! Shown only to a student with access; anyone else gets "not found".

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::learning::access::Access;
use crate::learning::progress::Progress;
use crate::learning::quiz::QuizView;

/// The course a player page belongs to.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct LearnCourse {
    pub id: String,
    pub title: String,
    /// `/learn/{course}/`: its contents; every step's address is below it.
    pub player_url: String,
    /// Its page in the catalogue, to buy it again.
    pub catalogue_url: String,
    /// Staff's preview of a draft (decision 018): the pages as a student
    /// who has just started sees them, where nothing is recorded.
    pub preview: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum StepKind {
    Lesson,
    Quiz,
}

/// A lesson or quiz as the contents and the previous/next links name it.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct StepEntry {
    pub slug: String,
    pub title: String,
    pub kind: StepKind,
    /// `/learn/{course}/{step}/`.
    pub url: String,
    /// A lesson's reading time.
    pub minutes: Option<u32>,
    /// A lesson completed, or a quiz passed.
    pub done: bool,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct LearnModule {
    pub title: String,
    /// Its lessons in order, then its quiz.
    pub steps: Vec<StepEntry>,
}

/// `/learn/{course}/`: the contents, progress and where to continue.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct LearnPage {
    pub course: LearnCourse,
    pub access: Access,
    pub progress: Progress,
    pub modules: Vec<LearnModule>,
    pub assessment: Option<StepEntry>,
    /// The step "Continue" (or "Start") opens.
    pub resume: Option<StepEntry>,
    /// The number of the course's certificate, once completed.
    pub certificate: Option<String>,
}

/// A lesson's video: an uploaded file, or a player of a video host.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(tag = "source", rename_all = "camelCase")]
#[ts(export)]
pub enum LessonVideo {
    File { url: String },
    Embed { url: String },
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct LessonDownload {
    pub title: String,
    pub url: String,
    /// A course file's format ("PDF", "MP3") and size in bytes, shown
    /// beside its title; none for an image of the media library.
    pub format: Option<String>,
    #[ts(type = "number | null")]
    pub bytes: Option<u64>,
}

/// `/learn/{course}/{lesson}/`: one lesson, rendered by the server.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct LessonPage {
    pub course: LearnCourse,
    pub module: String,
    pub slug: String,
    pub title: String,
    pub minutes: u32,
    /// The lesson's Markdown as HTML, sanitised by the server's renderer.
    pub html: String,
    pub video: Option<LessonVideo>,
    pub downloads: Vec<LessonDownload>,
    pub done: bool,
    pub previous: Option<StepEntry>,
    pub next: Option<StepEntry>,
    pub percent: u8,
}

/// `/learn/{course}/{quiz}/`: a module quiz or the final assessment, its
/// questions without their answers.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct QuizPage {
    pub course: LearnCourse,
    /// The module it closes; `None` for the final assessment.
    pub module: Option<String>,
    pub quiz: QuizView,
    pub attempts_used: u32,
    /// `None` when attempts are not limited.
    pub attempts_left: Option<u32>,
    pub best_score: Option<u8>,
    pub passed: bool,
    pub next: Option<StepEntry>,
    /// Where the answers go to be marked: the player's attempts, or a
    /// preview's marking that records nothing.
    pub attempts_url: String,
}

/// `/learn/{course}/` of a course taught by a SCORM package (decision
/// 026): the package runs in a frame the page opens once it is in the
/// browser.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ScormCoursePage {
    pub course: LearnCourse,
    pub access: Access,
    /// The package's own title, from its manifest.
    pub package_title: String,
    pub percent: u8,
    pub complete: bool,
    /// Whether the student has begun it (so it resumes, not starts).
    pub started: bool,
    /// The number of the course's certificate, once completed.
    pub certificate: Option<String>,
}

/// `/learn/{course}/` of a course a hosted LMS teaches (decision 029): a
/// button that asks the server for the student's launch address there.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ProviderCoursePage {
    pub course: LearnCourse,
    pub access: Access,
    /// The provider's name: "Coassemble".
    pub provider: String,
    /// Where the "Open your course" form posts: `/learn/{course}/open`.
    pub open_url: String,
    /// Why the last "Open your course" did not open it, in one sentence.
    pub problem: Option<String>,
    /// The number of the course's certificate, once completed.
    pub certificate: Option<String>,
}

/// `/learn/{course}/` (and its steps) once the student's access ended.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseClosedPage {
    pub course: LearnCourse,
    pub access: Access,
    /// What the student is told, in one sentence.
    pub message: String,
    /// Whether the course is still sold, to buy it again.
    pub on_sale: bool,
}
