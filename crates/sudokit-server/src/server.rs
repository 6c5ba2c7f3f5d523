//! The listener: accepts clients up to a limit, gives each a
//! [`connection::handle`] task, and shuts down gracefully.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::connection::{self, Context};
use crate::metrics::{self, Metrics};
use crate::pool::Pool;
use crate::shutdown::{Drain, Trigger};

/// How the service runs; [`Config::default`] is SPEC §5's defaults.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (`127.0.0.1:9981`, muduo's port).
    pub listen: SocketAddr,
    /// Worker threads for solving (one per core).
    pub workers: usize,
    /// Connections open at once; more are answered `ServerTooBusy` and closed.
    pub max_connections: usize,
    /// Requests the worker queue may hold before new ones are answered
    /// `ServerTooBusy`.
    pub queue_bound: usize,
    /// Requests per connection whose replies are not written yet before new
    /// ones are answered `ServerTooBusy`.
    pub pending_bound: usize,
    /// A connection that does nothing this long is closed.
    pub idle_timeout: Duration,
    /// A Sudoku still unsolved after this long is answered `Timeout`
    /// (`None`: no limit), so that no request holds a worker indefinitely.
    pub solve_timeout: Option<Duration>,
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
            queue_bound: 100_000,
            pending_bound: 10_000,
            idle_timeout: Duration::from_secs(300),
            solve_timeout: Some(Duration::from_secs(10)),
            warm_up: true,
            metrics: None,
        }
    }
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
    /// Binds the service port and, if configured, the metrics port.
    pub async fn bind(config: Config) -> std::io::Result<Server> {
        let listener = TcpListener::bind(config.listen).await?;
        let metrics_listener = match config.metrics {
            Some(addr) => Some(TcpListener::bind(addr).await?),
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

    /// Serves until `stop` resolves, then stops accepting, lets every
    /// connection answer what it has read, and returns once all have closed.
    pub async fn run(self, stop: impl Future<Output = ()>) -> std::io::Result<()> {
        let Server {
            config,
            listener,
            metrics_listener,
        } = self;
        if config.warm_up {
            warm_up_slide_tables();
        }
        let pool = Arc::new(Pool::new(
            config.workers,
            config.queue_bound,
            config.solve_timeout,
        )?);
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
            pending_bound: config.pending_bound.max(1),
            idle_timeout: config.idle_timeout,
        };
        let limit = Arc::new(Semaphore::new(config.max_connections));
        tracing::info!(
            addr = %listener.local_addr()?,
            workers = pool.threads(),
            max_connections = config.max_connections,
            "serving"
        );
        tokio::pin!(stop);
        loop {
            let (mut stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(pair) => pair,
                    Err(error) => {
                        // Out of file descriptors, mostly: wait and retry
                        // rather than spin or die.
                        tracing::warn!(%error, "accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut stop => break,
            };
            Metrics::bump(&metrics.connections_accepted);
            let Ok(permit) = Arc::clone(&limit).try_acquire_owned() else {
                Metrics::bump(&metrics.connections_refused);
                tracing::warn!(%peer, "connection refused: too many connections");
                tokio::spawn(async move {
                    let _ = stream.write_all(b"ServerTooBusy\r\n").await;
                    let _ = stream.shutdown().await;
                });
                continue;
            };
            let _ = stream.set_nodelay(true);
            tracing::debug!(%peer, "connected");
            let (ctx, shutdown, guard) = (ctx.clone(), trigger.subscribe(), drain.guard());
            let metrics = Arc::clone(&metrics);
            tokio::spawn(async move {
                metrics.connections_open.fetch_add(1, Ordering::Relaxed);
                connection::handle(stream, ctx, shutdown, guard).await;
                metrics.connections_open.fetch_sub(1, Ordering::Relaxed);
                tracing::debug!(%peer, "disconnected");
                drop(permit);
            });
        }
        tracing::info!("shutting down: answering the requests already read");
        drop(listener);
        trigger.fire();
        drain.wait().await;
        drop(ctx);
        tokio::task::spawn_blocking(move || drop(pool))
            .await
            .map_err(std::io::Error::other)?;
        tracing::info!("stopped");
        Ok(())
    }
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
/// future that resolves when either signal arrives. Installing before the
/// server announces itself means a signal sent right after start-up still
/// shuts it down gracefully instead of killing it.
pub fn shutdown_signal() -> std::io::Result<impl Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => tracing::info!("SIGINT received"),
                _ = terminate.recv() => tracing::info!("SIGTERM received"),
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            match tokio::signal::ctrl_c().await {
                Ok(()) => tracing::info!("SIGINT received"),
                Err(error) => {
                    tracing::error!(%error, "cannot listen for SIGINT");
                    std::future::pending::<()>().await;
                }
            }
        })
    }
}

/// Runs the service on its own tokio runtime of `io_threads` threads until
/// SIGINT or SIGTERM, then shuts down gracefully: what `sudokit serve` does.
pub fn serve_until_signal(config: Config, io_threads: usize) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(io_threads.max(1))
        .thread_name("sudokit-io")
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let signal = shutdown_signal()?;
        let server = Server::bind(config).await?;
        if let Some(addr) = server.metrics_addr() {
            tracing::info!(%addr, "metrics at http://{addr}/metrics");
        }
        server.run(signal).await
    })
}
