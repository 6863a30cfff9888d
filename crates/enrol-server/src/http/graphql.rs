//! `POST /api/graphql`: the account data (decision 014), called with
//! the signed-in user's bearer token or session cookie. Read-only: every
//! resolver reads the caller's own rows through `enrol_db`'s `*_of(user_id)`
//! reads, whatever ids a query passes. Depth and complexity are limited,
//! each list read from the database costing as much as 20 fields, so
//! aliases cannot multiply the database's work; each client's queries are
//! rate-limited; and in production neither introspection nor "did you
//! mean" suggestions tell anything of the schema.

use std::sync::Arc;

use async_graphql::{Context, EmptyMutation, EmptySubscription, ID, Object, Schema};
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

use enrol_domain::auth::UserData;
use enrol_domain::materials::BookingMaterial;
use enrol_domain::records::{
    Certificate, Cohort, Enrollment, IntakeCall, Invitation, Payment, Registration, StudentPlan, UploadRequest, UserForm,
};

use crate::AppState;
use crate::http::ApiError;
use crate::http::error::ErrorEnvelope;
use crate::http::json_body::JsonBody;
use crate::http::student::Student;

pub type AccountSchema = Schema<Query, EmptyMutation, EmptySubscription>;

/// The deepest nesting a query may have, and the most it may cost: a
/// field costs 1, and a list read from the database 20, so a query reads
/// at most eleven lists however it names them (every list once, with all
/// their fields, costs about 235). The account area's queries need depth
/// 3 and at most three lists (about 80).
const MAX_DEPTH: usize = 6;
const MAX_COMPLEXITY: usize = 250;

/// The schema, built once with the routes; introspection and suggestions
/// only outside production.
pub fn schema(production: bool) -> AccountSchema {
    let builder = Schema::build(Query, EmptyMutation, EmptySubscription).limit_depth(MAX_DEPTH).limit_complexity(MAX_COMPLEXITY);
    if production { builder.disable_introspection().disable_suggestions() } else { builder }.finish()
}

/// Whose data a query reads: the signed-in user, found by the server.
struct Caller(UserData);

/// What the resolvers answer when the database fails: details only in the logs.
fn internal(error: anyhow::Error) -> async_graphql::Error {
    tracing::error!(error = format!("{error:#}"), "An account data query failed");
    async_graphql::Error::new("Something went wrong on our side. Please try again.")
}

pub struct Query;

#[Object(rename_fields = "snake_case", rename_args = "snake_case")]
impl Query {
    /// The user by sign-in id: a list holding the caller when the id is
    /// theirs, empty for any other id (its first entry is `userData`).
    async fn user(&self, ctx: &Context<'_>, cognito_id: ID) -> Vec<UserData> {
        let Caller(user) = ctx.data_unchecked::<Caller>();
        if *cognito_id == user.cognito_id { vec![user.clone()] } else { Vec::new() }
    }

    #[graphql(complexity = "20 + child_complexity")]
    async fn registrations(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Registration>> {
        db(ctx).registrations_of(caller_id(ctx), enrol_domain::london::today(chrono::Utc::now())).await.map_err(internal)
    }

    #[graphql(complexity = "20 + child_complexity")]
    async fn enrollments(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Enrollment>> {
        db(ctx).enrollments_of(caller_id(ctx)).await.map_err(internal)
    }

    #[graphql(complexity = "20 + child_complexity")]
    async fn payments(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Payment>> {
        db(ctx).payments_of(caller_id(ctx)).await.map_err(internal)
    }

    #[graphql(complexity = "20 + child_complexity")]
    async fn certificates(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Certificate>> {
        db(ctx).certificates_of(caller_id(ctx)).await.map_err(internal)
    }

    /// Forms the caller's courses need, with their answers.
    #[graphql(complexity = "20 + child_complexity")]
    async fn forms(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<UserForm>> {
        db(ctx).forms_of(caller_id(ctx)).await.map_err(internal)
    }

    /// Evidence the caller's courses ask for, with the files sent.
    #[graphql(complexity = "20 + child_complexity")]
    async fn uploads(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<UploadRequest>> {
        db(ctx).upload_requests_of(caller_id(ctx)).await.map_err(internal)
    }

    /// Documents, videos and links of the courses the caller's paid bookings hold seats on (decision 035).
    #[graphql(complexity = "20 + child_complexity")]
    async fn materials(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<BookingMaterial>> {
        db(ctx).materials_of(caller_id(ctx)).await.map_err(internal)
    }

    /// The instalment plans paying the caller's bookings (decision 036).
    #[graphql(complexity = "20 + child_complexity")]
    async fn payment_plans(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<StudentPlan>> {
        db(ctx).plans_of(caller_id(ctx)).await.map_err(internal)
    }

    #[graphql(complexity = "20 + child_complexity")]
    async fn cohorts(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Cohort>> {
        db(ctx).cohorts_of(caller_id(ctx)).await.map_err(internal)
    }

    #[graphql(complexity = "20 + child_complexity")]
    async fn intake_calls(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<IntakeCall>> {
        db(ctx).intake_calls_of(caller_id(ctx)).await.map_err(internal)
    }

    #[graphql(complexity = "20 + child_complexity")]
    async fn invitations(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Invitation>> {
        db(ctx).invitations_of(caller_id(ctx)).await.map_err(internal)
    }
}

fn db<'a>(ctx: &Context<'a>) -> &'a enrol_db::Db {
    &ctx.data_unchecked::<Arc<AppState>>().db
}

fn caller_id<'a>(ctx: &Context<'a>) -> &'a str {
    &ctx.data_unchecked::<Caller>().0.id
}

/// `POST /api/graphql`: the signed-in user's account data.
#[utoipa::path(
    post,
    path = "/api/graphql",
    tag = "accounts",
    request_body(content = Object, description = "A GraphQL request: `query`, optional `variables` and `operationName`",
        example = json!({ "query": "query UserData($id: ID!) { user(cognito_id: $id) { id email given_name } }", "variables": { "id": "…" } })),
    responses(
        (status = 200, description = "The GraphQL answer: `data`, and `errors` for a query that is invalid, too deep or too complex", body = Object),
        (status = 400, description = "Not JSON of this shape", body = ErrorEnvelope),
        (status = 401, description = "Not signed in (`unauthorized`)", body = ErrorEnvelope),
    )
)]
#[tracing::instrument(skip_all)]
pub async fn query_account_data(
    State(state): State<Arc<AppState>>,
    Extension(schema): Extension<AccountSchema>,
    Student(record): Student,
    JsonBody(request): JsonBody<async_graphql::Request>,
) -> Result<Response, ApiError> {
    let request = request.data(Caller(record.user)).data(Arc::clone(&state));
    let answer = schema.execute(request).await;
    let mut response = Json(answer).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::schema;

    #[tokio::test]
    async fn production_does_not_describe_the_schema() {
        let query = "{ __schema { queryType { name } } }";
        let development = schema(false).execute(query).await;
        assert!(development.errors.is_empty(), "{:?}", development.errors);
        assert_eq!(development.data.into_json().unwrap()["__schema"]["queryType"]["name"], "Query");
        let production = schema(true).execute(query).await;
        assert_eq!(production.data.into_json().unwrap()["__schema"], serde_json::Value::Null, "nothing of the schema is told");
        let misspelt = "{ registration { id } }";
        let told = |answer: async_graphql::Response| answer.errors.iter().map(|e| e.message.clone()).collect::<Vec<_>>().join(" ");
        assert!(told(schema(false).execute(misspelt).await).contains("Did you mean"), "development suggests");
        let production = told(schema(true).execute(misspelt).await);
        assert!(production.contains("Unknown field") && !production.contains("registrations"), "{production}");
    }

    #[tokio::test]
    async fn aliases_cannot_multiply_the_database_reads() {
        // Refused before any resolver runs (none could: there is no caller here).
        let aliased = format!("{{ {} }}", (0..12).map(|n| format!("r{n}: registrations {{ id }}")).collect::<Vec<_>>().join(" "));
        let errors = schema(true).execute(aliased.as_str()).await.errors;
        assert_eq!(errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>(), ["Query is too complex."]);
    }
}
