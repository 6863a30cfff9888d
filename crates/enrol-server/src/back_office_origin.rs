//! The back office's own origin (decision 030): `ENROL_ADMIN_ORIGIN`, the
//! one scheme and host its pages and API are served on, so that no script
//! of the public pages (analytics and marketing tools once configured)
//! ever shares an origin with a signed-in staff member's cookie.

use anyhow::Context as _;

/// An origin such as `https://office.college.example`: scheme and host
/// (and port), lower case, nothing after them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminOrigin(String);

impl AdminOrigin {
    /// `raw` checked: an http(s) origin with no path, on a host other than
    /// the public site's (`public_url`).
    pub fn parse(raw: &str, public_url: &str) -> anyhow::Result<Self> {
        let origin = raw.trim().trim_end_matches('/').to_ascii_lowercase();
        let host = authority(&origin)
            .filter(|host| !host.is_empty() && host.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b)))
            .with_context(|| format!("ENROL_ADMIN_ORIGIN must be an origin like https://office.college.example (no path), not {raw:?}"))?;
        let public_host = authority(public_url).and_then(|rest| rest.split('/').next()).unwrap_or_default();
        anyhow::ensure!(
            !host.eq_ignore_ascii_case(public_host),
            "ENROL_ADMIN_ORIGIN must be a host of its own, not the public site's ({public_url})"
        );
        Ok(AdminOrigin(origin))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_https(&self) -> bool {
        self.0.starts_with("https://")
    }

    /// Whether a request sent to `host` (its `Host` header, or its HTTP/2
    /// authority) was sent to the back office's origin.
    pub fn is_host(&self, host: &str) -> bool {
        authority(&self.0).is_some_and(|own| own.eq_ignore_ascii_case(host))
    }
}

/// What follows the scheme of an http(s) address.
fn authority(url: &str) -> Option<&str> {
    url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"))
}

#[cfg(test)]
mod tests {
    use super::AdminOrigin;

    #[test]
    fn an_origin_is_a_host_of_its_own_with_nothing_after_it() {
        let origin = AdminOrigin::parse(" https://Office.College.example/ ", "https://college.example").unwrap();
        assert_eq!(origin.as_str(), "https://office.college.example");
        assert!(origin.is_https());
        assert!(origin.is_host("office.college.example") && origin.is_host("OFFICE.college.example"));
        assert!(!origin.is_host("college.example") && !origin.is_host("office.college.example:8443"));
        let local = AdminOrigin::parse("http://127.0.0.1:9090", "http://127.0.0.1:8080").unwrap();
        assert!(local.is_host("127.0.0.1:9090") && !local.is_https());
        for bad in ["office.college.example", "https://office.college.example/admin", "https://college.example", "ftp://office", "https://"]
        {
            let error = AdminOrigin::parse(bad, "https://college.example").unwrap_err().to_string();
            assert!(error.contains("ENROL_ADMIN_ORIGIN"), "{bad}: {error}");
        }
    }
}
