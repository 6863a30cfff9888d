//! The OpenAPI document at `/api/openapi.json` (decision 010): it describes
//! every route of the JSON API the router mounts, no more and no less, and
//! every refusal it documents is the one error envelope.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::Value;

use crate::helpers::{Backend, TestApp, spawn_app};

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// The /api paths the router mounts. axum lists its routes only in its
/// `Debug` output, where each path is a quoted string; its own nesting
/// routes (`__private__axum…`) are left out, and so is the back office's
/// API, which only its own pages call (decision 017 describes it).
fn mounted_paths(app: &TestApp) -> BTreeSet<String> {
    let router = format!("{:?}", enrol_server::http::router(Arc::clone(&app.state)));
    router
        .match_indices("\"/api/")
        .filter_map(|(at, _)| router[at + 1..].split('"').next())
        .filter(|path| !path.contains("__private__axum") && !path.starts_with("/api/admin/"))
        .map(str::to_owned)
        .collect()
}

/// The methods the server answers on `path` with something other than 405.
async fn mounted_methods(app: &TestApp, path: &str) -> Vec<&'static str> {
    let concrete: String =
        path.split('/').map(|segment| if segment.starts_with('{') { "x" } else { segment }).collect::<Vec<_>>().join("/");
    let mut methods = Vec::new();
    for method in METHODS {
        let response = app
            .client
            .request(method.to_uppercase().parse().unwrap(), app.url(&concrete))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .expect("request");
        if response.status().as_u16() != 405 {
            methods.push(method);
        }
    }
    methods
}

/// Every `$ref` in `value`.
fn refs<'a>(value: &'a Value, found: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                found.push(target);
            }
            map.values().for_each(|v| refs(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, found)),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_describes_every_api_route_and_nothing_else() {
    let app = spawn_app(Backend::Sqlite).await.expect("SQLite is always available");
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let doc: Value = response.json().await.expect("the document is JSON");
    assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.1")), "{}", doc["openapi"]);

    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .flat_map(|(path, item)| METHODS.iter().filter(|m| item.get(**m).is_some()).map(move |m| ((*m).to_owned(), path.clone())))
        .collect();
    let paths = mounted_paths(&app);
    assert!(paths.contains("/api/openapi.json") && paths.contains("/api/enroll/"), "the router's routes were not found: {paths:?}");
    let mut mounted = BTreeSet::new();
    for path in &paths {
        for method in mounted_methods(&app, path).await {
            mounted.insert((method.to_owned(), path.clone()));
        }
    }
    let undocumented: Vec<_> = mounted.difference(&documented).collect();
    let unmounted: Vec<_> = documented.difference(&mounted).collect();
    assert!(undocumented.is_empty(), "routes missing from ApiDoc (http/openapi.rs): {undocumented:?}");
    assert!(unmounted.is_empty(), "documented but not mounted: {unmounted:?}");

    // Each call answers JSON, but for the account's files and the
    // documents a student keeps, which are of their own type; each refusal
    // is the error envelope (the page data's 404 is the not-found page's
    // data); writes document the guard.
    const DOWNLOADS: [(&str, &str); 5] = [
        ("/api/account/uploads/{id}", "application/octet-stream"),
        ("/api/account/certificates/{number}", "application/pdf"),
        ("/api/account/receipts/{number}", "text/html"),
        ("/api/receipts/{number}", "text/html"),
        ("/api/enrollments/{id}/calendar.ics", "text/calendar"),
    ];
    for (method, path) in &documented {
        let responses = doc["paths"][path][method]["responses"].as_object().expect("responses");
        let success = responses.iter().find(|(status, _)| status.starts_with('2')).expect("a 2xx answer");
        let media = DOWNLOADS.iter().find(|(download, _)| download == path).map_or("application/json", |(_, media)| media);
        assert!(success.1["content"][media].is_object(), "{method} {path}: a {media} body");
        assert_eq!(responses["500"]["$ref"], "#/components/responses/Internal", "{method} {path}");
        if method != "get" {
            assert_eq!(responses["403"]["$ref"], "#/components/responses/CrossSite", "{method} {path}");
            assert_eq!(responses["415"]["$ref"], "#/components/responses/NotJson", "{method} {path}");
        }
        for (status, response) in responses.iter().filter(|(status, _)| status.starts_with(['4', '5'])) {
            if (path.as_str(), status.as_str()) == ("/api/page-data", "404") || response.get("$ref").is_some() {
                continue;
            }
            assert_eq!(
                response["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/ErrorEnvelope",
                "{method} {path} {status}"
            );
        }
    }

    // Every reference resolves.
    let mut targets = Vec::new();
    refs(&doc, &mut targets);
    assert!(targets.len() > 50);
    for target in targets {
        let pointer = target.strip_prefix('#').expect("a local reference");
        assert!(doc.pointer(pointer).is_some(), "{target} is not in the document");
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_query_the_handler_cannot_read_is_answered_in_the_error_envelope() {
    let app = spawn_app(Backend::Sqlite).await.expect("SQLite is always available");
    let response = app.get("/api/page-data").await;
    assert_eq!(response.status().as_u16(), 400);
    assert_eq!(response.headers()["content-type"], "application/json");
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"]["code"], "bad_request");
    assert!(error["error"]["message"].as_str().unwrap().contains("path"), "{error}");
    app.stop().await;
}
