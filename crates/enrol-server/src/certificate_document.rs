//! A certificate as a document the student keeps (issue 12): one HTML file,
//! styles inside, laid out for A4 landscape, so it prints or saves as a PDF
//! from any browser. Every value is escaped.

use enrol_domain::html::escape_html;
use enrol_domain::london::long_date;
use enrol_domain::records::Certificate;

/// The certificate's document, with the college's name and the public page
/// that confirms it (`verify_url`).
pub fn render(certificate: &Certificate, college: &str, verify_url: &str) -> String {
    let issued = certificate.issued_on.parse().map(long_date).unwrap_or_else(|_| certificate.issued_on.clone());
    let (holder, course, college, number, verify) = (
        escape_html(&certificate.holder_name),
        escape_html(&certificate.course_title),
        escape_html(college),
        escape_html(&certificate.number),
        escape_html(verify_url),
    );
    format!(
        r#"<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Certificate {number}: {course}</title>
<style>
@page {{ size: A4 landscape; margin: 0; }}
body {{ margin: 0; font-family: Georgia, 'Times New Roman', serif; color: #1d1d1f; }}
main {{ box-sizing: border-box; min-height: 100vh; padding: 8vh 8vw; border: 12px double #7a5c3e; text-align: center; display: flex; flex-direction: column; justify-content: center; gap: 1.2rem; }}
h1 {{ font-size: 2.4rem; letter-spacing: 0.08em; text-transform: uppercase; margin: 0; }}
.holder {{ font-size: 2.2rem; font-style: italic; margin: 0; }}
.course {{ font-size: 1.6rem; font-weight: bold; margin: 0; }}
.small {{ font-size: 0.95rem; color: #444; }}
</style>
</head>
<body>
<main>
<p class="small">{college}</p>
<h1>Certificate of completion</h1>
<p>This is to certify that</p>
<p class="holder">{holder}</p>
<p>has completed</p>
<p class="course">{course}</p>
<p>on {issued}</p>
<p class="small">Certificate number {number}. Check it at {verify}</p>
</main>
</body>
</html>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_and_the_number_can_be_checked() {
        let certificate = Certificate {
            id: "c1".into(),
            number: "EA-2026-04821".into(),
            holder_name: "Amelia <script>alert(1)</script> Hart".into(),
            course_title: "Foundation Skin Science".into(),
            issued_on: "2026-05-08".into(),
            revoked: false,
        };
        let html = render(&certificate, "Enrol Academy", "https://academy.example/certificates/EA-2026-04821");
        assert!(html.contains("Amelia &lt;script&gt;alert(1)&lt;/script&gt; Hart"));
        assert!(!html.contains("<script>"));
        assert!(html.contains("on Friday 8 May 2026"));
        assert!(html.contains("Check it at https://academy.example/certificates/EA-2026-04821"));
    }
}
