//! The back office's API, `/api/admin/…` (issue 14, decision 017).
//!
//! Every route is in [`ROUTES`] with the permission it needs; the guard
//! finds the matched route there, checks the staff session and the role,
//! and refuses a route that is not listed (fail closed). The test that
//! every route refuses signed-out visitors, students and the wrong roles
//! walks the same table.

mod auth;
mod order_actions;
mod orders;
mod people;

use std::sync::Arc;

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::Utc;
use serde::Serialize;

use enrol_db::StaffMember;
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
/// not here: they are how a session starts.
pub const ROUTES: &[AdminRoute] = &[
    route("GET", "/session", None),
    route("POST", "/sign-out", None),
    route("GET", "/staff", Some(Permission::ManageStaff)),
    route("POST", "/staff", Some(Permission::ManageStaff)),
    route("POST", "/staff/{id}/disable", Some(Permission::ManageStaff)),
    route("GET", "/staff/names", Some(Permission::Enquiries)),
    route("GET", "/audit", Some(Permission::Audit)),
    route("GET", "/orders", Some(Permission::Orders)),
    route("GET", "/orders/{id}", Some(Permission::Orders)),
    route("POST", "/orders/{id}/refund", Some(Permission::Money)),
    route("POST", "/orders/{id}/move", Some(Permission::Money)),
    route("POST", "/orders/{id}/cancel", Some(Permission::Money)),
    route("POST", "/orders/{id}/payments", Some(Permission::Money)),
    route("POST", "/orders/{id}/deadline", Some(Permission::Money)),
    route("POST", "/orders/{id}/mails/{mail_id}/resend", Some(Permission::Orders)),
];

pub fn router(state: &Arc<AppState>) -> Router<Arc<AppState>> {
    let guarded = Router::new()
        .route("/session", get(auth::show_session))
        .route("/sign-out", post(auth::sign_out))
        .route("/staff", get(people::list_staff).post(people::add_staff))
        .route("/staff/{id}/disable", post(people::disable_staff))
        .route("/staff/names", get(people::list_staff_names))
        .route("/audit", get(people::show_audit))
        .route("/orders", get(orders::list_orders))
        .route("/orders/{id}", get(orders::show_order))
        .route("/orders/{id}/refund", post(order_actions::refund_order))
        .route("/orders/{id}/move", post(order_actions::move_order))
        .route("/orders/{id}/cancel", post(order_actions::cancel_order))
        .route("/orders/{id}/payments", post(order_actions::record_payment))
        .route("/orders/{id}/deadline", post(order_actions::change_deadline))
        .route("/orders/{id}/mails/{mail_id}/resend", post(order_actions::resend_mail))
        .route_layer(middleware::from_fn_with_state(Arc::clone(state), guard));
    // What checks passwords and codes is limited per client too (decision 009).
    let limited = Router::new()
        .route("/sign-in", post(auth::sign_in))
        .route("/invitations/{token}", get(auth::show_invitation).post(auth::accept_invitation))
        .layer(crate::http::limits::per_client(&state.config.limits));
    limited.merge(guarded)
}

/// The staff member signed in, for handlers behind the guard.
pub type Staff = axum::Extension<StaffMember>;

async fn guard(State(state): State<Arc<AppState>>, matched: MatchedPath, mut request: Request, next: Next) -> Response {
    let path = matched.as_str();
    let path = path.strip_prefix("/api/admin").unwrap_or(path);
    let Some(route) =
        ROUTES.iter().find(|r| r.path == path && Method::from_bytes(r.method.as_bytes()).ok().as_ref() == Some(request.method()))
    else {
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
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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
