//! How far a student has got through an online course, from what the
//! server keeps of their study and the curriculum as it is now.
//!
//! - **Steps.** Every lesson and every quiz (the modules' and the final
//!   assessment) is one step; the percentage is the steps done, rounded
//!   down, so it reads 100 only when nothing is left.
//! - **Complete.** Every lesson completed and the final assessment passed
//!   (every lesson, when the course has none), as the course page
//!   promises. Module quizzes count towards the percentage and a module's
//!   status, but are not needed to complete: they check understanding
//!   along the way, and the final assessment covers every module. A
//!   complete course reads 100%.
//! - **A SCORM course** (decision 026) has no steps of ours: it reads 0
//!   until its package's runtime commits anything, 100 once that
//!   completes it, and in between the package's own measure when a 2004
//!   package sends `progress_measure` (at most 99), else 50 ([`package_percent`]).
//! - **Outdated records.** Lessons and quizzes no longer in the
//!   curriculum are ignored, as is a slug recorded as the wrong kind.

use std::collections::BTreeSet;

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use super::curriculum::{Curriculum, Module, Step};
use super::scorm::runtime::Cmi;

/// What the server keeps of one student's study of one course.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StudyRecord {
    pub lessons_completed: BTreeSet<String>,
    pub quizzes_passed: BTreeSet<String>,
    /// The lesson the student last opened.
    pub last_lesson: Option<String>,
}

impl StudyRecord {
    fn has_done(&self, step: Step<'_>) -> bool {
        match step {
            Step::Lesson(lesson) => self.lessons_completed.contains(&lesson.slug),
            Step::Quiz(quiz) => self.quizzes_passed.contains(&quiz.slug),
        }
    }
}

/// Whether `record` completes the course: every lesson completed and the
/// final assessment, if it has one, passed. A course without lessons is
/// never complete.
pub fn is_complete(curriculum: &Curriculum, record: &StudyRecord) -> bool {
    curriculum.lessons().next().is_some()
        && curriculum.lessons().all(|lesson| record.lessons_completed.contains(&lesson.slug))
        && curriculum.assessment.as_ref().is_none_or(|assessment| record.quizzes_passed.contains(&assessment.slug))
}

/// The steps done, in per cent of all, rounded down; 100 once complete.
pub fn percent(curriculum: &Curriculum, record: &StudyRecord) -> u8 {
    if is_complete(curriculum, record) {
        return 100;
    }
    let (done, all) = curriculum.steps().fold((0_usize, 0_usize), |(done, all), step| (done + usize::from(record.has_done(step)), all + 1));
    u8::try_from((done * 100).checked_div(all).unwrap_or(0)).unwrap_or(100)
}

/// A SCORM course's percentage, from what its runtime committed (`cmi`)
/// and whether that ever completed the course.
pub fn package_percent(cmi: Option<&Cmi>, complete: bool) -> u8 {
    match cmi {
        _ if complete => 100,
        Some(cmi) if cmi.started() || cmi.progress_measure.is_some() => cmi.progress_percent().map_or(50, |percent| percent.min(99)),
        _ => 0,
    }
}

/// Where "Continue" takes the student: the lesson they last opened while
/// it is not completed; else, until the course is complete, the first step
/// not done after that lesson, or from the start; else the last lesson.
/// `None` only for a curriculum without lessons.
pub fn resume<'a>(curriculum: &'a Curriculum, record: &StudyRecord) -> Option<Step<'a>> {
    let last = record.last_lesson.as_deref().and_then(|slug| curriculum.lesson(slug));
    if let Some(lesson) = last.filter(|lesson| !record.lessons_completed.contains(&lesson.slug)) {
        return Some(Step::Lesson(lesson));
    }
    let last_lesson = || curriculum.lessons().last().map(Step::Lesson);
    if is_complete(curriculum, record) {
        return last_lesson();
    }
    let not_done = |step: &Step<'_>| !record.has_done(*step);
    let after_last = last.and_then(|last| curriculum.steps().skip_while(|step| step.slug() != last.slug).skip(1).find(not_done));
    after_last.or_else(|| curriculum.steps().find(not_done)).or_else(last_lesson)
}

/// Where a student is in one module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum ModuleStatus {
    /// Nothing done yet.
    NotStarted,
    InProgress,
    /// Every lesson completed; its quiz not yet passed.
    QuizToTake,
    /// Every lesson completed and its quiz, if it has one, passed.
    Complete,
}

/// One module's progress, for the course's contents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ModuleProgress {
    pub title: String,
    pub lessons: u32,
    pub lessons_completed: u32,
    /// Whether its quiz is passed; `None` when it has no quiz.
    pub quiz_passed: Option<bool>,
    pub status: ModuleStatus,
}

impl ModuleProgress {
    pub fn of(module: &Module, record: &StudyRecord) -> Self {
        let completed = module.lessons.iter().filter(|lesson| record.lessons_completed.contains(&lesson.slug)).count();
        let quiz_passed = module.quiz.as_ref().map(|quiz| record.quizzes_passed.contains(&quiz.slug));
        let status = match (completed == module.lessons.len(), quiz_passed) {
            (true, None | Some(true)) => ModuleStatus::Complete,
            (true, Some(false)) => ModuleStatus::QuizToTake,
            (false, _) if completed == 0 && quiz_passed != Some(true) => ModuleStatus::NotStarted,
            (false, _) => ModuleStatus::InProgress,
        };
        ModuleProgress {
            title: module.title.clone(),
            lessons: count(module.lessons.len()),
            lessons_completed: count(completed),
            quiz_passed,
            status,
        }
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A student's progress through a course, as the course player shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Progress {
    pub percent: u8,
    pub complete: bool,
    /// The slug of the step "Continue" opens (see [`resume`]).
    pub resume: Option<String>,
    pub modules: Vec<ModuleProgress>,
}

impl Progress {
    pub fn of(curriculum: &Curriculum, record: &StudyRecord) -> Self {
        Progress {
            percent: percent(curriculum, record),
            complete: is_complete(curriculum, record),
            resume: resume(curriculum, record).map(|step| step.slug().to_owned()),
            modules: curriculum.modules.iter().map(|module| ModuleProgress::of(module, record)).collect(),
        }
    }
}

#[cfg(test)]
mod tests;
