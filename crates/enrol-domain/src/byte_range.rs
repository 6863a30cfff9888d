//! What a `Range` request header asks of a file of known length (RFC 9110,
//! section 14), for files served in parts: a lesson's video is sought
//! through, not read from the start. One range is answered; several, and a
//! header that does not parse, get the whole file, as the RFC allows.

/// How to answer a request for a file of some length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeAnswer {
    /// The whole file (200).
    Whole,
    /// Bytes `first..=last` (206).
    Part { first: u64, last: u64 },
    /// No byte of the file is in the range asked (416).
    Unsatisfiable,
}

impl RangeAnswer {
    /// The answer to `range` (the header's value, if sent) for a file of
    /// `length` bytes.
    pub fn of(range: Option<&str>, length: u64) -> RangeAnswer {
        let Some(spec) = range.and_then(|range| {
            let (unit, spec) = range.trim().split_once('=')?;
            unit.trim().eq_ignore_ascii_case("bytes").then_some(spec.trim())
        }) else {
            return RangeAnswer::Whole;
        };
        if spec.contains(',') {
            return RangeAnswer::Whole;
        }
        let Some((first, last)) = spec.split_once('-') else { return RangeAnswer::Whole };
        let number = |text: &str| -> Option<u64> { text.bytes().all(|b| b.is_ascii_digit()).then(|| text.parse().ok()).flatten() };
        let (first, last) = (first.trim(), last.trim());
        if first.is_empty() {
            // `-n`: the last n bytes.
            return match number(last) {
                None => RangeAnswer::Whole,
                Some(0) => RangeAnswer::Unsatisfiable,
                Some(_) if length == 0 => RangeAnswer::Unsatisfiable,
                Some(suffix) => RangeAnswer::Part { first: length.saturating_sub(suffix), last: length - 1 },
            };
        }
        let Some(first) = number(first) else { return RangeAnswer::Whole };
        let last = match (last.is_empty(), number(last)) {
            (true, _) => None,
            (false, Some(last)) if last >= first => Some(last),
            (false, _) => return RangeAnswer::Whole,
        };
        if first >= length {
            return RangeAnswer::Unsatisfiable;
        }
        RangeAnswer::Part { first, last: last.map_or(length - 1, |last| last.min(length - 1)) }
    }
}

#[cfg(test)]
mod tests {
    use super::RangeAnswer::{self, *};

    fn of(range: &str) -> RangeAnswer {
        RangeAnswer::of(Some(range), 1000)
    }

    #[test]
    fn one_range_is_answered_in_part() {
        assert_eq!(of("bytes=0-99"), Part { first: 0, last: 99 });
        assert_eq!(of("bytes=500-599"), Part { first: 500, last: 599 });
        assert_eq!(of("bytes=990-2000"), Part { first: 990, last: 999 }, "a last byte past the end is the end");
        assert_eq!(of("bytes=900-"), Part { first: 900, last: 999 }, "open-ended");
        assert_eq!(of("bytes=0-"), Part { first: 0, last: 999 });
        assert_eq!(of("bytes=-100"), Part { first: 900, last: 999 }, "the last 100 bytes");
        assert_eq!(of("bytes=-5000"), Part { first: 0, last: 999 }, "a suffix longer than the file is all of it");
        assert_eq!(of("Bytes = 1-1"), Part { first: 1, last: 1 });
    }

    #[test]
    fn a_range_past_the_end_is_unsatisfiable() {
        assert_eq!(of("bytes=1000-"), Unsatisfiable);
        assert_eq!(of("bytes=1000-1200"), Unsatisfiable);
        assert_eq!(of("bytes=-0"), Unsatisfiable);
        assert_eq!(RangeAnswer::of(Some("bytes=-10"), 0), Unsatisfiable);
    }

    #[test]
    fn anything_else_gets_the_whole_file() {
        assert_eq!(RangeAnswer::of(None, 1000), Whole);
        for range in ["bytes=0-1,5-9", "items=0-9", "bytes=9-1", "bytes=a-b", "bytes=-", "bytes=5", "0-9", "bytes=+1-2", "bytes=1--2"] {
            assert_eq!(of(range), Whole, "{range}");
        }
    }
}
