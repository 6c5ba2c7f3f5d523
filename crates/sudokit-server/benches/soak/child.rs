//! The server under test: the real binary as a child process, its memory
//! and descriptors sampled from `/proc`, its `/metrics` scraped, and its
//! shutdown on SIGTERM timed.

use std::net::{SocketAddr, TcpListener};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How often memory is sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// Open descriptors are counted every this many memory samples (a
/// directory of thousands of entries is read each time).
const FDS_EVERY: u32 = 10;

/// The running server.
pub struct Server {
    /// The process.
    child: Mutex<std::process::Child>,
    /// Its process id.
    pid: u32,
    /// The service address.
    pub addr: SocketAddr,
    /// The metrics address.
    pub metrics: SocketAddr,
    /// When it was started.
    started: Instant,
    /// Where its standard output and error go.
    pub log: PathBuf,
}

/// How the server ended after SIGTERM.
pub struct Shutdown {
    /// Whether it was still running when SIGTERM was due.
    pub was_running: bool,
    /// Its exit status, as text (`exit 0`, `signal 9`, …).
    pub status: String,
    /// Seconds from SIGTERM to exit (including a SIGKILL, if one was needed).
    pub seconds: f64,
    /// Whether it had to be killed with SIGKILL.
    pub killed: bool,
}

/// Two free loopback ports, found by binding port 0 and letting go.
fn free_addrs() -> std::io::Result<(SocketAddr, SocketAddr)> {
    let a = TcpListener::bind("127.0.0.1:0")?;
    let b = TcpListener::bind("127.0.0.1:0")?;
    Ok((a.local_addr()?, b.local_addr()?))
}

/// `status` as text.
fn status_text(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        (None, None) => format!("{status}"),
    }
}

impl Server {
    /// Starts `bin serve --listen A --metrics B EXTRA…`, its output going
    /// to `log`.
    pub fn spawn(bin: &Path, extra: &[String], log: &Path) -> Result<Server, String> {
        let (addr, metrics) = free_addrs().map_err(|e| format!("no free port: {e}"))?;
        if let Some(dir) = log.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let out = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out
            .try_clone()
            .map_err(|e| format!("{}: {e}", log.display()))?;
        let child = Command::new(bin)
            .arg("serve")
            .arg("--listen")
            .arg(addr.to_string())
            .arg("--metrics")
            .arg(metrics.to_string())
            .args(extra)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        Ok(Server {
            pid: child.id(),
            child: Mutex::new(child),
            addr,
            metrics,
            started: Instant::now(),
            log: log.to_path_buf(),
        })
    }

    /// Waits until `/metrics` answers (both ports are bound before the
    /// server serves), at most `limit`.
    pub async fn ready(&self, limit: Duration) -> Result<(), String> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.exited() {
                return Err(format!("the server exited at start: {status}"));
            }
            if self.scrape().await.is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("no answer at {} in {limit:?}", self.metrics));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Its exit status as text, if it has exited.
    pub fn exited(&self) -> Option<String> {
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        child.try_wait().ok().flatten().map(status_text)
    }

    /// Seconds since it was started.
    pub fn uptime(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// `VmHWM` and `VmRSS` from `/proc/PID/status`, in KiB (absent once
    /// the process has exited).
    pub fn memory(&self) -> Option<(u64, u64)> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid)).ok()?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        };
        Some((field("VmHWM:")?, field("VmRSS:")?))
    }

    /// Its soft limit on open descriptors, from `/proc/PID/limits`.
    pub fn nofile(&self) -> Option<u64> {
        let limits = std::fs::read_to_string(format!("/proc/{}/limits", self.pid)).ok()?;
        let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
        line.split_whitespace().nth(3)?.parse().ok()
    }

    /// CPU seconds it has used (user + system), from `/proc/PID/stat`.
    pub fn cpu_seconds(&self) -> Option<f64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).ok()?;
        // Fields after the parenthesised command name, which may hold spaces.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let ticks: u64 =
            fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        Some(ticks as f64 / per_second.max(1) as f64)
    }

    /// The number of descriptors it has open.
    pub fn open_fds(&self) -> Option<u64> {
        let entries = std::fs::read_dir(format!("/proc/{}/fd", self.pid)).ok()?;
        Some(entries.count() as u64)
    }

    /// `GET /metrics`: the response body.
    pub async fn scrape(&self) -> Result<String, String> {
        let exchange = async {
            let mut stream = TcpStream::connect(self.metrics).await?;
            stream
                .write_all(b"GET /metrics HTTP/1.0\r\nHost: soak\r\n\r\n")
                .await?;
            let mut response = Vec::new();
            stream.read_to_end(&mut response).await?;
            Ok::<_, std::io::Error>(response)
        };
        let response = tokio::time::timeout(Duration::from_secs(10), exchange)
            .await
            .map_err(|_| "no answer in 10 s".to_string())?
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&response);
        match text.split_once("\r\n\r\n") {
            Some((head, body)) if head.starts_with("HTTP/1.") && head.contains(" 200") => {
                Ok(body.to_string())
            }
            _ => Err(format!("unexpected response: {:.80}", text)),
        }
    }

    /// Sends SIGTERM, waits up to `limit` for the exit, then SIGKILL.
    pub async fn terminate(&self, limit: Duration) -> Shutdown {
        if let Some(status) = self.exited() {
            return Shutdown {
                was_running: false,
                status,
                seconds: 0.0,
                killed: false,
            };
        }
        let start = Instant::now();
        // SAFETY: kill(2) with a process id this process spawned and has not
        // yet reaped (so the id cannot have been reused).
        unsafe {
            libc::kill(self.pid as libc::pid_t, libc::SIGTERM);
        }
        while start.elapsed() < limit {
            if let Some(status) = self.exited() {
                return Shutdown {
                    was_running: true,
                    status,
                    seconds: start.elapsed().as_secs_f64(),
                    killed: false,
                };
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        let _ = child.kill();
        let status = child
            .wait()
            .map_or_else(|e| format!("unknown: {e}"), status_text);
        Shutdown {
            was_running: true,
            status,
            seconds: start.elapsed().as_secs_f64(),
            killed: true,
        }
    }
}

/// Peaks of the server's memory and descriptors, sampled in the
/// background, and when it died if it did.
#[derive(Default)]
pub struct Samples {
    /// The largest `VmHWM` seen, KiB.
    pub peak_hwm_kib: AtomicU64,
    /// The largest `VmRSS` seen, KiB.
    pub peak_rss_kib: AtomicU64,
    /// The most descriptors seen open.
    pub peak_fds: AtomicU64,
    /// CPU time used, in milliseconds, at the last sample.
    pub cpu_ms: AtomicU64,
    /// Seconds after start and exit status, if the server exited while
    /// sampled.
    pub died: Mutex<Option<(f64, String)>>,
    /// Set to stop sampling.
    stop: AtomicBool,
}

impl Samples {
    /// Samples `server` every [`SAMPLE_EVERY`] until [`Samples::stop`] or
    /// its exit.
    pub fn start(server: Arc<Server>) -> (Arc<Samples>, tokio::task::JoinHandle<()>) {
        let samples = Arc::new(Samples::default());
        let sampling = Arc::clone(&samples);
        let task = tokio::spawn(async move {
            let mut ticks = 0u32;
            while !sampling.stop.load(Ordering::Relaxed) {
                sampling.take(&server, ticks.is_multiple_of(FDS_EVERY));
                if let Some(status) = server.exited() {
                    *sampling.died.lock().unwrap_or_else(|p| p.into_inner()) =
                        Some((server.uptime(), status));
                    return;
                }
                ticks = ticks.wrapping_add(1);
                tokio::time::sleep(SAMPLE_EVERY).await;
            }
        });
        (samples, task)
    }

    /// One sample of memory, and of descriptors with `fds`.
    pub fn take(&self, server: &Server, fds: bool) {
        if let Some((hwm, rss)) = server.memory() {
            self.peak_hwm_kib.fetch_max(hwm, Ordering::Relaxed);
            self.peak_rss_kib.fetch_max(rss, Ordering::Relaxed);
        }
        if fds {
            if let Some(open) = server.open_fds() {
                self.peak_fds.fetch_max(open, Ordering::Relaxed);
            }
        }
        if let Some(cpu) = server.cpu_seconds() {
            self.cpu_ms.store((cpu * 1e3) as u64, Ordering::Relaxed);
        }
    }

    /// Ends the sampling.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
