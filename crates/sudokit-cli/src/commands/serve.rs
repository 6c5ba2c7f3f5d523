//! `sudokit serve`: the solving service (SPEC §5), muduo's sudoku protocol on
//! TCP, extended with sliding puzzles. The server itself lives in the
//! `sudokit-server` crate; this file turns flags into its configuration.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use sudokit_server::server::{self, Config};

/// Options of `sudokit serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (muduo's port is 9981).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9981")]
    pub listen: SocketAddr,
    /// Worker threads that solve (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Threads doing network I/O (default: one per four cores, at least one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub io_threads: Option<u16>,
    /// Connections open at once; more are answered `ServerTooBusy` and closed.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Requests waiting for a worker beyond which new ones are answered
    /// `ServerTooBusy`.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub queue_bound: usize,
    /// Requests per connection whose replies are not yet written beyond which
    /// new ones are answered `ServerTooBusy`.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub pending_bound: usize,
    /// Close a connection after this many seconds without traffic.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub idle_timeout: f64,
    /// Answer `Timeout` to a Sudoku still unsolved after this many seconds
    /// (0: no limit); only grids other than 9×9 and beyond 64 cells can take
    /// that long.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub solve_timeout: f64,
    /// Do not build the sliding-puzzle tables at start-up (the first
    /// 15-puzzle request then waits for them: seconds).
    #[arg(long)]
    pub no_warm_up: bool,
    /// Serve Prometheus metrics over HTTP at ADDR/metrics.
    #[arg(long, value_name = "ADDR")]
    pub metrics: Option<SocketAddr>,
    /// Log level on standard error: error, warn, info, debug or trace.
    #[arg(long, value_name = "LEVEL", default_value = "info")]
    pub log: tracing::Level,
}

/// Runs the service until SIGINT or SIGTERM.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_max_level(args.log)
        .with_writer(std::io::stderr)
        .init();
    let idle_timeout = Duration::try_from_secs_f64(args.idle_timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| anyhow::anyhow!("--idle-timeout must be a positive number of seconds"))?;
    let solve_timeout = Duration::try_from_secs_f64(args.solve_timeout).map_err(|_| {
        anyhow::anyhow!("--solve-timeout must be a number of seconds, 0 for no limit")
    })?;
    let defaults = Config::default();
    let cores = defaults.workers;
    let config = Config {
        listen: args.listen,
        workers: args.threads.map_or(cores, usize::from),
        max_connections: args.max_connections,
        queue_bound: args.queue_bound,
        pending_bound: args.pending_bound,
        idle_timeout,
        solve_timeout: (!solve_timeout.is_zero()).then_some(solve_timeout),
        metrics: args.metrics,
        warm_up: !args.no_warm_up,
    };
    let io_threads = args.io_threads.map_or((cores / 4).max(1), usize::from);
    server::serve_until_signal(config, io_threads)?;
    Ok(ExitCode::SUCCESS)
}
