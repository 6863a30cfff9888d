//! What an online course teaches, as staff write it: modules of lessons,
//! a quiz per module if they like and a final assessment. It is content
//! (decision 018): the pack's `learning/<course id>.yaml` and the body the
//! back office saves have this one shape, checked by [`check`]. It holds
//! the answers, so a quiz reaches a student's browser only as a
//! [`QuizView`](super::quiz::QuizView).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

mod check;
pub use check::{CHOICES, CurriculumProblem, Issue, MAX_ACCESS_MONTHS, Place, check};

/// An online course's teaching.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Curriculum {
    /// How long a student may study it, in calendar months from payment
    /// (see `learning::access::access_ends`).
    pub access_months: u32,
    pub modules: Vec<Module>,
    /// The final assessment: with every lesson completed, passing it
    /// completes the course.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub assessment: Option<Quiz>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Module {
    pub title: String,
    pub lessons: Vec<Lesson>,
    /// A check of the module's lessons, taken after them; it counts
    /// towards progress but is not needed to complete the course.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub quiz: Option<Quiz>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Lesson {
    /// Its address within the course, unique among its lessons and quizzes.
    pub slug: String,
    pub title: String,
    /// About how long it takes to study.
    pub minutes: u32,
    /// Markdown.
    #[serde(default)]
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub video: Option<Video>,
    #[serde(default)]
    pub downloads: Vec<Download>,
}

/// A lesson's video: a file the college uploaded, or one embedded from
/// YouTube or Vimeo by its id (no other host is embedded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "source", rename_all = "lowercase", deny_unknown_fields)]
#[ts(export)]
pub enum Video {
    /// A course file (`files/<key>.<ext>`, decision 028), an MP4 or WebM.
    Upload {
        file: String,
    },
    YouTube {
        id: String,
    },
    Vimeo {
        id: String,
    },
}

impl Video {
    /// The address of the player to embed; `None` for an uploaded file,
    /// which the page plays itself. YouTube's is its no-cookie player, which
    /// stores nothing before the student plays the video.
    pub fn embed_url(&self) -> Option<String> {
        match self {
            Video::Upload { .. } => None,
            Video::YouTube { id } => Some(format!("https://www.youtube-nocookie.com/embed/{id}")),
            Video::Vimeo { id } => Some(format!("https://player.vimeo.com/video/{id}")),
        }
    }
}

/// A file a lesson offers to download.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Download {
    pub title: String,
    /// A course file (`files/<key>.<ext>`, decision 028), served only to
    /// the course's students; or an image of the media library
    /// (`uploads/<key>.<ext>`) or of the content pack, which are public.
    pub file: String,
}

/// A module quiz or the final assessment, with its answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Quiz {
    /// Its address within the course, unique among its lessons and quizzes.
    pub slug: String,
    pub title: String,
    /// The score that passes, in per cent.
    pub pass_mark: u8,
    /// How many attempts a student has; `None`: as many as they like.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_attempts: Option<u32>,
    pub questions: Vec<Question>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Question {
    /// Unique within its quiz; the answers name it.
    pub key: String,
    pub prompt: String,
    pub kind: QuestionKind,
    pub choices: Vec<Choice>,
    /// Why the right answer is right, shown once the quiz is marked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub explanation: Option<String>,
}

/// Whether a question takes one choice or several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum QuestionKind {
    /// Exactly one choice is right.
    Single,
    /// One or more are right; the answer is right when it chooses exactly those.
    Multiple,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Choice {
    /// Unique within its question; the answers name it.
    pub key: String,
    pub text: String,
    #[serde(default)]
    pub correct: bool,
}

/// One step of the course in order: a lesson, or a quiz after its
/// module's lessons; the final assessment is the last step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    Lesson(&'a Lesson),
    Quiz(&'a Quiz),
}

impl<'a> Step<'a> {
    pub fn slug(self) -> &'a str {
        match self {
            Step::Lesson(lesson) => &lesson.slug,
            Step::Quiz(quiz) => &quiz.slug,
        }
    }

    pub fn title(self) -> &'a str {
        match self {
            Step::Lesson(lesson) => &lesson.title,
            Step::Quiz(quiz) => &quiz.title,
        }
    }
}

impl Curriculum {
    /// Every lesson, in course order.
    pub fn lessons(&self) -> impl Iterator<Item = &Lesson> {
        self.modules.iter().flat_map(|module| &module.lessons)
    }

    /// Every quiz: the modules' in order, then the final assessment.
    pub fn quizzes(&self) -> impl Iterator<Item = &Quiz> {
        self.modules.iter().filter_map(|module| module.quiz.as_ref()).chain(&self.assessment)
    }

    /// Every step, in course order: each module's lessons then its quiz,
    /// and last the final assessment.
    pub fn steps(&self) -> impl Iterator<Item = Step<'_>> {
        self.modules
            .iter()
            .flat_map(|module| module.lessons.iter().map(Step::Lesson).chain(module.quiz.as_ref().map(Step::Quiz)))
            .chain(self.assessment.as_ref().map(Step::Quiz))
    }

    pub fn lesson(&self, slug: &str) -> Option<&Lesson> {
        self.lessons().find(|lesson| lesson.slug == slug)
    }

    pub fn quiz(&self, slug: &str) -> Option<&Quiz> {
        self.quizzes().find(|quiz| quiz.slug == slug)
    }

    /// The module that holds the lesson or module quiz `slug`, by its place (from 0).
    pub fn module_of(&self, slug: &str) -> Option<usize> {
        self.modules.iter().position(|module| {
            module.lessons.iter().any(|lesson| lesson.slug == slug) || module.quiz.as_ref().is_some_and(|quiz| quiz.slug == slug)
        })
    }

    /// The lesson before lesson `slug`, across modules; `None` for the
    /// first lesson and for a slug that is not a lesson.
    pub fn lesson_before(&self, slug: &str) -> Option<&Lesson> {
        let lessons: Vec<&Lesson> = self.lessons().collect();
        let at = lessons.iter().position(|lesson| lesson.slug == slug)?;
        at.checked_sub(1).map(|before| lessons[before])
    }

    /// Every file the lessons play or offer, in course order (a file
    /// named twice comes twice).
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.lessons().flat_map(|lesson| {
            let video = match &lesson.video {
                Some(Video::Upload { file }) => Some(file.as_str()),
                _ => None,
            };
            video.into_iter().chain(lesson.downloads.iter().map(|download| download.file.as_str()))
        })
    }

    /// Whether a lesson plays or offers the file `name`: only course files
    /// so named are served to the course's students.
    pub fn names_file(&self, name: &str) -> bool {
        self.files().any(|file| file == name)
    }

    /// The lesson after lesson `slug`, across modules; `None` for the last
    /// lesson and for a slug that is not a lesson.
    pub fn lesson_after(&self, slug: &str) -> Option<&Lesson> {
        let mut lessons = self.lessons().skip_while(|lesson| lesson.slug != slug);
        lessons.next()?;
        lessons.next()
    }
}

#[cfg(test)]
pub(super) mod fixtures;
#[cfg(test)]
mod tests;
