//! What a curriculum must be to be published: every problem found, each
//! with where it is, so staff can mend them all in one go.

use std::collections::HashSet;
use std::fmt;

use super::{Curriculum, Lesson, Question, QuestionKind, Quiz, Video};
use crate::learning::course_file::{is_course_file, parse_file_name};
use crate::slug::is_slug;

/// The longest access sold, in months.
pub const MAX_ACCESS_MONTHS: u32 = 60;
/// The fewest and most choices a question may offer.
pub const CHOICES: std::ops::RangeInclusive<usize> = 2..=8;

/// One thing to mend, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurriculumProblem {
    pub place: Place,
    /// The field of the curriculum's body it concerns, by the body's own
    /// names with list items numbered from 0 (`modules.1.lessons.0.slug`),
    /// so an editor shows the message beside that field.
    pub field: String,
    pub issue: Issue,
}

/// Where a problem is. Modules, lessons and questions are numbered from 1
/// as staff count them; a lesson, quiz or question is named by its slug or
/// key, or by its number when it has none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Course,
    Module {
        module: usize,
    },
    Lesson {
        module: usize,
        number: usize,
        slug: String,
    },
    /// A module's quiz, or the final assessment when `module` is `None`.
    Quiz {
        module: Option<usize>,
        slug: String,
    },
    Question {
        module: Option<usize>,
        quiz: String,
        number: usize,
        key: String,
    },
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Issue {
    AccessMonths(u32),
    NoModules,
    NoLessons,
    NoTitle,
    NoMinutes,
    /// A lesson with neither text nor a video.
    NothingToStudy,
    /// Not lower-case letters, digits and single hyphens.
    NotASlug(String),
    /// A slug another lesson or quiz has, or a key another question or choice of the same place has.
    Twice(String),
    /// A download without a title, by its file.
    UntitledDownload(String),
    /// Not a file name (empty parts, `..`, a leading `/`, spaces).
    NotAFile(String),
    /// An uploaded video that is not a course file of a video kind.
    NotAVideoFile(String),
    NotAVideoId(String),
    PassMark(u8),
    NoAttempts,
    NoQuestions,
    NoPrompt,
    ChoiceCount(usize),
    /// A choice without words, by its number from 1.
    NoChoiceText(usize),
    /// A single-choice question with other than one correct choice.
    SingleCorrect(usize),
    /// A multiple-choice question with no correct choice.
    NoneCorrect,
}

/// Every problem of `curriculum`, in the order they appear; `Ok` when it
/// has none.
pub fn check(curriculum: &Curriculum) -> Result<(), Vec<CurriculumProblem>> {
    let mut found = Problems { list: Vec::new(), slugs: HashSet::new() };
    if !(1..=MAX_ACCESS_MONTHS).contains(&curriculum.access_months) {
        found.add(Place::Course, "access_months", Issue::AccessMonths(curriculum.access_months));
    }
    if curriculum.modules.is_empty() {
        found.add(Place::Course, "modules", Issue::NoModules);
    }
    for (at, module) in curriculum.modules.iter().enumerate() {
        let place = Place::Module { module: at + 1 };
        if module.title.trim().is_empty() {
            found.add(place.clone(), format!("modules.{at}.title"), Issue::NoTitle);
        }
        if module.lessons.is_empty() {
            found.add(place, format!("modules.{at}.lessons"), Issue::NoLessons);
        }
        for (number, lesson) in module.lessons.iter().enumerate() {
            let place = Place::Lesson { module: at + 1, number: number + 1, slug: lesson.slug.clone() };
            found.lesson(At { place, field: format!("modules.{at}.lessons.{number}") }, lesson);
        }
        if let Some(quiz) = &module.quiz {
            found.quiz(Some(at + 1), format!("modules.{at}.quiz"), quiz);
        }
    }
    if let Some(assessment) = &curriculum.assessment {
        found.quiz(None, "assessment".to_owned(), assessment);
    }
    if found.list.is_empty() { Ok(()) } else { Err(found.list) }
}

/// A lesson, quiz or question: where staff read it is, and the body's
/// path to it.
struct At {
    place: Place,
    field: String,
}

struct Problems<'a> {
    list: Vec<CurriculumProblem>,
    /// The lessons' and quizzes' slugs seen so far.
    slugs: HashSet<&'a str>,
}

impl<'a> Problems<'a> {
    fn add(&mut self, place: Place, field: impl Into<String>, issue: Issue) {
        self.list.push(CurriculumProblem { place, field: field.into(), issue });
    }

    /// A problem of the part of `at` named `part`.
    fn of(&mut self, at: &At, part: &str, issue: Issue) {
        self.add(at.place.clone(), format!("{}.{part}", at.field), issue);
    }

    fn slug(&mut self, at: &At, slug: &'a str) {
        if !is_slug(slug) {
            self.of(at, "slug", Issue::NotASlug(slug.to_owned()));
        } else if !self.slugs.insert(slug) {
            self.of(at, "slug", Issue::Twice(slug.to_owned()));
        }
    }

    fn title(&mut self, at: &At, title: &str) {
        if title.trim().is_empty() {
            self.of(at, "title", Issue::NoTitle);
        }
    }

    fn lesson(&mut self, at: At, lesson: &'a Lesson) {
        self.slug(&at, &lesson.slug);
        self.title(&at, &lesson.title);
        if lesson.minutes == 0 {
            self.of(&at, "minutes", Issue::NoMinutes);
        }
        if lesson.body.trim().is_empty() && lesson.video.is_none() {
            self.of(&at, "body", Issue::NothingToStudy);
        }
        match &lesson.video {
            Some(Video::Upload { file }) if file.is_empty() => self.of(&at, "video", Issue::NotAFile(file.clone())),
            Some(Video::Upload { file }) if !parse_file_name(file).is_some_and(|(_, kind)| kind.is_video() && is_course_file(file)) => {
                self.of(&at, "video", Issue::NotAVideoFile(file.clone()));
            }
            Some(Video::YouTube { id }) if !is_youtube_id(id) => self.of(&at, "video", Issue::NotAVideoId(id.clone())),
            Some(Video::Vimeo { id }) if !is_vimeo_id(id) => self.of(&at, "video", Issue::NotAVideoId(id.clone())),
            _ => {}
        }
        for (number, download) in lesson.downloads.iter().enumerate() {
            if download.title.trim().is_empty() {
                self.of(&at, &format!("downloads.{number}.title"), Issue::UntitledDownload(download.file.clone()));
            }
            if !is_file_name(&download.file) {
                self.of(&at, &format!("downloads.{number}.file"), Issue::NotAFile(download.file.clone()));
            }
        }
    }

    fn quiz(&mut self, module: Option<usize>, field: String, quiz: &'a Quiz) {
        let at = At { place: Place::Quiz { module, slug: quiz.slug.clone() }, field };
        self.slug(&at, &quiz.slug);
        self.title(&at, &quiz.title);
        if !(1..=100).contains(&quiz.pass_mark) {
            self.of(&at, "pass_mark", Issue::PassMark(quiz.pass_mark));
        }
        if quiz.max_attempts == Some(0) {
            self.of(&at, "max_attempts", Issue::NoAttempts);
        }
        if quiz.questions.is_empty() {
            self.of(&at, "questions", Issue::NoQuestions);
        }
        let mut keys = HashSet::new();
        for (number, question) in quiz.questions.iter().enumerate() {
            let place = Place::Question { module, quiz: quiz.slug.clone(), number: number + 1, key: question.key.clone() };
            let question_at = At { place, field: format!("{}.questions.{number}", at.field) };
            self.key(&question_at, "key", &mut keys, &question.key);
            self.question(&question_at, question);
        }
    }

    /// A question's or choice's key: a slug, once among its fellows.
    fn key<'k>(&mut self, at: &At, part: &str, seen: &mut HashSet<&'k str>, key: &'k str) {
        if !is_slug(key) {
            self.of(at, part, Issue::NotASlug(key.to_owned()));
        } else if !seen.insert(key) {
            self.of(at, part, Issue::Twice(key.to_owned()));
        }
    }

    fn question(&mut self, at: &At, question: &Question) {
        if question.prompt.trim().is_empty() {
            self.of(at, "prompt", Issue::NoPrompt);
        }
        if !CHOICES.contains(&question.choices.len()) {
            self.of(at, "choices", Issue::ChoiceCount(question.choices.len()));
        }
        let mut keys = HashSet::new();
        for (number, choice) in question.choices.iter().enumerate() {
            self.key(at, &format!("choices.{number}.key"), &mut keys, &choice.key);
            if choice.text.trim().is_empty() {
                self.of(at, &format!("choices.{number}.text"), Issue::NoChoiceText(number + 1));
            }
        }
        let correct = question.choices.iter().filter(|choice| choice.correct).count();
        match question.kind {
            QuestionKind::Single if correct != 1 => self.of(at, "choices", Issue::SingleCorrect(correct)),
            QuestionKind::Multiple if correct == 0 => self.of(at, "choices", Issue::NoneCorrect),
            _ => {}
        }
    }
}

/// A file's name as content names files: `/`-separated parts, none empty
/// or `.`/`..`, without spaces, backslashes or a scheme.
fn is_file_name(file: &str) -> bool {
    file.split('/').all(|part| !part.is_empty() && part != "." && part != "..")
        && file.chars().all(|c| c.is_ascii_graphic() && c != '\\' && c != ':')
}

/// YouTube's ids: eleven letters, digits, `-` or `_`.
fn is_youtube_id(id: &str) -> bool {
    id.len() == 11 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Vimeo's ids: digits.
fn is_vimeo_id(id: &str) -> bool {
    (1..=20).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_digit())
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn named(name: &str, number: usize) -> String {
            if name.is_empty() { number.to_string() } else { format!("'{name}'") }
        }
        fn quiz(f: &mut fmt::Formatter<'_>, module: Option<usize>, slug: &str) -> fmt::Result {
            match module {
                Some(module) => write!(f, "Module {module}, quiz")?,
                None => f.write_str("The final assessment")?,
            }
            if slug.is_empty() { Ok(()) } else { write!(f, " '{slug}'") }
        }
        match self {
            Place::Course => f.write_str("The course"),
            Place::Module { module } => write!(f, "Module {module}"),
            Place::Lesson { module, number, slug } => write!(f, "Module {module}, lesson {}", named(slug, *number)),
            Place::Quiz { module, slug } => quiz(f, *module, slug),
            Place::Question { module, quiz: slug, number, key } => {
                quiz(f, *module, slug)?;
                write!(f, ", question {}", named(key, *number))
            }
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Issue::AccessMonths(months) => write!(f, "access must last 1 to {MAX_ACCESS_MONTHS} months, not {months}."),
            Issue::NoModules => f.write_str("add at least one module."),
            Issue::NoLessons => f.write_str("add at least one lesson."),
            Issue::NoTitle => f.write_str("give it a title."),
            Issue::NoMinutes => f.write_str("say how many minutes it takes."),
            Issue::NothingToStudy => f.write_str("add its text or a video."),
            Issue::NotASlug(slug) if slug.is_empty() => f.write_str("give it a slug of lower-case letters, digits and single hyphens."),
            Issue::NotASlug(slug) => write!(f, "'{slug}' must be lower-case letters, digits and single hyphens."),
            Issue::Twice(slug) => write!(f, "'{slug}' is used twice."),
            Issue::UntitledDownload(file) => write!(f, "give the download '{file}' a title."),
            Issue::NotAFile(file) if file.is_empty() => f.write_str("give the file's name."),
            Issue::NotAFile(file) => write!(f, "'{file}' is not a file's name."),
            Issue::NotAVideoFile(file) => write!(f, "'{file}' is not an uploaded video: choose an MP4 or WebM course file."),
            Issue::NotAVideoId(id) if id.is_empty() => f.write_str("give the video's id."),
            Issue::NotAVideoId(id) => write!(f, "'{id}' is not a video's id."),
            Issue::PassMark(mark) => write!(f, "the pass mark must be 1 to 100 per cent, not {mark}."),
            Issue::NoAttempts => f.write_str("allow at least one attempt, or no limit."),
            Issue::NoQuestions => f.write_str("add at least one question."),
            Issue::NoPrompt => f.write_str("write the question."),
            Issue::ChoiceCount(count) => write!(f, "offer {} to {} choices, not {count}.", CHOICES.start(), CHOICES.end()),
            Issue::NoChoiceText(number) => write!(f, "choice {number} has no text."),
            Issue::SingleCorrect(count) => write!(f, "a single-choice question needs exactly one correct choice, not {count}."),
            Issue::NoneCorrect => f.write_str("mark at least one choice correct."),
        }
    }
}

impl CurriculumProblem {
    /// What is wrong, as a sentence to show beside its field: `Give it a title.`
    pub fn message(&self) -> String {
        let issue = self.issue.to_string();
        let mut letters = issue.chars();
        letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_default()
    }
}

/// `Module 2, lesson 'skin-layers': give it a title.`
impl fmt::Display for CurriculumProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.issue)
    }
}

#[cfg(test)]
mod tests;
