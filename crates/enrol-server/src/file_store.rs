//! Where the files students send (decision 014) and the images staff upload
//! (decision 018) are kept: behind one interface, on disk
//! (`ENROL_UPLOADS_DIR`) or in an S3-compatible bucket (`ENROL_S3_*`), so
//! every instance behind a load balancer reads the same files. Keys are
//! made by the server (random hex), never from a name a browser sent.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use async_trait::async_trait;
use object_store::ObjectStore as _;
use object_store::aws::{AmazonS3, AmazonS3Builder};

#[async_trait]
pub trait FileStore: Send + Sync {
    async fn put(&self, key: &str, bytes: &[u8]) -> anyhow::Result<()>;
    /// The file's bytes, or `None` when there is no file with that key.
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>>;
}

/// The store the configuration names: the bucket when `ENROL_S3_BUCKET` is
/// set (`s3`), else the folder `uploads_dir`.
pub fn open(s3: Option<&S3Config>, uploads_dir: &std::path::Path) -> anyhow::Result<Arc<dyn FileStore>> {
    Ok(match s3 {
        Some(s3) => Arc::new(S3Store::new(s3)?),
        None => Arc::new(DiskStore::new(uploads_dir.to_owned())),
    })
}

fn check_key(key: &str) -> anyhow::Result<()> {
    anyhow::ensure!(!key.is_empty() && key.bytes().all(|b| b.is_ascii_hexdigit()), "A file key must be hex, got {key:?}");
    Ok(())
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
        check_key(key)?;
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

/// An S3-compatible bucket: `ENROL_S3_BUCKET`, `ENROL_S3_REGION` (default
/// `eu-west-2`), `ENROL_S3_ENDPOINT` (default AWS; another address for
/// MinIO, R2 or a stand-in, addressed by path), and the credentials
/// `ENROL_S3_ACCESS_KEY_ID` and `ENROL_S3_SECRET_ACCESS_KEY`, from the
/// environment only.
#[derive(Clone)]
pub struct S3Config {
    pub bucket: String,
    pub region: String,
    pub endpoint: Option<String>,
    pub access_key_id: String,
    pub secret_access_key: String,
}

/// The secret never reaches the logs.
impl std::fmt::Debug for S3Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S3({}, {}, {:?})", self.bucket, self.region, self.endpoint)
    }
}

impl S3Config {
    /// `None` without `ENROL_S3_BUCKET`; with it, the credentials must be set.
    pub fn from_lookup(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Option<Self>> {
        let set = |key: &str| get(key).filter(|v| !v.is_empty());
        let Some(bucket) = set("ENROL_S3_BUCKET") else { return Ok(None) };
        let required = |key: &str| set(key).with_context(|| format!("ENROL_S3_BUCKET is set: set {key} too"));
        Ok(Some(S3Config {
            bucket,
            region: set("ENROL_S3_REGION").unwrap_or_else(|| "eu-west-2".to_owned()),
            endpoint: set("ENROL_S3_ENDPOINT").map(|e| e.trim_end_matches('/').to_owned()),
            access_key_id: required("ENROL_S3_ACCESS_KEY_ID")?,
            secret_access_key: required("ENROL_S3_SECRET_ACCESS_KEY")?,
        }))
    }
}

/// Files as objects in a bucket, each under its key.
pub struct S3Store {
    bucket: AmazonS3,
}

impl S3Store {
    pub fn new(config: &S3Config) -> anyhow::Result<Self> {
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(&config.bucket)
            .with_region(&config.region)
            .with_access_key_id(&config.access_key_id)
            .with_secret_access_key(&config.secret_access_key);
        if let Some(endpoint) = &config.endpoint {
            builder = builder.with_endpoint(endpoint).with_allow_http(endpoint.starts_with("http://"));
        }
        Ok(S3Store { bucket: builder.build().context("ENROL_S3_* do not make an S3 client")? })
    }
}

#[async_trait]
impl FileStore for S3Store {
    async fn put(&self, key: &str, bytes: &[u8]) -> anyhow::Result<()> {
        check_key(key)?;
        // A single PUT: the object appears whole or not at all.
        self.bucket.put(&key.into(), bytes.to_vec().into()).await.with_context(|| format!("Failed to store {key} in the bucket"))?;
        Ok(())
    }

    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        check_key(key)?;
        match self.bucket.get(&key.into()).await {
            Ok(object) => Ok(Some(object.bytes().await.context("Failed to read a stored file from the bucket")?.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(error).context("Failed to read a stored file from the bucket"),
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

    #[test]
    fn a_bucket_needs_its_credentials_and_keeps_its_secret_out_of_logs() {
        let lookup = |pairs: &'static [(&'static str, &'static str)]| {
            move |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_owned())
        };
        assert!(S3Config::from_lookup(&lookup(&[])).unwrap().is_none());
        let error = S3Config::from_lookup(&lookup(&[("ENROL_S3_BUCKET", "media")])).unwrap_err();
        assert!(error.to_string().contains("ENROL_S3_ACCESS_KEY_ID"), "{error}");
        let config = S3Config::from_lookup(&lookup(&[
            ("ENROL_S3_BUCKET", "media"),
            ("ENROL_S3_ENDPOINT", "http://127.0.0.1:9000/"),
            ("ENROL_S3_ACCESS_KEY_ID", "id"),
            ("ENROL_S3_SECRET_ACCESS_KEY", "very-secret"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!((config.region.as_str(), config.endpoint.as_deref()), ("eu-west-2", Some("http://127.0.0.1:9000")));
        assert!(!format!("{config:?}").contains("very-secret"));
    }
}
