//! The listener: accepts clients up to a limit, gives each a
//! [`connection::handle`] task, and shuts down gracefully.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::connection::{self, Context, Limits};
use crate::metrics::{self, Metrics};
use crate::pool::Pool;
use crate::shutdown::{Drain, Trigger};
use crate::slots::{RateLimited, Refusal, Slots};

/// How the service runs; [`Config::default`] is SPEC §5's defaults.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (`127.0.0.1:9981`, muduo's port).
    pub listen: SocketAddr,
    /// Worker threads for solving (one per core).
    pub workers: usize,
    /// Connections open at once; past it the idlest connection is closed to
    /// make room, or (none idle) the newcomer is answered `ServerTooBusy`.
    pub max_connections: usize,
    /// Connections open at once from one client address (same rule).
    pub max_connections_per_peer: usize,
    /// Requests per connection whose replies are not written yet before new
    /// ones are answered `ServerTooBusy`.
    pub pending_bound: usize,
    /// Bytes one connection may hold in queued requests and unwritten
    /// replies: `ServerTooBusy` past half of it, reading paused at it.
    pub connection_bytes: usize,
    /// Bytes the whole server may hold for its clients (input buffers,
    /// queued requests, unwritten replies), with the same two steps.
    pub server_bytes: usize,
    /// Heavy work (large grids, 15-puzzles) one connection may have waiting,
    /// in its measured CPU time per request; more is `ServerTooBusy`.
    pub queued_cpu: Duration,
    /// A connection that neither completes a request nor takes a reply this
    /// long (with nothing in flight) is closed.
    pub idle_timeout: Duration,
    /// A request line must arrive whole within this time of its first byte.
    pub request_timeout: Duration,
    /// A request still unanswered after this long is answered `Timeout`
    /// (`None`: no limit), so that no request holds a worker indefinitely.
    pub solve_timeout: Option<Duration>,
    /// How long a graceful shutdown may take before the connections still
    /// open are closed and what they had not answered is counted.
    pub shutdown_grace: Duration,
    /// Where to serve Prometheus metrics at `/metrics`, if anywhere.
    pub metrics: Option<SocketAddr>,
    /// Build the sliding-puzzle tables at start-up, on a thread of their own,
    /// rather than on the first request that needs them.
    pub warm_up: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 9981)),
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_connections: 10_000,
            max_connections_per_peer: 1_000,
            pending_bound: 10_000,
            connection_bytes: 4 << 20,
            server_bytes: 1 << 30,
            queued_cpu: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(300),
            request_timeout: Duration::from_secs(10),
            solve_timeout: Some(Duration::from_secs(10)),
            shutdown_grace: Duration::from_secs(30),
            warm_up: true,
            metrics: None,
        }
    }
}

/// How long a connection must have been idle to be closed for a newcomer.
const EVICT_AFTER_IDLE: Duration = Duration::from_secs(1);

/// How long a refused client gets to take its `ServerTooBusy`.
const REFUSAL_WRITE_TIME: Duration = Duration::from_secs(1);

/// After a forced shutdown, how long the connections get to close.
const FORCED_CLOSE_TIME: Duration = Duration::from_secs(5);

/// How a shutdown ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShutdownReport {
    /// The grace expired or a second signal came: connections still open
    /// were closed.
    pub forced: bool,
    /// Requests read but never answered (only in a forced shutdown).
    pub dropped: u64,
}

/// A bound server, not yet serving: binding first lets callers (and tests
/// listening on port 0) learn the addresses before [`Server::run`].
pub struct Server {
    /// Limits and addresses.
    config: Config,
    /// The service port.
    listener: TcpListener,
    /// The metrics port, if configured.
    metrics_listener: Option<TcpListener>,
}

impl Server {
    /// Binds the service port and, if configured, the metrics port. An
    /// error names the address (`cannot listen on 127.0.0.1:9981`) and
    /// keeps the operating system's error as its source and kind.
    pub async fn bind(config: Config) -> std::io::Result<Server> {
        let listener = listen(config.listen, "").await?;
        let metrics_listener = match config.metrics {
            Some(addr) => Some(listen(addr, " (metrics)").await?),
            None => None,
        };
        Ok(Server {
            config,
            listener,
            metrics_listener,
        })
    }

    /// The address clients connect to.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The address of the metrics endpoint, if there is one.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_listener
            .as_ref()
            .and_then(|l| l.local_addr().ok())
    }

    /// Serves until `stop` resolves, then shuts down gracefully within the
    /// configured grace (see [`Server::run_until`]).
    pub async fn run(self, stop: impl Future<Output = ()>) -> std::io::Result<ShutdownReport> {
        self.run_until(stop, std::future::pending()).await
    }

    /// Serves until `stop` resolves, then stops accepting, lets every
    /// connection answer what it has read, and returns once all have closed
    /// — or, when the shutdown grace expires or `again` resolves first (a
    /// second signal), closes every connection at once and reports what was
    /// left unanswered.
    pub async fn run_until(
        self,
        stop: impl Future<Output = ()>,
        again: impl Future<Output = ()>,
    ) -> std::io::Result<ShutdownReport> {
        let Server {
            config,
            listener,
            metrics_listener,
        } = self;
        if config.warm_up {
            warm_up_slide_tables();
        }
        let pool = Arc::new(Pool::new(config.workers, config.solve_timeout)?);
        let metrics = Metrics::new();
        let trigger = Trigger::new();
        let drain = Drain::new();
        if let Some(metrics_listener) = metrics_listener {
            let sampled = Arc::clone(&pool);
            let refresh = Arc::new(move |m: &Metrics| {
                m.queue_depth
                    .store(sampled.depth() as u64, Ordering::Relaxed);
            });
            tokio::spawn(metrics::serve(
                metrics_listener,
                Arc::clone(&metrics),
                refresh,
                trigger.subscribe(),
            ));
        }
        let ctx = Context {
            pool: Arc::clone(&pool),
            metrics: Arc::clone(&metrics),
            limits: Limits {
                pending_bound: config.pending_bound.max(1),
                connection_bytes: config.connection_bytes.max(1),
                server_bytes: config.server_bytes.max(1),
                queued_cpu: config.queued_cpu,
                idle_timeout: config.idle_timeout,
                request_timeout: config.request_timeout,
            },
        };
        let slots = Slots::new(
            config.max_connections,
            config.max_connections_per_peer,
            EVICT_AFTER_IDLE,
        );
        let refusals = Arc::new(RateLimited::new(
            "connections refused: too many open (per server or per address) and none idle",
            Duration::from_secs(1),
        ));
        let accept_errors = RateLimited::new("accept failed", Duration::from_secs(1));
        tracing::info!(
            addr = %listener.local_addr()?,
            workers = pool.threads(),
            max_connections = config.max_connections,
            max_connections_per_peer = config.max_connections_per_peer,
            "serving"
        );
        tokio::pin!(stop);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(pair) => pair,
                    Err(error) => {
                        // Out of file descriptors, mostly: wait and retry
                        // rather than spin or die.
                        accept_errors.note(&error);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut stop => break,
            };
            Metrics::bump(&metrics.connections_accepted);
            let slot = match slots.admit(peer.ip()) {
                Ok((slot, _evicted)) => slot,
                Err(refusal) => {
                    Metrics::bump(match refusal {
                        Refusal::Full => &metrics.connections_refused,
                        Refusal::PeerFull => &metrics.peer_refused,
                    });
                    refusals.note(&format_args!("{peer} ({refusal:?})"));
                    tokio::spawn(refuse(stream));
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            tracing::debug!(%peer, "connected");
            let (ctx, shutdown, guard) = (ctx.clone(), trigger.subscribe(), drain.guard());
            let metrics = Arc::clone(&metrics);
            tokio::spawn(async move {
                metrics.connections_open.fetch_add(1, Ordering::Relaxed);
                connection::handle(stream, ctx, shutdown, slot, guard).await;
                metrics.connections_open.fetch_sub(1, Ordering::Relaxed);
                tracing::debug!(%peer, "disconnected");
            });
        }
        tracing::info!(
            open = slots.open(),
            grace_seconds = config.shutdown_grace.as_secs_f64(),
            "shutting down: answering the requests already read"
        );
        drop(listener);
        trigger.fire();
        let drained = drain.wait();
        tokio::pin!(drained);
        let forced = tokio::select! {
            () = &mut drained => false,
            () = tokio::time::sleep(config.shutdown_grace) => {
                tracing::warn!("shutdown grace expired: closing the connections still open");
                true
            }
            () = again => {
                tracing::warn!("second signal: closing the connections still open");
                true
            }
        };
        if forced {
            trigger.force();
            if tokio::time::timeout(FORCED_CLOSE_TIME, &mut drained)
                .await
                .is_err()
            {
                tracing::error!("connections still open after a forced shutdown");
            }
        }
        drop(ctx);
        let dropped = metrics.shutdown_dropped.load(Ordering::Relaxed);
        if forced {
            tracing::warn!(
                unanswered = dropped,
                "stopped before every request was answered"
            );
            // Workers may still be finishing a job whose client is gone;
            // their solvers give up within milliseconds (cancelled), but a
            // process about to exit need not wait for them.
            std::mem::forget(pool);
        } else {
            tokio::task::spawn_blocking(move || drop(pool))
                .await
                .map_err(std::io::Error::other)?;
            tracing::info!("stopped");
        }
        Ok(ShutdownReport { forced, dropped })
    }
}

/// Tells a refused client `ServerTooBusy` and closes, without waiting on a
/// client that does not read.
async fn refuse(mut stream: tokio::net::TcpStream) {
    let answer = async {
        let _ = stream.write_all(b"ServerTooBusy\r\n").await;
        let _ = stream.shutdown().await;
    };
    let _ = tokio::time::timeout(REFUSAL_WRITE_TIME, answer).await;
}

/// Builds the sliding-puzzle tables on a background thread and logs when they
/// are ready; a 15-puzzle request that comes earlier waits for them.
fn warm_up_slide_tables() {
    let spawned = std::thread::Builder::new()
        .name("sudokit-warm-up".to_string())
        .spawn(|| {
            let start = std::time::Instant::now();
            let databases = sudokit::slide::warm_up(&|event| match event {
                sudokit::slide::DbEvent::Progress { .. } => tracing::debug!("{event}"),
                _ if event.is_warning() => tracing::warn!("{event}"),
                _ => tracing::info!("{event}"),
            });
            tracing::info!(
                databases = databases.name(),
                seconds = format!("{:.2}", start.elapsed().as_secs_f64()),
                "sliding-puzzle tables ready"
            );
        });
    if let Err(error) = spawned {
        tracing::warn!(%error, "cannot warm up the sliding-puzzle tables; first use will");
    }
}

/// Installs the SIGINT and (on Unix) SIGTERM handlers now, and returns a
/// receiver of the number of such signals received so far. Installing
/// before the server announces itself means a signal sent right after
/// start-up still shuts it down gracefully instead of killing it.
pub fn signal_count() -> std::io::Result<watch::Receiver<u32>> {
    let (count, received) = watch::channel(0u32);
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = interrupt.recv() => tracing::info!("SIGINT received"),
                    _ = terminate.recv() => tracing::info!("SIGTERM received"),
                }
                count.send_modify(|n| *n += 1);
            }
        });
    }
    #[cfg(not(unix))]
    {
        tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                tracing::info!("SIGINT received");
                count.send_modify(|n| *n += 1);
            }
        });
    }
    Ok(received)
}

/// Why an address could not be bound: the address (and what it was for)
/// in the message, the operating system's error as the source, so that a
/// chain printer (`{:#}` of anyhow) shows each once.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {addr}{role}")]
struct ListenError {
    /// The address asked for.
    addr: SocketAddr,
    /// What the port is for: empty for the service, ` (metrics)`.
    role: &'static str,
    /// The operating system's refusal.
    #[source]
    source: std::io::Error,
}

/// Binds `addr`, naming it (and `role`) in the error when that fails.
async fn listen(addr: SocketAddr, role: &'static str) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr)
        .await
        .map_err(|source| std::io::Error::new(source.kind(), ListenError { addr, role, source }))
}

/// Resolves once `signals` has counted `n` signals (never if the counter
/// is gone first).
async fn nth_signal(mut signals: watch::Receiver<u32>, n: u32) {
    if signals.wait_for(|&count| count >= n).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Runs the service on its own tokio runtime of `io_threads` threads until
/// SIGINT or SIGTERM, then shuts down gracefully within the configured
/// grace (a second signal ends it at once): what `sudokit serve` does.
pub fn serve_until_signal(config: Config, io_threads: usize) -> std::io::Result<ShutdownReport> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(io_threads.max(1))
        .thread_name("sudokit-io")
        .enable_all()
        .build()?;
    let report = runtime.block_on(async {
        let signals = signal_count()?;
        let server = Server::bind(config).await?;
        if let Some(addr) = server.metrics_addr() {
            tracing::info!(%addr, "metrics at http://{addr}/metrics");
        }
        let (first, second) = (signals.clone(), signals);
        server
            .run_until(nth_signal(first, 1), nth_signal(second, 2))
            .await
    })?;
    if report.forced {
        // Workers of a forced shutdown are not joined.
        runtime.shutdown_background();
    }
    Ok(report)
}
