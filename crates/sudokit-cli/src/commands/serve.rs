//! `sudokit serve`: the solving service (SPEC §5), muduo's sudoku protocol on
//! TCP, extended with sliding puzzles. The server itself lives in the
//! `sudokit-server` crate; this file turns flags into its configuration.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use sudokit_server::addr::parse_addr;
use sudokit_server::server::{self, Config};

/// Options of `sudokit serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on: HOST:PORT (an IPv6 host in brackets), or :PORT for
    /// 127.0.0.1:PORT; 0.0.0.0:PORT for every interface (muduo's port is 9981).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9981", value_parser = parse_addr)]
    pub listen: SocketAddr,
    /// Worker threads that solve (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Threads doing network I/O (default: one per four cores, at least one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub io_threads: Option<u16>,
    /// Connections open at once; past it the idlest connection (idle for a
    /// second or more) is closed to make room, else the newcomer is answered
    /// `ServerTooBusy` and closed.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Connections open at once from one client address (same rule).
    #[arg(long, value_name = "N", default_value_t = 1_000)]
    pub max_connections_per_peer: usize,
    /// Requests per connection whose replies are not yet written beyond which
    /// new ones are answered `ServerTooBusy`.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub pending_bound: usize,
    /// Bytes one connection may hold in queued requests and unwritten
    /// replies: `ServerTooBusy` past half of it, reading paused at it.
    #[arg(long, value_name = "BYTES", default_value_t = 4 << 20)]
    pub connection_bytes: usize,
    /// Bytes the whole server may hold for its clients (input buffers,
    /// queued requests, unwritten replies), with the same two steps.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 30)]
    pub server_bytes: usize,
    /// Seconds of heavy work (grids over 64 cells other than 9×9, and
    /// 15-puzzles) one connection may have waiting: its heavy requests
    /// waiting times the CPU time each has been measured to take. More is
    /// answered `ServerTooBusy`.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub queued_cpu: f64,
    /// Close a connection after this many seconds without a complete request
    /// or a reply taken (single bytes do not count).
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub idle_timeout: f64,
    /// A request line must arrive whole within this many seconds of its
    /// first byte, or the connection is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub request_timeout: f64,
    /// Answer `Timeout` to a request still unanswered after this many
    /// seconds (0: no limit); only grids over 64 cells other than 9×9, and
    /// 15-puzzles, can take that long.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub solve_timeout: f64,
    /// On SIGINT/SIGTERM, how many seconds to keep answering the requests
    /// already read before closing the connections still open (and exiting
    /// with status 1); a second signal closes them at once.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub shutdown_grace: f64,
    /// Do not build the sliding-puzzle tables at start-up (the first
    /// 15-puzzle request then waits seconds for them).
    #[arg(long)]
    pub no_warm_up: bool,
    /// Serve Prometheus metrics over HTTP at ADDR/metrics (the same address
    /// forms as --listen, e.g. :9982).
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    pub metrics: Option<SocketAddr>,
    /// Log level on standard error: error, warn, info, debug or trace. The
    /// log is coloured only as --color says (by default: on a terminal).
    #[arg(long, value_name = "LEVEL", default_value = "info")]
    pub log: tracing::Level,
}

/// Runs the service until SIGINT or SIGTERM; exit status 1 when the
/// shutdown had to close connections with requests unanswered.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_max_level(args.log)
        .with_writer(std::io::stderr)
        .with_ansi(crate::color::stderr())
        .init();
    let positive = |seconds: f64, flag: &str| {
        Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|t| !t.is_zero())
            .ok_or_else(|| anyhow::anyhow!("--{flag} must be a positive number of seconds"))
    };
    let idle_timeout = positive(args.idle_timeout, "idle-timeout")?;
    let request_timeout = positive(args.request_timeout, "request-timeout")?;
    let queued_cpu = positive(args.queued_cpu, "queued-cpu")?;
    let shutdown_grace = Duration::try_from_secs_f64(args.shutdown_grace)
        .map_err(|_| anyhow::anyhow!("--shutdown-grace must be a number of seconds"))?;
    let solve_timeout = Duration::try_from_secs_f64(args.solve_timeout).map_err(|_| {
        anyhow::anyhow!("--solve-timeout must be a number of seconds, 0 for no limit")
    })?;
    let defaults = Config::default();
    let cores = defaults.workers;
    let config = Config {
        listen: args.listen,
        workers: args.threads.map_or(cores, usize::from),
        max_connections: args.max_connections,
        max_connections_per_peer: args.max_connections_per_peer,
        pending_bound: args.pending_bound,
        connection_bytes: args.connection_bytes,
        server_bytes: args.server_bytes,
        queued_cpu,
        idle_timeout,
        request_timeout,
        solve_timeout: (!solve_timeout.is_zero()).then_some(solve_timeout),
        shutdown_grace,
        metrics: args.metrics,
        warm_up: !args.no_warm_up,
    };
    let io_threads = args.io_threads.map_or((cores / 4).max(1), usize::from);
    let report = server::serve_until_signal(config, io_threads)?;
    Ok(if report.forced {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
