//! `enrol demo grow` (decision 037): a decade of made-up students and
//! orders in the configured database, for benchmarks at the size of a
//! busy college. Never in production; once per database.

use std::time::Instant;

use chrono::Utc;

use enrol_db::{Db, GrownHistory};
use enrol_domain::grow::GrowPlan;

use crate::accounts;
use crate::config::{Config, Environment};
use crate::content_pack;
use crate::demo_students::DEMO_STUDENT_PASSWORD;
use crate::print::receipt;

/// Refuses production: the history is made-up people with a published password.
pub fn refuse_production(config: &Config) -> anyhow::Result<()> {
    anyhow::ensure!(
        config.environment != Environment::Production,
        "enrol demo grow adds made-up students with a published password: it cannot run with ENROL_ENV=production"
    );
    Ok(())
}

/// Grows `plan`'s history from `seed` into `db`, whose content is loaded
/// first when it has none (as `enrol serve` does). Grown students sign in
/// with the demo students' password.
pub async fn grow(db: &Db, config: &Config, plan: GrowPlan, seed: u64) -> anyhow::Result<GrownHistory> {
    refuse_production(config)?;
    if db.content_version().await? == 0 {
        tracing::info!(dir = %config.content_dir.display(), "Empty database: loading the demo content");
        content_pack::load_content(db, config).await?;
    }
    let hash = accounts::hash_password(DEMO_STUDENT_PASSWORD.to_owned()).await?;
    let issuer = receipt::issuer(db, config).await?;
    db.grow(plan, seed, &issuer, &hash, Utc::now()).await
}

/// `enrol demo grow`: grows the history and prints what it made.
pub(crate) async fn run(config: &Config, plan: GrowPlan, seed: u64) -> anyhow::Result<()> {
    refuse_production(config)?;
    let started = Instant::now();
    let db = Db::connect(&config.database_url).await?;
    let grown = grow(&db, config, plan, seed).await;
    db.close().await;
    let grown = grown?;
    println!("{}", report(&grown, plan, seed, started.elapsed().as_secs_f64()));
    Ok(())
}

/// What was grown, a table a line.
pub fn report(grown: &GrownHistory, plan: GrowPlan, seed: u64, seconds: f64) -> String {
    let mut out = format!("Grew {} years at scale {} from seed {seed} in {seconds:.1} s\n", plan.years, plan.scale);
    let mut total = 0;
    for (table, rows) in &grown.tables {
        out.push_str(&format!("  {table:<22}{rows:>10}\n"));
        total += rows;
    }
    out.push_str(&format!("  {:<22}{total:>10}", "rows in all"));
    if let Some(bytes) = grown.bytes {
        #[allow(clippy::cast_precision_loss)]
        let megabytes = bytes as f64 / 1_048_576.0;
        out.push_str(&format!("\nDatabase size: {megabytes:.1} MB"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_is_refused() {
        let mut config = Config::from_lookup(|_| None).expect("config");
        assert!(refuse_production(&config).is_ok());
        config.environment = Environment::Production;
        assert!(refuse_production(&config).unwrap_err().to_string().contains("ENROL_ENV=production"));
    }

    #[test]
    fn the_report_lists_each_table_and_the_total() {
        let grown = GrownHistory { tables: vec![("user_account", 60), ("enrollment", 300)], bytes: Some(2 * 1_048_576) };
        let plan = GrowPlan::new(2, 0.005).unwrap();
        let text = report(&grown, plan, 7, 1.31);
        assert!(text.starts_with("Grew 2 years at scale 0.005 from seed 7 in 1.3 s"), "{text}");
        assert!(text.contains("enrollment") && text.contains("360") && text.contains("2.0 MB"), "{text}");
    }
}
