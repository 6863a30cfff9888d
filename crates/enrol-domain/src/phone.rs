//! Phone numbers in international form: drop spaces and leading zeros, prefix +44.

/// `01632 960 123` becomes `+441632960123`. A number already starting with
/// `+` keeps its own country code, with spaces removed.
pub fn to_international(raw: &str) -> String {
    let compact: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.starts_with('+') {
        return compact;
    }
    format!("+44{}", compact.trim_start_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::to_international;

    #[test]
    fn uk_numbers_get_the_country_code() {
        assert_eq!(to_international("01632 960 123"), "+441632960123");
        assert_eq!(to_international("07700 900123"), "+447700900123");
        assert_eq!(to_international("  0 20 7946 0000 "), "+442079460000");
        assert_eq!(to_international("7700900123"), "+447700900123");
    }

    #[test]
    fn international_numbers_are_kept() {
        assert_eq!(to_international("+44 7700 900123"), "+447700900123");
        assert_eq!(to_international("+353 1 555 0100"), "+35315550100");
    }
}
