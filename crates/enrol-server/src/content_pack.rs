//! The college's content pack (decision 018): loaded where the database
//! lacks its documents (an empty database at start, or `enrol content
//! load`), and the published content exported as a pack, with the
//! courses' SCORM packages (decision 026) and course files (decision 028).

use anyhow::Context as _;
use chrono::Utc;

use enrol_db::content::ContentPack;
use enrol_db::{Db, MediaRecord};

use crate::config::Config;
use crate::file_store;

/// Loads the pack where the database is missing its documents and seeds
/// (decision 018). The uploaded images the pack carries are cleaned as an
/// upload is, and those the media library does not have yet go into the
/// file store before their rows are written, so no row names a missing file.
pub(crate) async fn load_content(db: &Db, config: &Config) -> anyhow::Result<()> {
    let root = &config.content_dir;
    let store = file_store::open(config.s3.as_ref(), &config.uploads_dir)?;
    let now = Utc::now();
    let mut media = Vec::new();
    let mut new_files = Vec::new();
    for item in enrol_db::content::pack_media(root).with_context(|| format!("Failed to read the content pack in {}", root.display()))? {
        let (key, extension) = item.key_and_extension().context("media.yaml was checked")?;
        let path = root.join("images").join(&item.file);
        let bytes = std::fs::read(&path).with_context(|| format!("Failed to read the uploaded image {}", path.display()))?;
        let cleaned = crate::images::clean_image(bytes, config.image_deadline)
            .await?
            .with_context(|| format!("The uploaded image {} was refused", path.display()))?;
        anyhow::ensure!(
            cleaned.format.extension() == extension,
            "{} is a {} image, not .{extension}",
            path.display(),
            cleaned.format.content_type()
        );
        let alt = enrol_domain::media::alt_text(&item.alt).map_err(|message| anyhow::anyhow!("{}: {message}", item.file))?;
        media.push(MediaRecord {
            key: key.to_owned(),
            file_name: item.file.clone(),
            content_type: cleaned.format.content_type().to_owned(),
            width: i64::from(cleaned.width),
            height: i64::from(cleaned.height),
            bytes: i64::try_from(cleaned.bytes.len()).context("size")?,
            alt,
            original_name: item.name.as_deref().and_then(enrol_domain::evidence::sent_file_name),
            uploaded_by: None,
            created_at: now,
        });
        if db.media(key).await?.is_none() {
            new_files.push((key.to_owned(), cleaned.bytes));
        }
    }
    let today = enrol_domain::london::today(now);
    let pack = ContentPack::read(root, today, media).with_context(|| format!("Failed to read the content pack in {}", root.display()))?;
    for (key, bytes) in &new_files {
        store.put(key, bytes).await?;
    }
    let loaded = pack.write(db).await?;
    let packages = crate::scorm::load_packages(db, store.as_ref(), root).await?;
    let course_files = crate::course_files::load_pack_files(db, store.as_ref(), root).await?;
    tracing::info!(counts = ?pack.counts, documents = loaded.documents, seeds = loaded.seeds, media = loaded.media, packages, course_files, "Content loaded where new");
    Ok(())
}

/// Writes the published content into `dir` as a pack, with the images it
/// names: from the pack's folder, and uploads from the file store.
pub(crate) async fn export_content(db: &Db, config: &Config, dir: &std::path::Path) -> anyhow::Result<()> {
    let images = enrol_db::content::export(db, dir).await?;
    let store = file_store::open(config.s3.as_ref(), &config.uploads_dir)?;
    for file in &images {
        let to = dir.join("images").join(file);
        if let Some(folder) = to.parent() {
            std::fs::create_dir_all(folder).with_context(|| format!("Failed to create {}", folder.display()))?;
        }
        // An upload is in the file store under its key; the rest in the pack's folder.
        let upload = file.strip_prefix("uploads/").and_then(|name| name.split_once('.')).map(|(key, _)| key);
        let bytes = match upload {
            Some(key) => store.get(key).await?.with_context(|| format!("The uploaded image {file} is not in the file store"))?,
            None => {
                std::fs::read(config.content_dir.join("images").join(file)).with_context(|| format!("Failed to read the image {file}"))?
            }
        };
        std::fs::write(&to, bytes).with_context(|| format!("Failed to write {}", to.display()))?;
    }
    let packages = crate::scorm::export_packages(db, store.as_ref(), dir).await?;
    let course_files = crate::course_files::export_pack_files(db, store.as_ref(), dir).await?;
    tracing::info!(dir = %dir.display(), images = images.len(), packages, course_files, "Content exported");
    Ok(())
}
