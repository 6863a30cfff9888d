//! Content: the content pack (`pack`) and each document's projection into
//! the rows the pages read (`projection`).

mod pack;
pub mod projection;

pub use pack::{
    ContentPack, Counts, Document, Loaded, PackImage, PackImages, PackMedia, Statement, UPLOADS, export, pack_images, pack_media,
    upload_key,
};
pub(crate) use pack::{Param, media_url, run_statements};
