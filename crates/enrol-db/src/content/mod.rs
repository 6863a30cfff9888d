//! Content: what the site shows. The content pack and its documents as
//! staff edit and publish them (decision 018), each document's projection
//! into the rows the pages read, the catalogue of sections, courses and
//! dates read from those rows, the editorial pages, the media library,
//! course materials, upsell offers, site search and the Markdown the college writes. The
//! steps its transactions take are `ContentSteps`.

pub(crate) mod catalogue;
pub(crate) mod course_files;
pub(crate) mod documents;
pub(crate) mod editorial;
pub(crate) mod markdown;
pub(crate) mod materials;
pub(crate) mod media;
mod pack;
pub(crate) mod preview;
pub mod projection;
pub(crate) mod search;
mod steps;
pub(crate) mod upsells;

pub use pack::{
    ContentPack, Counts, Document, Loaded, PackImage, PackImages, PackMedia, Statement, UPLOADS, export, pack_images, pack_media,
    upload_key,
};
pub(crate) use pack::{Param, media_url};
pub(crate) use steps::ContentSteps;
