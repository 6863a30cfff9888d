//! `GET /api/account/certificates/{number}`: a student's certificate as the
//! PDF they keep (decision 021). Here the facts are gathered: the college's
//! logo from its site data, the course's accreditation from the
//! catalogue, the signatory (the first of the college's team, who leads
//! it) and the public page that confirms the certificate;
//! [`crate::print::certificate`] draws them.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;

use enrol_domain::evidence;

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::images::site_image_pixels;
use crate::http::student::{Student, kept_private};
use crate::print::certificate::{self, CertificateDocument, Signatory, logo_pixel_width};

/// `GET /api/account/certificates/{number}`: one of the caller's
/// certificates, as a PDF to keep.
#[utoipa::path(
    get,
    path = "/api/account/certificates/{number}",
    tag = "account",
    params(("number" = String, Path, description = "The certificate's number")),
    responses(
        (status = 200, description = "The certificate, as an attachment", content_type = "application/pdf"),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
        (status = 404, description = "No certificate of the caller's with that number", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn download_certificate(
    State(state): State<Arc<AppState>>,
    Student(record): Student,
    Path(number): Path<String>,
) -> Result<Response, ApiError> {
    let certificate =
        state.db.certificate_by_number(&number).await?.filter(|c| c.user_id == record.user.id && !c.revoked).ok_or(ApiError::NotFound)?;
    let college = state.db.college().await?.name;
    let catalogue = state.catalogue.get(&state.db, Utc::now()).await?;
    let accreditation = catalogue.course_by_id(&certificate.course_id)?.map(|course| course.accreditation);
    let signatory = state.db.team().await?.into_iter().next().map(|member| Signatory { name: member.name, role: member.role });
    let logo = match catalogue.site() {
        Some(site) => {
            let logo = &site.site.logo;
            let aspect = logo.width as f32 / logo.height.max(1) as f32;
            // A logo that cannot be drawn leaves the college's name in its place.
            site_image_pixels(&state, &logo.url, logo_pixel_width(aspect))
                .await
                .inspect_err(|error| tracing::warn!(error = %format!("{error:#}"), "The certificate is made without the logo"))
                .ok()
        }
        None => None,
    };
    let check_url = format!("{}/certificates/{}", state.config.public_url, certificate.number);
    let pdf = certificate::render(&CertificateDocument {
        college: &college,
        holder_name: &certificate.holder_name,
        course_title: &certificate.course_title,
        accreditation: accreditation.as_deref(),
        issued_on: certificate.issued_on,
        number: &certificate.number,
        check_url: &check_url,
        signatory: signatory.as_ref(),
        logo: logo.as_ref(),
    });
    let disposition = format!("attachment; filename=\"certificate-{}.pdf\"", evidence::file_name(&certificate.number));
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static("application/pdf")),
        (header::CONTENT_DISPOSITION, HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?),
    ];
    Ok(kept_private((headers, pdf).into_response()))
}
