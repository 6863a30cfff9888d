//! The catalogue's rows as the database returns them, and what turns them
//! into the page types.

use super::*;

#[derive(sqlx::FromRow)]
pub(super) struct SiteRow {
    pub(super) title: String,
    pub(super) footer_text: String,
    pub(super) address: String,
    pub(super) phone_number: String,
    pub(super) email_address: String,
    pub(super) support_email_address: String,
    pub(super) models_email_address: String,
    pub(super) clinic_url: String,
    pub(super) social_media: String,
    pub(super) footer_logos: String,
    pub(super) footer_links: String,
    pub(super) logo: String,
    pub(super) hero: String,
}

#[derive(sqlx::FromRow, Debug, Clone)]
pub(super) struct CourseRow {
    pub(super) id: String,
    pub(super) section_slug: String,
    pub(super) section_title: String,
    pub(super) url: String,
    pub(super) title: String,
    pub(super) summary: String,
    pub(super) description_html: String,
    pub(super) image: String,
    pub(super) online: bool,
    pub(super) is_package: bool,
    pub(super) is_new: bool,
    pub(super) featured: bool,
    pub(super) price_id: String,
    pub(super) unit_amount: i64,
    pub(super) was_amount: Option<i64>,
    pub(super) duration: String,
    pub(super) level: String,
    pub(super) accreditation: String,
    pub(super) prerequisites: String,
    pub(super) entry_requirements: bool,
    pub(super) entry_online_course: Option<String>,
    pub(super) includes: String,
    pub(super) what_to_bring: String,
    pub(super) kit_name: Option<String>,
    pub(super) kit_price: Option<i64>,
    pub(super) kit_worth_price: Option<i64>,
    pub(super) kit_note: Option<String>,
    pub(super) faqs: String,
    pub(super) upsell_title: Option<String>,
    pub(super) upsell_description: Option<String>,
    pub(super) upsell_cta: Option<String>,
    pub(super) upsell_product_id: Option<String>,
    pub(super) upsell_amount: Option<i64>,
}

#[derive(sqlx::FromRow)]
pub(super) struct MembershipRow {
    pub(super) course_id: String,
    pub(super) section_slug: String,
}

#[derive(sqlx::FromRow)]
pub(super) struct SessionRow {
    pub(super) id: String,
    pub(super) course_id: String,
    pub(super) start_at: NaiveDateTime,
    pub(super) end_at: NaiveDateTime,
    pub(super) date: NaiveDate,
    pub(super) price: i64,
    pub(super) seat_price: i64,
    pub(super) seats: i64,
    pub(super) registrations: i64,
    pub(super) held: i64,
    #[sqlx(rename = "type")]
    pub(super) session_type: String,
    pub(super) status: String,
}

pub(super) fn json<T: serde::de::DeserializeOwned>(raw: &str, what: &str) -> anyhow::Result<T> {
    serde_json::from_str(raw).with_context(|| format!("Stored {what} is not valid JSON"))
}

const WALL_CLOCK: &str = "%Y-%m-%dT%H:%M:%S";

impl CourseRow {
    pub(super) fn upsell(&self) -> Option<UpsellOffer> {
        Some(UpsellOffer {
            title: self.upsell_title.clone()?,
            description: self.upsell_description.clone()?,
            cta: self.upsell_cta.clone()?,
            price_data: PriceData {
                currency: "gbp".to_owned(),
                product: self.upsell_product_id.clone()?,
                unit_amount: Money::from_pence(self.upsell_amount?),
            },
        })
    }
}

impl SessionRow {
    pub(super) fn into_session(self) -> anyhow::Result<(String, Session)> {
        let session_type = SessionType::parse(&self.session_type)
            .with_context(|| format!("Session {} has an unknown type {:?}", self.id, self.session_type))?;
        Ok((
            self.course_id,
            Session {
                id: self.id,
                start: self.start_at.format(WALL_CLOCK).to_string(),
                end: self.end_at.format(WALL_CLOCK).to_string(),
                date: self.date,
                price: Money::from_pence(self.price),
                seat_price: Money::from_pence(self.seat_price),
                seats: self.seats,
                registrations: self.registrations,
                held: self.held,
                session_type,
                status: self.status,
            },
        ))
    }
}
