//! SCORM packages on the server (decision 026): a zip unpacked within the
//! domain's limits into files and a manifest ([`unpack`]), a folder of the
//! content pack zipped to go through the same door ([`pack_folder`]), and
//! a package kept: its files in the file store, then its rows ([`keep`]),
//! a package's page given the site's SCORM runtime ([`with_runtime`]), and
//! the packages of the content pack ([`load_packages`], [`export_packages`]).

mod pack;
mod page;
mod unpack;

pub use pack::{export_packages, load_packages};
pub use page::with_runtime;
pub use unpack::{MANIFEST, Unpacked, UnpackedFile, pack_folder, unpack};

use anyhow::Context as _;
use chrono::Utc;

use enrol_db::{Db, PackageFile, PackageRecord};

use crate::accounts::random_token;
use crate::file_store::FileStore;

/// Keeps `unpacked` as the package of `course_id`, in place of any before
/// it: every file into the file store under a new key, then the rows in
/// one transaction, so no row names a file that is not there; then the
/// files of the package replaced go from the store (or this one's, when
/// its rows could not be written). `staff` is who uploaded it; none for
/// the content pack.
pub async fn keep(
    db: &Db,
    files: &dyn FileStore,
    course_id: &str,
    unpacked: Unpacked,
    original_name: &str,
    staff: Option<&str>,
) -> anyhow::Result<PackageRecord> {
    let mut kept = Vec::with_capacity(unpacked.files.len());
    let mut bytes = 0_i64;
    for file in unpacked.files {
        let key = random_token();
        files.put(&key, &file.bytes).await.with_context(|| format!("Failed to store {}", file.path))?;
        let size = i64::try_from(file.bytes.len()).context("size")?;
        bytes += size;
        kept.push(PackageFile { path: file.path, file_key: key, content_type: file.content_type.to_owned(), bytes: size });
    }
    let package = PackageRecord {
        course_id: course_id.to_owned(),
        id: enrol_db::public_id(),
        version: unpacked.manifest.version.as_str().to_owned(),
        title: unpacked.manifest.title,
        launch: unpacked.manifest.launch,
        files: i64::try_from(kept.len()).context("count")?,
        bytes,
        original_name: original_name.to_owned(),
        uploaded_by: staff.map(str::to_owned),
        uploaded_at: Utc::now(),
    };
    let unnamed = match db.replace_package(&package, &kept).await {
        Ok(replaced) => replaced,
        Err(error) => {
            delete_all(files, kept.iter().map(|file| file.file_key.as_str())).await;
            return Err(error);
        }
    };
    delete_all(files, unnamed.iter().map(String::as_str)).await;
    tracing::info!(course = course_id, package = %package.id, files = package.files, bytes, replaced = unnamed.len(), "SCORM package kept");
    Ok(package)
}

/// Deletes `keys` from the store; one that cannot go is logged and left.
async fn delete_all(files: &dyn FileStore, keys: impl Iterator<Item = &str>) {
    for key in keys {
        if let Err(error) = files.delete(key).await {
            tracing::error!(error = %format!("{error:#}"), key, "A SCORM file nothing names could not be deleted");
        }
    }
}
