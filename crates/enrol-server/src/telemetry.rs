//! Logs, on standard error so a command's output (`enrol jobs run`'s
//! times, `enrol staff add`'s link) is its own: readable in development,
//! JSON lines in production. Errors also go
//! to Sentry when `SENTRY_DSN` is set (decision 013), less what the ignore
//! rules of `enrol_domain::error_reporting` leave out, with personal data left out by default.

use std::borrow::Cow;
use std::sync::Arc;

use sentry::TransactionContext;
use sentry::protocol::Event;
use tracing_subscriber::EnvFilter;

use enrol_domain::error_reporting::is_ignored;

use crate::config::{Config, Environment};

pub fn init(config: &Config) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match config.environment {
        Environment::Development => builder.init(),
        Environment::Production => builder.json().flatten_event(true).with_current_span(true).init(),
    }
}

/// The message an event is about: its own, or its first exception's.
fn message_of(event: &Event<'_>) -> Option<String> {
    event.message.clone().or_else(|| event.exception.values.first().map(|e| format!("{}: {}", e.ty, e.value.clone().unwrap_or_default())))
}

/// Starts reporting errors to Sentry when `SENTRY_DSN` is set; reporting
/// stops when the guard is dropped (after sending what is queued).
pub fn init_error_reporting(config: &Config) -> Option<sentry::ClientInitGuard> {
    let reporting = config.tracking.error_reporting.as_ref()?;
    let options = sentry::ClientOptions {
        dsn: reporting.dsn.parse().ok(),
        environment: Some(Cow::Owned(reporting.environment.clone())),
        release: sentry::release_name!(),
        // Every trace.
        traces_sample_rate: 1.0,
        // Names, emails and addresses stay out of reports.
        send_default_pii: false,
        before_send: Some(Arc::new(|event: Event<'static>| {
            (!is_ignored(message_of(&event).as_deref(), event.transaction.as_deref())).then_some(event)
        })),
        // The ignore rules' transactions (health checks, the not-found page) are never sampled.
        traces_sampler: Some(Arc::new(|context: &TransactionContext| if is_ignored(None, Some(context.name())) { 0.0 } else { 1.0 })),
        ..Default::default()
    };
    Some(sentry::init(options))
}

/// Reports an error the server could not handle (a 500, a page that failed
/// to render); a no-op when reporting is off.
pub fn report(error: &anyhow::Error) {
    sentry::capture_message(&format!("{error:#}"), sentry::Level::Error);
}
