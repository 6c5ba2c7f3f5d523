//! The load client against a real server on 127.0.0.1 (port 0).

use std::time::Duration;

use sudokit_server::load::{self, LoadConfig, Stop, Workload};
use sudokit_server::server::{Config, Server};
use tokio::sync::oneshot;

/// A mixed workload: Sudoku of two sizes, one without a solution, 8- and
/// 15-puzzles (one unsolvable), comments, ids and trailing fields.
const WORKLOAD: &str = "\
# a comment
000000010400000000020000000000050407008000300001090000300400200050100000000806000
hard:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... rated 9
110000010400000000020000000000050407008000300001090000300400200050100000000806000
1...............
2 3 4 1 5 x 7 6 8
213456780
1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15
";

/// Runs `config` against a fresh server and returns the report.
async fn drive(
    config: impl FnOnce(std::net::SocketAddr) -> LoadConfig,
    server: Config,
) -> load::Report {
    let (addr, stop, task) = start_server(Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        ..server
    })
    .await;
    let workload = Workload::parse(WORKLOAD.as_bytes()).unwrap();
    assert_eq!(workload.len(), 7);
    let report = tokio::time::timeout(Duration::from_secs(20), load::run(config(addr), workload))
        .await
        .unwrap()
        .unwrap();
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
    report
}

fn closed(addr: std::net::SocketAddr) -> LoadConfig {
    LoadConfig {
        addr,
        connections: 4,
        pipeline: 8,
        rate: None,
        stop: Stop::Requests(700),
        reconnect: None,
        drain_timeout: Duration::from_secs(5),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_loop_checks_every_answer() {
    let report = drive(closed, Config::default()).await;
    assert_eq!(report.sent, 700);
    assert_eq!(report.ok, 700, "{report}");
    assert!(report.passed());
    assert_eq!(report.latency.len(), 700);
    assert!(report.latency.min() > 0);
    let text = report.to_string();
    assert!(text.contains("requests/s"));
    assert!(text.contains("p99.9"));
    assert!(
        text.contains("700 ok, 0 wrong, 0 busy, 0 timeout, 0 errors"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_loop_sends_at_the_rate() {
    let report = drive(
        |addr| LoadConfig {
            rate: Some(1000.0),
            stop: Stop::Duration(Duration::from_millis(500)),
            ..closed(addr)
        },
        Config::default(),
    )
    .await;
    assert!((400..=600).contains(&report.sent), "sent {}", report.sent);
    assert_eq!(report.ok, report.sent);
    assert!(report.passed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_busy_replies_apart_from_wrong_ones() {
    let report = drive(
        |addr| LoadConfig {
            connections: 1,
            pipeline: 64,
            ..closed(addr)
        },
        Config {
            pending_bound: 2,
            ..Config::default()
        },
    )
    .await;
    assert!(report.busy > 0, "{report}");
    assert_eq!(report.ok + report.busy, 700);
    assert!(report.passed());
}

#[test]
fn wrong_answers_fail_the_run() {
    // A server that answers every request with the same wrong grid.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
            let (stream, _) = listener.accept().await.unwrap();
            let (read, mut write) = stream.into_split();
            let mut lines = BufReader::new(read).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let id = line.split(':').next().unwrap().to_string();
                let reply = format!("{id}:{}\r\n", "1".repeat(81));
                if write.write_all(reply.as_bytes()).await.is_err() {
                    break;
                }
            }
        });
        let workload = Workload::parse(WORKLOAD.as_bytes()).unwrap();
        let config = LoadConfig {
            connections: 1,
            stop: Stop::Requests(7),
            ..closed(addr)
        };
        let report = load::run(config, workload).await.unwrap();
        assert_eq!(report.wrong, 7);
        assert!(!report.passed());
        assert!(!report.samples.is_empty());
    });
}

#[test]
fn rejects_workloads_the_server_cannot_answer() {
    let error = Workload::parse(b"# fine\n12345\n").err().unwrap();
    assert_eq!(error.line, 2);
}

/// Starts a server of `config` with 2 workers; its address and the
/// channel and task that stop it.
async fn start_server(
    config: Config,
) -> (
    std::net::SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<sudokit_server::server::ShutdownReport>>,
) {
    let server = Server::bind(Config {
        workers: 2,
        ..config
    })
    .await
    .unwrap();
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async move {
        let _ = stopped.await;
    }));
    (addr, stop, task)
}

/// A server's configuration listening on `addr` (port 0 for any).
fn on(addr: std::net::SocketAddr) -> Config {
    Config {
        listen: addr,
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_loses_no_request_when_the_client_reconnects() {
    let (addr, stop, task) = start_server(on("127.0.0.1:0".parse().unwrap())).await;
    let workload = Workload::parse(WORKLOAD.as_bytes()).unwrap();
    let config = LoadConfig {
        stop: Stop::Duration(Duration::from_secs(3)),
        reconnect: Some(Duration::from_secs(10)),
        ..closed(addr)
    };
    let load = tokio::spawn(load::run(config, workload));
    // Twice while the load runs: a graceful shutdown (what SIGTERM does),
    // then a new server on the same port.
    let (mut stop, mut task) = (stop, task);
    for _ in 0..2 {
        tokio::time::sleep(Duration::from_millis(700)).await;
        stop.send(()).unwrap();
        task.await.unwrap().unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        (_, stop, task) = start_server(on(addr)).await;
    }
    let report = tokio::time::timeout(Duration::from_secs(30), load)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
    assert!(report.passed(), "{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert!(
        report.reconnects >= 4 * 2,
        "every connection, twice: {report}"
    );
    assert_eq!(
        report.ok, report.sent,
        "every request answered right once: {report}"
    );
}

#[tokio::test]
async fn without_reconnect_a_lost_connection_counts_its_requests_as_errors() {
    let (addr, stop, task) = start_server(on("127.0.0.1:0".parse().unwrap())).await;
    let workload = Workload::parse(WORKLOAD.as_bytes()).unwrap();
    let config = LoadConfig {
        stop: Stop::Duration(Duration::from_secs(2)),
        ..closed(addr)
    };
    let load = tokio::spawn(load::run(config, workload));
    tokio::time::sleep(Duration::from_millis(500)).await;
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
    let report = load.await.unwrap().unwrap();
    assert!(!report.passed(), "{report}");
    assert_eq!(report.reconnects, 0);
    // The open loop refuses to reconnect: its schedule cannot survive it.
    let refused = load::run(
        LoadConfig {
            rate: Some(100.0),
            reconnect: Some(Duration::from_secs(1)),
            ..closed(addr)
        },
        Workload::parse(WORKLOAD.as_bytes()).unwrap(),
    )
    .await;
    assert!(refused.is_err());
}
