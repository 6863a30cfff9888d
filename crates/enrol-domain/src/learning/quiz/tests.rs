//! A quiz shown without its answers, every marking rule at its edges, and
//! the attempts a quiz allows.

use super::*;
use crate::learning::curriculum::fixtures::{question, quiz, three_questions};

fn answers(given: &[(&str, &[&str])]) -> Answers {
    Answers(given.iter().map(|(key, chosen)| ((*key).to_owned(), chosen.iter().map(|c| (*c).to_owned()).collect())).collect())
}

/// The questions marked right, in order.
fn marks(graded: &Graded) -> Vec<bool> {
    graded.results.iter().map(|result| result.correct).collect()
}

fn unanswered(numbers: &[usize]) -> AnswerRefused {
    AnswerRefused::Unanswered(numbers.iter().map(|&number| Unanswered { number, key: format!("q{number}") }).collect())
}

#[test]
fn the_browser_never_gets_the_answers() {
    let view = QuizView::of(&three_questions("cells-quiz"));
    let json = serde_json::to_string(&view).expect("JSON");
    assert!(!json.contains("correct"), "{json}");
    assert!(!json.contains("explanation") && !json.contains("Because"), "{json}");
    assert_eq!(view.questions.iter().map(|q| q.key.as_str()).collect::<Vec<_>>(), ["q1", "q2", "q3"]);
    assert_eq!(view.questions[1].kind, QuestionKind::Multiple);
    assert_eq!(
        view.questions[1].choices.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(),
        ["Choice a", "Choice b", "Choice c", "Choice d"]
    );
    assert_eq!((view.pass_mark, view.max_attempts), (80, None));
}

#[test]
fn answers_arrive_as_choices_by_question() {
    let read: Answers = serde_json::from_str(r#"{"q1": ["b"], "q2": ["a", "c"]}"#).expect("answers");
    assert_eq!(read, answers(&[("q1", &["b"]), ("q2", &["a", "c"])]));
}

#[test]
fn marks_every_answer_as_the_rules_say() {
    let cases: [(&str, Answers, Vec<bool>, u8, bool); 7] = [
        ("all right", answers(&[("q1", &["b"]), ("q2", &["a", "c"]), ("q3", &["d"])]), vec![true, true, true], 100, true),
        ("a multiple choice in any order", answers(&[("q1", &["b"]), ("q2", &["c", "a"]), ("q3", &["d"])]), vec![true; 3], 100, true),
        ("a multiple choice repeated", answers(&[("q1", &["b"]), ("q2", &["a", "c", "a"]), ("q3", &["d"])]), vec![true; 3], 100, true),
        (
            "a multiple choice missing a correct choice is wrong, and two of three is 66",
            answers(&[("q1", &["b"]), ("q2", &["a"]), ("q3", &["d"])]),
            vec![true, false, true],
            66,
            false,
        ),
        (
            "a multiple choice with a wrong choice besides is wrong",
            answers(&[("q1", &["b"]), ("q2", &["a", "b", "c"]), ("q3", &["d"])]),
            vec![true, false, true],
            66,
            false,
        ),
        ("one of three is 33", answers(&[("q1", &["a"]), ("q2", &["a", "c"]), ("q3", &["a"])]), vec![false, true, false], 33, false),
        ("all wrong", answers(&[("q1", &["a"]), ("q2", &["b"]), ("q3", &["c"])]), vec![false; 3], 0, false),
    ];
    let quiz = three_questions("cells-quiz");
    for (name, given, expected, score, passed) in cases {
        let graded = grade(&quiz, &given).expect(name);
        assert_eq!((marks(&graded), graded.score, graded.passed), (expected, score, passed), "{name}");
    }
}

#[test]
fn the_pass_mark_is_reached_or_not_by_the_score_rounded_down() {
    let two_of_three = answers(&[("q1", &["b"]), ("q2", &["a", "c"]), ("q3", &["a"])]);
    let at = |pass_mark| grade(&Quiz { pass_mark, ..three_questions("q") }, &two_of_three).expect("marked").passed;
    assert!(at(66));
    assert!(!at(67));
    let five = quiz("five", (1..=5).map(|n| question(&format!("q{n}"), QuestionKind::Single, &["a"])).collect());
    let four_of_five = answers(&[("q1", &["a"]), ("q2", &["a"]), ("q3", &["a"]), ("q4", &["a"]), ("q5", &["b"])]);
    let graded = grade(&five, &four_of_five).expect("marked");
    assert_eq!((graded.score, graded.passed), (80, true));
    let graded = grade(&Quiz { pass_mark: 81, ..five }, &four_of_five).expect("marked");
    assert_eq!((graded.score, graded.passed), (80, false));
}

#[test]
fn each_result_carries_its_explanation() {
    let graded = grade(&three_questions("q"), &answers(&[("q1", &["a"]), ("q2", &["a", "c"]), ("q3", &["d"])])).expect("marked");
    assert_eq!(graded.results[0], QuestionResult { key: "q1".to_owned(), correct: false, explanation: Some("Because of q1.".to_owned()) });
}

#[test]
fn refuses_answers_it_cannot_mark() {
    let cases: [(&str, Answers, AnswerRefused); 7] = [
        (
            "a question the quiz does not have",
            answers(&[("q1", &["b"]), ("q2", &["a"]), ("q3", &["d"]), ("q9", &["a"])]),
            AnswerRefused::UnknownQuestion { key: "q9".to_owned() },
        ),
        (
            "a choice the question does not have",
            answers(&[("q1", &["b"]), ("q2", &["a", "e"]), ("q3", &["d"])]),
            AnswerRefused::UnknownChoice { question: "q2".to_owned(), choice: "e".to_owned() },
        ),
        ("an unknown key before unanswered questions", answers(&[("q7", &["a"])]), AnswerRefused::UnknownQuestion { key: "q7".to_owned() }),
        (
            "two choices for a single-choice question",
            answers(&[("q1", &["a", "b"]), ("q2", &["a"]), ("q3", &["d"])]),
            AnswerRefused::OneChoiceOnly { number: 1, key: "q1".to_owned() },
        ),
        (
            "one choice twice for a single-choice question",
            answers(&[("q1", &["b"]), ("q2", &["a"]), ("q3", &["d", "d"])]),
            AnswerRefused::OneChoiceOnly { number: 3, key: "q3".to_owned() },
        ),
        ("questions missing or answered with nothing", answers(&[("q1", &["b"]), ("q3", &[])]), unanswered(&[2, 3])),
        ("nothing answered", Answers::default(), unanswered(&[1, 2, 3])),
    ];
    let quiz = three_questions("cells-quiz");
    for (name, given, refused) in cases {
        assert_eq!(grade(&quiz, &given), Err(refused), "{name}");
    }
}

#[test]
fn the_student_is_told_which_questions_are_left() {
    assert_eq!(unanswered(&[2]).to_string(), "Answer question 2 before you submit.");
    assert_eq!(unanswered(&[2, 5]).to_string(), "Answer questions 2 and 5 before you submit.");
    assert_eq!(unanswered(&[1, 4, 6]).to_string(), "Answer questions 1, 4 and 6 before you submit.");
    assert_eq!(AnswerRefused::OneChoiceOnly { number: 3, key: "q3".to_owned() }.to_string(), "Question 3 takes one answer only.");
}

#[test]
fn a_quiz_without_questions_is_never_passed() {
    let graded = grade(&quiz("empty", Vec::new()), &Answers::default()).expect("marked");
    assert_eq!((graded.score, graded.passed, graded.results.len()), (0, false, 0));
}

#[test]
fn attempts_run_out_at_the_limit() {
    assert_eq!(may_attempt(None, 0), Ok(()));
    assert_eq!(may_attempt(None, 1_000), Ok(()));
    assert_eq!(may_attempt(Some(3), 0), Ok(()));
    assert_eq!(may_attempt(Some(3), 2), Ok(()));
    assert_eq!(may_attempt(Some(3), 3), Err(AttemptsUsed { allowed: 3 }));
    assert_eq!(may_attempt(Some(3), 4), Err(AttemptsUsed { allowed: 3 }));
    assert_eq!(may_attempt(Some(1), 1), Err(AttemptsUsed { allowed: 1 }));
    assert!(AttemptsUsed { allowed: 3 }.to_string().starts_with("You have used all 3 attempts at this quiz."));
    assert!(AttemptsUsed { allowed: 1 }.to_string().starts_with("You have used your one attempt at this quiz."));
}

#[test]
fn attempts_left_count_down_to_none_left() {
    assert_eq!(attempts_left(None, 5), None);
    assert_eq!(attempts_left(Some(3), 0), Some(3));
    assert_eq!(attempts_left(Some(3), 2), Some(1));
    assert_eq!(attempts_left(Some(3), 3), Some(0));
    assert_eq!(attempts_left(Some(3), 7), Some(0));
}
