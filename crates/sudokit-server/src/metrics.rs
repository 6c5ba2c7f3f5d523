//! Counters of the service and their Prometheus text rendering, served over
//! HTTP at `/metrics` (as muduo's `server_hybrid` serves `/sudoku/stats`).
//!
//! Everything is a relaxed atomic: connections bump counters without locks,
//! and a scrape reads a snapshot that is consistent enough for monitoring.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::shutdown::Shutdown;

/// Upper bounds of the latency histogram's buckets, in seconds.
const LATENCY_BOUNDS: [f64; 16] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 10.0,
];

/// The service's counters.
#[derive(Default)]
pub struct Metrics {
    /// Request lines read.
    pub requests: AtomicU64,
    /// Replies written to a socket (every kind).
    pub responses: AtomicU64,
    /// Requests answered `Bad Request: …` (including over-long lines).
    pub bad_requests: AtomicU64,
    /// Requests answered `ServerTooBusy`.
    pub busy: AtomicU64,
    /// Requests answered `Timeout` (solving took longer than allowed).
    pub timeouts: AtomicU64,
    /// Connections accepted since start.
    pub connections_accepted: AtomicU64,
    /// Connections refused because `--max-connections` were open.
    pub connections_refused: AtomicU64,
    /// Connections open now.
    pub connections_open: AtomicU64,
    /// Connections closed by the idle timeout.
    pub idle_closed: AtomicU64,
    /// Connections closed because a request line did not complete within
    /// the request timeout (slowloris).
    pub slow_closed: AtomicU64,
    /// Idle connections closed to make room for a new one.
    pub evicted: AtomicU64,
    /// Connections refused by the per-peer-address limit.
    pub peer_refused: AtomicU64,
    /// Requests dropped or given up because their connection had gone.
    pub cancelled: AtomicU64,
    /// Requests read but never answered because a forced shutdown (grace
    /// expired, or a second signal) closed their connection.
    pub shutdown_dropped: AtomicU64,
    /// Jobs waiting for a worker (set by the server before a scrape).
    pub queue_depth: AtomicU64,
    /// Bytes held in connections' input buffers (partial lines).
    pub input_bytes: AtomicU64,
    /// Bytes held by requests waiting for or being solved by a worker.
    pub queued_bytes: AtomicU64,
    /// Bytes held by replies not yet written to their sockets.
    pub reply_bytes: AtomicU64,
    /// Latency histogram: one count per bucket of [`LATENCY_BOUNDS`], then +Inf.
    latency_buckets: [AtomicU64; LATENCY_BOUNDS.len() + 1],
    /// Sum of all recorded latencies, in nanoseconds.
    latency_sum_ns: AtomicU64,
}

impl Metrics {
    /// Fresh counters, shared between the listener and its connections.
    pub fn new() -> Arc<Metrics> {
        Arc::new(Metrics::default())
    }

    /// Adds one to `counter`.
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Bytes the server holds for its clients now: input buffers, queued
    /// requests and unwritten replies.
    pub fn buffered_bytes(&self) -> u64 {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        get(&self.input_bytes) + get(&self.queued_bytes) + get(&self.reply_bytes)
    }

    /// Records the time from reading a request to its reply being ready.
    pub fn record_latency(&self, latency: Duration) {
        let seconds = latency.as_secs_f64();
        let bucket = LATENCY_BOUNDS
            .iter()
            .position(|&bound| seconds <= bound)
            .unwrap_or(LATENCY_BOUNDS.len());
        self.latency_buckets[bucket].fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX);
        self.latency_sum_ns.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The counters in the Prometheus text exposition format (version 0.0.4).
    pub fn render(&self) -> String {
        let mut out = String::new();
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let counters = [
            ("requests_total", "Request lines read.", &self.requests),
            ("responses_total", "Replies written.", &self.responses),
            (
                "bad_requests_total",
                "Requests answered Bad Request.",
                &self.bad_requests,
            ),
            ("busy_total", "Requests answered ServerTooBusy.", &self.busy),
            (
                "timeouts_total",
                "Requests answered Timeout (solving took longer than --solve-timeout).",
                &self.timeouts,
            ),
            (
                "connections_accepted_total",
                "Connections accepted.",
                &self.connections_accepted,
            ),
            (
                "connections_refused_total",
                "Connections refused at --max-connections.",
                &self.connections_refused,
            ),
            (
                "idle_closed_total",
                "Connections closed by the idle timeout.",
                &self.idle_closed,
            ),
            (
                "slow_closed_total",
                "Connections closed for a request line not completed within --request-timeout.",
                &self.slow_closed,
            ),
            (
                "evicted_total",
                "Idle connections closed to make room for new ones.",
                &self.evicted,
            ),
            (
                "peer_refused_total",
                "Connections refused at --max-connections-per-peer.",
                &self.peer_refused,
            ),
            (
                "cancelled_total",
                "Requests dropped or given up because their client had gone.",
                &self.cancelled,
            ),
            (
                "shutdown_dropped_total",
                "Requests left unanswered by a forced shutdown.",
                &self.shutdown_dropped,
            ),
        ];
        for (name, help, counter) in counters {
            let _ = writeln!(out, "# HELP sudokit_{name} {help}");
            let _ = writeln!(out, "# TYPE sudokit_{name} counter");
            let _ = writeln!(out, "sudokit_{name} {}", get(counter));
        }
        let gauges = [
            (
                "connections_open",
                "Connections open now.",
                &self.connections_open,
            ),
            (
                "queue_depth",
                "Jobs waiting for a worker.",
                &self.queue_depth,
            ),
            (
                "input_bytes",
                "Bytes held in input buffers (partial request lines).",
                &self.input_bytes,
            ),
            (
                "queued_bytes",
                "Bytes held by requests waiting for or being solved by a worker.",
                &self.queued_bytes,
            ),
            (
                "reply_bytes",
                "Bytes held by replies not yet written.",
                &self.reply_bytes,
            ),
        ];
        for (name, help, gauge) in gauges {
            let _ = writeln!(out, "# HELP sudokit_{name} {help}");
            let _ = writeln!(out, "# TYPE sudokit_{name} gauge");
            let _ = writeln!(out, "sudokit_{name} {}", get(gauge));
        }
        let name = "sudokit_request_latency_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} From reading a request to its reply being ready."
        );
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, bucket) in LATENCY_BOUNDS.iter().zip(&self.latency_buckets) {
            cumulative += get(bucket);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        cumulative += get(&self.latency_buckets[LATENCY_BOUNDS.len()]);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
        let sum = get(&self.latency_sum_ns) as f64 / 1e9;
        let _ = writeln!(out, "{name}_sum {sum}");
        let _ = writeln!(out, "{name}_count {cumulative}");
        out
    }
}

/// Serves `GET /metrics` on `listener` until shutdown; `refresh` runs before
/// each scrape (the server uses it to sample the queue depth).
pub async fn serve(
    listener: TcpListener,
    metrics: Arc<Metrics>,
    refresh: Arc<dyn Fn(&Metrics) + Send + Sync>,
    mut shutdown: Shutdown,
) {
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    tracing::warn!(%error, "metrics accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = shutdown.wait() => return,
        };
        let metrics = Arc::clone(&metrics);
        let refresh = Arc::clone(&refresh);
        tokio::spawn(async move {
            let scrape = async {
                refresh(&metrics);
                answer_http(stream, &metrics).await
            };
            match tokio::time::timeout(Duration::from_secs(10), scrape).await {
                Ok(Err(error)) => tracing::debug!(%error, "metrics request failed"),
                Err(_) => tracing::debug!("metrics request timed out"),
                Ok(Ok(())) => {}
            }
        });
    }
}

/// The longest request head the endpoint reads.
const MAX_HEAD: usize = 8 * 1024;

/// Reads one HTTP request head and answers it: `GET` or `HEAD` of
/// `/metrics` (query ignored) gets the metrics (`HEAD`: the same headers, no
/// body); another path of a valid request 404; another method 405 with
/// `Allow: GET, HEAD`; a head over [`MAX_HEAD`] bytes 431; anything that is
/// not an HTTP/1.x request line (binary garbage, a bare word) 400, as soon
/// as its first line (or [`MAX_HEAD`] bytes without one) has arrived.
async fn answer_http(mut stream: TcpStream, metrics: &Metrics) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    let complete = |head: &[u8]| {
        head.windows(4).any(|w| w == b"\r\n\r\n") || head.windows(2).any(|w| w == b"\n\n")
    };
    let mut ended = false;
    while !complete(&head) && head.len() <= MAX_HEAD {
        if let Some(end) = head.iter().position(|&b| b == b'\n') {
            if request_line(&head[..end]).is_none() {
                break;
            }
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            ended = true;
            break;
        }
        head.extend_from_slice(&chunk[..n]);
    }
    let first = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let (status, extra, body, with_body) = match request_line(first) {
        _ if head.len() > MAX_HEAD && !complete(&head[..MAX_HEAD.min(head.len())]) => (
            "431 Request Header Fields Too Large",
            "",
            "request head too large\n".to_string(),
            true,
        ),
        None => ("400 Bad Request", "", "bad request\n".to_string(), true),
        Some(_) if ended && !complete(&head) => (
            "400 Bad Request",
            "",
            "incomplete request\n".to_string(),
            true,
        ),
        Some((method, path)) => {
            let path = path.split(|&b| b == b'?').next().unwrap_or_default();
            let head_only = method == b"HEAD";
            match (method, path) {
                (b"GET" | b"HEAD", b"/metrics") => ("200 OK", "", metrics.render(), !head_only),
                (b"GET" | b"HEAD", _) => (
                    "404 Not Found",
                    "",
                    "not found; try /metrics\n".to_string(),
                    !head_only,
                ),
                _ => (
                    "405 Method Not Allowed",
                    "Allow: GET, HEAD\r\n",
                    "method not allowed\n".to_string(),
                    true,
                ),
            }
        }
    };
    let mut response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    if with_body {
        response.push_str(&body);
    }
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}

/// The method and target of an HTTP/1.x request line (`METHOD SP target SP
/// HTTP/1.x`, a trailing `\r` allowed), or `None` if it is not one.
fn request_line(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut words = line.split(|&b| b == b' ');
    let (method, target, version) = (words.next()?, words.next()?, words.next()?);
    let is_token = |w: &[u8]| !w.is_empty() && w.iter().all(|b| b.is_ascii_uppercase());
    let is_target = |w: &[u8]| w.first() == Some(&b'/') && w.iter().all(|b| b.is_ascii_graphic());
    let is_version = |w: &[u8]| w.len() == 8 && w.starts_with(b"HTTP/1.");
    (words.next().is_none() && is_token(method) && is_target(target) && is_version(version))
        .then_some((method, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_a_cumulative_histogram() {
        let metrics = Metrics::new();
        Metrics::bump(&metrics.requests);
        metrics.record_latency(Duration::from_micros(30));
        metrics.record_latency(Duration::from_millis(3));
        metrics.record_latency(Duration::from_secs(60));
        let text = metrics.render();
        assert!(text.contains("sudokit_requests_total 1\n"));
        assert!(text.contains("sudokit_request_latency_seconds_bucket{le=\"0.00005\"} 1\n"));
        assert!(text.contains("sudokit_request_latency_seconds_bucket{le=\"0.005\"} 2\n"));
        assert!(text.contains("sudokit_request_latency_seconds_bucket{le=\"+Inf\"} 3\n"));
        assert!(text.contains("sudokit_request_latency_seconds_count 3\n"));
    }

    #[test]
    fn reads_only_http_request_lines() {
        assert_eq!(
            request_line(b"GET /metrics HTTP/1.1\r"),
            Some((&b"GET"[..], &b"/metrics"[..]))
        );
        assert_eq!(
            request_line(b"HEAD /x?y HTTP/1.0"),
            Some((&b"HEAD"[..], &b"/x?y"[..]))
        );
        for bad in [
            &b"GET /metrics"[..],
            b"\x00\xff\x13 / HTTP/1.1",
            b"get /metrics HTTP/1.1",
            b"GET metrics HTTP/1.1",
            b"GET /metrics HTTP/2.0",
            b"GET /metrics HTTP/1.1 extra",
        ] {
            assert_eq!(request_line(bad), None, "{bad:?}");
        }
    }
}
