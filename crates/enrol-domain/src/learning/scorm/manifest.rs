//! What a package's `imsmanifest.xml` says: the SCORM edition, the title
//! and the page to launch. The launch page is the first item of the
//! default organisation that names a SCO, else the first SCO among the
//! resources, with the `xml:base` of the manifest, its resources and the
//! resource before its `href`. The manifest is read without its DTD or
//! schemas (none is fetched or expanded).

use roxmltree::{Document, Node, ParsingOptions};

use super::ScormVersion;
use super::package::{Refusal, entry_path};

/// The largest manifest read.
pub const MAX_MANIFEST_BYTES: usize = 1024 * 1024;

/// The longest title kept, in characters.
const MAX_TITLE_CHARS: usize = 200;

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";

/// What the manifest says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub version: ScormVersion,
    pub title: String,
    /// The page to open, a path inside the package, with any query the
    /// manifest gives it.
    pub launch: String,
}

impl Manifest {
    /// The launch page's path without its query: it must be one of the
    /// package's files.
    pub fn launch_file(&self) -> &str {
        self.launch.split(['?', '#']).next().unwrap_or(&self.launch)
    }
}

fn refuse(why: impl Into<String>) -> Refusal {
    Refusal::Manifest(why.into())
}

/// Reads `xml`, the bytes of `imsmanifest.xml`.
pub fn parse(xml: &[u8]) -> Result<Manifest, Refusal> {
    if xml.len() > MAX_MANIFEST_BYTES {
        return Err(refuse("it is larger than 1 MB."));
    }
    let text = std::str::from_utf8(xml).map_err(|_| refuse("it is not UTF-8 text."))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let options = ParsingOptions { allow_dtd: false, ..ParsingOptions::default() };
    let document = Document::parse_with_options(text, options).map_err(|error| refuse(format!("it is not well-formed XML ({error}).")))?;
    let manifest = document.root_element();
    if manifest.tag_name().name() != "manifest" {
        return Err(refuse("its root element is not <manifest>."));
    }
    let version = version(manifest).ok_or_else(|| refuse("it names neither SCORM 1.2 nor SCORM 2004 (metadata/schemaversion)."))?;
    let resources = child(manifest, "resources").ok_or_else(|| refuse("it has no <resources>."))?;
    let scos: Vec<Node<'_, '_>> = children(resources, "resource").filter(|r| is_sco(*r) && r.attribute("href").is_some()).collect();
    let organization = default_organization(manifest);
    let from_items = organization.into_iter().flat_map(|o| o.descendants().filter(|n| n.tag_name().name() == "item")).find_map(|item| {
        let reference = item.attribute("identifierref")?;
        scos.iter().find(|r| r.attribute("identifier") == Some(reference)).map(|r| (*r, item.attribute("parameters")))
    });
    let (resource, parameters) =
        from_items.or_else(|| scos.first().map(|r| (*r, None))).ok_or_else(|| refuse("it names no SCO to launch."))?;
    let href = resource.attribute("href").unwrap_or_default();
    let base: String = [manifest, resources, resource].iter().filter_map(|n| n.attribute((XML_NAMESPACE, "base"))).collect();
    let launch = launch_path(&base, href, parameters)?;
    let title = organization.and_then(|o| child(o, "title")).and_then(|t| t.text()).map(str::trim).filter(|t| !t.is_empty());
    let title = title.unwrap_or("SCORM course").chars().take(MAX_TITLE_CHARS).collect();
    Ok(Manifest { version, title, launch })
}

/// `base` and `href` joined into a path inside the package, with the
/// item's `parameters` as its query.
fn launch_path(base: &str, href: &str, parameters: Option<&str>) -> Result<String, Refusal> {
    if href.contains("://") || base.contains("://") {
        return Err(refuse("its launch page is on another site; a package must hold its own pages."));
    }
    let joined = format!("{base}{href}");
    let (file, query) = match joined.split_once('?') {
        Some((file, query)) => (file, Some(query)),
        None => (joined.as_str(), None),
    };
    let file = file.split('#').next().unwrap_or(file);
    let path = entry_path(file).map_err(|_| refuse(format!("its launch page {file} is not a page inside the package.")))?;
    let path = path.ok_or_else(|| refuse(format!("its launch page {file} is not a file.")))?;
    let query: Vec<&str> =
        query.into_iter().chain(parameters.map(|p| p.trim_start_matches(['?', '&']))).filter(|q| !q.is_empty()).collect();
    Ok(if query.is_empty() { path } else { format!("{path}?{}", query.join("&")) })
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|n| n.is_element() && n.tag_name().name() == name)
}

fn children<'a, 'i, 'n>(node: Node<'a, 'i>, name: &'n str) -> impl Iterator<Item = Node<'a, 'i>> + use<'a, 'i, 'n> {
    node.children().filter(move |n| n.is_element() && n.tag_name().name() == name)
}

/// 1.2 writes `scormtype`, 2004 `scormType`, both in the adlcp namespace.
fn is_sco(resource: Node<'_, '_>) -> bool {
    resource.attributes().any(|a| a.name().eq_ignore_ascii_case("scormtype") && a.value().trim().eq_ignore_ascii_case("sco"))
}

fn default_organization<'a, 'i>(manifest: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    let organizations = child(manifest, "organizations")?;
    let default = organizations.attribute("default");
    let first = children(organizations, "organization").next();
    default.and_then(|id| children(organizations, "organization").find(|o| o.attribute("identifier") == Some(id))).or(first)
}

/// From `metadata/schemaversion` ("1.2"; "2004 3rd Edition", "2004 4th
/// Edition", "CAM 1.3"), else from the adlcp namespace the manifest uses.
fn version(manifest: Node<'_, '_>) -> Option<ScormVersion> {
    let stated = child(manifest, "metadata").and_then(|m| child(m, "schemaversion")).and_then(|v| v.text()).map(str::trim);
    match stated {
        Some("1.2") => return Some(ScormVersion::V12),
        Some(v) if v.contains("2004") || v.contains("1.3") => return Some(ScormVersion::V2004),
        _ => {}
    }
    let namespaces: Vec<&str> = manifest.descendants().flat_map(|n| n.namespaces().map(|ns| ns.uri()).collect::<Vec<_>>()).collect();
    if namespaces.iter().any(|uri| uri.contains("adlcp_v1p3")) {
        Some(ScormVersion::V2004)
    } else if namespaces.iter().any(|uri| uri.contains("adlcp_rootv1p2")) {
        Some(ScormVersion::V12)
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
