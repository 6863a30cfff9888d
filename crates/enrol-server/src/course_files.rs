//! A course's own files into the file store (decision 028), from an
//! upload or the content pack alike: the first bytes say what the file is,
//! its kind's limit is kept as it streams in, and a file refused or cut
//! short leaves nothing in the store. The content pack carries them too
//! (`course-files.yaml` and `course-files/`), loaded through the same checks.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context as _;
use bytes::Bytes;
use chrono::Utc;
use futures_util::StreamExt as _;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt as _;

use enrol_db::{CourseFileRecord, Db};
use enrol_domain::evidence::sent_file_name;
use enrol_domain::learning::course_file::{CourseFileKind, FILES, MAX_BYTES, Refusal, SNIFF_BYTES, is_course_file, parse_file_name, sniff};

use crate::file_store::{ByteStream, FileStore, PutError};

/// A course file now in the store.
#[derive(Debug)]
pub struct Stored {
    pub kind: CourseFileKind,
    pub bytes: u64,
}

/// Why nothing was stored.
#[derive(Debug, thiserror::Error)]
pub enum NotStored {
    #[error(transparent)]
    Refused(Refusal),
    #[error("The file did not arrive whole. Please try again.")]
    CutShort,
    #[error(transparent)]
    Failed(anyhow::Error),
}

/// Stores what `body` carries under `key`, `announced` being the
/// length its sender declared, if any. A refused file's remaining bytes
/// are read and dropped, so the sender hears why rather than a broken
/// connection.
pub async fn store(files: &dyn FileStore, key: &str, mut body: ByteStream, announced: Option<u64>) -> Result<Stored, NotStored> {
    if announced.is_some_and(|length| length > MAX_BYTES) {
        return refuse(body, Refusal::LargerThanAny).await;
    }
    let (mut head, mut first) = (Vec::new(), Vec::with_capacity(SNIFF_BYTES));
    while first.len() < SNIFF_BYTES {
        match body.next().await {
            Some(Ok(chunk)) => {
                first.extend_from_slice(&chunk[..chunk.len().min(SNIFF_BYTES - first.len())]);
                head.push(Ok(chunk));
            }
            Some(Err(_)) => return Err(NotStored::CutShort),
            None => break,
        }
    }
    if first.is_empty() {
        return Err(NotStored::Refused(Refusal::Empty));
    }
    let Some(kind) = sniff(&first) else { return refuse(body, Refusal::NotAccepted).await };
    if announced.is_some_and(|length| length > kind.max_bytes()) {
        return refuse(body, Refusal::TooLarge(kind)).await;
    }
    let counted = Arc::new(AtomicU64::new(0));
    let whole = futures_util::stream::iter(head).chain(body).boxed();
    match files.put_stream(key, within(whole, kind, Arc::clone(&counted))).await {
        Ok(()) => Ok(Stored { kind, bytes: counted.load(Ordering::Relaxed) }),
        Err(PutError::Body(error)) => match error.get_ref().and_then(|inner| inner.downcast_ref::<Refusal>()) {
            Some(refusal) => Err(NotStored::Refused(*refusal)),
            None => Err(NotStored::CutShort),
        },
        Err(PutError::Store(error)) => Err(NotStored::Failed(error)),
    }
}

async fn refuse(mut body: ByteStream, refusal: Refusal) -> Result<Stored, NotStored> {
    while body.next().await.is_some() {}
    Err(NotStored::Refused(refusal))
}

/// `body`, counted into `counted`, failing with [`Refusal::TooLarge`]
/// (once the rest is read and dropped) as soon as it passes `kind`'s limit.
fn within(body: ByteStream, kind: CourseFileKind, counted: Arc<AtomicU64>) -> ByteStream {
    futures_util::stream::unfold(Some(body), move |body| {
        let counted = Arc::clone(&counted);
        async move {
            let mut body = body?;
            let chunk = match body.next().await? {
                Ok(chunk) => chunk,
                Err(error) => return Some((Err(error), None)),
            };
            let seen = counted.fetch_add(chunk.len() as u64, Ordering::Relaxed) + chunk.len() as u64;
            if seen > kind.max_bytes() {
                while body.next().await.is_some() {}
                return Some((Err(std::io::Error::other(Refusal::TooLarge(kind))), None));
            }
            Some((Ok::<Bytes, _>(chunk), Some(body)))
        }
    })
    .boxed()
}

/// `course-files.yaml` of a content pack: each course file by the name
/// content gives it, with the name it was uploaded with; its bytes are
/// `course-files/<key>.<extension>` beside it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PackCourseFile {
    file: String,
    name: String,
}

const PACK_LIST: &str = "course-files.yaml";
const PACK_FOLDER: &str = "course-files";

/// Loads the pack's course files that the database does not have yet,
/// each through the same first-bytes check and limits as an upload (so
/// a pack brings nothing an upload could not), under the key its name
/// gives; the number loaded.
pub async fn load_pack_files(db: &Db, files: &dyn FileStore, root: &Path) -> anyhow::Result<usize> {
    let list = root.join(PACK_LIST);
    if !list.exists() {
        return Ok(0);
    }
    let text = std::fs::read_to_string(&list).with_context(|| format!("Failed to read {}", list.display()))?;
    let listed: Vec<PackCourseFile> =
        serde_yaml::from_str(&text).with_context(|| format!("{} is not a list of course files", list.display()))?;
    let mut loaded = 0;
    for item in listed {
        let (key, kind) = parse_file_name(&item.file)
            .filter(|_| is_course_file(&item.file))
            .with_context(|| format!("{}: {} is not a course file's name (files/<key>.<extension>)", list.display(), item.file))?;
        if db.course_file(key).await?.is_some() {
            continue;
        }
        let path = root.join(PACK_FOLDER).join(item.file.trim_start_matches(FILES));
        let file = tokio::fs::File::open(&path).await.with_context(|| format!("Failed to open {}", path.display()))?;
        let announced = file.metadata().await.ok().map(|meta| meta.len());
        let body = tokio_util::io::ReaderStream::new(file).boxed();
        let stored = store(files, key, body, announced).await.map_err(|refused| anyhow::anyhow!("{}: {refused}", path.display()))?;
        if stored.kind != kind {
            files.delete(key).await?;
            anyhow::bail!("{}: its bytes are {}, not {}", path.display(), stored.kind.format(), kind.format());
        }
        let original_name = sent_file_name(&item.name).with_context(|| format!("{}: {} has no name", list.display(), item.file))?;
        let record = CourseFileRecord {
            key: key.to_owned(),
            file_name: item.file,
            content_type: kind.content_type().to_owned(),
            bytes: i64::try_from(stored.bytes).context("size")?,
            original_name,
            uploaded_by: None,
            created_at: Utc::now(),
        };
        db.add_course_file(&record).await?;
        loaded += 1;
    }
    Ok(loaded)
}

/// Writes every course file into the pack in `dir`, a range at a time;
/// the number written.
pub async fn export_pack_files(db: &Db, files: &dyn FileStore, dir: &Path) -> anyhow::Result<usize> {
    let kept = db.course_files().await?;
    if kept.is_empty() {
        return Ok(0);
    }
    let folder = dir.join(PACK_FOLDER);
    tokio::fs::create_dir_all(&folder).await.with_context(|| format!("Failed to create {}", folder.display()))?;
    let mut listed = Vec::with_capacity(kept.len());
    for file in kept {
        let length = u64::try_from(file.bytes).context("size")?;
        let mut bytes = files
            .get_range(&file.key, 0..length)
            .await?
            .with_context(|| format!("The course file {} is not in the file store", file.file_name))?;
        let to = folder.join(file.file_name.trim_start_matches(FILES));
        let mut out = tokio::fs::File::create(&to).await.with_context(|| format!("Failed to create {}", to.display()))?;
        while let Some(chunk) = bytes.next().await {
            out.write_all(&chunk.context("Failed to read a course file")?)
                .await
                .with_context(|| format!("Failed to write {}", to.display()))?;
        }
        out.flush().await?;
        listed.push(PackCourseFile { file: file.file_name, name: file.original_name });
    }
    let list = dir.join(PACK_LIST);
    std::fs::write(&list, serde_yaml::to_string(&listed)?).with_context(|| format!("Failed to write {}", list.display()))?;
    Ok(listed.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_store::DiskStore;

    fn chunks(first: &'static [u8], megabytes: usize) -> ByteStream {
        let megabyte = Bytes::from(vec![0u8; 1024 * 1024]);
        let all = std::iter::once(Bytes::from_static(first)).chain(std::iter::repeat_n(megabyte, megabytes)).map(Ok);
        futures_util::stream::iter(all).boxed()
    }

    #[tokio::test]
    async fn a_file_sent_without_its_length_is_stopped_at_its_kinds_limit_and_leaves_nothing() {
        let root = std::env::temp_dir().join(format!("enrol-course-files-{}", uuid::Uuid::new_v4().simple()));
        let store = DiskStore::new(root.clone());
        let refused = super::store(&store, "abc", chunks(b"%PDF-1.7\n", 51), None).await.unwrap_err();
        assert!(matches!(refused, NotStored::Refused(Refusal::TooLarge(CourseFileKind::Pdf))), "{refused:?}");
        assert_eq!(std::fs::read_dir(&root).map_or(0, |dir| dir.count()), 0, "nothing kept");

        let kept = super::store(&store, "def", chunks(b"%PDF-1.7\n", 2), None).await.unwrap();
        assert_eq!((kept.kind, kept.bytes), (CourseFileKind::Pdf, 9 + 2 * 1024 * 1024));
        let announced = super::store(&store, "0a", chunks(b"%PDF-1.7\n", 0), Some(60 * 1024 * 1024)).await.unwrap_err();
        assert!(matches!(announced, NotStored::Refused(Refusal::TooLarge(CourseFileKind::Pdf))), "refused on its announced length");
        let _ = std::fs::remove_dir_all(root);
    }
}
