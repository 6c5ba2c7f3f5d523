//! `sudokit serve` and `sudokit load` through the real binary: the address
//! forms both accept (`HOST:PORT`, `localhost:PORT`, `[::1]:PORT`, `:PORT`
//! for 127.0.0.1), usage errors that name a malformed or unresolvable
//! address, a port in use or a refused connection reported with the address
//! and the system's error once, and the log's colours under `--color`.
//!
//! Servers listen on ports the kernel chooses (`:0`), on loopback only; the
//! log says which. Each is stopped with SIGTERM (or killed on drop when a
//! test fails) and exits at once, having no client left.

#![cfg(unix)]

mod common;

use std::fs::File;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{error_line, strip_ansi};

/// How long a server may take to start, or to exit after SIGTERM, before
/// the test gives up (a guard against hanging, not a measurement).
const PATIENCE: Duration = Duration::from_secs(30);

/// A running `sudokit serve` whose standard error goes to a file, killed on
/// drop so that a failing test never leaves a server behind.
struct Server {
    /// The server process.
    child: Child,
    /// The file its log goes to.
    log: PathBuf,
    /// The address it reports serving on.
    addr: SocketAddr,
}

impl Server {
    /// Starts `sudokit serve` with `args` (one worker, no warm-up), standard
    /// error into a file of its own (named after `name`), and waits for the
    /// log's `serving addr=…` line.
    fn start(name: &str, args: &[&str]) -> Server {
        let log = std::env::temp_dir().join(format!(
            "sudokit-serve-addresses-{}-{name}.log",
            std::process::id()
        ));
        let child = Command::new(env!("CARGO_BIN_EXE_sudokit"))
            .arg("serve")
            .args(["--no-warm-up", "--threads", "1", "--io-threads", "1"])
            .args(args)
            .env_remove("NO_COLOR")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(&log).expect("a log file"))
            .spawn()
            .expect("the binary runs");
        let mut server = Server {
            child,
            log,
            addr: SocketAddr::from(([0, 0, 0, 0], 0)),
        };
        let deadline = Instant::now() + PATIENCE;
        server.addr = loop {
            let text = strip_ansi(&server.log());
            let addr = text
                .lines()
                .find(|line| line.contains(" serving "))
                .and_then(|line| line.split("addr=").nth(1))
                .and_then(|rest| rest.split(' ').next())
                .and_then(|addr| addr.parse().ok());
            if let Some(addr) = addr {
                break addr;
            }
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("the server exited ({status}); log:\n{text}");
            }
            assert!(Instant::now() < deadline, "no `serving` line; log:\n{text}");
            std::thread::sleep(Duration::from_millis(20));
        };
        server
    }

    /// The log so far, as text.
    fn log(&self) -> String {
        String::from_utf8_lossy(&std::fs::read(&self.log).unwrap_or_default()).into_owned()
    }

    /// Sends SIGTERM, waits for the exit (status 0: nothing was pending),
    /// and returns the whole log.
    fn stop(mut self) -> String {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill failed: {status}");
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "no exit after SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        };
        let log = self.log();
        assert!(status.success(), "exit status {status}; log:\n{log}");
        log
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// The repository's example file of famous 9×9 puzzles.
fn famous() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/famous-9x9.txt")
}

/// Runs `sudokit` with `args` to completion.
fn sudokit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudokit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Runs `sudokit load --addr ADDR` with one pass over the famous puzzles and
/// checks that every answer was right.
fn load_passes(addr: &str) {
    let output = sudokit(&["load", "--addr", addr, famous().to_str().unwrap()]);
    assert!(
        output.status.success(),
        "load --addr {addr}: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Whether `bytes` hold an ANSI escape sequence.
fn has_escape(bytes: &[u8]) -> bool {
    bytes.windows(2).any(|w| w == b"\x1b[")
}

#[test]
fn a_bare_port_means_the_ipv4_loopback_for_serve_and_load() {
    let server = Server::start("bare", &["--listen", ":0"]);
    assert_eq!(server.addr.ip().to_string(), "127.0.0.1");
    let port = server.addr.port();
    load_passes(&format!(":{port}"));
    load_passes(&format!("127.0.0.1:{port}"));
    load_passes(&format!("localhost:{port}"));
    server.stop();
}

#[test]
fn localhost_is_resolved_for_serve() {
    let server = Server::start("localhost", &["--listen", "localhost:0"]);
    assert_eq!(server.addr.ip().to_string(), "127.0.0.1");
    load_passes(&format!(":{}", server.addr.port()));
    server.stop();
}

#[test]
fn a_bracketed_ipv6_address_works_for_serve_and_load() {
    // A machine without IPv6 cannot listen on [::1]; nothing to check there.
    if TcpListener::bind("[::1]:0").is_err() {
        eprintln!("no IPv6 loopback here; skipped");
        return;
    }
    let server = Server::start("ipv6", &["--listen", "[::1]:0"]);
    assert_eq!(server.addr.ip().to_string(), "::1");
    load_passes(&format!("[::1]:{}", server.addr.port()));
    server.stop();
}

#[test]
fn the_metrics_address_takes_the_same_forms() {
    let server = Server::start("metrics", &["--listen", ":0", "--metrics", ":0"]);
    let log = server.stop();
    assert!(log.contains("metrics at http://127.0.0.1:"), "{log}");
}

#[test]
fn a_malformed_or_unresolvable_address_is_a_usage_error_naming_it() {
    for (flag, value, says) in [
        ("--listen", "127.0.0.1", "no port"),
        ("--listen", "localhost:http", "port 'http'"),
        ("--listen", ":65536", "port '65536'"),
        ("--listen", "::1:9981", "brackets"),
        (
            "--metrics",
            "no-such-host.invalid:9982",
            "cannot resolve host",
        ),
    ] {
        let output = sudokit(&["serve", flag, value]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(2),
            "serve {flag} {value}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("'{value}'")) && stderr.contains(says),
            "serve {flag} {value}: {stderr}"
        );
    }
    let output = sudokit(&["load", "--addr", "no-such-host.invalid:9981", "x"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("'no-such-host.invalid:9981'"), "{stderr}");
}

#[test]
fn a_port_in_use_is_named_with_the_system_error_once() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    for args in [
        vec!["--listen".to_string(), format!(":{}", addr.port())],
        vec![
            "--listen".to_string(),
            ":0".to_string(),
            "--metrics".to_string(),
            addr.to_string(),
        ],
    ] {
        let mut all = vec!["serve", "--no-warm-up"];
        all.extend(args.iter().map(String::as_str));
        let output = sudokit(&all);
        assert_eq!(output.status.code(), Some(2));
        let line = error_line(&output);
        assert!(
            line.starts_with(&format!("sudokit: error: cannot listen on {addr}")),
            "{line}"
        );
        assert!(line.contains("Address already in use"), "{line}");
        assert_eq!(line.matches("os error").count(), 1, "{line}");
    }
}

#[test]
fn a_refused_connection_names_the_address() {
    let addr = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let output = sudokit(&[
        "load",
        "--addr",
        &format!(":{}", addr.port()),
        famous().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let line = error_line(&output);
    assert!(
        line.starts_with(&format!("sudokit: error: cannot connect to {addr}: ")),
        "{line}"
    );
    assert_eq!(line.matches("os error").count(), 1, "{line}");
}

#[test]
fn the_log_in_a_file_has_no_colour_unless_asked() {
    let plain = Server::start("auto", &["--listen", ":0"]).stop();
    assert!(!has_escape(plain.as_bytes()), "{plain}");
    assert!(plain.contains(" serving "), "{plain}");
    let coloured = Server::start("always", &["--listen", ":0", "--color", "always"]).stop();
    assert!(has_escape(coloured.as_bytes()), "{coloured}");
}

#[test]
fn load_reads_operands_as_every_command_and_prints_one_record() {
    let server = Server::start("load-record", &["--listen", ":0"]);
    let addr = server.addr.to_string();
    let famous = famous();
    let out = sudokit(&[
        "load",
        "--addr",
        &addr,
        "--format",
        "jsonl",
        famous.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    let line = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        line.starts_with(
            "{\"number\":1,\"id\":null,\"puzzle\":null,\"box\":null,\"status\":\"passed\""
        ),
        "{line}"
    );
    assert_eq!(record["wrong"], 0);
    assert_eq!(record["sent"], record["ok"]);
    // An inline puzzle operand, and CSV.
    let nine = "000704005020010070000080002090006250600070008053200010400090000030060090200407000";
    let out = sudokit(&["load", "--addr", &addr, "--format", "csv", nine]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("number,id,puzzle,box,status,sent,ok,"));
    assert!(
        lines.next().unwrap().starts_with("1,,,,passed,1,1,0,"),
        "{text}"
    );
    // A missing file is refused before any request, naming it.
    let out = sudokit(&["load", "--addr", &addr, "nosuch.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open nosuch.txt"));
    server.stop();
}
