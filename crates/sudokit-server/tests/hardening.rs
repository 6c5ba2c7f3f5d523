//! The service against hostile and unlucky clients, over real sockets on
//! 127.0.0.x: memory bounded in bytes, fair scheduling, cancellation,
//! connection slots, graceful and forced shutdown, the metrics endpoint.
//! Bounds are set small by configuration so that each test stays quick, and
//! every loop is bounded in count and time.

use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudokit_server::server::Config;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

mod common;
use common::{Client, Running, PUZZLE, SOLUTION};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::timeout;

/// Every wait gives up after this long rather than hang.
const LIMIT: Duration = Duration::from_secs(30);

/// Starts a server with `config` on ephemeral loopback ports, with
/// metrics, without warm-up.
async fn start(config: Config) -> Running {
    Running::start(Config {
        metrics: Some("127.0.0.1:0".parse().unwrap()),
        warm_up: false,
        ..config
    })
    .await
}

/// Random 36×36 puzzles with 650 of 1296 clues kept from a random full grid:
/// half-full grids of this size are where search is hardest (finding one
/// solution takes the general engine far longer than any solve timeout used
/// here), written in the default symbols.
fn hard_36x36(count: usize, seed: u64) -> Vec<String> {
    const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZa";
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let b = 6;
            let n = b * b;
            let shuffled = |rng: &mut ChaCha8Rng| {
                let mut groups: Vec<usize> = (0..b).collect();
                groups.shuffle(rng);
                let mut order = Vec::with_capacity(n);
                for g in groups {
                    let mut inner: Vec<usize> = (0..b).collect();
                    inner.shuffle(rng);
                    order.extend(inner.into_iter().map(|i| g * b + i));
                }
                order
            };
            let (rows, cols) = (shuffled(&mut rng), shuffled(&mut rng));
            let mut digits: Vec<usize> = (0..n).collect();
            digits.shuffle(&mut rng);
            let mut cells: Vec<u8> = (0..n * n)
                .map(|i| {
                    let (r, c) = (rows[i / n], cols[i % n]);
                    SYMBOLS[digits[(b * (r % b) + r / b + c) % n]]
                })
                .collect();
            let mut positions: Vec<usize> = (0..n * n).collect();
            positions.shuffle(&mut rng);
            for &p in &positions[650..] {
                cells[p] = b'.';
            }
            String::from_utf8(cells).unwrap()
        })
        .collect()
}

/// Writes `line` over and over for at most `limit`, stopping when a write
/// makes no progress for a second (the server stopped reading); returns the
/// bytes written.
async fn flood(
    writer: &mut tokio::net::tcp::OwnedWriteHalf,
    line: &[u8],
    limit: Duration,
) -> usize {
    let deadline = Instant::now() + limit;
    let mut written = 0;
    while Instant::now() < deadline {
        match timeout(Duration::from_secs(1), writer.write_all(line)).await {
            Ok(Ok(())) => written += line.len(),
            _ => break,
        }
    }
    written
}

/// Lines with 60 KB ids from clients that never read cannot grow the server
/// past its byte bound: requests past half of it are answered
/// `ServerTooBusy` (kept in the bound too), and at the bound the server
/// stops reading, while another client is still served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_stays_within_the_byte_bound_with_long_ids_and_no_reading() {
    let bound = 2 << 20;
    let server = start(Config {
        workers: 2,
        connection_bytes: 512 << 10,
        server_bytes: bound,
        ..Config::default()
    })
    .await;
    let line = format!("{}:{PUZZLE}\n", "i".repeat(60_000)).into_bytes();
    let mut floods = Vec::new();
    let mut clients = Vec::new();
    for _ in 0..3 {
        let Client { reader, mut writer } = Client::connect(server.addr).await;
        clients.push(reader);
        let line = line.clone();
        floods.push(tokio::spawn(async move {
            flood(&mut writer, &line, Duration::from_secs(5)).await
        }));
    }
    let mut peak = 0;
    let mut sent = 0;
    for f in floods {
        while !f.is_finished() {
            peak = peak.max(held(&server).await);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        sent += f.await.unwrap();
    }
    peak = peak.max(held(&server).await);
    // Each connection may pass its step by one line's reply, and hold one
    // partial line in its input buffer.
    let slack = 3 * (2 * line.len() + (64 << 10) + (16 << 10));
    assert!(
        peak <= bound as u64 + slack as u64,
        "{peak} bytes held, bound {bound} (+{slack}); {sent} bytes sent"
    );
    assert!(server.metric("busy_total").await > 0);
    let mut probe = Client::connect(server.addr).await;
    assert_eq!(probe.ask(PUZZLE).await, format!("{SOLUTION}\r\n"));
    drop(clients);
    server.shutdown().await;
}

/// The bytes the server holds for its clients, from its gauges.
async fn held(server: &Running) -> u64 {
    server.metric("input_bytes").await
        + server.metric("queued_bytes").await
        + server.metric("reply_bytes").await
}

/// Two clients pipelining hard 36×36 grids cannot starve a third's 9×9
/// requests: quick requests always keep a worker, so the probe's twenty
/// round trips all finish before the first heavy request is given up (each
/// takes the whole solve timeout).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_heavy_grids_leaves_quick_requests_a_worker() {
    let server = start(Config {
        workers: 2,
        solve_timeout: Some(Duration::from_secs(2)),
        ..Config::default()
    })
    .await;
    let heavy = hard_36x36(4, 1);
    let answered = Arc::new(AtomicUsize::new(0));
    let mut attackers = Vec::new();
    for part in heavy.chunks(2) {
        let mut client = Client::connect(server.addr).await;
        let batch: String = part.iter().map(|p| format!("{p}\n")).collect();
        client.send(batch.as_bytes()).await;
        let answered = Arc::clone(&answered);
        attackers.push(tokio::spawn(async move {
            for _ in 0..2 {
                let reply = client.line().await.unwrap();
                assert_eq!(reply, "Timeout\r\n", "a hard grid is given up");
                answered.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut probe = Client::connect(server.addr).await;
    for i in 0..20 {
        assert_eq!(
            probe.ask(&format!("{i}:{PUZZLE}")).await,
            format!("{i}:{SOLUTION}\r\n")
        );
    }
    // Each heavy request takes the whole solve timeout: the probe, started
    // at once, must not have waited for any batch of them.
    let heavy_done = answered.load(Ordering::SeqCst);
    assert!(
        heavy_done < 2,
        "the probe waited for {heavy_done} heavy requests"
    );
    for a in attackers {
        a.await.unwrap();
    }
    server.shutdown().await;
}

/// A client that queues heavy work and resets its connection has its queued
/// requests dropped and its running one given up at once (not after the
/// solve timeout), and none of them is counted as answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_a_connection_cancels_its_queued_and_running_work() {
    let server = start(Config {
        workers: 2,
        solve_timeout: Some(Duration::from_secs(300)),
        ..Config::default()
    })
    .await;
    let heavy = hard_36x36(6, 2);
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let batch: String = heavy.iter().map(|p| format!("{p}\n")).collect();
    stream.write_all(batch.as_bytes()).await.unwrap();
    let read = server
        .await_metric("requests_total", LIMIT, |n| n >= 6)
        .await;
    assert_eq!(read, 6);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // An abortive close: the kernel sends a reset.
    socket2::SockRef::from(&stream)
        .set_linger(Some(Duration::ZERO))
        .unwrap();
    drop(stream);
    let cancelled = server
        .await_metric("cancelled_total", LIMIT, |n| n >= 6)
        .await;
    assert_eq!(
        cancelled, 6,
        "every request of the gone client is cancelled"
    );
    assert_eq!(server.metric("timeouts_total").await, 0);
    assert_eq!(server.metric("responses_total").await, 0);
    assert_eq!(server.metric("queue_depth").await, 0);
    // Both workers are free again.
    let mut probe = Client::connect(server.addr).await;
    assert_eq!(probe.ask(PUZZLE).await, format!("{SOLUTION}\r\n"));
    server.shutdown().await;
}

/// Idle connections and slowloris connections (a byte at a time of a line
/// that never ends) fill every slot, yet new clients are served: a line must
/// arrive within the request timeout, and the idlest connection is closed to
/// make room for a newcomer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slowloris_floods_leave_room_for_new_clients() {
    let server = start(Config {
        workers: 1,
        max_connections: 40,
        max_connections_per_peer: 1_000,
        request_timeout: Duration::from_secs(2),
        ..Config::default()
    })
    .await;
    let mut idle = Vec::new();
    for _ in 0..20 {
        idle.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut slow = Vec::new();
    for _ in 0..20 {
        slow.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let drip = tokio::spawn(async move {
        for _ in 0..40 {
            for s in &mut slow {
                let _ = s.write_all(b"1").await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        slow
    });
    assert_eq!(
        server
            .await_metric("connections_open", LIMIT, |n| n == 40)
            .await,
        40
    );
    // Every slot is taken; after a second of idleness they may make room.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let mut probes = Vec::new();
    for i in 0..10 {
        let mut probe = Client::connect(server.addr).await;
        assert_eq!(
            probe.ask(&format!("{i}:{PUZZLE}")).await,
            format!("{i}:{SOLUTION}\r\n"),
            "probe {i} is served"
        );
        // Kept open, so that each probe needs a slot of its own.
        probes.push(probe);
    }
    assert!(server.metric("evicted_total").await >= 10);
    // The slowloris lines never complete: closed at the request timeout.
    let closed = server
        .await_metric("slow_closed_total", LIMIT, |n| n >= 1)
        .await;
    assert!(closed >= 1);
    let _ = drip.await;
    drop(idle);
    server.shutdown().await;
}

/// One address cannot take every slot: past its own limit it is refused
/// (its connections all busy), while another address is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_take_every_slot() {
    let server = start(Config {
        workers: 1,
        max_connections: 30,
        max_connections_per_peer: 10,
        ..Config::default()
    })
    .await;
    let attacker: IpAddr = [127, 0, 0, 2].into();
    let mut own = Vec::new();
    for _ in 0..10 {
        let mut c = Client::connect_from(server.addr, attacker).await;
        assert_eq!(c.ask(PUZZLE).await, format!("{SOLUTION}\r\n"));
        own.push(c);
    }
    let mut refused = 0;
    for _ in 0..20 {
        let mut c = Client::connect_from(server.addr, attacker).await;
        if c.line().await.as_deref() == Some("ServerTooBusy\r\n") {
            refused += 1;
        }
    }
    assert_eq!(refused, 20, "the 11th and later connections of one address");
    assert_eq!(server.metric("peer_refused_total").await, 20);
    let mut probe = Client::connect(server.addr).await;
    assert_eq!(probe.ask(PUZZLE).await, format!("{SOLUTION}\r\n"));
    drop(own);
    server.shutdown().await;
}

/// After the shutdown starts, a client that keeps sending (and reads its
/// replies late, through a small receive buffer, so that many replies are
/// still in flight) gets every reply to what the server had read, in order,
/// then a clean end of stream — no reset destroying replies already written
/// — and the shutdown is not forced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_with_a_client_that_keeps_sending_loses_no_reply() {
    let server = start(Config {
        workers: 2,
        pending_bound: 1_000_000,
        connection_bytes: 1 << 30,
        ..Config::default()
    })
    .await;
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let (read, mut writer) = stream.into_split();
    let sender = tokio::spawn(async move {
        let mut id = 0u64;
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            let mut batch = String::new();
            for _ in 0..100 {
                batch.push_str(&format!("{id}:{PUZZLE}\n"));
                id += 1;
            }
            match timeout(Duration::from_secs(1), writer.write_all(batch.as_bytes())).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
        (id, writer)
    });
    let read_before = server
        .await_metric("requests_total", LIMIT, |n| n >= 5_000)
        .await;
    assert!(read_before >= 5_000);
    let Running {
        metrics: _,
        addr: _,
        mut stop,
        task,
    } = server;
    let _ = stop.take().unwrap().send(());
    // The client keeps sending and only now starts to read.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut reader = BufReader::new(read);
    let mut line = String::new();
    let mut next = 0u64;
    loop {
        line.clear();
        match timeout(LIMIT, reader.read_line(&mut line)).await.unwrap() {
            Ok(0) => break,
            Ok(_) => {
                assert_eq!(line, format!("{next}:{SOLUTION}\r\n"));
                next += 1;
            }
            Err(error) => panic!("after {next} replies: {error}"),
        }
    }
    let report = timeout(LIMIT, task).await.unwrap().unwrap().unwrap();
    assert!(!report.forced, "{report:?}");
    let (sent, _writer) = sender.await.unwrap();
    assert!(
        next >= read_before && next <= sent,
        "{next} replies: {read_before} read before the shutdown, {sent} sent"
    );
}

/// A client that never reads cannot hold the shutdown past its grace: the
/// connection is closed, and the report counts what was left unanswered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shutdown_grace_bounds_a_client_that_never_reads() {
    let server = start(Config {
        workers: 2,
        shutdown_grace: Duration::from_millis(500),
        ..Config::default()
    })
    .await;
    let mut client = TcpStream::connect(server.addr).await.unwrap();
    // Long ids make the replies more than the kernel's buffers hold.
    let id = "i".repeat(2_000);
    let batch: String = (0..5_000).map(|i| format!("{id}{i}:{PUZZLE}\n")).collect();
    let _ = timeout(Duration::from_secs(3), client.write_all(batch.as_bytes())).await;
    server
        .await_metric("responses_total", LIMIT, |n| n > 0)
        .await;
    let started = Instant::now();
    let report = server.shutdown().await;
    assert!(report.forced, "{report:?}");
    assert!(report.dropped > 0, "{report:?}");
    assert!(started.elapsed() < LIMIT);
    drop(client);
}

/// A 15-puzzle is bounded by the solve timeout like a large grid.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifteen_puzzles_answer_timeout_past_the_solve_timeout() {
    let server = start(Config {
        workers: 2,
        solve_timeout: Some(Duration::from_nanos(1)),
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(server.addr).await;
    // Rosetta Code's 80-move position (goal: blank last).
    let hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";
    assert_eq!(client.ask(&format!("f:{hard}")).await, "f:Timeout\r\n");
    // The 8-puzzle, one look-up per move, always finishes.
    assert_eq!(client.ask("e:1 2 3 4 5 6 7 x 8").await, "e:r\r\n");
    assert_eq!(server.metric("timeouts_total").await, 1);
    server.shutdown().await;
}

/// Sends `request` to the metrics endpoint and returns the whole response.
async fn http(server: &Running, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(server.metrics_addr()).await.unwrap();
    let _ = stream.write_all(request).await;
    let mut text = Vec::new();
    let _ = timeout(LIMIT, stream.read_to_end(&mut text)).await.unwrap();
    String::from_utf8_lossy(&text).into_owned()
}

/// The metrics endpoint answers as its documentation says: `HEAD` gets the
/// headers of `GET` without a body, other methods 405, garbage 400 without
/// waiting for more, an oversized head 431.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_endpoint_answers_odd_requests_as_documented() {
    let server = start(Config {
        workers: 1,
        ..Config::default()
    })
    .await;
    let get = http(&server, b"GET /metrics HTTP/1.1\r\n\r\n").await;
    assert!(get.starts_with("HTTP/1.1 200 OK\r\n"), "{get}");
    let head = http(&server, b"HEAD /metrics HTTP/1.1\r\n\r\n").await;
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
    assert!(head.ends_with("\r\n\r\n"), "no body after HEAD: {head}");
    let post = http(&server, b"POST /metrics HTTP/1.1\r\n\r\n").await;
    assert!(post.starts_with("HTTP/1.1 405 "), "{post}");
    assert!(post.contains("Allow: GET, HEAD\r\n"), "{post}");
    // Garbage that never ends its head is answered without waiting for it.
    let mut garbage = TcpStream::connect(server.metrics_addr()).await.unwrap();
    garbage.write_all(b"\x00\xff\x16\x03 junk\n").await.unwrap();
    let mut text = Vec::new();
    timeout(LIMIT, garbage.read_to_end(&mut text))
        .await
        .unwrap()
        .unwrap();
    assert!(text.starts_with(b"HTTP/1.1 400 "), "{text:?}");
    let big = format!(
        "GET /metrics HTTP/1.1\r\nX-Padding: {}\r\n\r\n",
        "a".repeat(10_000)
    );
    let large = http(&server, big.as_bytes()).await;
    assert!(large.starts_with("HTTP/1.1 431 "), "{large}");
    let missing = http(&server, b"GET /nothing HTTP/1.1\r\n\r\n").await;
    assert!(missing.starts_with("HTTP/1.1 404 "), "{missing}");
    server.shutdown().await;
}

/// A padded line keeps only its cells once parsed: what a queued request
/// holds does not grow with the text after them.
#[test]
fn a_parsed_request_holds_only_its_id_and_cells() {
    use sudokit_server::pool::Requests;
    use sudokit_server::protocol::{Class, Parser};
    let padded = format!("{PUZZLE} {}", "x".repeat(60_000));
    let mut requests = Requests::default();
    let mut parser = Parser::default();
    for _ in 0..16 {
        let class = requests.add(Some(b"7"), padded.as_bytes(), &mut parser);
        assert_eq!(class, Ok(Class::Light));
    }
    assert!(requests.size() < 16 * 200, "{} bytes", requests.size());
}
