//! Routes, and the layers every response passes through.

mod account;
pub mod admin;
pub(crate) mod auth;
mod back_office;
pub(crate) mod balance;
mod balance_card;
mod calendar;
mod cancellation;
mod certificates;
mod course_files;
mod course_start;
mod date_change;
mod dev;
mod enquiries;
mod enrol_checkout;
mod error;
pub(crate) mod feedback;
mod finance;
mod graphql;
mod guard;
mod health;
mod idempotency;
mod images;
mod json_body;
mod learning;
mod limits;
mod mail_logo;
mod materials;
mod media;
mod newsletter;
mod online_checkout;
mod openapi;
mod pages;
mod provider;
pub(crate) mod receipts;
mod sandbox;
mod sandbox_intents;
mod scorm;
mod scorm_files;
mod search;
mod sitemap;
mod slow_bodies;
mod student;
pub mod waiting_list;
pub mod webhooks;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Request, header};
use axum::middleware;
use axum::routing::{get, post, put};
use axum::{Extension, Router};
use tower::ServiceBuilder;
use tower_http::compression::predicate::{NotForContentType, Predicate as _};
use tower_http::compression::{CompressionLayer, DefaultPredicate};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use enrol_payments::GatewayKind;

use crate::AppState;
use crate::config::Environment;
use enrol_domain::tracking::TrackingConfig;

pub use error::ApiError;
pub use online_checkout::order_path;
pub use sandbox::deliver_events as deliver_sandbox_events;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The `Cache-Control` of what a URL names for ever: resized images and
/// uploads, whose URLs change when their bytes do.
pub(crate) const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");

/// What pages may load: this site's own scripts, styles and images; this
/// site's own frames (the back office's preview), and the players of the
/// two video hosts a lesson may embed (`Video::embed_url`); with Stripe as
/// the gateway, Stripe.js and its payment frames; and the hosts of
/// the analytics and marketing tools configured (loaded only with consent).
/// Forms post to the site only, and are redirected only to it or to the
/// hosted LMS's launch addresses (`launches`, decision 029).
pub(crate) fn content_security_policy(stripe: bool, tracking: &TrackingConfig, launches: &[String]) -> HeaderValue {
    let tools = tracking.csp_sources();
    let mut script = tools.script;
    script.insert(0, crate::document::boot_script_source());
    let mut connect = tools.connect;
    let img = tools.img;
    let mut frame: Vec<&str> = vec!["'self'"];
    if stripe {
        script.push("https://js.stripe.com".to_owned());
        connect.push("https://api.stripe.com".to_owned());
        frame.extend(["https://js.stripe.com", "https://hooks.stripe.com"]);
    }
    frame.extend(["https://www.youtube-nocookie.com", "https://player.vimeo.com"]);
    fn with(sources: &[impl AsRef<str>]) -> String {
        sources.iter().map(|s| format!(" {}", s.as_ref())).collect()
    }
    let frame = format!("frame-src{}; ", with(&frame));
    let policy = format!(
        "default-src 'self'; script-src 'self'{}; style-src 'self'; img-src 'self' data:{}; font-src 'self'; \
         connect-src 'self'{}; {frame}object-src 'none'; base-uri 'self'; form-action 'self'{}; frame-ancestors 'none'",
        with(&script),
        with(&img),
        with(&connect),
        with(launches),
    );
    HeaderValue::from_str(&policy).expect("a CSP is a valid header value")
}

pub fn router(state: Arc<AppState>) -> Router {
    let immutable = SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, IMMUTABLE);
    let media_cache = SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
    // Open to any origin: a sandboxed preview (decision 030) has none of
    // its own, and module scripts are always fetched with CORS.
    let any_origin = SetResponseHeaderLayer::overriding(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    // The build writes each asset's Brotli and gzip forms at their highest
    // quality (web/vite-precompress.ts); they are sent as they are, not
    // compressed again at a quick level for every answer.
    let built = |folder: &str| ServeDir::new(state.config.web_dist.join(folder)).precompressed_br().precompressed_gzip();
    let assets = ServiceBuilder::new().layer(immutable.clone()).layer(any_origin).service(built("client/assets"));
    let content_media = ServiceBuilder::new().layer(media_cache).service(ServeDir::new(state.config.content_dir.join("images")));
    let admin_assets = ServiceBuilder::new().layer(immutable).service(built("admin/assets"));

    let mut security = vec![
        (
            header::CONTENT_SECURITY_POLICY,
            content_security_policy(
                state.payments.kind() == GatewayKind::Stripe,
                &state.config.tracking,
                &state.provider.as_ref().map(|p| p.launch_origins()).unwrap_or_default(),
            ),
        ),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static("camera=(), microphone=(), geolocation=(), interest-cohort=()"),
        ),
        (HeaderName::from_static("cross-origin-opener-policy"), HeaderValue::from_static("same-origin")),
    ];
    if state.config.is_https() {
        security.push((header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=63072000; includeSubDomains")));
    }

    // What costs the college seats, payments, password checks or mail is
    // limited per browser and per address (decisions 009 and 031).
    let limited = Router::new()
        .route("/enquiries/{kind}", post(enquiries::create_enquiry))
        .route("/e-learning/create-checkout", post(online_checkout::create_checkout))
        .route("/checkout/", post(enrol_checkout::create_intent).put(enrol_checkout::update_intent))
        .route("/enroll/", post(enrol_checkout::create_enrollment).put(enrol_checkout::update_enrollment))
        .route("/code", post(enrol_checkout::check_code))
        .route("/callback/", post(finance::request_finance))
        .route("/auth/sign-up", post(auth::sign_up))
        .route("/auth/sign-in", post(auth::sign_in))
        .route("/auth/verify", post(auth::verify_email))
        .route("/account/verification-link", post(auth::resend_verification))
        .route("/auth/password-reset", post(auth::request_password_reset))
        .route("/auth/password-reset/confirm", post(auth::confirm_password_reset))
        .route("/auth/course-start/check", post(course_start::check_start_link))
        .route("/auth/course-start", post(course_start::start_course))
        .route("/account/forms/{id}", put(account::forms::save_form))
        // A 5 MB file is about 6.7 MB as base64 in JSON.
        .route("/account/upload-requests/{id}/files", post(account::forms::upload_evidence).layer(DefaultBodyLimit::max(8 * 1024 * 1024)))
        .route("/account/intake-calls", post(account::intake::book_intake_call))
        .route("/account/intake-calls/{id}/cancel", post(account::intake::cancel_intake_call))
        .route("/account/intake-calls/{id}/move", post(account::intake::move_intake_call))
        .route("/account/enrollments/{id}/balance-link", post(balance::create_balance_link))
        .route("/account/enrollments/{id}/cancel", post(cancellation::cancel_booking))
        .route("/account/enrollments/{id}/move", post(date_change::move_booking))
        .route("/waiting-list", post(waiting_list::join_waiting_list))
        .route("/waiting-list/confirm", post(waiting_list::confirm_place))
        .route("/waiting-list/claim", post(waiting_list::claim_offer))
        .route("/waiting-list/leave", post(waiting_list::leave_waiting_list))
        .route("/feedback", post(feedback::give_feedback))
        .route("/balance/intent", post(balance::create_balance_intent))
        .route("/balance/card", post(balance_card::prepare_card))
        .route("/balance/card/confirm", post(balance_card::confirm_card))
        .route("/account/profile", put(account::profile::update_profile))
        .route("/account/password", post(account::profile::change_password))
        .route("/account/email", post(account::email::change_email))
        .route("/account/email/confirm", post(account::email::confirm_email_change))
        .route("/newsletter", post(newsletter::ask_newsletter))
        .route("/newsletter/confirm", post(newsletter::confirm_newsletter))
        .route("/learn/{course}/lessons/{lesson}/visit", post(learning::visit_lesson))
        .route("/learn/{course}/lessons/{lesson}/done", post(learning::complete_lesson))
        .route("/learn/{course}/quizzes/{quiz}/attempts", post(learning::attempt_quiz))
        .route("/learn/{course}/package/launch", post(scorm::launch_package))
        .route("/learn/{course}/package/commit", post(scorm::commit_package));
    let limited = limits::limit_writes(limited, &state);
    // The account area's data, each screen a query: limited apart from the writes.
    let queries = Router::new()
        .route(
            "/graphql",
            post(graphql::query_account_data).layer(Extension(graphql::schema(state.config.environment == Environment::Production))),
        )
        .layer(limits::queries_per_client(&state.config.limits));
    let api = Router::new()
        .route("/page-data", get(pages::show_page_data))
        .route("/search", get(search::search_site))
        .route("/checkout/basket", post(enrol_checkout::show_basket))
        .route("/auth/sign-out", post(auth::sign_out))
        .route("/auth/session", get(auth::show_session))
        .route("/account", get(auth::show_account))
        .route("/account/uploads/{id}", get(account::forms::download_upload))
        .route("/account/certificates/{number}", get(certificates::download_certificate))
        .route("/enrollments/{id}/calendar.ics", get(calendar::download_calendar))
        .route("/account/enrollments/{id}/cancellation", get(cancellation::show_cancellation))
        .route("/account/enrollments/{id}/dates", get(date_change::show_dates))
        .route("/account/receipts/{number}", get(receipts::show_account_receipt))
        .route("/receipts/{number}", get(receipts::show_receipt))
        .route("/account/intake-calls/slots", get(account::intake::show_intake_slots))
        .route("/openapi.json", get(openapi::show_openapi))
        .nest("/admin", admin::router(&state))
        .merge(limited)
        .merge(queries)
        .fallback(|| async { ApiError::NotFound })
        .layer(middleware::from_fn_with_state(Arc::clone(&state), guard::same_site_json));
    let mut app = Router::new()
        .route("/healthz", get(health::check_health))
        .route("/robots.txt", get(pages::show_robots))
        .route("/favicon.ico", get(pages::show_favicon))
        .route("/sitemap.xml", get(sitemap::show_sitemap))
        .route("/_next/image/", get(images::show_image))
        .route("/_next/image", get(images::show_image))
        .route("/mail/logo.png", get(mail_logo::show_mail_logo))
        .route("/webhooks/payments", post(webhooks::receive_event))
        .route("/webhooks/coassemble", post(provider::receive_completion))
        .route("/learn/{course}/open", post(provider::open_course))
        .nest("/api", api)
        .nest_service("/assets", assets)
        .route("/media/uploads/{file}", get(media::show_upload))
        .route("/learn/{course}/package/{token}/{*path}", get(scorm_files::show_package_file))
        .route("/learn/{course}/files/{file}", get(course_files::show_course_file))
        .route("/course-materials/{id}", get(materials::show_material_file))
        .nest_service("/media", content_media)
        .nest_service("/admin/assets", admin_assets)
        .route("/admin", get(pages::show_admin_app))
        .route("/admin/", get(pages::show_admin_app))
        .route("/admin/{*rest}", get(pages::show_admin_app))
        .fallback(get(pages::show_page));
    if state.payments.kind() == GatewayKind::Sandbox {
        app = app
            .route("/sandbox/sandbox.css", get(sandbox::show_style))
            .route("/sandbox/checkout/{id}", get(sandbox::show_checkout).post(sandbox::pay_checkout))
            .route("/sandbox/redirect/{id}", get(sandbox_intents::show_redirect).post(sandbox_intents::decide_redirect))
            .route(
                "/sandbox/payment_intents/{id}/confirm",
                post(sandbox_intents::confirm_intent).layer(middleware::from_fn_with_state(Arc::clone(&state), guard::same_site_json)),
            )
            .route(
                "/sandbox/setup_intents/{id}/confirm",
                post(sandbox_intents::confirm_setup).layer(middleware::from_fn_with_state(Arc::clone(&state), guard::same_site_json)),
            );
    }
    // It shows password reset links and moves the instalments' clock: only when asked for, never in production.
    if state.config.dev_mailbox && state.config.environment == Environment::Development {
        app = app
            .route("/dev/mailbox", get(dev::show_mailbox))
            .route("/dev/mailbox/{id}", get(dev::show_mail))
            .route("/dev/clock/instalments", post(dev::charge_instalments_at));
    }
    let connections = state.config.connections;
    let mut app = app
        .layer(middleware::from_fn_with_state(Arc::clone(&state), crate::buyer::remember_client_ip))
        .layer(middleware::from_fn_with_state(Arc::clone(&state), back_office::keep_origins_apart))
        .with_state(state)
        .layer(middleware::from_fn_with_state(connections, slow_bodies::limit_body_time));
    for (name, value) in security {
        app = app.layer(SetResponseHeaderLayer::if_not_present(name, value));
    }
    app.layer(
        ServiceBuilder::new()
            .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
            .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let id = request.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
                tracing::info_span!("request", method = %request.method(), uri = %request.uri(), request_id = %id)
            }))
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            // Video, audio and PDFs are compressed already, and a compressed
            // answer could no longer be read in ranges (decision 028).
            .layer(
                CompressionLayer::new().compress_when(
                    DefaultPredicate::new()
                        .and(NotForContentType::const_new("video/"))
                        .and(NotForContentType::const_new("audio/"))
                        .and(NotForContentType::const_new("application/pdf")),
                ),
            ),
    )
}

#[cfg(test)]
mod tests {
    use enrol_domain::tracking::TrackingConfig;

    use super::content_security_policy;

    #[test]
    fn stripe_is_allowed_only_when_it_is_the_gateway() {
        let boot = crate::document::boot_script_source();
        let sandbox = content_security_policy(false, &TrackingConfig::default(), &[]);
        let sandbox = sandbox.to_str().unwrap();
        assert!(
            !sandbox.contains("stripe")
                && sandbox.contains(&format!("script-src 'self' {boot};"))
                && sandbox.contains("frame-ancestors 'none'")
        );
        let stripe = content_security_policy(true, &TrackingConfig::default(), &[]);
        let stripe = stripe.to_str().unwrap();
        assert!(stripe.contains(&format!("script-src 'self' {boot} https://js.stripe.com;")));
        assert!(stripe.contains("frame-src 'self' https://js.stripe.com https://hooks.stripe.com https://www.youtube-nocookie.com"));
        assert!(
            sandbox.contains("frame-src 'self' https://www.youtube-nocookie.com https://player.vimeo.com;"),
            "a lesson's embedded video plays"
        );
        assert!(stripe.contains("connect-src 'self' https://api.stripe.com;"));
    }

    #[test]
    fn a_configured_tool_adds_its_hosts() {
        let tracking = TrackingConfig { clarity: Some("abc123".into()), ..TrackingConfig::default() };
        let policy = content_security_policy(false, &tracking, &[]);
        let policy = policy.to_str().unwrap();
        let boot = crate::document::boot_script_source();
        assert!(policy.contains(&format!("script-src 'self' {boot} https://*.clarity.ms https://www.clarity.ms;")), "{policy}");
        assert!(policy.contains("connect-src 'self' https://*.clarity.ms;"), "{policy}");
        assert!(!policy.contains("googletagmanager"));
    }

    #[test]
    fn forms_may_be_sent_on_only_to_the_hosted_lms_configured() {
        let none = content_security_policy(false, &TrackingConfig::default(), &[]);
        assert!(none.to_str().unwrap().contains("form-action 'self';"));
        let launches = ["https://coassemble.com".to_owned(), "https://*.coassemble.com".to_owned()];
        let policy = content_security_policy(false, &TrackingConfig::default(), &launches);
        assert!(policy.to_str().unwrap().contains("form-action 'self' https://coassemble.com https://*.coassemble.com;"), "{policy:?}");
    }
}
