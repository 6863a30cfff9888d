use std::io::Write as _;

use zip::write::SimpleFileOptions;

use super::*;

const MANIFEST_12: &str = r#"<manifest identifier="t" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>Test</title><item identifier="i" identifierref="r"/></organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="index.html"/></resources>
</manifest>"#;

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn good(extra: &[(&str, &[u8])]) -> Vec<u8> {
    let mut entries: Vec<(&str, &[u8])> = vec![(MANIFEST, MANIFEST_12.as_bytes()), ("index.html", b"<html></html>"), ("media/", b"")];
    entries.extend_from_slice(extra);
    zip_of(&entries)
}

#[test]
fn a_package_unpacks_with_its_manifest_and_files() {
    let unpacked = unpack(&good(&[("css/site.css", b"body{}")])).unwrap();
    assert_eq!(unpacked.manifest.launch, "index.html");
    let paths: Vec<&str> = unpacked.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, [MANIFEST, "index.html", "css/site.css"]);
    assert_eq!(unpacked.files[2].content_type, "text/css; charset=utf-8");
}

#[test]
fn hostile_packages_are_refused() {
    assert_eq!(unpack(b"not a zip").unwrap_err(), Refusal::NotAZip);
    assert!(matches!(unpack(&good(&[("../escape.html", b"x")])), Err(Refusal::OutsideFolder(_))));
    assert!(matches!(unpack(&good(&[("tools/setup.exe", b"MZ")])), Err(Refusal::FileType(_))));
    let zeros = vec![0_u8; 8 * 1024 * 1024];
    assert_eq!(unpack(&good(&[("zeros.txt", &zeros)])).unwrap_err(), Refusal::Bomb("zeros.txt".to_owned()));

    let names: Vec<String> = (0..=LIMITS.files).map(|n| format!("f{n}.txt")).collect();
    let many: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
    assert_eq!(unpack(&good(&many)).unwrap_err(), Refusal::TooManyFiles);

    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    zip.start_file(MANIFEST, SimpleFileOptions::default()).unwrap();
    zip.write_all(MANIFEST_12.as_bytes()).unwrap();
    zip.add_symlink("index.html", "/etc/passwd", SimpleFileOptions::default()).unwrap();
    assert_eq!(unpack(&zip.finish().unwrap().into_inner()).unwrap_err(), Refusal::Link("index.html".to_owned()));

    assert_eq!(unpack(&zip_of(&[("index.html", b"<html></html>")])).unwrap_err(), Refusal::NoManifest);
    assert!(matches!(unpack(&zip_of(&[(MANIFEST, MANIFEST_12.as_bytes())])), Err(Refusal::Manifest(_))));
}

#[test]
fn a_folder_packs_into_a_zip_that_unpacks_the_same() {
    let folder = std::env::temp_dir().join(format!("enrol-scorm-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(folder.join("css")).unwrap();
    std::fs::write(folder.join(MANIFEST), MANIFEST_12).unwrap();
    std::fs::write(folder.join("index.html"), "<html></html>").unwrap();
    std::fs::write(folder.join("css/site.css"), "body{}").unwrap();
    let unpacked = unpack(&pack_folder(&folder).unwrap()).unwrap();
    let mut paths: Vec<&str> = unpacked.files.iter().map(|f| f.path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["css/site.css", MANIFEST, "index.html"]);
    let _ = std::fs::remove_dir_all(folder);
}
