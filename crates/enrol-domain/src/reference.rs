//! Order references a person can read out over the phone: `B-7K3P9` for a
//! booking, `E-4HX2M` for an e-learning order. The five characters come
//! from Crockford's base 32 (no I, L, O or U, so nothing reads as another
//! character), and are unique across both kinds: each order takes the next
//! number from one counter, and the number is spread over the 2^25 codes by
//! a multiplication that never gives two numbers the same code.

use crate::crockford::{self, ALPHABET};

/// How many codes there are: five characters of five bits.
pub const CODES: i64 = 1 << 25;
/// Odd, so multiplying by it modulo [`CODES`] is a one-to-one map.
const STEP: i64 = 22_695_477;
const OFFSET: i64 = 9_876_543;

/// Which list an order is in; its letter starts the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderKind {
    /// An in-person booking (`enrollment`).
    Booking,
    /// An e-learning order (`online_order`).
    Online,
}

impl OrderKind {
    fn letter(self) -> char {
        match self {
            OrderKind::Booking => 'B',
            OrderKind::Online => 'E',
        }
    }
}

/// The five characters for the `number`th order (counted from 1).
pub fn code(number: i64) -> String {
    let spread = (number.rem_euclid(CODES) * STEP + OFFSET).rem_euclid(CODES);
    (0..5).rev().map(|digit| char::from(ALPHABET[((spread >> (5 * digit)) & 31) as usize])).collect()
}

/// The reference of the `number`th order, of `kind`.
pub fn reference(kind: OrderKind, number: i64) -> String {
    format!("{}-{}", kind.letter(), code(number))
}

/// The code someone typed or read out, however they wrote it: any case,
/// with or without the kind's letter, spaces or dashes, and with the
/// letters people confuse with digits (O for 0, I and L for 1). `None` when
/// it cannot be a reference.
pub fn typed_code(input: &str) -> Option<String> {
    let cleaned = crockford::read_typed(input);
    let code = match cleaned.len() {
        5 => cleaned.as_str(),
        6 if cleaned.starts_with(['B', 'E']) => &cleaned[1..],
        _ => return None,
    };
    crockford::is_code(code).then(|| code.to_owned())
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn no_two_orders_share_a_code() {
        let codes: HashSet<String> = (1..=200_000).map(code).collect();
        assert_eq!(codes.len(), 200_000);
    }

    #[test]
    fn the_code_is_five_characters_nobody_misreads() {
        for number in [1, 2, 3, 99, 123_456, CODES - 1] {
            let code = code(number);
            assert_eq!(code.len(), 5);
            assert!(!code.contains(['I', 'L', 'O', 'U']), "{code}");
        }
        assert_ne!(code(1)[..3], code(2)[..3], "neighbours do not look alike");
    }

    #[test]
    fn references_name_their_kind() {
        assert!(reference(OrderKind::Booking, 7).starts_with("B-"));
        assert!(reference(OrderKind::Online, 7).starts_with("E-"));
        assert_eq!(reference(OrderKind::Booking, 7)[2..], reference(OrderKind::Online, 7)[2..]);
    }

    #[test]
    fn a_reference_is_found_however_it_is_typed() {
        let reference = reference(OrderKind::Booking, 41);
        let code = &reference[2..];
        for typed in [reference.clone(), reference.to_lowercase(), code.to_owned(), format!(" {} ", code.to_lowercase())] {
            assert_eq!(typed_code(&typed).as_deref(), Some(code), "{typed}");
        }
        assert_eq!(typed_code("b-7k3p9").as_deref(), Some("7K3P9"));
        assert_eq!(typed_code("7K3PO").as_deref(), Some("7K3P0"));
        assert_eq!(typed_code("E 1LI00").as_deref(), Some("11100"));
        assert_eq!(typed_code("7K3P"), None);
        assert_eq!(typed_code("X-7K3P9"), None);
        assert_eq!(typed_code("7K3U9"), None);
    }
}
