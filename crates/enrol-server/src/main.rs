use enrol_server::{Command, config::Config};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    enrol_server::telemetry::init(&config);
    let _reporting = enrol_server::telemetry::init_error_reporting(&config);
    let command = Command::parse(std::env::args().skip(1))?;
    enrol_server::execute(command, config).await
}
