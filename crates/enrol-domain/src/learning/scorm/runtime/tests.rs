use super::*;

fn v12(lesson_status: &str) -> Cmi {
    Cmi { lesson_status: Some(lesson_status.to_owned()), ..Cmi::default() }
}

#[test]
fn each_edition_keeps_its_own_elements_within_their_vocabulary() {
    assert!(v12("incomplete").checked(ScormVersion::V12).is_ok());
    assert_eq!(
        v12("incomplete").checked(ScormVersion::V2004),
        Err(CommitRefusal::WrongEdition { element: "lesson_status", version: "2004" })
    );
    let v2004 = Cmi { completion_status: Some("completed".into()), success_status: Some("passed".into()), ..Cmi::default() };
    assert!(v2004.clone().checked(ScormVersion::V2004).is_ok());
    assert!(matches!(v2004.checked(ScormVersion::V12), Err(CommitRefusal::WrongEdition { .. })));
    assert!(matches!(v12("finished").checked(ScormVersion::V12), Err(CommitRefusal::NotInVocabulary { .. })));
}

#[test]
fn numbers_times_and_sizes_are_checked() {
    let with = |cmi: Cmi, version| cmi.checked(version);
    let score = |raw: &str| Cmi { score_raw: Some(raw.into()), ..Cmi::default() };
    assert!(with(score("80"), ScormVersion::V12).is_ok());
    assert!(with(score(""), ScormVersion::V12).is_ok());
    for bad in ["eighty", "NaN", "1e99", "inf"] {
        assert_eq!(with(score(bad), ScormVersion::V12), Err(CommitRefusal::NotANumber { element: "score.raw" }), "{bad}");
    }
    let scaled = Cmi { score_scaled: Some("1.5".into()), ..Cmi::default() };
    assert!(with(scaled, ScormVersion::V2004).is_err());
    let time = |session: &str| Cmi { session_time: Some(session.into()), ..Cmi::default() };
    assert!(with(time("0000:01:30.00"), ScormVersion::V12).is_ok());
    assert!(with(time("PT1M30S"), ScormVersion::V12).is_err());
    assert!(with(time("PT1M30.5S"), ScormVersion::V2004).is_ok());
    assert!(with(time("<script>"), ScormVersion::V2004).is_err());
    let suspend = |chars: usize| Cmi { suspend_data: Some("é".repeat(chars)), ..Cmi::default() };
    assert!(with(suspend(MAX_SUSPEND_DATA_CHARS), ScormVersion::V12).is_ok());
    assert_eq!(
        with(suspend(MAX_SUSPEND_DATA_CHARS + 1), ScormVersion::V12),
        Err(CommitRefusal::TooLong { element: "suspend_data", limit: MAX_SUSPEND_DATA_CHARS })
    );
}

#[test]
fn completed_or_passed_completes_the_course() {
    for (cmi, completes) in [
        (v12("passed"), true),
        (v12("completed"), true),
        (v12("failed"), false),
        (v12("incomplete"), false),
        (Cmi { completion_status: Some("completed".into()), success_status: Some("failed".into()), ..Cmi::default() }, true),
        (Cmi { completion_status: Some("incomplete".into()), success_status: Some("passed".into()), ..Cmi::default() }, true),
        (Cmi { completion_status: Some("incomplete".into()), success_status: Some("unknown".into()), ..Cmi::default() }, false),
        (Cmi::default(), false),
    ] {
        assert_eq!(cmi.completes(), completes, "{cmi:?}");
    }
    assert!(!v12("not attempted").started() && v12("browsed").started());
    assert!(Cmi { suspend_data: Some("p=2".into()), ..Cmi::default() }.started());
}
