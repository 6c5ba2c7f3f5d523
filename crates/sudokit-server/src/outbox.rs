//! A connection's replies in request order, written by whichever thread
//! completes the front of the order.
//!
//! The connection's I/O task reserves a slot for each job it hands to the
//! pool (and fills slots itself for `ServerTooBusy` and over-long lines). The
//! worker that fills the front slot writes it, and every finished slot behind
//! it, straight to the socket with a non-blocking write: a reply does not wait
//! for the I/O thread to be woken, scheduled and to make the system call
//! (on a small machine those hand-offs, not the solving, bound a request's
//! round trip). Only when the socket's send buffer is full does the writer
//! leave the bytes behind and wake the I/O task, which waits until the socket
//! is writable and writes the rest; until then workers only fill their slots.
//!
//! Solving still never happens on an I/O thread; what moves to the workers
//! is the one non-blocking `write` per finished job. The write is made
//! without the lock held (one thread at a time is the writer), so the I/O task
//! can queue the client's next request while the reply is still in the
//! kernel.

use std::collections::VecDeque;
use std::io::ErrorKind;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::net::TcpStream;
use tokio::sync::Notify;

use crate::metrics::Metrics;
use crate::pool::{Deliver, JobOutput};
use crate::protocol::write_reply;

/// Reply bytes gathered for one write beyond which finished slots wait in the
/// queue (where they still count against the pending bound).
const OUTPUT_HIGH_WATER: usize = 256 * 1024;

/// A place in the reply order.
enum Slot {
    /// Replies a worker is computing; the requests were read at `read_at`.
    Waiting { read_at: Instant },
    /// Replies ready to write.
    Ready { bytes: Vec<u8>, requests: usize },
}

/// What the I/O task waits for, so that a worker wakes it only when needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interest {
    /// Reading is paused until fewer than this many requests are pending.
    pub resume_below: Option<usize>,
    /// Input is closed: wake when every reply has been written.
    pub drained: bool,
}

/// A snapshot of the queue for the I/O task's next decision.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// Requests whose replies are not yet gathered for writing.
    pub pending: usize,
    /// No slot left and nothing left to write.
    pub drained: bool,
    /// Some slot waits for a worker.
    pub waiting: bool,
    /// The socket's buffer was full: the I/O task must write what is left.
    pub blocked: bool,
    /// A write failed: the connection is broken.
    pub failed: bool,
    /// When a reply was last written (or the outbox was made).
    pub last_write: Instant,
}

/// The queue under the lock.
struct State {
    /// Slots in request order.
    slots: VecDeque<Slot>,
    /// The sequence number of `slots[0]`.
    base: u64,
    /// Requests in `slots`.
    pending: usize,
    /// Reply bytes gathered for writing and not handed to a writer.
    output: Vec<u8>,
    /// Replies in `output`.
    output_replies: u64,
    /// A thread is writing bytes it took from `output` (without the lock);
    /// it gathers and writes again before it clears this.
    writing: bool,
    /// The socket's buffer was full; only the I/O task writes until it drains.
    blocked: bool,
    /// A write failed, or the connection is closing: later replies are dropped.
    failed: bool,
    /// What the I/O task waits for.
    interest: Interest,
    /// When a reply was last written.
    last_write: Instant,
}

/// One connection's socket and its replies in order; shared by the I/O task
/// and the workers solving its requests.
pub struct Outbox {
    /// The socket: read by the I/O task, written by whoever completes the
    /// front slot.
    stream: TcpStream,
    /// Counts replies written and request latencies, and the server's
    /// buffered bytes.
    metrics: Arc<Metrics>,
    /// Bytes this connection holds in queued requests and unwritten replies
    /// (read without the lock by the I/O task's admission checks).
    bytes: AtomicUsize,
    /// The reply order.
    state: Mutex<State>,
    /// Wakes the I/O task when what it registered in [`Interest`] happens, or
    /// the socket blocked or failed.
    wake: Notify,
}

/// How a write attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flush {
    /// Everything ready has been written.
    Done,
    /// The socket's buffer is full.
    Blocked,
    /// The socket failed.
    Failed,
}

impl Outbox {
    /// An empty reply order for `stream`.
    pub fn new(stream: TcpStream, metrics: Arc<Metrics>) -> Arc<Outbox> {
        Arc::new(Outbox {
            stream,
            metrics,
            bytes: AtomicUsize::new(0),
            state: Mutex::new(State {
                slots: VecDeque::new(),
                base: 0,
                pending: 0,
                output: Vec::new(),
                output_replies: 0,
                writing: false,
                blocked: false,
                failed: false,
                interest: Interest::default(),
                last_write: Instant::now(),
            }),
            wake: Notify::new(),
        })
    }

    /// The socket, for the I/O task's reads.
    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }

    /// Resolves when a worker has something for the I/O task (see
    /// [`Interest`]); a wake-up that came before this call is not lost.
    pub async fn notified(&self) {
        self.wake.notified().await;
    }

    /// Records what the I/O task will wait for and returns the queue's state.
    pub fn view(&self, interest: Interest) -> View {
        let mut state = self.lock();
        state.interest = interest;
        View {
            pending: state.pending,
            drained: state.is_drained(),
            waiting: state
                .slots
                .iter()
                .any(|slot| matches!(slot, Slot::Waiting { .. })),
            blocked: state.blocked,
            failed: state.failed,
            last_write: state.last_write,
        }
    }

    /// Reserves the next place in the order for `requests` requests read at
    /// `read_at` that hold `job_bytes` while queued, to be filled by
    /// [`Ticket::deliver`].
    pub fn reserve(
        self: &Arc<Self>,
        requests: usize,
        job_bytes: usize,
        read_at: Instant,
    ) -> Ticket {
        self.charge(job_bytes, &self.metrics.queued_bytes);
        let mut state = self.lock();
        let seq = state.base + state.slots.len() as u64;
        state.pending += requests;
        state.slots.push_back(Slot::Waiting { read_at });
        Ticket {
            outbox: Arc::clone(self),
            seq,
            requests,
            job_bytes,
            delivered: false,
        }
    }

    /// Bytes this connection holds in queued requests and unwritten replies.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Counts `n` more bytes held, in this connection's total and in the
    /// server's `gauge`.
    fn charge(&self, n: usize, gauge: &std::sync::atomic::AtomicU64) {
        self.bytes.fetch_add(n, Ordering::Relaxed);
        gauge.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// Counts `n` bytes no longer held.
    fn release(&self, n: usize, gauge: &std::sync::atomic::AtomicU64) {
        self.bytes.fetch_sub(n, Ordering::Relaxed);
        gauge.fetch_sub(n as u64, Ordering::Relaxed);
    }

    /// Appends replies made without a worker (`ServerTooBusy`, an over-long
    /// line), and writes them if they are at the front.
    pub fn push_ready(&self, bytes: Vec<u8>, requests: usize) {
        let mut state = self.lock();
        if state.failed {
            return;
        }
        self.charge(bytes.len(), &self.metrics.reply_bytes);
        for _ in 0..requests {
            // Answered as soon as read.
            self.metrics.record_latency(std::time::Duration::ZERO);
        }
        state.pending += requests;
        state.slots.push_back(Slot::Ready { bytes, requests });
        if !state.blocked {
            drop(self.flush(state));
        }
    }

    /// The I/O task's write once the socket is writable again after it
    /// blocked; clears the block when everything ready has been written.
    pub fn flush_blocked(&self) {
        let mut state = self.lock();
        if state.failed {
            return;
        }
        state.blocked = false;
        drop(self.flush(state));
    }

    /// Marks the connection finished: replies still to come are dropped, and
    /// the bytes of those ready are freed. Returns how many requests were
    /// left without a reply written (waiting, ready or half written).
    pub fn close(&self) -> usize {
        let mut state = self.lock();
        state.failed = true;
        let unwritten = state.pending + state.output_replies as usize;
        let mut freed = std::mem::take(&mut state.output).len();
        state.output_replies = 0;
        for slot in std::mem::take(&mut state.slots) {
            if let Slot::Ready { bytes, .. } = slot {
                freed += bytes.len();
            }
        }
        state.pending = 0;
        drop(state);
        self.release(freed, &self.metrics.reply_bytes);
        unwritten
    }

    /// Fills slot `seq` with `bytes` (a worker's answers to its requests) and,
    /// if it is at the front, writes everything ready.
    fn complete(&self, seq: u64, requests: usize, output: JobOutput) {
        let metrics = &self.metrics;
        let JobOutput {
            bytes,
            bad,
            timed_out,
        } = output;
        let mut state = self.lock();
        if state.failed {
            // The client has gone: nothing was answered.
            metrics
                .cancelled
                .fetch_add(requests as u64, Ordering::Relaxed);
            return;
        }
        metrics.bad_requests.fetch_add(bad, Ordering::Relaxed);
        metrics.timeouts.fetch_add(timed_out, Ordering::Relaxed);
        self.charge(bytes.len(), &metrics.reply_bytes);
        let Some(index) = seq
            .checked_sub(state.base)
            .and_then(|i| usize::try_from(i).ok())
        else {
            return;
        };
        if let Some(slot) = state.slots.get_mut(index) {
            if let Slot::Waiting { read_at, .. } = *slot {
                let latency = read_at.elapsed();
                for _ in 0..requests {
                    metrics.record_latency(latency);
                }
                *slot = Slot::Ready { bytes, requests };
            }
        }
        if index == 0 && !state.blocked {
            let flush;
            (state, flush) = self.flush(state);
            if flush != Flush::Done {
                drop(state);
                self.wake.notify_one();
                return;
            }
        }
        let interest = state.interest;
        let wake = interest.resume_below.is_some_and(|b| state.pending < b)
            || (interest.drained && state.is_drained());
        drop(state);
        if wake {
            self.wake.notify_one();
        }
    }

    /// Gathers ready slots from the front into the output and writes until
    /// everything ready is written, the socket blocks, or it fails (setting
    /// `blocked` or `failed`). The lock is released during each write; if
    /// another thread is the writer already, it returns at once: that writer
    /// gathers again before it stops. Returns the lock and how it ended
    /// ([`Flush::Done`] also when another thread writes).
    fn flush<'a>(&'a self, mut state: MutexGuard<'a, State>) -> (MutexGuard<'a, State>, Flush) {
        if state.writing {
            return (state, Flush::Done);
        }
        state.writing = true;
        loop {
            state.gather();
            if state.output.is_empty() {
                state.writing = false;
                return (state, Flush::Done);
            }
            let mut bytes = std::mem::take(&mut state.output);
            let replies = std::mem::take(&mut state.output_replies);
            // Counted as gone once handed to the writer, so that a client
            // that has read a reply never finds it still counted against its
            // bound; what the socket does not take is counted again.
            self.release(bytes.len(), &self.metrics.reply_bytes);
            drop(state);
            let result = self.write_some(&bytes);
            state = self.lock();
            let flush = match result {
                Ok(written) if written == bytes.len() => {
                    state.last_write = Instant::now();
                    self.metrics.responses.fetch_add(replies, Ordering::Relaxed);
                    if state.output.is_empty() {
                        // Keep the allocation for the next replies.
                        bytes.clear();
                        state.output = bytes;
                    }
                    continue;
                }
                Ok(written) => {
                    if written > 0 {
                        state.last_write = Instant::now();
                    }
                    // What is left goes back in front of what was gathered
                    // meanwhile.
                    bytes.drain(..written);
                    self.charge(bytes.len(), &self.metrics.reply_bytes);
                    bytes.extend_from_slice(&state.output);
                    state.output = bytes;
                    state.output_replies += replies;
                    state.blocked = true;
                    Flush::Blocked
                }
                Err(()) => {
                    state.failed = true;
                    self.charge(bytes.len(), &self.metrics.reply_bytes);
                    state.output_replies += replies;
                    bytes.extend_from_slice(&state.output);
                    state.output = bytes;
                    Flush::Failed
                }
            };
            state.writing = false;
            return (state, flush);
        }
    }

    /// Writes `bytes` without blocking until they are all written or the
    /// socket's buffer is full; returns how many were written, or `Err` if
    /// the socket failed.
    fn write_some(&self, bytes: &[u8]) -> Result<usize, ()> {
        let mut written = 0;
        while written < bytes.len() {
            match self.stream.try_write(&bytes[written..]) {
                Ok(0) => return Err(()),
                Ok(n) => written += n,
                Err(error) if error.kind() == ErrorKind::WouldBlock => break,
                Err(error) if error.kind() == ErrorKind::Interrupted => {}
                Err(error) => {
                    tracing::debug!(%error, "write failed");
                    return Err(());
                }
            }
        }
        Ok(written)
    }

    /// Locks the queue; no code under the lock can panic, so a poisoned lock
    /// still holds a consistent queue.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl State {
    /// No slot left, nothing gathered, and no write under way.
    fn is_drained(&self) -> bool {
        self.slots.is_empty() && self.output.is_empty() && !self.writing
    }

    /// Moves ready slots from the front into the output, up to its high-water
    /// mark.
    fn gather(&mut self) {
        while self.output.len() < OUTPUT_HIGH_WATER {
            if !matches!(self.slots.front(), Some(Slot::Ready { .. })) {
                return;
            }
            let Some(Slot::Ready { bytes, requests }) = self.slots.pop_front() else {
                return;
            };
            self.base += 1;
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

/// A reserved place in a connection's reply order, handed to the pool with the
/// job. Dropped without delivering (a worker failed), it answers each of its
/// requests `Bad Request: internal error`, so no request goes unanswered.
pub struct Ticket {
    /// The connection.
    outbox: Arc<Outbox>,
    /// The place in its order.
    seq: u64,
    /// How many requests the place answers.
    requests: usize,
    /// Bytes the job's requests held while queued.
    job_bytes: usize,
    /// Whether the replies were delivered.
    delivered: bool,
}

impl Deliver for Ticket {
    fn deliver(mut self: Box<Self>, output: JobOutput) {
        self.delivered = true;
        self.outbox
            .release(self.job_bytes, &self.outbox.metrics.queued_bytes);
        self.outbox.complete(self.seq, self.requests, output);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.delivered {
            return;
        }
        self.outbox
            .release(self.job_bytes, &self.outbox.metrics.queued_bytes);
        if self.outbox.lock().failed {
            // Cancelled with its connection: nobody waits for the replies.
            self.outbox
                .metrics
                .cancelled
                .fetch_add(self.requests as u64, Ordering::Relaxed);
            return;
        }
        tracing::error!("a worker failed on a request");
        let mut bytes = Vec::new();
        for _ in 0..self.requests {
            write_reply(None, b"Bad Request: internal error", &mut bytes);
        }
        let bad = self.requests as u64;
        let output = JobOutput {
            bytes,
            bad,
            timed_out: 0,
        };
        self.outbox.complete(self.seq, self.requests, output);
    }
}
