//! Analytics and marketing tools (docs/product.md#tracking), each on only when the college has
//! configured its id and the visitor has granted its category (UK PECR).
//! The ids reach the browser beside the page data; the Content-Security-
//! Policy allows exactly the hosts of the tools configured.

use serde::Serialize;
use ts_rs::TS;

/// The configured tools' ids; `None` is a tool that is off.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TrackingConfig {
    /// Google Tag Manager container (`GTM-…`): analytics.
    pub tag_manager: Option<String>,
    /// Heap analytics app id: analytics.
    pub heap: Option<String>,
    /// Microsoft Clarity project id: analytics.
    pub clarity: Option<String>,
    /// Meta pixel id: marketing.
    pub meta_pixel: Option<String>,
    /// TikTok pixel id: marketing.
    pub tiktok: Option<String>,
    /// Klaviyo public API key (company id): marketing.
    pub klaviyo: Option<String>,
    /// Error reporting (decision 013), on when `SENTRY_DSN` is set. Essential to
    /// running the site, not a consent category: it records errors, with
    /// personal data masked.
    pub error_reporting: Option<ErrorReporting>,
}

/// Where and how the browser reports errors (Sentry's public DSN).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ErrorReporting {
    pub dsn: String,
    /// `production` unless configured otherwise.
    pub environment: String,
    /// Session replays show text and inputs as typed. Off by default: on a
    /// checkout that holds names, emails and phone numbers that needs its
    /// own lawful basis under UK GDPR; only explicit configuration turns it on.
    pub replay_unmasked: bool,
}

impl ErrorReporting {
    /// The origin events are sent to, from a DSN of the form
    /// `https://key@host[:port]/project`; `None` when it is not one.
    pub fn ingest_origin(dsn: &str) -> Option<String> {
        let (scheme, rest) = dsn.split_once("://")?;
        let (key, rest) = rest.split_once('@')?;
        let (host, project) = rest.split_once('/')?;
        let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '_'));
        (matches!(scheme, "https" | "http") && plain(key) && plain(host) && plain(project.trim_end_matches('/')))
            .then(|| format!("{scheme}://{host}"))
    }
}

/// Hosts a tool loads scripts from, sends data to, and shows images from.
struct Hosts {
    script: &'static [&'static str],
    connect: &'static [&'static str],
    img: &'static [&'static str],
}

const TAG_MANAGER: Hosts = Hosts {
    script: &["https://www.googletagmanager.com"],
    connect: &["https://www.google-analytics.com", "https://*.google-analytics.com", "https://www.googletagmanager.com"],
    img: &["https://www.googletagmanager.com", "https://www.google-analytics.com"],
};
const HEAP: Hosts =
    Hosts { script: &["https://cdn.heapanalytics.com"], connect: &["https://heapanalytics.com"], img: &["https://heapanalytics.com"] };
const CLARITY: Hosts = Hosts {
    script: &["https://www.clarity.ms", "https://*.clarity.ms"],
    connect: &["https://*.clarity.ms"],
    img: &["https://*.clarity.ms"],
};
const META_PIXEL: Hosts =
    Hosts { script: &["https://connect.facebook.net"], connect: &["https://www.facebook.com"], img: &["https://www.facebook.com"] };
const TIKTOK: Hosts = Hosts { script: &["https://analytics.tiktok.com"], connect: &["https://analytics.tiktok.com"], img: &[] };
const KLAVIYO: Hosts = Hosts {
    script: &["https://static.klaviyo.com", "https://static-tracking.klaviyo.com"],
    connect: &["https://a.klaviyo.com", "https://fast.a.klaviyo.com"],
    img: &[],
};

/// The extra sources the CSP must allow for the configured tools.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CspSources {
    pub script: Vec<String>,
    pub connect: Vec<String>,
    pub img: Vec<String>,
}

/// Ids are letters, digits, `-` and `_`: nothing that could break out of
/// the script URL or JSON they go into.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl TrackingConfig {
    /// Each analytics and marketing tool: its id when on, and its hosts.
    fn tools(&self) -> [(&Option<String>, &Hosts); 6] {
        [
            (&self.tag_manager, &TAG_MANAGER),
            (&self.heap, &HEAP),
            (&self.clarity, &CLARITY),
            (&self.meta_pixel, &META_PIXEL),
            (&self.tiktok, &TIKTOK),
            (&self.klaviyo, &KLAVIYO),
        ]
    }

    /// Whether any analytics or marketing tool is on: scripts from other
    /// hosts then run on the public pages (with the visitor's consent).
    pub fn loads_third_party_tools(&self) -> bool {
        self.tools().iter().any(|(id, _)| id.is_some())
    }

    pub fn csp_sources(&self) -> CspSources {
        let mut sources = CspSources::default();
        for (id, hosts) in self.tools() {
            if id.is_some() {
                sources.script.extend(hosts.script.iter().map(|h| (*h).to_owned()));
                sources.connect.extend(hosts.connect.iter().map(|h| (*h).to_owned()));
                sources.img.extend(hosts.img.iter().map(|h| (*h).to_owned()));
            }
        }
        if let Some(origin) = self.error_reporting.as_ref().and_then(|e| ErrorReporting::ingest_origin(&e.dsn)) {
            sources.connect.push(origin);
        }
        for list in [&mut sources.script, &mut sources.connect, &mut sources.img] {
            list.sort_unstable();
            list.dedup();
        }
        sources
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_configured_tools_open_the_policy() {
        assert_eq!(TrackingConfig::default().csp_sources(), CspSources::default());
        let config = TrackingConfig { tag_manager: Some("GTM-ABC123".into()), meta_pixel: Some("123456".into()), ..Default::default() };
        let sources = config.csp_sources();
        assert_eq!(sources.script, ["https://connect.facebook.net", "https://www.googletagmanager.com"]);
        assert!(sources.connect.contains(&"https://www.google-analytics.com".to_owned()));
        assert!(!sources.script.iter().any(|s| s.contains("clarity") || s.contains("tiktok")));
    }

    #[test]
    fn error_reporting_opens_its_ingest_origin_only() {
        let dsn = "https://abc123@o1.ingest.sentry.io/42";
        assert_eq!(ErrorReporting::ingest_origin(dsn).as_deref(), Some("https://o1.ingest.sentry.io"));
        assert_eq!(ErrorReporting::ingest_origin("http://key@127.0.0.1:9000/1").as_deref(), Some("http://127.0.0.1:9000"));
        for bad in ["", "abc", "https://o1.ingest.sentry.io/42", "javascript://a@b/1", "https://k@ho st/1", "https://k@h\"/1"] {
            assert_eq!(ErrorReporting::ingest_origin(bad), None, "{bad}");
        }
        let reporting = ErrorReporting { dsn: dsn.into(), environment: "production".into(), replay_unmasked: false };
        let config = TrackingConfig { error_reporting: Some(reporting), ..Default::default() };
        assert_eq!(config.csp_sources().connect, ["https://o1.ingest.sentry.io"]);
    }

    #[test]
    fn ids_cannot_carry_markup_or_urls() {
        assert!(is_valid_id("GTM-ABC123") && is_valid_id("1234567890") && is_valid_id("pk_abc"));
        for bad in ["", "GTM-1\"><script>", "a/b", "x y", &"a".repeat(65)] {
            assert!(!is_valid_id(bad), "{bad}");
        }
    }
}
