//! The one rule of a slug, the part of an address an editor names: a
//! course, a page, a lesson, a quiz, a question.

/// Lower-case letters, digits and single hyphens, 1 to 80 characters.
pub fn is_slug(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 80
        && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !text.starts_with('-')
        && !text.ends_with('-')
        && !text.contains("--")
}
