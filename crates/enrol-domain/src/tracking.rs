//! Analytics and marketing tools (§7), each on only when the college has
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
    pub script: Vec<&'static str>,
    pub connect: Vec<&'static str>,
    pub img: Vec<&'static str>,
}

/// Ids are letters, digits, `-` and `_`: nothing that could break out of
/// the script URL or JSON they go into.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl TrackingConfig {
    pub fn csp_sources(&self) -> CspSources {
        let mut sources = CspSources::default();
        for (id, hosts) in [
            (&self.tag_manager, &TAG_MANAGER),
            (&self.heap, &HEAP),
            (&self.clarity, &CLARITY),
            (&self.meta_pixel, &META_PIXEL),
            (&self.tiktok, &TIKTOK),
            (&self.klaviyo, &KLAVIYO),
        ] {
            if id.is_some() {
                sources.script.extend(hosts.script);
                sources.connect.extend(hosts.connect);
                sources.img.extend(hosts.img);
            }
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
        assert!(sources.connect.contains(&"https://www.google-analytics.com"));
        assert!(!sources.script.iter().any(|s| s.contains("clarity") || s.contains("tiktok")));
    }

    #[test]
    fn ids_cannot_carry_markup_or_urls() {
        assert!(is_valid_id("GTM-ABC123") && is_valid_id("1234567890") && is_valid_id("pk_abc"));
        for bad in ["", "GTM-1\"><script>", "a/b", "x y", &"a".repeat(65)] {
            assert!(!is_valid_id(bad), "{bad}");
        }
    }
}
