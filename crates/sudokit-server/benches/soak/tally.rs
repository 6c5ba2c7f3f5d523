//! What the clients saw, counted: per hostile scenario (connections,
//! requests, replies by kind) and per probe (latencies and failures).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{json, Value};

use crate::net::Failure;

/// Set once the server's shutdown has begun: connections lost after that
/// are counted apart.
static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);

/// Marks the start of the server's shutdown for [`Scenario::lost`].
pub fn shutdown_begins() {
    SHUTTING_DOWN.store(true, Ordering::Relaxed);
}

/// What kind of reply a line is, from its text alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A normal answer: a solution, `NoSolution`, moves or `unsolvable`.
    Answer,
    /// `ServerTooBusy`.
    Busy,
    /// `Timeout`.
    Timeout,
    /// `Bad Request: …`.
    Bad,
    /// Anything else.
    Other,
}

impl Reply {
    /// Classifies a reply line (without its line ending); `ids` says whether
    /// the request carried an id, which the reply then starts with.
    pub fn of(line: &[u8], ids: bool) -> Reply {
        let answer = match line.iter().position(|&b| b == b':') {
            Some(colon) if ids => &line[colon + 1..],
            _ => line,
        };
        match answer {
            b"ServerTooBusy" => Reply::Busy,
            b"Timeout" => Reply::Timeout,
            b"NoSolution" | b"unsolvable" => Reply::Answer,
            _ if answer.starts_with(b"Bad Request") || line.starts_with(b"Bad Request") => {
                Reply::Bad
            }
            _ if line == b"ServerTooBusy" => Reply::Busy,
            _ if answer.iter().all(u8::is_ascii_alphanumeric) => Reply::Answer,
            _ => Reply::Other,
        }
    }
}

/// The counters of one hostile scenario, shared by its connections.
#[derive(Default)]
pub struct Scenario {
    /// Connections tried.
    pub tried: AtomicU64,
    /// Connections established.
    pub established: AtomicU64,
    /// Connection attempts refused or not completed in time.
    pub refused: AtomicU64,
    /// Connections the server reset (or that a write found gone).
    pub reset: AtomicU64,
    /// Connections the server closed in an orderly way while the client
    /// still used them.
    pub closed: AtomicU64,
    /// Connections that stopped sending because a write made no progress
    /// for [`crate::net::STALL`].
    pub stalled: AtomicU64,
    /// Connections closed or reset after the server's shutdown began.
    lost_in_shutdown: AtomicU64,
    /// Connections open now.
    open: AtomicU64,
    /// The most connections open at once.
    peak_open: AtomicU64,
    /// Request lines sent in full.
    requests: AtomicU64,
    /// Bytes written.
    bytes: AtomicU64,
    /// Replies, by [`Reply`] kind in declaration order.
    replies: [AtomicU64; 5],
}

impl Scenario {
    /// Counts a connection attempt and its outcome.
    pub fn connected<T>(&self, outcome: &Result<T, Failure>) {
        self.tried.fetch_add(1, Ordering::Relaxed);
        match outcome {
            Ok(_) => {
                self.established.fetch_add(1, Ordering::Relaxed);
                let open = self.open.fetch_add(1, Ordering::Relaxed) + 1;
                self.peak_open.fetch_max(open, Ordering::Relaxed);
            }
            Err(_) => {
                self.refused.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Counts an established connection's end.
    pub fn ended(&self) {
        self.open.fetch_sub(1, Ordering::Relaxed);
    }

    /// Counts how the server failed a connection, when the client sees it:
    /// apart once the server's shutdown has begun, where closing is its
    /// job.
    pub fn lost(&self, failure: Failure) {
        let counter = match failure {
            _ if SHUTTING_DOWN.load(Ordering::Relaxed) => &self.lost_in_shutdown,
            Failure::Reset => &self.reset,
            Failure::Closed => &self.closed,
            Failure::TimedOut => &self.stalled,
            Failure::Refused => &self.refused,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts `lines` request lines sent in full, and `bytes` written.
    pub fn sent(&self, lines: usize, bytes: usize) {
        self.requests.fetch_add(lines as u64, Ordering::Relaxed);
        self.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Counts one reply.
    pub fn reply(&self, kind: Reply) {
        self.replies[kind as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Replies counted, by kind.
    pub fn replies(&self, kind: Reply) -> u64 {
        self.replies[kind as usize].load(Ordering::Relaxed)
    }

    /// The counters as JSON.
    pub fn json(&self) -> Value {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        json!({
            "connections_tried": get(&self.tried),
            "connections_established": get(&self.established),
            "connections_peak_open": get(&self.peak_open),
            "connections_open_at_end": get(&self.open),
            "refused": get(&self.refused),
            "reset": get(&self.reset),
            "closed_by_server": get(&self.closed),
            "stalled": get(&self.stalled),
            "ended_in_shutdown": get(&self.lost_in_shutdown),
            "requests_sent": get(&self.requests),
            "bytes_sent": get(&self.bytes),
            "replies": {
                "answer": self.replies(Reply::Answer),
                "busy": self.replies(Reply::Busy),
                "timeout": self.replies(Reply::Timeout),
                "bad_request": self.replies(Reply::Bad),
                "other": self.replies(Reply::Other),
            },
        })
    }

    /// The most connections open at once.
    pub fn peak_open(&self) -> u64 {
        self.peak_open.load(Ordering::Relaxed)
    }
}

/// Why a probe request failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeFailure {
    /// The connection could not be made.
    Refused,
    /// The connection was reset or closed before the reply.
    Reset,
    /// No reply within the probe's limit.
    TimedOut,
    /// `ServerTooBusy`.
    Busy,
    /// A reply that is not a right solution (or any other kind of line).
    Wrong,
}

impl ProbeFailure {
    /// Every failure, in declaration order, with its name in the report.
    const ALL: [(ProbeFailure, &'static str); 5] = [
        (ProbeFailure::Refused, "refused"),
        (ProbeFailure::Reset, "reset"),
        (ProbeFailure::TimedOut, "timeout"),
        (ProbeFailure::Busy, "busy"),
        (ProbeFailure::Wrong, "wrong"),
    ];

    /// The probe failure a connection failure stands for.
    pub fn of(failure: Failure) -> ProbeFailure {
        match failure {
            Failure::Refused => ProbeFailure::Refused,
            Failure::Reset | Failure::Closed => ProbeFailure::Reset,
            Failure::TimedOut => ProbeFailure::TimedOut,
        }
    }
}

/// One probe's requests: latencies of the right answers, failures by kind.
#[derive(Default)]
pub struct Probe {
    /// Latencies of the requests answered right.
    answered: Mutex<Vec<Duration>>,
    /// Failures by [`ProbeFailure`] kind in declaration order.
    failures: [AtomicU64; 5],
}

/// Percentiles over every request of a probe, a failed request ranking
/// above any answered one (`None`: the percentile is a failure).
pub struct Summary {
    /// Requests made.
    pub sent: u64,
    /// Requests answered right.
    pub answered: u64,
    /// Requests failed.
    pub failed: u64,
    /// Median.
    pub p50: Option<Duration>,
    /// 99th percentile.
    pub p99: Option<Duration>,
    /// The slowest request.
    pub max: Option<Duration>,
    /// The slowest request answered right.
    pub max_answered: Option<Duration>,
}

impl Probe {
    /// Records a request answered right after `latency`.
    pub fn answered(&self, latency: Duration) {
        self.answered
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(latency);
    }

    /// Records a failed request.
    pub fn failed(&self, why: ProbeFailure) {
        self.failures[why as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// The percentiles, over answered and failed requests.
    pub fn summary(&self) -> Summary {
        let mut answered = self
            .answered
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        answered.sort_unstable();
        let failed: u64 = self
            .failures
            .iter()
            .map(|f| f.load(Ordering::Relaxed))
            .sum();
        let sent = answered.len() as u64 + failed;
        let rank = |q: f64| -> Option<Duration> {
            let index = ((q * sent as f64).ceil() as usize).max(1) - 1;
            answered.get(index).copied()
        };
        Summary {
            sent,
            answered: answered.len() as u64,
            failed,
            p50: rank(0.50),
            p99: rank(0.99),
            max: if failed > 0 {
                None
            } else {
                answered.last().copied()
            },
            max_answered: answered.last().copied(),
        }
    }

    /// The summary and the failures as JSON (latencies in milliseconds,
    /// `null` where the percentile is a failure).
    pub fn json(&self) -> Value {
        let s = self.summary();
        let ms = |d: Option<Duration>| d.map(|d| (d.as_secs_f64() * 1e5).round() / 100.0);
        let failures: serde_json::Map<String, Value> = ProbeFailure::ALL
            .iter()
            .map(|&(kind, name)| {
                let count = self.failures[kind as usize].load(Ordering::Relaxed);
                (name.to_string(), json!(count))
            })
            .collect();
        json!({
            "sent": s.sent,
            "answered": s.answered,
            "failed": s.failed,
            "failures": failures,
            "p50_ms": ms(s.p50),
            "p99_ms": ms(s.p99),
            "max_ms": ms(s.max),
            "max_answered_ms": ms(s.max_answered),
        })
    }

    /// The failures, as `name N` pairs for the report (only those seen).
    pub fn failure_text(&self) -> String {
        let parts: Vec<String> = ProbeFailure::ALL
            .iter()
            .filter_map(|&(kind, name)| {
                let count = self.failures[kind as usize].load(Ordering::Relaxed);
                (count > 0).then(|| format!("{name} {count}"))
            })
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    }
}
