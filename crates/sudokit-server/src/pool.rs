//! The worker pool: dedicated threads that do every puzzle's CPU work, fed by
//! one bounded queue.
//!
//! Solving never runs on the I/O threads, so a hard puzzle does not stall the
//! reading and writing of other connections. Each worker owns a
//! [`Workspace`] (one solver per shape, reused for every puzzle). The queue is
//! bounded by the number of *requests* it holds: a job that would pass the
//! bound is refused, and the caller answers `ServerTooBusy` (muduo's
//! `server_prod` refuses at a queue size of a million).

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a worker that ran out of jobs keeps looking for the next one
/// before it sleeps. Waking a sleeping thread costs tens of microseconds on a
/// virtual machine, more than a 9×9 puzzle takes; one worker at a time looks,
/// yielding its core to any other thread that wants it.
const SPIN_TIME: Duration = Duration::from_micros(100);

use crate::protocol::{split_id, write_reply, ReplyKind, Workspace};

/// A job's result: the replies to its lines, concatenated in order, and how
/// many were of the kinds the counters track.
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
/// receiver dropped without [`Deliver::deliver`] (a worker failed) must still
/// see its requests answered: that is the implementor's duty.
pub trait Deliver: Send {
    /// Takes the replies to every line of the job, in order.
    fn deliver(self: Box<Self>, output: JobOutput);
}

/// A unit of work: request lines from one connection, each followed by `\n`,
/// and where to send their replies.
pub struct Job {
    /// The request lines, each ending in `\n` (no `\r`).
    pub lines: Vec<u8>,
    /// The number of lines.
    pub requests: usize,
    /// Receives the replies; dropped without them if solving panicked.
    pub reply: Box<dyn Deliver>,
}

impl Job {
    /// Answers every line with `workspace`. A line whose solving panics (a
    /// bug, never expected) is answered `[id:]Bad Request: internal error`
    /// with a fresh workspace, and the other lines are answered as usual.
    fn run(self, workspace: &mut Workspace) {
        let mut out = JobOutput {
            bytes: Vec::with_capacity(self.requests * 96),
            ..JobOutput::default()
        };
        for line in self.lines.split_inclusive(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\n").unwrap_or(line);
            let mark = out.bytes.len();
            let answer = AssertUnwindSafe(|| workspace.respond(line, &mut out.bytes));
            match std::panic::catch_unwind(answer) {
                Ok(ReplyKind::Answered) => {}
                Ok(ReplyKind::Bad) => out.bad += 1,
                Ok(ReplyKind::GaveUp) => out.timed_out += 1,
                Err(_) => {
                    out.bytes.truncate(mark);
                    *workspace = workspace.fresh();
                    let id = split_id(line).0;
                    write_reply(id, b"Bad Request: internal error", &mut out.bytes);
                    out.bad += 1;
                }
            }
        }
        self.reply.deliver(out);
    }
}

/// What the workers and the submitters share.
struct Shared {
    /// Jobs in submission order, and whether the pool is closing.
    state: Mutex<State>,
    /// Signalled when a job arrives or the pool closes.
    ready: Condvar,
    /// Requests waiting in the queue (read without the lock, for metrics).
    depth: AtomicUsize,
    /// The most requests the queue may hold.
    bound: usize,
    /// Whether a worker is looking for work without sleeping (at most one).
    spinning: AtomicBool,
}

/// The queue under the lock.
struct State {
    /// Jobs not yet taken by a worker.
    jobs: VecDeque<Job>,
    /// Set once the pool is dropped: workers exit when `jobs` is empty.
    closing: bool,
    /// Workers waiting on the condition variable: a submitter wakes one only
    /// when there is one (saving a system call per job while all are busy).
    idle: usize,
}

/// The job was refused (and is handed back): the queue holds too many
/// requests already.
pub struct QueueFull(pub Job);

/// A fixed set of worker threads and their bounded queue; dropping it lets the
/// workers finish every queued job, then joins them.
pub struct Pool {
    /// The queue and its bound.
    shared: Arc<Shared>,
    /// The workers, joined on drop.
    threads: Vec<JoinHandle<()>>,
}

impl Pool {
    /// Starts `threads` workers (at least one) whose queue holds at most
    /// `bound` requests; a Sudoku still unsolved after `solve_timeout` is
    /// answered `Timeout`.
    pub fn new(
        threads: usize,
        bound: usize,
        solve_timeout: Option<Duration>,
    ) -> std::io::Result<Pool> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                jobs: VecDeque::new(),
                closing: false,
                idle: 0,
            }),
            ready: Condvar::new(),
            depth: AtomicUsize::new(0),
            bound,
            spinning: AtomicBool::new(false),
        });
        let threads = (0..threads.max(1))
            .map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("sudokit-worker-{i}"))
                    .spawn(move || work(&shared, solve_timeout))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Pool { shared, threads })
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Requests waiting in the queue now.
    pub fn depth(&self) -> usize {
        self.shared.depth.load(Ordering::Relaxed)
    }

    /// Queues `job` unless the queue would then hold more requests than its
    /// bound.
    pub fn submit(&self, job: Job) -> Result<(), QueueFull> {
        let mut state = lock(&self.shared.state);
        let depth = self.shared.depth.load(Ordering::Relaxed);
        if depth + job.requests > self.shared.bound {
            return Err(QueueFull(job));
        }
        self.shared
            .depth
            .store(depth + job.requests, Ordering::Relaxed);
        state.jobs.push_back(job);
        // A looking worker takes the first job of an empty queue; any other
        // job needs a sleeping worker woken.
        let looking = state.jobs.len() == 1 && self.shared.spinning.load(Ordering::SeqCst);
        let wake = state.idle > 0 && !looking;
        drop(state);
        if wake {
            self.shared.ready.notify_one();
        }
        Ok(())
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

/// Locks the queue; a poisoned lock (a panic while holding it, which the code
/// under the lock cannot do) still holds a consistent queue.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A worker's loop: take the oldest job, run it, until the pool closes and the
/// queue is empty.
fn work(shared: &Shared, solve_timeout: Option<Duration>) {
    let mut workspace = Workspace::with_solve_timeout(solve_timeout);
    loop {
        let mut state = lock(&shared.state);
        let mut looked = false;
        let job = loop {
            if let Some(job) = state.jobs.pop_front() {
                break job;
            }
            if state.closing {
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
        shared.depth.fetch_sub(job.requests, Ordering::Relaxed);
        drop(state);
        // Job::run catches a solver's panic per line; this catches anything
        // else, so the worker survives: the job's reply channel is dropped,
        // and its connection answers for it.
        let run = AssertUnwindSafe(|| job.run(&mut workspace));
        if std::panic::catch_unwind(run).is_err() {
            workspace = workspace.fresh();
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

    fn job(lines: &str) -> (Job, mpsc::Receiver<JobOutput>) {
        let (reply, rx) = mpsc::channel();
        let job = Job {
            lines: lines.as_bytes().to_vec(),
            requests: lines.matches('\n').count(),
            reply: Box::new(reply),
        };
        (job, rx)
    }

    #[test]
    fn answers_every_line_of_a_job_in_order() {
        let pool = Pool::new(2, 10, None).unwrap();
        let (first, rx) = job("a:123456780\nb:1 2 3\nc:1 2 3 4 5 6 7 x 8\n");
        assert!(pool.submit(first).is_ok());
        let out = rx.recv().unwrap();
        assert_eq!(
            String::from_utf8(out.bytes).unwrap(),
            "a:\r\nb:Bad Request: 3 tiles, expected 9 (8-puzzle) or 16 (15-puzzle)\r\nc:r\r\n"
        );
        assert_eq!((out.bad, out.timed_out), (1, 0));
    }

    #[test]
    fn refuses_jobs_past_the_bound_and_hands_them_back() {
        let pool = Pool::new(1, 2, None).unwrap();
        let (big, _rx) = job("1\n2\n3\n");
        let Err(QueueFull(back)) = pool.submit(big) else {
            panic!("three requests cannot fit a queue of two");
        };
        assert_eq!(back.requests, 3);
        let (small, rx) = job("123456780\n");
        assert!(pool.submit(small).is_ok());
        assert_eq!(rx.recv().unwrap().bytes, b"\r\n");
        assert_eq!(pool.depth(), 0);
    }
}
