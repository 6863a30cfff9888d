//! Pixels as a PNG: for what cannot take WebP or SVG, such as the logo at
//! the top of a mail.

use resvg::tiny_skia::{IntSize, Pixmap};

use crate::{Pixels, RenderError};

/// `pixels` as a PNG, their transparency kept.
pub fn encode_png(pixels: &Pixels) -> Result<Vec<u8>, RenderError> {
    let size = IntSize::from_wh(pixels.width, pixels.height)
        .ok_or(RenderError::TooLarge { width: u64::from(pixels.width), height: u64::from(pixels.height) })?;
    // The pixmap holds colours multiplied by their opacity, as PNG encoding expects of it.
    let data: Vec<u8> = if pixels.has_alpha {
        pixels
            .data
            .chunks_exact(4)
            .flat_map(|p| {
                let alpha = u16::from(p[3]);
                let times = |c: u8| ((u16::from(c) * alpha + 127) / 255) as u8;
                [times(p[0]), times(p[1]), times(p[2]), p[3]]
            })
            .collect()
    } else {
        pixels.data.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect()
    };
    let pixmap = Pixmap::from_vec(data, size).ok_or_else(|| RenderError::Encode("The pixels do not fill the image".to_owned()))?;
    pixmap.encode_png().map_err(|e| RenderError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_transparent_image_stays_so() {
        let pixels = Pixels { data: vec![200, 100, 50, 128, 0, 0, 0, 0], width: 2, height: 1, has_alpha: true };
        let png = encode_png(&pixels).unwrap();
        let back = Pixmap::decode_png(&png).unwrap();
        assert_eq!((back.width(), back.height()), (2, 1));
        let first = back.pixel(0, 0).unwrap().demultiply();
        let near = |a: u8, b: u8| a.abs_diff(b) <= 1;
        assert!(near(first.red(), 200) && near(first.green(), 100) && near(first.blue(), 50) && first.alpha() == 128, "{first:?}");
        assert_eq!(back.pixel(1, 0).unwrap().alpha(), 0);
    }
}
