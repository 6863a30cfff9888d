use std::path::PathBuf;
use std::sync::Arc;

use enrol_db::Db;
use enrol_server::config::{ClientLimits, Config};
use enrol_server::{App, AppState};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

#[derive(Debug, Clone, Copy)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

const POSTGRES_DEFAULT: &str = "postgres://postgres@127.0.0.1:5432/postgres";

pub(crate) fn postgres_admin_url() -> String {
    std::env::var("ENROL_TEST_POSTGRES_URL").unwrap_or_else(|_| POSTGRES_DEFAULT.to_owned())
}

/// The folder of the files a test's apps write over `database_url` (their
/// uploads, their image caches): named for the database and removed with it.
pub fn scratch_of(database_url: &str) -> PathBuf {
    let name = database_url.rsplit('/').next().unwrap_or_default().trim_end_matches(".db");
    std::env::temp_dir().join("enrol-tests").join(name)
}

/// A database made for one test, with its [`scratch_of`] folder.
/// [`TestDatabase::drop_now`] removes both; a test that ends without (an
/// early return, a failed assertion, an app never stopped) removes them when
/// the value is dropped, so no run leaves databases or files behind.
pub struct TestDatabase {
    pub url: String,
    name: String,
    backend: Backend,
    removed: bool,
}

impl TestDatabase {
    pub async fn drop_now(mut self) {
        self.remove().await.expect("drop the test database");
        self.removed = true;
    }

    async fn remove(&self) -> sqlx::Result<()> {
        let _ = std::fs::remove_dir_all(scratch_of(&self.url));
        match self.backend {
            Backend::Sqlite => {
                let path = self.url.trim_start_matches("sqlite://");
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{path}{suffix}"));
                }
                Ok(())
            }
            Backend::Postgres => {
                let admin = sqlx::PgPool::connect(&postgres_admin_url()).await?;
                let dropped =
                    sqlx::query(sqlx::AssertSqlSafe(format!("drop database if exists {} with (force)", self.name))).execute(&admin).await;
                admin.close().await;
                dropped.map(drop)
            }
        }
    }
}

impl Drop for TestDatabase {
    /// Drop cannot wait on the test's runtime, so the removal runs on a
    /// thread of its own with a runtime of its own, and the drop waits for
    /// it. It does not panic: a test that failed keeps its own message.
    fn drop(&mut self) {
        if self.removed {
            return;
        }
        let database = &*self;
        let removed = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()?
                        .block_on(database.remove())
                        .map_err(std::io::Error::other)
                })
                .join()
        });
        if !matches!(removed, Ok(Ok(()))) {
            eprintln!("the test database {} was left on the server: {removed:?}", self.name);
        }
    }
}

/// A fresh, empty database of the backend; `None` when PostgreSQL is not
/// reachable outside CI (under `CI=true` that is a failure).
pub async fn fresh_database(backend: Backend) -> Option<TestDatabase> {
    let name = format!("enrol_test_{}", uuid::Uuid::now_v7().simple());
    match backend {
        Backend::Sqlite => {
            let dir = std::env::temp_dir().join("enrol-tests");
            std::fs::create_dir_all(&dir).expect("temp folder");
            let url = format!("sqlite://{}", dir.join(format!("{name}.db")).display());
            Some(TestDatabase { url, name, backend, removed: false })
        }
        Backend::Postgres => {
            let admin_url = postgres_admin_url();
            let admin = match sqlx::PgPool::connect(&admin_url).await {
                Ok(pool) => pool,
                Err(error) => {
                    if std::env::var("CI").is_ok_and(|v| v == "true") {
                        panic!("PostgreSQL at {admin_url} is required under CI=true: {error}");
                    }
                    eprintln!("SKIPPED: PostgreSQL tests, {admin_url} unreachable ({error})");
                    return None;
                }
            };
            sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}"))).execute(&admin).await.expect("create database");
            admin.close().await;
            let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(base, _)| base);
            Some(TestDatabase { url: format!("{base}/{name}"), name, backend, removed: false })
        }
    }
}

pub struct TestApp {
    pub address: String,
    pub database_url: String,
    pub client: reqwest::Client,
    pub state: Arc<AppState>,
    stop: Option<oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
    database: Option<TestDatabase>,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("request")
    }

    pub async fn text(&self, path: &str) -> (u16, String) {
        let response = self.get(path).await;
        (response.status().as_u16(), response.text().await.expect("body"))
    }

    pub fn db(&self) -> &Db {
        &self.state.db
    }

    /// A second instance of the app on the same database, as behind a load
    /// balancer. Stopping it leaves the database to the first.
    pub async fn another_instance(&self) -> TestApp {
        self.another_instance_with(|_| {}).await
    }

    /// [`TestApp::another_instance`] with the configuration changed by `change` first.
    pub async fn another_instance_with(&self, change: impl FnOnce(&mut Config)) -> TestApp {
        let mut config = test_config(self.database_url.clone());
        change(&mut config);
        let mut app = serve(config).await;
        app.database_url = self.database_url.clone();
        app
    }

    /// The app with `config`, on a database the caller keeps (and drops).
    pub async fn with_config(config: Config) -> TestApp {
        serve(config).await
    }

    /// Stops the server gracefully, waits for it and removes its database.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            server.await.expect("server task").expect("server ran");
        }
        if let Some(database) = self.database.take() {
            database.drop_now().await;
        }
    }
}

pub fn test_config(database_url: String) -> Config {
    let root = repo_root();
    let mut config = Config::from_lookup(|_| None).expect("config");
    config.database_url = database_url;
    config.web_dist = root.join("web/dist");
    config.content_dir = root.join("content");
    config.ssr_engines = 1;
    let scratch = scratch_of(&config.database_url);
    config.uploads_dir = scratch.join(format!("uploads-{}", uuid::Uuid::new_v4().simple()));
    config.image_cache = scratch.join(format!("image-cache-{}", uuid::Uuid::new_v4().simple()));
    // Tests speak for many clients through the "proxy" at 127.0.0.1
    // (`X-Forwarded-For`); the per-client limits have tests of their own.
    config.trusted_proxies = vec!["127.0.0.1".parse().expect("an address")];
    config.limits = ClientLimits { writes_per_minute: 60_000, write_burst: 10_000, live_orders: 10_000, browsers_per_address: 1 };
    config
}

/// Starts the app on a free port with a fresh database of `backend`.
pub async fn spawn_app(backend: Backend) -> Option<TestApp> {
    spawn_app_with(backend, |_| {}).await
}

/// [`spawn_app`] with the configuration changed by `change` first.
pub async fn spawn_app_with(backend: Backend, change: impl FnOnce(&mut Config)) -> Option<TestApp> {
    let database = fresh_database(backend).await?;
    let mut config = test_config(database.url.clone());
    change(&mut config);
    let mut app = serve(config).await;
    app.database = Some(database);
    Some(app)
}

/// Starts the app with `config` on a free port. Its errors show in the
/// failing test's output (`RUST_LOG` widens that).
async fn serve(mut config: Config) -> TestApp {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "error".into());
    let _ = tracing_subscriber::fmt().with_test_writer().with_env_filter(filter).try_init();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    config.public_url = address.clone();
    let database_url = config.database_url.clone();
    let app = App::build(config).await.expect("app builds");
    let state = Arc::clone(&app.state);
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(app.serve(listener, async {
        let _ = stopped.await;
    }));
    let client = browser();
    TestApp { address, database_url, client, state, stop: Some(stop), server: Some(server), database: None }
}

/// Runs an async test body once per backend; `#[config(|config| …)]`
/// before a test changes the app's configuration first.
#[macro_export]
macro_rules! both_backends {
    ($($(#[config($change:expr)])? async fn $name:ident($app:ident: TestApp) $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;
                #[allow(unused_imports)]
                use $crate::helpers::*;

                async fn run($app: TestApp) $body

                #[allow(unused_variables)]
                fn configure(config: &mut enrol_server::config::Config) {
                    $(let change: fn(&mut enrol_server::config::Config) = $change; change(config);)?
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let app = spawn_app_with(Backend::Sqlite, configure).await.expect("SQLite is always available");
                    run(app).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(app) = spawn_app_with(Backend::Postgres, configure).await {
                        run(app).await;
                    }
                }
            }
        )*
    };
}

/// A new browser: its own cookie jar (the buyer cookie that binds orders,
/// the session cookie), redirects left for the test to follow.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).cookie_store(true).build().expect("client")
}
