//! Images staff upload for the site's content (decision 018): known by their
//! bytes, never by the name or type the browser sent, and decoded to prove
//! they are what they claim. Each is then written again, so only the
//! picture is kept: a JPEG, PNG or WebP loses its metadata (EXIF, GPS,
//! comments) and keeps its format; an SVG is parsed by usvg and written
//! back from its tree, which holds only drawing, so no script, event
//! attribute, foreign object, link, entity or outside reference survives;
//! and it is taken only if it can be drawn at every width the site asks
//! for without holding a core for long (its filters, mostly: see `cost`).

use std::sync::Arc;

use resvg::usvg;
use webp::{BitstreamFeatures, BitstreamFormat, PixelLayout};

use crate::decode::{self, Decoded};
use crate::raster::encode;
use crate::{DEVICE_SIZES, IMAGE_SIZES, RenderError, Renderer, SourceFormat, canvas};

/// The largest file taken: 10 MB.
pub const MAX_UPLOAD_BYTES: usize = 10 * 1024 * 1024;
/// JPEG and lossy WebP are written again at this quality: high enough that
/// a second generation is not seen, and the site resizes them anyway.
const QUALITY: u8 = 90;

/// An uploaded image, cleaned: its format, bytes to keep and serve, and
/// its size in pixels (an SVG's in CSS pixels, rounded).
#[derive(Debug, Clone)]
pub struct CleanImage {
    pub format: SourceFormat,
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Why an upload was refused, in words for the person who sent it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    #[error("The file is empty.")]
    Empty,
    #[error("The image is larger than 10 MB. Please save a smaller copy and try again.")]
    TooLarge,
    #[error("Please choose a JPEG, PNG, WebP or SVG image.")]
    NotAnImage,
    #[error("The file looks like a {0} image but cannot be read: it may be damaged or cut short.")]
    Damaged(&'static str),
    #[error("The image is {width} × {height} pixels, more than the 50 million taken. Please save a smaller copy.")]
    TooManyPixels { width: u64, height: u64 },
    #[error(
        "The SVG's effects (blurs, outlines, textures) would take too long to draw at the site's widths. Please flatten them in your drawing program, or upload the image as a PNG."
    )]
    TooCostly,
    /// A decoded image that could not be written again: the server's fault.
    #[error("the cleaned image could not be encoded: {0}")]
    Encode(String),
}

impl SourceFormat {
    /// What `bytes` are, from their first bytes; SVG for XML text with an
    /// `<svg` element (usvg then decides).
    pub fn of_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            return Some(SourceFormat::Png);
        }
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            return Some(SourceFormat::Jpeg);
        }
        if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            return Some(SourceFormat::Webp);
        }
        let text = std::str::from_utf8(bytes).ok()?;
        let text = text.trim_start_matches('\u{feff}').trim_start();
        (text.starts_with('<') && text.contains("<svg")).then_some(SourceFormat::Svg)
    }

    fn name(self) -> &'static str {
        match self {
            SourceFormat::Svg => "SVG",
            SourceFormat::Png => "PNG",
            SourceFormat::Jpeg => "JPEG",
            SourceFormat::Webp => "WebP",
        }
    }
}

impl Renderer {
    /// `bytes` checked and written again without anything but the picture.
    pub fn clean_upload(&self, bytes: &[u8]) -> Result<CleanImage, UploadError> {
        if bytes.is_empty() {
            return Err(UploadError::Empty);
        }
        if bytes.len() > MAX_UPLOAD_BYTES {
            return Err(UploadError::TooLarge);
        }
        let format = SourceFormat::of_bytes(bytes).ok_or(UploadError::NotAnImage)?;
        let refused = |error: RenderError| match error {
            RenderError::TooLarge { width, height } => UploadError::TooManyPixels { width, height },
            RenderError::Decode(_) => UploadError::Damaged(format.name()),
            RenderError::TooCostly => UploadError::TooCostly,
            RenderError::Encode(reason) => UploadError::Encode(reason),
        };
        let (bytes, width, height) = match format {
            SourceFormat::Svg => return self.clean_svg(bytes),
            SourceFormat::Png => {
                let pixmap = decode::png(bytes).map_err(refused)?;
                let png = pixmap.encode_png().map_err(|e| UploadError::Encode(e.to_string()))?;
                (png, pixmap.width(), pixmap.height())
            }
            SourceFormat::Jpeg => {
                let Decoded { pixels, width, height, .. } = decode::jpeg(bytes, true).map_err(refused)?;
                // A JPEG is at most 65,535 pixels each way, so its size fits.
                let side = |n: u32| u16::try_from(n).map_err(|e| UploadError::Encode(e.to_string()));
                let mut jpeg = Vec::new();
                jpeg_encoder::Encoder::new(&mut jpeg, QUALITY)
                    .encode(&pixels, side(width)?, side(height)?, jpeg_encoder::ColorType::Rgb)
                    .map_err(|e| UploadError::Encode(e.to_string()))?;
                (jpeg, width, height)
            }
            SourceFormat::Webp => {
                let lossless = matches!(BitstreamFeatures::new(bytes).and_then(|f| f.format()), Some(BitstreamFormat::Lossless));
                let image = decode::webp(bytes).map_err(refused)?;
                let layout = if image.channels == 4 { PixelLayout::Rgba } else { PixelLayout::Rgb };
                let webp = if lossless {
                    webp::Encoder::new(&image.pixels, layout, image.width, image.height).encode_lossless().to_vec()
                } else {
                    encode(&image.pixels, layout, image.width, image.height, f32::from(QUALITY)).map_err(refused)?.webp
                };
                (webp, image.width, image.height)
            }
        };
        Ok(CleanImage { format, bytes, width, height })
    }

    fn clean_svg(&self, bytes: &[u8]) -> Result<CleanImage, UploadError> {
        let options = usvg::Options {
            fontdb: Arc::clone(&self.fontdb),
            // Only raster images carried inside the file: never a path on
            // this server's disk (usvg reads those by default), another
            // address or a nested SVG.
            image_href_resolver: usvg::ImageHrefResolver {
                resolve_data: Box::new(|mime, data, _| match mime {
                    "image/jpg" | "image/jpeg" => Some(usvg::ImageKind::JPEG(data)),
                    "image/png" => Some(usvg::ImageKind::PNG(data)),
                    "image/gif" => Some(usvg::ImageKind::GIF(data)),
                    "image/webp" => Some(usvg::ImageKind::WEBP(data)),
                    _ => None,
                }),
                resolve_string: Box::new(|_, _| None),
            },
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_data(bytes, &options).map_err(|_| UploadError::Damaged("SVG"))?;
        // The widest drawing that is not too large is the costliest.
        let mut widest = DEVICE_SIZES.iter().rev().chain(IMAGE_SIZES.iter().rev()).map(|&width| canvas(&tree, width));
        if let Some(Err(RenderError::TooCostly)) = widest.find(|drawn| !matches!(drawn, Err(RenderError::TooLarge { .. }))) {
            return Err(UploadError::TooCostly);
        }
        let size = tree.size();
        let pixels = |length: f32| length.round().max(1.0) as u32;
        // Text is written as paths, drawn with the fonts of this machine.
        let svg = tree.to_string(&usvg::WriteOptions::default());
        Ok(CleanImage { format: SourceFormat::Svg, bytes: svg.into_bytes(), width: pixels(size.width()), height: pixels(size.height()) })
    }
}
