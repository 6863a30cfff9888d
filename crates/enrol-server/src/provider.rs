//! Hosted LMS providers (decision 029): a college whose online course lives
//! in a hosted LMS names the provider's course in the course's content; the
//! player asks the provider, through this interface, where the student
//! studies it, and the provider's completion webhook completes the course.
//! One adapter, Coassemble's headless API ([`coassemble`]). The built-in
//! player never reaches this module.

use std::sync::Arc;

use async_trait::async_trait;
use axum::http::HeaderMap;
use reqwest::Url;

use enrol_domain::learning::provider::ProviderCourse;

pub mod coassemble;

/// The student a launch address is asked for: the provider knows them by
/// `id`, the Enrol account's own, so an address changed later changes
/// nothing there.
#[derive(Debug, Clone, Copy)]
pub struct Learner<'a> {
    pub id: &'a str,
}

/// Why the provider gave no launch address.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// Down, slow, or a server error there: try again later.
    #[error("the provider did not answer: {0}")]
    Unavailable(String),
    /// It refused the request (its status and words, for the logs).
    #[error("the provider refused the request: {0}")]
    Refused(String),
    /// It answered with an address that is not https on its own host.
    #[error("the provider answered with an address that is not its own: {0:?}")]
    ForeignAddress(String),
}

/// A learner's completion of a provider's course, as its webhook reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The learner's id as the launch gave it: an Enrol account's id.
    pub learner: String,
    /// The provider's course id.
    pub course: String,
}

/// Why a webhook delivery was not taken.
#[derive(Debug, thiserror::Error)]
pub enum WebhookRefused {
    #[error("The delivery's signature is not valid: {0}")]
    Signature(String),
    #[error("The delivery could not be read: {0}")]
    Malformed(String),
}

#[async_trait]
pub trait LearningProvider: Send + Sync {
    /// Where `learner` studies `course` now: an https address on the
    /// provider's own host ([`own_address`]), for this sitting only.
    async fn launch_address(&self, course: &ProviderCourse, learner: Learner<'_>) -> Result<Url, ProviderError>;

    /// Whether the provider's webhooks are configured (its signing secret).
    fn takes_webhooks(&self) -> bool;

    /// A webhook delivery verified and read: the completion it reports, or
    /// `None` for an event that completes nothing.
    fn completion(&self, headers: &HeaderMap, body: &[u8], now: i64) -> Result<Option<Completion>, WebhookRefused>;

    /// The origins its launch addresses may be on, for the pages' CSP
    /// (`form-action`: the player's form is redirected there).
    fn launch_origins(&self) -> Vec<String>;
}

/// The provider the configuration names, if any.
pub fn build(coassemble: Option<&coassemble::CoassembleConfig>) -> anyhow::Result<Option<Arc<dyn LearningProvider>>> {
    Ok(match coassemble {
        Some(config) => Some(Arc::new(coassemble::Coassemble::new(config.clone())?)),
        None => None,
    })
}

/// `raw` as a launch address, if it is https on `host` or one of its
/// subdomains, with no credentials in it: anything else (plain http,
/// another site, `https://host.evil.example`, `https://host@evil.example`)
/// would send the student somewhere the provider did not.
pub fn own_address(raw: &str, host: &str) -> Result<Url, ProviderError> {
    let foreign = || ProviderError::ForeignAddress(raw.chars().take(200).collect());
    let url = Url::parse(raw.trim()).map_err(|_| foreign())?;
    let on_host = url
        .host_str()
        .is_some_and(|h| h.eq_ignore_ascii_case(host) || h.to_ascii_lowercase().ends_with(&format!(".{}", host.to_ascii_lowercase())));
    let plain = url.username().is_empty() && url.password().is_none() && url.port().is_none_or(|port| port == 443);
    if url.scheme() == "https" && on_host && plain { Ok(url) } else { Err(foreign()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_address_is_https_on_the_providers_own_host() {
        for good in
            ["https://coassemble.com/embed/abc", "https://college.coassemble.com/enter/k?id=1&sig=x", "https://APP.Coassemble.com/x"]
        {
            assert!(own_address(good, "coassemble.com").is_ok(), "{good}");
        }
        for bad in [
            "http://evil.example/phish",
            "http://college.coassemble.com/x",
            "https://evil.example/",
            "https://coassemble.com.evil.example/",
            "https://evilcoassemble.com/",
            "https://coassemble.com@evil.example/",
            "https://user:pass@college.coassemble.com/",
            "https://college.coassemble.com:8443/",
            "javascript:alert(1)",
            "/learn/elsewhere/",
            "",
        ] {
            assert!(matches!(own_address(bad, "coassemble.com"), Err(ProviderError::ForeignAddress(_))), "{bad}");
        }
    }
}
