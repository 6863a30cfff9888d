//! A certificate as the PDF a student keeps (decision 021): one A4
//! landscape page with the college's logo, who completed which course and
//! on which date, the course's accreditation, a signature line, the
//! certificate's number and a QR code of the public page that confirms it.
//! Pure: the caller gathers the facts and the logo's pixels.

use chrono::NaiveDate;
use enrol_domain::london::long_date;
use enrol_images::Pixels;
use pdf_writer::{Content, Filter, Finish as _, Name, Pdf, Rect, Ref, Str, TextStr};
use qrcode::{Color, EcLevel, QrCode};

mod fonts;
mod metrics;

use fonts::{Font, win_ansi};

/// A4 landscape, in points.
const PAGE_WIDTH: f32 = 841.89;
const PAGE_HEIGHT: f32 = 595.28;
/// The widest a line of the certificate's middle may be.
const TEXT_WIDTH: f32 = 680.0;
/// The logo's box at the top, in points.
const LOGO_WIDTH: f32 = 260.0;
const LOGO_HEIGHT: f32 = 58.0;
/// How many pixels the logo is drawn with per point: about 220 dpi.
const LOGO_PIXELS_PER_POINT: f32 = 3.0;
/// The logo's width in pixels for a logo `aspect` times as wide as high.
pub fn logo_pixel_width(aspect: f32) -> u32 {
    (LOGO_WIDTH.min(LOGO_HEIGHT * aspect) * LOGO_PIXELS_PER_POINT).round() as u32
}

type Rgb = (f32, f32, f32);
const INK: Rgb = (0.11, 0.11, 0.12);
const MUTED: Rgb = (0.3, 0.3, 0.32);
const FRAME: Rgb = (0.48, 0.36, 0.24);

/// Who signs the college's certificates.
#[derive(Debug, Clone)]
pub struct Signatory {
    pub name: String,
    pub role: String,
}

/// Everything a certificate says.
#[derive(Debug, Clone)]
pub struct CertificateDocument<'a> {
    pub college: &'a str,
    pub holder_name: &'a str,
    pub course_title: &'a str,
    /// Who accredits the course, in the course's own words; none is left out.
    pub accreditation: Option<&'a str>,
    pub issued_on: NaiveDate,
    pub number: &'a str,
    /// The public page that confirms the certificate, in its QR code too.
    pub check_url: &'a str,
    /// Without one, the line is signed for the college.
    pub signatory: Option<&'a Signatory>,
    /// Without one, the college's name heads the page.
    pub logo: Option<&'a Pixels>,
}

/// The certificate as a PDF file's bytes.
pub fn render(certificate: &CertificateDocument) -> Vec<u8> {
    let (catalog, pages, page, info, contents, logo, logo_alpha) =
        (Ref::new(1), Ref::new(2), Ref::new(3), Ref::new(4), Ref::new(5), Ref::new(6), Ref::new(7));
    let font_ref = |font: Font| Ref::new(8 + font as i32);
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(pages).lang(TextStr("en-GB"));
    pdf.document_info(info)
        .title(TextStr(&format!("Certificate {}: {}", certificate.number, certificate.course_title)))
        .author(TextStr(certificate.college))
        .subject(TextStr(&format!("{} completed {}", certificate.holder_name, certificate.course_title)))
        .creator(TextStr("Enrol"));
    pdf.pages(pages).kids([page]).count(1);
    let mut page_writer = pdf.page(page);
    page_writer.parent(pages).media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT)).contents(contents);
    let mut resources = page_writer.resources();
    let mut font_names = resources.fonts();
    for font in Font::ALL {
        font_names.pair(font.resource(), font_ref(font));
    }
    font_names.finish();
    if certificate.logo.is_some() {
        resources.x_objects().pair(Name(b"Logo"), logo);
    }
    resources.finish();
    page_writer.finish();

    for font in Font::ALL {
        pdf.type1_font(font_ref(font)).base_font(font.base_font()).encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    let logo_size = certificate.logo.map(|pixels| write_logo(&mut pdf, pixels, logo, logo_alpha));
    let content = draw(certificate, logo_size);
    pdf.stream(contents, &content);
    pdf.finish()
}

/// The logo as an image with its transparency as a soft mask; its size on
/// the page, in points.
fn write_logo(pdf: &mut Pdf, pixels: &Pixels, id: Ref, alpha_id: Ref) -> (f32, f32) {
    let channels = if pixels.has_alpha { 4 } else { 3 };
    let rgb: Vec<u8> = pixels.data.chunks_exact(channels).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let rgb = miniz_oxide::deflate::compress_to_vec_zlib(&rgb, 6);
    let (width, height) = (pixels.width as i32, pixels.height as i32);
    let mut image = pdf.image_xobject(id, &rgb);
    image.filter(Filter::FlateDecode);
    image.width(width).height(height).bits_per_component(8);
    image.color_space().device_rgb();
    if pixels.has_alpha {
        image.s_mask(alpha_id);
    }
    image.finish();
    if pixels.has_alpha {
        let alpha: Vec<u8> = pixels.data.chunks_exact(4).map(|p| p[3]).collect();
        let alpha = miniz_oxide::deflate::compress_to_vec_zlib(&alpha, 6);
        let mut mask = pdf.image_xobject(alpha_id, &alpha);
        mask.filter(Filter::FlateDecode);
        mask.width(width).height(height).bits_per_component(8);
        mask.color_space().device_gray();
    }
    let scale = (LOGO_WIDTH / width as f32).min(LOGO_HEIGHT / height as f32);
    (width as f32 * scale, height as f32 * scale)
}

/// The page's drawing, from the top down.
fn draw(certificate: &CertificateDocument, logo_size: Option<(f32, f32)>) -> Vec<u8> {
    let mut content = Content::new();
    let centre = PAGE_WIDTH / 2.0;

    content.set_stroke_rgb(FRAME.0, FRAME.1, FRAME.2);
    content.set_line_width(3.0).rect(22.0, 22.0, PAGE_WIDTH - 44.0, PAGE_HEIGHT - 44.0).stroke();
    content.set_line_width(0.8).rect(30.0, 30.0, PAGE_WIDTH - 60.0, PAGE_HEIGHT - 60.0).stroke();

    let top = PAGE_HEIGHT - 62.0;
    match logo_size {
        Some((width, height)) => {
            content.save_state();
            content.transform([width, 0.0, 0.0, height, centre - width / 2.0, top - height]);
            content.x_object(Name(b"Logo"));
            content.restore_state();
        }
        None => text(&mut content, Font::Roman, 22.0, INK, Place::Centre(centre), top - 30.0, certificate.college),
    }

    text(&mut content, Font::Bold, 30.0, FRAME, Place::Centre(centre), 432.0, "CERTIFICATE OF COMPLETION");
    text(&mut content, Font::Roman, 14.0, INK, Place::Centre(centre), 396.0, "This is to certify that");
    let name_size = fitted(Font::Italic, 38.0, certificate.holder_name, TEXT_WIDTH);
    text(&mut content, Font::Italic, name_size, INK, Place::Centre(centre), 348.0, certificate.holder_name);
    text(&mut content, Font::Roman, 14.0, INK, Place::Centre(centre), 310.0, "has completed");
    let course_size = fitted(Font::Bold, 24.0, certificate.course_title, TEXT_WIDTH);
    text(&mut content, Font::Bold, course_size, INK, Place::Centre(centre), 276.0, certificate.course_title);
    let date = format!("at {} on {}", certificate.college, long_date(certificate.issued_on));
    text(&mut content, Font::Roman, 14.0, INK, Place::Centre(centre), 246.0, &date);
    if let Some(accreditation) = certificate.accreditation.filter(|a| !a.trim().is_empty()) {
        let line = format!("Accreditation: {}", accreditation.trim());
        let size = fitted(Font::Sans, 10.5, &line, TEXT_WIDTH);
        text(&mut content, Font::Sans, size, MUTED, Place::Centre(centre), 218.0, &line);
    }

    signature(&mut content, certificate);
    check(&mut content, certificate);
    content.finish().into_vec()
}

/// The signature line, bottom left, with who signs under it.
fn signature(content: &mut Content, certificate: &CertificateDocument) {
    let (left, right, line_y) = (80.0, 320.0, 112.0);
    content.set_stroke_rgb(INK.0, INK.1, INK.2);
    content.set_line_width(0.7).move_to(left, line_y).line_to(right, line_y).stroke();
    let (name, role) = match certificate.signatory {
        Some(signatory) => (signatory.name.as_str(), format!("{}, {}", signatory.role, certificate.college)),
        None => ("", format!("For {}", certificate.college)),
    };
    if !name.is_empty() {
        text(content, Font::Italic, 20.0, INK, Place::Left(left + 8.0), line_y + 8.0, name);
    }
    text(content, Font::Sans, fitted(Font::Sans, 9.0, &role, right - left), MUTED, Place::Left(left), line_y - 14.0, &role);
}

/// The certificate's number, where to check it, and its QR code, bottom right.
fn check(content: &mut Content, certificate: &CertificateDocument) {
    const QR_SIZE: f32 = 92.0;
    let (qr_right, qr_bottom) = (PAGE_WIDTH - 70.0, 62.0);
    let text_right = qr_right - QR_SIZE - 14.0;
    text(content, Font::Sans, 10.0, INK, Place::Right(text_right), 126.0, &format!("Certificate number {}", certificate.number));
    text(content, Font::Sans, 9.0, MUTED, Place::Right(text_right), 111.0, "Check it at");
    let url_size = fitted(Font::Sans, 9.0, certificate.check_url, text_right - 340.0);
    text(content, Font::Sans, url_size, MUTED, Place::Right(text_right), 99.0, certificate.check_url);

    // A URL always fits a QR code; without one the words above still say it.
    let Ok(code) = QrCode::with_error_correction_level(certificate.check_url, EcLevel::M) else { return };
    let modules = code.width();
    let module = QR_SIZE / modules as f32;
    let (left, top) = (qr_right - QR_SIZE, qr_bottom + QR_SIZE);
    content.set_fill_rgb(0.0, 0.0, 0.0);
    for (row, colours) in code.to_colors().chunks(modules).enumerate() {
        let y = top - (row as f32 + 1.0) * module;
        let mut column = 0;
        while column < modules {
            if colours[column] == Color::Dark {
                let start = column;
                while column < modules && colours[column] == Color::Dark {
                    column += 1;
                }
                content.rect(left + start as f32 * module, y, (column - start) as f32 * module, module);
            } else {
                column += 1;
            }
        }
    }
    content.fill_nonzero();
}

/// Where a line of text sits across the page.
#[derive(Clone, Copy)]
enum Place {
    Left(f32),
    Centre(f32),
    Right(f32),
}

/// `size`, or smaller so that `line` fits in `room` points.
fn fitted(font: Font, size: f32, line: &str, room: f32) -> f32 {
    let width = font.width(&win_ansi(line), size);
    if width > room { size * room / width } else { size }
}

fn text(content: &mut Content, font: Font, size: f32, colour: Rgb, place: Place, baseline: f32, line: &str) {
    let bytes = win_ansi(line);
    let width = font.width(&bytes, size);
    let x = match place {
        Place::Left(x) => x,
        Place::Centre(x) => x - width / 2.0,
        Place::Right(x) => x - width,
    };
    content.set_fill_rgb(colour.0, colour.1, colour.2);
    content.begin_text();
    content.set_font(font.resource(), size);
    content.next_line(x, baseline);
    content.show(Str(&bytes));
    content.end_text();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certificate<'a>(logo: Option<&'a Pixels>, signatory: Option<&'a Signatory>) -> CertificateDocument<'a> {
        CertificateDocument {
            college: "Calderbrook Academy",
            holder_name: "Zoë Núñez (Ward)",
            course_title: "Foundation Skin Science",
            accreditation: Some("CPD accredited by the Continuing Skills Register"),
            issued_on: NaiveDate::from_ymd_opt(2026, 5, 8).unwrap(),
            number: "CA-2026-K7Q2M9XD",
            check_url: "https://academy.example/certificates/CA-2026-K7Q2M9XD",
            signatory,
            logo,
        }
    }

    fn contains(haystack: &[u8], needle: &[u8]) -> bool {
        haystack.windows(needle.len()).any(|window| window == needle)
    }

    #[test]
    fn the_page_says_who_completed_what_and_when_in_the_standard_fonts() {
        let signatory = Signatory { name: "Olivia Brennan".into(), role: "Founder and Principal".into() };
        let pdf = render(&certificate(None, Some(&signatory)));
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(pdf.ends_with(b"%%EOF") || pdf.ends_with(b"%%EOF\n"));
        for shown in [
            // Zoë Núñez (Ward) in WinAnsi, written in hexadecimal as it is not ASCII.
            &b"<5A6FEB204EFAF1657A20285761726429>"[..],
            b"(Foundation Skin Science)",
            b"(at Calderbrook Academy on Friday 8 May 2026)",
            b"(Accreditation: CPD accredited by the Continuing Skills Register)",
            b"(Olivia Brennan)",
            b"(Founder and Principal, Calderbrook Academy)",
            b"(Certificate number CA-2026-K7Q2M9XD)",
            b"(https://academy.example/certificates/CA-2026-K7Q2M9XD)",
        ] {
            assert!(contains(&pdf, shown), "{}", String::from_utf8_lossy(shown));
        }
        assert!(contains(&pdf, b"/BaseFont /Times-Italic") && contains(&pdf, b"/Encoding /WinAnsiEncoding"));
        assert!(!contains(&pdf, b"/XObject"), "no logo, no image");
    }

    #[test]
    fn a_logo_is_an_image_with_its_transparency() {
        let logo = Pixels { data: [10, 20, 30, 255, 0, 0, 0, 0].repeat(6), width: 4, height: 3, has_alpha: true };
        let pdf = render(&certificate(Some(&logo), None));
        assert!(contains(&pdf, b"/Subtype /Image") && contains(&pdf, b"/SMask 7 0 R") && contains(&pdf, b"/Logo 6 0 R"));
        assert!(contains(&pdf, b"(For Calderbrook Academy)"));
    }

    #[test]
    fn a_long_name_is_set_smaller_to_fit() {
        let long = "Bartholomew Maximilian Fotheringham-Worthington-Smythe";
        let size = fitted(Font::Italic, 38.0, long, TEXT_WIDTH);
        assert!(size < 38.0);
        assert!((Font::Italic.width(&win_ansi(long), size) - TEXT_WIDTH).abs() < 0.01);
        assert_eq!(fitted(Font::Italic, 38.0, "Ann Lee", TEXT_WIDTH), 38.0);
    }

    #[test]
    fn a_logo_fills_its_box_by_its_shape() {
        assert_eq!(logo_pixel_width(240.0 / 64.0), 653);
        assert_eq!(logo_pixel_width(10.0), 780);
    }
}
