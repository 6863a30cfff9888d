//! Progress through the fixture course, whose steps are `cells`,
//! `tissues`, `cells-quiz` | `epidermis`, `dermis`, `appendages` |
//! `healing`, `healing-quiz` | `final`: nine steps, six of them lessons.

use super::*;
use crate::learning::curriculum::fixtures::course;

const ALL_LESSONS: &[&str] = &["cells", "tissues", "epidermis", "dermis", "appendages", "healing"];

fn record(lessons: &[&str], quizzes: &[&str], last: Option<&str>) -> StudyRecord {
    StudyRecord {
        lessons_completed: lessons.iter().map(|slug| (*slug).to_owned()).collect(),
        quizzes_passed: quizzes.iter().map(|slug| (*slug).to_owned()).collect(),
        last_lesson: last.map(str::to_owned),
    }
}

#[test]
fn percent_completion_and_where_to_continue_follow_the_rules() {
    let cases: [(&str, StudyRecord, u8, bool, &str); 13] = [
        ("nothing done starts at the first lesson", record(&[], &[], None), 0, false, "cells"),
        ("one step of nine is 11 per cent", record(&["cells"], &[], Some("cells")), 11, false, "tissues"),
        ("the lesson last opened, while not completed", record(&["cells"], &[], Some("dermis")), 11, false, "dermis"),
        ("after a module's lessons, its quiz", record(&["cells", "tissues"], &[], Some("tissues")), 22, false, "cells-quiz"),
        (
            "a quiz skipped behind the student does not pull them back",
            record(&["cells", "tissues", "epidermis"], &[], Some("epidermis")),
            33,
            false,
            "dermis",
        ),
        ("every lesson but no quiz is 66 per cent", record(ALL_LESSONS, &[], Some("healing")), 66, false, "healing-quiz"),
        (
            "nothing after the last lesson opened, so the first step not done",
            record(&["cells", "tissues", "epidermis", "appendages", "healing"], &["cells-quiz", "healing-quiz", "final"], Some("healing")),
            88,
            false,
            "dermis",
        ),
        (
            "every step but the final assessment is 88 per cent",
            record(ALL_LESSONS, &["cells-quiz", "healing-quiz"], Some("healing")),
            88,
            false,
            "final",
        ),
        (
            "every lesson and the final assessment complete the course, without module quizzes",
            record(ALL_LESSONS, &["final"], Some("dermis")),
            100,
            true,
            "healing",
        ),
        ("every step done", record(ALL_LESSONS, &["cells-quiz", "healing-quiz", "final"], Some("cells")), 100, true, "healing"),
        (
            "the final assessment passed with a lesson left is not complete",
            record(&["cells", "tissues", "epidermis", "appendages", "healing"], &["final"], None),
            66,
            false,
            "cells-quiz",
        ),
        (
            "slugs no longer in the course, or of the wrong kind, are ignored",
            record(&["gone", "cells-quiz"], &["old-quiz", "tissues"], Some("gone")),
            0,
            false,
            "cells",
        ),
        ("a quiz recorded as the last lesson is ignored", record(&["cells"], &[], Some("cells-quiz")), 11, false, "tissues"),
    ];
    let curriculum = course();
    for (name, record, expected_percent, complete, resumes_at) in cases {
        assert_eq!(
            (percent(&curriculum, &record), is_complete(&curriculum, &record), resume(&curriculum, &record).map(Step::slug)),
            (expected_percent, complete, Some(resumes_at)),
            "{name}"
        );
    }
}

#[test]
fn a_course_without_a_final_assessment_is_complete_with_its_lessons() {
    let curriculum = Curriculum { assessment: None, ..course() };
    assert!(is_complete(&curriculum, &record(ALL_LESSONS, &[], None)));
    assert_eq!(percent(&curriculum, &record(ALL_LESSONS, &[], None)), 100);
    assert!(!is_complete(&curriculum, &record(&ALL_LESSONS[1..], &["cells-quiz", "healing-quiz"], None)));
    assert_eq!(percent(&curriculum, &record(&ALL_LESSONS[1..], &["cells-quiz", "healing-quiz"], None)), 87);
}

#[test]
fn a_course_without_lessons_is_never_complete_and_never_panics() {
    let empty = Curriculum { access_months: 12, modules: Vec::new(), assessment: None };
    let anything = record(&["cells"], &["final"], Some("cells"));
    assert_eq!((percent(&empty, &anything), is_complete(&empty, &anything), resume(&empty, &anything)), (0, false, None));
    assert_eq!(Progress::of(&empty, &anything).modules, []);
}

#[test]
fn each_module_says_where_the_student_is_in_it() {
    let curriculum = course();
    let statuses = |record: StudyRecord| -> Vec<ModuleStatus> {
        curriculum.modules.iter().map(|module| ModuleProgress::of(module, &record).status).collect()
    };
    use ModuleStatus::{Complete, InProgress, NotStarted, QuizToTake};
    assert_eq!(statuses(record(&[], &[], Some("cells"))), [NotStarted, NotStarted, NotStarted]);
    assert_eq!(statuses(record(&["cells", "dermis"], &[], None)), [InProgress, InProgress, NotStarted]);
    assert_eq!(statuses(record(&["cells", "tissues", "healing"], &[], None)), [QuizToTake, NotStarted, QuizToTake]);
    assert_eq!(
        statuses(record(&["cells", "tissues", "epidermis", "dermis", "appendages"], &["cells-quiz"], None)),
        [Complete, Complete, NotStarted]
    );
    assert_eq!(statuses(record(&[], &["healing-quiz"], None)), [NotStarted, NotStarted, InProgress]);
    assert_eq!(statuses(record(&["gone"], &["tissues"], None)), [NotStarted, NotStarted, NotStarted]);
}

#[test]
fn the_course_player_gets_the_whole_progress() {
    let progress = Progress::of(&course(), &record(&["cells", "tissues"], &[], Some("tissues")));
    assert_eq!((progress.percent, progress.complete, progress.resume.as_deref()), (22, false, Some("cells-quiz")));
    assert_eq!(
        progress.modules[0],
        ModuleProgress {
            title: "Cells and tissues".to_owned(),
            lessons: 2,
            lessons_completed: 2,
            quiz_passed: Some(false),
            status: ModuleStatus::QuizToTake
        }
    );
    assert_eq!((progress.modules[1].lessons, progress.modules[1].quiz_passed), (3, None));
    let json = serde_json::to_value(&progress).expect("JSON");
    assert_eq!(json["modules"][0]["lessonsCompleted"], 2);
    assert_eq!(json["modules"][0]["status"], "quizToTake");
}

mod package {
    use super::super::package_percent;
    use crate::learning::scorm::runtime::Cmi;

    fn cmi(lesson_status: &str) -> Cmi {
        Cmi { lesson_status: Some(lesson_status.to_owned()), ..Cmi::default() }
    }

    #[test]
    fn a_package_reads_nothing_until_begun_half_while_under_way_and_all_once_complete() {
        assert_eq!(package_percent(None, false), 0);
        assert_eq!(package_percent(Some(&cmi("not attempted")), false), 0);
        assert_eq!(package_percent(Some(&cmi("incomplete")), false), 50);
        assert_eq!(package_percent(Some(&cmi("failed")), false), 50);
        // Completion is kept whatever a later commit says.
        assert_eq!(package_percent(Some(&cmi("incomplete")), true), 100);
        assert_eq!(package_percent(None, true), 100);
    }

    #[test]
    fn a_2004_package_measures_its_own_progress_short_of_complete() {
        let measured = |measure: &str| Cmi { progress_measure: Some(measure.to_owned()), ..Cmi::default() };
        assert_eq!(package_percent(Some(&measured("0.257")), false), 25);
        assert_eq!(package_percent(Some(&measured("1")), false), 99);
        assert_eq!(package_percent(Some(&measured("1")), true), 100);
    }
}
