//! Resized images for the site's `<img>` tags, the way Next.js's image
//! optimiser serves them: a content image (SVG, PNG or JPEG) scaled to one of
//! a fixed list of widths and encoded as lossy WebP.
//!
//! Pure work, no I/O: [`ImageRequest::parse`] checks the query parameters and
//! [`Renderer::render`] turns the source's bytes into WebP bytes. The server
//! does the file access, the caching and the scheduling.

use std::sync::Arc;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use webp::PixelLayout;

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
}

impl SourceFormat {
    /// From a file name's extension, in any case.
    pub fn from_path(path: &str) -> Option<Self> {
        let (_, extension) = path.rsplit_once('.')?;
        match extension.to_ascii_lowercase().as_str() {
            "svg" => Some(SourceFormat::Svg),
            "png" => Some(SourceFormat::Png),
            "jpg" | "jpeg" => Some(SourceFormat::Jpeg),
            _ => None,
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
    #[error("\"url\" must name an SVG, PNG or JPEG image")]
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
        let width = w.filter(|w| !w.is_empty()).ok_or(ParamError::MissingWidth)?;
        let width = parse_number(width).filter(|w| is_allowed_width(*w)).ok_or(ParamError::BadWidth)?;
        // One quality only: every other would be another file on disk for
        // anyone to ask for (issue 10).
        let quality = match q {
            None => DEFAULT_QUALITY,
            Some(q) => {
                parse_number(q).filter(|q| *q == u32::from(DEFAULT_QUALITY)).map_or(Err(ParamError::BadQuality), |_| Ok(DEFAULT_QUALITY))?
            }
        };
        Ok(ImageRequest { path: path.to_owned(), format, width, quality })
    }
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
    #[error("WebP encoding failed: {0}")]
    Encode(String),
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
        if width == 0 {
            return Err(RenderError::TooLarge { width: 0, height: 0 });
        }
        let quality = f32::from(quality.clamp(1, 100));
        match format {
            SourceFormat::Svg => {
                let pixmap = self.rasterise_svg(source, width)?;
                let (width, height) = (pixmap.width(), pixmap.height());
                let mut pixels = pixmap.take();
                demultiply(&mut pixels);
                encode(&pixels, PixelLayout::Rgba, width, height, quality)
            }
            SourceFormat::Png => {
                let (source_width, source_height) = png_size(source)?;
                check_source_size(source_width, source_height)?;
                let pixmap = Pixmap::decode_png(source).map_err(|e| RenderError::Decode(e.to_string()))?;
                let image = Raster { pixels: pixmap.data(), width: pixmap.width(), height: pixmap.height(), channels: 4 };
                let (mut pixels, width, height) = image.scaled_to(width)?;
                demultiply(&mut pixels);
                encode(&pixels, PixelLayout::Rgba, width, height, quality)
            }
            SourceFormat::Jpeg => {
                use zune_jpeg::zune_core::bytestream::ZCursor;
                use zune_jpeg::zune_core::colorspace::ColorSpace;
                use zune_jpeg::zune_core::options::DecoderOptions;
                let options =
                    DecoderOptions::default().jpeg_set_out_colorspace(ColorSpace::RGB).set_max_width(usize::MAX).set_max_height(usize::MAX);
                let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(source), options);
                decoder.decode_headers().map_err(|e| RenderError::Decode(format!("{e:?}")))?;
                let (source_width, source_height) = decoder.dimensions().ok_or_else(|| RenderError::Decode("no JPEG frame".to_owned()))?;
                check_source_size(source_width as u64, source_height as u64)?;
                let pixels = decoder.decode().map_err(|e| RenderError::Decode(format!("{e:?}")))?;
                let image = Raster {
                    pixels: &pixels,
                    width: u32::try_from(source_width).map_err(|_| RenderError::Decode("width".to_owned()))?,
                    height: u32::try_from(source_height).map_err(|_| RenderError::Decode("height".to_owned()))?,
                    channels: 3,
                };
                let (pixels, width, height) = image.scaled_to(width)?;
                encode(&pixels, PixelLayout::Rgb, width, height, quality)
            }
        }
    }

    fn rasterise_svg(&self, source: &[u8], width: u32) -> Result<Pixmap, RenderError> {
        let options = usvg::Options { fontdb: Arc::clone(&self.fontdb), ..usvg::Options::default() };
        let tree = usvg::Tree::from_data(source, &options).map_err(|e| RenderError::Decode(e.to_string()))?;
        let size = tree.size();
        let height = (f64::from(width) * f64::from(size.height()) / f64::from(size.width())).round().max(1.0);
        if !height.is_finite() || height * f64::from(width) > MAX_OUTPUT_PIXELS as f64 {
            return Err(RenderError::TooLarge { width: u64::from(width), height: height as u64 });
        }
        let height = height as u32;
        let mut pixmap = Pixmap::new(width, height).ok_or(RenderError::TooLarge { width: u64::from(width), height: u64::from(height) })?;
        let transform = Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
        resvg::render(&tree, transform, &mut pixmap.as_mut());
        Ok(pixmap)
    }
}

fn check_source_size(width: u64, height: u64) -> Result<(), RenderError> {
    if width == 0 || height == 0 {
        return Err(RenderError::Decode("the image has no pixels".to_owned()));
    }
    if width.saturating_mul(height) > MAX_SOURCE_PIXELS {
        return Err(RenderError::TooLarge { width, height });
    }
    Ok(())
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

/// Interleaved 8-bit pixels (RGB, or premultiplied RGBA).
struct Raster<'a> {
    pixels: &'a [u8],
    width: u32,
    height: u32,
    channels: usize,
}

impl Raster<'_> {
    /// Scaled down to `width` (never up) by area averaging: each output
    /// pixel is the mean of the source area it covers, so fine detail
    /// averages out instead of aliasing.
    fn scaled_to(&self, width: u32) -> Result<(Vec<u8>, u32, u32), RenderError> {
        let width = width.min(self.width);
        let height = ((u64::from(width) * u64::from(self.height) + u64::from(self.width) / 2) / u64::from(self.width)).max(1);
        if u64::from(width) * height > MAX_OUTPUT_PIXELS {
            return Err(RenderError::TooLarge { width: u64::from(width), height });
        }
        let height = height as u32;
        if width == self.width && height == self.height {
            return Ok((self.pixels.to_vec(), width, height));
        }
        let channels = self.channels;
        let (source_width, source_height) = (self.width as usize, self.height as usize);
        let (target_width, target_height) = (width as usize, height as usize);
        let columns = area_weights(source_width, target_width);
        let rows = area_weights(source_height, target_height);
        let row_len = target_width * channels;
        let mut out = Vec::with_capacity(row_len * target_height);
        let mut accumulated = vec![0f32; row_len];
        // The last source row scaled horizontally: each one serves at most
        // two output rows, one after the other.
        let mut scaled_row = vec![0f32; row_len];
        let mut scaled_index = usize::MAX;
        for row_weights in &rows {
            accumulated.fill(0.0);
            for &(y, wy) in row_weights {
                if scaled_index != y {
                    let source_row = &self.pixels[y * source_width * channels..(y + 1) * source_width * channels];
                    for (x, column_weights) in columns.iter().enumerate() {
                        let target = &mut scaled_row[x * channels..(x + 1) * channels];
                        target.fill(0.0);
                        for &(sx, wx) in column_weights {
                            for (c, value) in target.iter_mut().enumerate() {
                                *value += wx * f32::from(source_row[sx * channels + c]);
                            }
                        }
                    }
                    scaled_index = y;
                }
                for (sum, value) in accumulated.iter_mut().zip(&scaled_row) {
                    *sum += wy * value;
                }
            }
            out.extend(accumulated.iter().map(|v| v.round().clamp(0.0, 255.0) as u8));
        }
        Ok((out, width, height))
    }
}

/// For each of `target` cells spread over `source` cells: the source cells
/// it overlaps and the share of the target cell each covers (summing to 1).
fn area_weights(source: usize, target: usize) -> Vec<Vec<(usize, f32)>> {
    let scale = source as f64 / target as f64;
    (0..target)
        .map(|i| {
            let start = i as f64 * scale;
            let end = ((i + 1) as f64 * scale).min(source as f64);
            let first = start.floor() as usize;
            let last = (end.ceil() as usize).clamp(first + 1, source);
            (first..last)
                .map(|s| {
                    let overlap = (end.min(s as f64 + 1.0) - start.max(s as f64)).max(0.0);
                    (s, (overlap / (end - start)) as f32)
                })
                .filter(|&(_, weight)| weight > 0.0)
                .collect()
        })
        .collect()
}

/// Premultiplied RGBA to straight RGBA, in place.
fn demultiply(pixels: &mut [u8]) {
    for pixel in pixels.chunks_exact_mut(4) {
        let alpha = u32::from(pixel[3]);
        if alpha != 0 && alpha != 255 {
            for channel in &mut pixel[..3] {
                *channel = ((u32::from(*channel) * 255 + alpha / 2) / alpha).min(255) as u8;
            }
        }
    }
}

fn encode(pixels: &[u8], layout: PixelLayout, width: u32, height: u32, quality: f32) -> Result<Encoded, RenderError> {
    let mut config = webp::WebPConfig::new().map_err(|()| RenderError::Encode("libwebp has no default config".to_owned()))?;
    config.lossless = 0;
    config.quality = quality;
    config.method = 4;
    config.alpha_compression = 1;
    let webp =
        webp::Encoder::new(pixels, layout, width, height).encode_advanced(&config).map_err(|e| RenderError::Encode(format!("{e:?}")))?;
    Ok(Encoded { webp: webp.to_vec(), width, height })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(url: &str, w: &str, q: Option<&str>) -> Result<ImageRequest, ParamError> {
        ImageRequest::parse(Some(url), Some(w), q)
    }

    #[test]
    fn accepts_media_paths_at_the_allowed_widths() {
        let request = parse("/media/courses/bb-glow.svg", "640", None).unwrap();
        assert_eq!(request.path, "courses/bb-glow.svg");
        assert_eq!(request.format, SourceFormat::Svg);
        assert_eq!((request.width, request.quality), (640, DEFAULT_QUALITY));
        for width in IMAGE_SIZES.iter().chain(&DEVICE_SIZES) {
            assert_eq!(parse("/media/a.png", &width.to_string(), Some("75")).unwrap().width, *width);
        }
        assert_eq!(parse("/media/team/Jo_Smith-2.JPEG", "3840", Some("75")).unwrap().format, SourceFormat::Jpeg);
        for other in ["1", "74", "90", "100"] {
            assert_eq!(parse("/media/a.jpg", "16", Some(other)).unwrap_err(), ParamError::BadQuality, "q={other}");
        }
    }

    #[test]
    fn refuses_paths_outside_the_media_folder() {
        for url in [
            "https://evil.example/x.png",
            "//evil.example/x.png",
            "/media/../Cargo.toml",
            "/media/courses/../../Cargo.svg",
            "/media/..svg",
            "/media/.hidden.svg",
            "/media//etc/passwd.svg",
            "/media/a\\..\\b.svg",
            "/media/a%2e%2e/b.svg",
            "/media/a b.svg",
            "/media/a.svg?x=1",
            "/media/",
            "/assets/app.svg",
            "media/a.svg",
            "/MEDIA/a.svg",
            "/media/a.svg/",
        ] {
            assert_eq!(parse(url, "640", None), Err(ParamError::BadUrl), "{url}");
        }
        assert_eq!(ImageRequest::parse(None, Some("640"), None), Err(ParamError::MissingUrl));
        assert_eq!(ImageRequest::parse(Some(""), Some("640"), None), Err(ParamError::MissingUrl));
        assert_eq!(parse("/media/notes.txt", "640", None), Err(ParamError::UnsupportedFormat));
        assert_eq!(parse("/media/gif.gif", "640", None), Err(ParamError::UnsupportedFormat));
        assert_eq!(parse("/media/courses", "640", None), Err(ParamError::UnsupportedFormat));
    }

    #[test]
    fn refuses_other_widths_and_qualities() {
        for w in ["123", "0", "641", "4096", "-640", "+640", " 640", "640.0", "6.4e2", "99999999999", "abc"] {
            assert_eq!(parse("/media/a.svg", w, None), Err(ParamError::BadWidth), "w={w}");
        }
        assert_eq!(ImageRequest::parse(Some("/media/a.svg"), None, None), Err(ParamError::MissingWidth));
        assert_eq!(parse("/media/a.svg", "", None), Err(ParamError::MissingWidth));
        for q in ["0", "101", "-1", "", "75.5", "x", "256", "1000000"] {
            assert_eq!(parse("/media/a.svg", "640", Some(q)), Err(ParamError::BadQuality), "q={q}");
        }
    }

    const SVG: &[u8] = br##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">
        <rect width="120" height="80" fill="#e7adb8"/><circle cx="60" cy="40" r="30" fill="#4a2445"/>
        <text x="60" y="75" font-family="Helvetica, Arial, sans-serif" font-size="10" text-anchor="middle">Hi</text></svg>"##;

    fn decoded(encoded: &Encoded) -> (u32, u32, bool) {
        assert_eq!(&encoded.webp[..4], b"RIFF");
        assert_eq!(&encoded.webp[8..12], b"WEBP");
        let image = webp::Decoder::new(&encoded.webp).decode().expect("valid WebP");
        (image.width(), image.height(), image.is_alpha())
    }

    fn renderer() -> Renderer {
        Renderer::new(fontdb::Database::new())
    }

    #[test]
    fn an_svg_scales_to_any_width_keeping_its_shape() {
        for width in [16, 640, 1920] {
            let encoded = renderer().render(SVG, SourceFormat::Svg, width, 75).unwrap();
            let height = (f64::from(width) * 80.0 / 120.0).round() as u32;
            assert_eq!((encoded.width, encoded.height), (width, height));
            let (w, h, _) = decoded(&encoded);
            assert_eq!((w, h), (width, height));
        }
        // Lossy: a lower quality gives fewer bytes.
        let high = renderer().render(SVG, SourceFormat::Svg, 640, 95).unwrap();
        let low = renderer().render(SVG, SourceFormat::Svg, 640, 20).unwrap();
        assert!(low.webp.len() < high.webp.len(), "{} < {}", low.webp.len(), high.webp.len());
        // The lossy bitstream, not the lossless one.
        assert_eq!(&high.webp[12..16], b"VP8 ");
    }

    #[test]
    fn svg_colours_survive() {
        let encoded = renderer().render(SVG, SourceFormat::Svg, 640, 90).unwrap();
        let image = webp::Decoder::new(&encoded.webp).decode().unwrap();
        let bytes: &[u8] = &image;
        let channels = if image.is_alpha() { 4 } else { 3 };
        let pixel = |x: usize, y: usize| {
            let at = (y * image.width() as usize + x) * channels;
            [bytes[at], bytes[at + 1], bytes[at + 2]]
        };
        let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 12);
        assert!(near(pixel(5, 5), [0xe7, 0xad, 0xb8]), "{:?}", pixel(5, 5));
        assert!(near(pixel(320, 213), [0x4a, 0x24, 0x45]), "{:?}", pixel(320, 213));
    }

    #[test]
    fn transparent_svg_keeps_its_alpha() {
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="3" fill="red"/></svg>"#;
        let encoded = renderer().render(svg, SourceFormat::Svg, 64, 75).unwrap();
        assert!(decoded(&encoded).2, "has alpha");
    }

    #[test]
    fn refuses_broken_and_oversized_svgs() {
        assert!(matches!(renderer().render(b"<svg", SourceFormat::Svg, 640, 75), Err(RenderError::Decode(_))));
        let tall = br#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="100"/>"#;
        assert!(matches!(renderer().render(tall, SourceFormat::Svg, 3840, 75), Err(RenderError::TooLarge { .. })));
    }

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut pixmap = Pixmap::new(width, height).unwrap();
        pixmap.fill(resvg::tiny_skia::Color::from_rgba8(10, 120, 200, 255));
        pixmap.encode_png().unwrap()
    }

    #[test]
    fn a_png_scales_down_but_never_up() {
        let source = png(1000, 500);
        let encoded = renderer().render(&source, SourceFormat::Png, 640, 75).unwrap();
        assert_eq!(decoded(&encoded), (640, 320, false));
        let encoded = renderer().render(&source, SourceFormat::Png, 1920, 75).unwrap();
        assert_eq!(decoded(&encoded), (1000, 500, false));
        assert!(matches!(renderer().render(b"not a png", SourceFormat::Png, 640, 75), Err(RenderError::Decode(_))));
    }

    #[test]
    fn a_jpeg_scales_down() {
        // 96 × 64, made by Pillow: a horizontal red-to-blue gradient.
        let source = include_bytes!("../tests/fixtures/gradient-96x64.jpg");
        let encoded = renderer().render(source, SourceFormat::Jpeg, 48, 90).unwrap();
        assert_eq!(decoded(&encoded), (48, 32, false));
        let image = webp::Decoder::new(&encoded.webp).decode().unwrap();
        let bytes: &[u8] = &image;
        let (left, right) = (&bytes[16 * 48 * 3..][..3], &bytes[(16 * 48 + 47) * 3..][..3]);
        assert!(left[0] > 200 && left[2] < 60, "left is red: {left:?}");
        assert!(right[2] > 200 && right[0] < 60, "right is blue: {right:?}");
        assert!(matches!(renderer().render(b"\xff\xd8junk", SourceFormat::Jpeg, 48, 75), Err(RenderError::Decode(_))));
    }

    #[test]
    fn area_weights_cover_each_target_cell_once() {
        for (source, target) in [(10, 3), (1000, 640), (7, 7), (3, 2), (5000, 16)] {
            let weights = area_weights(source, target);
            assert_eq!(weights.len(), target);
            for cell in &weights {
                let sum: f32 = cell.iter().map(|(_, w)| w).sum();
                assert!((sum - 1.0).abs() < 1e-4, "{source}->{target}: {sum}");
                assert!(cell.iter().all(|&(s, _)| s < source));
            }
        }
    }

    #[test]
    fn area_averaging_means_the_covered_pixels() {
        // A 4 × 1 RGB row of black, white, black, white halves to two greys.
        let pixels = [0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255];
        let raster = Raster { pixels: &pixels, width: 4, height: 1, channels: 3 };
        let (out, width, height) = raster.scaled_to(2).unwrap();
        assert_eq!((width, height), (2, 1));
        assert_eq!(out, [128; 6]);
    }

    #[test]
    fn demultiplies() {
        let mut pixels = [64, 32, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0];
        demultiply(&mut pixels);
        assert_eq!(pixels, [128, 64, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0]);
    }

    #[test]
    fn text_is_drawn_with_the_system_fonts_and_left_out_without_any() {
        let renderer = Renderer::with_system_fonts();
        let with_system = renderer.render(SVG, SourceFormat::Svg, 640, 90).unwrap();
        let without = Renderer::new(fontdb::Database::new()).render(SVG, SourceFormat::Svg, 640, 90).unwrap();
        assert_eq!(decoded(&with_system), decoded(&without), "the same picture size either way");
        if renderer.font_faces() > 0 {
            assert_ne!(with_system.webp, without.webp, "the text is drawn");
        } else {
            assert_eq!(with_system.webp, without.webp, "with no fonts installed the text is left out and the rest drawn");
        }
    }
}
