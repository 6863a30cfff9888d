//! Where the files students send (decision 014) and the images staff upload
//! (decision 018) are kept: behind one interface, on disk
//! (`ENROL_UPLOADS_DIR`) or in an S3-compatible bucket (`ENROL_S3_*`), so
//! every instance behind a load balancer reads the same files. Keys are
//! made by the server (random hex), never from a name a browser sent.
//!
//! A course's files (decision 028) may be a gigabyte of video: they go in
//! as a stream ([`FileStore::put_stream`]) and come out in ranges
//! ([`FileStore::get_range`]), never whole in memory.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use async_trait::async_trait;
use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{StreamExt as _, TryStreamExt as _};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::{GetOptions, GetRange, ObjectStore as _, WriteMultipart};
use tokio::io::{AsyncReadExt as _, AsyncSeekExt as _, AsyncWriteExt as _};

/// Bytes as they arrive or leave, a chunk at a time.
pub type ByteStream = BoxStream<'static, std::io::Result<Bytes>>;

/// Why a streamed file was not stored; either way nothing is kept.
#[derive(Debug, thiserror::Error)]
pub enum PutError {
    /// The stream failed: the sender went away, or whoever wrapped the
    /// stream refused what it carried (its error is inside).
    #[error("The file did not arrive: {0}")]
    Body(std::io::Error),
    #[error(transparent)]
    Store(#[from] anyhow::Error),
}

#[async_trait]
pub trait FileStore: Send + Sync {
    async fn put(&self, key: &str, bytes: &[u8]) -> anyhow::Result<()>;
    /// Stores what `body` carries under `key` as it arrives: the file
    /// appears whole once the stream ends, or not at all when it fails.
    async fn put_stream(&self, key: &str, body: ByteStream) -> Result<(), PutError>;
    /// The file's bytes, or `None` when there is no file with that key.
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>>;
    /// The bytes `range` of the file (which the caller knows to be within
    /// it), as they are read; `None` when there is no file with that key.
    async fn get_range(&self, key: &str, range: Range<u64>) -> anyhow::Result<Option<ByteStream>>;
    /// Removes the file; a key with no file is already removed.
    async fn delete(&self, key: &str) -> anyhow::Result<()>;
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

    async fn put_stream(&self, key: &str, mut body: ByteStream) -> Result<(), PutError> {
        let path = self.path(key)?;
        tokio::fs::create_dir_all(&self.root).await.with_context(|| format!("Failed to create {}", self.root.display()))?;
        let partial = path.with_extension("partial");
        let mut file = tokio::fs::File::create(&partial).await.with_context(|| format!("Failed to create {}", partial.display()))?;
        let written = async {
            while let Some(chunk) = body.next().await {
                let chunk = chunk.map_err(PutError::Body)?;
                file.write_all(&chunk).await.with_context(|| format!("Failed to write {}", partial.display()))?;
            }
            file.flush().await.with_context(|| format!("Failed to write {}", partial.display()))?;
            Ok::<_, PutError>(())
        }
        .await;
        drop(file);
        if let Err(error) = written {
            let _ = tokio::fs::remove_file(&partial).await;
            return Err(error);
        }
        tokio::fs::rename(&partial, &path).await.with_context(|| format!("Failed to store {}", path.display()))?;
        Ok(())
    }

    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error).context("Failed to read a stored file"),
        }
    }

    async fn get_range(&self, key: &str, range: Range<u64>) -> anyhow::Result<Option<ByteStream>> {
        let mut file = match tokio::fs::File::open(self.path(key)?).await {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error).context("Failed to open a stored file"),
        };
        file.seek(std::io::SeekFrom::Start(range.start)).await.context("Failed to seek in a stored file")?;
        Ok(Some(tokio_util::io::ReaderStream::new(file.take(range.end - range.start)).boxed()))
    }

    async fn delete(&self, key: &str) -> anyhow::Result<()> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error).context("Failed to remove a stored file"),
            _ => Ok(()),
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

    async fn put_stream(&self, key: &str, mut body: ByteStream) -> Result<(), PutError> {
        check_key(key)?;
        // A multipart upload: parts of 8 MiB, two in flight; the object
        // appears when it completes, and an aborted one leaves nothing.
        let upload =
            self.bucket.put_multipart(&key.into()).await.with_context(|| format!("Failed to start storing {key} in the bucket"))?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, 8 * 1024 * 1024);
        let written = async {
            while let Some(chunk) = body.next().await {
                let chunk = chunk.map_err(PutError::Body)?;
                writer.wait_for_capacity(2).await.with_context(|| format!("Failed to store {key} in the bucket"))?;
                writer.write(&chunk);
            }
            Ok::<_, PutError>(())
        }
        .await;
        match written {
            Ok(()) => {
                writer.finish().await.with_context(|| format!("Failed to store {key} in the bucket"))?;
                Ok(())
            }
            Err(error) => {
                if let Err(abort) = writer.abort().await {
                    tracing::warn!(key, error = %abort, "An unfinished upload to the bucket could not be aborted");
                }
                Err(error)
            }
        }
    }

    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        check_key(key)?;
        match self.bucket.get(&key.into()).await {
            Ok(object) => Ok(Some(object.bytes().await.context("Failed to read a stored file from the bucket")?.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(error).context("Failed to read a stored file from the bucket"),
        }
    }

    async fn get_range(&self, key: &str, range: Range<u64>) -> anyhow::Result<Option<ByteStream>> {
        check_key(key)?;
        let options = GetOptions { range: Some(GetRange::Bounded(range)), ..GetOptions::default() };
        match self.bucket.get_opts(&key.into(), options).await {
            Ok(object) => Ok(Some(object.into_stream().map_err(std::io::Error::other).boxed())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(error) => Err(error).context("Failed to read a stored file from the bucket"),
        }
    }

    async fn delete(&self, key: &str) -> anyhow::Result<()> {
        check_key(key)?;
        match self.bucket.delete(&key.into()).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(error) => Err(error).context("Failed to remove a stored file from the bucket"),
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

    #[tokio::test]
    async fn streams_in_and_reads_ranges_and_a_failed_stream_keeps_nothing() {
        let root = std::env::temp_dir().join(format!("enrol-files-{}", uuid::Uuid::new_v4().simple()));
        let store = DiskStore::new(root.clone());
        let chunks = || futures_util::stream::iter([Ok(Bytes::from_static(b"0123")), Ok(Bytes::from_static(b"456789"))]);
        store.put_stream("abc", chunks().boxed()).await.unwrap();
        let range = store.get_range("abc", 2..7).await.unwrap().unwrap();
        let read: Vec<Bytes> = range.try_collect().await.unwrap();
        assert_eq!(read.concat(), b"23456");
        assert!(store.get_range("def", 0..1).await.unwrap().is_none());

        let failing = chunks().chain(futures_util::stream::iter([Err(std::io::Error::other("refused"))]));
        assert!(matches!(store.put_stream("def", failing.boxed()).await, Err(PutError::Body(_))));
        assert_eq!(std::fs::read_dir(&root).unwrap().count(), 1, "neither the file nor its partial copy is kept");

        store.delete("abc").await.unwrap();
        store.delete("abc").await.unwrap();
        assert_eq!(store.get("abc").await.unwrap(), None);
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
