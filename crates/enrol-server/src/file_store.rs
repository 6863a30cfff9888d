//! Where the files students send are kept (issue 12): behind one interface,
//! so object storage can take the place of the disk without touching the
//! handlers. Keys are made by the server (random hex), never from a name a
//! browser sent.

use std::path::PathBuf;

use anyhow::Context as _;
use async_trait::async_trait;

#[async_trait]
pub trait FileStore: Send + Sync {
    async fn put(&self, key: &str, bytes: &[u8]) -> anyhow::Result<()>;
    /// The file's bytes, or `None` when there is no file with that key.
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>>;
}

/// Files in a folder on disk (`ENROL_UPLOADS_DIR`).
pub struct DiskStore {
    root: PathBuf,
}

impl DiskStore {
    pub fn new(root: PathBuf) -> Self {
        DiskStore { root }
    }

    fn path(&self, key: &str) -> anyhow::Result<PathBuf> {
        anyhow::ensure!(!key.is_empty() && key.bytes().all(|b| b.is_ascii_hexdigit()), "A file key must be hex, got {key:?}");
        Ok(self.root.join(key))
    }
}

#[async_trait]
impl FileStore for DiskStore {
    async fn put(&self, key: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let path = self.path(key)?;
        tokio::fs::create_dir_all(&self.root).await.with_context(|| format!("Failed to create {}", self.root.display()))?;
        // Written aside and renamed, so a crash never leaves half a file under the key.
        let partial = path.with_extension("partial");
        tokio::fs::write(&partial, bytes).await.with_context(|| format!("Failed to write {}", partial.display()))?;
        tokio::fs::rename(&partial, &path).await.with_context(|| format!("Failed to store {}", path.display()))
    }

    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error).context("Failed to read a stored file"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keeps_files_by_key_and_refuses_keys_that_are_paths() {
        let root = std::env::temp_dir().join(format!("enrol-files-{}", uuid::Uuid::new_v4().simple()));
        let store = DiskStore::new(root.clone());
        store.put("abc123", b"%PDF-1.7").await.unwrap();
        assert_eq!(store.get("abc123").await.unwrap().as_deref(), Some(&b"%PDF-1.7"[..]));
        assert_eq!(store.get("def456").await.unwrap(), None);
        assert!(store.put("../escape", b"x").await.is_err());
        assert!(store.get("").await.is_err());
        let _ = std::fs::remove_dir_all(root);
    }
}
