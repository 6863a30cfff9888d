use super::*;

const RUNTIME: Option<&str> = Some("/assets/scorm-12-abc.js");

fn added(page: &str, seed: &str) -> String {
    String::from_utf8(with_runtime(page.as_bytes(), RUNTIME, seed)).unwrap()
}

#[test]
fn the_runtime_comes_first_in_the_head() {
    let page = added("<!doctype html><HTML lang=en><Head data-x=1><header></header><script src=lms.js></script></head></html>", "{}");
    assert_eq!(
        page,
        r#"<!doctype html><HTML lang=en><Head data-x=1><script src="/assets/scorm-12-abc.js" data-seed="{}"></script><header></header><script src=lms.js></script></head></html>"#
    );
    // <header> is not <head>: without a head, just after <html>.
    assert!(added("<html><header></header></html>", "{}").starts_with("<html><script "));
    assert!(added("<p>No head at all</p>", "{}").starts_with("<script "));
}

#[test]
fn the_seed_cannot_leave_its_attribute() {
    let page = added("<head></head>", r#"{"suspendData":"\"></script><script>alert(1)</script>&'"}"#);
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(page.contains("&quot;&gt;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#39;"), "{page}");
}

#[test]
fn a_page_in_another_encoding_keeps_its_bytes() {
    let latin1 = b"<head><title>Caf\xe9</title></head>";
    let out = with_runtime(latin1, RUNTIME, "{}");
    assert!(out.ends_with(b"<title>Caf\xe9</title></head>"));
    assert_eq!(with_runtime(latin1, None, "{}"), latin1);
}
