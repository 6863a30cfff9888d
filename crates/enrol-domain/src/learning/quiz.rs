//! A quiz as a student takes it: shown without its answers, marked on the
//! server, and limited to the attempts it allows.
//!
//! An attempt that leaves a question unanswered is refused, not marked:
//! the student is told which questions are left and the attempt is not
//! counted, so a question scrolled past costs no attempt at a final
//! assessment that allows only a few.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::curriculum::{Question, QuestionKind, Quiz};

/// A quiz as the browser gets it before it is answered: the questions and
/// their choices, and nothing that tells which are right.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct QuizView {
    pub slug: String,
    pub title: String,
    /// The score that passes, in per cent.
    pub pass_mark: u8,
    pub max_attempts: Option<u32>,
    pub questions: Vec<QuestionView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct QuestionView {
    pub key: String,
    pub prompt: String,
    pub kind: QuestionKind,
    pub choices: Vec<ChoiceView>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ChoiceView {
    pub key: String,
    pub text: String,
}

impl QuizView {
    pub fn of(quiz: &Quiz) -> Self {
        QuizView {
            slug: quiz.slug.clone(),
            title: quiz.title.clone(),
            pass_mark: quiz.pass_mark,
            max_attempts: quiz.max_attempts,
            questions: quiz
                .questions
                .iter()
                .map(|question| QuestionView {
                    key: question.key.clone(),
                    prompt: question.prompt.clone(),
                    kind: question.kind,
                    choices: question
                        .choices
                        .iter()
                        .map(|choice| ChoiceView { key: choice.key.clone(), text: choice.text.clone() })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A student's answers: the keys of the choices chosen, by question key.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(transparent)]
#[ts(export)]
pub struct Answers(pub BTreeMap<String, Vec<String>>);

impl Answers {
    /// The choices chosen for question `key`; none when it is not answered.
    fn chosen(&self, key: &str) -> &[String] {
        self.0.get(key).map_or(&[], Vec::as_slice)
    }
}

/// A marked attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Graded {
    /// The questions answered right, in per cent of all, rounded down.
    pub score: u8,
    /// Whether `score` reaches the quiz's pass mark.
    pub passed: bool,
    /// Each question, in the quiz's order.
    pub results: Vec<QuestionResult>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct QuestionResult {
    pub key: String,
    pub correct: bool,
    pub explanation: Option<String>,
}

/// A question left unanswered: its number (from 1) and key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unanswered {
    pub number: usize,
    pub key: String,
}

/// Why answers are not marked. Unknown keys come from a page older than
/// the quiz (or a forged request); the others from the student.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerRefused {
    #[error("This quiz has changed since you opened it. Please reload the page and answer it again.")]
    UnknownQuestion { key: String },
    #[error("This quiz has changed since you opened it. Please reload the page and answer it again.")]
    UnknownChoice { question: String, choice: String },
    /// More than one choice (or one choice twice) for a single-choice question.
    #[error("Question {number} takes one answer only.")]
    OneChoiceOnly { number: usize, key: String },
    /// Every question left unanswered, in the quiz's order.
    #[error("Answer {} before you submit.", questions_named(.0))]
    Unanswered(Vec<Unanswered>),
}

/// `question 3`, `questions 2 and 5`, `questions 1, 4 and 6`.
fn questions_named(unanswered: &[Unanswered]) -> String {
    let numbers: Vec<String> = unanswered.iter().map(|question| question.number.to_string()).collect();
    match numbers.as_slice() {
        [one] => format!("question {one}"),
        [rest @ .., last] => format!("questions {} and {last}", rest.join(", ")),
        [] => "every question".to_owned(),
    }
}

/// Marks `answers` to `quiz`, or refuses them: first for a question or
/// choice the quiz does not have, then for a single-choice question given
/// more than one choice, then naming every question left unanswered.
/// A multiple-choice answer is right only when it chooses exactly the
/// correct choices.
pub fn grade(quiz: &Quiz, answers: &Answers) -> Result<Graded, AnswerRefused> {
    for (key, chosen) in &answers.0 {
        let question = quiz.questions.iter().find(|question| &question.key == key);
        let question = question.ok_or_else(|| AnswerRefused::UnknownQuestion { key: key.clone() })?;
        if let Some(choice) = chosen.iter().find(|chosen| !question.choices.iter().any(|choice| &choice.key == *chosen)) {
            return Err(AnswerRefused::UnknownChoice { question: key.clone(), choice: choice.clone() });
        }
    }
    let numbered = || quiz.questions.iter().enumerate().map(|(at, question)| (at + 1, question));
    if let Some((number, question)) =
        numbered().find(|(_, question)| question.kind == QuestionKind::Single && answers.chosen(&question.key).len() > 1)
    {
        return Err(AnswerRefused::OneChoiceOnly { number, key: question.key.clone() });
    }
    let unanswered: Vec<Unanswered> = numbered()
        .filter(|(_, question)| answers.chosen(&question.key).is_empty())
        .map(|(number, question)| Unanswered { number, key: question.key.clone() })
        .collect();
    if !unanswered.is_empty() {
        return Err(AnswerRefused::Unanswered(unanswered));
    }
    let results: Vec<QuestionResult> = quiz
        .questions
        .iter()
        .map(|question| QuestionResult {
            key: question.key.clone(),
            correct: is_right(question, answers.chosen(&question.key)),
            explanation: question.explanation.clone(),
        })
        .collect();
    let right = results.iter().filter(|result| result.correct).count();
    let score = u8::try_from((right * 100).checked_div(results.len()).unwrap_or(0)).unwrap_or(100);
    Ok(Graded { score, passed: !results.is_empty() && score >= quiz.pass_mark, results })
}

/// Whether `chosen` is exactly the question's correct choices.
fn is_right(question: &Question, chosen: &[String]) -> bool {
    let correct: BTreeSet<&str> = question.choices.iter().filter(|choice| choice.correct).map(|choice| choice.key.as_str()).collect();
    let chosen: BTreeSet<&str> = chosen.iter().map(String::as_str).collect();
    chosen == correct
}

/// Every attempt a quiz allows has been used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("You have used {} at this quiz. Please contact your tutor, who will talk you through what comes next.", attempts_named(*.allowed))]
pub struct AttemptsUsed {
    pub allowed: u32,
}

/// `your one attempt`, `all 3 attempts`.
fn attempts_named(allowed: u32) -> String {
    if allowed == 1 { "your one attempt".to_owned() } else { format!("all {allowed} attempts") }
}

/// Whether a student who has used `attempts_used` attempts may try again
/// at a quiz allowing `max_attempts` (`None`: any number).
pub fn may_attempt(max_attempts: Option<u32>, attempts_used: u32) -> Result<(), AttemptsUsed> {
    match max_attempts {
        Some(allowed) if attempts_used >= allowed => Err(AttemptsUsed { allowed }),
        _ => Ok(()),
    }
}

/// The attempts left, for the page to say so; `None` when there is no limit.
pub fn attempts_left(max_attempts: Option<u32>, attempts_used: u32) -> Option<u32> {
    max_attempts.map(|allowed| allowed.saturating_sub(attempts_used))
}

#[cfg(test)]
mod tests;
