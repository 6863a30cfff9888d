//! The browser build: which hashed files the page must load, from Vite's
//! manifest.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use anyhow::Context as _;
use serde::Deserialize;

const ENTRY: &str = "src/entry-client.tsx";

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
}

impl ClientAssets {
    pub fn read(client_dist: &Path) -> anyhow::Result<Self> {
        let path = client_dist.join(".vite/manifest.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("Failed to read {}: build the pages first (make web)", path.display()))?;
        Self::from_manifest(&text)
    }

    pub fn from_manifest(text: &str) -> anyhow::Result<Self> {
        let chunks: HashMap<String, Chunk> = serde_json::from_str(text).context("The Vite manifest is not valid JSON")?;
        let entry = chunks.get(ENTRY).with_context(|| format!("The Vite manifest has no {ENTRY}"))?;
        let mut preloads = BTreeSet::new();
        let mut stylesheets: Vec<String> = entry.css.clone();
        let mut pending: Vec<&String> = entry.imports.iter().collect();
        while let Some(key) = pending.pop() {
            let chunk = chunks.get(key).with_context(|| format!("The Vite manifest lacks {key}"))?;
            if preloads.insert(format!("/{}", chunk.file)) {
                stylesheets.extend(chunk.css.iter().cloned());
                pending.extend(chunk.imports.iter());
            }
        }
        stylesheets.dedup();
        Ok(ClientAssets {
            script: format!("/{}", entry.file),
            preloads: preloads.into_iter().collect(),
            stylesheets: stylesheets.into_iter().map(|css| format!("/{css}")).collect(),
        })
    }
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
    fn a_manifest_without_the_entry_is_refused() {
        assert!(ClientAssets::from_manifest("{}").is_err());
        assert!(ClientAssets::from_manifest("not json").is_err());
    }
}
