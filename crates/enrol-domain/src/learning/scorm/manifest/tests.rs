use super::*;

const SCORM_12: &str = r#"<?xml version="1.0"?>
<manifest identifier="demo" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="other"><title>Not this one</title></organization>
    <organization identifier="org">
      <title> Infection prevention </title>
      <item identifier="i0"><title>A folder</title>
        <item identifier="i1" identifierref="assets"><title>Shared</title></item>
        <item identifier="i2" identifierref="sco" parameters="?start=1"><title>Lesson</title></item>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="assets" type="webcontent" adlcp:scormtype="asset" href="shared/readme.html"/>
    <resource identifier="first" type="webcontent" adlcp:scormtype="sco" href="first.html"/>
    <resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource>
  </resources>
</manifest>"#;

#[test]
fn a_12_manifest_launches_the_default_organisations_first_sco_with_its_parameters() {
    let manifest = parse(SCORM_12.as_bytes()).unwrap();
    assert_eq!(manifest.version, ScormVersion::V12);
    assert_eq!(manifest.title, "Infection prevention");
    assert_eq!(manifest.launch, "index.html?start=1");
    assert_eq!(manifest.launch_file(), "index.html");
}

#[test]
fn a_2004_manifest_with_xml_base_and_no_organisation() {
    let xml = r#"<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xml:base="course/">
      <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
      <organizations/>
      <resources xml:base="content/">
        <resource identifier="r" type="webcontent" adlcp:scormType="sco" xml:base="story/" href="story.html?lang=en"/>
      </resources>
    </manifest>"#;
    let manifest = parse(xml.as_bytes()).unwrap();
    assert_eq!(manifest.version, ScormVersion::V2004);
    assert_eq!(manifest.launch, "course/content/story/story.html?lang=en");
    assert_eq!(manifest.title, "SCORM course");
}

#[test]
fn the_edition_falls_back_to_the_namespace_the_manifest_uses() {
    let xml = SCORM_12.replace("<schemaversion>1.2</schemaversion>", "");
    assert_eq!(parse(xml.as_bytes()).unwrap().version, ScormVersion::V12);
    let neither = SCORM_12.replace("<schemaversion>1.2</schemaversion>", "").replace("adlcp_rootv1p2", "elsewhere");
    assert!(matches!(parse(neither.as_bytes()), Err(Refusal::Manifest(_))));
}

#[test]
fn manifests_that_launch_nothing_or_outside_are_refused() {
    let refused = |xml: String| match parse(xml.as_bytes()) {
        Err(Refusal::Manifest(why)) => why,
        other => panic!("{other:?}"),
    };
    assert!(refused(SCORM_12.replace(r#"adlcp:scormtype="sco""#, r#"adlcp:scormtype="asset""#)).contains("no SCO"));
    assert!(refused(SCORM_12.replace(r#"href="index.html">"#, r#"href="../../index.html">"#)).contains("not a page inside"));
    assert!(refused(SCORM_12.replace(r#"href="index.html">"#, r#"href="https://elsewhere.example/x.html">"#)).contains("another site"));
    assert!(refused("<manifest>".to_owned()).contains("well-formed"));
    assert!(refused("<package/>".to_owned()).contains("root element"));
    // No DTD, so no entity to expand.
    let dtd = format!("<!DOCTYPE manifest [<!ENTITY a \"aaaa\">]>{SCORM_12}").replace("<?xml version=\"1.0\"?>\n", "");
    assert!(refused(dtd).contains("well-formed"));
    assert!(refused("x".repeat(MAX_MANIFEST_BYTES + 1)).contains("1 MB"));
}
