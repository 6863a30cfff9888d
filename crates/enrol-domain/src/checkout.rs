//! The enrol checkout's calls (decision 006), as the browser and the server both see
//! them. The browser sends what the visitor chose; every amount it sends is
//! checked against the server's own [`Quote`](crate::enrollment::Quote).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::consent::Agreed;
use crate::contact::{Field, FieldErrors, Person, PersonFields, TEXT_LIMIT, check};
use crate::enrollment::{DiscountType, PaymentMethod, PaymentMode, Quote};
use crate::money::Money;
use crate::page::{Kit, Session};
use crate::site::Image;

/// The messages of the contact fields.
const NAME: &str = "Name is required";
const SURNAME: &str = "Last name is required";
const EMAIL: &str = "Email is required";
const PHONE: &str = "Phone number is required";

/// The contact fields of a checkout form, each required or not.
fn person_fields<'a>(keys: [&'static str; 4], values: [&'a str; 4], required: bool) -> PersonFields<'a> {
    let field = |i: usize, message| Field { key: keys[i], value: values[i], required: required.then_some(message) };
    PersonFields { given_name: field(0, NAME), family_name: Some(field(1, SURNAME)), email: field(2, EMAIL), phone: field(3, PHONE) }
}

/// `fields` checked, or every problem found with them.
fn checked(fields: PersonFields<'_>) -> Result<Person, FieldErrors> {
    let mut errors = FieldErrors::new();
    check(fields, &mut errors).ok_or(errors)
}

/// One selected course as the visitor chose it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct ChosenCourse {
    pub course_id: String,
    /// The course date may be empty (packages, dates to be arranged).
    pub session_id: Option<String>,
    pub include_kit: bool,
}

/// `POST /api/checkout/basket`: the selected courses as the catalogue sells them now.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export)]
#[serde(rename_all = "camelCase")]
pub struct BasketRequest {
    pub courses: Vec<ChosenCourse>,
    /// The unpaid order this browser made, if any: its own held seats are
    /// still its to choose.
    #[serde(default)]
    #[ts(optional)]
    pub order_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BasketResponse {
    pub lines: Vec<CheckoutLine>,
    /// Courses no longer sold in person: the page drops them from the basket.
    pub removed: Vec<String>,
    /// The most monthly instalments the college allows a plan (decision 036).
    pub max_instalments: u32,
}

/// A course line on the checkout.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CheckoutLine {
    pub course_id: String,
    pub title: String,
    pub url: String,
    pub image: Image,
    /// The chosen session's price, else the course's.
    #[ts(type = "number")]
    pub price: Money,
    #[ts(type = "number | null")]
    pub was_price: Option<Money>,
    pub is_package: bool,
    /// The course's requirements, when the buyer must confirm meeting them
    /// ([`crate::consent::entry_requirements`]).
    pub entry_requirements: Option<String>,
    pub kit: Option<Kit>,
    /// Only ever true when the kit is a priced choice.
    pub include_kit: bool,
    /// Sessions with a free seat, soonest first.
    pub sessions: Vec<Session>,
    /// The chosen session if it still has a seat, else the first that has.
    pub session_id: Option<String>,
    /// Why the visitor's choice was changed, if it was.
    pub notice: Option<String>,
}

/// `POST /api/code`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct CodeRequest {
    pub code: String,
}

/// The discount check's answer: `valid` false for an unknown, expired or used-up code.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct CodeResponse {
    pub valid: bool,
    pub code: Option<String>,
    #[ts(type = "number | null")]
    pub value: Option<i64>,
    #[serde(rename = "type")]
    pub kind: Option<DiscountType>,
    pub id: Option<String>,
    /// The courses the code takes money off when it is limited to some
    /// (decision 017); left out when it applies to every course.
    #[serde(rename = "courseIds", skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub course_ids: Option<Vec<String>>,
}

/// `POST /api/checkout/`: the payment intent prepared when the page loads.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct IntentRequest {
    #[ts(type = "number")]
    pub amount: Money,
    #[serde(default)]
    pub customer_id: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
}

/// The checkout's payment intent answer.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct IntentResponse {
    pub client_secret: String,
    pub id: String,
}

/// `PUT /api/checkout/`: the intent gets the order's amount and metadata.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct IntentUpdateRequest {
    pub intent: String,
    /// The full total in full mode, else the deposit.
    #[ts(type = "number")]
    pub amount: Money,
    #[serde(default)]
    pub customer_id: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    pub metadata: IntentMetadata,
    /// An instalment plan agreed to (decision 036): the booking fee's card
    /// is saved to pay its parts.
    #[serde(default)]
    #[ts(optional)]
    pub plan: Option<PlanChoice>,
}

/// The instalment plan a buyer agreed to at checkout: the parts they
/// were shown, which must be the parts the server would charge.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(export)]
pub struct PlanChoice {
    pub parts: Vec<crate::instalments::Instalment>,
    /// The buyer agreed that the card is saved and charged on the days shown.
    pub card_consent: bool,
}

/// The metadata key a payment intent names its order by, as the
/// page sends it in [`IntentMetadata`] and the provider gives it back.
pub const ORDER_ID_KEY: &str = "Order ID";

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct IntentMetadata {
    /// Named by [`ORDER_ID_KEY`] (a serde name must be a literal).
    #[serde(rename = "Order ID")]
    pub order_id: String,
    pub name: String,
    pub surname: String,
    pub phone: String,
    pub email: String,
    /// `full-amount` or `booking-fee`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// The checkout's contact form (docs/product.md#contact-details).
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS, ToSchema)]
#[serde(default, deny_unknown_fields)]
#[ts(export)]
pub struct Contact {
    pub name: String,
    pub surname: String,
    pub email: String,
    pub phone: String,
}

impl Contact {
    /// Card payments need every field; other methods none, but what is
    /// given must be valid.
    pub fn parse(&self, selected: PaymentMethod) -> Result<Person, FieldErrors> {
        let values = [self.name.as_str(), &self.surname, &self.email, &self.phone];
        checked(person_fields(["name", "surname", "email", "phone"], values, selected == PaymentMethod::Card))
    }
}

/// The order's `enrollment`: its figures and the courses booked.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub struct EnrollmentInput {
    #[ts(type = "number")]
    pub total: Money,
    #[ts(type = "number")]
    pub deposit: Money,
    #[ts(type = "number")]
    pub balance: Money,
    /// True in fee mode: the booking fee now, the balance later.
    pub deposit_required: bool,
    /// The sessions booked.
    pub metadata: Vec<ChosenCourse>,
    /// Always `stripe` (the provider's protocol, also the sandbox's).
    pub method: String,
    /// The signed-in user's payment account id.
    pub acct: Option<String>,
    /// Always `pending` when created.
    pub status: String,
    /// Always `student`.
    #[serde(rename = "type")]
    pub kind: String,
    pub organization: Option<String>,
}

/// `POST /api/enroll/` `data`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct EnrollData {
    /// The applied discount code, if any.
    pub discount: Option<String>,
    pub contact: Contact,
    /// The checkout form's `selected`: `card`, or `klarna` for either
    /// buy-now-pay-later method; it must agree with `mode`.
    pub selected: PaymentMethod,
    pub mode: PaymentMode,
    pub enrollment: EnrollmentInput,
    /// The terms and each course's entry requirements, agreed to.
    pub agreed: Agreed,
    /// Marketing source data and the payment account mode.
    #[serde(default)]
    #[ts(type = "Record<string, string>")]
    pub metadata: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct EnrollRequest {
    pub data: EnrollData,
}

/// `PUT /api/enroll/`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct EnrollUpdateRequest {
    pub id: String,
    pub data: EnrollData,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct EnrollResponse {
    pub id: String,
    pub quote: Quote,
}

/// `POST /api/callback/`: the payment-plan form's request.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(default, deny_unknown_fields)]
#[ts(export)]
pub struct FinanceRequest {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone_number: String,
    /// Titles of the selected courses.
    pub courses: Vec<String>,
    /// Always `finance`.
    #[serde(rename = "type")]
    #[schema(required = true, pattern = "^finance$")]
    pub kind: String,
}

impl FinanceRequest {
    /// Every field of the payment-plan form is required, with the same
    /// messages as the contact form (keyed by this form's own field names).
    pub fn parse(self) -> Result<FinanceRequest, FieldErrors> {
        let values = [self.first_name.as_str(), &self.last_name, &self.email, &self.phone_number];
        let person = checked(person_fields(["first_name", "last_name", "email", "phone_number"], values, true))?;
        let [first_name, last_name, email, phone_number] = person.into_parts();
        let courses: Vec<String> = self.courses.iter().map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect();
        if courses.is_empty() || courses.len() > 50 || courses.iter().any(|c| c.chars().count() > TEXT_LIMIT) {
            return Err(FieldErrors::from([("courses", "Select at least one course")]));
        }
        Ok(FinanceRequest { first_name, last_name, email, phone_number, courses, kind: "finance".to_owned() })
    }

    /// The plain-text mail to the college.
    pub fn mail_body(&self) -> String {
        let mut body = format!(
            "Payment plan request from the checkout page\n\nName: {} {}\nEmail: {}\nPhone: {}\n\nCourses:\n",
            self.first_name, self.last_name, self.email, self.phone_number
        );
        for course in &self.courses {
            body.push_str(&format!("- {course}\n"));
        }
        body.push_str("\nPlease reply within 2 hours in business hours.\n");
        body
    }
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct FinanceResponse {
    pub success: bool,
}

/// How the sandbox payment element pays (`POST /sandbox/payment_intents/{id}/confirm`).
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct SandboxConfirmRequest {
    pub client_secret: String,
    pub payment_method: PaymentMethod,
    #[serde(default)]
    pub card: Option<SandboxCard>,
    /// `/enrolment/{orderId}` on this site.
    pub return_url: String,
}

#[derive(Debug, Clone, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct SandboxCard {
    pub number: String,
    pub expiry: String,
    pub cvc: String,
}

/// Where the browser goes next: the return address, or the sandbox's
/// approve-or-deny page of a buy-now-pay-later provider.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct SandboxConfirmResponse {
    pub redirect: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contact(name: &str, surname: &str, email: &str, phone: &str) -> Contact {
        Contact { name: name.into(), surname: surname.into(), email: email.into(), phone: phone.into() }
    }

    #[test]
    fn the_order_id_key_is_the_metadata_field_name() {
        let metadata = IntentMetadata {
            order_id: "o-1".to_owned(),
            name: String::new(),
            surname: String::new(),
            phone: String::new(),
            email: String::new(),
            kind: String::new(),
        };
        assert_eq!(serde_json::to_value(&metadata).unwrap()[ORDER_ID_KEY], "o-1");
    }

    #[test]
    fn a_card_payment_needs_every_contact_field() {
        let errors = Contact::default().parse(PaymentMethod::Card).unwrap_err();
        assert_eq!(
            errors.values().copied().collect::<Vec<_>>(),
            ["Email is required", "Name is required", "Phone number is required", "Last name is required"]
        );
        let ok = contact(" Sam ", "Lee", "Sam@Example.com", "07700 900123").parse(PaymentMethod::Card).unwrap();
        assert_eq!((ok.given_name(), ok.email(), ok.phone()), ("Sam", "sam@example.com", "+447700900123"));
    }

    #[test]
    fn other_methods_need_nothing_but_check_what_is_given() {
        assert!(Contact::default().parse(PaymentMethod::Klarna).is_ok());
        let errors = contact("", "", "sam@", "12ab").parse(PaymentMethod::Klarna).unwrap_err();
        assert_eq!(errors.get("email"), Some(&"Enter a valid email address"));
        assert_eq!(errors.get("phone"), Some(&"Enter a valid phone number"));
    }

    #[test]
    fn the_payment_plan_form_needs_every_field_and_a_course() {
        let errors = FinanceRequest::default().parse().unwrap_err();
        assert_eq!(errors.get("first_name"), Some(&"Name is required"));
        assert_eq!(errors.get("last_name"), Some(&"Last name is required"));
        assert_eq!(errors.get("email"), Some(&"Email is required"));
        assert_eq!(errors.get("phone_number"), Some(&"Phone number is required"));
        let request = FinanceRequest {
            first_name: "Sam".into(),
            last_name: "Lee".into(),
            email: "sam@example.com".into(),
            phone_number: "07700900123".into(),
            courses: vec![],
            kind: "finance".into(),
        };
        assert_eq!(request.clone().parse().unwrap_err().get("courses"), Some(&"Select at least one course"));
        let ok = FinanceRequest { courses: vec!["Botox Foundation".into()], ..request }.parse().unwrap();
        assert!(ok.mail_body().contains("Name: Sam Lee") && ok.mail_body().contains("- Botox Foundation"));
        assert_eq!(ok.phone_number, "+447700900123");
    }
}
