//! The demo students of `ENROL_DEMO_STUDENTS` (decision 014): accounts
//! with bookings, records and a certificate, for trying the account area.
//! Never in production (the configuration refuses it).

use chrono::Utc;

use enrol_db::Db;

use crate::accounts;
use crate::config::Config;
use crate::print::receipt;

/// The demo students of `ENROL_DEMO_STUDENTS` (decision 014), once.
pub(crate) async fn load_demo_students(db: &Db, config: &Config) -> anyhow::Result<()> {
    let hash = accounts::hash_password(DEMO_STUDENT_PASSWORD.to_owned()).await?;
    let issuer = receipt::issuer(db, config).await?;
    if db.load_demo_students(&hash, &issuer, &receipt::new_document_link(config), Utc::now()).await? {
        tracing::info!(email = enrol_db::DEMO_STUDENT_EMAIL, "Demo students added");
    }
    Ok(())
}

/// The demo student's password (README); the accounts exist only outside production.
pub const DEMO_STUDENT_PASSWORD: &str = "training day 2027";
