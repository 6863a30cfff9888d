//! The `enrol` server: pages rendered by React in QuickJS, the JSON API and
//! the college's media, over one database.

pub mod accounts;
pub mod assets;
pub mod buyer;
pub mod cache;
pub mod certificate_document;
pub mod config;
pub mod document;
pub mod file_store;
pub mod gateway;
pub mod http;
pub mod mail_html;
pub mod mailer;
pub mod pages;
pub mod reconcile;
pub mod refunds;
pub mod reminders;
pub mod staff_auth;
pub mod structured_data;
pub mod telemetry;

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use chrono::Utc;
use tokio::net::TcpListener;

use enrol_db::Db;
use enrol_db::MediaRecord;
use enrol_db::content::ContentPack;
use enrol_payments::PaymentGateway;
use enrol_ssr::{Limits, SsrPool};

use crate::assets::ClientAssets;
use crate::cache::{CatalogueCache, PageCache};
use crate::config::Config;

/// What the binary was asked to do.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Serve,
    LoadContent,
    /// `enrol content export DIR`: the published content as a pack.
    ExportContent(std::path::PathBuf),
    /// `enrol staff add --owner EMAIL [--name NAME]`: the first owner.
    AddOwner {
        email: String,
        name: String,
    },
}

impl Command {
    pub fn parse(args: impl Iterator<Item = String>) -> anyhow::Result<Self> {
        let args: Vec<String> = args.collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        match args.as_slice() {
            [] | ["serve"] => Ok(Command::Serve),
            ["content", "load"] => Ok(Command::LoadContent),
            ["content", "export", dir] => Ok(Command::ExportContent(dir.into())),
            ["staff", "add", "--owner", email] => Ok(Command::AddOwner { email: (*email).to_owned(), name: "Owner".to_owned() }),
            ["staff", "add", "--owner", email, "--name", name] => {
                Ok(Command::AddOwner { email: (*email).to_owned(), name: (*name).to_owned() })
            }
            _ => anyhow::bail!(
                "usage: enrol [serve] | enrol content load | enrol content export DIR | enrol staff add --owner EMAIL [--name NAME]"
            ),
        }
    }
}

pub async fn execute(command: Command, config: Config) -> anyhow::Result<()> {
    match command {
        Command::Serve => {
            let listener = TcpListener::bind(&config.listen).await.with_context(|| format!("Failed to listen on {}", config.listen))?;
            let app = App::build(config).await?;
            app.serve(listener, shutdown_signal()).await
        }
        Command::LoadContent => {
            let db = Db::connect(&config.database_url).await?;
            load_content(&db, &config).await?;
            db.close().await;
            Ok(())
        }
        Command::ExportContent(dir) => {
            let db = Db::connect(&config.database_url).await?;
            let exported = export_content(&db, &config, &dir).await;
            db.close().await;
            exported
        }
        Command::AddOwner { email, name } => {
            let db = Db::connect(&config.database_url).await?;
            let link = add_owner(&db, &config, &email, &name).await;
            db.close().await;
            println!("{}", link?);
            Ok(())
        }
    }
}

/// Adds an owner who is not usable until they open the set-up link this
/// answers (there is no default password): the way in for the first one.
async fn add_owner(db: &Db, config: &Config, email: &str, name: &str) -> anyhow::Result<String> {
    anyhow::ensure!(enrol_domain::contact::is_valid_email(email.trim()), "{email:?} is not an email address");
    let (token, hash) = staff_auth::setup_token();
    let secret = staff_auth::new_secret();
    let role = enrol_domain::staff::Role::Owner;
    match db.add_staff(email, name, role, &secret, &hash, None, None, Utc::now()).await? {
        enrol_db::AddedStaff::Added { .. } => Ok(staff_auth::setup_link(&config.public_url, &token)),
        enrol_db::AddedStaff::EmailTaken => anyhow::bail!("Someone on the staff already has the email {email}"),
    }
}

/// Loads the pack where the database is missing its documents and seeds
/// (decision 018). The uploaded images the pack carries are cleaned as an
/// upload is, and those the media library does not have yet go into the
/// file store before their rows are written, so no row names a missing file.
async fn load_content(db: &Db, config: &Config) -> anyhow::Result<()> {
    let root = &config.content_dir;
    let store = file_store::from_config(config)?;
    let now = Utc::now();
    let mut media = Vec::new();
    let mut new_files = Vec::new();
    for item in enrol_db::content::pack_media(root).with_context(|| format!("Failed to read the content pack in {}", root.display()))? {
        let (key, extension) = item.key_and_extension().context("media.yaml was checked")?;
        let path = root.join("images").join(&item.file);
        let bytes = std::fs::read(&path).with_context(|| format!("Failed to read the uploaded image {}", path.display()))?;
        let cleaned =
            http::images::clean_image(bytes).await?.with_context(|| format!("The uploaded image {} was refused", path.display()))?;
        anyhow::ensure!(
            cleaned.format.extension() == extension,
            "{} is a {} image, not .{extension}",
            path.display(),
            cleaned.format.content_type()
        );
        let alt = enrol_domain::media::alt_text(&item.alt).map_err(|message| anyhow::anyhow!("{}: {message}", item.file))?;
        media.push(MediaRecord {
            key: key.to_owned(),
            file_name: item.file.clone(),
            content_type: cleaned.format.content_type().to_owned(),
            width: i64::from(cleaned.width),
            height: i64::from(cleaned.height),
            bytes: i64::try_from(cleaned.bytes.len()).context("size")?,
            alt,
            original_name: item.name.as_deref().and_then(enrol_domain::evidence::sent_file_name),
            uploaded_by: None,
            created_at: now,
        });
        if db.media(key).await?.is_none() {
            new_files.push((key.to_owned(), cleaned.bytes));
        }
    }
    let today = enrol_domain::london::today(now);
    let pack = ContentPack::read(root, today, media).with_context(|| format!("Failed to read the content pack in {}", root.display()))?;
    for (key, bytes) in &new_files {
        store.put(key, bytes).await?;
    }
    let loaded = pack.write(db).await?;
    tracing::info!(counts = ?pack.counts, documents = loaded.documents, seeds = loaded.seeds, media = loaded.media, "Content loaded where new");
    Ok(())
}

/// Writes the published content into `dir` as a pack, with the images it
/// names: from the pack's folder, and uploads from the file store.
async fn export_content(db: &Db, config: &Config, dir: &std::path::Path) -> anyhow::Result<()> {
    let images = enrol_db::content::export(db, dir).await?;
    let store = file_store::from_config(config)?;
    for file in &images {
        let to = dir.join("images").join(file);
        if let Some(folder) = to.parent() {
            std::fs::create_dir_all(folder).with_context(|| format!("Failed to create {}", folder.display()))?;
        }
        // An upload is in the file store under its key; the rest in the pack's folder.
        let upload = file.strip_prefix("uploads/").and_then(|name| name.split_once('.')).map(|(key, _)| key);
        let bytes = match upload {
            Some(key) => store.get(key).await?.with_context(|| format!("The uploaded image {file} is not in the file store"))?,
            None => {
                std::fs::read(config.content_dir.join("images").join(file)).with_context(|| format!("Failed to read the image {file}"))?
            }
        };
        std::fs::write(&to, bytes).with_context(|| format!("Failed to write {}", to.display()))?;
    }
    tracing::info!(dir = %dir.display(), images = images.len(), "Content exported");
    Ok(())
}

/// The demo students of `ENROL_DEMO_STUDENTS` (decision 014), once.
async fn load_demo_students(db: &Db, config: &Config) -> anyhow::Result<()> {
    let hash = accounts::hash_password(DEMO_STUDENT_PASSWORD.to_owned()).await?;
    let issuer = http::receipts::issuer(db, config).await?;
    if db.load_demo_students(&hash, &issuer, &http::receipts::new_document_link(config), Utc::now()).await? {
        tracing::info!(email = enrol_db::DEMO_STUDENT_EMAIL, "Demo students added");
    }
    Ok(())
}

/// The demo student's password (README); the accounts exist only outside production.
pub const DEMO_STUDENT_PASSWORD: &str = "training day 2027";

/// Everything a request handler reaches.
pub struct AppState {
    pub config: Config,
    pub db: Db,
    pub ssr: SsrPool,
    pub assets: ClientAssets,
    pub pages: PageCache,
    pub catalogue: CatalogueCache,
    pub payments: Arc<dyn PaymentGateway>,
    /// The content version the page cache is valid for.
    pub content_version: AtomicI64,
    /// The seats version (holds and registrations) it is valid for.
    pub availability_version: AtomicI64,
    /// The London day it is valid for (days from the common era): pages
    /// list the dates and articles from today on.
    pub cache_day: AtomicI64,
    /// `config.tracking` as the JSON every page carries.
    pub tracking_json: String,
    /// What the image cache holds, against its limit.
    pub image_cache: http::images::ImageCache,
    /// The account data API's schema (`POST /api/graphql`).
    pub graphql: http::graphql::AccountSchema,
    /// The files students send and the images staff upload.
    pub files: Arc<dyn file_store::FileStore>,
}

pub struct App {
    pub state: Arc<AppState>,
}

impl App {
    /// Connects to the database (loading the demo content into an empty
    /// one), starts the render engines and reads the browser build.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let db = Db::connect(&config.database_url).await?;
        if db.content_version().await? == 0 {
            tracing::info!(dir = %config.content_dir.display(), "Empty database: loading the demo content");
            load_content(&db, &config).await?;
        }
        if config.demo_students {
            load_demo_students(&db, &config).await?;
        }
        let bundle_path = config.web_dist.join("server/entry-server.js");
        let bundle = std::fs::read_to_string(&bundle_path)
            .with_context(|| format!("Failed to read {}: build the pages first (make web)", bundle_path.display()))?;
        let ssr = SsrPool::start(&bundle, config.ssr_engines, Limits::default())?;
        let assets = ClientAssets::read(&config.web_dist.join("client"))?;
        let (content, seats) = db.catalogue_versions().await?;
        let (content_version, availability_version) = (AtomicI64::new(content), AtomicI64::new(seats));
        let payments = gateway::build(&config.payments, db.clone());
        tracing::info!(gateway = payments.kind().as_str(), "Payments");
        let tracking_json = serde_json::to_string(&config.tracking)?;
        let image_cache = http::images::ImageCache::new(&config.image_cache, config.image_cache_max_bytes);
        let files = file_store::from_config(&config)?;
        let graphql = http::graphql::schema(config.environment == config::Environment::Production);
        let state = Arc::new(AppState {
            config,
            db,
            ssr,
            assets,
            pages: PageCache::new(),
            catalogue: CatalogueCache::default(),
            payments,
            content_version,
            availability_version,
            cache_day: AtomicI64::new(london_day(Utc::now())),
            tracking_json,
            image_cache,
            files,
            graphql,
        });
        Ok(App { state })
    }

    pub async fn serve(self, listener: TcpListener, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        tracing::info!(address = %listener.local_addr()?, "Enrol is listening");
        let watcher = tokio::spawn(watch_content_version(Arc::clone(&self.state)));
        let reconciler = tokio::spawn(reconcile::run_jobs(Arc::clone(&self.state)));
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
        axum::serve(listener, router.into_make_service_with_connect_info::<std::net::SocketAddr>())
            .with_graceful_shutdown(shutdown)
            .await
            .context("The server failed")?;
        watcher.abort();
        reconciler.abort();
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

fn london_day(now: chrono::DateTime<Utc>) -> i64 {
    i64::from(chrono::Datelike::num_days_from_ce(&enrol_domain::london::today(now)))
}

/// Reads the content and seats versions, and drops the cached pages when
/// either moved or a new day began in London (pages list what is still to
/// come, and articles from their day on): every two seconds, and at once
/// on the instance where staff published a change.
pub async fn notice_versions(state: &AppState, now: chrono::DateTime<Utc>) -> anyhow::Result<()> {
    let (content, seats) = state.db.catalogue_versions().await?;
    let content_changed = state.content_version.swap(content, Ordering::Relaxed) != content;
    let seats_changed = state.availability_version.swap(seats, Ordering::Relaxed) != seats;
    let day = london_day(now);
    let new_day = state.cache_day.swap(day, Ordering::Relaxed) != day;
    if content_changed {
        tracing::info!(version = content, "Content changed; page cache dropped");
    }
    if content_changed || seats_changed || new_day {
        state.pages.clear();
    }
    Ok(())
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    tracing::info!("Shutting down");
}

#[cfg(test)]
mod tests {
    use super::Command;

    fn parse(args: &[&str]) -> anyhow::Result<Command> {
        Command::parse(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn parses_the_commands() {
        assert_eq!(parse(&[]).unwrap(), Command::Serve);
        assert_eq!(parse(&["serve"]).unwrap(), Command::Serve);
        assert_eq!(parse(&["content", "load"]).unwrap(), Command::LoadContent);
        assert_eq!(parse(&["content", "export", "out"]).unwrap(), Command::ExportContent("out".into()));
        assert!(parse(&["content"]).is_err());
        assert_eq!(
            parse(&["staff", "add", "--owner", "o@college.test"]).unwrap(),
            Command::AddOwner { email: "o@college.test".into(), name: "Owner".into() }
        );
        assert_eq!(
            parse(&["staff", "add", "--owner", "o@college.test", "--name", "Ada"]).unwrap(),
            Command::AddOwner { email: "o@college.test".into(), name: "Ada".into() }
        );
        assert!(parse(&["staff", "add", "o@college.test"]).is_err());
        assert!(parse(&["serve", "now"]).is_err());
    }
}
