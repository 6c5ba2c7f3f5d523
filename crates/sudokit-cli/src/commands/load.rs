//! `sudokit load`: drives a solving service with puzzles from a file, checks
//! every answer, and prints requests/s and latency percentiles (SPEC §5). The
//! client itself lives in the `sudokit-server` crate.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::Value;
use sudokit::parse::FormatSpec;
use sudokit_server::addr::parse_addr;
use sudokit_server::load::{self, LoadConfig, Report, Stop, Workload};

use super::input::InputArgs;
use super::output::{csv_columns, write_csv_header, OutputArgs, OutputFormat, Record};

/// Options of `sudokit load`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// Puzzles to send, one per line (Sudoku, 8- or 15-puzzles), read from
    /// the operands as by every command; they are sent round and round until
    /// the run ends.
    #[command(flatten)]
    pub input: InputArgs,
    /// The server: HOST:PORT (an IPv6 host in brackets), or :PORT for 127.0.0.1:PORT.
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
    /// When a connection closes or fails (a server restarting behind a
    /// load balancer), connect again for up to this many seconds and send
    /// again the requests it had in flight; the report counts them
    /// (closed loop only). Default: a lost connection's requests are errors.
    #[arg(long, value_name = "S")]
    pub reconnect: Option<f64>,
    /// Client I/O threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub io_threads: usize,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The fields of the run's one record, after the common ones.
const FIELDS: [&str; 15] = [
    "sent",
    "ok",
    "wrong",
    "busy",
    "timeouts",
    "errors",
    "resent",
    "reconnects",
    "seconds",
    "requests_per_second",
    "latency_us_min",
    "latency_us_p50",
    "latency_us_p90",
    "latency_us_p99",
    "latency_us_max",
];

/// Runs the load; exit status 1 if any answer was wrong or missing.
pub fn run(args: &LoadArgs) -> anyhow::Result<ExitCode> {
    let sources = args.input.open(&FormatSpec::default())?;
    let names: Vec<String> = sources.iter().map(|s| s.name.clone()).collect();
    let names = names.join(", ");
    let mut text = Vec::new();
    for source in sources {
        let name = source.name.clone();
        source
            .into_raw()
            .read_to_end(&mut text)
            .map_err(|e| anyhow::anyhow!("reading {name}: {e}"))?;
        if !text.ends_with(b"\n") {
            text.push(b'\n');
        }
    }
    let workload = Workload::parse(&text).map_err(|e| anyhow::anyhow!("{names}: {e}"))?;
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
        names,
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
        reconnect: args
            .reconnect
            .map(Duration::try_from_secs_f64)
            .transpose()
            .map_err(|_| anyhow::anyhow!("--reconnect must be a number of seconds"))?,
    };
    let report = load::run_blocking(config, workload, args.io_threads)?;
    for sample in &report.samples {
        eprintln!("sudokit load: {sample}");
    }
    let mut out = Vec::new();
    match args.output.format {
        OutputFormat::Text => out.extend_from_slice(format!("{report}\n").as_bytes()),
        OutputFormat::Jsonl => record(&report).write_json(&mut out),
        OutputFormat::Csv => {
            let columns = csv_columns(&FIELDS);
            write_csv_header(&columns, &mut out);
            record(&report).write_csv(&columns, &mut out);
        }
    }
    std::io::stdout().lock().write_all(&out)?;
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The run as one record: status `passed` (every answer right, none
/// missing) or `failed`, the answer counts, the rate and the latency
/// percentiles in microseconds.
fn record(report: &Report) -> Record<'static> {
    let us = |nanos: u64| Value::from(nanos as f64 / 1000.0);
    let quantile = |q: f64| us(report.latency.value_at_quantile(q));
    Record {
        number: 1,
        status: if report.passed() { "passed" } else { "failed" },
        fields: vec![
            ("sent", report.sent.into()),
            ("ok", report.ok.into()),
            ("wrong", report.wrong.into()),
            ("busy", report.busy.into()),
            ("timeouts", report.timeouts.into()),
            ("errors", report.errors.into()),
            ("resent", report.resent.into()),
            ("reconnects", report.reconnects.into()),
            ("seconds", report.elapsed.as_secs_f64().into()),
            ("requests_per_second", report.rate().into()),
            ("latency_us_min", us(report.latency.min())),
            ("latency_us_p50", quantile(0.5)),
            ("latency_us_p90", quantile(0.9)),
            ("latency_us_p99", quantile(0.99)),
            ("latency_us_max", us(report.latency.max())),
        ],
        ..Record::default()
    }
}
