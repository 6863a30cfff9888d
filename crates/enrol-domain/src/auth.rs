//! Accounts (decision 008): what sign-up, sign-in and the session endpoint
//! take and answer, and the rules a new account must meet.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::contact::{Field, FieldErrors, PersonFields, TEXT_LIMIT, TOO_LONG, check};
use crate::money::Money;
use crate::page::EnrollmentStatus;

/// The shortest password accepted.
const MIN_PASSWORD: usize = 10;
const MAX_PASSWORD: usize = 200;

/// `POST /api/auth/sign-up`: email, password, given and family name, phone.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(default, deny_unknown_fields)]
#[ts(export)]
pub struct SignUpRequest {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
}

/// A sign-up that meets the rules: trimmed names, lower-cased email, +44 phone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    pub email: String,
    pub password: String,
    pub given_name: String,
    pub family_name: String,
    pub phone: String,
}

/// The one rule for a new password (sign-up, reset, change): what is wrong
/// with it, if anything.
pub fn password_problem(password: &str) -> Option<&'static str> {
    let length = password.chars().count();
    if length == 0 {
        Some("Password is required")
    } else if length < MIN_PASSWORD {
        Some("Use at least 10 characters")
    } else if length > MAX_PASSWORD {
        Some("Use at most 200 characters")
    } else {
        None
    }
}

impl SignUpRequest {
    pub fn parse(self) -> Result<NewAccount, FieldErrors> {
        let mut errors = FieldErrors::new();
        if let Some(problem) = password_problem(&self.password) {
            errors.insert("password", problem);
        }
        let field = |key, value, message| Field { key, value, required: Some(message) };
        let person = check(
            PersonFields {
                given_name: field("first_name", &self.first_name, "First name is required"),
                family_name: Some(field("last_name", &self.last_name, "Last name is required")),
                email: field("email", &self.email, "Email is required"),
                phone: field("phone", &self.phone, "Phone number is required"),
            },
            &mut errors,
        );
        let Some(person) = person.filter(|_| errors.is_empty()) else { return Err(errors) };
        let [given_name, family_name, email, phone] = person.into_parts();
        Ok(NewAccount { email, password: self.password, given_name, family_name, phone })
    }
}

/// `POST /api/auth/course-start`: the link that starts a guest's online
/// course used, with the names for their certificate and a password
/// (decision 025).
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(default, deny_unknown_fields)]
#[ts(export)]
pub struct CourseStartRequest {
    pub token: String,
    pub first_name: String,
    pub last_name: String,
    pub password: String,
}

/// A [`CourseStartRequest`] that meets the rules: names trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CourseStart {
    pub token: String,
    pub given_name: String,
    pub family_name: String,
    pub password: String,
}

impl CourseStartRequest {
    pub fn parse(self) -> Result<CourseStart, FieldErrors> {
        let mut errors = FieldErrors::new();
        let mut name = |key, value: &str, missing| {
            let value = value.trim();
            if value.is_empty() {
                errors.insert(key, missing);
            } else if value.chars().count() > TEXT_LIMIT {
                errors.insert(key, TOO_LONG);
            }
            value.to_owned()
        };
        let given_name = name("first_name", &self.first_name, "First name is required");
        let family_name = name("last_name", &self.last_name, "Last name is required");
        if let Some(problem) = password_problem(&self.password) {
            errors.insert("password", problem);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(CourseStart { token: self.token.trim().to_owned(), given_name, family_name, password: self.password })
    }
}

/// `POST /api/auth/sign-in`: the username is the email.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct SignInRequest {
    pub username: String,
    pub password: String,
}

/// The signed-in user as the identity provider describes them.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct AuthUser {
    pub sub: String,
    pub email: String,
    pub given_name: String,
    pub family_name: String,
    pub phone_number: String,
    /// Whether the mailed link has proven the email (decision 009): until
    /// then no purchase joins the account.
    pub email_verified: bool,
}

/// The user's server model: the user record (`userData`), also the first
/// entry of the GraphQL `user` query.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[cfg_attr(feature = "graphql", derive(async_graphql::SimpleObject), graphql(rename_fields = "snake_case"))]
#[ts(export)]
pub struct UserData {
    pub id: String,
    /// The sign-in id (`cognito_id`, named after the college's old identity
    /// provider): Enrol is its own identity provider, so it is the user's id.
    pub cognito_id: String,
    pub email: String,
    pub title: Option<String>,
    pub given_name: String,
    pub family_name: String,
    pub gender: Option<String>,
    /// `YYYY-MM-DD`.
    pub birthday: Option<String>,
    pub contact_number: String,
    /// Loyalty points.
    #[ts(type = "number")]
    pub points: i64,
    /// The e-learning platform's id for the user, once enrolled there.
    pub elearning_id: Option<String>,
    /// The payment provider's customer id, once there is one.
    pub stripe_id: Option<String>,
    /// Whether the user has chosen a password (accounts made by a purchase have none).
    pub set_password: bool,
    /// Whether the mailed link has proven the email (decision 009).
    pub email_verified: bool,
}

/// The session endpoint's answer: `user` is `None` when signed out. The
/// user record (`userData`) is read from `POST /api/graphql` (decision 014).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[ts(export)]
pub struct AuthSession {
    pub user: Option<AuthUser>,
    /// The identity token's claims, with the Hasura-style claims object.
    #[ts(type = "Record<string, unknown> | null")]
    #[schema(value_type = Option<Object>)]
    pub claims: Option<serde_json::Value>,
}

impl AuthSession {
    pub fn signed_out() -> Self {
        AuthSession { user: None, claims: None }
    }

    pub fn signed_in(user: &UserData, issued_at: i64, expires_at: i64) -> Self {
        let claims = serde_json::json!({
            "sub": user.id,
            "email": user.email,
            "given_name": user.given_name,
            "family_name": user.family_name,
            "phone_number": user.contact_number,
            "email_verified": user.email_verified,
            "iat": issued_at,
            "exp": expires_at,
            "https://hasura.io/jwt/claims": {
                "x-hasura-user-id": user.id,
                "x-hasura-default-role": "user",
                "x-hasura-allowed-roles": ["user"],
            },
        });
        AuthSession {
            user: Some(AuthUser {
                sub: user.id.clone(),
                email: user.email.clone(),
                given_name: user.given_name.clone(),
                family_name: user.family_name.clone(),
                phone_number: user.contact_number.clone(),
                email_verified: user.email_verified,
            }),
            claims: Some(claims),
        }
    }
}

/// `GET /api/account`: what the account area shows.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AccountData {
    pub user: UserData,
    pub enrollments: Vec<AccountEnrollment>,
    pub payments: Vec<AccountPayment>,
    pub online_courses: Vec<AccountOnlineCourse>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AccountEnrollment {
    pub id: String,
    /// What the student reads out: `B-7K3P9`.
    pub reference: String,
    pub status: EnrollmentStatus,
    pub lines: Vec<crate::page::EnrollmentLine>,
    /// What its discount code took off the courses' prices.
    #[ts(type = "number")]
    pub discount: Money,
    #[ts(type = "number")]
    pub total: Money,
    /// What its payments add up to, less what was refunded of them.
    #[ts(type = "number")]
    pub paid: Money,
    /// What was refunded of its payments, or is on its way back (a
    /// cancellation, a move to a cheaper date).
    #[ts(type = "number")]
    pub refunded: Money,
    #[ts(type = "number")]
    pub balance: Money,
    pub balance_due_on: Option<String>,
    /// London wall-clock `YYYY-MM-DDTHH:MM:SS`.
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AccountPayment {
    pub id: String,
    #[ts(type = "number")]
    pub amount: Money,
    pub status: String,
    pub method: String,
    /// London wall-clock `YYYY-MM-DDTHH:MM:SS`.
    pub created_at: String,
    /// Its receipt's number (`GET /api/account/receipts/{number}`); none
    /// for a payment recorded before receipts were issued.
    pub receipt: Option<String>,
    /// The credit notes of what was refunded of it, oldest first.
    pub credit_notes: Vec<AccountCreditNote>,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AccountCreditNote {
    pub number: String,
    /// What was refunded.
    #[ts(type = "number")]
    pub amount: Money,
}

#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AccountOnlineCourse {
    /// The order it was bought with: `E-4HX2M` (the latest, when bought again).
    pub order_reference: String,
    pub course_id: String,
    pub title: String,
    pub complete: bool,
    /// `/learn/{course}/`, where it is studied; `None` until the college
    /// publishes its lessons.
    pub player_url: Option<String>,
    /// Whether it may be studied now, and until when.
    pub access: crate::learning::access::Access,
    /// How much of it is done, in per cent.
    pub percent: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(email: &str, password: &str, first: &str, last: &str, phone: &str) -> SignUpRequest {
        SignUpRequest {
            email: email.into(),
            password: password.into(),
            first_name: first.into(),
            last_name: last.into(),
            phone: phone.into(),
        }
    }

    #[test]
    fn sign_up_needs_every_field_of_section_5() {
        let errors = SignUpRequest::default().parse().unwrap_err();
        assert_eq!(errors.get("email"), Some(&"Email is required"));
        assert_eq!(errors.get("password"), Some(&"Password is required"));
        assert_eq!(errors.get("first_name"), Some(&"First name is required"));
        assert_eq!(errors.get("last_name"), Some(&"Last name is required"));
        assert_eq!(errors.get("phone"), Some(&"Phone number is required"));
    }

    #[test]
    fn sign_up_checks_email_phone_and_password_length() {
        let errors = request("sam@", "short", "Sam", "Lee", "12ab").parse().unwrap_err();
        assert_eq!(errors.get("email"), Some(&"Enter a valid email address"));
        assert_eq!(errors.get("password"), Some(&"Use at least 10 characters"));
        assert_eq!(errors.get("phone"), Some(&"Enter a valid phone number"));
        let ok = request(" Sam@Example.com ", "correct horse battery", " Sam ", "Lee", "07700 900123").parse().unwrap();
        assert_eq!(ok.email, "sam@example.com");
        assert_eq!(ok.given_name, "Sam");
        assert_eq!(ok.phone, "+447700900123");
    }

    #[test]
    fn the_claims_carry_the_hasura_object() {
        let user = UserData {
            id: "u1".into(),
            cognito_id: "u1".into(),
            email: "sam@example.com".into(),
            title: None,
            given_name: "Sam".into(),
            family_name: "Lee".into(),
            gender: None,
            birthday: None,
            contact_number: "+447700900123".into(),
            points: 0,
            elearning_id: None,
            stripe_id: None,
            set_password: true,
            email_verified: false,
        };
        let session = AuthSession::signed_in(&user, 1, 2);
        let claims = session.claims.unwrap();
        assert_eq!(claims["https://hasura.io/jwt/claims"]["x-hasura-user-id"], "u1");
        assert_eq!(claims["sub"], "u1");
        assert_eq!(claims["email_verified"], false);
        let user = session.user.unwrap();
        assert_eq!(user.phone_number, "+447700900123");
        assert!(!user.email_verified);
    }

    #[test]
    fn a_course_start_needs_both_names_and_a_good_password() {
        let request = |first: &str, last: &str, password: &str| CourseStartRequest {
            token: " t0k3n ".into(),
            first_name: first.into(),
            last_name: last.into(),
            password: password.into(),
        };
        let started = request(" Amelia ", "Hart ", "correct horse battery").parse().unwrap();
        assert_eq!((started.token.as_str(), started.given_name.as_str(), started.family_name.as_str()), ("t0k3n", "Amelia", "Hart"));
        let refused = request(" ", &"x".repeat(201), "short").parse().unwrap_err();
        assert_eq!(refused.get("first_name").copied(), Some("First name is required"));
        assert_eq!(refused.get("last_name").copied(), Some(TOO_LONG));
        assert_eq!(refused.get("password").copied(), Some("Use at least 10 characters"));
    }
}
