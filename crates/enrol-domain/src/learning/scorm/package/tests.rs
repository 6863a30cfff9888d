use super::*;

#[test]
fn plain_relative_names_are_kept_and_folders_and_litter_skipped() {
    assert_eq!(entry_path("index.html"), Ok(Some("index.html".to_owned())));
    assert_eq!(entry_path("./shared/lms.js"), Ok(Some("shared/lms.js".to_owned())));
    assert_eq!(entry_path("media/"), Ok(None));
    assert_eq!(entry_path("__MACOSX/._index.html"), Ok(None));
    assert_eq!(entry_path("images/.DS_Store"), Ok(None));
}

#[test]
fn names_that_leave_the_folder_are_refused() {
    for name in [
        "../evil.html",
        "a/../../evil.html",
        "/etc/passwd.txt",
        "C:/evil.html",
        "c:evil.html",
        "a\\..\\evil.html",
        "a//b.html",
        "a\u{0}.html",
    ] {
        assert!(matches!(entry_path(name), Err(Refusal::OutsideFolder(_))), "{name:?} was let through");
    }
    assert!(matches!(entry_path(&format!("{}.html", "a".repeat(MAX_PATH_CHARS))), Err(Refusal::OutsideFolder(_))));
}

#[test]
fn only_the_files_a_web_page_uses_are_allowed() {
    for name in ["run.exe", "setup.sh", "lib.dll", "start.bat", "x.cmd", "page.php", "Makefile", "tool.jar", "a.HTML.exe"] {
        assert!(matches!(entry_path(name), Err(Refusal::FileType(_))), "{name} was let through");
    }
    assert_eq!(content_type("Index.HTM"), Some("text/html; charset=utf-8"));
    assert_eq!(content_type("fonts/a.woff2"), Some("font/woff2"));
    assert!(is_page("story.html") && !is_page("story.js"));
}

#[test]
fn the_tally_refuses_too_many_files_too_many_bytes_and_a_bomb() {
    let mut tally = Tally::default();
    for n in 0..LIMITS.files {
        tally.add(&format!("{n}.txt"), 10, 10).unwrap();
    }
    assert_eq!(tally.add("one-more.txt", 10, 10), Err(Refusal::TooManyFiles));

    let mut tally = Tally::default();
    tally.add("big.mp4", LIMITS.unpacked_bytes, LIMITS.unpacked_bytes).unwrap();
    assert_eq!(tally.add("more.mp4", 1, 1), Err(Refusal::UnpacksTooLarge));

    let mut tally = Tally::default();
    // A small page of spaces packs well and is fine; a megabyte of zeros packed into a kilobyte is not.
    tally.add("spaces.html", 10, 100_000).unwrap();
    let bomb = RATIO_FREE_BYTES + 1;
    assert_eq!(tally.add("zeros.txt", bomb / (LIMITS.ratio + 1), bomb), Err(Refusal::Bomb("zeros.txt".to_owned())));
}
