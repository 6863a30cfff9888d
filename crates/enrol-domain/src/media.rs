//! The content media library's one rule of its own (decision 018): every image
//! has alt text, what a screen reader says instead of it.

/// The longest alt text kept, in characters.
pub const MAX_ALT_CHARS: usize = 300;

/// The alt text to keep: what was typed, trimmed; or the message to show
/// beside the field.
pub fn alt_text(typed: &str) -> Result<String, &'static str> {
    let alt = typed.trim();
    if alt.is_empty() {
        return Err("Describe the image for people who cannot see it.");
    }
    if alt.chars().count() > MAX_ALT_CHARS {
        return Err("Keep the alt text to 300 characters or fewer.");
    }
    Ok(alt.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alt_text_is_required_and_short() {
        assert_eq!(alt_text("  Two students at a treatment couch "), Ok("Two students at a treatment couch".to_owned()));
        assert!(alt_text("").is_err());
        assert!(alt_text(" \n\t ").is_err());
        assert_eq!(alt_text(&"é".repeat(300)).map(|a| a.chars().count()), Ok(300));
        assert!(alt_text(&"a".repeat(301)).is_err());
    }
}
