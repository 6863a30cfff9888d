//! Logs: readable in development, JSON lines in production.

use tracing_subscriber::EnvFilter;

use crate::config::{Config, Environment};

pub fn init(config: &Config) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match config.environment {
        Environment::Development => builder.init(),
        Environment::Production => builder.json().flatten_event(true).with_current_span(true).init(),
    }
}
