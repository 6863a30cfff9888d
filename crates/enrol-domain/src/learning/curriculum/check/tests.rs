//! Every rule of a curriculum at its edges, each problem as staff read it.

use super::*;
use crate::learning::curriculum::fixtures::{course, question};
use crate::learning::curriculum::{Choice, Download, Video};

struct Case {
    name: &'static str,
    change: fn(&mut Curriculum),
    /// Every problem, as staff read it; none: it passes.
    problems: &'static [&'static str],
}

fn quiz_of(curriculum: &mut Curriculum, module: usize) -> &mut Quiz {
    curriculum.modules[module].quiz.as_mut().expect("a module quiz")
}

fn first_question(curriculum: &mut Curriculum) -> &mut Question {
    &mut quiz_of(curriculum, 0).questions[0]
}

#[test]
fn checks_every_rule_at_its_edges() {
    let cases = [
        Case { name: "the fixture passes", change: |_| {}, problems: &[] },
        Case { name: "one month of access is enough", change: |c| c.access_months = 1, problems: &[] },
        Case { name: "sixty months is the most", change: |c| c.access_months = 60, problems: &[] },
        Case { name: "no access", change: |c| c.access_months = 0, problems: &["The course: access must last 1 to 60 months, not 0."] },
        Case {
            name: "beyond sixty months",
            change: |c| c.access_months = 61,
            problems: &["The course: access must last 1 to 60 months, not 61."],
        },
        Case {
            name: "no modules",
            change: |c| {
                c.modules.clear();
                c.assessment = None;
            },
            problems: &["The course: add at least one module."],
        },
        Case {
            name: "a module without lessons",
            change: |c| c.modules[1].lessons.clear(),
            problems: &["Module 2: add at least one lesson."],
        },
        Case {
            name: "a module without a title",
            change: |c| c.modules[0].title = "  ".to_owned(),
            problems: &["Module 1: give it a title."],
        },
        Case {
            name: "a slug with capitals",
            change: |c| c.modules[1].lessons[0].slug = "Skin-Layers".to_owned(),
            problems: &["Module 2, lesson 'Skin-Layers': 'Skin-Layers' must be lower-case letters, digits and single hyphens."],
        },
        Case {
            name: "a slug with a space or a slash",
            change: |c| {
                c.modules[1].lessons[0].slug = "skin layers".to_owned();
                c.modules[1].lessons[1].slug = "../dermis".to_owned();
            },
            problems: &[
                "Module 2, lesson 'skin layers': 'skin layers' must be lower-case letters, digits and single hyphens.",
                "Module 2, lesson '../dermis': '../dermis' must be lower-case letters, digits and single hyphens.",
            ],
        },
        Case {
            name: "a lesson without a slug is named by its number",
            change: |c| c.modules[1].lessons[2].slug = String::new(),
            problems: &["Module 2, lesson 3: give it a slug of lower-case letters, digits and single hyphens."],
        },
        Case {
            name: "two lessons with one slug, across modules",
            change: |c| c.modules[2].lessons[0].slug = "cells".to_owned(),
            problems: &["Module 3, lesson 'cells': 'cells' is used twice."],
        },
        Case {
            name: "a quiz with a lesson's slug",
            change: |c| quiz_of(c, 2).slug = "healing".to_owned(),
            problems: &["Module 3, quiz 'healing': 'healing' is used twice."],
        },
        Case {
            name: "the final assessment with a module quiz's slug",
            change: |c| c.assessment.as_mut().expect("an assessment").slug = "cells-quiz".to_owned(),
            problems: &["The final assessment 'cells-quiz': 'cells-quiz' is used twice."],
        },
        Case {
            name: "untitled lesson and quiz",
            change: |c| {
                c.modules[0].lessons[1].title = String::new();
                quiz_of(c, 0).title = " ".to_owned();
            },
            problems: &["Module 1, lesson 'tissues': give it a title.", "Module 1, quiz 'cells-quiz': give it a title."],
        },
        Case {
            name: "a lesson of no minutes",
            change: |c| c.modules[0].lessons[0].minutes = 0,
            problems: &["Module 1, lesson 'cells': say how many minutes it takes."],
        },
        Case { name: "a lesson of one minute", change: |c| c.modules[0].lessons[0].minutes = 1, problems: &[] },
        Case {
            name: "a lesson with neither text nor video",
            change: |c| c.modules[0].lessons[0].body = "\n ".to_owned(),
            problems: &["Module 1, lesson 'cells': add its text or a video."],
        },
        Case {
            name: "a lesson that is only a video",
            change: |c| {
                c.modules[0].lessons[0].body = String::new();
                c.modules[0].lessons[0].video = Some(Video::Vimeo { id: "76979871".to_owned() });
            },
            problems: &[],
        },
        Case {
            name: "videos by good ids and an uploaded file",
            change: |c| {
                c.modules[0].lessons[0].video = Some(Video::YouTube { id: "dQw4w9WgXcQ".to_owned() });
                c.modules[0].lessons[1].video = Some(Video::Upload { file: "files/0a1b2c.mp4".to_owned() });
                c.modules[1].lessons[0].video = Some(Video::Upload { file: "files/0a1b2d.webm".to_owned() });
            },
            problems: &[],
        },
        Case {
            name: "videos by a link instead of an id, a path out of the library, or a course file that is not a video",
            change: |c| {
                c.modules[1].lessons[0].video = Some(Video::YouTube { id: "https://youtu.be/dQw4w9WgXcQ".to_owned() });
                c.modules[1].lessons[1].video = Some(Video::Vimeo { id: "vimeo.com/1".to_owned() });
                c.modules[1].lessons[2].video = Some(Video::Upload { file: "../secret.mp4".to_owned() });
                c.modules[0].lessons[0].video = Some(Video::Upload { file: "files/0a1b2c.pdf".to_owned() });
                c.modules[0].lessons[1].video = Some(Video::Upload { file: "uploads/0a1b2c.mp4".to_owned() });
            },
            problems: &[
                "Module 1, lesson 'cells': 'files/0a1b2c.pdf' is not an uploaded video: choose an MP4 or WebM course file.",
                "Module 1, lesson 'tissues': 'uploads/0a1b2c.mp4' is not an uploaded video: choose an MP4 or WebM course file.",
                "Module 2, lesson 'epidermis': 'https://youtu.be/dQw4w9WgXcQ' is not a video's id.",
                "Module 2, lesson 'dermis': 'vimeo.com/1' is not a video's id.",
                "Module 2, lesson 'appendages': '../secret.mp4' is not an uploaded video: choose an MP4 or WebM course file.",
            ],
        },
        Case {
            name: "a video chosen and its id or file left out",
            change: |c| {
                c.modules[0].lessons[0].video = Some(Video::YouTube { id: String::new() });
                c.modules[0].lessons[1].video = Some(Video::Upload { file: String::new() });
            },
            problems: &["Module 1, lesson 'cells': give the video's id.", "Module 1, lesson 'tissues': give the file's name."],
        },
        Case {
            name: "downloads need a title and a file's name",
            change: |c| {
                c.modules[0].lessons[0].downloads = vec![
                    Download { title: "Cell diagram".to_owned(), file: "learning/cell-diagram.pdf".to_owned() },
                    Download { title: String::new(), file: "learning/tissues.pdf".to_owned() },
                    Download { title: "Absolute".to_owned(), file: "/etc/passwd".to_owned() },
                    Download { title: "Doubled".to_owned(), file: "learning//a.pdf".to_owned() },
                    Download { title: "Spaced".to_owned(), file: "my notes.pdf".to_owned() },
                    Download { title: "Linked".to_owned(), file: "https://example.org/a.pdf".to_owned() },
                ];
            },
            problems: &[
                "Module 1, lesson 'cells': give the download 'learning/tissues.pdf' a title.",
                "Module 1, lesson 'cells': '/etc/passwd' is not a file's name.",
                "Module 1, lesson 'cells': 'learning//a.pdf' is not a file's name.",
                "Module 1, lesson 'cells': 'my notes.pdf' is not a file's name.",
                "Module 1, lesson 'cells': 'https://example.org/a.pdf' is not a file's name.",
            ],
        },
        Case {
            name: "pass marks of 1 and 100 per cent",
            change: |c| {
                quiz_of(c, 0).pass_mark = 1;
                quiz_of(c, 2).pass_mark = 100;
            },
            problems: &[],
        },
        Case {
            name: "pass marks of 0 and 101 per cent",
            change: |c| {
                quiz_of(c, 0).pass_mark = 0;
                c.assessment.as_mut().expect("an assessment").pass_mark = 101;
            },
            problems: &[
                "Module 1, quiz 'cells-quiz': the pass mark must be 1 to 100 per cent, not 0.",
                "The final assessment 'final': the pass mark must be 1 to 100 per cent, not 101.",
            ],
        },
        Case { name: "one attempt allowed", change: |c| quiz_of(c, 0).max_attempts = Some(1), problems: &[] },
        Case {
            name: "no attempt allowed",
            change: |c| quiz_of(c, 0).max_attempts = Some(0),
            problems: &["Module 1, quiz 'cells-quiz': allow at least one attempt, or no limit."],
        },
        Case {
            name: "a quiz without questions",
            change: |c| quiz_of(c, 2).questions.clear(),
            problems: &["Module 3, quiz 'healing-quiz': add at least one question."],
        },
        Case {
            name: "two and eight choices",
            change: |c| {
                first_question(c).choices.truncate(2);
                let eight = (0..8).map(|n| Choice { key: format!("c{n}"), text: format!("Choice {n}"), correct: n == 0 }).collect();
                quiz_of(c, 0).questions[2].choices = eight;
            },
            problems: &[],
        },
        Case {
            name: "one choice, and nine",
            change: |c| {
                first_question(c).choices.remove(0);
                first_question(c).choices.truncate(1);
                let nine = (0..9).map(|n| Choice { key: format!("c{n}"), text: format!("Choice {n}"), correct: n == 0 }).collect();
                quiz_of(c, 0).questions[2].choices = nine;
            },
            problems: &[
                "Module 1, quiz 'cells-quiz', question 'q1': offer 2 to 8 choices, not 1.",
                "Module 1, quiz 'cells-quiz', question 'q3': offer 2 to 8 choices, not 9.",
            ],
        },
        Case {
            name: "question and choice keys once each, as slugs",
            change: |c| {
                quiz_of(c, 0).questions[1].key = "q1".to_owned();
                quiz_of(c, 0).questions[2].choices[1].key = "a".to_owned();
                quiz_of(c, 2).questions[0].key = "Q 1".to_owned();
            },
            problems: &[
                "Module 1, quiz 'cells-quiz', question 'q1': 'q1' is used twice.",
                "Module 1, quiz 'cells-quiz', question 'q3': 'a' is used twice.",
                "Module 3, quiz 'healing-quiz', question 'Q 1': 'Q 1' must be lower-case letters, digits and single hyphens.",
            ],
        },
        Case {
            name: "the same keys in another quiz are another question's",
            change: |c| quiz_of(c, 2).questions = quiz_of(c, 0).questions.clone(),
            problems: &[],
        },
        Case {
            name: "a question without words, and a choice",
            change: |c| {
                first_question(c).prompt = " ".to_owned();
                first_question(c).choices[3].text = String::new();
                quiz_of(c, 0).questions[1].key = String::new();
            },
            problems: &[
                "Module 1, quiz 'cells-quiz', question 'q1': write the question.",
                "Module 1, quiz 'cells-quiz', question 'q1': choice 4 has no text.",
                "Module 1, quiz 'cells-quiz', question 2: give it a slug of lower-case letters, digits and single hyphens.",
            ],
        },
        Case {
            name: "a single-choice question with no correct choice, and one with two",
            change: |c| {
                *first_question(c) = question("q1", QuestionKind::Single, &[]);
                quiz_of(c, 0).questions[2] = question("q3", QuestionKind::Single, &["a", "d"]);
            },
            problems: &[
                "Module 1, quiz 'cells-quiz', question 'q1': a single-choice question needs exactly one correct choice, not 0.",
                "Module 1, quiz 'cells-quiz', question 'q3': a single-choice question needs exactly one correct choice, not 2.",
            ],
        },
        Case {
            name: "a multiple-choice question with one correct choice, and with all",
            change: |c| {
                quiz_of(c, 0).questions[1] = question("q2", QuestionKind::Multiple, &["c"]);
                quiz_of(c, 2).questions[1] = question("q2", QuestionKind::Multiple, &["a", "b", "c", "d"]);
            },
            problems: &[],
        },
        Case {
            name: "a multiple-choice question with no correct choice",
            change: |c| quiz_of(c, 0).questions[1] = question("q2", QuestionKind::Multiple, &[]),
            problems: &["Module 1, quiz 'cells-quiz', question 'q2': mark at least one choice correct."],
        },
        Case { name: "no final assessment", change: |c| c.assessment = None, problems: &[] },
        Case { name: "no module quizzes", change: |c| c.modules.iter_mut().for_each(|m| m.quiz = None), problems: &[] },
    ];
    for case in cases {
        let mut curriculum = course();
        (case.change)(&mut curriculum);
        let found: Vec<String> = check(&curriculum).err().unwrap_or_default().iter().map(ToString::to_string).collect();
        assert_eq!(found, case.problems, "{}", case.name);
    }
}

#[test]
fn problems_are_typed_with_their_place() {
    let mut curriculum = course();
    curriculum.modules[1].lessons[2].minutes = 0;
    let problems = check(&curriculum).unwrap_err();
    assert_eq!(
        problems,
        [CurriculumProblem {
            place: Place::Lesson { module: 2, number: 3, slug: "appendages".to_owned() },
            field: "modules.1.lessons.2.minutes".to_owned(),
            issue: Issue::NoMinutes,
        }]
    );
    assert_eq!(problems[0].message(), "Say how many minutes it takes.");
}

#[test]
fn each_problem_names_the_field_it_concerns() {
    let mut curriculum = course();
    curriculum.access_months = 0;
    curriculum.modules[0].title = String::new();
    curriculum.modules[1].lessons[1].slug = "cells".to_owned();
    curriculum.modules[1].lessons[2].downloads = vec![Download { title: String::new(), file: "a b.pdf".to_owned() }];
    quiz_of(&mut curriculum, 0).pass_mark = 0;
    first_question(&mut curriculum).choices[1].text = String::new();
    quiz_of(&mut curriculum, 0).questions[2] = question("q3", QuestionKind::Single, &["a", "d"]);
    curriculum.assessment.as_mut().expect("an assessment").questions[0].prompt = String::new();
    let fields: Vec<String> = check(&curriculum).unwrap_err().into_iter().map(|problem| problem.field).collect();
    assert_eq!(
        fields,
        [
            "access_months",
            "modules.0.title",
            "modules.0.quiz.pass_mark",
            "modules.0.quiz.questions.0.choices.1.text",
            "modules.0.quiz.questions.2.choices",
            "modules.1.lessons.1.slug",
            "modules.1.lessons.2.downloads.0.title",
            "modules.1.lessons.2.downloads.0.file",
            "assessment.questions.0.prompt",
        ]
    );
}
