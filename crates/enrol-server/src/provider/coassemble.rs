//! Coassemble's headless API (developers.coassemble.com; decision 029 says
//! what was read there and what is assumed): a signed embed address for a
//! learner's course, and the signed `course.completed` webhook.

use std::time::Duration;

use anyhow::Context as _;
use async_trait::async_trait;
use axum::http::HeaderMap;
use reqwest::Url;
use serde::Deserialize;
use serde_json::{Value, json};

use enrol_domain::learning::provider::ProviderCourse;
use enrol_payments::signature;

use super::{Completion, Learner, LearningProvider, ProviderError, WebhookRefused, own_address};

/// Coassemble's API base, unless `ENROL_COASSEMBLE_URL` names another.
pub const DEFAULT_API_URL: &str = "https://api.coassemble.com";
/// The host its launch addresses are on (workspaces are its subdomains).
pub const DEFAULT_LAUNCH_HOST: &str = "coassemble.com";
/// How long a launch waits for Coassemble before telling the student to
/// try again.
const TIMEOUT: Duration = Duration::from_secs(10);

/// `ENROL_COASSEMBLE_*`. The key and the webhook secret come from the
/// environment only and never reach the logs.
#[derive(Clone)]
pub struct CoassembleConfig {
    /// `ENROL_COASSEMBLE_URL`, default [`DEFAULT_API_URL`].
    pub api_url: String,
    /// `ENROL_COASSEMBLE_WORKSPACE_ID`.
    pub workspace_id: String,
    /// `ENROL_COASSEMBLE_API_KEY`: it turns the provider on.
    pub api_key: String,
    /// `ENROL_COASSEMBLE_WEBHOOK_SECRET`: the webhook endpoint's signing
    /// secret; without it `/webhooks/coassemble` is not served.
    pub webhook_secret: Option<String>,
    /// `ENROL_COASSEMBLE_LAUNCH_HOST`, default [`DEFAULT_LAUNCH_HOST`].
    pub launch_host: String,
}

impl std::fmt::Debug for CoassembleConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Coassemble({}, workspace {}, launches on {})", self.api_url, self.workspace_id, self.launch_host)
    }
}

impl CoassembleConfig {
    /// `None` without `ENROL_COASSEMBLE_API_KEY`; with it, the workspace
    /// must be named too. The other settings alone are a mistake.
    pub fn from_lookup(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Option<Self>> {
        let set = |key: &str| get(key).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let Some(api_key) = set("ENROL_COASSEMBLE_API_KEY") else {
            for key in ["ENROL_COASSEMBLE_WORKSPACE_ID", "ENROL_COASSEMBLE_WEBHOOK_SECRET", "ENROL_COASSEMBLE_URL"] {
                anyhow::ensure!(set(key).is_none(), "{key} is set: set ENROL_COASSEMBLE_API_KEY too, or neither");
            }
            return Ok(None);
        };
        let workspace_id =
            set("ENROL_COASSEMBLE_WORKSPACE_ID").context("ENROL_COASSEMBLE_API_KEY is set: set ENROL_COASSEMBLE_WORKSPACE_ID too")?;
        let api_url = set("ENROL_COASSEMBLE_URL").unwrap_or_else(|| DEFAULT_API_URL.to_owned()).trim_end_matches('/').to_owned();
        anyhow::ensure!(
            api_url.starts_with("https://") || api_url.starts_with("http://"),
            "ENROL_COASSEMBLE_URL must be an http(s) address, not {api_url:?}"
        );
        let launch_host = set("ENROL_COASSEMBLE_LAUNCH_HOST").unwrap_or_else(|| DEFAULT_LAUNCH_HOST.to_owned()).to_ascii_lowercase();
        anyhow::ensure!(
            launch_host.contains('.') && launch_host.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')),
            "ENROL_COASSEMBLE_LAUNCH_HOST must be a host name like coassemble.com, not {launch_host:?}"
        );
        Ok(Some(CoassembleConfig { api_url, workspace_id, api_key, webhook_secret: set("ENROL_COASSEMBLE_WEBHOOK_SECRET"), launch_host }))
    }
}

pub struct Coassemble {
    config: CoassembleConfig,
    client: reqwest::Client,
}

impl Coassemble {
    pub fn new(config: CoassembleConfig) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder().timeout(TIMEOUT).build().context("Failed to build the Coassemble client")?;
        Ok(Coassemble { config, client })
    }

    /// The documented header: the workspace and its key, the whole value.
    fn authorization(&self) -> String {
        format!("COASSEMBLE:{}:{}", self.config.workspace_id, self.config.api_key)
    }
}

/// The signed address in Coassemble's answer: its own demo uses the body
/// itself (a JSON string); an object's `url` is taken too.
fn address_in(body: &str) -> Option<String> {
    match serde_json::from_str::<Value>(body) {
        Ok(Value::String(url)) => Some(url),
        Ok(Value::Object(object)) => object.get("url").and_then(Value::as_str).map(str::to_owned),
        Ok(_) => None,
        Err(_) => Some(body.trim().to_owned()).filter(|text| !text.is_empty()),
    }
}

#[async_trait]
impl LearningProvider for Coassemble {
    #[tracing::instrument(skip_all, fields(course = %course.course))]
    async fn launch_address(&self, course: &ProviderCourse, learner: Learner<'_>) -> Result<Url, ProviderError> {
        // Coassemble's course ids are numbers, and the content was checked so.
        let course_id: u64 = course.course.parse().map_err(|_| ProviderError::Refused(format!("course id {:?}", course.course)))?;
        let mut body = json!({ "action": "view", "courseId": course_id, "identifier": learner.id });
        if let Some(group) = &course.group {
            body["clientIdentifier"] = json!(group);
        }
        let response = self
            .client
            .post(format!("{}/api/v1/headless/embed/course", self.config.api_url))
            .header(reqwest::header::AUTHORIZATION, self.authorization())
            .header(reqwest::header::ACCEPT, "application/json")
            .json(&body)
            .send()
            .await
            .map_err(|error| ProviderError::Unavailable(error.without_url().to_string()))?;
        let status = response.status();
        let text = response.text().await.map_err(|error| ProviderError::Unavailable(error.without_url().to_string()))?;
        let said: String = text.chars().take(200).collect();
        if status.is_server_error() {
            return Err(ProviderError::Unavailable(format!("{status}: {said}")));
        }
        if !status.is_success() {
            return Err(ProviderError::Refused(format!("{status}: {said}")));
        }
        let address = address_in(&text).ok_or_else(|| ProviderError::Unavailable(format!("no address in {said:?}")))?;
        own_address(&address, &self.config.launch_host)
    }

    fn takes_webhooks(&self) -> bool {
        self.config.webhook_secret.is_some()
    }

    fn completion(&self, headers: &HeaderMap, body: &[u8], now: i64) -> Result<Option<Completion>, WebhookRefused> {
        let secret = self.config.webhook_secret.as_deref().ok_or_else(|| WebhookRefused::Signature("no secret is configured".into()))?;
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default();
        let timestamp: i64 = header("x-coassemble-timestamp")
            .parse()
            .map_err(|_| WebhookRefused::Signature("X-Coassemble-Timestamp is not a number".into()))?;
        let tag = header("x-coassemble-signature")
            .strip_prefix("sha256=")
            .ok_or_else(|| WebhookRefused::Signature("X-Coassemble-Signature is not sha256=<hex>".into()))?;
        signature::verify_tag(tag, timestamp, body, secret, now).map_err(|e| WebhookRefused::Signature(e.to_string()))?;
        let event: Event = serde_json::from_slice(body).map_err(|e| WebhookRefused::Malformed(e.to_string()))?;
        if event.kind != "course.completed" {
            return Ok(None);
        }
        let data = event.data.ok_or_else(|| WebhookRefused::Malformed("a course.completed event without its data".into()))?;
        let course = match data.course.id {
            Value::Number(id) => id.to_string(),
            Value::String(id) => id,
            other => return Err(WebhookRefused::Malformed(format!("course id {other}"))),
        };
        Ok(Some(Completion { learner: data.tracking.identifier, course }))
    }

    fn launch_origins(&self) -> Vec<String> {
        let host = &self.config.launch_host;
        vec![format!("https://{host}"), format!("https://*.{host}")]
    }
}

/// What Enrol reads of a webhook delivery's body.
#[derive(Deserialize)]
struct Event {
    #[serde(rename = "type")]
    kind: String,
    data: Option<EventData>,
}

#[derive(Deserialize)]
struct EventData {
    course: EventCourse,
    tracking: EventTracking,
}

#[derive(Deserialize)]
struct EventCourse {
    id: Value,
}

#[derive(Deserialize)]
struct EventTracking {
    identifier: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |key| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_owned())
    }

    #[test]
    fn the_key_turns_it_on_and_needs_its_workspace() {
        assert!(CoassembleConfig::from_lookup(&lookup(&[])).unwrap().is_none());
        let config =
            CoassembleConfig::from_lookup(&lookup(&[("ENROL_COASSEMBLE_API_KEY", "k3y"), ("ENROL_COASSEMBLE_WORKSPACE_ID", "1234")]))
                .unwrap()
                .unwrap();
        assert_eq!((config.api_url.as_str(), config.launch_host.as_str()), (DEFAULT_API_URL, DEFAULT_LAUNCH_HOST));
        assert!(!format!("{config:?}").contains("k3y"), "the key never reaches the logs");
        let error = CoassembleConfig::from_lookup(&lookup(&[("ENROL_COASSEMBLE_API_KEY", "k3y")])).unwrap_err();
        assert!(error.to_string().contains("ENROL_COASSEMBLE_WORKSPACE_ID"), "{error}");
        let error = CoassembleConfig::from_lookup(&lookup(&[("ENROL_COASSEMBLE_WEBHOOK_SECRET", "s")])).unwrap_err();
        assert!(error.to_string().contains("ENROL_COASSEMBLE_API_KEY"), "{error}");
    }

    #[test]
    fn the_address_is_read_as_a_json_string_an_object_or_text() {
        assert_eq!(address_in(r#""https://a.coassemble.com/x""#).as_deref(), Some("https://a.coassemble.com/x"));
        assert_eq!(address_in(r#"{"url": "https://a.coassemble.com/y"}"#).as_deref(), Some("https://a.coassemble.com/y"));
        assert_eq!(address_in("https://a.coassemble.com/z\n").as_deref(), Some("https://a.coassemble.com/z"));
        assert_eq!(address_in(r#"{"error": "nope"}"#), None);
        assert_eq!(address_in(""), None);
    }
}
