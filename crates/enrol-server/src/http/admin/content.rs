//! The site's content in the back office (decision 018), for
//! staff with `Permission::Content`: documents, drafts, publishing, history
//! and reverting, and the Markdown preview the editor shows.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::sync::Arc;

use anyhow::Context as _;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use enrol_db::content::PackImages;
use enrol_db::{ContentDetail, ContentRefused, ContentSource, ContentSummary};
use enrol_domain::contact::FieldErrors;
use enrol_domain::content::{ContentBody, ContentKind, CourseBody, key_is_valid};
use enrol_domain::course_price::DatePrice;
use enrol_domain::learning::curriculum::check as check_curriculum;
use enrol_domain::tracking::TrackingConfig;

use super::Staff;
use crate::AppState;
use crate::http::ApiError;
use crate::http::json_body::JsonBody;

/// A document in the list.
#[derive(Serialize, TS)]
#[ts(export)]
struct ContentListItem {
    kind: ContentKind,
    key: String,
    title: String,
    path: Option<String>,
    draft: bool,
    withdrawn: bool,
    /// A course sold as a package of courses.
    package: bool,
    #[ts(type = "number")]
    version: i64,
    updated_at: String,
}

fn path(summary: &ContentSummary) -> Option<String> {
    path_of(&summary.key, &summary.body)
}

/// The public address document `key` with `body` shows at.
fn path_of(key: &str, body: &ContentBody) -> Option<String> {
    match body {
        ContentBody::Page(_) => crate::pages::page_path(key),
        _ => enrol_db::content::projection::path_of(key, body),
    }
}

fn listed(summary: &ContentSummary) -> ContentListItem {
    ContentListItem {
        kind: summary.kind,
        key: summary.key.clone(),
        title: summary.body.title().to_owned(),
        path: path(summary),
        draft: summary.draft,
        withdrawn: summary.withdrawn,
        package: matches!(&summary.body, ContentBody::Course(course) if course.package),
        version: summary.version,
        updated_at: summary.updated_at.to_rfc3339(),
    }
}

#[derive(Serialize, TS)]
#[ts(export)]
struct ContentRevision {
    #[ts(type = "number")]
    version: i64,
    action: String,
    by: Option<String>,
    at: String,
}

#[derive(Serialize, TS)]
#[ts(export)]
struct ContentDocument {
    kind: ContentKind,
    key: String,
    title: String,
    path: Option<String>,
    published: ContentBody,
    #[ts(type = "number")]
    version: i64,
    withdrawn: bool,
    /// Whether it may be taken off the site now.
    withdrawable: bool,
    draft: Option<ContentBody>,
    draft_by: Option<String>,
    draft_saved_at: Option<String>,
    revisions: Vec<ContentRevision>,
    /// A course's dates still to come, and which carry their own price.
    dates: Vec<DatePrice>,
}

impl From<ContentDetail> for ContentDocument {
    fn from(detail: ContentDetail) -> Self {
        let summary = &detail.summary;
        ContentDocument {
            kind: summary.kind,
            key: summary.key.clone(),
            title: summary.body.title().to_owned(),
            path: path(summary),
            published: summary.body.clone(),
            version: summary.version,
            withdrawn: summary.withdrawn,
            withdrawable: !summary.withdrawn && may_withdraw(&summary.key, &summary.body),
            draft: detail.draft,
            draft_by: detail.draft_by,
            draft_saved_at: detail.draft_saved_at.map(|at| at.to_rfc3339()),
            revisions: detail
                .revisions
                .into_iter()
                .map(|r| ContentRevision { version: r.version, action: r.action, by: r.by, at: r.at.to_rfc3339() })
                .collect(),
            dates: Vec::new(),
        }
    }
}

fn kind_of(name: &str) -> Result<ContentKind, ApiError> {
    ContentKind::parse(name).ok_or(ApiError::NotFound)
}

/// The body sent for a document of `kind` and `key`, read and checked,
/// down to the images it names being ones the site has.
fn checked_body(images: &PackImages<'_>, kind: ContentKind, key: &str, value: serde_json::Value) -> Result<ContentBody, ApiError> {
    let body = ContentBody::from_json(kind, value)
        .map_err(|error| ApiError::BadRequest(format!("This is not a {} document: {error}", kind.as_str())))?;
    let errors = body.check(key);
    if !errors.is_empty() {
        return Err(refused_fields(&body, errors));
    }
    if let Err(error) = enrol_db::content::projection::project(key, &body, images, Utc::now()) {
        tracing::info!(error = %error, "A document names an image the site does not have");
        return Err(ApiError::field("image", "Choose an image the site has."));
    }
    Ok(body)
}

/// A body refused for `errors`. An online course's lessons and quizzes
/// also name each problem's own field under `learning`
/// (`learning.modules.0.lessons.2.slug`), and what a course asks before
/// training under `readiness` (`readiness.documents.1.title`), so the
/// editor shows every message beside what it is about.
fn refused_fields(body: &ContentBody, errors: FieldErrors) -> ApiError {
    let ContentBody::Course(course) = body else { return ApiError::Invalid(errors) };
    let mut problems: Vec<(String, String)> = Vec::new();
    if let CourseBody { online: true, learning: Some(learning), .. } = course
        && let Err(found) = check_curriculum(learning)
    {
        problems.extend(found.into_iter().map(|problem| (format!("learning.{}", problem.field), problem.message())));
    }
    if let Some(readiness) = &course.readiness {
        problems.extend(readiness.check().into_iter().map(|(field, message)| (field, message.to_owned())));
    }
    if problems.is_empty() {
        return ApiError::Invalid(errors);
    }
    let mut fields: BTreeMap<String, String> = errors.into_iter().map(|(field, message)| (field.to_owned(), message.to_owned())).collect();
    for (field, message) in problems {
        match fields.entry(field) {
            Entry::Occupied(mut said) => {
                let said = said.get_mut();
                said.push(' ');
                said.push_str(&message);
            }
            Entry::Vacant(field) => {
                field.insert(message);
            }
        }
    }
    ApiError::InvalidAt(fields)
}

fn refused(refusal: ContentRefused) -> ApiError {
    match refusal {
        ContentRefused::NotFound => ApiError::NotFound,
        ContentRefused::Exists => ApiError::Conflict("There is already one with this key.".to_owned()),
        ContentRefused::NoDraft => ApiError::Conflict("There is no draft to publish.".to_owned()),
        ContentRefused::Field(field, message) => ApiError::field(field, message),
        ContentRefused::Withdrawn => ApiError::Conflict("It is off the site already.".to_owned()),
        ContentRefused::Kept => ApiError::Conflict("The site cannot do without its site data or a section: edit it instead.".to_owned()),
    }
}

/// The sizes of the images content may name: the pack's own and the
/// media library's.
async fn images(state: &AppState) -> anyhow::Result<PackImages<'_>> {
    Ok(PackImages { root: &state.config.content_dir, uploads: state.db.media_sizes().await? })
}

/// `GET /api/admin/content`: every document.
pub async fn list_content(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let documents: Vec<ContentListItem> = state.db.content_documents().await?.iter().map(listed).collect();
    Ok(Json(Documents { documents }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct Documents {
    documents: Vec<ContentListItem>,
}

/// `GET /api/admin/content/{kind}/{key}`: one document, its draft and history.
pub async fn show_content(State(state): State<Arc<AppState>>, Path((kind, key)): Path<(String, String)>) -> Result<Response, ApiError> {
    let kind = kind_of(&kind)?;
    let detail = state.db.content_document(kind, &key).await?.ok_or(ApiError::NotFound)?;
    let mut detail = ContentDocument::from(detail);
    if kind == ContentKind::Course {
        detail.dates = state.catalogue.get(&state.db, Utc::now()).await?.date_prices(&key);
    }
    Ok(Json(detail).into_response())
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct DraftForm {
    body: serde_json::Value,
}

/// `PUT /api/admin/content/{kind}/{key}/draft`: keeps a draft; the site
/// does not change until it is published.
pub async fn save_draft(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((kind, key)): Path<(String, String)>,
    JsonBody(form): JsonBody<DraftForm>,
) -> Result<Response, ApiError> {
    let body = checked_body(&images(&state).await?, kind_of(&kind)?, &key, form.body)?;
    let now = Utc::now();
    if !state.db.save_content_draft(&key, &body, &staff.id, now).await? {
        return Err(ApiError::NotFound);
    }
    Ok(Json(DraftSaved { draft_saved_at: now.to_rfc3339() }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct DraftSaved {
    draft_saved_at: String,
}

/// `DELETE /api/admin/content/{kind}/{key}/draft`.
pub async fn discard_draft(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((kind, key)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    if state.db.discard_content_draft(kind_of(&kind)?, &key, &staff.id, Utc::now()).await? {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(ApiError::NotFound)
    }
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct NewDocument {
    key: String,
    body: serde_json::Value,
}

/// `POST /api/admin/content/{kind}`: a new document, published at once.
pub async fn create_content(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path(kind): Path<String>,
    JsonBody(form): JsonBody<NewDocument>,
) -> Result<Response, ApiError> {
    let kind = kind_of(&kind)?;
    if kind == ContentKind::Site {
        return Err(ApiError::Conflict("The site has one set of site data: edit it.".to_owned()));
    }
    if !key_is_valid(kind, &form.key) {
        return Err(ApiError::field("key", "Use lower-case letters, digits and hyphens."));
    }
    if kind == ContentKind::Page && crate::pages::page_path(&form.key).is_none() {
        return Err(ApiError::field("key", "Another part of the site has this address: choose another."));
    }
    let images = images(&state).await?;
    let body = checked_body(&images, kind, &form.key, form.body)?;
    state.db.create_content(&form.key, &body, &images, &staff.id, Utc::now()).await?.map_err(refused)?;
    crate::notice_versions(&state, Utc::now()).await?;
    Ok((StatusCode::CREATED, Json(DocumentCreated { kind, key: form.key })).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct DocumentCreated {
    kind: ContentKind,
    key: String,
}

/// What a publish or revert answers, once this instance shows it.
async fn published(state: &AppState, kind: ContentKind, key: &str, version: i64) -> Result<Response, ApiError> {
    crate::notice_versions(state, Utc::now()).await?;
    let detail = state.db.content_document(kind, key).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(Published { version, path: path(&detail.summary) }).into_response())
}

/// The version now live, and where the site shows it.
#[derive(Serialize, TS)]
#[ts(export)]
struct Published {
    #[ts(type = "number")]
    version: i64,
    path: Option<String>,
}

/// `POST /api/admin/content/{kind}/{key}/publish`: the draft goes live on
/// every instance at their next version poll.
pub async fn publish_content(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((kind, key)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let kind = kind_of(&kind)?;
    let version = state
        .db
        .publish_content(kind, &key, ContentSource::Draft, &images(&state).await?, &staff.id, Utc::now())
        .await?
        .map_err(refused)?;
    published(&state, kind, &key, version).await
}

/// Whether the page with `slug` is one the site is built around (about,
/// contact, terms…), which stays on the site.
fn is_fixed(kind: ContentKind, key: &str) -> bool {
    kind == ContentKind::Page && crate::pages::is_fixed_page(key)
}

/// Whether document `key` with `body` may be taken off the site: what its
/// projection can take off (not the site data or a section), and not a
/// page the site is built around.
fn may_withdraw(key: &str, body: &ContentBody) -> bool {
    enrol_db::content::projection::withdraw(key, body).is_some() && !is_fixed(body.kind(), key)
}

/// `POST /api/admin/content/{kind}/{key}/withdraw`: the document is taken
/// off the site as its next version; publishing it again puts it back.
/// The pages the site is built around (about, contact, terms…) stay.
pub async fn withdraw_content(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((kind, key)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let kind = kind_of(&kind)?;
    if is_fixed(kind, &key) {
        return Err(ApiError::Conflict("The site is built around this page: edit it instead.".to_owned()));
    }
    let version = state.db.withdraw_content(kind, &key, &staff.id, Utc::now()).await?.map_err(refused)?;
    published(&state, kind, &key, version).await
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct RevertForm {
    #[ts(type = "number")]
    version: i64,
}

/// `POST /api/admin/content/{kind}/{key}/revert`: an earlier revision's
/// body published again, as the next version.
pub async fn revert_content(
    State(state): State<Arc<AppState>>,
    staff: Staff,
    Path((kind, key)): Path<(String, String)>,
    JsonBody(form): JsonBody<RevertForm>,
) -> Result<Response, ApiError> {
    let kind = kind_of(&kind)?;
    let version = state
        .db
        .publish_content(kind, &key, ContentSource::Revision(form.version), &images(&state).await?, &staff.id, Utc::now())
        .await?
        .map_err(refused)?;
    published(&state, kind, &key, version).await
}

/// `GET /api/admin/content/{kind}/{key}/preview`: the public page as it
/// will look with the draft (or, without one, the published body), to
/// staff only: rendered by the site's own loader and renderer from a
/// transaction that is rolled back. The back office shows it in a frame.
pub async fn preview_content(State(state): State<Arc<AppState>>, Path((kind, key)): Path<(String, String)>) -> Result<Response, ApiError> {
    let detail = state.db.content_document(kind_of(&kind)?, &key).await?.ok_or(ApiError::NotFound)?;
    let body = detail.draft.unwrap_or(detail.summary.body);
    let path = path_of(&key, &body).ok_or(ApiError::NotFound)?;
    let preview = state.db.preview(&key, &body, &images(&state).await?, Utc::now()).await?;
    let html = crate::http::pages::render_preview(&state, &preview, &path).await;
    preview.close().await;
    preview_page(html?)
}

/// A preview's page: never kept or indexed, framed by the back office only,
/// with no tool's host allowed, and sandboxed (decision 030): its scripts
/// run in an origin of their own, never as the staff member.
pub(super) fn preview_page(html: String) -> Result<Response, ApiError> {
    let policy = crate::http::content_security_policy(false, &TrackingConfig::default(), &[]);
    let policy = policy.to_str().context("The page policy is text")?.replace("frame-ancestors 'none'", "frame-ancestors 'self'");
    let policy = format!("{policy}; sandbox allow-scripts allow-forms");
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8".to_owned()),
        (header::CACHE_CONTROL, "no-store".to_owned()),
        (header::X_FRAME_OPTIONS, "SAMEORIGIN".to_owned()),
        (header::CONTENT_SECURITY_POLICY, policy),
        (header::HeaderName::from_static("x-robots-tag"), "noindex, nofollow".to_owned()),
    ];
    Ok((headers, html).into_response())
}

#[derive(Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct MarkdownForm {
    markdown: String,
}

/// `POST /api/admin/content/markdown`: the HTML the page will hold for
/// this Markdown (raw HTML escaped, unsafe links dropped), for the editor's
/// live preview.
pub async fn render_markdown(JsonBody(form): JsonBody<MarkdownForm>) -> Result<Response, ApiError> {
    Ok(Json(RenderedMarkdown { html: enrol_db::markdown_to_html(&form.markdown) }).into_response())
}

#[derive(Serialize, TS)]
#[ts(export)]
struct RenderedMarkdown {
    html: String,
}
