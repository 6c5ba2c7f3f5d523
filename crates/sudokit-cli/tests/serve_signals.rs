//! The real `sudokit serve` on SIGTERM and SIGINT (README, "The solving
//! service"): it stops accepting, answers every request it has already read,
//! closes its connections, and exits with status 0.
//!
//! Each test starts the binary on ports chosen by the kernel (the log reports
//! them), pipelines a batch of hard 9×9 puzzles on one connection, waits until
//! the metrics endpoint says the server has read every line while most replies
//! are still to come, sends the signal with `kill`, and then checks that every
//! request got exactly one correct reply, in order, before the server closed
//! the connection and exited.

#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::strip_ansi;
use sudokit::grid::{Puzzle, Shape};
use sudokit::parse::Format;

/// Hard 9×9 puzzles with their names, one per line (the repository's own
/// example file, so the test needs nothing outside the repository).
const FAMOUS: &str = include_str!("../../../examples/famous-9x9.txt");

/// Requests in the pipelined batch: on one worker thread they take the server
/// a good fraction of a second, so most are still unanswered when the signal
/// arrives, however fast the machine.
const REQUESTS: usize = 30_000;

/// How long the server may take to start, or to read the whole batch.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the server may take to answer the rest and exit after the signal.
const EXIT_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `sudokit serve`, killed on drop so that a failing test never
/// leaves a server behind.
struct Server {
    /// The server process.
    child: Child,
    /// The service address, as logged by the server.
    addr: SocketAddr,
    /// The metrics address, as logged by the server.
    metrics: SocketAddr,
    /// Everything the server has logged so far (ANSI colours removed), for
    /// assertions and failure messages.
    log: Arc<Mutex<String>>,
}

impl Server {
    /// Starts `sudokit serve` on kernel-chosen ports with one solving thread
    /// (so that the batch takes measurable time) and bounds high enough that
    /// no request of the batch is answered `ServerTooBusy`.
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// As [`Server::start`], with `extra` flags after the others.
    fn start_with(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudokit"))
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--metrics",
                "127.0.0.1:0",
                "--threads",
                "1",
                "--io-threads",
                "1",
                "--pending-bound",
                "1000000",
                "--connection-bytes",
                "1000000000",
            ])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stderr = child.stderr.take().expect("stderr is piped");
        let log = Arc::new(Mutex::new(String::new()));
        let lines = forward_log(stderr, Arc::clone(&log));
        // From here on, dropping `server` kills the child.
        let mut server = Server {
            child,
            addr: SocketAddr::from(([0, 0, 0, 0], 0)),
            metrics: SocketAddr::from(([0, 0, 0, 0], 0)),
            log,
        };
        let deadline = Instant::now() + START_TIMEOUT;
        let (mut addr, mut metrics) = (None, None);
        while addr.is_none() || metrics.is_none() {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match lines.recv_timeout(left) {
                Ok(line) => line,
                Err(error) => panic!(
                    "no addresses logged by the server ({error}); log:\n{}",
                    server.log()
                ),
            };
            if let Some(rest) = line.split("metrics at http://").nth(1) {
                metrics = rest.split('/').next().and_then(|a| a.parse().ok());
            } else if line.contains(" serving ") {
                addr = field(&line, "addr").and_then(|a| a.parse().ok());
            }
        }
        server.addr = addr.unwrap();
        server.metrics = metrics.unwrap();
        server
    }

    /// The server's process id, for `kill`.
    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server has logged so far.
    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Connects to the service, retrying for a while in case it is not
    /// accepting yet; reads and writes time out so that a test cannot hang.
    fn connect(&self) -> TcpStream {
        let deadline = Instant::now() + START_TIMEOUT;
        let stream = loop {
            match TcpStream::connect(self.addr) {
                Ok(stream) => break stream,
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(error) => panic!("cannot connect to {}: {error}", self.addr),
            }
        };
        stream.set_read_timeout(Some(EXIT_TIMEOUT)).unwrap();
        stream.set_write_timeout(Some(EXIT_TIMEOUT)).unwrap();
        stream
    }

    /// One counter of the metrics endpoint (`sudokit_<name>`), scraped with a
    /// plain HTTP/1.1 GET.
    fn counter(&self, name: &str) -> u64 {
        let mut stream = TcpStream::connect(self.metrics).expect("metrics endpoint is up");
        stream.set_read_timeout(Some(START_TIMEOUT)).unwrap();
        stream.set_write_timeout(Some(START_TIMEOUT)).unwrap();
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nHost: sudokit\r\n\r\n")
            .unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        let prefix = format!("sudokit_{name} ");
        text.lines()
            .find_map(|line| line.strip_prefix(&prefix))
            .and_then(|value| value.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {prefix}in the metrics:\n{text}"))
    }

    /// Sends `signal` (`TERM`, `INT`) to the server with the `kill` command.
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} failed: {status}");
    }

    /// Waits for the server to exit, for at most `timeout`; fails (and, by
    /// drop, kills it) if it is still running by then.
    fn wait(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit within {timeout:?}; log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    /// Kills the server if it is still running (a failed test), and reaps it.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Copies the server's standard error, line by line and without ANSI colour
/// codes, into `log` and into the returned channel, on a thread of its own.
fn forward_log(stderr: impl Read + Send + 'static, log: Arc<Mutex<String>>) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let line = strip_ansi(&line);
            log.lock().unwrap().push_str(&line);
            log.lock().unwrap().push('\n');
            let _ = sender.send(line);
        }
    });
    receiver
}

/// The value of `name=value` in a log line.
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=");
    line.split_whitespace()
        .find_map(|word| word.strip_prefix(key.as_str()))
}

/// The puzzles of the example file, without their names.
fn puzzles() -> Vec<&'static str> {
    FAMOUS
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split_whitespace().next().unwrap())
        .collect()
}

/// Reads `text` (81 cells, `.` or `0` for blanks) as a 9×9 puzzle.
fn parse9(text: &str) -> Puzzle {
    let format = Format::new(Shape::new(3, 3).unwrap(), None).unwrap();
    format
        .parse(text.as_bytes())
        .unwrap_or_else(|error| panic!("{text:?} is not a 9x9 grid: {error}"))
}

/// Reads one reply line (without its `\r\n`); `None` at end of stream.
fn read_reply(reader: &mut impl BufRead) -> Option<String> {
    let mut line = String::new();
    match reader.read_line(&mut line) {
        Ok(0) => None,
        Ok(_) => {
            assert!(line.ends_with("\r\n"), "reply not ended by CRLF: {line:?}");
            line.truncate(line.len() - 2);
            Some(line)
        }
        Err(error) => panic!("reading replies failed: {error}"),
    }
}

/// Checks that `reply` answers request `id` about `puzzle` with a solution.
fn check_reply(id: usize, puzzle: &str, reply: &str) {
    let want = format!("{id}:");
    let Some(answer) = reply.strip_prefix(&want) else {
        panic!("reply to request {id} does not echo its id: {reply:?}");
    };
    assert!(
        parse9(puzzle).is_solved_by(&parse9(answer)),
        "reply to request {id} ({puzzle}) is not its solution: {answer:?}"
    );
}

/// The whole scenario for one signal (`TERM` or `INT`); `logged` is the line
/// the server logs on receiving it.
fn answers_what_it_read_then_exits_on(signal: &str, logged: &str) {
    let mut server = Server::start();
    let puzzles = puzzles();
    assert!(puzzles.len() >= 10, "too few example puzzles");
    let sent: Vec<&str> = (0..REQUESTS).map(|i| puzzles[i % puzzles.len()]).collect();
    let mut batch = String::new();
    for (id, puzzle) in sent.iter().enumerate() {
        batch.push_str(&format!("{id}:{puzzle}\r\n"));
    }

    // An idle second connection, accepted before the signal: shutdown must
    // close it too (without any reply), or the server would never exit.
    let idle = server.connect();
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    let sender = std::thread::spawn(move || writer.write_all(batch.as_bytes()));
    let mut reader = BufReader::new(stream);

    // The server is answering...
    let first = read_reply(&mut reader).expect("a first reply before the signal");
    check_reply(0, sent[0], &first);
    sender.join().unwrap().expect("the whole batch is written");
    // ...and has read every request of the batch, but not answered them all.
    let deadline = Instant::now() + START_TIMEOUT;
    while server.counter("requests_total") < REQUESTS as u64 {
        assert!(
            Instant::now() < deadline,
            "the server did not read the whole batch within {START_TIMEOUT:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let answered = server.counter("responses_total");
    assert_eq!(server.counter("connections_accepted_total"), 2);
    assert!(
        answered < REQUESTS as u64,
        "all {REQUESTS} requests were answered before the signal: the batch is \
         too small to test the shutdown on this machine"
    );

    eprintln!("SIG{signal} sent with {answered} of {REQUESTS} requests answered");
    server.signal(signal);

    let deadline = Instant::now() + EXIT_TIMEOUT;
    let mut replies = vec![first];
    while let Some(reply) = read_reply(&mut reader) {
        replies.push(reply);
        assert!(
            Instant::now() < deadline,
            "replies still coming {EXIT_TIMEOUT:?} after SIG{signal}"
        );
    }
    for (id, (puzzle, reply)) in sent.iter().zip(&replies).enumerate() {
        check_reply(id, puzzle, reply);
    }
    assert_eq!(
        replies.len(),
        REQUESTS,
        "after SIG{signal} ({answered} answered when it was sent), only {} of \
         {REQUESTS} requests were answered; log:\n{}",
        replies.len(),
        server.log()
    );

    let mut idle_reader = BufReader::new(idle);
    assert_eq!(
        read_reply(&mut idle_reader),
        None,
        "the idle connection got a reply"
    );

    let status = server.wait(EXIT_TIMEOUT);
    assert!(
        status.success(),
        "the server exited with {status} after SIG{signal}; log:\n{}",
        server.log()
    );
    let log = server.log();
    assert!(log.contains(logged), "no {logged:?} in the log:\n{log}");
    assert!(
        log.contains(" stopped"),
        "no \"stopped\" in the log:\n{log}"
    );

    // Gone for good: nothing listens on its ports any more.
    for addr in [server.addr, server.metrics] {
        match TcpStream::connect(addr) {
            Err(error) => assert_eq!(error.kind(), ErrorKind::ConnectionRefused, "{addr}"),
            Ok(_) => panic!("{addr} still accepts connections after the server exited"),
        }
    }
}

/// SIGTERM (what service managers send): every request read is answered, in
/// order, then the server exits with status 0.
#[test]
fn sigterm_answers_every_request_read_then_exits_cleanly() {
    answers_what_it_read_then_exits_on("TERM", "SIGTERM received");
}

/// SIGINT (Ctrl-C): the same graceful shutdown as SIGTERM.
#[test]
fn sigint_answers_every_request_read_then_exits_cleanly() {
    answers_what_it_read_then_exits_on("INT", "SIGINT received");
}

/// Starts a server with `extra` flags and a client that pipelines hard
/// puzzles and never reads its replies, so that a graceful shutdown cannot
/// finish; returns both once the server has read requests it cannot answer
/// (the client's socket is kept open by the returned stream).
fn server_with_a_client_that_never_reads(extra: &[&str]) -> (Server, TcpStream) {
    let server = Server::start_with(extra);
    let puzzles = puzzles();
    let stream = server.connect();
    let mut writer = stream.try_clone().unwrap();
    // Long ids make the replies far more than the kernel's socket buffers
    // hold, so that some are still in the server when it gives up.
    let long = "i".repeat(1_000);
    let mut batch = String::new();
    for id in 0..REQUESTS {
        batch.push_str(&format!("{long}{id}:{}\r\n", puzzles[id % puzzles.len()]));
    }
    writer.write_all(batch.as_bytes()).unwrap();
    let deadline = Instant::now() + START_TIMEOUT;
    while server.counter("requests_total") < REQUESTS as u64 {
        assert!(Instant::now() < deadline, "the batch was not read in time");
        std::thread::sleep(Duration::from_millis(5));
    }
    (server, stream)
}

/// A client that never reads cannot hold the shutdown beyond
/// `--shutdown-grace`: the server then closes it, logs how many requests
/// went unanswered, and exits with status 1.
#[test]
fn the_shutdown_grace_bounds_a_client_that_never_reads() {
    let (mut server, _client) = server_with_a_client_that_never_reads(&["--shutdown-grace", "1"]);
    server.signal("TERM");
    let status = server.wait(EXIT_TIMEOUT);
    let log = server.log();
    assert_eq!(status.code(), Some(1), "log:\n{log}");
    assert!(log.contains("shutdown grace expired"), "log:\n{log}");
    let unanswered = log
        .lines()
        .find(|line| line.contains("stopped before every request was answered"))
        .and_then(|line| field(line, "unanswered"))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no count of unanswered requests in the log:\n{log}"));
    assert!(
        unanswered > 0 && unanswered <= REQUESTS as u64,
        "{unanswered}"
    );
}

/// A second signal ends a shutdown that is waiting on a client at once,
/// however long the grace.
#[test]
fn a_second_signal_ends_the_shutdown_at_once() {
    let (mut server, _client) =
        server_with_a_client_that_never_reads(&["--shutdown-grace", "3600"]);
    server.signal("TERM");
    let deadline = Instant::now() + START_TIMEOUT;
    while !server.log().contains("shutting down") {
        assert!(Instant::now() < deadline, "no shutdown logged");
        std::thread::sleep(Duration::from_millis(10));
    }
    server.signal("INT");
    let status = server.wait(EXIT_TIMEOUT);
    let log = server.log();
    assert_eq!(status.code(), Some(1), "log:\n{log}");
    assert!(log.contains("second signal"), "log:\n{log}");
}
