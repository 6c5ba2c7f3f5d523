//! The load client behind `sudokit load`: drives a server with puzzles from a
//! file, checks every answer, and measures throughput and latency.
//!
//! Two ways to drive it, as muduo's two sudoku clients do:
//!
//! - **closed loop** (muduo's `pipeline`): each of C connections keeps P
//!   requests in flight, sending the next as soon as an answer arrives; the
//!   latency is from sending to answer;
//! - **open loop** (muduo's `loadtest`): requests leave at R per second in
//!   total whatever the server does, and the latency is measured from the
//!   moment each request was *due*, so a server that falls behind is charged
//!   for the queueing it causes (no coordinated omission).
//!
//! Requests carry the client's own ids (`<n>:<puzzle>\r\n`), and answers are
//! matched by id, so servers that answer out of order (muduo's thread pool)
//! can be measured too. Every answer is checked: a Sudoku solution must be a
//! complete grid that keeps the givens, `NoSolution` must be true (each
//! puzzle is solved once locally before the run), sliding moves must reach the
//! goal (and be as short as possible for the 8-puzzle), `unsolvable` must be
//! true. `ServerTooBusy` and `Timeout` are counted apart: not wrong, not
//! answered.

use std::collections::HashMap;
use std::fmt;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use hdrhistogram::Histogram;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

use sudokit::grid::Puzzle;
use sudokit::parse::{classify, Format, FormatSpec, Line};
use sudokit::slide::{self, Board, Goal, Move, Outcome};
use sudokit::solver::{solver_for, Solver};
use sudokit::variant::text::apply_fields;
use sudokit::variant::{Constraints, Layout, VariantSolver};

use crate::protocol::{kind_of, Kind, NO_SOLUTION, SERVER_TOO_BUSY, TIMEOUT, UNSOLVABLE};

/// When a run stops sending.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// After this many requests in total.
    Requests(u64),
    /// After this long.
    Duration(Duration),
}

/// How to drive the server.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server.
    pub addr: SocketAddr,
    /// Connections opened at once.
    pub connections: usize,
    /// Requests in flight per connection (closed loop).
    pub pipeline: usize,
    /// Requests per second in total (open loop); `None` for the closed loop.
    pub rate: Option<f64>,
    /// When to stop sending.
    pub stop: Stop,
    /// How long to wait for the last answers after sending stops.
    pub drain_timeout: Duration,
    /// Closed loop: when a connection closes or fails, how long to keep
    /// trying to connect again; on success the requests it had in flight
    /// are sent again (their answers were lost with it). `None`: a lost
    /// connection's requests count as errors.
    pub reconnect: Option<Duration>,
}

/// One puzzle of the workload and what a right answer looks like.
struct Item {
    /// The request body sent.
    body: Vec<u8>,
    /// What a right answer must satisfy.
    expect: Expect,
}

/// What a right answer must satisfy.
enum Expect {
    /// A Sudoku: a solution that keeps the givens, or `NoSolution` when none
    /// exists.
    Sudoku {
        /// Index of the puzzle's format in [`Workload::formats`].
        format: usize,
        /// The givens.
        puzzle: Puzzle,
        /// The variant's constraints, for a request with layout fields.
        variant: Option<Box<Constraints>>,
        /// Whether a solution exists (found by solving before the run).
        solvable: bool,
    },
    /// A sliding puzzle: moves that reach the goal (of this length when known),
    /// or `unsolvable`.
    Slide {
        /// The starting position.
        board: Board,
        /// The length of a shortest solution (known for 8-puzzles only).
        shortest: Option<usize>,
    },
}

/// The puzzles a run sends, in file order, each with its expected answer.
pub struct Workload {
    /// The puzzles in file order.
    items: Vec<Item>,
    /// The formats of the Sudoku sizes met, one per size.
    formats: Vec<Format>,
}

/// A line of the workload file that is not a puzzle the server can answer.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct WorkloadError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl Workload {
    /// Reads puzzles (Sudoku of any size, 8- and 15-puzzles), one per line,
    /// skipping blank and `#` lines and stopping at `end`; ids in the file are
    /// dropped (the client uses its own). Each Sudoku is solved once here, and
    /// each 8-puzzle looked up, so that answers can be checked exactly.
    pub fn parse(text: &[u8]) -> Result<Workload, WorkloadError> {
        let mut items = Vec::new();
        let mut formats: Vec<Format> = Vec::new();
        let mut solvers = HashMap::new();
        for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
            let error = |reason: String| WorkloadError {
                line: i + 1,
                reason,
            };
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let body = match classify(raw) {
                Line::Skip => continue,
                Line::End => break,
                Line::Puzzle { .. } => {
                    let body = crate::protocol::split_id(raw).1.trim_ascii();
                    if raw.contains(&b':') {
                        body
                    } else {
                        raw.trim_ascii()
                    }
                }
            };
            let expect = match kind_of(body) {
                Kind::Slide => {
                    let text = std::str::from_utf8(body).map_err(|e| error(e.to_string()))?;
                    let board = slide::parse(text).map_err(|e| error(e.to_string()))?;
                    let shortest = match (board.width(), slide::solve(&board, Goal::BlankLast)) {
                        (3, Outcome::Solved(solution)) => Some(solution.moves.len()),
                        _ => None,
                    };
                    Expect::Slide { board, shortest }
                }
                Kind::Sudoku => {
                    let end = body
                        .iter()
                        .position(|&b| b.is_ascii_whitespace() || b == b';' || b == b',')
                        .unwrap_or(body.len());
                    let cells = &body[..end];
                    let format = FormatSpec::default()
                        .resolve(cells)
                        .map_err(|e| error(e.to_string()))?;
                    let puzzle = format.parse(cells).map_err(|e| error(e.to_string()))?;
                    let base = Layout::classic(format.shape());
                    let layout = apply_fields(base, &String::from_utf8_lossy(&body[end..]))
                        .map_err(|e| error(e.to_string()))?;
                    let variant =
                        (!layout.is_classic()).then(|| Box::new(Constraints::new(&layout)));
                    let mut variant_solver;
                    let solver: &mut dyn Solver = if layout.is_classic() {
                        solvers
                            .entry(format.shape())
                            .or_insert_with(|| solver_for(format.shape()))
                            .as_mut()
                    } else {
                        variant_solver = VariantSolver::new(&layout);
                        &mut variant_solver
                    };
                    let solvable = solver
                        .solve(puzzle.cells(), 1, None)
                        .map_err(|e| error(e.to_string()))?
                        .solutions
                        > 0;
                    let format = match formats.iter().position(|f| *f == format) {
                        Some(index) => index,
                        None => {
                            formats.push(format);
                            formats.len() - 1
                        }
                    };
                    Expect::Sudoku {
                        format,
                        puzzle,
                        variant,
                        solvable,
                    }
                }
            };
            items.push(Item {
                body: body.to_vec(),
                expect,
            });
        }
        Ok(Workload { items, formats })
    }

    /// The number of puzzles.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no puzzles.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

impl Item {
    /// Whether `answer` (the reply without its id) is right; `formats` are
    /// the workload's.
    fn check(&self, formats: &[Format], answer: &[u8]) -> bool {
        match &self.expect {
            Expect::Sudoku {
                format,
                puzzle,
                variant,
                solvable,
            } => {
                if answer == NO_SOLUTION.as_bytes() {
                    return !solvable;
                }
                formats[*format]
                    .parse(answer)
                    .is_ok_and(|solution| match variant {
                        None => puzzle.is_solved_by(&solution),
                        // Jigsaw regions replace the boxes: the layout's own
                        // constraints, and the givens kept.
                        Some(rules) => {
                            rules.is_solution(solution.cells())
                                && puzzle
                                    .cells()
                                    .iter()
                                    .zip(solution.cells())
                                    .all(|(&given, &v)| given == 0 || given == v)
                        }
                    })
            }
            Expect::Slide { board, shortest } => {
                if answer == UNSOLVABLE.as_bytes() {
                    return !board.is_solvable(Goal::BlankLast);
                }
                let moves: Option<Vec<Move>> = answer
                    .iter()
                    .map(|&b| match b {
                        b'u' => Some(Move::Up),
                        b'd' => Some(Move::Down),
                        b'l' => Some(Move::Left),
                        b'r' => Some(Move::Right),
                        _ => None,
                    })
                    .collect();
                let Some(moves) = moves else {
                    return false;
                };
                board
                    .replay(&moves)
                    .is_some_and(|end| end.is_solved(Goal::BlankLast))
                    && shortest.is_none_or(|n| n == moves.len())
            }
        }
    }
}

/// What a run measured.
pub struct Report {
    /// Requests sent.
    pub sent: u64,
    /// Right answers.
    pub ok: u64,
    /// Wrong answers (including `Bad Request` and replies to unknown ids).
    pub wrong: u64,
    /// `ServerTooBusy` replies.
    pub busy: u64,
    /// `Timeout` replies (the server gave up on the puzzle).
    pub timeouts: u64,
    /// Requests never answered: connection failures and answers still missing
    /// at the drain timeout.
    pub errors: u64,
    /// Requests sent again on a new connection after theirs was lost
    /// (closed loop with [`LoadConfig::reconnect`]).
    pub resent: u64,
    /// Connections opened again after one was lost.
    pub reconnects: u64,
    /// From the first request to the last answer.
    pub elapsed: Duration,
    /// Latency of every answer (right, wrong or busy), in nanoseconds.
    pub latency: Histogram<u64>,
    /// A few wrong answers, for the user to look at.
    pub samples: Vec<String>,
}

impl Report {
    /// Answers (of any kind) per second.
    pub fn rate(&self) -> f64 {
        let answered = self.ok + self.wrong + self.busy + self.timeouts;
        answered as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Whether every answer was right and none was missing.
    pub fn passed(&self) -> bool {
        self.wrong == 0 && self.errors == 0
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let us = |q: f64| self.latency.value_at_quantile(q) as f64 / 1000.0;
        writeln!(
            f,
            "requests/s  {:.0}  ({} answers in {:.3} s)",
            self.rate(),
            self.ok + self.wrong + self.busy + self.timeouts,
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "latency us  min {:.1}  p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
            self.latency.min() as f64 / 1000.0,
            us(0.5),
            us(0.9),
            us(0.99),
            us(0.999),
            self.latency.max() as f64 / 1000.0
        )?;
        write!(
            f,
            "answers     {} sent, {} ok, {} wrong, {} busy, {} timeout, {} errors",
            self.sent, self.ok, self.wrong, self.busy, self.timeouts, self.errors
        )?;
        if self.reconnects > 0 {
            write!(
                f,
                "\nreconnects  {}, {} requests resent",
                self.reconnects, self.resent
            )?;
        }
        Ok(())
    }
}

/// Counters all connections add to.
#[derive(Default)]
struct Totals {
    /// Requests written.
    sent: AtomicU64,
    /// Right answers.
    ok: AtomicU64,
    /// Wrong answers.
    wrong: AtomicU64,
    /// `ServerTooBusy` answers.
    busy: AtomicU64,
    /// `Timeout` answers.
    timeouts: AtomicU64,
    /// Requests never answered.
    errors: AtomicU64,
    /// Requests sent again after a reconnect.
    resent: AtomicU64,
    /// Connections opened again.
    reconnects: AtomicU64,
}

/// What the connections share.
struct Shared {
    /// The puzzles and their expected answers.
    workload: Workload,
    /// How to drive the server.
    config: LoadConfig,
    /// What the connections counted.
    totals: Totals,
    /// Requests handed out so far (the next puzzle is this modulo the workload).
    issued: AtomicU64,
    /// When the run started (open-loop schedules count from here).
    start: Instant,
    /// The first few wrong answers.
    samples: Mutex<Vec<String>>,
}

impl Shared {
    /// The next request's puzzle index, or `None` once the run should stop
    /// sending.
    fn next(&self) -> Option<usize> {
        if let Stop::Duration(d) = self.config.stop {
            if self.start.elapsed() >= d {
                return None;
            }
        }
        let n = self.issued.fetch_add(1, Ordering::Relaxed);
        if let Stop::Requests(total) = self.config.stop {
            if n >= total {
                return None;
            }
        }
        Some((n % self.workload.items.len() as u64) as usize)
    }
}

/// Most requests an open-loop connection sends in one write when it has
/// fallen behind its schedule.
const OPEN_LOOP_BATCH: u64 = 256;

/// A request awaiting its answer.
struct InFlight {
    /// The puzzle's index in the workload.
    item: usize,
    /// Send time (closed loop) or due time (open loop).
    since: Instant,
}

/// Runs the load and returns what it measured.
pub async fn run(config: LoadConfig, workload: Workload) -> anyhow::Result<Report> {
    anyhow::ensure!(!workload.is_empty(), "no puzzles to send");
    anyhow::ensure!(config.connections > 0, "--connections must be at least 1");
    anyhow::ensure!(config.pipeline > 0, "--pipeline must be at least 1");
    if let Some(rate) = config.rate {
        anyhow::ensure!(rate > 0.0 && rate.is_finite(), "--rate must be positive");
        anyhow::ensure!(
            config.reconnect.is_none(),
            "--reconnect works in the closed loop only (without --rate): an open-loop \
             schedule cannot be kept across a lost connection"
        );
    }
    let mut streams = Vec::with_capacity(config.connections);
    for _ in 0..config.connections {
        let stream = TcpStream::connect(config.addr)
            .await
            .with_context(|| format!("cannot connect to {}", config.addr))?;
        stream.set_nodelay(true)?;
        streams.push(stream);
    }
    let shared = Arc::new(Shared {
        workload,
        config,
        totals: Totals::default(),
        issued: AtomicU64::new(0),
        start: Instant::now(),
        samples: Mutex::new(Vec::new()),
    });
    let tasks: Vec<_> = streams
        .into_iter()
        .enumerate()
        .map(|(index, stream)| {
            let shared = Arc::clone(&shared);
            match shared.config.rate {
                Some(rate) => tokio::spawn(drive_open(stream, index, rate, shared)),
                None => tokio::spawn(drive_closed(stream, shared)),
            }
        })
        .collect();
    let mut latency = new_histogram();
    for task in tasks {
        latency.add(task.await?)?;
    }
    let elapsed = shared.start.elapsed();
    let t = &shared.totals;
    let samples = std::mem::take(&mut *shared.samples.lock().unwrap_or_else(|p| p.into_inner()));
    Ok(Report {
        sent: t.sent.load(Ordering::Relaxed),
        ok: t.ok.load(Ordering::Relaxed),
        wrong: t.wrong.load(Ordering::Relaxed),
        busy: t.busy.load(Ordering::Relaxed),
        timeouts: t.timeouts.load(Ordering::Relaxed),
        errors: t.errors.load(Ordering::Relaxed),
        resent: t.resent.load(Ordering::Relaxed),
        reconnects: t.reconnects.load(Ordering::Relaxed),
        elapsed,
        latency,
        samples,
    })
}

/// One closed-loop connection, in one task: keeps `pipeline` requests in
/// flight, writing the next ones as soon as answers arrive (no hand-off
/// between tasks, so the client spends as little of the machine as it can).
/// Returns the latencies it measured.
async fn drive_closed(mut stream: TcpStream, shared: Arc<Shared>) -> Histogram<u64> {
    let mut histogram = new_histogram();
    let pipeline = shared.config.pipeline;
    let mut inflight = HashMap::<u64, InFlight>::with_capacity(pipeline);
    let mut output = Vec::new();
    let mut written = 0;
    let mut input = Vec::with_capacity(64 * 1024);
    let mut seq = 0;
    let mut sending = true;
    let mut drain_deadline = None;
    loop {
        if sending && inflight.len() < pipeline {
            let sent_at = Instant::now();
            while inflight.len() < pipeline {
                let Some(item) = shared.next() else {
                    sending = false;
                    drain_deadline = Some(Instant::now() + shared.config.drain_timeout);
                    break;
                };
                let since = sent_at;
                inflight.insert(seq, InFlight { item, since });
                append_request(&mut output, seq, &shared.workload.items[item].body);
                seq += 1;
                shared.totals.sent.fetch_add(1, Ordering::Relaxed);
            }
        }
        if !sending && inflight.is_empty() {
            break;
        }
        let deadline = drain_deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        let lost = tokio::select! {
            ready = stream.writable(), if written < output.len() => {
                match ready.map(|()| stream.try_write(&output[written..])) {
                    Ok(Ok(n)) => {
                        written += n;
                        if written == output.len() {
                            output.clear();
                            written = 0;
                        }
                        false
                    }
                    Ok(Err(error)) => error.kind() != std::io::ErrorKind::WouldBlock,
                    Err(_) => true,
                }
            },
            ready = stream.readable() => {
                input.reserve(16 * 1024);
                match ready.map(|()| stream.try_read_buf(&mut input)) {
                    Ok(Ok(0)) | Err(_) => true,
                    Ok(Err(error)) => error.kind() != std::io::ErrorKind::WouldBlock,
                    Ok(Ok(_)) => {
                        let mut start = 0;
                        while let Some(end) = input[start..].iter().position(|&b| b == b'\n') {
                            let line = &input[start..start + end];
                            start += end + 1;
                            let entry = reply_seq(line).and_then(|seq| inflight.remove(&seq));
                            judge(&shared, &mut histogram, line, entry);
                        }
                        input.drain(..start);
                        false
                    }
                }
            },
            () = tokio::time::sleep_until(deadline.into()), if drain_deadline.is_some() => break,
        };
        if !lost {
            continue;
        }
        // The connection is gone, and the answers it owed with it.
        let Some(again) = reconnect(&shared, drain_deadline).await else {
            break;
        };
        stream = again;
        shared.totals.reconnects.fetch_add(1, Ordering::Relaxed);
        output.clear();
        written = 0;
        input.clear();
        let mut owed: Vec<(&u64, &InFlight)> = inflight.iter().collect();
        owed.sort_unstable_by_key(|(seq, _)| **seq);
        for (seq, entry) in owed {
            append_request(&mut output, *seq, &shared.workload.items[entry.item].body);
        }
        shared
            .totals
            .resent
            .fetch_add(inflight.len() as u64, Ordering::Relaxed);
    }
    shared
        .totals
        .errors
        .fetch_add(inflight.len() as u64, Ordering::Relaxed);
    histogram
}

/// A new connection to the server after one was lost, when the run
/// reconnects ([`LoadConfig::reconnect`]): tried again and again (after
/// 10 ms, doubling to at most 1 s) for that long, and never past the drain
/// deadline. `None` when it does not reconnect or every try failed.
async fn reconnect(shared: &Shared, drain_deadline: Option<Instant>) -> Option<TcpStream> {
    let patience = shared.config.reconnect?;
    let mut give_up = Instant::now() + patience;
    if let Some(drain) = drain_deadline {
        give_up = give_up.min(drain);
    }
    let mut pause = Duration::from_millis(10);
    loop {
        if let Ok(stream) = TcpStream::connect(shared.config.addr).await {
            if stream.set_nodelay(true).is_ok() {
                return Some(stream);
            }
        }
        if Instant::now() + pause > give_up {
            return None;
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(1));
    }
}

/// Appends the request `<seq>:<body>\r\n` to `buf`.
fn append_request(buf: &mut Vec<u8>, seq: u64, body: &[u8]) {
    buf.extend_from_slice(seq.to_string().as_bytes());
    buf.push(b':');
    buf.extend_from_slice(body);
    buf.extend_from_slice(b"\r\n");
}

/// The request number a reply line (`<seq>:answer`, line ending optional)
/// answers, if it names one.
fn reply_seq(line: &[u8]) -> Option<u64> {
    let (id, _) = crate::protocol::split_id(line);
    std::str::from_utf8(id?).ok()?.parse().ok()
}

/// Checks one reply line against the request it answers (`None`: it answers
/// no request in flight), counts it and records its latency.
fn judge(shared: &Shared, histogram: &mut Histogram<u64>, line: &[u8], entry: Option<InFlight>) {
    let reply = line.strip_suffix(b"\n").unwrap_or(line);
    let reply = reply.strip_suffix(b"\r").unwrap_or(reply);
    let answer = crate::protocol::split_id(reply).1;
    let Some(entry) = entry else {
        shared.totals.wrong.fetch_add(1, Ordering::Relaxed);
        sample(
            shared,
            format!("reply to no request: {}", String::from_utf8_lossy(reply)),
        );
        return;
    };
    let nanos = u64::try_from(entry.since.elapsed().as_nanos()).unwrap_or(u64::MAX);
    histogram.saturating_record(nanos.max(1));
    let item = &shared.workload.items[entry.item];
    if answer == SERVER_TOO_BUSY.as_bytes() {
        shared.totals.busy.fetch_add(1, Ordering::Relaxed);
    } else if answer == TIMEOUT.as_bytes() {
        shared.totals.timeouts.fetch_add(1, Ordering::Relaxed);
    } else if item.check(&shared.workload.formats, answer) {
        shared.totals.ok.fetch_add(1, Ordering::Relaxed);
    } else {
        shared.totals.wrong.fetch_add(1, Ordering::Relaxed);
        sample(
            shared,
            format!(
                "wrong answer to {}: {}",
                String::from_utf8_lossy(&item.body),
                String::from_utf8_lossy(answer)
            ),
        );
    }
}

/// One open-loop connection: a sender on the schedule and a receiver sharing
/// the in-flight table. Returns the latencies it measured.
async fn drive_open(
    stream: TcpStream,
    index: usize,
    rate: f64,
    shared: Arc<Shared>,
) -> Histogram<u64> {
    let (read, write) = stream.into_split();
    let inflight = Arc::new(Mutex::new(HashMap::<u64, InFlight>::new()));
    let sender = tokio::spawn(send(
        write,
        index,
        rate,
        Arc::clone(&shared),
        Arc::clone(&inflight),
    ));
    let histogram = receive(read, &shared, &inflight, sender).await;
    let missing = lock(&inflight).len() as u64;
    shared.totals.errors.fetch_add(missing, Ordering::Relaxed);
    histogram
}

/// Locks a table that no code can leave inconsistent.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sends requests, each at its due time: `rate` per second in total, this
/// connection's share starting `index` steps into the first interval.
async fn send(
    mut write: OwnedWriteHalf,
    index: usize,
    rate: f64,
    shared: Arc<Shared>,
    inflight: Arc<Mutex<HashMap<u64, InFlight>>>,
) -> OwnedWriteHalf {
    let connections = shared.config.connections as f64;
    let per_connection = rate / connections;
    // Connections start spread over one interval, not all at once.
    let offset = index as f64 / connections / per_connection;
    let due = |k: u64| shared.start + Duration::from_secs_f64(offset + k as f64 / per_connection);
    let mut seq: u64 = 0;
    let mut buf = Vec::new();
    loop {
        tokio::time::sleep_until(due(seq).into()).await;
        // Every request already due leaves in this write (the timer ticks in
        // milliseconds); each is timed from its own due time.
        let now = Instant::now();
        let batch = (1..OPEN_LOOP_BATCH)
            .find(|&k| due(seq + k) > now)
            .unwrap_or(OPEN_LOOP_BATCH);
        buf.clear();
        let mut stop = false;
        for _ in 0..batch {
            let Some(item) = shared.next() else {
                stop = true;
                break;
            };
            let since = due(seq);
            lock(&inflight).insert(seq, InFlight { item, since });
            append_request(&mut buf, seq, &shared.workload.items[item].body);
            seq += 1;
            shared.totals.sent.fetch_add(1, Ordering::Relaxed);
        }
        if !buf.is_empty() && write.write_all(&buf).await.is_err() {
            break;
        }
        if stop {
            break;
        }
    }
    // The write half goes back to the receiver, which keeps the connection
    // open until the last answer (muduo's server drops a connection's pending
    // answers when the client closes its side).
    write
}

/// Reads answers until the sender is done and nothing is in flight (or the
/// drain timeout passes), checking each and recording its latency.
async fn receive(
    read: OwnedReadHalf,
    shared: &Shared,
    inflight: &Mutex<HashMap<u64, InFlight>>,
    mut sender: JoinHandle<OwnedWriteHalf>,
) -> Histogram<u64> {
    let mut histogram = new_histogram();
    let mut reader = BufReader::with_capacity(64 * 1024, read);
    let mut line = Vec::new();
    let mut sending = true;
    let mut _write = None;
    let mut drain_deadline = None;
    loop {
        if !sending && lock(inflight).is_empty() {
            break;
        }
        line.clear();
        let deadline = drain_deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            read = reader.read_until(b'\n', &mut line) => match read {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            },
            done = &mut sender, if sending => {
                _write = done.ok();
                sending = false;
                drain_deadline = Some(Instant::now() + shared.config.drain_timeout);
                continue;
            },
            () = tokio::time::sleep_until(deadline.into()), if drain_deadline.is_some() => break,
        }
        let entry = reply_seq(&line).and_then(|seq| lock(inflight).remove(&seq));
        judge(shared, &mut histogram, &line, entry);
    }
    sender.abort();
    histogram
}

/// An empty latency histogram: 1 ns to one hour, 3 significant figures
/// (larger values are recorded as one hour).
fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 3_600_000_000_000, 3).expect("valid histogram bounds")
}

/// Keeps the first few wrong answers for the report.
fn sample(shared: &Shared, text: String) {
    let mut samples = lock(&shared.samples);
    if samples.len() < 5 {
        samples.push(text);
    }
}

/// Runs the load on its own tokio runtime of `io_threads` threads: what
/// `sudokit load` does.
pub fn run_blocking(
    config: LoadConfig,
    workload: Workload,
    io_threads: usize,
) -> anyhow::Result<Report> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(io_threads.max(1))
        .thread_name("sudokit-load")
        .enable_all()
        .build()?;
    runtime.block_on(run(config, workload))
}
