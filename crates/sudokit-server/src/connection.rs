//! One client connection: line framing, work hand-off, replies in order.
//!
//! The handler is a single task that reads, hands complete lines to the worker
//! pool, and writes replies, all in one `select!` loop, so that reading never
//! waits for solving and pipelined requests flow in both directions at once.
//!
//! - **Framing** is done here, byte by byte: a line ends at `\n` (a `\r` before
//!   it is dropped), whatever the split of bytes across reads. A line is handed
//!   on as soon as its `\n` arrives (muduo's parser waits for 83 bytes; this one
//!   does not). A line longer than [`MAX_LINE`] is answered
//!   `Bad Request: line too long` and the connection is closed; a final line
//!   without `\n` is answered when the client ends its side.
//! - **Order**: each group of lines read together becomes one or more jobs (one
//!   per worker, so a pipelined batch is solved in parallel); every job takes
//!   a place in the connection's [`Outbox`], and replies leave in that order,
//!   written by the worker that completes the front (see [`crate::outbox`]).
//! - **Backpressure** (muduo's `server_prod`): when this connection already has
//!   `pending_bound` requests whose replies are not written yet, or the pool's
//!   queue is full, a request is answered `ServerTooBusy` without being solved.
//!   At twice the bound the handler stops reading until replies drain, so a
//!   client that never reads cannot grow the server's memory.
//! - **Idle timeout**: a connection that neither sends a byte nor takes one of
//!   its replies for the timeout, while not waiting for a worker, is closed.
//! - **Waking**: the task sleeps on the socket and on the outbox, which wakes
//!   it only when the socket's send buffer filled up, a write failed, reading
//!   may resume, or (input closed) the last reply is out.
//! - **Shutdown**: reading stops, every request already read is answered and
//!   flushed, then the connection closes.

use std::io::ErrorKind;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::TcpStream;
use tokio::time::sleep_until;

use crate::metrics::Metrics;
use crate::outbox::{Interest, Outbox};
use crate::pool::{Job, JobOutput, Pool, QueueFull};
use crate::protocol::{split_id, write_reply, MAX_LINE, SERVER_TOO_BUSY};
use crate::shutdown::{DrainGuard, Shutdown};

/// After an over-long line, how long the handler keeps reading (and
/// discarding) before it closes.
const LINGER_TIME: Duration = Duration::from_secs(2);

/// After an over-long line, how many bytes the handler reads and discards at
/// most before it closes.
const LINGER_BYTES: usize = 1024 * 1024;

/// What every connection shares with the server.
#[derive(Clone)]
pub struct Context {
    /// The worker pool.
    pub pool: Arc<Pool>,
    /// The service's counters.
    pub metrics: Arc<Metrics>,
    /// Requests per connection whose replies are not written yet, beyond which
    /// new requests are answered `ServerTooBusy`.
    pub pending_bound: usize,
    /// How long a connection may do nothing before it is closed.
    pub idle_timeout: Duration,
}

/// Why the handler stops reading.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Input {
    /// Reading.
    Open,
    /// The client closed its side: answer what is left, then close.
    Ended,
    /// Shutdown: answer what was read, then close.
    Closing,
    /// A line too long: answer what came before it, then close, discarding
    /// what the client still sends (so that closing with unread bytes does
    /// not reset the connection before the client has read its answers).
    TooLong,
}

/// A connection's reading side: framing lines and handing them on.
struct Handler {
    /// The pool, counters and limits.
    ctx: Context,
    /// The socket and the reply order.
    outbox: Arc<Outbox>,
    /// Bytes read and not yet framed into lines (a partial line).
    input: Vec<u8>,
    /// Where the search for `\n` resumes in `input`.
    scanned: usize,
    /// Requests whose replies are not written yet (as last seen, plus those
    /// handed on since).
    pending: usize,
    /// Whether the handler still reads, and why not.
    input_state: Input,
}

/// Serves one client until it leaves, idles out, or shutdown completes.
pub async fn handle(stream: TcpStream, ctx: Context, mut shutdown: Shutdown, _drain: DrainGuard) {
    let peer = stream.peer_addr().ok();
    let outbox = Outbox::new(stream, Arc::clone(&ctx.metrics));
    let mut handler = Handler {
        ctx,
        outbox: Arc::clone(&outbox),
        input: Vec::with_capacity(4096),
        scanned: 0,
        pending: 0,
        input_state: Input::Open,
    };
    let stream = outbox.stream();
    let idle_timeout = handler.ctx.idle_timeout;
    let read_limit = 2 * handler.ctx.pending_bound;
    let mut active_at = Instant::now();
    loop {
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
        if view.failed || (!open && view.drained) {
            break;
        }
        let can_read = open && view.pending < read_limit;
        if can_read {
            handler.input.reserve(16 * 1024);
        }
        let deadline = active_at.max(view.last_write) + idle_timeout;
        tokio::select! {
            ready = stream.readable(), if can_read => {
                if let Err(error) = ready {
                    tracing::debug!(?peer, %error, "read failed");
                    break;
                }
                match stream.try_read_buf(&mut handler.input) {
                    Ok(0) => handler.end_of_input(),
                    Ok(_) => handler.frame(),
                    Err(error) if error.kind() == ErrorKind::WouldBlock => continue,
                    Err(error) => {
                        tracing::debug!(?peer, %error, "read failed");
                        break;
                    }
                }
                active_at = Instant::now();
            },
            ready = stream.writable(), if view.blocked => match ready {
                Ok(()) => outbox.flush_blocked(),
                Err(error) => {
                    tracing::debug!(?peer, %error, "write failed");
                    break;
                }
            },
            () = outbox.notified() => {},
            () = shutdown.wait(), if open => {
                handler.input_state = Input::Closing;
            },
            () = sleep_until(deadline.into()) => {
                if view.waiting {
                    // Waiting for a worker is not idleness.
                    active_at = Instant::now();
                    continue;
                }
                Metrics::bump(&handler.ctx.metrics.idle_closed);
                tracing::debug!(?peer, "idle timeout");
                break;
            },
        }
    }
    outbox.close();
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

impl Handler {
    /// Finds the complete lines in `input` and hands them on.
    fn frame(&mut self) {
        let mut input = std::mem::take(&mut self.input);
        let mut batch = Batch::default();
        let mut start = 0;
        while let Some(offset) = input[self.scanned..].iter().position(|&b| b == b'\n') {
            let end = self.scanned + offset;
            let line = strip_cr(&input[start..end]);
            if line.len() > MAX_LINE {
                self.line_too_long(&mut batch);
                return;
            }
            self.request(line, &mut batch);
            start = end + 1;
            self.scanned = start;
        }
        self.submit(&mut batch);
        input.drain(..start);
        self.scanned = input.len();
        self.input = input;
        if self.input.len() > MAX_LINE + 1 {
            self.line_too_long(&mut batch);
        }
    }

    /// The client closed its side: a last line without `\n` is still a request.
    fn end_of_input(&mut self) {
        self.input_state = Input::Ended;
        if !self.input.is_empty() {
            let mut batch = Batch::default();
            let input = std::mem::take(&mut self.input);
            self.request(strip_cr(&input), &mut batch);
            self.submit(&mut batch);
            self.scanned = 0;
        }
    }

    /// Answers an over-long line and stops reading.
    fn line_too_long(&mut self, batch: &mut Batch) {
        self.submit(batch);
        let mut bytes = Vec::new();
        write_reply(None, b"Bad Request: line too long", &mut bytes);
        Metrics::bump(&self.ctx.metrics.requests);
        Metrics::bump(&self.ctx.metrics.bad_requests);
        self.pending += 1;
        self.outbox.push_ready(bytes, 1);
        self.input.clear();
        self.scanned = 0;
        self.input_state = Input::TooLong;
    }

    /// One request line: into the batch, or answered `ServerTooBusy` when this
    /// connection has too many replies outstanding.
    fn request(&mut self, line: &[u8], batch: &mut Batch) {
        Metrics::bump(&self.ctx.metrics.requests);
        if self.pending + batch.requests >= self.ctx.pending_bound {
            self.submit(batch);
            let mut busy = line.to_vec();
            busy.push(b'\n');
            self.busy(&busy, 1);
        } else {
            batch.lines.extend_from_slice(line);
            batch.lines.push(b'\n');
            batch.requests += 1;
        }
    }

    /// Answers `requests` lines (each ending in `\n`) with `ServerTooBusy`.
    fn busy(&mut self, lines: &[u8], requests: usize) {
        self.pending += requests;
        self.outbox
            .push_ready(busy_replies(&self.ctx, lines, requests), requests);
    }

    /// Hands the batch to the pool, split into one job per worker so that a
    /// pipelined batch is solved in parallel.
    fn submit(&mut self, batch: &mut Batch) {
        if batch.requests == 0 {
            return;
        }
        let read_at = Instant::now();
        let per_job = batch.requests.div_ceil(self.ctx.pool.threads());
        let text = std::mem::take(&mut batch.lines);
        batch.requests = 0;
        let mut lines = text.split_inclusive(|&b| b == b'\n').peekable();
        while lines.peek().is_some() {
            let mut chunk = Vec::new();
            let mut requests = 0;
            for line in lines.by_ref().take(per_job) {
                chunk.extend_from_slice(line);
                requests += 1;
            }
            let ticket = self.outbox.reserve(requests, read_at);
            self.pending += requests;
            let job = Job {
                lines: chunk,
                requests,
                reply: Box::new(ticket),
            };
            if let Err(QueueFull(job)) = self.ctx.pool.submit(job) {
                // The place is already taken in the reply order: fill it.
                let busy = busy_replies(&self.ctx, &job.lines, job.requests);
                job.reply.deliver(JobOutput {
                    bytes: busy,
                    ..JobOutput::default()
                });
            }
        }
    }
}

/// `ServerTooBusy` replies to `requests` lines (each ending in `\n`), counted.
fn busy_replies(ctx: &Context, lines: &[u8], requests: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    for line in lines.split_inclusive(|&b| b == b'\n') {
        write_reply(split_id(line).0, SERVER_TOO_BUSY.as_bytes(), &mut bytes);
    }
    ctx.metrics
        .busy
        .fetch_add(requests as u64, std::sync::atomic::Ordering::Relaxed);
    bytes
}

/// Lines read together, not yet handed to the pool.
#[derive(Default)]
struct Batch {
    /// The lines, each followed by `\n`.
    lines: Vec<u8>,
    /// The number of lines.
    requests: usize,
}

/// The line without a trailing `\r`.
fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}
