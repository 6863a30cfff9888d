//! A photo's EXIF orientation, applied to its pixels: cameras store a
//! portrait photo on its side with a tag saying how to turn it, and once an
//! upload is written again without its EXIF (or resized to WebP) the turn
//! must be in the pixels, or the photo shows on its side.

use super::Decoded;

/// The orientation tag (1 to 8) of EXIF data that starts at its TIFF
/// header; 1 (as stored) when there is none or it cannot be read.
pub(crate) fn orientation(exif: &[u8]) -> u16 {
    let big_endian = match exif.get(..2) {
        Some(b"MM") => true,
        Some(b"II") => false,
        _ => return 1,
    };
    let u16_at = |at: usize| {
        exif.get(at..at + 2).map(|b| if big_endian { u16::from_be_bytes([b[0], b[1]]) } else { u16::from_le_bytes([b[0], b[1]]) })
    };
    let u32_at = |at: usize| {
        exif.get(at..at + 4)
            .map(|b| if big_endian { u32::from_be_bytes([b[0], b[1], b[2], b[3]]) } else { u32::from_le_bytes([b[0], b[1], b[2], b[3]]) })
    };
    let Some(first) = u32_at(4).and_then(|offset| usize::try_from(offset).ok()) else { return 1 };
    let entries = u16_at(first).unwrap_or(0);
    (0..usize::from(entries))
        .map(|i| first + 2 + i * 12)
        .find(|&entry| u16_at(entry) == Some(0x0112) && u16_at(entry + 2) == Some(3))
        .and_then(|entry| u16_at(entry + 8))
        .filter(|value| (1..=8).contains(value))
        .unwrap_or(1)
}

/// `image` turned and flipped as `orientation` says, to be seen upright.
pub(crate) fn upright(image: Decoded, orientation: u16) -> Decoded {
    if !(2..=8).contains(&orientation) {
        return image;
    }
    let (w, h, channels) = (image.width as usize, image.height as usize, image.channels);
    let turned = orientation >= 5;
    let (out_w, out_h) = if turned { (h, w) } else { (w, h) };
    let mut pixels = Vec::with_capacity(image.pixels.len());
    for y in 0..out_h {
        for x in 0..out_w {
            let (sx, sy) = match orientation {
                2 => (w - 1 - x, y),
                3 => (w - 1 - x, h - 1 - y),
                4 => (x, h - 1 - y),
                5 => (y, x),
                6 => (y, h - 1 - x),
                7 => (w - 1 - y, h - 1 - x),
                _ => (w - 1 - y, x),
            };
            let at = (sy * w + sx) * channels;
            pixels.extend_from_slice(&image.pixels[at..at + channels]);
        }
    }
    Decoded { pixels, width: out_w as u32, height: out_h as u32, channels }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// EXIF with one IFD0 entry: the orientation, in either byte order.
    fn exif(value: u16, big_endian: bool) -> Vec<u8> {
        let u16b = |n: u16| if big_endian { n.to_be_bytes() } else { n.to_le_bytes() };
        let u32b = |n: u32| if big_endian { n.to_be_bytes() } else { n.to_le_bytes() };
        let mut data = if big_endian { b"MM".to_vec() } else { b"II".to_vec() };
        data.extend(u16b(42));
        data.extend(u32b(8));
        data.extend(u16b(1));
        data.extend(u16b(0x0112));
        data.extend(u16b(3));
        data.extend(u32b(1));
        data.extend(u16b(value));
        data.extend([0, 0]);
        data
    }

    #[test]
    fn reads_the_orientation_in_either_byte_order_and_ignores_the_unreadable() {
        assert_eq!(orientation(&exif(6, true)), 6);
        assert_eq!(orientation(&exif(8, false)), 8);
        assert_eq!(orientation(&exif(9, false)), 1);
        assert_eq!(orientation(&exif(6, true)[..12]), 1);
        assert_eq!(orientation(b"GPSLatitude 51.5 N"), 1);
        assert_eq!(orientation(b""), 1);
    }

    #[test]
    fn turns_and_flips_the_pixels() {
        // 3 × 2, one channel: 1 2 3 / 4 5 6.
        let image = || Decoded { pixels: vec![1, 2, 3, 4, 5, 6], width: 3, height: 2, channels: 1 };
        let cases: [(u16, u32, &[u8]); 8] = [
            (1, 3, &[1, 2, 3, 4, 5, 6]),
            (2, 3, &[3, 2, 1, 6, 5, 4]),
            (3, 3, &[6, 5, 4, 3, 2, 1]),
            (4, 3, &[4, 5, 6, 1, 2, 3]),
            (5, 2, &[1, 4, 2, 5, 3, 6]),
            (6, 2, &[4, 1, 5, 2, 6, 3]),
            (7, 2, &[6, 3, 5, 2, 4, 1]),
            (8, 2, &[3, 6, 2, 5, 1, 4]),
        ];
        for (orientation, width, pixels) in cases {
            let turned = upright(image(), orientation);
            assert_eq!((turned.width, turned.height, turned.pixels.as_slice()), (width, 6 / width, pixels), "orientation {orientation}");
        }
    }
}
