//! In production the server's database role reads and writes rows only
//! (`ENROL_MIGRATIONS=check`); the tables' owner applies the migrations
//! (`enrol migrate`). So the server, or anyone who takes it over, cannot
//! drop the triggers that keep the audit log append-only.

use enrol_db::Migrations;
use serde_json::Value;

use crate::enrol_checkout::{execute, order, post, quote};
use crate::helpers::{Backend, TestApp, postgres_admin_url, spawn_app, test_config};

#[tokio::test]
async fn the_server_runs_as_a_role_that_may_change_rows_but_not_the_schema() {
    let Some(owner) = spawn_app(Backend::Postgres).await else { return };
    let role = format!("enrol_app_{}", uuid::Uuid::new_v4().simple());
    for grant in [
        format!("create role {role} login"),
        format!("grant usage on schema public to {role}"),
        format!("grant select, insert, update, delete on all tables in schema public to {role}"),
        format!("grant usage, select on all sequences in schema public to {role}"),
    ] {
        execute(&owner, &grant).await;
    }
    // The owner's server, host and database, with the role instead (trust authentication here).
    let (_, at) = owner.database_url.split_once('@').unwrap();
    let url = format!("postgres://{role}@{at}");

    // Applying migrations needs the owner; checking them does not.
    let applying = enrol_db::Db::connect(&url).await.err().map(|e| format!("{e:#}")).unwrap_or_default();
    assert!(applying.contains("permission denied"), "{applying}");
    let mut config = test_config(url.clone());
    config.migrations = Migrations::Check;
    let app = TestApp::with_config(config).await;
    assert_eq!(app.get("/healthz").await.status(), 200);
    let (status, placed): (u16, Value) =
        post(&app, "/api/enroll/", &order("chemical-peels-1", false, None, "card", &quote(false, None))).await;
    assert_eq!(status, 200, "the role books as the owner would: {placed}");

    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let dropped = sqlx::query("drop trigger audit_log_append_only on audit_log").execute(&pool).await.unwrap_err().to_string();
    assert!(dropped.contains("must be owner"), "{dropped}");
    pool.close().await;
    app.stop().await;

    // A build with a migration the owner has not applied refuses to start, and says what to run.
    execute(&owner, "delete from _sqlx_migrations where version = (select max(version) from _sqlx_migrations)").await;
    let missing = enrol_db::Db::connect_with(&url, Migrations::Check).await.err().map(|e| format!("{e:#}")).unwrap_or_default();
    assert!(missing.contains("lacks migrations") && missing.contains("enrol migrate"), "{missing}");
    owner.stop().await;
    let admin = sqlx::PgPool::connect(&postgres_admin_url()).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("drop role {role}"))).execute(&admin).await.unwrap();
}
