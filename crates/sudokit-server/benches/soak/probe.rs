//! The well-behaved user, measured while the hostile clients run: one
//! persistent connection asking a 9×9 puzzle every 50 ms, and a new
//! connection every 500 ms asking one. Every answer is checked; no answer
//! within 5 s, a refused or reset connection, `ServerTooBusy` or a wrong
//! answer is a failed request.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::task::JoinSet;

use crate::net::{connect, Failure};
use crate::puzzles::solves;
use crate::tally::{Probe, ProbeFailure, Reply};
use crate::wire::{write_progressing, Lines};
use crate::Soak;

/// How often the persistent connection asks.
pub const PERSISTENT_EVERY: Duration = Duration::from_millis(50);

/// How often a new connection asks.
pub const FRESH_EVERY: Duration = Duration::from_millis(500);

/// How long a probe request may take before it counts as failed.
pub const LIMIT: Duration = Duration::from_secs(5);

/// The probe's source address: the one real user.
const FROM: Ipv4Addr = Ipv4Addr::LOCALHOST;

/// An open probe connection.
struct Open {
    /// Reply lines.
    lines: Lines<OwnedReadHalf>,
    /// Where requests go.
    writer: OwnedWriteHalf,
}

/// Asks `puzzle` as request `id` on `open` and waits for the reply that
/// carries `id` (skipping late replies to earlier requests).
async fn ask(open: &mut Open, id: &str, puzzle: &str) -> Result<Vec<u8>, Failure> {
    let line = format!("{id}:{puzzle}\r\n");
    write_progressing(&mut open.writer, line.as_bytes())
        .await
        .map_err(|(_, f)| f)?;
    let prefix = format!("{id}:");
    loop {
        let reply = open.lines.next().await?;
        if let Some(answer) = reply.strip_prefix(prefix.as_bytes()) {
            return Ok(answer.to_vec());
        }
        if reply == b"ServerTooBusy" {
            return Ok(reply);
        }
    }
}

/// Records one answer to `puzzle`, `latency` after it was asked.
fn record(probe: &Probe, puzzle: &str, answer: &[u8], latency: Duration) {
    let text = String::from_utf8_lossy(answer);
    if solves(puzzle, &text) {
        probe.answered(latency);
    } else if Reply::of(answer, false) == Reply::Busy {
        probe.failed(ProbeFailure::Busy);
    } else {
        probe.failed(ProbeFailure::Wrong);
    }
}

/// The persistent connection: a puzzle every [`PERSISTENT_EVERY`] (or as
/// soon as the previous reply came, if later), reconnecting when the
/// connection fails, until sending time is over.
pub async fn persistent(soak: Arc<Soak>, probe: Arc<Probe>) {
    let mut every = tokio::time::interval(PERSISTENT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let rounds = (soak.seconds / PERSISTENT_EVERY.as_secs_f64()).ceil() as usize;
    let mut open: Option<Open> = None;
    for n in 0..rounds {
        every.tick().await;
        if !soak.sending() {
            break;
        }
        let puzzle = &soak.puzzles.hard9[n % soak.puzzles.hard9.len()];
        let started = Instant::now();
        let mut conn = match open.take() {
            Some(conn) => conn,
            None => match connect(FROM, soak.addr).await {
                Ok(stream) => {
                    let (reader, writer) = stream.into_split();
                    Open {
                        lines: Lines::new(reader),
                        writer,
                    }
                }
                Err(failure) => {
                    probe.failed(ProbeFailure::of(failure));
                    continue;
                }
            },
        };
        match tokio::time::timeout(LIMIT, ask(&mut conn, &format!("p{n}"), puzzle)).await {
            Ok(Ok(answer)) => {
                record(&probe, puzzle, &answer, started.elapsed());
                open = Some(conn);
            }
            Ok(Err(failure)) => probe.failed(ProbeFailure::of(failure)),
            Err(_) => {
                // The late reply is skipped by its id; the connection stays.
                probe.failed(ProbeFailure::TimedOut);
                open = Some(conn);
            }
        }
    }
}

/// A new connection every [`FRESH_EVERY`], each asking one puzzle; the
/// latency includes connecting.
pub async fn fresh(soak: Arc<Soak>, probe: Arc<Probe>) {
    let mut every = tokio::time::interval(FRESH_EVERY);
    let rounds = (soak.seconds / FRESH_EVERY.as_secs_f64()).ceil() as usize;
    let mut asking = JoinSet::new();
    for n in 0..rounds {
        every.tick().await;
        if !soak.sending() {
            break;
        }
        let (addr, probe) = (soak.addr, Arc::clone(&probe));
        let puzzle = soak.puzzles.hard9[(n * 31) % soak.puzzles.hard9.len()].clone();
        asking.spawn(async move { once(addr, &probe, n, &puzzle).await });
    }
    while asking.join_next().await.is_some() {}
}

/// One new connection asking `puzzle`.
async fn once(addr: SocketAddr, probe: &Probe, n: usize, puzzle: &str) {
    let started = Instant::now();
    let attempt = async {
        let stream = connect(FROM, addr).await?;
        let (reader, writer) = stream.into_split();
        let mut open = Open {
            lines: Lines::new(reader),
            writer,
        };
        ask(&mut open, &format!("n{n}"), puzzle).await
    };
    match tokio::time::timeout(LIMIT, attempt).await {
        Ok(Ok(answer)) => record(probe, puzzle, &answer, started.elapsed()),
        Ok(Err(failure)) => probe.failed(ProbeFailure::of(failure)),
        Err(_) => probe.failed(ProbeFailure::TimedOut),
    }
}
