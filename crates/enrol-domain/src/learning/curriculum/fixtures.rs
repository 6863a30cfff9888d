//! One small course the learning side's tests read, and the parts to
//! build variations of it.

use super::{Choice, Curriculum, Lesson, Module, Question, QuestionKind, Quiz};

pub fn lesson(slug: &str) -> Lesson {
    Lesson {
        slug: slug.to_owned(),
        title: format!("Lesson {slug}"),
        minutes: 15,
        body: "## Read this\nA short lesson.".to_owned(),
        video: None,
        downloads: Vec::new(),
    }
}

/// A question with choices `a` to `d`, those in `correct` correct.
pub fn question(key: &str, kind: QuestionKind, correct: &[&str]) -> Question {
    Question {
        key: key.to_owned(),
        prompt: format!("Question {key}?"),
        kind,
        choices: ["a", "b", "c", "d"]
            .into_iter()
            .map(|choice| Choice { key: choice.to_owned(), text: format!("Choice {choice}"), correct: correct.contains(&choice) })
            .collect(),
        explanation: Some(format!("Because of {key}.")),
    }
}

/// A quiz passed at 80%, as often as the student likes.
pub fn quiz(slug: &str, questions: Vec<Question>) -> Quiz {
    Quiz { slug: slug.to_owned(), title: format!("Quiz {slug}"), pass_mark: 80, max_attempts: None, questions }
}

/// Three questions: `q1` single (`b`), `q2` multiple (`a` and `c`), `q3` single (`d`).
pub fn three_questions(slug: &str) -> Quiz {
    quiz(
        slug,
        vec![
            question("q1", QuestionKind::Single, &["b"]),
            question("q2", QuestionKind::Multiple, &["a", "c"]),
            question("q3", QuestionKind::Single, &["d"]),
        ],
    )
}

pub fn module(title: &str, lessons: &[&str], quiz: Option<Quiz>) -> Module {
    Module { title: title.to_owned(), lessons: lessons.iter().map(|slug| lesson(slug)).collect(), quiz }
}

/// Twelve months of three modules and a final assessment, in steps:
/// `cells`, `tissues`, `cells-quiz` | `epidermis`, `dermis`, `appendages`
/// (no quiz) | `healing`, `healing-quiz` | `final` (70%, three attempts).
pub fn course() -> Curriculum {
    Curriculum {
        access_months: 12,
        modules: vec![
            module("Cells and tissues", &["cells", "tissues"], Some(three_questions("cells-quiz"))),
            module("The skin", &["epidermis", "dermis", "appendages"], None),
            module("Wound healing", &["healing"], Some(three_questions("healing-quiz"))),
        ],
        assessment: Some(Quiz { pass_mark: 70, max_attempts: Some(3), ..three_questions("final") }),
    }
}
