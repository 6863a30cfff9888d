//! Raster sources decoded to interleaved 8-bit pixels, each after its size
//! is checked from the header, so a small file claiming a huge image is
//! refused before any memory is taken for it.

use resvg::tiny_skia::Pixmap;

use crate::{MAX_SOURCE_PIXELS, RenderError};

mod orient;

/// Decoded pixels: RGB (`channels` 3) or RGBA (4), straight alpha.
pub(crate) struct Decoded {
    pub(crate) pixels: Vec<u8>,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) channels: usize,
}

pub(crate) fn check_source_size(width: u64, height: u64) -> Result<(), RenderError> {
    if width == 0 || height == 0 {
        return Err(RenderError::Decode("the image has no pixels".to_owned()));
    }
    if width.saturating_mul(height) > MAX_SOURCE_PIXELS {
        return Err(RenderError::TooLarge { width, height });
    }
    Ok(())
}

/// A PNG as a premultiplied pixmap.
pub(crate) fn png(data: &[u8]) -> Result<Pixmap, RenderError> {
    let (width, height) = png_size(data)?;
    check_source_size(width, height)?;
    Pixmap::decode_png(data).map_err(|e| RenderError::Decode(e.to_string()))
}

/// A PNG's size from its header, before anything is decoded.
fn png_size(data: &[u8]) -> Result<(u64, u64), RenderError> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if data.len() < 24 || &data[..8] != SIGNATURE || &data[12..16] != b"IHDR" {
        return Err(RenderError::Decode("not a PNG file".to_owned()));
    }
    let number = |at: usize| u64::from(u32::from_be_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]));
    Ok((number(16), number(20)))
}

/// A JPEG as RGB, upright as its EXIF orientation says. `strict` refuses a damaged or cut-short file, which
/// is otherwise drawn as far as it goes (as browsers do).
pub(crate) fn jpeg(data: &[u8], strict: bool) -> Result<Decoded, RenderError> {
    use zune_jpeg::zune_core::bytestream::ZCursor;
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    use zune_jpeg::zune_core::options::DecoderOptions;
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGB)
        .set_max_width(usize::MAX)
        .set_max_height(usize::MAX)
        .set_strict_mode(strict);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(data), options);
    decoder.decode_headers().map_err(|e| RenderError::Decode(format!("{e:?}")))?;
    let (width, height) = decoder.dimensions().ok_or_else(|| RenderError::Decode("no JPEG frame".to_owned()))?;
    check_source_size(width as u64, height as u64)?;
    let pixels = decoder.decode().map_err(|e| RenderError::Decode(format!("{e:?}")))?;
    let size = |n: usize| u32::try_from(n).map_err(|_| RenderError::Decode("size".to_owned()));
    let turn = decoder.exif().map_or(1, |exif| orient::orientation(exif));
    Ok(orient::upright(Decoded { pixels, width: size(width)?, height: size(height)?, channels: 3 }, turn))
}

/// A still WebP (lossy or lossless) as RGB, or RGBA when it has alpha.
pub(crate) fn webp(data: &[u8]) -> Result<Decoded, RenderError> {
    let features = webp::BitstreamFeatures::new(data).ok_or_else(|| RenderError::Decode("not a WebP file".to_owned()))?;
    if features.has_animation() {
        return Err(RenderError::Decode("an animated WebP".to_owned()));
    }
    check_source_size(u64::from(features.width()), u64::from(features.height()))?;
    let image = webp::Decoder::new(data).decode().ok_or_else(|| RenderError::Decode("the WebP data is damaged".to_owned()))?;
    let channels = if image.is_alpha() { 4 } else { 3 };
    Ok(Decoded { pixels: image.to_vec(), width: image.width(), height: image.height(), channels })
}
