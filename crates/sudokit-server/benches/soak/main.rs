//! Soak benchmark: the real `sudokit serve` binary under a mixed hostile and
//! normal load for a few minutes (issue 13, "nothing unbounded, nothing
//! lost"). Not a test: it measures, and its figures are compared between
//! commits.
//!
//! It starts the server as a child process on free loopback ports and runs,
//! all at once for the whole duration (see [`hostile`] for the sizes):
//!
//! 1. long ids, never reading: lines `<64 KB id>:<9×9>`, replies never read;
//! 2. padded lines: 9×9 puzzles with 60 KB of trailing text, read slowly or
//!    never;
//! 3. hard large grids: random 36×36 and 25×25 puzzles (some with a wrong
//!    clue) pipelined, and the 80-move 15-puzzle;
//! 4. abandoned work: 10,000 hard 9×9 pipelined, then a disconnect;
//! 5. an idle flood of thousands of connections;
//! 6. slowloris: thousands of connections sending a byte a second;
//! 7. pipelined load: 128 connections × 1,000 hard 9×9, replies read;
//!
//! and the probe, the well-behaved user ([`probe`]). Then it scrapes
//! `/metrics`, sends SIGTERM while the hostile connections are still open
//! and times the exit (SIGKILL after 30 s), and prints the server's peak
//! memory, the probe's latencies, what every scenario sent and got back,
//! and the server's counters, last as one JSON line.
//!
//! `cargo bench -p sudokit-server --bench soak`, after
//! `cargo build --release -p sudokit-cli`. Settings from the environment:
//! `SOAK_SERVER_BIN` (default: the workspace's `target/release/sudokit`),
//! `SOAK_SERVER_ARGS` (more `serve` arguments, split at whitespace),
//! `SOAK_SECONDS` (default 180), `SOAK_IDLE` (idle connections, default
//! 5000), `SOAK_SLOWLORIS` (default 2000). Everything stays on 127.0.0.0/8;
//! the hostile clients use source addresses 127.0.S.H to look like other
//! hosts. The server's log goes to `target/soak/server.log`.

mod child;
mod hostile;
mod net;
mod probe;
mod puzzles;
mod tally;
mod wire;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::task::JoinSet;

use child::{Samples, Server, Shutdown};
use hostile::Hostile;
use puzzles::{Puzzles, SLIDE_80, SLIDE_80_MOVES};
use tally::Probe;

/// How long the server may take to answer `/metrics` after it starts.
const START_LIMIT: Duration = Duration::from_secs(30);

/// How long the server may take to exit after SIGTERM before SIGKILL.
const SHUTDOWN_LIMIT: Duration = Duration::from_secs(30);

/// How long connections are held at most after sending stops, whatever
/// happens to the server (a bound on the whole run).
const HOLD_LIMIT: Duration = Duration::from_secs(120);

/// How often progress is printed on standard error.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// What every client task shares.
pub struct Soak {
    /// The server's service address.
    pub addr: SocketAddr,
    /// When sending stops.
    pub end: Instant,
    /// The sending time in seconds.
    pub seconds: f64,
    /// Becomes `true` when open connections may close (after the server's
    /// shutdown).
    pub release: watch::Receiver<bool>,
    /// What to send.
    pub puzzles: Puzzles,
    /// Idle connections to open.
    pub idle: usize,
    /// Slowloris connections to open.
    pub slowloris: usize,
}

impl Soak {
    /// Whether sending time lasts.
    pub fn sending(&self) -> bool {
        Instant::now() < self.end
    }

    /// Waits until connections may close (at most [`HOLD_LIMIT`] after the
    /// end of sending).
    pub async fn held(&self) {
        let limit = self.end + HOLD_LIMIT;
        let _ = tokio::time::timeout_at(limit.into(), self.released()).await;
    }

    /// Waits until connections may close.
    pub async fn released(&self) {
        let mut release = self.release.clone();
        let _ = release.wait_for(|&go| go).await;
    }
}

/// The settings read from the environment.
struct Settings {
    /// The server binary.
    bin: PathBuf,
    /// Extra `serve` arguments.
    args: Vec<String>,
    /// Sending time, seconds.
    seconds: f64,
    /// Idle connections.
    idle: usize,
    /// Slowloris connections.
    slowloris: usize,
}

/// The workspace root, two levels above this crate.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The environment variable `name` parsed, or `default` when unset.
fn env_number<T: std::str::FromStr>(name: &str, default: T) -> Result<T, String> {
    match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(text) => text
            .trim()
            .parse()
            .map_err(|_| format!("{name}={text:?} is not a valid number")),
    }
}

impl Settings {
    /// Reads `SOAK_*`; the binary must exist.
    fn from_env() -> Result<Settings, String> {
        let bin = std::env::var_os("SOAK_SERVER_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace().join("target/release/sudokit"));
        if !bin.is_file() {
            return Err(format!(
                "no server binary at {}: build it with `cargo build --release -p sudokit-cli` \
                 (or point SOAK_SERVER_BIN at one)",
                bin.display()
            ));
        }
        let args = std::env::var("SOAK_SERVER_ARGS")
            .map(|a| a.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        let seconds: f64 = env_number("SOAK_SECONDS", 180.0)?;
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
            return Err(format!("SOAK_SECONDS={seconds} must be in (0, 3600]"));
        }
        Ok(Settings {
            bin,
            args,
            seconds,
            idle: env_number("SOAK_IDLE", 5000)?,
            slowloris: env_number("SOAK_SLOWLORIS", 2000)?,
        })
    }
}

/// Raises this process's soft `RLIMIT_NOFILE` to its hard limit (the
/// server, started later, inherits it); the new limit.
fn raise_nofile() -> Result<u64, String> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit with a valid resource and a pointer
    // to a live, initialized rlimit.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return Err(format!("getrlimit: {}", std::io::Error::last_os_error()));
        }
        limit.rlim_cur = limit.rlim_max;
        if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
            return Err(format!("setrlimit: {}", std::io::Error::last_os_error()));
        }
    }
    Ok(limit.rlim_cur)
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("soak: {message}");
            ExitCode::from(2)
        }
    }
}

/// This process's CPU seconds (user + system) so far.
fn own_cpu_seconds() -> f64 {
    // SAFETY: an all-zero rusage is a valid value for getrusage to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage with RUSAGE_SELF and a pointer to a live rusage.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The machine's 1-minute load average, from `/proc/loadavg`.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Reads the settings, prepares the puzzles and runs the soak.
fn run() -> Result<ExitCode, String> {
    let settings = Settings::from_env()?;
    let nofile = raise_nofile()?;
    let hard9 = workspace().join("crates/sudokit/tests/data/hard9.txt");
    let puzzles = Puzzles::new(&hard9, &mut ChaCha8Rng::seed_from_u64(13))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    runtime.block_on(soak(settings, puzzles, nofile))
}

/// Everything the report shows.
struct Outcome {
    /// The settings.
    settings: Settings,
    /// The bench's descriptor limit, and the server's as it started.
    nofile: (u64, Option<u64>),
    /// The server, stopped.
    server: Arc<Server>,
    /// Its memory and descriptor peaks.
    samples: Arc<Samples>,
    /// The hostile scenarios.
    hostile: Vec<Hostile>,
    /// The persistent-connection probe.
    persistent: Arc<Probe>,
    /// The new-connection probe.
    fresh: Arc<Probe>,
    /// `/metrics` at the end of sending, or why not.
    metrics: Result<String, String>,
    /// Whether the server was running at the end of sending.
    survived: bool,
    /// Its shutdown.
    shutdown: Shutdown,
    /// The bench's own CPU seconds over the run.
    bench_cpu: f64,
    /// The 1-minute load average before and at the end of sending.
    load: (Option<f64>, Option<f64>),
}

/// Starts the server, runs every client for the duration, stops the
/// server, and prints the report; fails when the server would not start.
async fn soak(settings: Settings, puzzles: Puzzles, nofile: u64) -> Result<ExitCode, String> {
    let log = workspace().join("target/soak/server.log");
    let server = Arc::new(Server::spawn(&settings.bin, &settings.args, &log)?);
    if let Err(error) = server.ready(START_LIMIT).await {
        server.terminate(Duration::from_secs(5)).await;
        return Err(format!("{error} (log: {})", log.display()));
    }
    let nofile = (nofile, server.nofile());
    let load_before = load_average();
    let cpu_before = own_cpu_seconds();
    let (release, released) = watch::channel(false);
    let soak = Arc::new(Soak {
        addr: server.addr,
        end: Instant::now() + Duration::from_secs_f64(settings.seconds),
        seconds: settings.seconds,
        release: released,
        puzzles,
        idle: settings.idle,
        slowloris: settings.slowloris,
    });
    let (samples, sampler) = Samples::start(Arc::clone(&server));
    let mut tasks = JoinSet::new();
    let hostile = hostile::spawn_all(&soak, &mut tasks);
    let persistent = Arc::new(Probe::default());
    let fresh = Arc::new(Probe::default());
    tasks.spawn(probe::persistent(
        Arc::clone(&soak),
        Arc::clone(&persistent),
    ));
    tasks.spawn(probe::fresh(Arc::clone(&soak), Arc::clone(&fresh)));
    while soak.sending() {
        let next = (Instant::now() + PROGRESS_EVERY).min(soak.end);
        tokio::time::sleep_until(next.into()).await;
        progress(&server, &samples, &hostile, &persistent);
    }
    // Let the probes' last requests finish or fail.
    tokio::time::sleep(probe::LIMIT).await;
    let metrics = server.scrape().await;
    let load_after = load_average();
    let survived = server.exited().is_none();
    eprintln!("soak: sending over; SIGTERM with the hostile connections still open");
    tally::shutdown_begins();
    let shutdown = server.terminate(SHUTDOWN_LIMIT).await;
    samples.stop();
    let _ = sampler.await;
    let _ = release.send(true);
    let joined = tokio::time::timeout(Duration::from_secs(30), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if joined.is_err() {
        tasks.abort_all();
    }
    let outcome = Outcome {
        settings,
        nofile,
        server,
        samples,
        hostile,
        persistent,
        fresh,
        metrics,
        survived,
        shutdown,
        bench_cpu: own_cpu_seconds() - cpu_before,
        load: (load_before, load_after),
    };
    report(&outcome);
    Ok(ExitCode::SUCCESS)
}

/// One line on standard error: time, server memory, probe so far.
fn progress(server: &Server, samples: &Samples, hostile: &[Hostile], probe: &Probe) {
    let rss = server.memory().map_or(0, |(_, rss)| rss);
    let open: u64 = hostile.iter().map(|h| h.tally.peak_open()).sum();
    let s = probe.summary();
    eprintln!(
        "soak: t={:.0}s server RSS {} MiB (peak {}), fds peak {}, client conns peak {open}, \
         probe answered {} failed {}",
        server.uptime(),
        rss / 1024,
        samples.peak_hwm_kib.load(Ordering::Relaxed) / 1024,
        samples.peak_fds.load(Ordering::Relaxed),
        s.answered,
        s.failed,
    );
}

/// Milliseconds as text, `failed` for a percentile that lands on a failure.
fn ms(d: Option<Duration>) -> String {
    d.map_or_else(
        || "failed".to_string(),
        |d| format!("{:.1}", d.as_secs_f64() * 1e3),
    )
}

/// The field-by-field sum of scenario counters (numbers, and the numbers
/// one level down).
fn sum_json<'a>(rows: impl Iterator<Item = &'a Value>) -> Value {
    let mut total = serde_json::Map::new();
    for row in rows {
        for (key, value) in row.as_object().into_iter().flatten() {
            let sum = match (total.get(key), value) {
                (Some(Value::Object(acc)), Value::Object(more)) => {
                    let mut acc = acc.clone();
                    for (k, v) in more {
                        let before = acc.get(k).and_then(Value::as_u64).unwrap_or(0);
                        acc.insert(k.clone(), json!(before + v.as_u64().unwrap_or(0)));
                    }
                    Value::Object(acc)
                }
                (None, Value::Object(more)) => Value::Object(more.clone()),
                (before, v) => {
                    let before = before.and_then(Value::as_u64).unwrap_or(0);
                    json!(before + v.as_u64().unwrap_or(0))
                }
            };
            total.insert(key.clone(), sum);
        }
    }
    Value::Object(total)
}

/// The `sudokit_*` sample lines of a `/metrics` body.
fn metric_lines(body: &str) -> Vec<&str> {
    body.lines()
        .filter(|line| line.starts_with("sudokit_"))
        .collect()
}

/// Prints the report, then the same as one JSON line.
fn report(o: &Outcome) {
    let s = &o.settings;
    println!();
    println!(
        "soak: {:.0} s against {} serve --listen {} --metrics {} {}",
        s.seconds,
        s.bin.display(),
        o.server.addr,
        o.server.metrics,
        s.args.join(" ")
    );
    println!(
        "      RLIMIT_NOFILE {} (bench), {} (server); server log {}",
        o.nofile.0,
        o.nofile.1.map_or("?".to_string(), |n| n.to_string()),
        o.server.log.display()
    );
    println!("      15-puzzle: `{SLIDE_80}`, optimal {SLIDE_80_MOVES} moves (blank-last goal)");
    let hwm = o.samples.peak_hwm_kib.load(Ordering::Relaxed);
    let rss = o.samples.peak_rss_kib.load(Ordering::Relaxed);
    let fds = o.samples.peak_fds.load(Ordering::Relaxed);
    // A death after sending is the shutdown's, reported below.
    let died = match o.survived {
        true => None,
        false => o
            .samples
            .died
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone(),
    };
    println!();
    println!(
        "server: peak RSS (VmHWM) {:.1} MiB, peak sampled VmRSS {:.1} MiB, peak open fds {fds}",
        hwm as f64 / 1024.0,
        rss as f64 / 1024.0
    );
    let cpu = o.samples.cpu_ms.load(Ordering::Relaxed) as f64 / 1e3;
    let load = |l: Option<f64>| l.map_or("?".to_string(), |l| format!("{l:.2}"));
    println!(
        "machine: server CPU {cpu:.0} s, bench CPU {:.0} s, over {:.0} s on {} cores; \
         load average {} before, {} at the end",
        o.bench_cpu,
        o.server.uptime(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load(o.load.0),
        load(o.load.1)
    );
    match &died {
        Some((at, status)) => println!("server: DIED during the run at t={at:.1}s ({status})"),
        None if o.survived => println!("server: survived: yes"),
        None => println!("server: survived: no"),
    }
    let sd = &o.shutdown;
    println!(
        "server: shutdown on SIGTERM: {} after {:.2} s{}",
        sd.status,
        sd.seconds,
        if sd.killed {
            " (did not exit within 30 s: SIGKILL)"
        } else if !sd.was_running {
            " (was not running)"
        } else {
            ""
        }
    );
    println!();
    for (name, what, probe) in [
        (
            "probe persistent",
            "one conn, a 9×9 every 50 ms, 5 s limit",
            &o.persistent,
        ),
        (
            "probe new-conn",
            "a new conn every 500 ms, one 9×9, 5 s limit incl. connect",
            &o.fresh,
        ),
    ] {
        let p = probe.summary();
        println!(
            "{name:17} ({what}): sent {} answered {} failed {} [{}]",
            p.sent,
            p.answered,
            p.failed,
            probe.failure_text()
        );
        println!(
            "{:17} latency ms (failures rank last): p50 {} p99 {} max {} (max answered {})",
            "",
            ms(p.p50),
            ms(p.p99),
            ms(p.max),
            ms(p.max_answered)
        );
    }
    println!();
    println!(
        "{:10} {:>13} {:>6} {:>7} {:>6} {:>6} {:>7} {:>6} {:>9} {:>9} {:>8} {:>8} {:>7} {:>6} {:>6}",
        "hostile",
        "conns ok/try",
        "peak",
        "refused",
        "reset",
        "closed",
        "stalled",
        "shutdn",
        "requests",
        "MiB sent",
        "answer",
        "busy",
        "timeout",
        "bad",
        "other"
    );
    let rows: Vec<(&str, Value)> = o.hostile.iter().map(|h| (h.name, h.tally.json())).collect();
    let total = sum_json(rows.iter().map(|(_, j)| j));
    for (name, j) in rows.iter().map(|(n, j)| (*n, j)).chain([("total", &total)]) {
        let n = |key: &str| j[key].as_u64().unwrap_or(0);
        let r = |key: &str| j["replies"][key].as_u64().unwrap_or(0);
        println!(
            "{:10} {:>13} {:>6} {:>7} {:>6} {:>6} {:>7} {:>6} {:>9} {:>9.1} {:>8} {:>8} {:>7} {:>6} {:>6}",
            name,
            format!("{}/{}", n("connections_established"), n("connections_tried")),
            n("connections_peak_open"),
            n("refused"),
            n("reset"),
            n("closed_by_server"),
            n("stalled"),
            n("ended_in_shutdown"),
            n("requests_sent"),
            n("bytes_sent") as f64 / (1024.0 * 1024.0),
            r("answer"),
            r("busy"),
            r("timeout"),
            r("bad_request"),
            r("other"),
        );
    }
    println!(
        "  (refused: connection attempts failed or over {} s; peak: open at once; closed/reset: \
         by the server while in use; stalled: gave up after a write made no progress for {} s; \
         shutdn: ended after SIGTERM)",
        net::CONNECT_TIMEOUT.as_secs(),
        net::STALL.as_secs()
    );
    for h in &o.hostile {
        println!("  {:10} {}", h.name, h.what);
    }
    println!();
    let metrics: serde_json::Map<String, Value> = match &o.metrics {
        Ok(body) => {
            println!("/metrics at the end of sending:");
            metric_lines(body)
                .into_iter()
                .filter_map(|line| {
                    println!("  {line}");
                    let (name, value) = line.rsplit_once(' ')?;
                    Some((name.to_string(), json!(value.parse::<f64>().ok()?)))
                })
                .collect()
        }
        Err(error) => {
            println!("/metrics at the end of sending: not scraped: {error}");
            serde_json::Map::new()
        }
    };
    let mut scenarios: serde_json::Map<String, Value> = rows
        .into_iter()
        .map(|(name, j)| (name.to_string(), j))
        .collect();
    scenarios.insert("total".to_string(), total);
    let json = json!({
        "seconds": s.seconds,
        "server_bin": s.bin.display().to_string(),
        "server_args": s.args,
        "nofile_bench": o.nofile.0,
        "nofile_server": o.nofile.1,
        "bench_cpu_seconds": (o.bench_cpu * 10.0).round() / 10.0,
        "load_average": [o.load.0, o.load.1],
        "server": {
            "peak_rss_mib": (hwm as f64 / 1024.0 * 10.0).round() / 10.0,
            "peak_sampled_rss_mib": (rss as f64 / 1024.0 * 10.0).round() / 10.0,
            "peak_fds": fds,
            "cpu_seconds": cpu,
            "survived": o.survived,
            "died_at_s": died.as_ref().map(|(at, _)| *at),
            "shutdown_status": sd.status,
            "shutdown_seconds": (sd.seconds * 100.0).round() / 100.0,
            "shutdown_killed": sd.killed,
        },
        "probe_persistent": o.persistent.json(),
        "probe_new_connection": o.fresh.json(),
        "hostile": scenarios,
        "metrics": metrics,
    });
    println!();
    println!("{json}");
}
