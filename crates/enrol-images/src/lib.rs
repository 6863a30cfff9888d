//! Resized images for the site's `<img>` tags, the way Next.js's image
//! optimiser serves them: a content image (SVG, PNG, JPEG or WebP) scaled to one of
//! a fixed list of widths and encoded as lossy WebP; and images staff upload
//! (decision 018), checked and cleaned by [`Renderer::clean_upload`].
//!
//! Pure work, no I/O: [`ImageRequest::parse`] checks the query parameters and
//! [`Renderer::render`] turns the source's bytes into WebP bytes. The server
//! does the file access, the caching and the scheduling.

use std::sync::Arc;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use webp::PixelLayout;

mod cost;
mod decode;
mod png;
mod raster;
#[cfg(test)]
mod tests;
mod upload;

pub use png::encode_png;
use raster::{Raster, demultiply, encode};
pub use upload::{CleanImage, MAX_UPLOAD_BYTES, UploadError};

/// Next.js's default `images.imageSizes`: fixed-size images (icons, logos).
pub const IMAGE_SIZES: [u32; 8] = [16, 32, 48, 64, 96, 128, 256, 384];
/// Next.js's default `images.deviceSizes`: full-width images, by screen width.
pub const DEVICE_SIZES: [u32; 8] = [640, 750, 828, 1080, 1200, 1920, 2048, 3840];
/// The quality when the request names none, as Next.js's.
pub const DEFAULT_QUALITY: u8 = 75;
/// The site path under which content images are served.
pub const MEDIA_PREFIX: &str = "/media/";
/// The largest source file read.
pub const MAX_SOURCE_BYTES: u64 = 32 * 1024 * 1024;
/// The largest raster source decoded (about an 8,660 × 5,770 photo); each
/// pixel costs four bytes while it is resized.
pub const MAX_SOURCE_PIXELS: u64 = 50_000_000;
/// The largest image produced: a 3840-wide image may be as tall as it is wide.
pub const MAX_OUTPUT_PIXELS: u64 = 3840 * 3840;

/// Whether `width` is one that the site's pages ask for.
pub fn is_allowed_width(width: u32) -> bool {
    IMAGE_SIZES.contains(&width) || DEVICE_SIZES.contains(&width)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SourceFormat {
    Svg,
    Png,
    Jpeg,
    Webp,
}

impl SourceFormat {
    /// From a file name's extension, in any case.
    pub fn from_path(path: &str) -> Option<Self> {
        let (_, extension) = path.rsplit_once('.')?;
        match extension.to_ascii_lowercase().as_str() {
            "svg" => Some(SourceFormat::Svg),
            "png" => Some(SourceFormat::Png),
            "jpg" | "jpeg" => Some(SourceFormat::Jpeg),
            "webp" => Some(SourceFormat::Webp),
            _ => None,
        }
    }

    /// The extension of a file this server names.
    pub fn extension(self) -> &'static str {
        match self {
            SourceFormat::Svg => "svg",
            SourceFormat::Png => "png",
            SourceFormat::Jpeg => "jpg",
            SourceFormat::Webp => "webp",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            SourceFormat::Svg => "image/svg+xml",
            SourceFormat::Png => "image/png",
            SourceFormat::Jpeg => "image/jpeg",
            SourceFormat::Webp => "image/webp",
        }
    }
}

/// Why the query parameters of an image request were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("\"url\" parameter is required")]
    MissingUrl,
    #[error("\"url\" must be a path under /media/ of letters, digits, '.', '-' and '_'")]
    BadUrl,
    #[error("\"url\" must name an SVG, PNG, JPEG or WebP image")]
    UnsupportedFormat,
    #[error("\"w\" parameter (width) is required")]
    MissingWidth,
    #[error("\"w\" parameter (width) must be one of {IMAGE_SIZES:?} or {DEVICE_SIZES:?}")]
    BadWidth,
    #[error("\"q\" parameter (quality) must be 75, the quality the site's pages use")]
    BadQuality,
}

/// A checked request: which content image, at what width and quality.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ImageRequest {
    /// The image's path below the media folder, e.g. `courses/bb-glow.svg`:
    /// `/`-separated segments of `[A-Za-z0-9._-]`, none empty or starting
    /// with a dot, so it cannot leave that folder.
    pub path: String,
    pub format: SourceFormat,
    pub width: u32,
    pub quality: u8,
}

impl ImageRequest {
    /// Checks the already URL-decoded `url`, `w` and `q` query parameters.
    pub fn parse(url: Option<&str>, w: Option<&str>, q: Option<&str>) -> Result<Self, ParamError> {
        let url = url.filter(|u| !u.is_empty()).ok_or(ParamError::MissingUrl)?;
        let (path, format) = media_path(url)?;
        let width = w.filter(|w| !w.is_empty()).ok_or(ParamError::MissingWidth)?;
        let width = parse_number(width).filter(|w| is_allowed_width(*w)).ok_or(ParamError::BadWidth)?;
        // One quality only: every other would be another file on disk for
        // anyone to ask for (decision 009).
        let quality = match q {
            None => DEFAULT_QUALITY,
            Some(q) => {
                parse_number(q).filter(|q| *q == u32::from(DEFAULT_QUALITY)).map_or(Err(ParamError::BadQuality), |_| Ok(DEFAULT_QUALITY))?
            }
        };
        Ok(ImageRequest { path: path.to_owned(), format, width, quality })
    }
}

/// The path below the media folder of an image's `url` (`/media/…`), and
/// its format: `/`-separated segments of `[A-Za-z0-9._-]`, none empty or
/// starting with a dot, so it cannot leave that folder.
pub fn media_path(url: &str) -> Result<(&str, SourceFormat), ParamError> {
    let path = url.strip_prefix(MEDIA_PREFIX).ok_or(ParamError::BadUrl)?;
    let safe_segment = |segment: &str| {
        !segment.is_empty()
            && !segment.starts_with('.')
            && segment.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
    };
    if path.contains("..") || !path.split('/').all(safe_segment) {
        return Err(ParamError::BadUrl);
    }
    let format = SourceFormat::from_path(path).ok_or(ParamError::UnsupportedFormat)?;
    Ok((path, format))
}

/// Plain decimal digits only: no sign, no spaces, at most six digits.
fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Why a source could not be turned into WebP.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the source image cannot be read: {0}")]
    Decode(String),
    #[error("the image is too large: {width} × {height} pixels")]
    TooLarge { width: u64, height: u64 },
    /// An SVG whose drawing at this width would hold a core too long: its
    /// filters, mostly, counted before any is drawn.
    #[error("its drawing would take too long at this width")]
    TooCostly,
    #[error("WebP encoding failed: {0}")]
    Encode(String),
}

/// An image's pixels, row by row, eight bits a channel, not premultiplied:
/// red, green, blue and, when `has_alpha`, alpha.
#[derive(Debug, Clone)]
pub struct Pixels {
    pub data: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub has_alpha: bool,
}

/// A WebP image and its size in pixels.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub webp: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Rasterises and encodes. Holds the font database that SVG text is drawn
/// with; build it once (loading the system's fonts reads their files'
/// headers) and share it.
#[derive(Clone)]
pub struct Renderer {
    fontdb: Arc<fontdb::Database>,
}

impl Renderer {
    /// Draws SVG text with the given fonts only.
    pub fn new(fontdb: fontdb::Database) -> Self {
        Renderer { fontdb: Arc::new(fontdb) }
    }

    /// Draws SVG text with the fonts installed on this machine. The generic
    /// families (`serif`, `sans-serif`, `monospace`) that end the content's
    /// font lists become the first installed of the usual metric-compatible
    /// faces (Liberation, then DejaVu, Noto, FreeFont).
    pub fn with_system_fonts() -> Self {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        let installed = |candidates: &[&str]| -> Option<String> {
            candidates
                .iter()
                .find(|name| db.faces().any(|face| face.families.iter().any(|(family, _)| family == *name)))
                .map(|name| (*name).to_owned())
        };
        let serif = installed(&["Times New Roman", "Liberation Serif", "DejaVu Serif", "Noto Serif", "FreeSerif"]);
        let sans = installed(&["Arial", "Helvetica", "Liberation Sans", "DejaVu Sans", "Noto Sans", "FreeSans"]);
        let mono = installed(&["Courier New", "Liberation Mono", "DejaVu Sans Mono", "Noto Sans Mono", "FreeMono"]);
        // A machine without those still draws text in whatever it has.
        let any = db.faces().next().and_then(|face| face.families.first()).map(|(family, _)| family.clone());
        if let Some(family) = serif.or_else(|| any.clone()) {
            db.set_serif_family(family);
        }
        if let Some(family) = sans.or_else(|| any.clone()) {
            db.set_sans_serif_family(family);
        }
        if let Some(family) = mono.or(any) {
            db.set_monospace_family(family);
        }
        Renderer::new(db)
    }

    /// How many font faces SVG text can use; 0 means text is left out.
    pub fn font_faces(&self) -> usize {
        self.fontdb.len()
    }

    /// The source scaled to `width` (SVG to exactly that width; a raster
    /// image never beyond its own), keeping its aspect ratio, as lossy WebP.
    pub fn render(&self, source: &[u8], format: SourceFormat, width: u32, quality: u8) -> Result<Encoded, RenderError> {
        let quality = f32::from(quality.clamp(1, 100));
        let pixels = self.pixels(source, format, width)?;
        let layout = if pixels.has_alpha { PixelLayout::Rgba } else { PixelLayout::Rgb };
        encode(&pixels.data, layout, pixels.width, pixels.height, quality)
    }

    /// The source scaled as [`Renderer::render`] scales it, as pixels: for
    /// a document that embeds an image itself (a certificate's logo).
    pub fn pixels(&self, source: &[u8], format: SourceFormat, width: u32) -> Result<Pixels, RenderError> {
        if width == 0 {
            return Err(RenderError::TooLarge { width: 0, height: 0 });
        }
        match format {
            SourceFormat::Svg => {
                let pixmap = self.rasterise_svg(source, width)?;
                let (width, height) = (pixmap.width(), pixmap.height());
                let mut data = pixmap.take();
                demultiply(&mut data);
                Ok(Pixels { data, width, height, has_alpha: true })
            }
            SourceFormat::Png => {
                let pixmap = decode::png(source)?;
                let image = Raster { pixels: pixmap.data(), width: pixmap.width(), height: pixmap.height(), channels: 4 };
                let (mut data, width, height) = image.scaled_to(width)?;
                demultiply(&mut data);
                Ok(Pixels { data, width, height, has_alpha: true })
            }
            SourceFormat::Jpeg | SourceFormat::Webp => {
                let decoded = if format == SourceFormat::Jpeg { decode::jpeg(source, false)? } else { decode::webp(source)? };
                let image = Raster { pixels: &decoded.pixels, width: decoded.width, height: decoded.height, channels: decoded.channels };
                let (data, width, height) = image.scaled_to(width)?;
                Ok(Pixels { data, width, height, has_alpha: decoded.channels == 4 })
            }
        }
    }

    fn rasterise_svg(&self, source: &[u8], width: u32) -> Result<Pixmap, RenderError> {
        let options = usvg::Options { fontdb: Arc::clone(&self.fontdb), ..usvg::Options::default() };
        let tree = usvg::Tree::from_data(source, &options).map_err(|e| RenderError::Decode(e.to_string()))?;
        let (height, transform) = canvas(&tree, width)?;
        let mut pixmap = Pixmap::new(width, height).ok_or(RenderError::TooLarge { width: u64::from(width), height: u64::from(height) })?;
        resvg::render(&tree, transform, &mut pixmap.as_mut());
        Ok(pixmap)
    }
}

/// The height of `tree` drawn `width` wide, keeping its shape, and the
/// transform that scales it so; refused when the image would be too large
/// or its drawing too costly.
fn canvas(tree: &usvg::Tree, width: u32) -> Result<(u32, Transform), RenderError> {
    let size = tree.size();
    let height = (f64::from(width) * f64::from(size.height()) / f64::from(size.width())).round().max(1.0);
    if !height.is_finite() || height * f64::from(width) > MAX_OUTPUT_PIXELS as f64 {
        return Err(RenderError::TooLarge { width: u64::from(width), height: height as u64 });
    }
    let height = height as u32;
    let transform = Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
    cost::check(tree.root(), transform, width, height)?;
    Ok((height, transform))
}
