//! The pages a buyer returns to after paying: an online order and an
//! enrollment, as the server records them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::money::Money;
use crate::page::SessionType;

/// The page an e-learning buyer returns to from the payment page. It reads
/// the order's state; fulfilment happens only by webhook.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OnlineOrderPage {
    pub order_id: String,
    /// What the buyer reads out: `E-4HX2M`.
    pub reference: String,
    pub status: OnlineOrderStatus,
    pub lines: Vec<OrderLine>,
    #[ts(type = "number")]
    pub total: Money,
    /// Where the receipt and the course access go, once paid.
    pub email: Option<String>,
    /// Once paid, whether the order joined an account (bought signed in,
    /// or with an address an account proved); if not, the link that
    /// starts the course was mailed to `email` (decision 025).
    pub in_account: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum OnlineOrderStatus {
    /// Waiting for the payment provider's confirmation.
    Pending,
    /// Checked out with a payment still on its way (a bank debit).
    Processing,
    Paid,
    /// The payment did not go through.
    Failed,
}

impl OnlineOrderStatus {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pending" => Some(Self::Pending),
            "processing" => Some(Self::Processing),
            "paid" => Some(Self::Paid),
            "failed" => Some(Self::Failed),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OrderLine {
    pub title: String,
    #[ts(type = "number")]
    pub amount: Money,
    /// The course's page, for course lines; `None` for add-ons.
    pub course_url: Option<String>,
}

/// `/enrolment/{orderId}`, where the payment provider returns the visitor.
/// It shows the server's records; fulfilment happens only by webhook.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EnrollmentPage {
    pub order_id: String,
    /// What the student reads out: `B-7K3P9`.
    pub reference: String,
    pub status: EnrollmentStatus,
    pub lines: Vec<EnrollmentLine>,
    #[ts(type = "number")]
    pub total: Money,
    #[ts(type = "number")]
    pub discount: Money,
    /// What has been paid so far.
    #[ts(type = "number")]
    pub paid: Money,
    /// What is left to pay, and by when (`YYYY-MM-DD`).
    #[ts(type = "number")]
    pub balance: Money,
    pub balance_due_on: Option<String>,
    pub email: String,
    pub given_name: String,
}

/// An enrollment's status (docs/product.md#bookings): pending, deposit or
/// completed, `failed` when the payment did not go through, and
/// `cancelled` when the student cancelled it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum EnrollmentStatus {
    Pending,
    Deposit,
    Completed,
    Failed,
    Cancelled,
}

impl EnrollmentStatus {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "pending" => Some(Self::Pending),
            "deposit" => Some(Self::Deposit),
            "completed" => Some(Self::Completed),
            "failed" => Some(Self::Failed),
            "cancelled" => Some(Self::Cancelled),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Deposit => "deposit",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct EnrollmentLine {
    pub title: String,
    pub course_url: String,
    /// `YYYY-MM-DD`, or `None` when the date is to be arranged.
    pub date: Option<String>,
    pub session_type: Option<SessionType>,
    /// The kit taken, if any.
    pub kit_name: Option<String>,
    #[ts(type = "number")]
    pub amount: Money,
}

/// `/pay-balance/?token=…`, opened from a reminder mail or the account:
/// the booking the link pays, or `None` when the link is unknown or has
/// run out.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BalancePage {
    pub booking: Option<BalanceBooking>,
    /// `sandbox` or `stripe`: which payment element to mount.
    pub gateway: String,
    /// Stripe's publishable key when the gateway is Stripe.
    pub publishable_key: Option<String>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BalanceBooking {
    /// The booking as its own page shows it: what is left to pay and by when
    /// (`balanceDueOn` today or earlier: due now).
    #[serde(flatten)]
    pub booking: EnrollmentPage,
    /// The least a part-payment may be.
    #[ts(type = "number")]
    pub min_payment: Money,
    /// The payment this page was returned to after paying (`?payment_intent=`),
    /// once it is recorded: `true`; while it is on its way: `false`.
    pub returned_payment_recorded: Option<bool>,
    /// Its instalment plan, running or paused (decision 036).
    pub plan: Option<crate::records::StudentPlan>,
    /// The most monthly instalments the college allows a plan.
    pub max_instalments: u32,
}
