//! The command line: serve, load or export the content, add the first
//! owner, run the scheduled jobs once, grow a demo history.

use anyhow::Context as _;
use chrono::Utc;
use tokio::net::TcpListener;

use enrol_db::Db;
use enrol_domain::grow::{DEFAULT_SEED, GrowPlan};

use crate::app::App;
use crate::config::Config;
use crate::content_pack::{export_content, load_content};
use crate::staff_auth;
use crate::{demo_history, jobs};

/// What the binary was asked to do.
#[derive(Debug, PartialEq)]
pub enum Command {
    Serve,
    /// `enrol migrate`: applies the migrations, as the database's owner.
    Migrate,
    LoadContent,
    /// `enrol content export DIR`: the published content as a pack.
    ExportContent(std::path::PathBuf),
    /// `enrol staff add --owner EMAIL [--name NAME]`: the first owner.
    AddOwner {
        email: String,
        name: String,
    },
    /// `enrol demo grow [--years Y] [--seed N] [--scale F]`: a made-up
    /// history of `years` (default 10) at `scale` (default 1).
    Grow {
        plan: GrowPlan,
        seed: u64,
    },
    /// `enrol jobs run`: each scheduled job once, with the time it took.
    RunJobs,
}

const USAGE: &str = "usage: enrol [serve] | enrol migrate | enrol content load | enrol content export DIR | \
enrol staff add --owner EMAIL [--name NAME] | enrol jobs run | enrol demo grow [--years 10] [--seed N] [--scale 1]";

/// The options of `enrol demo grow`, in any order, each at most once.
fn parse_grow(options: &[&str]) -> anyhow::Result<Command> {
    let (mut years, mut seed, mut scale) = (None, None, None);
    for pair in options.chunks(2) {
        let [name, value] = pair else { anyhow::bail!("{USAGE}") };
        let bad = || anyhow::anyhow!("{name} {value:?} is not a number; {USAGE}");
        let slot_taken = match *name {
            "--years" => years.replace(value.parse::<u32>().map_err(|_| bad())?).is_some(),
            "--seed" => seed.replace(value.parse::<u64>().map_err(|_| bad())?).is_some(),
            "--scale" => scale.replace(value.parse::<f64>().map_err(|_| bad())?).is_some(),
            _ => anyhow::bail!("{USAGE}"),
        };
        anyhow::ensure!(!slot_taken, "{name} is given twice; {USAGE}");
    }
    let plan = GrowPlan::new(years.unwrap_or(10), scale.unwrap_or(1.0))?;
    Ok(Command::Grow { plan, seed: seed.unwrap_or(DEFAULT_SEED) })
}

impl Command {
    pub fn parse(args: impl Iterator<Item = String>) -> anyhow::Result<Self> {
        let args: Vec<String> = args.collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        match args.as_slice() {
            [] | ["serve"] => Ok(Command::Serve),
            ["migrate"] => Ok(Command::Migrate),
            ["content", "load"] => Ok(Command::LoadContent),
            ["content", "export", dir] => Ok(Command::ExportContent(dir.into())),
            ["staff", "add", "--owner", email] => Ok(Command::AddOwner { email: (*email).to_owned(), name: "Owner".to_owned() }),
            ["staff", "add", "--owner", email, "--name", name] => {
                Ok(Command::AddOwner { email: (*email).to_owned(), name: (*name).to_owned() })
            }
            ["jobs", "run"] => Ok(Command::RunJobs),
            ["demo", "grow", options @ ..] => parse_grow(options),
            _ => anyhow::bail!("{USAGE}"),
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
        Command::Migrate => {
            Db::connect(&config.database_url).await?.close().await;
            tracing::info!("The database has every migration");
            Ok(())
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
        Command::Grow { plan, seed } => demo_history::run(&config, plan, seed).await,
        Command::RunJobs => {
            let app = App::build(config).await?;
            let runs = jobs::run_each_once(&app.state).await;
            app.state.db.close().await;
            for run in runs? {
                let done = run.done.map_or_else(|| "skipped: another instance holds its lease".to_owned(), |done| format!("{done} done"));
                println!("{}: {:.1} ms, {done}", run.job.name(), run.took.as_secs_f64() * 1000.0);
            }
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
        enrol_db::AddedStaff::Added { .. } => Ok(staff_auth::setup_link(config.back_office_url(), &token)),
        enrol_db::AddedStaff::EmailTaken => anyhow::bail!("Someone on the staff already has the email {email}"),
    }
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
    use enrol_domain::grow::{DEFAULT_SEED, GrowPlan};

    use super::Command;

    fn parse(args: &[&str]) -> anyhow::Result<Command> {
        Command::parse(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn parses_the_commands() {
        assert_eq!(parse(&[]).unwrap(), Command::Serve);
        assert_eq!(parse(&["serve"]).unwrap(), Command::Serve);
        assert_eq!(parse(&["migrate"]).unwrap(), Command::Migrate);
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
        assert_eq!(parse(&["jobs", "run"]).unwrap(), Command::RunJobs);
        assert!(parse(&["jobs"]).is_err());
        assert!(parse(&["serve", "now"]).is_err());
    }

    #[test]
    fn parses_demo_grow_with_defaults_and_in_any_order() {
        let grow = |years, scale, seed| Command::Grow { plan: GrowPlan::new(years, scale).unwrap(), seed };
        assert_eq!(parse(&["demo", "grow"]).unwrap(), grow(10, 1.0, DEFAULT_SEED));
        assert_eq!(parse(&["demo", "grow", "--years", "10", "--seed", "7"]).unwrap(), grow(10, 1.0, 7));
        assert_eq!(parse(&["demo", "grow", "--years", "3"]).unwrap(), grow(3, 1.0, DEFAULT_SEED));
        assert_eq!(parse(&["demo", "grow", "--scale", "0.01", "--years", "2", "--seed", "1"]).unwrap(), grow(2, 0.01, 1));
        for wrong in [
            &["demo", "grow", "--years"][..],
            &["demo", "grow", "--years", "ten"],
            &["demo", "grow", "--years", "0"],
            &["demo", "grow", "--years", "30"],
            &["demo", "grow", "--scale", "-1"],
            &["demo", "grow", "--seed", "-1"],
            &["demo", "grow", "--seed", "1", "--seed", "2"],
            &["demo", "grow", "--colour", "red"],
            &["demo"],
        ] {
            assert!(parse(wrong).is_err(), "{wrong:?}");
        }
        assert!(parse(&["nonsense"]).unwrap_err().to_string().contains("enrol demo grow"));
    }
}
