//! The demo college's teaching for its online anatomy and physiology
//! course (`content/learning/anatomy-and-physiology-online.yaml`): it
//! reads, passes every check, and is the course its page promises.

use super::CourseBody;
use crate::learning::course_file::is_course_file;
use crate::learning::curriculum::{Curriculum, QuestionKind, Quiz, check};

const DEMO: &str = include_str!("../../../../content/learning/anatomy-and-physiology-online.yaml");
const COURSE_PAGE: &str = include_str!("../../../../content/courses/anatomy-and-physiology-online.yaml");
const COURSE_FILES: &str = include_str!("../../../../content/course-files.yaml");

fn demo() -> Curriculum {
    serde_yaml::from_str(DEMO).expect("the demo curriculum reads")
}

/// The modules the course page lists under "Course modules".
fn modules_promised() -> Vec<String> {
    let page: CourseBody = serde_yaml::from_str(COURSE_PAGE).expect("the course page reads");
    page.description
        .lines()
        .skip_while(|line| line.trim() != "## Course modules")
        .skip(1)
        .take_while(|line| line.starts_with("- "))
        .map(|line| line.trim_start_matches("- ").to_owned())
        .collect()
}

/// Words of Markdown: what has a letter or digit in it.
fn words(markdown: &str) -> usize {
    markdown.split_whitespace().filter(|word| word.chars().any(char::is_alphanumeric)).count()
}

fn explained(quiz: &Quiz) -> bool {
    quiz.questions.iter().all(|question| question.explanation.as_deref().is_some_and(|text| !text.trim().is_empty()))
}

#[test]
fn the_demo_curriculum_passes_every_check() {
    let problems: Vec<String> = check(&demo()).err().unwrap_or_default().iter().map(ToString::to_string).collect();
    assert_eq!(problems, Vec::<String>::new());
}

#[test]
fn the_demo_is_the_course_its_page_promises() {
    let demo = demo();
    assert_eq!(demo.access_months, 12, "twelve months' access");
    let titles: Vec<String> = demo.modules.iter().map(|module| module.title.clone()).collect();
    assert_eq!(titles, modules_promised());
    assert_eq!(demo.lessons().count(), 20, "twenty lessons");
}

#[test]
fn every_demo_lesson_is_a_short_text_lesson() {
    for lesson in demo().lessons() {
        let count = words(&lesson.body);
        assert!((150..=350).contains(&count), "{}: {count} words", lesson.slug);
        assert!(lesson.body.contains("## ") && lesson.body.contains("\n- "), "{}: headings and lists", lesson.slug);
        assert!(lesson.body.contains("Key terms"), "{}: a key-terms list", lesson.slug);
    }
}

#[test]
fn every_file_a_demo_lesson_names_is_a_course_file_of_the_pack() {
    let demo = demo();
    let files: Vec<&str> = demo.files().collect();
    assert_eq!(files.len(), 2, "the first lesson's video and summary sheet: {files:?}");
    for file in files {
        assert!(is_course_file(file) && COURSE_FILES.contains(&format!("- file: {file}\n")), "{file}");
    }
}

#[test]
fn every_demo_module_has_a_quiz_of_four_or_five_explained_questions() {
    let demo = demo();
    for module in &demo.modules {
        let quiz = module.quiz.as_ref().unwrap_or_else(|| panic!("{}: a quiz", module.title));
        assert!((4..=5).contains(&quiz.questions.len()), "{}", quiz.slug);
        assert_eq!((quiz.pass_mark, quiz.max_attempts), (80, None), "{}", quiz.slug);
        assert!(explained(quiz), "{}", quiz.slug);
    }
    let kinds: Vec<QuestionKind> = demo.quizzes().flat_map(|quiz| quiz.questions.iter().map(|question| question.kind)).collect();
    assert!(kinds.contains(&QuestionKind::Single) && kinds.contains(&QuestionKind::Multiple));
}

#[test]
fn the_demo_final_assessment_asks_two_questions_of_each_module() {
    let demo = demo();
    let assessment = demo.assessment.as_ref().expect("a final assessment");
    assert_eq!((assessment.questions.len(), assessment.pass_mark, assessment.max_attempts), (12, 70, Some(3)));
    assert!(explained(assessment));
    for module in 1..=demo.modules.len() {
        let asked = assessment.questions.iter().filter(|question| question.key.starts_with(&format!("m{module}-"))).count();
        assert_eq!(asked, 2, "module {module}");
    }
}
