//! Amounts are integer pence, GBP only.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// An amount of money in pence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = i64, format = Int64)]
pub struct Money(i64);

impl Money {
    pub const ZERO: Money = Money(0);

    pub const fn from_pence(pence: i64) -> Self {
        Money(pence)
    }

    /// Kit prices are kept in whole pounds: multiplied by 100 for totals.
    pub const fn from_pounds(pounds: i64) -> Self {
        Money(pounds * 100)
    }

    pub const fn pence(self) -> i64 {
        self.0
    }
}

impl std::ops::Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0 + rhs.0)
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, |a, b| a + b)
    }
}

/// `£1,234.50` as en-GB shows it; the same rule as `web/src/lib/money.ts`.
impl std::fmt::Display for Money {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let pounds = (abs / 100).to_string();
        let mut grouped = String::with_capacity(pounds.len() + pounds.len() / 3);
        for (i, digit) in pounds.chars().enumerate() {
            if i > 0 && (pounds.len() - i).is_multiple_of(3) {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        write!(f, "{sign}£{grouped}.{:02}", abs % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::Money;

    #[test]
    fn formats_like_en_gb() {
        assert_eq!(Money::from_pence(125_000).to_string(), "£1,250.00");
        assert_eq!(Money::from_pence(3999).to_string(), "£39.99");
        assert_eq!(Money::from_pence(5).to_string(), "£0.05");
        assert_eq!(Money::from_pence(123_456_789).to_string(), "£1,234,567.89");
        assert_eq!(Money::from_pence(-1050).to_string(), "-£10.50");
        assert_eq!(Money::ZERO.to_string(), "£0.00");
    }

    #[test]
    fn kit_pounds_become_pence() {
        assert_eq!(Money::from_pounds(95).pence(), 9500);
        assert_eq!((Money::from_pounds(1) + Money::from_pence(50)).pence(), 150);
    }
}
