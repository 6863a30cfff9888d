//! A course's SCORM package in the content pack (decision 026): its
//! files as they are, in `learning/<course id>/scorm/`, zipped and
//! unpacked through the same limits as an upload when the pack loads,
//! and written back out when it is exported.

use std::path::Path;

use anyhow::Context as _;

use enrol_db::Db;

use super::{keep, pack_folder, unpack};
use crate::file_store::FileStore;

/// The folder of `course_id`'s package below the pack's root.
fn folder(course_id: &str) -> String {
    format!("learning/{course_id}/scorm")
}

/// Loads every package of the pack at `root` whose course has none yet.
/// A package for a course the pack does not sell online is a mistake in
/// the pack, as is one the limits refuse.
pub async fn load_packages(db: &Db, files: &dyn FileStore, root: &Path) -> anyhow::Result<usize> {
    let learning = root.join("learning");
    let Ok(entries) = std::fs::read_dir(&learning) else { return Ok(0) };
    let mut loaded = 0;
    for entry in entries {
        let entry = entry.with_context(|| format!("Failed to read {}", learning.display()))?;
        let course_id = entry.file_name().to_string_lossy().into_owned();
        let source = root.join(folder(&course_id));
        if !entry.file_type()?.is_dir() || !source.is_dir() || db.course_package(&course_id).await?.is_some() {
            continue;
        }
        let course = db.published_course(&course_id).await?;
        anyhow::ensure!(course.is_some_and(|c| c.online), "{} is not the package of an online course in the pack", source.display());
        let unpacked = tokio::task::spawn_blocking(move || pack_folder(&source).map(|zip| unpack(&zip)))
            .await
            .context("Packing the pack's package stopped")??
            .map_err(|refused| anyhow::anyhow!("The package in {}: {refused}", folder(&course_id)))?;
        keep(db, files, &course_id, unpacked, &folder(&course_id), None).await?;
        loaded += 1;
    }
    Ok(loaded)
}

/// Writes every course's package into the pack at `dir`.
pub async fn export_packages(db: &Db, files: &dyn FileStore, dir: &Path) -> anyhow::Result<usize> {
    let packages = db.packages().await?;
    for package in &packages {
        let to = dir.join(folder(&package.course_id));
        for file in db.package_files(&package.id).await? {
            let bytes = files
                .get(&file.file_key)
                .await?
                .with_context(|| format!("{} of {}'s package is not in the file store", file.path, package.course_id))?;
            // Paths were checked as the package was unpacked: plain, relative, inside it.
            let path = to.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).with_context(|| format!("Failed to create {}", parent.display()))?;
            }
            std::fs::write(&path, bytes).with_context(|| format!("Failed to write {}", path.display()))?;
        }
    }
    Ok(packages.len())
}
