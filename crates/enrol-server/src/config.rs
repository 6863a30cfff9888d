//! Configuration from the environment, with the embedded defaults of
//! `make run`. Fails at start-up, never later.

use std::net::IpAddr;
use std::path::PathBuf;

use anyhow::Context as _;

use enrol_domain::tracking::{ErrorReporting, TrackingConfig, is_valid_id};

use crate::back_office_origin::AdminOrigin;
use crate::serve::ConnectionLimits;

mod payments;
pub use payments::PaymentsConfig;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Environment {
    Development,
    Production,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub environment: Environment,
    /// `ENROL_LISTEN`, default `127.0.0.1:8080`.
    pub listen: String,
    /// `DATABASE_URL`, default `sqlite://data/enrol.db`.
    pub database_url: String,
    /// `ENROL_PUBLIC_URL`: the site's address for canonical links.
    pub public_url: String,
    /// `ENROL_ADMIN_ORIGIN` (`https://office.college.example`): the one
    /// origin the back office and its API are served on, apart from the
    /// public pages and their third-party tools (decision 030). Unset: both
    /// on the public address.
    pub admin_origin: Option<AdminOrigin>,
    /// `ENROL_WEB_DIST`: the React build, default `web/dist`.
    pub web_dist: PathBuf,
    /// `ENROL_CONTENT_DIR`: the demo content pack, default `content`.
    pub content_dir: PathBuf,
    /// `ENROL_SSR_ENGINES`: QuickJS render threads, default one per core.
    pub ssr_engines: usize,
    /// `ENROL_IMAGE_CACHE`: where resized images are kept, default
    /// `data/image-cache`. Safe to delete; not shared between instances.
    pub image_cache: PathBuf,
    /// Where the files students send and the images staff upload are kept
    /// (`ENROL_UPLOADS_DIR`), unless a bucket is configured.
    pub uploads_dir: PathBuf,
    /// `ENROL_S3_*`: the S3-compatible bucket that keeps them instead.
    pub s3: Option<crate::file_store::S3Config>,
    /// `ENROL_IMAGE_CACHE_MAX_MB`: the most the image cache may hold on
    /// disk, default 512.
    pub image_cache_max_bytes: u64,
    /// `ENROL_IMAGE_SECONDS` (default 10): how long a request waits for an
    /// image to be resized or checked before it is answered 503; the work
    /// goes on apart, and its core serves the next image.
    pub image_deadline: std::time::Duration,
    /// `ENROL_MEDICAL_KEEP_DAYS` (default 90): days after training (or a
    /// cancellation) that medical answers and students' files are kept.
    pub medical_keep_days: u32,
    /// Stripe when `STRIPE_SECRET_KEY`, `STRIPE_PUBLISHABLE_KEY` and
    /// `STRIPE_WEBHOOK_SECRET` are all set; otherwise the built-in sandbox.
    pub payments: PaymentsConfig,
    /// `SMTP_URL` (`smtps://user:password@host`, `smtp://host?tls=required`):
    /// where the outbox is sent. Unset: mail stays in the outbox
    /// (readable at `/dev/mailbox` in development).
    pub smtp_url: Option<SmtpUrl>,
    /// `ENROL_MAIL_FROM`: the sender, like `Academy <hello@academy.example>`;
    /// default the college's own address from its site data.
    pub mail_from: Option<String>,
    /// Analytics and marketing tools, each on when its id is set:
    /// `ENROL_GTM_ID`, `ENROL_HEAP_ID`, `ENROL_CLARITY_ID`,
    /// `ENROL_META_PIXEL_ID`, `ENROL_TIKTOK_PIXEL_ID`, `ENROL_KLAVIYO_ID`.
    pub tracking: TrackingConfig,
    /// `ENROL_TRUSTED_PROXIES`: addresses of the load balancers in front,
    /// whose `X-Forwarded-For` names the client. Empty: the peer is the client.
    pub trusted_proxies: Vec<IpAddr>,
    /// `ENROL_DEV_MAILBOX=1`: serve the outbox at `/dev/mailbox`. It shows
    /// password reset links, so it is refused in production.
    pub dev_mailbox: bool,
    /// `ENROL_MIGRATIONS=check`: the server's database role may only read
    /// and write rows, so it checks that the owner applied every migration
    /// (`enrol migrate`) instead of applying them (`apply`, the default).
    pub migrations: enrol_db::Migrations,
    /// `ENROL_DEMO_STUDENTS=1`: add the demo students (with a known
    /// password) to the database; refused in production.
    pub demo_students: bool,
    /// Limits per client on orders, payments and sign-ins.
    pub limits: ClientLimits,
    /// How many connections are served at once, and how fast each must send.
    pub connections: ConnectionLimits,
    /// `ENROL_PAGE_CACHE_ENTRIES` (default 2,048; 0 for none): rendered
    /// pages kept in memory.
    pub page_cache_entries: usize,
    /// `ENROL_VAT_NUMBER`: the college's VAT registration number, as it
    /// writes it (`GB 123 4567 89`), printed on its receipts and credit
    /// notes. Unset: they carry none.
    pub vat_number: Option<String>,
    /// `ENROL_REMINDERS_EVERY_SECONDS` (default 300): how often the balance
    /// reminders are looked for.
    pub reminders_every: std::time::Duration,
    /// `ENROL_COASSEMBLE_*`: the hosted LMS that teaches the online courses
    /// whose content names it (decision 029). Unset: such a course's
    /// player says it is not open yet.
    pub coassemble: Option<crate::provider::coassemble::CoassembleConfig>,
}

/// How much one client may ask of the costly calls (decision 031): one
/// browser (its session or buyer cookie), and one address, which a
/// classroom's browsers share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientLimits {
    /// `ENROL_WRITES_PER_MINUTE` (default 10): orders, payment intents,
    /// sign-ins and forms a browser may send per minute after its burst.
    pub writes_per_minute: u32,
    /// `ENROL_WRITE_BURST` (default 20).
    pub write_burst: u32,
    /// `ENROL_LIVE_ORDERS_PER_CLIENT` (default 5): unpaid orders a browser
    /// may hold seats for at once.
    pub live_orders: i64,
    /// `ENROL_BROWSERS_PER_ADDRESS` (default 10): an address may send as
    /// many writes, and hold as many unpaid orders, as this many browsers.
    pub browsers_per_address: u32,
}

impl Default for ClientLimits {
    fn default() -> Self {
        ClientLimits {
            writes_per_minute: 10,
            write_burst: 20,
            live_orders: enrol_domain::booking::MAX_LIVE_ORDERS_PER_CLIENT,
            browsers_per_address: 10,
        }
    }
}

impl ClientLimits {
    /// The writes an address may send per minute, and at once: as many as
    /// `browsers_per_address` browsers.
    pub fn address_writes(&self) -> (u32, u32) {
        (self.writes_per_minute.saturating_mul(self.browsers_per_address), self.write_burst.saturating_mul(self.browsers_per_address))
    }

    /// The unpaid orders a browser, and an address, may hold seats for.
    pub fn live_order_caps(&self) -> enrol_db::LiveOrderCaps {
        enrol_db::LiveOrderCaps {
            per_browser: self.live_orders,
            per_address: self.live_orders.saturating_mul(i64::from(self.browsers_per_address)),
        }
    }
}

/// An SMTP address; it can carry a password, so it never reaches the logs.
#[derive(Clone)]
pub struct SmtpUrl(pub String);

impl std::fmt::Debug for SmtpUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SmtpUrl(…)")
    }
}

/// A UK VAT registration number: GB (or XI, Northern Ireland) and nine or
/// twelve digits, or a government department's or health authority's
/// (GD, HA) three; spaces as the college writes them.
fn vat_number_from_lookup(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Option<String>> {
    let Some(number) = get("ENROL_VAT_NUMBER").map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let compact: String = number.chars().filter(|c| *c != ' ').collect::<String>().to_ascii_uppercase();
    let digits = |s: &str, counts: &[usize]| counts.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    let valid = match compact.get(..2) {
        Some("GB" | "XI") => {
            let rest = &compact[2..];
            digits(rest, &[9, 12]) || ((rest.starts_with("GD") || rest.starts_with("HA")) && digits(&rest[2..], &[3]))
        }
        _ => false,
    };
    anyhow::ensure!(valid, "ENROL_VAT_NUMBER must be a UK VAT number like GB 123 4567 89, not {number:?}");
    Ok(Some(number))
}

fn tracking_from_lookup(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<TrackingConfig> {
    let id = |key: &str| -> anyhow::Result<Option<String>> {
        match get(key).filter(|v| !v.is_empty()) {
            Some(id) if is_valid_id(&id) => Ok(Some(id)),
            Some(id) => anyhow::bail!("{key} must be letters, digits, - or _, not {id:?}"),
            None => Ok(None),
        }
    };
    let error_reporting = match get("SENTRY_DSN").filter(|v| !v.is_empty()) {
        Some(dsn) => {
            anyhow::ensure!(ErrorReporting::ingest_origin(&dsn).is_some(), "SENTRY_DSN must look like https://key@host/project");
            // Production, unless the platform (or the college) says otherwise.
            let environment = get("SENTRY_ENVIRONMENT").or_else(|| get("VERCEL_ENV")).unwrap_or_else(|| "production".to_owned());
            let replay_unmasked = matches!(get("SENTRY_REPLAY_UNMASK").as_deref(), Some("1" | "true"));
            Some(ErrorReporting { dsn, environment, replay_unmasked })
        }
        None => None,
    };
    Ok(TrackingConfig {
        error_reporting,
        tag_manager: id("ENROL_GTM_ID")?,
        heap: id("ENROL_HEAP_ID")?,
        clarity: id("ENROL_CLARITY_ID")?,
        meta_pixel: id("ENROL_META_PIXEL_ID")?,
        tiktok: id("ENROL_TIKTOK_PIXEL_ID")?,
        klaviyo: id("ENROL_KLAVIYO_ID")?,
    })
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let environment = match get("ENROL_ENV").as_deref() {
            None | Some("development") => Environment::Development,
            Some("production") => Environment::Production,
            Some(other) => anyhow::bail!("ENROL_ENV must be development or production, not {other:?}"),
        };
        let listen = get("ENROL_LISTEN").unwrap_or_else(|| "127.0.0.1:8080".to_owned());
        let public_url = get("ENROL_PUBLIC_URL").unwrap_or_else(|| format!("http://{listen}")).trim_end_matches('/').to_owned();
        anyhow::ensure!(
            public_url.starts_with("http://") || public_url.starts_with("https://"),
            "ENROL_PUBLIC_URL must be an http(s) address, not {public_url:?}"
        );
        let payments = PaymentsConfig::from_lookup(&get)?;
        let admin_origin =
            get("ENROL_ADMIN_ORIGIN").filter(|v| !v.trim().is_empty()).map(|raw| AdminOrigin::parse(&raw, &public_url)).transpose()?;
        let tracking = tracking_from_lookup(&get)?;
        let flag = |key: &str| matches!(get(key).as_deref(), Some("1" | "true"));
        let dev_mailbox = flag("ENROL_DEV_MAILBOX");
        let migrations = match get("ENROL_MIGRATIONS").as_deref() {
            None | Some("" | "apply") => enrol_db::Migrations::Apply,
            Some("check") => enrol_db::Migrations::Check,
            Some(other) => anyhow::bail!("ENROL_MIGRATIONS must be apply or check, not {other:?}"),
        };
        let demo_students = flag("ENROL_DEMO_STUDENTS");
        if environment == Environment::Production {
            anyhow::ensure!(
                matches!(payments, PaymentsConfig::Stripe { .. }),
                "ENROL_ENV=production takes real payments: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (the sandbox is for development only)"
            );
            anyhow::ensure!(!dev_mailbox, "ENROL_DEV_MAILBOX shows password reset links: it cannot be on with ENROL_ENV=production");
            anyhow::ensure!(
                get("ENROL_MAIL_FROM").is_some_and(|from| !from.trim().is_empty()),
                "ENROL_ENV=production sends mail: set ENROL_MAIL_FROM to the sender your mail service allows, like \"Academy <hello@academy.example>\" (the site's own address is what editors type)"
            );
            anyhow::ensure!(
                !demo_students,
                "ENROL_DEMO_STUDENTS adds accounts with a published password: it cannot be on with ENROL_ENV=production"
            );
            anyhow::ensure!(
                admin_origin.is_some() || !tracking.loads_third_party_tools(),
                "ENROL_ENV=production with analytics or marketing tools set: set ENROL_ADMIN_ORIGIN to the back office's own address (like https://office.college.example), so their scripts never run where staff are signed in"
            );
            anyhow::ensure!(
                admin_origin.as_ref().is_none_or(AdminOrigin::is_https),
                "ENROL_ADMIN_ORIGIN must be an https:// address in production"
            );
        }
        let trusted_proxies = get("ENROL_TRUSTED_PROXIES")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|ip| !ip.is_empty())
            .map(|ip| ip.parse().with_context(|| format!("ENROL_TRUSTED_PROXIES must list IP addresses, not {ip:?}")))
            .collect::<anyhow::Result<Vec<IpAddr>>>()?;
        let number = |key: &str, default: u32| -> anyhow::Result<u32> {
            get(key)
                .map_or(Ok(default), |raw| raw.parse().ok().filter(|n| *n > 0).with_context(|| format!("{key} must be a positive number")))
        };
        let defaults = ClientLimits::default();
        let limits = ClientLimits {
            writes_per_minute: number("ENROL_WRITES_PER_MINUTE", defaults.writes_per_minute)?,
            write_burst: number("ENROL_WRITE_BURST", defaults.write_burst)?,
            live_orders: i64::from(number("ENROL_LIVE_ORDERS_PER_CLIENT", u32::try_from(defaults.live_orders)?)?),
            browsers_per_address: number("ENROL_BROWSERS_PER_ADDRESS", defaults.browsers_per_address)?,
        };
        let connections = ConnectionLimits {
            max_connections: usize::try_from(number(
                "ENROL_MAX_CONNECTIONS",
                u32::try_from(ConnectionLimits::default().max_connections)?,
            )?)?,
            ..ConnectionLimits::default()
        };
        let page_cache_entries = match get("ENROL_PAGE_CACHE_ENTRIES") {
            Some(raw) => raw.parse().ok().context("ENROL_PAGE_CACHE_ENTRIES must be a number (0 for no page cache)")?,
            None => 2048,
        };
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let ssr_engines = match get("ENROL_SSR_ENGINES") {
            Some(raw) => raw.parse().ok().filter(|n| *n > 0).context("ENROL_SSR_ENGINES must be a positive number")?,
            None => cores,
        };
        Ok(Config {
            environment,
            listen,
            database_url: get("DATABASE_URL").unwrap_or_else(|| "sqlite://data/enrol.db".to_owned()),
            public_url,
            admin_origin,
            web_dist: get("ENROL_WEB_DIST").map_or_else(|| PathBuf::from("web/dist"), PathBuf::from),
            content_dir: get("ENROL_CONTENT_DIR").map_or_else(|| PathBuf::from("content"), PathBuf::from),
            ssr_engines,
            image_cache: get("ENROL_IMAGE_CACHE").map_or_else(|| PathBuf::from("data/image-cache"), PathBuf::from),
            uploads_dir: get("ENROL_UPLOADS_DIR").map_or_else(|| PathBuf::from("data/uploads"), PathBuf::from),
            s3: crate::file_store::S3Config::from_lookup(&get)?,
            image_cache_max_bytes: u64::from(number("ENROL_IMAGE_CACHE_MAX_MB", 512)?) * 1024 * 1024,
            image_deadline: std::time::Duration::from_secs(u64::from(number("ENROL_IMAGE_SECONDS", 10)?)),
            medical_keep_days: number("ENROL_MEDICAL_KEEP_DAYS", 90)?,
            payments,
            smtp_url: get("SMTP_URL").filter(|v| !v.is_empty()).map(SmtpUrl),
            mail_from: get("ENROL_MAIL_FROM").filter(|v| !v.is_empty()),
            tracking,
            trusted_proxies,
            dev_mailbox,
            migrations,
            demo_students,
            limits,
            connections,
            page_cache_entries,
            vat_number: vat_number_from_lookup(&get)?,
            reminders_every: std::time::Duration::from_secs(u64::from(number("ENROL_REMINDERS_EVERY_SECONDS", 300)?)),
            coassemble: crate::provider::coassemble::CoassembleConfig::from_lookup(&get)?,
        })
    }

    /// Served over HTTPS, so cookies are `Secure` and HSTS is sent.
    pub fn is_https(&self) -> bool {
        self.public_url.starts_with("https://")
    }

    /// Where the back office is: its own origin, else the public address.
    pub fn back_office_url(&self) -> &str {
        self.admin_origin.as_ref().map_or(&self.public_url, AdminOrigin::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_embedded_setup() {
        let config = Config::from_lookup(|_| None).unwrap();
        assert_eq!(config.listen, "127.0.0.1:8080");
        assert_eq!(config.database_url, "sqlite://data/enrol.db");
        assert_eq!(config.public_url, "http://127.0.0.1:8080");
        assert_eq!(config.environment, Environment::Development);
        assert_eq!(config.image_cache, PathBuf::from("data/image-cache"));
        assert!(!config.is_https());
        assert!(matches!(config.payments, PaymentsConfig::Sandbox { .. }));
    }

    #[test]
    fn tracking_ids_are_read_and_checked() {
        let config = Config::from_lookup(|k| (k == "ENROL_GTM_ID").then(|| "GTM-ABC123".to_owned())).unwrap();
        assert_eq!(config.tracking.tag_manager.as_deref(), Some("GTM-ABC123"));
        assert_eq!(config.tracking.meta_pixel, None);
        assert!(Config::from_lookup(|k| (k == "ENROL_META_PIXEL_ID").then(|| "1\"><script>".to_owned())).is_err());
    }

    #[test]
    fn stripe_needs_all_three_keys() {
        let keys = [("STRIPE_SECRET_KEY", "sk_test_1"), ("STRIPE_PUBLISHABLE_KEY", "pk_test_1"), ("STRIPE_WEBHOOK_SECRET", "whsec_1")];
        let all = Config::from_lookup(|k| keys.iter().find(|(key, _)| *key == k).map(|(_, v)| (*v).to_owned())).unwrap();
        assert!(matches!(all.payments, PaymentsConfig::Stripe { .. }));
        assert_eq!(format!("{:?}", all.payments), "Stripe(pk_test_1)");
        let two = Config::from_lookup(|k| keys[..2].iter().find(|(key, _)| *key == k).map(|(_, v)| (*v).to_owned()));
        assert!(two.is_err());
        let swapped = Config::from_lookup(|k| match k {
            "STRIPE_SECRET_KEY" => Some("pk_test_1".to_owned()),
            "STRIPE_PUBLISHABLE_KEY" => Some("sk_test_1".to_owned()),
            "STRIPE_WEBHOOK_SECRET" => Some("whsec_1".to_owned()),
            _ => None,
        });
        assert!(swapped.is_err());
    }

    #[test]
    fn production_refuses_the_sandbox_and_the_dev_mailbox() {
        let production = |extra: &'static [(&'static str, &'static str)]| {
            Config::from_lookup(move |k| {
                [("ENROL_ENV", "production")].iter().chain(extra).find(|(key, _)| *key == k).map(|(_, v)| (*v).to_owned())
            })
        };
        let error = production(&[]).unwrap_err().to_string();
        assert!(error.contains("STRIPE_SECRET_KEY"), "{error}");
        const STRIPE: &[(&str, &str)] =
            &[("STRIPE_SECRET_KEY", "sk_live_1"), ("STRIPE_PUBLISHABLE_KEY", "pk_live_1"), ("STRIPE_WEBHOOK_SECRET", "whsec_1")];
        let error = production(STRIPE).unwrap_err().to_string();
        assert!(error.contains("ENROL_MAIL_FROM"), "{error}");
        const READY: &[(&str, &str)] = &[
            ("STRIPE_SECRET_KEY", "sk_live_1"),
            ("STRIPE_PUBLISHABLE_KEY", "pk_live_1"),
            ("STRIPE_WEBHOOK_SECRET", "whsec_1"),
            ("ENROL_MAIL_FROM", "Academy <hello@academy.example>"),
        ];
        let ok = production(READY).unwrap();
        assert!(!ok.dev_mailbox);
        let with_mailbox: &'static [(&str, &str)] = &[
            ("STRIPE_SECRET_KEY", "sk_live_1"),
            ("STRIPE_PUBLISHABLE_KEY", "pk_live_1"),
            ("STRIPE_WEBHOOK_SECRET", "whsec_1"),
            ("ENROL_MAIL_FROM", "Academy <hello@academy.example>"),
            ("ENROL_DEV_MAILBOX", "1"),
        ];
        assert!(production(with_mailbox).is_err());
        let with_demo_students: &'static [(&str, &str)] = &[
            ("STRIPE_SECRET_KEY", "sk_live_1"),
            ("STRIPE_PUBLISHABLE_KEY", "pk_live_1"),
            ("STRIPE_WEBHOOK_SECRET", "whsec_1"),
            ("ENROL_MAIL_FROM", "Academy <hello@academy.example>"),
            ("ENROL_DEMO_STUDENTS", "1"),
        ];
        assert!(production(with_demo_students).unwrap_err().to_string().contains("ENROL_DEMO_STUDENTS"));
        let development = Config::from_lookup(|k| (k == "ENROL_DEV_MAILBOX").then(|| "1".to_owned())).unwrap();
        assert!(development.dev_mailbox);
        assert!(!Config::from_lookup(|_| None).unwrap().dev_mailbox, "off unless asked for");
    }

    #[test]
    fn the_back_office_gets_its_own_origin_before_any_tool_loads_in_production() {
        const READY: [(&str, &str); 6] = [
            ("ENROL_ENV", "production"),
            ("ENROL_PUBLIC_URL", "https://college.example"),
            ("STRIPE_SECRET_KEY", "sk_live_1"),
            ("STRIPE_PUBLISHABLE_KEY", "pk_live_1"),
            ("STRIPE_WEBHOOK_SECRET", "whsec_1"),
            ("ENROL_MAIL_FROM", "Academy <hello@college.example>"),
        ];
        let with = |extra: &'static [(&'static str, &'static str)]| {
            Config::from_lookup(move |k| READY.iter().chain(extra).find(|(key, _)| *key == k).map(|(_, v)| (*v).to_owned()))
        };
        assert_eq!(with(&[]).unwrap().admin_origin, None, "without tools, one origin is enough");
        let error = with(&[("ENROL_GTM_ID", "GTM-ABC123")]).unwrap_err().to_string();
        assert!(error.contains("ENROL_ADMIN_ORIGIN"), "{error}");
        let apart = with(&[("ENROL_GTM_ID", "GTM-ABC123"), ("ENROL_ADMIN_ORIGIN", "https://office.college.example")]).unwrap();
        assert_eq!(apart.admin_origin.map(|origin| origin.as_str().to_owned()).as_deref(), Some("https://office.college.example"));
        assert!(with(&[("ENROL_ADMIN_ORIGIN", "http://office.college.example")]).is_err(), "https in production");
    }

    #[test]
    fn limits_and_proxies_are_read_and_checked() {
        let config = Config::from_lookup(|k| match k {
            "ENROL_TRUSTED_PROXIES" => Some("10.0.0.1, ::1".to_owned()),
            "ENROL_WRITES_PER_MINUTE" => Some("30".to_owned()),
            "ENROL_BROWSERS_PER_ADDRESS" => Some("40".to_owned()),
            _ => None,
        })
        .unwrap();
        assert_eq!(config.trusted_proxies.len(), 2);
        assert_eq!(config.limits.writes_per_minute, 30);
        assert_eq!(config.limits.live_order_caps(), enrol_db::LiveOrderCaps { per_browser: 5, per_address: 200 });
        assert!(Config::from_lookup(|k| (k == "ENROL_TRUSTED_PROXIES").then(|| "proxy.local".to_owned())).is_err());
        assert!(Config::from_lookup(|k| (k == "ENROL_WRITE_BURST").then(|| "0".to_owned())).is_err());
    }

    #[test]
    fn the_image_cache_can_move() {
        let config = Config::from_lookup(|k| (k == "ENROL_IMAGE_CACHE").then(|| "/var/cache/enrol/images".to_owned())).unwrap();
        assert_eq!(config.image_cache, PathBuf::from("/var/cache/enrol/images"));
    }

    #[test]
    fn a_vat_number_is_kept_as_written_once_checked() {
        let vat =
            |value: &'static str| Config::from_lookup(move |k| (k == "ENROL_VAT_NUMBER").then(|| value.to_owned())).map(|c| c.vat_number);
        assert_eq!(vat("").unwrap(), None);
        assert_eq!(Config::from_lookup(|_| None).unwrap().vat_number, None);
        for good in ["GB 123 4567 89", "gb123456789", "GB123456789012", "GBGD001", "XI 123 4567 89"] {
            assert_eq!(vat(good).unwrap().as_deref(), Some(good), "{good}");
        }
        for bad in ["123456789", "GB12345678", "GB 123 4567 89 0", "FR12345678901", "GB<script>"] {
            assert!(vat(bad).unwrap_err().to_string().contains("ENROL_VAT_NUMBER"), "{bad}");
        }
    }

    #[test]
    fn bad_values_fail_at_start() {
        fn env(key: &'static str, value: &'static str) -> impl Fn(&str) -> Option<String> {
            move |k| (k == key).then(|| value.to_owned())
        }
        assert!(Config::from_lookup(env("ENROL_ENV", "staging")).is_err());
        assert!(Config::from_lookup(env("ENROL_SSR_ENGINES", "0")).is_err());
        assert!(Config::from_lookup(env("ENROL_PUBLIC_URL", "example.org")).is_err());
        let config = Config::from_lookup(env("ENROL_PUBLIC_URL", "https://college.example/")).unwrap();
        assert_eq!(config.public_url, "https://college.example");
        assert!(config.is_https());
    }
}
