//! The `enrol` server: pages rendered by React in QuickJS, the JSON API and
//! the college's media, over one database.

pub mod accounts;
mod app;
pub mod assets;
pub mod back_office_origin;
pub mod buyer;
pub mod cache;
pub mod certificates;
mod cli;
pub mod config;
mod content_pack;
pub mod course_files;
pub mod demo_history;
mod demo_students;
pub mod document;
pub mod file_store;
pub mod gateway;
pub mod http;
pub mod images;
pub mod jobs;
pub mod mail_html;
pub mod mailer;
pub mod pages;
pub mod plans;
pub mod print;
pub mod provider;
pub mod reconcile;
pub mod refunds;
pub mod reminders;
pub mod scorm;
pub mod serve;
pub mod staff_auth;
mod state;
pub mod structured_data;
pub mod telemetry;

pub use app::App;
pub use cli::{Command, execute};
pub use demo_students::DEMO_STUDENT_PASSWORD;
pub use state::{AppState, notice_versions};
