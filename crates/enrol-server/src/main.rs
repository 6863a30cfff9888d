use enrol_server::{Command, config::Config};

fn main() -> anyhow::Result<()> {
    one_malloc_arena_per_core();
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(async {
        let config = Config::from_env()?;
        enrol_server::telemetry::init(&config);
        let _reporting = enrol_server::telemetry::init_error_reporting(&config);
        let command = Command::parse(std::env::args().skip(1))?;
        enrol_server::execute(command, config).await
    })
}

/// glibc gives every thread that allocates while another holds an arena a
/// new one, up to eight per core, and each keeps the memory it was given:
/// the runtime's workers, the render engines and the database's threads
/// held 16 MB more at the benchmark's peak (114 MB against 98 with
/// `MALLOC_ARENA_MAX=2` on a 2-core machine, with the same figures
/// otherwise). One arena per core, set before any thread starts; a
/// `MALLOC_ARENA_MAX` in the environment still has the last word.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_malloc_arena_per_core() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let arenas = libc::c_int::try_from(cores).unwrap_or(libc::c_int::MAX);
    // SAFETY: mallopt only sets a tunable of glibc's allocator, and no
    // other thread exists yet to allocate while it does.
    #[allow(unsafe_code)]
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, arenas);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_malloc_arena_per_core() {}
