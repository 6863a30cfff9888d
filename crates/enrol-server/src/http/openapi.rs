//! The JSON API described as OpenAPI 3.1 (decision 010), generated from the
//! handlers' `#[utoipa::path]` and the types' `ToSchema`, and served at
//! `GET /api/openapi.json`. Every refusal is the one [`ErrorEnvelope`];
//! what every call can answer (a cross-site or non-JSON write, an internal
//! error) is added here once, as [`guard`](super::guard) and
//! [`ApiError`](super::ApiError) answer it for every route.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi as Document, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use super::{
    account, auth, balance, balance_card, calendar, cancellation, certificates, course_start, date_change, enquiries, enrol_checkout,
    feedback, finance, graphql, learning, newsletter, online_checkout, pages, receipts, scorm, search, waiting_list,
};
use crate::accounts;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Enrol",
        description = "The JSON API of the college's site: page data, search, forms, the enrol and e-learning checkouts, and accounts. \
                       Amounts are integer pence. Calls that change something take `Content-Type: application/json` and \
                       refuse another site's `Origin`."
    ),
    paths(
        pages::show_page_data,
        search::search_site,
        enquiries::create_enquiry,
        online_checkout::create_checkout,
        enrol_checkout::show_basket,
        enrol_checkout::create_intent,
        enrol_checkout::update_intent,
        enrol_checkout::create_enrollment,
        enrol_checkout::update_enrollment,
        enrol_checkout::check_code,
        finance::request_finance,
        auth::sign_up,
        auth::sign_in,
        auth::verify_email,
        auth::resend_verification,
        auth::request_password_reset,
        auth::confirm_password_reset,
        course_start::check_start_link,
        course_start::start_course,
        auth::sign_out,
        auth::show_session,
        auth::show_account,
        graphql::query_account_data,
        account::forms::save_form,
        account::forms::upload_evidence,
        account::forms::download_upload,
        certificates::download_certificate,
        receipts::show_account_receipt,
        receipts::show_receipt,
        account::intake::show_intake_slots,
        account::intake::book_intake_call,
        account::intake::cancel_intake_call,
        account::intake::move_intake_call,
        balance::create_balance_link,
        balance::create_balance_intent,
        balance_card::prepare_card,
        balance_card::confirm_card,
        calendar::download_calendar,
        cancellation::show_cancellation,
        cancellation::cancel_booking,
        date_change::show_dates,
        date_change::move_booking,
        waiting_list::join_waiting_list,
        waiting_list::confirm_place,
        waiting_list::claim_offer,
        waiting_list::leave_waiting_list,
        feedback::give_feedback,
        account::profile::update_profile,
        account::profile::change_password,
        account::email::change_email,
        account::email::confirm_email_change,
        learning::visit_lesson,
        learning::complete_lesson,
        learning::attempt_quiz,
        scorm::launch_package,
        scorm::commit_package,
        newsletter::ask_newsletter,
        newsletter::confirm_newsletter,
        show_openapi,
    ),
    modifiers(&EveryCall),
    tags(
        (name = "pages", description = "What pages show"),
        (name = "enquiries", description = "The site's forms"),
        (name = "checkout", description = "The enrol checkout: basket, codes, orders with seat holds, payment intents"),
        (name = "e-learning", description = "The online courses' checkout"),
        (name = "accounts", description = "Sign-up, sign-in, the session and the account area"),
        (name = "learning", description = "The course player: lessons opened and completed, quiz attempts marked, SCORM packages opened and their commits kept"),
        (name = "about", description = "This document"),
    )
)]
pub struct ApiDoc;

/// What any call may answer besides its own responses, and how callers
/// are known.
struct EveryCall;

impl Modify for EveryCall {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        let envelope = |description: &str| {
            ResponseBuilder::new()
                .description(description)
                .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorEnvelope"))).build())
                .build()
        };
        components.responses.extend([
            ("CrossSite".to_owned(), envelope("Sent from another site's page (`Origin`)").into()),
            ("NotJson".to_owned(), envelope("Sent without `Content-Type: application/json`").into()),
            ("Internal".to_owned(), envelope("Something failed on the server; the details are in its log").into()),
        ]);
        components.add_security_scheme(
            "session_cookie",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(accounts::COOKIE, "The session set by sign-in"))),
        );
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some("The session token as a bearer token")).build(),
            ),
        );
        let common = |status: &str, name: &str| (status.to_owned(), RefOr::Ref(Ref::from_response_name(name)));
        for item in doc.paths.paths.values_mut() {
            for (writes, operation) in
                [(false, &mut item.get), (true, &mut item.post), (true, &mut item.put), (true, &mut item.patch), (true, &mut item.delete)]
            {
                let Some(operation) = operation else { continue };
                let responses = &mut operation.responses.responses;
                if writes {
                    responses.extend([common("403", "CrossSite"), common("415", "NotJson")]);
                }
                responses.extend([common("500", "Internal")]);
            }
        }
    }
}

/// The document, made once.
static DOCUMENT: LazyLock<String> = LazyLock::new(|| ApiDoc::openapi().to_json().expect("the OpenAPI document serialises"));

/// `GET /api/openapi.json`: this API's OpenAPI document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "about",
    responses((status = 200, description = "This document (OpenAPI 3.1)", content_type = "application/json", body = Object)),
)]
pub async fn show_openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT.as_str())
}
