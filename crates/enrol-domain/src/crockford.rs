//! Crockford's base 32, for codes people read out and type: digits and
//! capitals without I, L, O and U, so no character reads as another.

pub const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// What a person typed, as the code it stands for: spaces and dashes left
/// out, in capitals, O read as 0 and I and L as 1.
pub fn read_typed(input: &str) -> String {
    input
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        })
        .collect()
}

/// Whether every character of `code` is one of the alphabet's.
pub fn is_code(code: &str) -> bool {
    code.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_slips_read_as_the_code() {
        assert_eq!(read_typed(" b-7k3p o "), "B7K3P0");
        assert_eq!(read_typed("il1"), "111");
        assert!(is_code("7K3P9") && !is_code("7K3U9") && !is_code("7k3p9"));
    }
}
