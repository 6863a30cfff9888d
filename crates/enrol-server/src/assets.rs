//! The browser build: which hashed files the page must load, from Vite's
//! manifest. Each page kind has its own chunk, `src/app/routes/<kind>.tsx`
//! (the kind in kebab case, decision 012), which the browser loads before it
//! hydrates; `route_preloads` names it and its imports for a modulepreload.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use anyhow::Context as _;
use serde::Deserialize;

use enrol_domain::learning::scorm::ScormVersion;

const ENTRY: &str = "src/entry-client.tsx";
const ROUTE_PREFIX: &str = "src/app/routes/";

/// The site path of the SCORM runtime `edition` (`12`, `2004`), from its
/// build's manifest, `.vite/scorm-<edition>.json`; `None` when not built.
fn scorm_runtime(client_dist: &Path, edition: &str) -> anyhow::Result<Option<String>> {
    let path = client_dist.join(format!(".vite/scorm-{edition}.json"));
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(None) };
    let chunks: HashMap<String, Chunk> = serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))?;
    let entry = format!("src/scorm-runtime/runtime-{edition}.ts");
    let chunk = chunks.get(&entry).with_context(|| format!("{} has no {entry}", path.display()))?;
    Ok(Some(format!("/{}", chunk.file)))
}

#[derive(Deserialize)]
struct Chunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    css: Vec<String>,
}

/// Site paths (`/assets/…`) of the client entry, its preloads and styles.
#[derive(Debug, Clone, Default)]
pub struct ClientAssets {
    pub script: String,
    pub preloads: Vec<String>,
    pub stylesheets: Vec<String>,
    /// By route module name (`course-index`): its chunk and the chunks it
    /// imports that the entry does not already preload.
    routes: HashMap<String, Vec<String>>,
    /// The SCORM runtimes a package's pages load (decision 026), each its
    /// own build (`vite.scorm.config.ts`); `None` when not built.
    scorm_12: Option<String>,
    scorm_2004: Option<String>,
}

impl ClientAssets {
    pub fn read(client_dist: &Path) -> anyhow::Result<Self> {
        let path = client_dist.join(".vite/manifest.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("Failed to read {}: build the pages first (make web)", path.display()))?;
        let mut assets = Self::from_manifest(&text)?;
        assets.scorm_12 = scorm_runtime(client_dist, "12")?;
        assets.scorm_2004 = scorm_runtime(client_dist, "2004")?;
        Ok(assets)
    }

    /// The address of the SCORM runtime of `version`, if it is built.
    pub fn scorm_runtime(&self, version: ScormVersion) -> Option<&str> {
        match version {
            ScormVersion::V12 => self.scorm_12.as_deref(),
            ScormVersion::V2004 => self.scorm_2004.as_deref(),
        }
    }

    pub fn from_manifest(text: &str) -> anyhow::Result<Self> {
        let chunks: HashMap<String, Chunk> = serde_json::from_str(text).context("The Vite manifest is not valid JSON")?;
        let entry = chunks.get(ENTRY).with_context(|| format!("The Vite manifest has no {ENTRY}"))?;
        let mut stylesheets: Vec<String> = entry.css.clone();
        let script = format!("/{}", entry.file);
        let preloads = imported(&chunks, &entry.imports, &BTreeSet::from([script.clone()]), &mut stylesheets)?;
        let loaded: BTreeSet<String> = preloads.iter().cloned().chain([script.clone()]).collect();
        let mut routes = HashMap::new();
        for (key, chunk) in &chunks {
            let Some(name) = key.strip_prefix(ROUTE_PREFIX).and_then(|file| file.strip_suffix(".tsx")) else { continue };
            let mut files = vec![format!("/{}", chunk.file)];
            files.extend(imported(&chunks, &chunk.imports, &loaded, &mut Vec::new())?);
            routes.insert(name.to_owned(), files);
        }
        stylesheets.dedup();
        Ok(ClientAssets {
            script,
            preloads: preloads.into_iter().collect(),
            stylesheets: stylesheets.into_iter().map(|css| format!("/{css}")).collect(),
            routes,
            scorm_12: None,
            scorm_2004: None,
        })
    }

    /// What to preload besides `preloads` for a page of `kind` (`courseIndex`,
    /// as the page data names it): its route chunk and that chunk's imports.
    /// Empty for a kind the build has no chunk for.
    pub fn route_preloads(&self, kind: &str) -> &[String] {
        self.routes.get(&route_name(kind)).map_or(&[], Vec::as_slice)
    }
}

/// A page kind's route module name: `courseIndex` → `course-index`.
fn route_name(kind: &str) -> String {
    let mut name = String::with_capacity(kind.len() + 4);
    for c in kind.chars() {
        if c.is_ascii_uppercase() {
            name.push('-');
            name.push(c.to_ascii_lowercase());
        } else {
            name.push(c);
        }
    }
    name
}

/// Site paths of the chunks `imports` name and everything they import in
/// turn, leaving out `known`; their stylesheets go to `stylesheets`.
fn imported(
    chunks: &HashMap<String, Chunk>,
    imports: &[String],
    known: &BTreeSet<String>,
    stylesheets: &mut Vec<String>,
) -> anyhow::Result<BTreeSet<String>> {
    let mut found = BTreeSet::new();
    let mut pending: Vec<&String> = imports.iter().collect();
    while let Some(key) = pending.pop() {
        let chunk = chunks.get(key).with_context(|| format!("The Vite manifest lacks {key}"))?;
        let path = format!("/{}", chunk.file);
        if !known.contains(&path) && found.insert(path) {
            stylesheets.extend(chunk.css.iter().cloned());
            pending.extend(chunk.imports.iter());
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::ClientAssets;

    #[test]
    fn reads_the_entry_its_imports_and_their_css() {
        let manifest = r#"{
            "src/entry-client.tsx": {"file": "assets/entry-client-1.js", "isEntry": true,
                "imports": ["_react-2.js"], "css": ["assets/entry-client-3.css"]},
            "_react-2.js": {"file": "assets/react-2.js", "imports": ["_shared-4.js"]},
            "_shared-4.js": {"file": "assets/shared-4.js", "css": ["assets/shared-5.css"]}
        }"#;
        let assets = ClientAssets::from_manifest(manifest).unwrap();
        assert_eq!(assets.script, "/assets/entry-client-1.js");
        assert_eq!(assets.preloads, ["/assets/react-2.js", "/assets/shared-4.js"]);
        assert_eq!(assets.stylesheets, ["/assets/entry-client-3.css", "/assets/shared-5.css"]);
    }

    #[test]
    fn a_page_kind_preloads_its_route_chunk_and_what_only_it_imports() {
        let manifest = r#"{
            "src/entry-client.tsx": {"file": "assets/entry-client-1.js", "isEntry": true, "imports": ["_react-2.js"],
                "dynamicImports": ["src/app/routes/course-index.tsx", "src/app/routes/home.tsx"]},
            "_react-2.js": {"file": "assets/react-2.js"},
            "src/app/routes/course-index.tsx": {"file": "assets/course-index-3.js", "isDynamicEntry": true,
                "imports": ["src/entry-client.tsx", "_react-2.js", "_card-4.js"]},
            "src/app/routes/home.tsx": {"file": "assets/home-5.js", "isDynamicEntry": true},
            "_card-4.js": {"file": "assets/card-4.js", "imports": ["_money-6.js"]},
            "_money-6.js": {"file": "assets/money-6.js"}
        }"#;
        let assets = ClientAssets::from_manifest(manifest).unwrap();
        assert_eq!(assets.preloads, ["/assets/react-2.js"]);
        assert_eq!(assets.route_preloads("courseIndex"), ["/assets/course-index-3.js", "/assets/card-4.js", "/assets/money-6.js"]);
        assert_eq!(assets.route_preloads("home"), ["/assets/home-5.js"]);
        assert!(assets.route_preloads("notAKind").is_empty());
    }

    #[test]
    fn a_manifest_without_the_entry_is_refused() {
        assert!(ClientAssets::from_manifest("{}").is_err());
        assert!(ClientAssets::from_manifest("not json").is_err());
    }
}
