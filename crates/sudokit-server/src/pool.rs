//! The worker pool: dedicated threads that do every puzzle's CPU work, with
//! one queue per connection, served fairly.
//!
//! Solving never runs on the I/O threads, so a hard puzzle does not stall the
//! reading and writing of other connections. Each worker owns a
//! [`Workspace`] (one solver per shape, reused for every puzzle).
//!
//! **Fairness.** Every connection has its own queues ([`Class::Light`] jobs of
//! up to a few dozen quick requests, [`Class::Heavy`] jobs of one request that
//! may take up to the solve timeout), and the workers serve connections
//! round-robin, one job at a time, so one client's thousands of queued
//! requests cannot crowd out another's one. Heavy jobs run on at most all
//! workers but one (so quick requests always have a worker), and each
//! connection runs at most [`Pool::heavy_quota`] heavy jobs at once.
//!
//! **Cost.** Each connection's mean CPU time per heavy request is measured;
//! its queued heavy requests times that mean is its *queued CPU*, which the
//! connection caps (see [`crate::connection`]).
//!
//! **Cancellation.** [`Client::cancel`] drops a connection's queued jobs and
//! raises its cancel flag, which the solvers of its running jobs check, so
//! the work of a client that has gone stops within milliseconds.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::protocol::{Class, Parsed, Parser, ReplyKind, WorkRef, Workspace};

/// How long a worker that ran out of jobs keeps looking for the next one
/// before it sleeps. Waking a sleeping thread costs tens of microseconds on a
/// virtual machine, more than a 9×9 puzzle takes; one worker at a time looks,
/// yielding its core to any other thread that wants it.
const SPIN_TIME: Duration = Duration::from_micros(100);

/// The CPU time per heavy request assumed for a connection before any of
/// its heavy requests has finished.
const FIRST_HEAVY_COST: Duration = Duration::from_millis(50);

/// The requests of one job, their ids and givens packed in one buffer: a
/// job costs two allocations however many requests it holds (allocations
/// per request, made on the I/O thread and freed by a worker, contend for
/// the allocator's locks).
#[derive(Debug, Default)]
pub struct Requests {
    /// The ids and givens, one request after another.
    bytes: Vec<u8>,
    /// Where each request's parts are in `bytes`.
    items: Vec<Item>,
}

/// One request of a [`Requests`].
#[derive(Clone, Copy, Debug)]
struct Item {
    /// Where its bytes begin.
    start: usize,
    /// The length of its id, if it has one (the id comes first).
    id: Option<usize>,
    /// Its work (a Sudoku's givens follow the id).
    work: Parsed,
}

impl Requests {
    /// Parses `body` into a new last request with `id`: its lane, or why it
    /// is a bad request (and then nothing is added).
    pub fn add(
        &mut self,
        id: Option<&[u8]>,
        body: &[u8],
        parser: &mut Parser,
    ) -> Result<Class, String> {
        let start = self.bytes.len();
        if let Some(id) = id {
            self.bytes.extend_from_slice(id);
        }
        match parser.parse_into(body, &mut self.bytes) {
            Ok(work) => {
                self.items.push(Item {
                    start,
                    id: id.map(<[u8]>::len),
                    work,
                });
                Ok(self.get(self.items.len() - 1).1.class())
            }
            Err(reason) => {
                self.bytes.truncate(start);
                Err(reason)
            }
        }
    }

    /// Moves the last request out into a [`Requests`] of its own.
    pub fn split_last(&mut self) -> Requests {
        let Some(item) = self.items.pop() else {
            return Requests::default();
        };
        let bytes = self.bytes.split_off(item.start);
        Requests {
            bytes,
            items: vec![Item { start: 0, ..item }],
        }
    }

    /// The number of requests.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Bytes held (for the memory bounds).
    pub fn size(&self) -> usize {
        std::mem::size_of::<Requests>()
            + self.bytes.capacity()
            + self.items.capacity() * std::mem::size_of::<Item>()
    }

    /// Request `i`: its id and its work.
    fn get(&self, i: usize) -> (Option<&[u8]>, WorkRef<'_>) {
        let item = self.items[i];
        let id_len = item.id.unwrap_or(0);
        let id = item.id.map(|len| &self.bytes[item.start..item.start + len]);
        let work = match item.work {
            Parsed::Sudoku(shape) => {
                let from = item.start + id_len;
                WorkRef::Sudoku {
                    shape,
                    givens: &self.bytes[from..from + shape.cell_count()],
                }
            }
            Parsed::Variant { shape, fields } => {
                let from = item.start + id_len;
                let to = from + shape.cell_count();
                WorkRef::Variant {
                    shape,
                    givens: &self.bytes[from..to],
                    fields: &self.bytes[to..to + fields],
                }
            }
            Parsed::Slide(board) => WorkRef::Slide(board),
        };
        (id, work)
    }
}

/// A job's result: the replies to its requests, concatenated in order, and
/// how many were of the kinds the counters track.
#[derive(Debug, Default)]
pub struct JobOutput {
    /// The replies, each ending in `\r\n`.
    pub bytes: Vec<u8>,
    /// Replies `Bad Request: …`.
    pub bad: u64,
    /// Replies `Timeout`.
    pub timed_out: u64,
}

/// Where a job's replies go (a connection's [`crate::outbox::Ticket`]). A
/// receiver dropped without [`Deliver::deliver`] (a worker failed, or the
/// job was cancelled) must account for its requests: that is the
/// implementor's duty.
pub trait Deliver: Send {
    /// Takes the replies to every request of the job, in order.
    fn deliver(self: Box<Self>, output: JobOutput);
}

/// A unit of work: requests from one connection, and where to send their
/// replies.
pub struct Job {
    /// The requests, in order.
    pub requests: Requests,
    /// Receives the replies; dropped without them if solving panicked or
    /// the job was cancelled.
    pub reply: Box<dyn Deliver>,
}

impl Job {
    /// Answers every request with `workspace`. A request whose solving
    /// panics (a bug, never expected) is answered
    /// `[id:]Bad Request: internal error` with a fresh workspace, and the
    /// other requests are answered as usual.
    fn run(self, workspace: &mut Workspace, cancel: &Arc<AtomicBool>) {
        let mut out = JobOutput {
            bytes: Vec::with_capacity(self.requests.len() * 96),
            ..JobOutput::default()
        };
        for i in 0..self.requests.len() {
            let (id, work) = self.requests.get(i);
            let answer = AssertUnwindSafe(|| workspace.answer_work(work, Some(cancel)));
            let answer = match std::panic::catch_unwind(answer) {
                Ok(answer) => answer,
                Err(_) => {
                    *workspace = workspace.fresh();
                    crate::protocol::Answer::Bad("internal error".to_string())
                }
            };
            match answer.kind() {
                ReplyKind::Answered => {}
                ReplyKind::Bad => out.bad += 1,
                ReplyKind::GaveUp => out.timed_out += 1,
            }
            answer.write(id, &mut out.bytes);
        }
        self.reply.deliver(out);
    }
}

/// One connection's jobs and counts, under the pool's lock.
struct Queues {
    /// Light jobs in order.
    light: VecDeque<Job>,
    /// Heavy jobs in order.
    heavy: VecDeque<Job>,
    /// Whether the connection's id is in the light ring.
    in_light_ring: bool,
    /// Whether the connection's id is in the heavy ring.
    in_heavy_ring: bool,
    /// Heavy jobs of this connection running now.
    heavy_running: usize,
    /// Raised on [`Client::cancel`]: running solvers give up.
    cancel: Arc<AtomicBool>,
    /// The connection's measured heavy cost.
    cost: Arc<HeavyCost>,
}

/// What the workers and the connections share.
struct Shared {
    /// Queues and rings, and whether the pool is closing.
    state: Mutex<State>,
    /// Signalled when a job arrives or the pool closes.
    ready: Condvar,
    /// Jobs waiting in all queues (read without the lock, for looking
    /// workers and metrics).
    depth: AtomicUsize,
    /// Whether a worker is looking for work without sleeping (at most one).
    spinning: AtomicBool,
    /// Heavy jobs that may run at once.
    heavy_limit: usize,
    /// Heavy jobs one connection may run at once.
    heavy_quota: usize,
    /// Whether the pool has a single worker.
    single: bool,
}

/// The queues under the lock.
struct State {
    /// Every registered connection's queues.
    queues: HashMap<u64, Queues>,
    /// Connections with light jobs waiting, in the order they are served.
    light_ring: VecDeque<u64>,
    /// Connections with heavy jobs waiting, in the order they are served.
    heavy_ring: VecDeque<u64>,
    /// Heavy jobs running now.
    heavy_running: usize,
    /// Set once the pool is dropped: workers exit when no job is left.
    closing: bool,
    /// Workers waiting on the condition variable.
    idle: usize,
    /// With a single worker: the light lane goes first next time.
    light_turn: bool,
}

/// A connection's measured CPU per heavy request, shared between its
/// handler (which reads it to cap its queued CPU) and the workers.
#[derive(Debug)]
pub struct HeavyCost {
    /// Mean nanoseconds per heavy request (exponentially weighted).
    mean_ns: AtomicU64,
}

impl HeavyCost {
    /// The mean CPU time per heavy request so far.
    pub fn mean(&self) -> Duration {
        Duration::from_nanos(self.mean_ns.load(Ordering::Relaxed))
    }

    /// Folds one measured request into the mean (weight 1/4).
    fn record(&self, took: Duration) {
        let took = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        let old = self.mean_ns.load(Ordering::Relaxed);
        let new = old - old / 4 + took / 4;
        self.mean_ns.store(new, Ordering::Relaxed);
    }
}

impl Default for HeavyCost {
    fn default() -> HeavyCost {
        HeavyCost {
            mean_ns: AtomicU64::new(FIRST_HEAVY_COST.as_nanos() as u64),
        }
    }
}

/// A connection's handle on the pool: submits its jobs, and cancels what is
/// left when dropped.
pub struct Client {
    /// The pool.
    shared: Arc<Shared>,
    /// The connection's key in the pool.
    key: u64,
    /// Its measured heavy cost.
    cost: Arc<HeavyCost>,
}

impl Client {
    /// Queues `job` in `lane` behind this connection's earlier jobs.
    pub fn submit(&self, lane: Class, job: Job) {
        let mut state = lock(&self.shared.state);
        let State {
            queues,
            light_ring,
            heavy_ring,
            ..
        } = &mut *state;
        let Some(queues) = queues.get_mut(&self.key) else {
            // Cancelled already: the job's ticket answers for it.
            return;
        };
        match lane {
            Class::Light => {
                queues.light.push_back(job);
                if !queues.in_light_ring {
                    queues.in_light_ring = true;
                    light_ring.push_back(self.key);
                }
            }
            Class::Heavy => {
                queues.heavy.push_back(job);
                if !queues.in_heavy_ring {
                    queues.in_heavy_ring = true;
                    heavy_ring.push_back(self.key);
                }
            }
        }
        self.shared.depth.fetch_add(1, Ordering::Relaxed);
        let looking = self.shared.spinning.load(Ordering::SeqCst);
        let wake = state.idle > 0 && !looking;
        drop(state);
        if wake {
            self.shared.ready.notify_one();
        }
    }

    /// This connection's heavy requests waiting or running, and its
    /// measured CPU per heavy request: their product is its queued CPU.
    pub fn heavy_backlog(&self) -> (usize, Duration) {
        let state = lock(&self.shared.state);
        let waiting = state
            .queues
            .get(&self.key)
            .map_or(0, |q| q.heavy.len() + q.heavy_running);
        (waiting, self.cost.mean())
    }

    /// Drops every queued job of this connection and tells its running jobs
    /// to give up.
    pub fn cancel(&self) {
        let removed = lock(&self.shared.state).queues.remove(&self.key);
        if let Some(queues) = removed {
            queues.cancel.store(true, Ordering::Relaxed);
            let dropped = queues.light.len() + queues.heavy.len();
            self.shared.depth.fetch_sub(dropped, Ordering::Relaxed);
            // The jobs' tickets are dropped here, outside the lock.
            drop(queues);
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// A fixed set of worker threads and the connections' queues; dropping it
/// lets the workers finish every queued job, then joins them.
pub struct Pool {
    /// The queues.
    shared: Arc<Shared>,
    /// The workers, joined on drop.
    threads: Vec<JoinHandle<()>>,
    /// The next connection key.
    next_key: AtomicU64,
}

impl Pool {
    /// Starts `threads` workers (at least one); a request still unanswered
    /// after `solve_timeout` is answered `Timeout`.
    pub fn new(threads: usize, solve_timeout: Option<Duration>) -> std::io::Result<Pool> {
        let threads = threads.max(1);
        let heavy_limit = (threads - 1).max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queues: HashMap::new(),
                light_ring: VecDeque::new(),
                heavy_ring: VecDeque::new(),
                heavy_running: 0,
                closing: false,
                idle: 0,
                light_turn: false,
            }),
            ready: Condvar::new(),
            depth: AtomicUsize::new(0),
            spinning: AtomicBool::new(false),
            heavy_limit,
            heavy_quota: (heavy_limit / 2).max(1),
            single: threads == 1,
        });
        let threads = (0..threads)
            .map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("sudokit-worker-{i}"))
                    .spawn(move || work(&shared, solve_timeout))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Pool {
            shared,
            threads,
            next_key: AtomicU64::new(0),
        })
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Heavy jobs one connection may run at once.
    pub fn heavy_quota(&self) -> usize {
        self.shared.heavy_quota
    }

    /// Jobs waiting in all queues now.
    pub fn depth(&self) -> usize {
        self.shared.depth.load(Ordering::Relaxed)
    }

    /// Registers a connection: its own queues, served in turn with the
    /// others'.
    pub fn client(&self) -> Client {
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        let cost = Arc::new(HeavyCost::default());
        lock(&self.shared.state).queues.insert(
            key,
            Queues {
                light: VecDeque::new(),
                heavy: VecDeque::new(),
                in_light_ring: false,
                in_heavy_ring: false,
                heavy_running: 0,
                cancel: Arc::new(AtomicBool::new(false)),
                cost: Arc::clone(&cost),
            },
        );
        Client {
            shared: Arc::clone(&self.shared),
            key,
            cost,
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        lock(&self.shared.state).closing = true;
        self.shared.ready.notify_all();
        for thread in self.threads.drain(..) {
            // A job that panicked has already been reported by the panic hook.
            let _ = thread.join();
        }
    }
}

/// Locks the queues; a poisoned lock (a panic while holding it, which the
/// code under the lock cannot do) still holds consistent queues.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A job taken by a worker, with what it needs to report back.
struct Taken {
    /// The job.
    job: Job,
    /// Its connection's key.
    key: u64,
    /// Its lane.
    lane: Class,
    /// Its connection's cancel flag.
    cancel: Arc<AtomicBool>,
    /// Its connection's measured heavy cost.
    cost: Arc<HeavyCost>,
}

impl State {
    /// The next job to run: a heavy one while fewer than `heavy_limit` run
    /// (from the next connection under its quota), else a light one, each
    /// from the connection at the front of its ring, which then goes to the
    /// back if it has more. A pool of one worker alternates the lanes while
    /// both have jobs.
    fn take(&mut self, heavy_limit: usize, heavy_quota: usize, single: bool) -> Option<Taken> {
        let taken = if single && self.light_turn {
            self.take_light()
                .or_else(|| self.take_heavy(heavy_limit, heavy_quota))
        } else {
            self.take_heavy(heavy_limit, heavy_quota)
                .or_else(|| self.take_light())
        };
        if let Some(taken) = &taken {
            self.light_turn = taken.lane == Class::Heavy;
        }
        taken
    }

    /// The next heavy job, if a heavy lane is free and a connection under
    /// its quota has one.
    fn take_heavy(&mut self, heavy_limit: usize, heavy_quota: usize) -> Option<Taken> {
        if self.heavy_running < heavy_limit {
            for _ in 0..self.heavy_ring.len() {
                let Some(key) = self.heavy_ring.pop_front() else {
                    break;
                };
                let Some(queues) = self.queues.get_mut(&key) else {
                    continue;
                };
                if queues.heavy_running >= heavy_quota {
                    self.heavy_ring.push_back(key);
                    continue;
                }
                let Some(job) = queues.heavy.pop_front() else {
                    queues.in_heavy_ring = false;
                    continue;
                };
                if queues.heavy.is_empty() {
                    queues.in_heavy_ring = false;
                } else {
                    self.heavy_ring.push_back(key);
                }
                queues.heavy_running += 1;
                self.heavy_running += 1;
                return Some(Taken {
                    job,
                    key,
                    lane: Class::Heavy,
                    cancel: Arc::clone(&queues.cancel),
                    cost: Arc::clone(&queues.cost),
                });
            }
        }
        None
    }

    /// The next light job, from the connection at the front of the ring.
    fn take_light(&mut self) -> Option<Taken> {
        while let Some(key) = self.light_ring.pop_front() {
            let Some(queues) = self.queues.get_mut(&key) else {
                continue;
            };
            let Some(job) = queues.light.pop_front() else {
                queues.in_light_ring = false;
                continue;
            };
            if queues.light.is_empty() {
                queues.in_light_ring = false;
            } else {
                self.light_ring.push_back(key);
            }
            return Some(Taken {
                job,
                key,
                lane: Class::Light,
                cancel: Arc::clone(&queues.cancel),
                cost: Arc::clone(&queues.cost),
            });
        }
        None
    }

    /// Whether any job waits at all (taken or not by the limits).
    fn has_jobs(&self) -> bool {
        !self.light_ring.is_empty() || !self.heavy_ring.is_empty()
    }
}

/// A worker's loop: take the next job by the rules of [`State::take`], run
/// it, until the pool closes and no job is left.
fn work(shared: &Shared, solve_timeout: Option<Duration>) {
    let mut workspace = Workspace::with_solve_timeout(solve_timeout);
    loop {
        let mut state = lock(&shared.state);
        let mut looked = false;
        let taken = loop {
            if let Some(taken) = state.take(shared.heavy_limit, shared.heavy_quota, shared.single) {
                break taken;
            }
            if state.closing && !state.has_jobs() {
                return;
            }
            if !looked && !shared.spinning.swap(true, Ordering::SeqCst) {
                looked = true;
                drop(state);
                look_for_work(shared);
                shared.spinning.store(false, Ordering::SeqCst);
                state = lock(&shared.state);
                continue;
            }
            state.idle += 1;
            state = shared
                .ready
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            state.idle -= 1;
        };
        shared.depth.fetch_sub(1, Ordering::Relaxed);
        drop(state);
        let Taken {
            job,
            key,
            lane,
            cancel,
            cost,
        } = taken;
        let started = Instant::now();
        // Job::run catches a solver's panic per request; this catches
        // anything else, so the worker survives: the job's ticket is dropped,
        // and its connection answers for it.
        let run = AssertUnwindSafe(|| job.run(&mut workspace, &cancel));
        if std::panic::catch_unwind(run).is_err() {
            workspace = workspace.fresh();
        }
        if lane == Class::Heavy {
            cost.record(started.elapsed());
            let mut state = lock(&shared.state);
            state.heavy_running -= 1;
            if let Some(queues) = state.queues.get_mut(&key) {
                queues.heavy_running -= 1;
            }
            let wake = state.idle > 0 && !state.heavy_ring.is_empty();
            drop(state);
            if wake {
                // A heavy lane is free again: a sleeping worker may take it.
                shared.ready.notify_one();
            }
        }
    }
}

/// Waits up to [`SPIN_TIME`] for a job to be queued, without sleeping.
fn look_for_work(shared: &Shared) {
    let start = Instant::now();
    while shared.depth.load(Ordering::Relaxed) == 0 && start.elapsed() < SPIN_TIME {
        std::thread::yield_now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    impl Deliver for mpsc::Sender<JobOutput> {
        fn deliver(self: Box<Self>, output: JobOutput) {
            let _ = self.send(output);
        }
    }

    /// Lines `id:body` (or `body`) packed as one job's requests; bad lines
    /// are left out.
    fn requests(lines: &[&str]) -> Requests {
        let mut requests = Requests::default();
        let mut parser = Parser::default();
        for line in lines {
            let (id, body) = crate::protocol::split_id(line.as_bytes());
            let _ = requests.add(id, body, &mut parser);
        }
        requests
    }

    #[test]
    fn packed_requests_keep_their_ids_and_work() {
        let mut packed = requests(&[
            "a:123456780",
            "1...............",
            "bad:12",
            "c:1 2 3 4 5 6 7 x 8",
        ]);
        assert_eq!(packed.len(), 3);
        let (id, work) = packed.get(1);
        assert_eq!(id, None);
        let WorkRef::Sudoku { shape, givens } = work else {
            panic!("a 4x4 Sudoku");
        };
        assert_eq!(shape.cell_count(), 16);
        assert_eq!(givens[0], 1);
        assert!(givens[1..].iter().all(|&g| g == 0));
        let last = packed.split_last();
        assert_eq!((packed.len(), last.len()), (2, 1));
        assert_eq!(last.get(0).0, Some(&b"c"[..]));
        assert_eq!(packed.get(0).0, Some(&b"a"[..]));
        assert!(matches!(packed.get(0).1, WorkRef::Slide(_)));
    }

    #[test]
    fn answers_every_request_of_a_job_in_order() {
        let pool = Pool::new(2, None).unwrap();
        let client = pool.client();
        let (reply, rx) = mpsc::channel();
        let job = Job {
            requests: requests(&["a:123456780", "1...............", "c:1 2 3 4 5 6 7 x 8"]),
            reply: Box::new(reply),
        };
        client.submit(Class::Light, job);
        let out = rx.recv().unwrap();
        assert_eq!(
            String::from_utf8(out.bytes).unwrap(),
            "a:\r\n1234341221434321\r\nc:r\r\n"
        );
        assert_eq!((out.bad, out.timed_out), (0, 0));
        assert_eq!(pool.depth(), 0);
    }

    #[test]
    fn a_cancelled_client_drops_its_queued_jobs() {
        let pool = Pool::new(1, None).unwrap();
        let client = pool.client();
        client.cancel();
        let (reply, rx) = mpsc::channel();
        let job = Job {
            requests: requests(&["123456780"]),
            reply: Box::new(reply),
        };
        client.submit(Class::Light, job);
        // The job was dropped, and with it the only sender.
        assert!(rx.recv().is_err());
        assert_eq!(pool.depth(), 0);
    }
}
