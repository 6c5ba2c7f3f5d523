//! What the service's integration tests share: a 17-clue puzzle and its
//! solution, a server running in the background, and a client that sends
//! request lines and reads reply lines.
//! Each test crate uses a part of it.
#![allow(dead_code)]

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use std::time::Instant;

use sudokit_server::server::{Config, Server, ShutdownReport};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::timeout;

/// A 17-clue puzzle and its solution.
pub const PUZZLE: &str =
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
/// The solution of [`PUZZLE`].
pub const SOLUTION: &str =
    "693784512487512936125963874932651487568247391741398625319475268856129743274836159";

/// How long a client waits for a reply (or a connection) before the test
/// fails rather than hangs.
pub const REPLY_LIMIT: Duration = Duration::from_secs(30);

/// A server running in the background and the means to stop it.
pub struct Running {
    /// Where clients connect.
    pub addr: SocketAddr,
    /// The metrics endpoint, if configured.
    pub metrics: Option<SocketAddr>,
    /// Fires the graceful shutdown.
    pub stop: Option<oneshot::Sender<()>>,
    /// The server's task.
    pub task: JoinHandle<std::io::Result<ShutdownReport>>,
}

impl Running {
    /// Starts a server with `config` on an ephemeral loopback port.
    pub async fn start(config: Config) -> Running {
        let server = Server::bind(Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            ..config
        })
        .await
        .unwrap();
        let addr = server.local_addr().unwrap();
        let metrics = server.metrics_addr();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        Running {
            addr,
            metrics,
            stop: Some(stop),
            task,
        }
    }

    /// Starts the shutdown and returns its report.
    pub async fn shutdown(mut self) -> ShutdownReport {
        let _ = self.stop.take().unwrap().send(());
        timeout(REPLY_LIMIT, self.task)
            .await
            .expect("shutdown completes")
            .unwrap()
            .unwrap()
    }

    /// The metrics endpoint's address (the server must have one).
    pub fn metrics_addr(&self) -> SocketAddr {
        self.metrics.expect("a server with metrics")
    }

    /// One metric (`sudokit_<name>`) from the metrics endpoint.
    pub async fn metric(&self, name: &str) -> u64 {
        let mut http = TcpStream::connect(self.metrics_addr()).await.unwrap();
        http.write_all(b"GET /metrics HTTP/1.1\r\n\r\n")
            .await
            .unwrap();
        let mut text = String::new();
        timeout(REPLY_LIMIT, http.read_to_string(&mut text))
            .await
            .unwrap()
            .unwrap();
        let prefix = format!("sudokit_{name} ");
        text.lines()
            .find_map(|line| line.strip_prefix(&prefix))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {prefix}in\n{text}"))
    }

    /// Waits until `sudokit_<name>` satisfies `done`, for at most `limit`.
    pub async fn await_metric(
        &self,
        name: &str,
        limit: Duration,
        done: impl Fn(u64) -> bool,
    ) -> u64 {
        let deadline = Instant::now() + limit;
        loop {
            let value = self.metric(name).await;
            if done(value) || Instant::now() > deadline {
                return value;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A client connection that reads reply lines.
pub struct Client {
    pub reader: BufReader<tokio::net::tcp::OwnedReadHalf>,
    pub writer: tokio::net::tcp::OwnedWriteHalf,
}

impl Client {
    /// Connects from 127.0.0.1.
    pub async fn connect(addr: SocketAddr) -> Client {
        Client::connect_from(addr, [127, 0, 0, 1].into()).await
    }

    /// Connects from `source` (any 127.x.y.z is this machine).
    pub async fn connect_from(addr: SocketAddr, source: IpAddr) -> Client {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(source, 0)).unwrap();
        let stream = timeout(REPLY_LIMIT, socket.connect(addr))
            .await
            .unwrap()
            .unwrap();
        stream.set_nodelay(true).unwrap();
        let (read, writer) = stream.into_split();
        Client {
            reader: BufReader::new(read),
            writer,
        }
    }

    pub async fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
    }

    /// The next reply line with its `\r\n`, or `None` at end of stream.
    pub async fn line(&mut self) -> Option<String> {
        let mut line = Vec::new();
        let n = timeout(REPLY_LIMIT, self.reader.read_until(b'\n', &mut line))
            .await
            .expect("a reply within the time limit")
            .unwrap();
        (n > 0).then(|| String::from_utf8(line).unwrap())
    }

    /// Sends one request and returns its reply.
    pub async fn ask(&mut self, request: &str) -> String {
        self.send(format!("{request}\r\n").as_bytes()).await;
        self.line().await.expect("a reply")
    }
}
