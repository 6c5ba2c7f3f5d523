//! The service over real sockets on 127.0.0.1 (port 0), per SPEC §5.

use std::net::SocketAddr;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudokit::parse::FormatSpec;
use sudokit::slide::{Board, Goal, Move, Move::*};
use sudokit_server::server::Config;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

mod common;
use common::{Client, Running, PUZZLE, SOLUTION};
use tokio::time::timeout;

/// Hard puzzles (many guesses), for keeping workers busy.
const HARD: [&str; 3] = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
];
/// Every test gives up after this long rather than hang.
const LIMIT: Duration = Duration::from_secs(10);

impl Running {
    /// A server with default limits and two workers.
    async fn default() -> Running {
        Running::start(Config {
            workers: 2,
            ..Config::default()
        })
        .await
    }
}

/// Whether `answer` solves the 9×9 `puzzle`.
fn solves(puzzle: &str, answer: &str) -> bool {
    let format = FormatSpec::default().resolve(puzzle.as_bytes()).unwrap();
    let givens = format.parse(puzzle.as_bytes()).unwrap();
    format
        .parse(answer.as_bytes())
        .is_ok_and(|solution| givens.is_solved_by(&solution))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echoes_ids_with_either_line_ending() {
    let server = Running::default().await;
    let mut client = Client::connect(server.addr).await;
    client.send(format!("abc:{PUZZLE}\r\n").as_bytes()).await;
    assert_eq!(client.line().await.unwrap(), format!("abc:{SOLUTION}\r\n"));
    client.send(format!("x y:{PUZZLE}\n").as_bytes()).await;
    assert_eq!(client.line().await.unwrap(), format!("x y:{SOLUTION}\r\n"));
    client.send(format!("{PUZZLE}\n").as_bytes()).await;
    assert_eq!(client.line().await.unwrap(), format!("{SOLUTION}\r\n"));
    // The id is everything before the first colon, even an empty one.
    client.send(format!(":{PUZZLE}\r\n").as_bytes()).await;
    assert_eq!(client.line().await.unwrap(), format!(":{SOLUTION}\r\n"));
    let mut contradiction = PUZZLE.to_string();
    contradiction.replace_range(0..2, "11");
    assert_eq!(
        client.ask(&format!("n:{contradiction}")).await,
        "n:NoSolution\r\n"
    );
    let four = client.ask("4:1...............").await;
    assert_eq!(four.len(), "4:".len() + 16 + 2);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_a_pipelined_batch_in_order() {
    let server = Running::default().await;
    let mut client = Client::connect(server.addr).await;
    let mut batch = String::new();
    let puzzles: Vec<&str> = (0..300)
        .map(|i| match i % 5 {
            0 => PUZZLE,
            1 => "2 3 4 1 5 x 7 6 8",
            2 => "bad",
            _ => HARD[i % 3],
        })
        .collect();
    for (i, puzzle) in puzzles.iter().enumerate() {
        batch.push_str(&format!("{i}:{puzzle}\r\n"));
    }
    client.send(batch.as_bytes()).await;
    for (i, puzzle) in puzzles.iter().enumerate() {
        let line = client.line().await.unwrap();
        let (id, answer) = line.trim_end().split_once(':').unwrap();
        assert_eq!(id, i.to_string(), "replies come in request order");
        match i % 5 {
            1 => assert_eq!(answer, "ullddrurdllurrdlurd"),
            2 => assert!(answer.starts_with("Bad Request: ")),
            _ => assert!(solves(puzzle, answer), "{puzzle} -> {answer}"),
        }
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_a_request_split_byte_by_byte() {
    let server = Running::default().await;
    let mut client = Client::connect(server.addr).await;
    let request = format!("split:{PUZZLE}\r\nq:1 2 3 4 5 6 7 x 8\n");
    for byte in request.as_bytes() {
        client.send(std::slice::from_ref(byte)).await;
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
    assert_eq!(
        client.line().await.unwrap(),
        format!("split:{SOLUTION}\r\n")
    );
    // A short request is answered at once, with no more bytes to come.
    assert_eq!(client.line().await.unwrap(), "q:r\r\n");
    assert_eq!(client.ask("1 2 3 4 5 6 7 8 x").await, "\r\n");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_bad_requests_and_keeps_the_connection() {
    let server = Running::default().await;
    let mut client = Client::connect(server.addr).await;
    let bad = [
        ("1:", "1:Bad Request: empty request\r\n"),
        ("", "Bad Request: empty request\r\n"),
        ("2:12345", "2:Bad Request: "),
        ("3:1 2 3", "3:Bad Request: 3 tiles"),
        ("4:1 2 3 4 5 6 7 8 8", "4:Bad Request: tile 8 appears twice"),
        ("5:hello world", "5:Bad Request: "),
        ("6:x2345678x", "6:Bad Request: the blank appears twice"),
    ];
    for (request, expected) in bad {
        let reply = client.ask(request).await;
        assert!(reply.starts_with(expected), "{request:?} -> {reply:?}");
        assert!(reply.ends_with("\r\n"));
    }
    let mut wrong_char = PUZZLE.to_string();
    wrong_char.replace_range(80..81, "Z");
    let reply = client.ask(&format!("7:{wrong_char}")).await;
    assert_eq!(reply, "7:Bad Request: unexpected 'Z' at cell 81\r\n");
    let huge = client.ask(&format!("big:{}", ".".repeat(64 * 64))).await;
    assert!(huge.starts_with("big:Bad Request: 4096 cells"), "{huge}");
    client.send(b"8:\xff\xfe\x00\x01\r\n").await;
    assert!(client.line().await.unwrap().starts_with("8:Bad Request: "));
    assert_eq!(
        client.ask(&format!("ok:{PUZZLE}")).await,
        format!("ok:{SOLUTION}\r\n")
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closes_the_connection_after_an_oversized_line() {
    let server = Running::default().await;
    let mut client = Client::connect(server.addr).await;
    client.send(format!("first:{PUZZLE}\n").as_bytes()).await;
    client.send(&vec![b'1'; 70 * 1024]).await;
    assert_eq!(
        client.line().await.unwrap(),
        format!("first:{SOLUTION}\r\n")
    );
    assert_eq!(
        client.line().await.unwrap(),
        "Bad Request: line too long\r\n"
    );
    assert_eq!(
        client.line().await,
        None,
        "the server closes the connection"
    );
    drop(client);
    // A line of exactly 64 KiB is still a request (a bad one).
    let mut client = Client::connect(server.addr).await;
    let mut line = vec![b'1'; 64 * 1024];
    line.extend_from_slice(b"\r\n");
    client.send(&line).await;
    assert!(client
        .line()
        .await
        .unwrap()
        .starts_with("Bad Request: 65536 cells"));
    assert_eq!(client.ask(PUZZLE).await, format!("{SOLUTION}\r\n"));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_client_does_not_delay_another() {
    let server = Running::default().await;
    // One client sends half a request and stops; another floods requests and
    // never reads its replies.
    let mut half = Client::connect(server.addr).await;
    half.send(&PUZZLE.as_bytes()[..40]).await;
    let flood = TcpStream::connect(server.addr).await.unwrap();
    let (flood_read, mut flood_write) = flood.into_split();
    let request = format!("f:{PUZZLE}\n");
    let flooder = tokio::spawn(async move {
        for _ in 0..20_000 {
            if flood_write.write_all(request.as_bytes()).await.is_err() {
                break;
            }
        }
        flood_write
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut client = Client::connect(server.addr).await;
    for i in 0..20 {
        // A server that waited for the flooder would never answer: the
        // reply's time limit catches it.
        assert_eq!(
            client.ask(&format!("{i}:{PUZZLE}")).await,
            format!("{i}:{SOLUTION}\r\n")
        );
    }
    // The flooder goes before the shutdown: a client that neither reads nor
    // closes would hold the shutdown until its grace expires.
    flooder.abort();
    drop(flooder.await);
    drop(flood_read);
    drop(half);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_gets_every_reply_in_order() {
    let server = Running::start(Config {
        workers: 2,
        pending_bound: 1_000_000,
        connection_bytes: 1 << 30,
        ..Config::default()
    })
    .await;
    // More replies than the server's send buffer can hold (4 MiB at most on
    // Linux) and a tiny receive buffer: the workers' writes block, and the
    // connection's task must finish them as the client reads.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let requests = 60_000;
    let puzzle = |i: usize| {
        if i.is_multiple_of(7) {
            HARD[i % 3]
        } else {
            PUZZLE
        }
    };
    let sender = tokio::spawn(async move {
        for i in 0..requests {
            let puzzle = puzzle(i);
            let line = format!("{i}:{puzzle}\n");
            write.write_all(line.as_bytes()).await.unwrap();
        }
        write
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut line = String::new();
    for i in 0..requests {
        line.clear();
        timeout(LIMIT, reader.read_line(&mut line))
            .await
            .expect("a reply within the time limit")
            .unwrap();
        let (id, answer) = line.trim_end().split_once(':').unwrap();
        assert_eq!(id, i.to_string(), "replies come in request order");
        let puzzle = puzzle(i);
        assert!(solves(puzzle, answer), "{puzzle} -> {answer}");
        if i % 10_000 == 0 {
            // Read in bursts, so the socket blocks again and again.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    drop(sender.await.unwrap());
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_a_thousand_concurrent_connections() {
    let server = Running::default().await;
    let mut clients = Vec::new();
    for _ in 0..1000 {
        clients.push(Client::connect(server.addr).await);
    }
    for (i, client) in clients.iter_mut().enumerate() {
        client.send(format!("{i}:{PUZZLE}\r\n").as_bytes()).await;
    }
    for (i, client) in clients.iter_mut().enumerate() {
        assert_eq!(client.line().await.unwrap(), format!("{i}:{SOLUTION}\r\n"));
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solves_8_and_15_puzzles() {
    let server = Running::default().await;
    let mut client = Client::connect(server.addr).await;
    assert_eq!(
        client.ask("a:2 3 4 1 5 x 7 6 8").await,
        "a:ullddrurdllurrdlurd\r\n"
    );
    assert_eq!(client.ask("b:23415x768").await, "b:ullddrurdllurrdlurd\r\n");
    assert_eq!(client.ask("c:123456780").await, "c:\r\n");
    assert_eq!(client.ask("d:213456780").await, "d:unsolvable\r\n");
    // 15-puzzles: the blank goes last, as for the 8-puzzle.
    assert_eq!(
        client.ask("e:1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15").await,
        "e:r\r\n"
    );
    assert_eq!(
        client.ask("f:1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0").await,
        "f:unsolvable\r\n"
    );
    // Seven moves away from the goal: the answer must be seven moves back.
    let scramble = [Up, Up, Left, Left, Down, Left, Up];
    let start = Board::solved(4, Goal::BlankLast).replay(&scramble).unwrap();
    let reply = client.ask(&format!("g:{start}")).await;
    let moves: Vec<Move> = reply["g:".len()..reply.len() - 2]
        .chars()
        .map(|c| Move::ALL.into_iter().find(|m| m.letter() == c).unwrap())
        .collect();
    assert_eq!(moves.len(), scramble.len(), "a shortest solution: {reply}");
    assert!(start.replay(&moves).unwrap().is_solved(Goal::BlankLast));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_answers_every_request_already_read() {
    let server = Running::start(Config {
        workers: 1,
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(server.addr).await;
    let mut batch = String::new();
    for i in 0..60 {
        batch.push_str(&format!("{i}:{}\n", HARD[i % 3]));
    }
    client.send(batch.as_bytes()).await;
    // The first answer proves the batch was read; then stop the server.
    let first = client.line().await.unwrap();
    assert!(first.starts_with("0:"));
    let stopping = tokio::spawn(server.shutdown());
    for i in 1..60 {
        let line = client.line().await.unwrap();
        let (id, answer) = line.trim_end().split_once(':').unwrap();
        assert_eq!(id, i.to_string());
        assert!(solves(HARD[i % 3], answer));
    }
    assert_eq!(
        client.line().await,
        None,
        "closed once everything is answered"
    );
    stopping.await.unwrap();
}

/// Sends 40 hard puzzles in one write; returns how many were answered
/// `ServerTooBusy` (the others must be right), checking order and ids.
async fn busy_count(client: &mut Client) -> usize {
    let mut batch = String::new();
    for i in 0..40 {
        batch.push_str(&format!("{i}:{}\n", HARD[i % 3]));
    }
    client.send(batch.as_bytes()).await;
    let mut busy = 0;
    for i in 0..40 {
        let line = client.line().await.unwrap();
        let (id, answer) = line.trim_end().split_once(':').unwrap();
        assert_eq!(id, i.to_string(), "busy replies keep the order and the id");
        if answer == "ServerTooBusy" {
            busy += 1;
        } else {
            assert!(solves(HARD[i % 3], answer));
        }
    }
    busy
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_server_too_busy_past_a_tiny_connection_bound() {
    let server = Running::start(Config {
        workers: 1,
        pending_bound: 4,
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(server.addr).await;
    let busy = busy_count(&mut client).await;
    assert!(busy > 0 && busy < 40, "busy {busy}");
    // Once the backlog is gone, requests are solved again.
    assert_eq!(
        client.ask(&format!("z:{PUZZLE}")).await,
        format!("z:{SOLUTION}\r\n")
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_server_too_busy_past_a_tiny_byte_bound() {
    let server = Running::start(Config {
        workers: 1,
        connection_bytes: 2_000,
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(server.addr).await;
    // Queued requests hold about 200 bytes each: half the bound is full
    // after a handful.
    assert!(busy_count(&mut client).await > 0);
    assert_eq!(
        client.ask(&format!("z:{PUZZLE}")).await,
        format!("z:{SOLUTION}\r\n")
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refuses_connections_past_the_limit() {
    let server = Running::start(Config {
        workers: 1,
        max_connections: 2,
        ..Config::default()
    })
    .await;
    let mut a = Client::connect(server.addr).await;
    let mut b = Client::connect(server.addr).await;
    assert_eq!(
        a.ask(&format!("a:{PUZZLE}")).await,
        format!("a:{SOLUTION}\r\n")
    );
    assert_eq!(
        b.ask(&format!("b:{PUZZLE}")).await,
        format!("b:{SOLUTION}\r\n")
    );
    let mut c = Client::connect(server.addr).await;
    assert_eq!(c.line().await.unwrap(), "ServerTooBusy\r\n");
    assert_eq!(c.line().await, None);
    drop(a);
    // The freed slot is taken again (the server notices the close first).
    let mut d = loop {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let mut d = Client::connect(server.addr).await;
        d.send(format!("d:{PUZZLE}\n").as_bytes()).await;
        if d.line().await.unwrap() != "ServerTooBusy\r\n" {
            break d;
        }
    };
    assert_eq!(
        d.ask(&format!("e:{PUZZLE}")).await,
        format!("e:{SOLUTION}\r\n")
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closes_idle_connections() {
    let server = Running::start(Config {
        workers: 1,
        idle_timeout: Duration::from_millis(300),
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(server.addr).await;
    assert_eq!(client.ask(PUZZLE).await, format!("{SOLUTION}\r\n"));
    let started = std::time::Instant::now();
    assert_eq!(client.line().await, None);
    assert!(started.elapsed() >= Duration::from_millis(250));
    server.shutdown().await;
}

/// The metrics page at `addr`, with its HTTP head.
async fn scrape(addr: SocketAddr) -> String {
    let mut http = TcpStream::connect(addr).await.unwrap();
    http.write_all(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    timeout(LIMIT, http.read_to_string(&mut response))
        .await
        .unwrap()
        .unwrap();
    response
}

/// The metrics page once `replies` replies are counted as written (a reply can
/// reach the client a moment before its write is counted), or after a second.
async fn scrape_once_written(addr: SocketAddr, replies: u64) -> String {
    let written = format!("sudokit_responses_total {replies}\n");
    let mut response = String::new();
    for _ in 0..100 {
        response = scrape(addr).await;
        if response.contains(&written) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_prometheus_metrics() {
    let server = Running::start(Config {
        workers: 2,
        metrics: Some("127.0.0.1:0".parse().unwrap()),
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(server.addr).await;
    client.ask(&format!("1:{PUZZLE}")).await;
    client.ask("2:nonsense").await;
    client.ask("3:2 3 4 1 5 x 7 6 8").await;
    let response = scrape_once_written(server.metrics_addr(), 3).await;
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    assert!(response.contains("text/plain; version=0.0.4"));
    for expected in [
        "sudokit_requests_total 3\n",
        "sudokit_responses_total 3\n",
        "sudokit_bad_requests_total 1\n",
        "sudokit_busy_total 0\n",
        "sudokit_connections_open 1\n",
        "sudokit_queue_depth 0\n",
        "sudokit_request_latency_seconds_count 3\n",
    ] {
        assert!(
            response.contains(expected),
            "missing {expected:?} in {response}"
        );
    }
    let mut http = TcpStream::connect(server.metrics_addr()).await.unwrap();
    http.write_all(b"GET /other HTTP/1.1\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    http.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 404"));
    server.shutdown().await;
}

/// A Sudoku the solver cannot finish within the solve timeout is answered
/// `Timeout`, counted, and the connection and the worker go on serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_timeout_past_the_solve_timeout() {
    let server = Running::start(Config {
        workers: 1,
        // Zero: the general engine gives up at its first look at the clock.
        solve_timeout: Some(Duration::ZERO),
        metrics: Some("127.0.0.1:0".parse().unwrap()),
        ..Config::default()
    })
    .await;
    let mut client = Client::connect(server.addr).await;
    let empty25 = ".".repeat(625);
    assert_eq!(
        client.ask(&format!("big:{empty25}")).await,
        "big:Timeout\r\n"
    );
    // 9×9 puzzles never time out (their engine's worst case is bounded).
    let reply = client.ask(&format!("nine:{PUZZLE}")).await;
    assert_eq!(reply, format!("nine:{SOLUTION}\r\n"));
    let response = scrape_once_written(server.metrics_addr(), 2).await;
    assert!(
        response.contains("sudokit_timeouts_total 1\n"),
        "{response}"
    );
    assert!(
        response.contains("sudokit_bad_requests_total 0\n"),
        "{response}"
    );
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn survives_random_bytes() {
    let server = Running::default().await;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for round in 0..40 {
        let mut stream = TcpStream::connect(server.addr).await.unwrap();
        let mut bytes = vec![0u8; rng.gen_range(1..4000)];
        if round % 2 == 0 {
            rng.fill(&mut bytes[..]);
        } else {
            // Mostly protocol-looking bytes: digits, separators, colons, ends.
            const ALPHABET: &[u8] = b"0123456789.x: \r\n;,-_*ABCdefg\t";
            for b in bytes.iter_mut() {
                *b = ALPHABET[rng.gen_range(0..ALPHABET.len())];
            }
        }
        stream.write_all(&bytes).await.unwrap();
        stream.shutdown().await.unwrap();
        let mut sink = Vec::new();
        let _ = timeout(LIMIT, stream.read_to_end(&mut sink)).await.unwrap();
    }
    let mut client = Client::connect(server.addr).await;
    assert_eq!(
        client.ask(&format!("ok:{PUZZLE}")).await,
        format!("ok:{SOLUTION}\r\n")
    );
    server.shutdown().await;
}
