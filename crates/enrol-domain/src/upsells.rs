//! Upsell offers as staff edit them in the back office (decision 017): the
//! words of the offer shown with an online course and its price.

use serde::Deserialize;
use ts_rs::TS;

use crate::contact::FieldErrors;
use crate::money::Money;

/// An offer as the back office sends it (`PUT /api/admin/upsells/{priceId}`).
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct UpsellForm {
    pub title: String,
    pub description: String,
    /// The words of the offer's button.
    pub cta: String,
    /// Pence.
    #[ts(type = "number")]
    pub unit_amount: i64,
}

/// An offer's words and price, checked: trimmed, none empty or too long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpsellTerms {
    pub title: String,
    pub description: String,
    pub cta: String,
    pub unit_amount: Money,
}

impl UpsellForm {
    pub fn parse(self) -> Result<UpsellTerms, FieldErrors> {
        let mut errors = FieldErrors::new();
        let mut text = |key: &'static str, value: String, limit: usize, message: &'static str| {
            let value = value.trim().to_owned();
            if value.is_empty() || value.chars().count() > limit {
                errors.insert(key, message);
            }
            value
        };
        let title = text("title", self.title, 100, "Enter a title (up to 100 characters).");
        let description = text("description", self.description, 500, "Enter a description (up to 500 characters).");
        let cta = text("cta", self.cta, 40, "Enter the button's words (up to 40 characters).");
        if self.unit_amount <= 0 {
            errors.insert("unitAmount", "Enter a price in pence above 0.");
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(UpsellTerms { title, description, cta, unit_amount: Money::from_pence(self.unit_amount) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_needed_within_its_length_and_the_price_above_zero() {
        let form = |title: &str, cta: &str, pence| UpsellForm {
            title: title.to_owned(),
            description: "Theory to add to the course.".to_owned(),
            cta: cta.to_owned(),
            unit_amount: pence,
        };
        let ok = form(" Microneedling Online ", "Add for £39.99", 3999).parse().unwrap();
        assert_eq!((ok.title.as_str(), ok.unit_amount), ("Microneedling Online", Money::from_pence(3999)));
        let errors = form("  ", &"x".repeat(41), 0).parse().unwrap_err();
        assert_eq!(errors.keys().copied().collect::<Vec<_>>(), ["cta", "title", "unitAmount"]);
    }
}
