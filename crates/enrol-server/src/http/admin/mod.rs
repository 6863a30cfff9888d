//! The back office's API, `/api/admin/…` (decision 017).
//!
//! Every route is in [`ROUTES`] with the permission it needs; the guard
//! finds the matched route there, checks the staff session and the role,
//! and refuses a route that is not listed (fail closed). The test that
//! every route refuses signed-out visitors, students and the wrong roles
//! walks the same table.

mod auth;
mod codes;
mod content;
pub(crate) mod course_files;
mod csv;
mod enquiries;
mod feedback;
mod figures;
mod learning_preview;
mod materials;
mod media;
mod online_access;
mod online_orders;
mod order_actions;
mod orders;
mod people;
mod plans;
mod readiness;
mod rosters;
mod scorm;
mod sessions;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::{MatchedPath, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use chrono::Utc;
use serde::Serialize;
use ts_rs::TS;

use enrol_db::{ListPlace, PlaceTime, StaffMember};
use enrol_domain::staff::{Permission, Role};

use crate::AppState;
use crate::http::ApiError;
use crate::staff_auth;

/// One admin route and what it needs: a permission, or only a staff
/// session (`None`).
#[derive(Debug, Clone, Copy)]
pub struct AdminRoute {
    pub method: &'static str,
    /// Below `/api/admin`, as axum matches it.
    pub path: &'static str,
    pub permission: Option<Permission>,
}

const fn route(method: &'static str, path: &'static str, permission: Option<Permission>) -> AdminRoute {
    AdminRoute { method, path, permission }
}

/// Every route behind a staff session. Sign-in and the set-up link are
/// not here: they are how a session starts; nor is the session itself,
/// whose answer for a signed-out visitor is `{"staff": null}`.
pub const ROUTES: &[AdminRoute] = &[
    route("POST", "/sign-out", None),
    route("GET", "/recovery-codes", None),
    route("POST", "/recovery-codes", None),
    route("GET", "/staff", Some(Permission::ManageStaff)),
    route("POST", "/staff", Some(Permission::ManageStaff)),
    route("POST", "/staff/{id}/disable", Some(Permission::ManageStaff)),
    route("GET", "/staff/names", Some(Permission::Enquiries)),
    route("GET", "/audit", Some(Permission::Audit)),
    route("GET", "/courses", None),
    route("GET", "/tutors", Some(Permission::Sessions)),
    route("GET", "/sessions", Some(Permission::Rosters)),
    route("POST", "/sessions", Some(Permission::Sessions)),
    route("PUT", "/sessions/{id}", Some(Permission::Sessions)),
    route("POST", "/sessions/{id}/cancel", Some(Permission::Sessions)),
    route("GET", "/sessions/{id}/roster", Some(Permission::Rosters)),
    route("GET", "/sessions/{id}/roster.csv", Some(Permission::Rosters)),
    route("PUT", "/sessions/{id}/attendance/{enrollment_id}", Some(Permission::Rosters)),
    route("POST", "/sessions/{id}/certificates/{enrollment_id}", Some(Permission::Sessions)),
    route("GET", "/sessions/{id}/readiness/{enrollment_id}", Some(Permission::Readiness)),
    route("GET", "/sessions/{id}/readiness/{enrollment_id}/uploads/{upload_id}", Some(Permission::Readiness)),
    route("PUT", "/sessions/{id}/readiness/{enrollment_id}/documents/{request_id}", Some(Permission::Readiness)),
    route("GET", "/feedback", Some(Permission::Rosters)),
    route("POST", "/feedback/{id}/publish", Some(Permission::Content)),
    route("POST", "/feedback/{id}/withdraw", Some(Permission::Content)),
    route("GET", "/dashboard", Some(Permission::Figures)),
    route("GET", "/exports/{file}", Some(Permission::Figures)),
    route("GET", "/sections", Some(Permission::Codes)),
    route("GET", "/codes", Some(Permission::Codes)),
    route("POST", "/codes", Some(Permission::Codes)),
    route("PUT", "/codes/{code}", Some(Permission::Codes)),
    route("POST", "/codes/{code}/expire", Some(Permission::Codes)),
    route("GET", "/codes/{code}/orders", Some(Permission::Codes)),
    route("GET", "/upsells", Some(Permission::Codes)),
    route("PUT", "/upsells/{price_id}", Some(Permission::Codes)),
    route("GET", "/enquiries", Some(Permission::Enquiries)),
    route("GET", "/enquiries/{id}", Some(Permission::Enquiries)),
    route("PUT", "/enquiries/{id}", Some(Permission::Enquiries)),
    route("POST", "/enquiries/{id}/notes", Some(Permission::Enquiries)),
    route("POST", "/enquiries/{id}/replies", Some(Permission::Enquiries)),
    route("GET", "/orders", Some(Permission::Orders)),
    route("GET", "/orders/{id}", Some(Permission::Orders)),
    route("POST", "/orders/{id}/refund", Some(Permission::Money)),
    route("POST", "/orders/{id}/move", Some(Permission::Money)),
    route("POST", "/orders/{id}/cancel", Some(Permission::Money)),
    route("POST", "/orders/{id}/payments", Some(Permission::Money)),
    route("POST", "/orders/{id}/deadline", Some(Permission::Money)),
    route("POST", "/orders/{id}/mails/{mail_id}/resend", Some(Permission::Orders)),
    route("POST", "/orders/{id}/refunds/{refund_id}/made", Some(Permission::Money)),
    route("GET", "/plans", Some(Permission::Orders)),
    route("POST", "/plans/{id}/pause", Some(Permission::Money)),
    route("POST", "/plans/{id}/resume", Some(Permission::Money)),
    route("POST", "/plans/{id}/cancel", Some(Permission::Money)),
    route("PUT", "/plans/{id}/instalments/{number}", Some(Permission::Money)),
    route("GET", "/plan-settings", Some(Permission::Orders)),
    route("PUT", "/plan-settings", Some(Permission::Money)),
    route("GET", "/online-orders", Some(Permission::Orders)),
    route("GET", "/online-orders/{id}", Some(Permission::Orders)),
    route("POST", "/online-orders/{id}/refund", Some(Permission::Money)),
    route("GET", "/courses/{id}/learners", Some(Permission::Orders)),
    route("GET", "/courses/{id}/learners.csv", Some(Permission::Orders)),
    // Giving, lengthening, withdrawing or giving back access gives or
    // takes what the college sells, as a refund does: money's.
    route("POST", "/online-registrations", Some(Permission::Money)),
    route("POST", "/online-registrations/{id}/last-day", Some(Permission::Money)),
    route("POST", "/online-registrations/{id}/revoke", Some(Permission::Money)),
    route("POST", "/online-registrations/{id}/restore", Some(Permission::Money)),
    route("GET", "/content", Some(Permission::Content)),
    route("POST", "/content/markdown", Some(Permission::Content)),
    route("POST", "/content/{kind}", Some(Permission::Content)),
    route("GET", "/content/{kind}/{key}", Some(Permission::Content)),
    route("GET", "/content/{kind}/{key}/preview", Some(Permission::Content)),
    route("GET", "/content/{kind}/{key}/preview/learn/", Some(Permission::Content)),
    route("GET", "/content/{kind}/{key}/preview/learn/{step}/", Some(Permission::Content)),
    route("POST", "/content/{kind}/{key}/preview/learn/{step}/attempts", Some(Permission::Content)),
    route("PUT", "/content/{kind}/{key}/draft", Some(Permission::Content)),
    route("DELETE", "/content/{kind}/{key}/draft", Some(Permission::Content)),
    route("POST", "/content/{kind}/{key}/publish", Some(Permission::Content)),
    route("POST", "/content/{kind}/{key}/revert", Some(Permission::Content)),
    route("POST", "/content/{kind}/{key}/withdraw", Some(Permission::Content)),
    route("GET", "/media", Some(Permission::Content)),
    route("POST", "/media", Some(Permission::Content)),
    route("PUT", "/media/{key}", Some(Permission::Content)),
    route("GET", "/course-files", Some(Permission::Content)),
    route("POST", "/course-files", Some(Permission::Content)),
    route("GET", "/course-files/{file}", Some(Permission::Content)),
    route("DELETE", "/course-files/{file}", Some(Permission::Content)),
    route("GET", "/courses/{id}/package", Some(Permission::Content)),
    route("GET", "/courses/{id}/materials", Some(Permission::Content)),
    route("POST", "/courses/{id}/materials", Some(Permission::Content)),
    route("DELETE", "/courses/{id}/materials/{material}", Some(Permission::Content)),
    route("POST", "/courses/{id}/materials/{material}/move", Some(Permission::Content)),
    route("POST", "/courses/{id}/package", Some(Permission::Content)),
];

pub fn router(state: &Arc<AppState>) -> Router<Arc<AppState>> {
    let guarded = Router::new()
        .route("/sign-out", post(auth::sign_out))
        .route("/recovery-codes", get(auth::show_recovery_codes).post(auth::renew_recovery_codes))
        .route("/staff", get(people::list_staff).post(people::add_staff))
        .route("/staff/{id}/disable", post(people::disable_staff))
        .route("/staff/names", get(people::list_staff_names))
        .route("/audit", get(people::show_audit))
        .route("/courses", get(sessions::list_courses))
        .route("/tutors", get(sessions::list_tutors))
        .route("/sessions", get(sessions::list_sessions).post(sessions::open_session))
        .route("/sessions/{id}", put(sessions::change_session))
        .route("/sessions/{id}/cancel", post(sessions::cancel_session))
        .route("/sessions/{id}/roster", get(rosters::show_roster))
        .route("/sessions/{id}/roster.csv", get(rosters::download_roster))
        .route("/sessions/{id}/attendance/{enrollment_id}", put(rosters::mark_attendance))
        .route("/sessions/{id}/certificates/{enrollment_id}", post(rosters::issue_certificate))
        .route("/sessions/{id}/readiness/{enrollment_id}", get(readiness::show_readiness))
        .route("/sessions/{id}/readiness/{enrollment_id}/uploads/{upload_id}", get(readiness::download_upload))
        .route("/sessions/{id}/readiness/{enrollment_id}/documents/{request_id}", put(readiness::review_document))
        .route("/feedback", get(feedback::list_feedback))
        .route("/feedback/{id}/publish", post(feedback::publish_feedback))
        .route("/feedback/{id}/withdraw", post(feedback::withdraw_feedback))
        .route("/dashboard", get(figures::show_dashboard))
        .route("/exports/{file}", get(figures::download_export))
        .route("/sections", get(codes::list_sections))
        .route("/codes", get(codes::list_codes).post(codes::create_code))
        .route("/codes/{code}", put(codes::edit_code))
        .route("/codes/{code}/expire", post(codes::expire_code))
        .route("/codes/{code}/orders", get(codes::list_code_orders))
        .route("/upsells", get(codes::list_upsells))
        .route("/upsells/{price_id}", put(codes::edit_upsell))
        .route("/enquiries", get(enquiries::list_enquiries))
        .route("/enquiries/{id}", get(enquiries::show_enquiry).put(enquiries::change_enquiry))
        .route("/enquiries/{id}/notes", post(enquiries::add_enquiry_note))
        .route("/enquiries/{id}/replies", post(enquiries::reply_to_enquiry))
        .route("/orders", get(orders::list_orders))
        .route("/orders/{id}", get(orders::show_order))
        .route("/orders/{id}/refund", post(order_actions::refund_order))
        .route("/orders/{id}/move", post(order_actions::move_order))
        .route("/orders/{id}/cancel", post(order_actions::cancel_order))
        .route("/orders/{id}/payments", post(order_actions::record_payment))
        .route("/orders/{id}/deadline", post(order_actions::change_deadline))
        .route("/orders/{id}/mails/{mail_id}/resend", post(order_actions::resend_mail))
        .route("/orders/{id}/refunds/{refund_id}/made", post(order_actions::mark_refund_made))
        .route("/plans", get(plans::list_plans))
        .route("/plans/{id}/pause", post(plans::pause_plan))
        .route("/plans/{id}/resume", post(plans::resume_plan))
        .route("/plans/{id}/cancel", post(plans::cancel_plan))
        .route("/plans/{id}/instalments/{number}", put(plans::move_part))
        .route("/plan-settings", get(plans::show_plan_settings).put(plans::save_plan_settings))
        .route("/online-orders", get(online_orders::list_online_orders))
        .route("/online-orders/{id}", get(online_orders::show_online_order))
        .route("/online-orders/{id}/refund", post(online_orders::refund_online_order))
        .route("/courses/{id}/learners", get(online_access::show_learners))
        .route("/courses/{id}/learners.csv", get(online_access::download_learners))
        .route("/online-registrations", post(online_access::grant_course))
        .route("/online-registrations/{id}/last-day", post(online_access::change_last_day))
        .route("/online-registrations/{id}/revoke", post(online_access::revoke_access))
        .route("/online-registrations/{id}/restore", post(online_access::restore_access))
        .route("/content", get(content::list_content))
        .route("/content/markdown", post(content::render_markdown))
        .route("/content/{kind}", post(content::create_content))
        .route("/content/{kind}/{key}", get(content::show_content))
        .route("/content/{kind}/{key}/preview", get(content::preview_content))
        .route("/content/{kind}/{key}/preview/learn/", get(learning_preview::preview_contents))
        .route("/content/{kind}/{key}/preview/learn/{step}/", get(learning_preview::preview_step))
        .route("/content/{kind}/{key}/preview/learn/{step}/attempts", post(learning_preview::mark_preview_attempt))
        .route("/content/{kind}/{key}/draft", put(content::save_draft).delete(content::discard_draft))
        .route("/content/{kind}/{key}/publish", post(content::publish_content))
        .route("/content/{kind}/{key}/revert", post(content::revert_content))
        .route("/content/{kind}/{key}/withdraw", post(content::withdraw_content))
        .route("/media", get(media::list_media).post(media::upload_media).layer(DefaultBodyLimit::max(media::UPLOAD_BODY_BYTES)))
        .route("/media/{key}", put(media::edit_media))
        // The body is streamed to the store and counted there, against each kind's limit.
        .route(
            course_files::UPLOAD_PATH,
            get(course_files::list_course_files).post(course_files::upload_course_file).layer(DefaultBodyLimit::disable()),
        )
        .route("/course-files/{file}", get(course_files::show_course_file).delete(course_files::remove_course_file))
        .route(
            "/courses/{id}/package",
            get(scorm::show_package).post(scorm::upload_package).layer(DefaultBodyLimit::max(scorm::UPLOAD_BODY_BYTES)),
        )
        .route("/courses/{id}/materials", get(materials::list_materials).post(materials::add_material))
        .route("/courses/{id}/materials/{material}", delete(materials::remove_material))
        .route("/courses/{id}/materials/{material}/move", post(materials::move_material))
        .route_layer(middleware::from_fn_with_state(Arc::clone(state), guard));
    // What checks passwords and codes is limited per client too (decision 009).
    let limited = Router::new()
        .route("/sign-in", post(auth::sign_in))
        .route("/invitations/{token}", get(auth::show_invitation).post(auth::accept_invitation));
    let limited = crate::http::limits::limit_writes(limited, state);
    // Reading one's own session is a read every back office screen makes,
    // not a write: a busy office must not spend its allowance on it.
    limited.route("/session", get(auth::show_session)).merge(guarded)
}

/// The staff member signed in, for handlers behind the guard.
pub type Staff = axum::Extension<StaffMember>;

async fn guard(State(state): State<Arc<AppState>>, matched: MatchedPath, mut request: Request, next: Next) -> Response {
    let path = matched.as_str();
    let path = path.strip_prefix("/api/admin").unwrap_or(path);
    let method = request.method().as_str();
    let Some(route) = ROUTES.iter().find(|r| r.path == path && r.method == method) else {
        if ROUTES.iter().any(|r| r.path == path) {
            return StatusCode::METHOD_NOT_ALLOWED.into_response();
        }
        tracing::error!(path, "An admin route is missing from the permission table");
        return ApiError::Forbidden.into_response();
    };
    let Some(hash) = staff_auth::session_hash(request.headers()) else {
        return signed_out();
    };
    let member = match state.db.staff_session(&hash, Utc::now()).await {
        Ok(Some(member)) => member,
        Ok(None) => return signed_out(),
        Err(error) => return ApiError::Internal(error).into_response(),
    };
    if route.permission.is_some_and(|permission| !member.role.allows(permission)) {
        tracing::warn!(staff = %member.id, path, "Refused: the role does not allow it");
        return ApiError::Forbidden.into_response();
    }
    request.extensions_mut().insert(member);
    next.run(request).await
}

fn signed_out() -> Response {
    ApiError::Unauthorized("Please sign in to the back office.".to_owned()).into_response()
}

/// A staff member as the browser sees them.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct StaffView {
    pub id: String,
    pub email: String,
    pub name: String,
    pub role: Role,
    pub permissions: Vec<Permission>,
}

impl From<&StaffMember> for StaffView {
    fn from(member: &StaffMember) -> Self {
        StaffView {
            id: member.id.clone(),
            email: member.email.clone(),
            name: member.name.clone(),
            role: member.role,
            permissions: member.role.permissions(),
        }
    }
}

/// The place a list's page starts after, as its address carries it
/// ([`enrol_db::ListPlace::token`]): none when not given, and a refusal,
/// never the first page, for a token that is not a place in the list of
/// `what`.
fn place_in<T: PlaceTime>(token: Option<&str>, what: &str) -> Result<Option<ListPlace<T>>, ApiError> {
    match token.filter(|token| !token.is_empty()) {
        Some(token) => {
            ListPlace::parse(token).map(Some).ok_or_else(|| ApiError::BadRequest(format!("That page of {what} does not exist.")))
        }
        None => Ok(None),
    }
}
