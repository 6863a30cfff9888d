//! The college's site data (its details, footer and banner) and the header navigation.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SiteData {
    pub title: String,
    pub footer_text: String,
    pub address: String,
    /// As the college writes it, e.g. `0161 496 0000`; pages link `tel:` to its +44 form.
    pub phone_number: String,
    pub email_address: String,
    pub support_email_address: String,
    pub models_email_address: String,
    pub social_media: SocialMedia,
    pub footer_logos: Vec<FooterLogo>,
    pub footer_links: FooterLinks,
    /// The college's own clinic, an external site.
    pub clinic_url: String,
    pub logo: Image,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct SocialMedia {
    pub facebook: String,
    pub instagram: String,
    pub youtube: String,
    pub tiktok: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct FooterLogo {
    pub title: String,
    pub file: FileRef,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct FileRef {
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct FooterLinks {
    pub columns: Vec<FooterColumn>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct FooterColumn {
    pub title: String,
    pub links: Vec<TextLink>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct TextLink {
    pub text: String,
    pub link: String,
}

/// An image with its intrinsic size, so pages reserve its space.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct Image {
    pub url: String,
    pub alt: String,
    pub width: u32,
    pub height: u32,
}

/// The header's menus: every course section with its courses.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct Navigation {
    pub sections: Vec<NavSection>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct NavSection {
    pub slug: String,
    pub title: String,
    pub url: String,
    pub courses: Vec<TextLink>,
}
