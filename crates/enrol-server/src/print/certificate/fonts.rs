//! Text in PDF's standard fonts, which every reader has, so the certificate
//! embeds none: characters as WinAnsi bytes, and how wide they draw.

use pdf_writer::Name;
use unicode_normalization::UnicodeNormalization as _;

use super::metrics;

/// The fonts the certificate is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Font {
    Roman,
    Bold,
    Italic,
    Sans,
}

impl Font {
    pub(super) const ALL: [Font; 4] = [Font::Roman, Font::Bold, Font::Italic, Font::Sans];

    /// Its name among the page's resources.
    pub(super) fn resource(self) -> Name<'static> {
        Name(match self {
            Font::Roman => b"F1",
            Font::Bold => b"F2",
            Font::Italic => b"F3",
            Font::Sans => b"F4",
        })
    }

    /// The standard font it is.
    pub(super) fn base_font(self) -> Name<'static> {
        Name(match self {
            Font::Roman => b"Times-Roman",
            Font::Bold => b"Times-Bold",
            Font::Italic => b"Times-Italic",
            Font::Sans => b"Helvetica",
        })
    }

    /// How wide `text` (WinAnsi, as [`win_ansi`] makes it) draws at `size` points.
    pub(super) fn width(self, text: &[u8], size: f32) -> f32 {
        let widths = match self {
            Font::Roman => &metrics::TIMES_ROMAN,
            Font::Bold => &metrics::TIMES_BOLD,
            Font::Italic => &metrics::TIMES_ITALIC,
            Font::Sans => &metrics::HELVETICA,
        };
        let thousandths: u32 = text.iter().filter_map(|&byte| widths.get(usize::from(byte).checked_sub(32)?)).map(|&w| u32::from(w)).sum();
        thousandths as f32 * size / 1000.0
    }
}

/// `text` in WinAnsi (Windows-1252), the standard fonts' encoding, which
/// holds the letters of western European names ("Zoë Núñez"). Any other
/// Latin letter is drawn without its accent ("Dvořák" as "Dvorak"), a
/// space of any kind as a space, and anything else as "?".
pub(super) fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| {
            let base = || c.nfd().next().and_then(win_ansi_byte);
            win_ansi_byte(c).or_else(base).or_else(|| unaccented(c)).unwrap_or(b'?')
        })
        .collect()
}

fn win_ansi_byte(c: char) -> Option<u8> {
    match u32::from(c) {
        0x20..=0x7e | 0xa0..=0xff => u8::try_from(u32::from(c)).ok(),
        _ if c.is_whitespace() => Some(b' '),
        _ => Some(match c {
            '€' => 0x80,
            '‚' => 0x82,
            'ƒ' => 0x83,
            '„' => 0x84,
            '…' => 0x85,
            '†' => 0x86,
            '‡' => 0x87,
            'ˆ' => 0x88,
            '‰' => 0x89,
            'Š' => 0x8a,
            '‹' => 0x8b,
            'Œ' => 0x8c,
            'Ž' => 0x8e,
            '‘' => 0x91,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '•' => 0x95,
            '–' => 0x96,
            '—' => 0x97,
            '˜' => 0x98,
            '™' => 0x99,
            'š' => 0x9a,
            '›' => 0x9b,
            'œ' => 0x9c,
            'ž' => 0x9e,
            'Ÿ' => 0x9f,
            _ => return None,
        }),
    }
}

/// The Latin letters whose stroke is no accent to take off.
fn unaccented(c: char) -> Option<u8> {
    Some(match c {
        'ł' => b'l',
        'Ł' => b'L',
        'đ' => b'd',
        'Đ' => b'D',
        'ħ' => b'h',
        'Ħ' => b'H',
        'ı' => b'i',
        'ŧ' => b't',
        'Ŧ' => b'T',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn western_european_names_keep_their_accents() {
        assert_eq!(win_ansi("Zoë Núñez"), b"Zo\xeb N\xfa\xf1ez");
        assert_eq!(win_ansi("Siân O’Brien – £50 €"), b"Si\xe2n O\x92Brien \x96 \xa350 \x80");
    }

    #[test]
    fn other_latin_letters_lose_their_accent_and_other_scripts_are_marked() {
        assert_eq!(win_ansi("Dvořák Łukasz Şahin"), b"Dvor\xe1k Lukasz Sahin");
        assert_eq!(win_ansi("王 Ω"), b"? ?");
        assert_eq!(win_ansi("a\tb\u{2009}c"), b"a b c");
    }

    #[test]
    fn widths_are_the_standard_fonts_own() {
        assert_eq!(Font::Roman.width(b"A", 1000.0), 722.0);
        assert!((Font::Sans.width(b"Hello", 10.0) - 22.78).abs() < 1e-3);
        assert_eq!(Font::Bold.width(b"\xe9", 1000.0), Font::Bold.width(b"e", 1000.0));
    }
}
