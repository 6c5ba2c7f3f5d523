//! One client connection: line framing, admission, work hand-off, replies in
//! order, and closing without losing what was delivered.
//!
//! The handler is a single task that reads, parses complete lines, hands the
//! work to the pool, and watches the outbox, all in one `select!` loop, so
//! that reading never waits for solving and pipelined requests flow in both
//! directions at once.
//!
//! - **Framing** is done here, byte by byte: a line ends at `\n` (a `\r` before
//!   it is dropped), whatever the split of bytes across reads. A line is handed
//!   on as soon as its `\n` arrives (muduo's parser waits for 83 bytes; this one
//!   does not). A line longer than [`MAX_LINE`] is answered
//!   `Bad Request: line too long` and the connection is closed; a final line
//!   without `\n` is answered when the client ends its side.
//! - **Parsing** happens here too (it is cheap next to solving): a bad request
//!   is answered at once, and a good one keeps only its id and its cells or
//!   tiles, whatever trailing text the line carried.
//! - **Order**: consecutive requests become jobs of at most [`LIGHT_JOB`]
//!   quick requests, or one heavy request (see [`crate::pool`]); every job
//!   takes a place in the connection's [`Outbox`], and replies leave in that
//!   order, written by the worker that completes the front.
//! - **Admission** (muduo's `server_prod`, in bytes as well as counts): a
//!   request is answered `ServerTooBusy` without being solved when this
//!   connection has `pending_bound` requests unanswered, holds half its
//!   byte bound in queued requests and unwritten replies, has more than its
//!   queued-CPU cap of heavy work waiting, or the server holds half its byte
//!   bound. At the full byte bound (this connection's or the server's), or
//!   twice the pending bound, the handler stops reading until replies drain,
//!   so a client that never reads cannot grow the server's memory.
//! - **Deadlines**: a request line must be complete within the request
//!   timeout of its first byte (slowloris clients are closed); a connection
//!   with no request in flight that neither completes a request nor takes a
//!   reply for the idle timeout is closed (single bytes do not count). When
//!   slots run short, the idlest connection is closed for a newcomer
//!   ([`crate::slots`]).
//! - **Shutdown**: no more requests are taken, and what the client still
//!   sends is read and discarded; every request already read is answered;
//!   then the write side is shut and the connection closes once the client
//!   has acknowledged every byte (or closed), so no reset destroys replies in
//!   flight. A forced shutdown closes at once and counts what was left.

use std::io::ErrorKind;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::TcpStream;
use tokio::time::sleep_until;

use crate::metrics::Metrics;
use crate::outbox::{Interest, Outbox};
use crate::pool::{Client, Job, Pool, Requests};
use crate::protocol::{split_id, write_reply, Class, Parser, MAX_LINE, SERVER_TOO_BUSY};
use crate::shutdown::{DrainGuard, Shutdown};
use crate::slots::Slot;

/// The most quick requests in one job: enough to share one write among
/// pipelined replies, few enough (about a millisecond at worst) that other
/// connections' jobs are not held up behind it.
pub const LIGHT_JOB: usize = 16;

/// After an over-long line, how long the handler keeps reading (and
/// discarding) before it closes.
const LINGER_TIME: Duration = Duration::from_secs(2);

/// After an over-long line, how many bytes the handler reads and discards at
/// most before it closes.
const LINGER_BYTES: usize = 1024 * 1024;

/// While reading is paused for the server's byte bound (which other
/// connections' progress lowers), how often the handler looks again.
const RECHECK: Duration = Duration::from_millis(10);

/// Input buffer capacity kept between lines; a larger buffer (after a long
/// line) is given back once empty.
const INPUT_KEEP: usize = 16 * 1024;

/// Input buffer capacity of a connection that has nothing buffered.
const INPUT_FIRST: usize = 4 * 1024;

/// The bounds every connection works within.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Requests whose replies are not written yet, beyond which new requests
    /// are answered `ServerTooBusy`.
    pub pending_bound: usize,
    /// Bytes one connection may hold in queued requests and unwritten
    /// replies (half of it: `ServerTooBusy`; all of it: reading pauses).
    pub connection_bytes: usize,
    /// Bytes the whole server may hold in input buffers, queued requests and
    /// unwritten replies (same halves).
    pub server_bytes: usize,
    /// Heavy work one connection may have waiting, in measured CPU time.
    pub queued_cpu: Duration,
    /// How long a connection may do nothing before it is closed.
    pub idle_timeout: Duration,
    /// How long a request line may take to arrive, from its first byte.
    pub request_timeout: Duration,
}

/// What every connection shares with the server.
#[derive(Clone)]
pub struct Context {
    /// The worker pool.
    pub pool: Arc<Pool>,
    /// The service's counters.
    pub metrics: Arc<Metrics>,
    /// The bounds.
    pub limits: Limits,
}

/// Why the handler stops taking requests.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Input {
    /// Reading requests.
    Open,
    /// The client closed its side: answer what is left, then close.
    Ended,
    /// Shutdown: answer what was read while discarding what comes, then
    /// close once the client has it all. `eof`: the client has closed its
    /// side too.
    Closing { eof: bool },
    /// A line too long: answer what came before it, then close, discarding
    /// what the client still sends (so that closing with unread bytes does
    /// not reset the connection before the client has read its answers).
    TooLong,
}

/// How the handler's loop ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// Normally, or by a failure of the socket.
    Done,
    /// By a forced shutdown: what was left unanswered is counted.
    Forced,
}

/// A connection's reading side: framing lines and handing them on.
struct Handler {
    /// The pool, counters and limits.
    ctx: Context,
    /// This connection's queues in the pool.
    client: Client,
    /// Parses its requests.
    parser: Parser,
    /// Quick requests per job for the lines being framed: the lines of one
    /// read spread over the workers, at most [`LIGHT_JOB`].
    per_job: usize,
    /// The socket and the reply order.
    outbox: Arc<Outbox>,
    /// Bytes read and not yet framed into lines (a partial line).
    input: Vec<u8>,
    /// The capacity of `input` as last counted in the server's gauge.
    input_counted: usize,
    /// Where the search for `\n` resumes in `input`.
    scanned: usize,
    /// Requests whose replies are not written yet (as last seen, plus those
    /// handed on since).
    pending: usize,
    /// Whether the handler still reads requests, and why not.
    input_state: Input,
    /// When the last complete request line arrived.
    active_at: Instant,
    /// When the partial line in `input` began, if there is one.
    line_started: Option<Instant>,
}

/// Serves one client until it leaves, idles out, is closed for room, or
/// shutdown completes.
pub async fn handle(
    stream: TcpStream,
    ctx: Context,
    mut shutdown: Shutdown,
    slot: Slot,
    _drain: DrainGuard,
) {
    let peer = stream.peer_addr().ok();
    let outbox = Outbox::new(stream, Arc::clone(&ctx.metrics));
    let client = ctx.pool.client();
    let mut handler = Handler {
        ctx,
        client,
        parser: Parser::default(),
        per_job: 1,
        outbox: Arc::clone(&outbox),
        input: Vec::new(),
        input_counted: 0,
        scanned: 0,
        pending: 0,
        input_state: Input::Open,
        active_at: Instant::now(),
        line_started: None,
    };
    let stream = outbox.stream();
    let limits = handler.ctx.limits;
    let metrics = Arc::clone(&handler.ctx.metrics);
    let read_limit = 2 * limits.pending_bound;
    let mut write_shut = false;
    let mut force = shutdown.clone();
    let end = loop {
        let open = handler.input_state == Input::Open;
        let mut view = outbox.view(Interest {
            resume_below: None,
            drained: !open,
        });
        if open && view.pending >= read_limit {
            // Ask to be woken when replies drain (set and checked under one
            // lock, so a drain in between is not missed).
            view = outbox.view(Interest {
                resume_below: Some(read_limit),
                drained: false,
            });
        }
        handler.pending = view.pending;
        let last_active = handler.active_at.max(view.last_write);
        slot.report(last_active, view.pending > 0);
        if view.failed {
            break End::Done;
        }
        let closing = matches!(handler.input_state, Input::Closing { .. });
        if closing && view.drained && !write_shut {
            let _ = socket2::SockRef::from(stream).shutdown(std::net::Shutdown::Write);
            write_shut = true;
        }
        match handler.input_state {
            Input::Ended | Input::TooLong if view.drained => break End::Done,
            Input::Closing { eof } if write_shut && (eof || all_acknowledged(stream)) => {
                break End::Done
            }
            _ => {}
        }
        let over_bytes = outbox.bytes() >= limits.connection_bytes
            || metrics.buffered_bytes() >= limits.server_bytes as u64;
        let can_read = match handler.input_state {
            Input::Open => view.pending < read_limit && !over_bytes,
            Input::Closing { eof } => !eof,
            Input::Ended | Input::TooLong => false,
        };
        if can_read {
            handler.reserve_input();
        }
        let mut deadline = last_active + limits.idle_timeout;
        if let Some(started) = handler.line_started {
            deadline = deadline.min(started + limits.request_timeout);
        }
        if (open && over_bytes) || (write_shut && !closing_eof(handler.input_state)) {
            deadline = deadline.min(Instant::now() + RECHECK);
        }
        tokio::select! {
            ready = stream.readable(), if can_read => {
                if let Err(error) = ready {
                    tracing::debug!(?peer, %error, "read failed");
                    break End::Done;
                }
                match stream.try_read_buf(&mut handler.input) {
                    Ok(0) => handler.end_of_input(),
                    Ok(_) if closing => {
                        handler.input.clear();
                    }
                    Ok(_) => handler.frame(),
                    Err(error) if error.kind() == ErrorKind::WouldBlock => continue,
                    Err(error) => {
                        tracing::debug!(?peer, %error, "read failed");
                        break End::Done;
                    }
                }
                handler.count_input();
            },
            ready = stream.writable(), if view.blocked => match ready {
                Ok(()) => outbox.flush_blocked(),
                Err(error) => {
                    tracing::debug!(?peer, %error, "write failed");
                    break End::Done;
                }
            },
            () = outbox.notified() => {},
            () = shutdown.wait(), if open => handler.start_closing(),
            () = force.forced() => break End::Forced,
            () = slot.activity().evicted() => {
                Metrics::bump(&metrics.evicted);
                tracing::debug!(?peer, "closed to make room");
                break End::Done;
            },
            () = sleep_until(deadline.into()) => {
                let now = Instant::now();
                if handler
                    .line_started
                    .is_some_and(|started| now >= started + limits.request_timeout)
                {
                    Metrics::bump(&metrics.slow_closed);
                    tracing::debug!(?peer, "request line not completed in time");
                    break End::Done;
                }
                if now < last_active + limits.idle_timeout {
                    continue;
                }
                if view.waiting {
                    // Waiting for a worker is not idleness.
                    handler.active_at = now;
                    continue;
                }
                Metrics::bump(&metrics.idle_closed);
                tracing::debug!(?peer, "idle timeout");
                break End::Done;
            },
        }
    };
    let unwritten = outbox.close();
    handler.client.cancel();
    handler.input = Vec::new();
    handler.count_input();
    if end == End::Forced && unwritten > 0 {
        metrics
            .shutdown_dropped
            .fetch_add(unwritten as u64, Ordering::Relaxed);
        // One line per connection only at debug level: the server logs the
        // total once.
        tracing::debug!(
            ?peer,
            unanswered = unwritten,
            "forced shutdown closed a connection"
        );
    }
    let _ = socket2::SockRef::from(stream).shutdown(std::net::Shutdown::Write);
    if handler.input_state == Input::TooLong {
        let discard = async {
            let mut sink = [0u8; 16 * 1024];
            let mut left = LINGER_BYTES;
            while left > 0 && stream.readable().await.is_ok() {
                match stream.try_read(&mut sink) {
                    Ok(0) => break,
                    Ok(n) => left = left.saturating_sub(n),
                    Err(error) if error.kind() == ErrorKind::WouldBlock => {}
                    Err(_) => break,
                }
            }
        };
        let _ = tokio::time::timeout(LINGER_TIME, discard).await;
    }
}

/// Whether the shutdown's input side has ended (the client closed).
fn closing_eof(input: Input) -> bool {
    matches!(input, Input::Closing { eof: true })
}

/// Whether the peer has acknowledged every byte written to `stream` (the
/// kernel's send queue is empty), so that closing now, even with unread
/// input that makes the kernel send a reset, loses nothing delivered. On
/// systems without the query: only once the client closes.
fn all_acknowledged(stream: &TcpStream) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let mut queued: libc::c_int = 0;
        // SIOCOUTQ: bytes in the send queue not yet acknowledged.
        // SAFETY: the descriptor is open for the life of `stream`, and the
        // request writes one c_int through the pointer given.
        let status = unsafe { libc::ioctl(stream.as_raw_fd(), libc::TIOCOUTQ, &mut queued) };
        status == 0 && queued == 0
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = stream;
        false
    }
}

impl Handler {
    /// Makes room to read into `input`, counting its capacity: a small
    /// buffer for a connection between requests (thousands of idle ones
    /// hold little), a larger one while a read has filled it.
    fn reserve_input(&mut self) {
        let spare = self.input.capacity() - self.input.len();
        if spare == 0 || (spare < INPUT_FIRST && !self.input.is_empty()) {
            let more = if self.input.is_empty() {
                INPUT_FIRST
            } else {
                INPUT_KEEP
            };
            self.input.reserve(more);
        }
        self.count_input();
    }

    /// Brings the server's input gauge up to date with `input`'s capacity,
    /// giving back a large buffer once it is empty.
    fn count_input(&mut self) {
        if self.input.is_empty() && self.input.capacity() > INPUT_KEEP {
            self.input = Vec::new();
        }
        let capacity = self.input.capacity();
        let gauge = &self.ctx.metrics.input_bytes;
        if capacity > self.input_counted {
            gauge.fetch_add((capacity - self.input_counted) as u64, Ordering::Relaxed);
        } else {
            gauge.fetch_sub((self.input_counted - capacity) as u64, Ordering::Relaxed);
        }
        self.input_counted = capacity;
    }

    /// Shutdown has begun: no more requests; a partial line is dropped.
    fn start_closing(&mut self) {
        if !self.input.is_empty() {
            tracing::debug!(
                bytes = self.input.len(),
                "shutdown: partial request line dropped"
            );
        }
        self.input.clear();
        self.scanned = 0;
        self.line_started = None;
        self.input_state = Input::Closing { eof: false };
    }

    /// Finds the complete lines in `input` and hands them on.
    fn frame(&mut self) {
        let mut input = std::mem::take(&mut self.input);
        let lines = input[self.scanned..]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.per_job = lines.div_ceil(self.ctx.pool.threads()).clamp(1, LIGHT_JOB);
        let mut batch = Requests::default();
        let mut start = 0;
        while let Some(offset) = input[self.scanned..].iter().position(|&b| b == b'\n') {
            let end = self.scanned + offset;
            let line = strip_cr(&input[start..end]);
            if line.len() > MAX_LINE {
                self.line_too_long(&mut batch);
                return;
            }
            self.active_at = Instant::now();
            self.request(line, &mut batch);
            start = end + 1;
            self.scanned = start;
        }
        self.submit(&mut batch);
        input.drain(..start);
        self.scanned = input.len();
        self.input = input;
        self.line_started = match (self.input.is_empty(), start) {
            (true, _) => None,
            // A new partial line began in this read.
            (false, s) if s > 0 => Some(Instant::now()),
            (false, _) => self.line_started.or_else(|| Some(Instant::now())),
        };
        if self.input.len() > MAX_LINE + 1 {
            self.line_too_long(&mut batch);
        }
    }

    /// The client closed its side: a last line without `\n` is still a
    /// request (unless shutdown has begun).
    fn end_of_input(&mut self) {
        if let Input::Closing { .. } = self.input_state {
            self.input_state = Input::Closing { eof: true };
            return;
        }
        self.input_state = Input::Ended;
        self.line_started = None;
        if !self.input.is_empty() {
            let mut batch = Requests::default();
            let input = std::mem::take(&mut self.input);
            self.active_at = Instant::now();
            self.request(strip_cr(&input), &mut batch);
            self.submit(&mut batch);
            self.scanned = 0;
        }
    }

    /// Answers an over-long line and stops reading.
    fn line_too_long(&mut self, batch: &mut Requests) {
        self.submit(batch);
        let mut bytes = Vec::new();
        write_reply(None, b"Bad Request: line too long", &mut bytes);
        Metrics::bump(&self.ctx.metrics.requests);
        Metrics::bump(&self.ctx.metrics.bad_requests);
        self.pending += 1;
        self.outbox.push_ready(bytes, 1);
        self.input = Vec::new();
        self.scanned = 0;
        self.line_started = None;
        self.input_state = Input::TooLong;
    }

    /// Whether a new request must be answered `ServerTooBusy`: too many
    /// unanswered requests, too many bytes held (here or server-wide), or
    /// (for heavy work) too much CPU queued. `batch` already holds the
    /// request.
    fn too_busy(&self, batch: &Requests, class: Class) -> bool {
        let limits = &self.ctx.limits;
        let batched = batch.size();
        let held = self.outbox.bytes() + batched;
        // Past half the server's bound, only connections that hold a share
        // of it are turned away, so that a new client is still served while
        // others sit on their replies.
        let server_full = held >= limits.connection_bytes / 8
            && self.ctx.metrics.buffered_bytes() + batched as u64
                >= (limits.server_bytes / 2) as u64;
        if self.pending + batch.len() > limits.pending_bound
            || held >= limits.connection_bytes / 2
            || server_full
        {
            return true;
        }
        class == Class::Heavy && {
            let (waiting, cost) = self.client.heavy_backlog();
            let waiting = u32::try_from(waiting).unwrap_or(u32::MAX);
            cost.saturating_mul(waiting.saturating_add(1)) > limits.queued_cpu
        }
    }

    /// One request line: answered at once if bad or too much, else parsed
    /// into the batch (a heavy request is a job of its own; a batch of
    /// [`Handler::per_job`] quick ones is handed on).
    fn request(&mut self, line: &[u8], batch: &mut Requests) {
        Metrics::bump(&self.ctx.metrics.requests);
        let (id, body) = split_id(line);
        let class = match batch.add(id, body, &mut self.parser) {
            Ok(class) => class,
            Err(reason) => {
                self.submit(batch);
                let mut bytes = Vec::new();
                crate::protocol::Answer::Bad(reason).write(id, &mut bytes);
                Metrics::bump(&self.ctx.metrics.bad_requests);
                self.pending += 1;
                self.outbox.push_ready(bytes, 1);
                return;
            }
        };
        if self.too_busy(batch, class) {
            drop(batch.split_last());
            self.submit(batch);
            let mut bytes = Vec::new();
            write_reply(id, SERVER_TOO_BUSY.as_bytes(), &mut bytes);
            Metrics::bump(&self.ctx.metrics.busy);
            self.pending += 1;
            self.outbox.push_ready(bytes, 1);
            return;
        }
        if class == Class::Heavy {
            let heavy = batch.split_last();
            self.submit(batch);
            self.submit_job(Class::Heavy, heavy);
        } else if batch.len() >= self.per_job {
            self.submit(batch);
        }
    }

    /// Hands the batch's quick requests to the pool as one job.
    fn submit(&mut self, batch: &mut Requests) {
        if batch.is_empty() {
            return;
        }
        let requests = std::mem::take(batch);
        self.submit_job(Class::Light, requests);
    }

    /// Hands `requests` to the pool as one job in `lane`.
    fn submit_job(&mut self, lane: Class, requests: Requests) {
        let count = requests.len();
        let ticket = self.outbox.reserve(count, requests.size(), Instant::now());
        self.pending += count;
        self.client.submit(
            lane,
            Job {
                requests,
                reply: Box::new(ticket),
            },
        );
    }
}

/// The line without a trailing `\r`.
fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}
