//! `sudokit load`: drives a solving service with puzzles from a file, checks
//! every answer, and prints requests/s and latency percentiles (SPEC §5). The
//! client itself lives in the `sudokit-server` crate.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use sudokit_server::addr::parse_addr;
use sudokit_server::load::{self, LoadConfig, Stop, Workload};

/// Options of `sudokit load`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// Puzzles to send, one per line (Sudoku, 8- or 15-puzzles); they are sent
    /// round and round until the run ends.
    pub input: PathBuf,
    /// The server: HOST:PORT, [IPv6]:PORT, or :PORT for 127.0.0.1:PORT.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9981", value_parser = parse_addr)]
    pub addr: SocketAddr,
    /// Connections to open.
    #[arg(long, short = 'c', value_name = "C", default_value_t = 1)]
    pub connections: usize,
    /// Requests in flight per connection (closed loop).
    #[arg(long, short = 'p', value_name = "P", default_value_t = 1)]
    pub pipeline: usize,
    /// Open loop: send R requests per second in total, whatever the answers
    /// do (latency counts from when each request was due).
    #[arg(long, value_name = "R")]
    pub rate: Option<f64>,
    /// Requests to send in total (default: one pass over the file).
    #[arg(long, short = 'n', value_name = "N", conflicts_with = "duration")]
    pub requests: Option<u64>,
    /// Send for this many seconds instead of a number of requests.
    #[arg(long, value_name = "S")]
    pub duration: Option<f64>,
    /// Client I/O threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub io_threads: usize,
}

/// Runs the load; exit status 1 if any answer was wrong or missing.
pub fn run(args: &LoadArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read(&args.input)
        .with_context(|| format!("cannot read {}", args.input.display()))?;
    let workload = Workload::parse(&text).with_context(|| args.input.display().to_string())?;
    let stop = match (args.duration, args.requests) {
        (Some(seconds), _) => {
            anyhow::ensure!(
                seconds.is_finite() && seconds > 0.0,
                "--duration must be a positive number of seconds"
            );
            Stop::Duration(Duration::from_secs_f64(seconds))
        }
        (None, Some(n)) => Stop::Requests(n),
        (None, None) => Stop::Requests(workload.len() as u64),
    };
    let mode = match args.rate {
        Some(rate) => format!("open loop at {rate} requests/s"),
        None => format!("closed loop, pipeline {}", args.pipeline),
    };
    eprintln!(
        "sudokit load: {} puzzles from {}, {} connections to {}, {mode}",
        workload.len(),
        args.input.display(),
        args.connections,
        args.addr
    );
    let config = LoadConfig {
        addr: args.addr,
        connections: args.connections,
        pipeline: args.pipeline,
        rate: args.rate,
        stop,
        drain_timeout: Duration::from_secs(30),
    };
    let report = load::run_blocking(config, workload, args.io_threads)?;
    for sample in &report.samples {
        eprintln!("sudokit load: {sample}");
    }
    println!("{report}");
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
