//! The content pack's file formats: what each YAML file and Markdown front
//! matter may hold (unknown fields are refused).

use chrono::NaiveDate;
use serde::Deserialize;

use enrol_domain::page::{Faq, SessionType};
use enrol_domain::site::{FooterLinks, SocialMedia};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ImageRef {
    pub(super) file: String,
    pub(super) alt: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SiteFile {
    pub(super) title: String,
    pub(super) footer_text: String,
    pub(super) address: String,
    pub(super) phone_number: String,
    pub(super) email_address: String,
    pub(super) support_email_address: String,
    pub(super) models_email_address: String,
    pub(super) clinic_url: String,
    pub(super) logo: ImageRef,
    pub(super) social_media: SocialMedia,
    pub(super) footer_logos: Vec<FooterLogoFile>,
    pub(super) footer_links: FooterLinks,
    pub(super) hero: HeroFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FooterLogoFile {
    pub(super) title: String,
    pub(super) file: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HeroFile {
    pub(super) heading: String,
    pub(super) text: String,
    pub(super) image: ImageRef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SectionFile {
    pub(super) slug: String,
    pub(super) title: String,
    pub(super) summary: String,
    pub(super) intro: String,
    pub(super) image: ImageRef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CourseFile {
    pub(super) title: String,
    pub(super) section: String,
    #[serde(default)]
    pub(super) also_in: Vec<String>,
    pub(super) online: bool,
    pub(super) package: bool,
    #[serde(default)]
    pub(super) featured: bool,
    pub(super) summary: String,
    pub(super) image: ImageRef,
    pub(super) price_id: String,
    pub(super) price: i64,
    pub(super) was_price: Option<i64>,
    pub(super) duration: String,
    pub(super) level: String,
    pub(super) accreditation: String,
    pub(super) prerequisites: String,
    pub(super) includes: Vec<String>,
    pub(super) kit: Option<KitFile>,
    #[serde(default)]
    pub(super) faqs: Vec<Faq>,
    pub(super) description: String,
    #[serde(default)]
    pub(super) sessions: Vec<SessionFile>,
    pub(super) upsell: Option<UpsellFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KitFile {
    pub(super) name: Option<String>,
    pub(super) price: Option<i64>,
    pub(super) worth: Option<i64>,
    pub(super) note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SessionFile {
    pub(super) id: String,
    pub(super) offset_days: i64,
    pub(super) start: String,
    pub(super) end: String,
    #[serde(rename = "type")]
    pub(super) session_type: SessionType,
    pub(super) seats: i64,
    pub(super) registrations: i64,
    pub(super) price: i64,
    pub(super) seat_price: Option<i64>,
    /// The virtual classroom of a virtual or blended session.
    pub(super) joining_link: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct UpsellFile {
    pub(super) title: String,
    pub(super) description: String,
    pub(super) cta: String,
    pub(super) product_id: String,
    pub(super) price: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BlogFront {
    pub(super) title: String,
    pub(super) excerpt: String,
    pub(super) author: String,
    pub(super) published: NaiveDate,
    pub(super) image: ImageRef,
    pub(super) tags: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PageFront {
    pub(super) title: String,
    pub(super) description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TeamFile {
    pub(super) name: String,
    pub(super) role: String,
    pub(super) bio: String,
    pub(super) image: ImageRef,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JobFile {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) location: String,
    pub(super) kind: String,
    pub(super) summary: String,
    pub(super) description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PathwayFile {
    pub(super) level: i64,
    pub(super) title: String,
    pub(super) summary: String,
    pub(super) duration: String,
    pub(super) units: Vec<String>,
    pub(super) price: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
pub(super) struct DiscountFile {
    pub(super) code: String,
    #[serde(rename = "type")]
    pub(super) kind: DiscountKind,
    pub(super) value: i64,
    pub(super) expires: Option<NaiveDate>,
    pub(super) max_uses: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum DiscountKind {
    Pound,
    Percent,
}
