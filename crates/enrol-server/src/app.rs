//! The server assembled: the database (with the demo content in an empty
//! one), the render engines, the browser build and the payment gateway,
//! then the routes and the background jobs beside them.

use std::sync::Arc;
use std::sync::atomic::AtomicI64;
use std::time::Duration;

use anyhow::Context as _;
use chrono::Utc;
use tokio::net::TcpListener;

use enrol_db::Db;
use enrol_ssr::{Limits, SsrPool};

use crate::assets::ClientAssets;
use crate::cache::{CatalogueCache, PageCache};
use crate::config::Config;
use crate::images::ImageCache;
use crate::state::{AppState, london_day, notice_versions};
use crate::{content_pack, demo_students, file_store, gateway, http, jobs, mailer, provider, serve};

pub struct App {
    pub state: Arc<AppState>,
    /// The sandbox's events for the webhook, taken to it while serving.
    sandbox_events: Option<tokio::sync::mpsc::UnboundedReceiver<gateway::SandboxEvent>>,
}

impl App {
    /// Connects to the database (loading the demo content into an empty
    /// one), starts the render engines and reads the browser build.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let db = Db::connect_with(&config.database_url, config.migrations).await?;
        let statistics_off = db.statistics_kept_off().await?;
        if !statistics_off.is_empty() {
            tracing::warn!(
                settings = %statistics_off.join(", "),
                "PostgreSQL runs with these settings off: its statistics go stale and dead rows stay, so queries are planned for \
                 the tables' sizes of long ago and get slow as they grow; turn them on"
            );
        }
        if db.content_version().await? == 0 {
            tracing::info!(dir = %config.content_dir.display(), "Empty database: loading the demo content");
            content_pack::load_content(&db, &config).await?;
        }
        if config.demo_students {
            demo_students::load_demo_students(&db, &config).await?;
        }
        let bundle_path = config.web_dist.join("server/entry-server.js");
        let bundle = std::fs::read_to_string(&bundle_path)
            .with_context(|| format!("Failed to read {}: build the pages first (make web)", bundle_path.display()))?;
        let ssr = SsrPool::start(&bundle, config.ssr_engines, Limits::default())?;
        let assets = ClientAssets::read(&config.web_dist.join("client"))?;
        let (content, seats) = db.catalogue_versions().await?;
        let (content_version, availability_version) = (AtomicI64::new(content), AtomicI64::new(seats));
        let (payments, sandbox_events) = gateway::build(&config.payments, db.clone());
        tracing::info!(gateway = payments.kind().as_str(), "Payments");
        let tracking_json = serde_json::to_string(&config.tracking)?;
        let image_cache = ImageCache::new(&config.image_cache, config.image_cache_max_bytes);
        let files = file_store::open(config.s3.as_ref(), &config.uploads_dir)?;
        let page_cache_entries = config.page_cache_entries;
        let provider = provider::build(config.coassemble.as_ref())?;
        if provider.as_ref().is_some_and(|p| !p.takes_webhooks()) {
            tracing::warn!("ENROL_COASSEMBLE_WEBHOOK_SECRET is not set: courses completed at Coassemble issue no certificate");
        }
        let state = Arc::new(AppState {
            config,
            db,
            ssr,
            assets,
            pages: PageCache::new(page_cache_entries),
            catalogue: CatalogueCache::default(),
            payments,
            content_version,
            availability_version,
            cache_day: AtomicI64::new(london_day(Utc::now())),
            tracking_json,
            image_cache,
            files,
            provider,
        });
        Ok(App { state, sandbox_events })
    }

    pub async fn serve(self, listener: TcpListener, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        tracing::info!(address = %listener.local_addr()?, "Enrol is listening");
        let watcher = tokio::spawn(watch_content_version(Arc::clone(&self.state)));
        let reconciler = tokio::spawn(jobs::run_jobs(Arc::clone(&self.state)));
        let sandbox = self.sandbox_events.map(|events| tokio::spawn(http::deliver_sandbox_events(Arc::downgrade(&self.state), events)));
        let mailer = match &self.state.config.smtp_url {
            Some(url) => {
                let mailer = mailer::Mailer::new(&url.0, self.state.config.mail_from.as_deref())?;
                Some(tokio::spawn(mailer.run(Arc::clone(&self.state))))
            }
            None => {
                tracing::warn!("SMTP_URL is not set: mail stays in the outbox");
                None
            }
        };
        let router = http::router(Arc::clone(&self.state));
        serve::serve(listener, router, self.state.config.connections, shutdown).await.context("The server failed")?;
        watcher.abort();
        reconciler.abort();
        if let Some(sandbox) = sandbox {
            sandbox.abort();
        }
        if let Some(mailer) = mailer {
            mailer.abort();
        }
        self.state.db.close().await;
        Ok(())
    }
}

/// Content can change from another instance or `enrol content load`, and
/// seats with every hold and booking on any instance; pages cached for an
/// older version (they show seats left) are dropped once it is seen.
async fn watch_content_version(state: Arc<AppState>) {
    let mut tick = tokio::time::interval(Duration::from_secs(2));
    loop {
        tick.tick().await;
        if let Err(error) = notice_versions(&state, Utc::now()).await {
            tracing::warn!(error = %format!("{error:#}"), "Failed to read the content and seats versions");
        }
    }
}
