//! The command line: serve, load or export the content, add the first owner.

use anyhow::Context as _;
use chrono::Utc;
use tokio::net::TcpListener;

use enrol_db::Db;

use crate::app::App;
use crate::config::Config;
use crate::content_pack::{export_content, load_content};
use crate::staff_auth;

/// What the binary was asked to do.
#[derive(Debug, PartialEq, Eq)]
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
            _ => anyhow::bail!(
                "usage: enrol [serve] | enrol migrate | enrol content load | enrol content export DIR | enrol staff add --owner EMAIL [--name NAME]"
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
        assert!(parse(&["serve", "now"]).is_err());
    }
}
