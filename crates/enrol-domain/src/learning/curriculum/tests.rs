//! A curriculum as content (its fields, its videos) and the course's
//! order as the player walks it.

use super::fixtures::course;
use super::*;

#[test]
fn a_body_with_an_unknown_field_or_video_host_is_refused() {
    let mut value = serde_json::to_value(course()).expect("JSON");
    assert_eq!(serde_json::from_value::<Curriculum>(value.clone()).expect("read back"), course());
    value["modules"][0]["lessons"][0]["transcript"] = "words".into();
    assert!(serde_json::from_value::<Curriculum>(value).is_err());
    let video = |json| serde_json::from_value::<Video>(json);
    assert_eq!(
        video(serde_json::json!({"source": "youtube", "id": "dQw4w9WgXcQ"})).ok(),
        Some(Video::YouTube { id: "dQw4w9WgXcQ".to_owned() })
    );
    assert!(video(serde_json::json!({"source": "dailymotion", "id": "x8abc"})).is_err());
    assert!(video(serde_json::json!({"source": "vimeo", "id": "1", "autoplay": true})).is_err());
}

#[test]
fn only_youtube_and_vimeo_are_embedded() {
    assert_eq!(
        Video::YouTube { id: "dQw4w9WgXcQ".to_owned() }.embed_url().as_deref(),
        Some("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")
    );
    assert_eq!(Video::Vimeo { id: "76979871".to_owned() }.embed_url().as_deref(), Some("https://player.vimeo.com/video/76979871"));
    assert_eq!(Video::Upload { file: "files/0a1b.mp4".to_owned() }.embed_url(), None);
}

#[test]
fn a_course_names_the_files_its_lessons_play_and_offer() {
    let mut curriculum = course();
    curriculum.modules[0].lessons[1].video = Some(Video::Upload { file: "files/0a1b.webm".to_owned() });
    curriculum.modules[2].lessons[0].downloads = vec![Download { title: "Notes".to_owned(), file: "files/2c3d.pdf".to_owned() }];
    assert!(curriculum.names_file("files/0a1b.webm"));
    assert!(curriculum.names_file("files/2c3d.pdf"));
    assert!(!curriculum.names_file("files/4e5f.pdf"), "a file of another course");
    assert!(!curriculum.names_file("files/0a1b"));
}

#[test]
fn lessons_quizzes_and_steps_go_in_course_order() {
    let curriculum = course();
    let slugs = |items: Vec<&str>| items.join(" ");
    assert_eq!(slugs(curriculum.lessons().map(|l| l.slug.as_str()).collect()), "cells tissues epidermis dermis appendages healing");
    assert_eq!(slugs(curriculum.quizzes().map(|q| q.slug.as_str()).collect()), "cells-quiz healing-quiz final");
    assert_eq!(
        slugs(curriculum.steps().map(Step::slug).collect()),
        "cells tissues cells-quiz epidermis dermis appendages healing healing-quiz final"
    );
}

#[test]
fn lessons_and_quizzes_are_found_by_slug_and_kind() {
    let curriculum = course();
    assert_eq!(curriculum.lesson("dermis").map(|l| l.title.as_str()), Some("Lesson dermis"));
    assert_eq!(curriculum.lesson("cells-quiz"), None);
    assert_eq!(curriculum.lesson("gone"), None);
    assert_eq!(curriculum.quiz("final").map(|q| q.pass_mark), Some(70));
    assert_eq!(curriculum.quiz("healing-quiz").map(|q| q.title.as_str()), Some("Quiz healing-quiz"));
    assert_eq!(curriculum.quiz("healing"), None);
    assert_eq!(curriculum.module_of("dermis"), Some(1));
    assert_eq!(curriculum.module_of("healing-quiz"), Some(2));
    assert_eq!(curriculum.module_of("final"), None);
}

#[test]
fn the_lesson_before_and_after_crosses_modules_and_stops_at_the_ends() {
    let curriculum = course();
    let slug = |lesson: Option<&Lesson>| lesson.map(|l| l.slug.clone());
    assert_eq!(slug(curriculum.lesson_before("cells")), None);
    assert_eq!(slug(curriculum.lesson_after("cells")), Some("tissues".to_owned()));
    assert_eq!(slug(curriculum.lesson_after("tissues")), Some("epidermis".to_owned()));
    assert_eq!(slug(curriculum.lesson_before("epidermis")), Some("tissues".to_owned()));
    assert_eq!(slug(curriculum.lesson_before("healing")), Some("appendages".to_owned()));
    assert_eq!(slug(curriculum.lesson_after("healing")), None);
    assert_eq!(slug(curriculum.lesson_after("cells-quiz")), None);
    assert_eq!(slug(curriculum.lesson_before("gone")), None);
}
