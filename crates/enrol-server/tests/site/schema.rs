//! The twin migrations (`migrations/sqlite`, `migrations/postgres`) kept in
//! step: both databases, migrated from empty, have the same tables, columns,
//! nullability, keys, unique constraints and named checks.

use std::collections::{BTreeMap, BTreeSet};

use sqlx::Row as _;

use crate::helpers::{Backend, fresh_database};

/// Each engine's own: full-text search, FTS5 tables in SQLite (the site's
/// search, the order search's trigrams), a `tsvector` column and a trigram
/// index in PostgreSQL; and the order references' counter, a row in SQLite,
/// a sequence in PostgreSQL (migration 0046).
const ENGINE_OWN: [&str; 3] = ["search_document", "enrollment_search", "order_reference_number"];

/// One database's shape, in terms both engines share.
#[derive(Debug, Default, PartialEq, Eq)]
struct Schema {
    /// Table → column → (type family, nullable).
    columns: BTreeMap<String, BTreeMap<String, (&'static str, bool)>>,
    /// (table, primary key columns).
    primary_keys: BTreeSet<(String, Vec<String>)>,
    /// (table, column, referenced table, referenced column).
    foreign_keys: BTreeSet<(String, String, String, String)>,
    /// (table, columns, partial): unique constraints and unique indexes.
    uniques: BTreeSet<(String, Vec<String>, bool)>,
    /// (table, constraint name) of every check.
    checks: BTreeSet<(String, String)>,
}

/// What a column's declared type can hold, across the engines. SQLite keeps
/// times and dates as ISO 8601 text.
fn family(declared: &str) -> &'static str {
    match declared.to_ascii_lowercase().as_str() {
        "text" | "character varying" | "timestamp with time zone" | "timestamp without time zone" | "date" => "text",
        "integer" | "bigint" | "smallint" | "int" => "integer",
        "boolean" => "boolean",
        "real" | "double precision" | "numeric" => "real",
        "blob" | "bytea" => "blob",
        _ => "other",
    }
}

fn is_compared(table: &str) -> bool {
    !table.starts_with("sqlite_") && !table.starts_with("_sqlx") && !ENGINE_OWN.iter().any(|own| table.starts_with(own))
}

/// The names of the checks in a `create table` statement (SQLite keeps
/// them only in its text); every check must be named, as in PostgreSQL.
fn named_checks(table: &str, sql: &str) -> Vec<String> {
    let words: Vec<String> = sql
        .to_ascii_lowercase()
        .replace('(', " ( ")
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    let checks = words.windows(2).filter(|w| w[0] == "check" && w[1] == "(").count();
    let names: Vec<String> =
        words.windows(3).filter(|w| w[0] == "constraint" && w[2] == "check").map(|w| w[1].trim_matches('"').to_owned()).collect();
    assert_eq!(names.len(), checks, "every check of {table} is named");
    names
}

async fn sqlite_schema(url: &str) -> Schema {
    let pool = sqlx::SqlitePool::connect(url).await.expect("SQLite");
    let mut schema = Schema::default();
    let tables: Vec<(String, String)> =
        sqlx::query_as("select name, sql from sqlite_master where type = 'table' order by name").fetch_all(&pool).await.unwrap();
    for (table, sql) in tables.into_iter().filter(|(t, _)| is_compared(t)) {
        schema.checks.extend(named_checks(&table, &sql).into_iter().map(|name| (table.clone(), name)));

        let mut key: Vec<(i64, String)> = Vec::new();
        for row in sqlx::query(sqlx::AssertSqlSafe(format!("pragma table_info({table})"))).fetch_all(&pool).await.unwrap() {
            let (name, declared, not_null, pk): (String, String, bool, i64) =
                (row.get("name"), row.get("type"), row.get("notnull"), row.get("pk"));
            schema.columns.entry(table.clone()).or_default().insert(name.clone(), (family(&declared), !not_null && pk == 0));
            if pk > 0 {
                key.push((pk, name));
            }
        }
        key.sort();
        schema.primary_keys.insert((table.clone(), key.into_iter().map(|(_, c)| c).collect()));

        for row in sqlx::query(sqlx::AssertSqlSafe(format!("pragma foreign_key_list({table})"))).fetch_all(&pool).await.unwrap() {
            let (to_table, from, to): (String, String, Option<String>) = (row.get("table"), row.get("from"), row.get("to"));
            // `references t` without a column means t's primary key.
            let to = match to {
                Some(to) => to,
                None => sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select name from pragma_table_info('{to_table}') where pk = 1")))
                    .fetch_one(&pool)
                    .await
                    .unwrap(),
            };
            schema.foreign_keys.insert((table.clone(), from, to_table, to));
        }

        for row in sqlx::query(sqlx::AssertSqlSafe(format!("pragma index_list({table})"))).fetch_all(&pool).await.unwrap() {
            let (index, unique, origin, partial): (String, bool, String, bool) =
                (row.get("name"), row.get("unique"), row.get("origin"), row.get("partial"));
            if !unique || origin == "pk" {
                continue;
            }
            let mut columns: Vec<String> =
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!("select name from pragma_index_info('{index}')")))
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            columns.sort();
            schema.uniques.insert((table.clone(), columns, partial));
        }
    }
    pool.close().await;
    schema
}

/// A PostgreSQL constraint: table, kind (`p`, `f`, `u`, `c`), name,
/// columns in key order, referenced table and columns.
type ConstraintRow = (String, String, String, Vec<String>, Option<String>, Vec<String>);

async fn postgres_schema(url: &str) -> Schema {
    let pool = sqlx::PgPool::connect(url).await.expect("PostgreSQL");
    let mut schema = Schema::default();
    let columns: Vec<(String, String, String, String)> = sqlx::query_as(
        "select table_name::text, column_name::text, data_type::text, is_nullable::text from information_schema.columns \
         where table_schema = 'public' and is_generated = 'NEVER' order by table_name, ordinal_position",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for (table, column, declared, nullable) in columns.into_iter().filter(|(t, ..)| is_compared(t)) {
        schema.columns.entry(table).or_default().insert(column, (family(&declared), nullable == "YES"));
    }

    // Keys, uniques and checks from the catalogue.
    let constraints: Vec<ConstraintRow> = sqlx::query_as(
        "select t.relname::text, c.contype::text, c.conname::text, \
           array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) \
                 join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i), \
           r.relname::text, \
           array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i) \
                 join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) \
         from pg_constraint c join pg_class t on t.oid = c.conrelid left join pg_class r on r.oid = c.confrelid \
         join pg_namespace n on n.oid = t.relnamespace where n.nspname = 'public' and c.contype in ('p', 'f', 'u', 'c')",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for (table, kind, name, mut columns, referenced, referenced_columns) in constraints.into_iter().filter(|(t, ..)| is_compared(t)) {
        match kind.as_str() {
            "p" => {
                schema.primary_keys.insert((table, columns));
            }
            "f" => {
                let referenced = referenced.expect("a foreign key references a table");
                for (from, to) in columns.into_iter().zip(referenced_columns) {
                    schema.foreign_keys.insert((table.clone(), from, referenced.clone(), to));
                }
            }
            "u" => {
                columns.sort();
                schema.uniques.insert((table, columns, false));
            }
            _ => {
                schema.checks.insert((table, name));
            }
        }
    }
    let unique_indexes: Vec<(String, Vec<String>, bool)> = sqlx::query_as(
        "select t.relname::text, \
           array(select a.attname::text from unnest(ix.indkey) k(n) join pg_attribute a on a.attrelid = t.oid and a.attnum = k.n \
                 order by a.attname), \
           ix.indpred is not null \
         from pg_index ix join pg_class t on t.oid = ix.indrelid join pg_namespace n on n.oid = t.relnamespace \
         where n.nspname = 'public' and ix.indisunique and not ix.indisprimary \
           and not exists (select 1 from pg_constraint c where c.conindid = ix.indexrelid)",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    schema.uniques.extend(unique_indexes.into_iter().filter(|(t, ..)| is_compared(t)));
    // SQLite cannot have a table without a primary key row in `primary_keys`
    // (it records an empty one); give PostgreSQL's keyless tables the same.
    for table in schema.columns.keys() {
        if !schema.primary_keys.iter().any(|(t, _)| t == table) {
            schema.primary_keys.insert((table.clone(), Vec::new()));
        }
    }
    pool.close().await;
    schema
}

/// Each difference as a line: what one engine has that the other lacks.
fn differences<T: Ord + std::fmt::Debug>(what: &str, sqlite: &BTreeSet<T>, postgres: &BTreeSet<T>) -> Vec<String> {
    let only = |a: &BTreeSet<T>, b: &BTreeSet<T>, engine: &str| {
        a.difference(b).map(|item| format!("{what} only in {engine}: {item:?}")).collect::<Vec<_>>()
    };
    [only(sqlite, postgres, "SQLite"), only(postgres, sqlite, "PostgreSQL")].concat()
}

fn flat_columns(schema: &Schema) -> BTreeSet<(String, String, &'static str, bool)> {
    schema
        .columns
        .iter()
        .flat_map(|(table, columns)| columns.iter().map(move |(column, &(family, null))| (table.clone(), column.clone(), family, null)))
        .collect()
}

#[tokio::test]
async fn both_databases_migrate_to_the_same_tables_columns_and_constraints() {
    let sqlite_db = fresh_database(Backend::Sqlite).await.expect("SQLite");
    enrol_db::Db::connect(&sqlite_db.url).await.expect("SQLite migrates").close().await;
    let sqlite = sqlite_schema(&sqlite_db.url).await;
    sqlite_db.drop_now().await;
    let Some(postgres_db) = fresh_database(Backend::Postgres).await else { return };
    enrol_db::Db::connect(&postgres_db.url).await.expect("PostgreSQL migrates").close().await;
    let postgres = postgres_schema(&postgres_db.url).await;
    postgres_db.drop_now().await;

    assert!(sqlite.columns.len() >= 30, "the migrations made {} tables", sqlite.columns.len());
    assert!(!sqlite.foreign_keys.is_empty() && !sqlite.uniques.is_empty() && !sqlite.checks.is_empty(), "{sqlite:?}");
    let drift = [
        differences("column (table, column, type, nullable)", &flat_columns(&sqlite), &flat_columns(&postgres)),
        differences("primary key", &sqlite.primary_keys, &postgres.primary_keys),
        differences("foreign key", &sqlite.foreign_keys, &postgres.foreign_keys),
        differences("unique", &sqlite.uniques, &postgres.uniques),
        differences("check", &sqlite.checks, &postgres.checks),
    ]
    .concat();
    assert!(drift.is_empty(), "the twin migrations differ:\n{}", drift.join("\n"));
}

#[test]
fn checks_are_read_by_name_from_sqlites_text() {
    let sql = "create table t (a text not null constraint t_a_known check (a in ('x', 'y')), b integer, \
               constraint t_b_positive check(b > 0))";
    assert_eq!(named_checks("t", sql), ["t_a_known", "t_b_positive"]);
}

#[test]
#[should_panic(expected = "every check of t is named")]
fn an_unnamed_check_is_refused() {
    named_checks("t", "create table t (a integer check (a > 0))");
}

#[test]
fn type_families_match_across_the_engines() {
    assert_eq!(family("TEXT"), family("timestamp with time zone"));
    assert_eq!(family("bigint"), family("integer"));
    assert_ne!(family("integer"), family("text"));
    assert_ne!(family("boolean"), family("integer"));
}
