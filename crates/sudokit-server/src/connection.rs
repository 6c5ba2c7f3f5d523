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
//!   per worker, so a pipelined batch is solved in parallel); every job leaves a
//!   slot in a queue in request order, and replies leave in that order.
//! - **Backpressure** (muduo's `server_prod`): when this connection already has
//!   `pending_bound` requests whose replies are not written yet, or the pool's
//!   queue is full, a request is answered `ServerTooBusy` without being solved.
//!   At twice the bound the handler stops reading until replies drain, so a
//!   client that never reads cannot grow the server's memory.
//! - **Idle timeout**: a connection that neither sends a byte nor takes one of
//!   its replies for the timeout, while not waiting for a worker, is closed.
//! - **Shutdown**: reading stops, every request already read is answered and
//!   flushed, then the connection closes.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::time::sleep_until;

use crate::metrics::Metrics;
use crate::pool::{Job, JobOutput, Pool, QueueFull};
use crate::protocol::{split_id, write_reply, MAX_LINE, SERVER_TOO_BUSY};
use crate::shutdown::{DrainGuard, Shutdown};

/// Replies buffered for writing beyond which finished jobs wait in the slot
/// queue (where they count against the pending bound).
const OUTPUT_HIGH_WATER: usize = 256 * 1024;

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

/// A place in the reply order.
enum Slot {
    /// Replies ready to write.
    Ready { bytes: Vec<u8>, requests: usize },
    /// Replies a worker is computing.
    Waiting {
        reply: oneshot::Receiver<JobOutput>,
        requests: usize,
        read_at: Instant,
    },
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

/// A connection's state between the socket and the pool.
struct Handler {
    /// The pool, counters and limits.
    ctx: Context,
    /// Bytes read and not yet framed into lines (a partial line).
    input: Vec<u8>,
    /// Where the search for `\n` resumes in `input`.
    scanned: usize,
    /// Reply slots in request order.
    slots: VecDeque<Slot>,
    /// Requests in `slots`.
    pending: usize,
    /// Reply bytes being written.
    output: Vec<u8>,
    /// How much of `output` has been written.
    written: usize,
    /// Replies in `output` not yet counted as written.
    output_replies: u64,
    /// Whether the handler still reads, and why not.
    input_state: Input,
}

/// Serves one client until it leaves, idles out, or shutdown completes.
pub async fn handle(
    mut stream: TcpStream,
    ctx: Context,
    mut shutdown: Shutdown,
    _drain: DrainGuard,
) {
    let peer = stream.peer_addr().ok();
    let mut handler = Handler {
        ctx,
        input: Vec::with_capacity(4096),
        scanned: 0,
        slots: VecDeque::new(),
        pending: 0,
        output: Vec::with_capacity(4096),
        written: 0,
        output_replies: 0,
        input_state: Input::Open,
    };
    let (mut reader, mut writer) = stream.split();
    let mut deadline = Instant::now() + handler.ctx.idle_timeout;
    loop {
        handler.collect_ready();
        if handler.input_state != Input::Open
            && handler.slots.is_empty()
            && handler.output.is_empty()
        {
            break;
        }
        let waiting = matches!(handler.slots.front(), Some(Slot::Waiting { .. }));
        let can_read =
            handler.input_state == Input::Open && handler.pending < 2 * handler.ctx.pending_bound;
        if can_read {
            handler.input.reserve(16 * 1024);
        }
        tokio::select! {
            read = reader.read_buf(&mut handler.input), if can_read => match read {
                Ok(0) => {
                    handler.end_of_input();
                    deadline = Instant::now() + handler.ctx.idle_timeout;
                }
                Ok(_) => {
                    handler.frame();
                    deadline = Instant::now() + handler.ctx.idle_timeout;
                }
                Err(error) => {
                    tracing::debug!(?peer, %error, "read failed");
                    break;
                }
            },
            wrote = writer.write(&handler.output[handler.written..]), if !handler.output.is_empty() => match wrote {
                Ok(n) if n > 0 => {
                    handler.written += n;
                    if handler.written == handler.output.len() {
                        handler.output.clear();
                        handler.written = 0;
                        handler.ctx.metrics.responses.fetch_add(handler.output_replies, Ordering::Relaxed);
                        handler.output_replies = 0;
                    }
                    deadline = Instant::now() + handler.ctx.idle_timeout;
                }
                Ok(_) => break,
                Err(error) => {
                    tracing::debug!(?peer, %error, "write failed");
                    break;
                }
            },
            done = wait_front(&mut handler.slots), if waiting => handler.finish_front(done),
            () = shutdown.wait(), if handler.input_state == Input::Open => {
                handler.input_state = Input::Closing;
            },
            () = sleep_until(deadline.into()), if !waiting => {
                Metrics::bump(&handler.ctx.metrics.idle_closed);
                tracing::debug!(?peer, "idle timeout");
                break;
            },
        }
    }
    let _ = writer.shutdown().await;
    if handler.input_state == Input::TooLong {
        let discard = async {
            let mut sink = [0u8; 16 * 1024];
            let mut left = LINGER_BYTES;
            while left > 0 {
                match reader.read(&mut sink).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => left = left.saturating_sub(n),
                }
            }
        };
        let _ = tokio::time::timeout(LINGER_TIME, discard).await;
    }
}

/// Waits for the front slot's worker (the caller checks that it is waiting).
async fn wait_front(slots: &mut VecDeque<Slot>) -> Option<JobOutput> {
    match slots.front_mut() {
        Some(Slot::Waiting { reply, .. }) => reply.await.ok(),
        _ => std::future::pending().await,
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
        self.push(Slot::Ready { bytes, requests: 1 });
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
        let mut bytes = Vec::new();
        for line in lines.split_inclusive(|&b| b == b'\n') {
            write_reply(split_id(line).0, SERVER_TOO_BUSY.as_bytes(), &mut bytes);
        }
        self.ctx
            .metrics
            .busy
            .fetch_add(requests as u64, Ordering::Relaxed);
        self.push(Slot::Ready { bytes, requests });
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
            let (reply, rx) = oneshot::channel();
            let job = Job {
                lines: chunk,
                requests,
                reply,
            };
            match self.ctx.pool.submit(job) {
                Ok(()) => self.push(Slot::Waiting {
                    reply: rx,
                    requests,
                    read_at,
                }),
                Err(QueueFull(job)) => self.busy(&job.lines, job.requests),
            }
        }
    }

    /// Appends a slot in request order.
    fn push(&mut self, slot: Slot) {
        self.pending += match &slot {
            Slot::Ready { requests, .. } | Slot::Waiting { requests, .. } => *requests,
        };
        self.slots.push_back(slot);
    }

    /// Turns the front slot's finished job into ready replies.
    fn finish_front(&mut self, done: Option<JobOutput>) {
        let Some(Slot::Waiting {
            requests, read_at, ..
        }) = self.slots.pop_front()
        else {
            return;
        };
        let bytes = match done {
            Some((bytes, bad)) => {
                self.ctx
                    .metrics
                    .bad_requests
                    .fetch_add(bad, Ordering::Relaxed);
                let latency = read_at.elapsed();
                for _ in 0..requests {
                    self.ctx.metrics.record_latency(latency);
                }
                bytes
            }
            // The worker dropped the job without an answer (a solver panic):
            // the requests are answered rather than silently lost.
            None => {
                tracing::error!("a worker failed on a request");
                let mut bytes = Vec::new();
                for _ in 0..requests {
                    write_reply(None, b"Bad Request: internal error", &mut bytes);
                }
                bytes
            }
        };
        self.slots.push_front(Slot::Ready { bytes, requests });
    }

    /// Moves replies that are ready, in order, into the output buffer (up to
    /// its high-water mark).
    fn collect_ready(&mut self) {
        while self.output.len() < OUTPUT_HIGH_WATER {
            match self.slots.front_mut() {
                Some(Slot::Ready { .. }) => {}
                Some(Slot::Waiting { reply, .. }) => match reply.try_recv() {
                    Ok(done) => self.finish_front(Some(done)),
                    Err(oneshot::error::TryRecvError::Empty) => return,
                    Err(oneshot::error::TryRecvError::Closed) => self.finish_front(None),
                },
                None => return,
            }
            if let Some(Slot::Ready { bytes, requests }) = self.slots.pop_front() {
                self.pending -= requests;
                self.output_replies += requests as u64;
                if self.output.is_empty() {
                    self.output = bytes;
                } else {
                    self.output.extend_from_slice(&bytes);
                }
            }
        }
    }
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
