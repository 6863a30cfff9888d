//! The image pipeline's unit tests: parameters, sizes, formats and the
//! resampler, on images made in the test.

use super::*;
use crate::raster::area_weights;

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

#[test]
fn uploads_are_known_by_their_bytes_and_written_again_in_their_format() {
    let source = png(300, 200);
    let clean = renderer().clean_upload(&source).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (SourceFormat::Png, 300, 200));
    let jpeg = include_bytes!("../tests/fixtures/gradient-96x64.jpg");
    let clean = renderer().clean_upload(jpeg).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (SourceFormat::Jpeg, 96, 64));
    let webp = renderer().render(&source, SourceFormat::Png, 256, 75).unwrap().webp;
    let clean = renderer().clean_upload(&webp).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (SourceFormat::Webp, 256, 171));
    assert_eq!(decoded(&Encoded { webp: clean.bytes, width: 0, height: 0 }), (256, 171, false));
}

#[test]
fn a_jpeg_loses_its_exif() {
    let jpeg = include_bytes!("../tests/fixtures/gradient-96x64.jpg");
    // An APP1 segment with a camera's EXIF (and where it was), after the SOI.
    let exif = b"Exif\0\0GPSLatitude 51.5072 N";
    let mut tagged = vec![0xFF, 0xD8, 0xFF, 0xE1];
    tagged.extend_from_slice(&u16::try_from(exif.len() + 2).unwrap().to_be_bytes());
    tagged.extend_from_slice(exif);
    tagged.extend_from_slice(&jpeg[2..]);
    let clean = renderer().clean_upload(&tagged).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (SourceFormat::Jpeg, 96, 64));
    assert!(!clean.bytes.windows(4).any(|w| w == b"Exif" || w == b"GPSL"), "metadata is gone");
}

#[test]
fn uploads_that_are_not_whole_images_are_refused() {
    assert_eq!(renderer().clean_upload(b"").unwrap_err(), UploadError::Empty);
    assert_eq!(renderer().clean_upload(b"%PDF-1.7").unwrap_err(), UploadError::NotAnImage);
    assert_eq!(renderer().clean_upload(b"<html><script>alert(1)</script>").unwrap_err(), UploadError::NotAnImage);
    let source = png(300, 200);
    assert_eq!(renderer().clean_upload(&source[..source.len() / 2]).unwrap_err(), UploadError::Damaged("PNG"));
    let jpeg = include_bytes!("../tests/fixtures/gradient-96x64.jpg");
    assert_eq!(renderer().clean_upload(&jpeg[..jpeg.len() / 2]).unwrap_err(), UploadError::Damaged("JPEG"));
    assert_eq!(renderer().clean_upload(b"<svg").unwrap_err(), UploadError::Damaged("SVG"));
    assert_eq!(renderer().clean_upload(&vec![b' '; MAX_UPLOAD_BYTES + 1]).unwrap_err(), UploadError::TooLarge);
}

#[test]
fn an_uploaded_svg_keeps_only_its_drawing() {
    let svg = br##"<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY pink "#e7adb8">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80" onload="alert(1)">
  <script>alert(2)</script>
  <a href="javascript:alert(3)"><rect width="120" height="80" fill="&pink;" onclick="alert(4)"/></a>
  <image href="/etc/hostname.png" width="10" height="10" onerror="alert(5)"/>
  <image xlink:href="https://evil.example/x.png" width="10" height="10"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">Hi</div></foreignObject>
</svg>"##;
    let clean = renderer().clean_upload(svg).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (SourceFormat::Svg, 120, 80));
    let text = String::from_utf8(clean.bytes).unwrap().to_lowercase();
    for gone in ["script", "alert", "onload", "onclick", "onerror", "javascript:", "foreignobject", "entity", "doctype", "evil", "/etc/"] {
        assert!(!text.contains(gone), "{gone} is gone from {text}");
    }
    assert!(text.contains("#e7adb8"), "the drawing stays: {text}");
    // An entity from outside the file is never read: the file is refused.
    let outside = br#"<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&secret;</text></svg>"#;
    assert_eq!(renderer().clean_upload(outside).unwrap_err(), UploadError::Damaged("SVG"));
}

/// Made like the 773-byte file a security review sent: blurred and spread
/// beyond any size, over a filter region far outside the picture. Drawn,
/// that one took 96 seconds to resize.
const STALLING_SVG: &[u8] = include_bytes!("../tests/fixtures/stalling-filters.svg");

/// A card with a drop shadow as drawing programs write one, and a circle
/// outlined `radius` wide, on a 1200 × 800 drawing.
fn filtered_svg(radius: u32) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">
  <filter id="shadow"><feGaussianBlur in="SourceAlpha" stdDeviation="6"/><feOffset dx="4" dy="4"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>
  <filter id="outline"><feMorphology operator="dilate" radius="{radius}"/></filter>
  <rect x="100" y="100" width="400" height="300" fill="#e7adb8" filter="url(#shadow)"/>
  <circle cx="800" cy="400" r="150" fill="#4a2445" filter="url(#outline)"/></svg>"##
    )
}

#[test]
fn an_svg_whose_filters_would_stall_the_renderer_is_refused_at_upload() {
    assert_eq!(renderer().clean_upload(STALLING_SVG).unwrap_err(), UploadError::TooCostly);
    // Effects drawn in a moment at every width are kept as they are.
    let clean = renderer().clean_upload(filtered_svg(2).as_bytes()).unwrap();
    let text = String::from_utf8(clean.bytes).unwrap();
    for kept in ["<feGaussianBlur", "<feMorphology", "<feOffset"] {
        assert!(text.contains(kept), "{kept} is kept in {text}");
    }
    // An outline cheap at a phone's width, but whose every pixel visits
    // 66,000 others at the 3840 pixels a wide screen asks for.
    assert_eq!(renderer().clean_upload(filtered_svg(40).as_bytes()).unwrap_err(), UploadError::TooCostly);
    assert!(UploadError::TooCostly.to_string().contains("upload the image as a PNG"));
}

#[test]
fn an_svg_stored_before_its_filters_were_counted_is_refused_before_any_drawing() {
    // Drawing the stalling SVG would take minutes at any of these widths;
    // each is refused at once, from its tree alone.
    for width in [16, 640, 3840] {
        assert!(matches!(renderer().render(STALLING_SVG, SourceFormat::Svg, width, 75), Err(RenderError::TooCostly)), "{width}");
    }
    // A wide outline is drawn where it is cheap and refused where it is not.
    let outline = filtered_svg(40);
    assert_eq!(decoded(&renderer().render(outline.as_bytes(), SourceFormat::Svg, 64, 75).unwrap()), (64, 43, true));
    assert!(matches!(renderer().render(outline.as_bytes(), SourceFormat::Svg, 3840, 75), Err(RenderError::TooCostly)));
    // Noise of a million octaves, and a filter of more steps than any
    // drawing program writes.
    let svg = |filter: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><filter id="f">{filter}</filter><rect width="10" height="10" filter="url(#f)"/></svg>"#
        )
    };
    let noise = svg(r#"<feTurbulence baseFrequency="0.1" numOctaves="1000000"/>"#);
    let offsets = svg(&r#"<feOffset dx="1"/>"#.repeat(crate::cost::MAX_FILTER_PRIMITIVES + 1));
    let few_offsets = svg(&r#"<feOffset dx="1"/>"#.repeat(crate::cost::MAX_FILTER_PRIMITIVES));
    for refused in [noise, offsets] {
        assert!(matches!(renderer().render(refused.as_bytes(), SourceFormat::Svg, 16, 75), Err(RenderError::TooCostly)), "{refused}");
    }
    assert!(renderer().render(few_offsets.as_bytes(), SourceFormat::Svg, 16, 75).is_ok());
}
