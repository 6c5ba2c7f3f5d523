//! The hostile clients, one function per scenario. Each reproduces a way of
//! using the service that once grew its memory, held its workers, or kept
//! its connections busy; all run at once for the whole soak, bounded in
//! count and bytes, and stop sending by themselves at [`Soak::end`]. The
//! connections that are still open then stay open (as a real client's
//! would) until [`Soak::held`] lets them go, after the server's shutdown.

use std::net::Ipv4Addr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::net::{connect, source, Failure, STALL};
use crate::puzzles::SLIDE_80;
use crate::tally::{Reply, Scenario};
use crate::wire::{lines_in, write_progressing, Lines};
use crate::Soak;

/// Connections sending long ids.
const LONG_ID_CONNECTIONS: usize = 3;
/// Lines each sends at most.
const LONG_ID_LINES: usize = 20_000;
/// Bytes of each id (the server echoes it in front of the reply).
const LONG_ID_BYTES: usize = 64_000;

/// Connections sending padded lines; the first half read slowly, the rest
/// never.
const PADDED_CONNECTIONS: usize = 4;
/// Lines each sends at most.
const PADDED_LINES: usize = 10_000;
/// Bytes of trailing text after each puzzle.
const PADDING_BYTES: usize = 60_000;
/// Bytes a slow reader reads a second.
const SLOW_READ_BYTES: usize = 1024;

/// Connections pipelining 36×36 puzzles.
const GRID36_CONNECTIONS: usize = 2;
/// Connections pipelining 25×25 puzzles.
const GRID25_CONNECTIONS: usize = 1;
/// Large puzzles sent together, before reading their replies.
const GRID_BATCH: usize = 8;
/// Batches of large puzzles a connection sends at most.
const GRID_ROUNDS: usize = 200;
/// 80-move 15-puzzles sent at most, one after the other's reply.
const SLIDE_ROUNDS: usize = 50;

/// Hard 9×9 puzzles pipelined on a connection that then leaves.
const ABANDON_LINES: usize = 10_000;
/// How often a new abandoning connection comes.
const ABANDON_EVERY: Duration = Duration::from_secs(10);
/// How long it waits after sending before it disconnects.
const ABANDON_AFTER: Duration = Duration::from_millis(100);

/// Connection attempts under way at once while a flood opens.
const FLOOD_CONNECTING: usize = 128;
/// Source hosts a flood's connections come from.
const FLOOD_HOSTS: usize = 100;

/// Well-behaved heavy connections.
const PIPELINE_CONNECTIONS: usize = 128;
/// Hard 9×9 puzzles each sends together before reading their replies.
const PIPELINE_DEPTH: usize = 1000;
/// Batches each sends at most.
const PIPELINE_ROUNDS: usize = 10_000;
/// Source hosts the heavy connections come from.
const PIPELINE_HOSTS: usize = 16;

/// Pause before the next batch after a `ServerTooBusy` reply: the
/// well-behaved clients back off rather than spin on refusals.
const BUSY_BACK_OFF: Duration = Duration::from_secs(1);

/// Pause before reconnecting after a connection failed.
const RECONNECT_PAUSE: Duration = Duration::from_secs(1);

/// A hostile scenario: its name in the report, its sizes as a phrase, and
/// its counters.
pub struct Hostile {
    /// The name in the report and the JSON.
    pub name: &'static str,
    /// What it does, in a few words, with its sizes.
    pub what: String,
    /// What its connections saw.
    pub tally: Arc<Scenario>,
}

/// Every scenario, with its client tasks spawned on `tasks`.
pub fn spawn_all(soak: &Arc<Soak>, tasks: &mut JoinSet<()>) -> Vec<Hostile> {
    let mut all = Vec::new();
    let mut add = |name, what: String| {
        let tally = Arc::new(Scenario::default());
        all.push(Hostile {
            name,
            what,
            tally: Arc::clone(&tally),
        });
        (Arc::clone(soak), tally)
    };
    let (s, t) = add(
        "long_ids",
        format!("{LONG_ID_CONNECTIONS} conns × ≤{LONG_ID_LINES} lines of a {LONG_ID_BYTES}-byte id + 9×9, never read"),
    );
    for c in 0..LONG_ID_CONNECTIONS {
        tasks.spawn(long_ids(Arc::clone(&s), Arc::clone(&t), c));
    }
    let (s, t) = add(
        "padded",
        format!("{PADDED_CONNECTIONS} conns × ≤{PADDED_LINES} 9×9 + {PADDING_BYTES} bytes of trailing text; half read {SLOW_READ_BYTES} B/s, half never"),
    );
    for c in 0..PADDED_CONNECTIONS {
        tasks.spawn(padded(Arc::clone(&s), Arc::clone(&t), c));
    }
    let (s, t) = add(
        "grid36",
        format!("{GRID36_CONNECTIONS} conns pipelining {GRID_BATCH} random 36×36 at a time (1 in 4 with a wrong clue)"),
    );
    for c in 0..GRID36_CONNECTIONS {
        let batch = move |soak: &Soak, round: usize| {
            let set = &soak.puzzles.grid36;
            batch_of(GRID_BATCH, |i| {
                format!(
                    "g{c}-{round}-{i}:{}",
                    set[(round * GRID_BATCH + i) % set.len()]
                )
            })
        };
        tasks.spawn(pipelined(
            Arc::clone(&s),
            Arc::clone(&t),
            source(3, c),
            GRID_ROUNDS,
            batch,
        ));
    }
    let (s, t) = add(
        "grid25",
        format!("{GRID25_CONNECTIONS} conn pipelining {GRID_BATCH} random 25×25 at a time (1 in 4 with a wrong clue)"),
    );
    for c in 0..GRID25_CONNECTIONS {
        let batch = move |soak: &Soak, round: usize| {
            let set = &soak.puzzles.grid25;
            batch_of(GRID_BATCH, |i| {
                format!(
                    "f{c}-{round}-{i}:{}",
                    set[(round * GRID_BATCH + i) % set.len()]
                )
            })
        };
        tasks.spawn(pipelined(
            Arc::clone(&s),
            Arc::clone(&t),
            source(3, 10 + c),
            GRID_ROUNDS,
            batch,
        ));
    }
    let (s, t) = add(
        "slide80",
        "1 conn sending the 80-move 15-puzzle, the next after each reply".to_string(),
    );
    let batch = |_: &Soak, round: usize| batch_of(1, |_| format!("s{round}:{SLIDE_80}"));
    tasks.spawn(pipelined(s, t, source(3, 20), SLIDE_ROUNDS, batch));
    let (s, t) = add(
        "abandoned",
        format!(
            "every {}s a conn pipelines {ABANDON_LINES} hard 9×9 and disconnects unread",
            ABANDON_EVERY.as_secs()
        ),
    );
    tasks.spawn(abandoned(s, t));
    let (s, t) = add(
        "idle",
        format!("{} idle conns from {FLOOD_HOSTS} hosts, held", soak.idle),
    );
    tasks.spawn(flood(s, t, 5, soak.idle, false));
    let (s, t) = add(
        "slowloris",
        format!(
            "{} conns sending 1 byte/s of an endless line",
            soak.slowloris
        ),
    );
    tasks.spawn(flood(s, t, 6, soak.slowloris, true));
    let (s, t) = add(
        "pipelined",
        format!("{PIPELINE_CONNECTIONS} conns × {PIPELINE_DEPTH} pipelined hard 9×9, replies read, repeated (1 s back-off after a busy reply)"),
    );
    for c in 0..PIPELINE_CONNECTIONS {
        let batch = move |soak: &Soak, round: usize| {
            let set = &soak.puzzles.hard9;
            batch_of(PIPELINE_DEPTH, |i| {
                format!(
                    "q{c}-{round}-{i}:{}",
                    set[(c * 7 + round * PIPELINE_DEPTH + i) % set.len()]
                )
            })
        };
        let from = source(7, c % PIPELINE_HOSTS);
        tasks.spawn(pipelined(
            Arc::clone(&s),
            Arc::clone(&t),
            from,
            PIPELINE_ROUNDS,
            batch,
        ));
    }
    all
}

/// `count` request lines made by `line`, each ended by `\n`.
fn batch_of(count: usize, line: impl Fn(usize) -> String) -> Vec<u8> {
    let mut bytes = Vec::new();
    for i in 0..count {
        bytes.extend_from_slice(line(i).as_bytes());
        bytes.push(b'\n');
    }
    bytes
}

/// Sends one line, counting it once written in full.
async fn send_line<W: AsyncWrite + Unpin>(
    writer: &mut W,
    line: &[u8],
    tally: &Scenario,
) -> Result<(), Failure> {
    write_progressing(writer, line).await.map_err(|(_, f)| f)?;
    tally.sent(1, line.len());
    Ok(())
}

/// Scenario 1, one connection: lines `<64 KB id>:<9×9>` as fast as the
/// server takes them, replies never read. Every reply echoes its id, so a
/// server that keeps unsent replies holds 64 KB per request.
async fn long_ids(soak: Arc<Soak>, tally: Arc<Scenario>, c: usize) {
    let connected = connect(source(1, c), soak.addr).await;
    tally.connected(&connected);
    let Ok(mut stream) = connected else { return };
    let mut line = vec![b'i'; LONG_ID_BYTES];
    for n in 0..LONG_ID_LINES {
        if !soak.sending() {
            break;
        }
        line.truncate(LONG_ID_BYTES);
        let tag = format!("{c}-{n}-");
        line[..tag.len()].copy_from_slice(tag.as_bytes());
        line.push(b':');
        line.extend_from_slice(soak.puzzles.hard9[n % soak.puzzles.hard9.len()].as_bytes());
        line.push(b'\n');
        if let Err(failure) = send_line(&mut stream, &line, &tally).await {
            tally.lost(failure);
            break;
        }
    }
    soak.held().await;
    tally.ended();
}

/// Scenario 2, one connection: 9×9 puzzles each followed by a space and
/// 60 KB of text (which the protocol ignores), replies read slowly
/// (`c` in the first half) or never.
async fn padded(soak: Arc<Soak>, tally: Arc<Scenario>, c: usize) {
    let connected = connect(source(2, c), soak.addr).await;
    tally.connected(&connected);
    let Ok(stream) = connected else { return };
    let (reader, mut writer) = stream.into_split();
    let reading = (c < PADDED_CONNECTIONS / 2).then(|| {
        let (soak, tally) = (Arc::clone(&soak), Arc::clone(&tally));
        tokio::spawn(async move { read_slowly(reader, &soak, &tally).await })
    });
    let padding: Vec<u8> = b"trailing text is ignored "
        .iter()
        .copied()
        .cycle()
        .take(PADDING_BYTES)
        .collect();
    let mut line = Vec::with_capacity(PADDING_BYTES + 128);
    for n in 0..PADDED_LINES {
        if !soak.sending() {
            break;
        }
        line.clear();
        let puzzle = &soak.puzzles.hard9[n % soak.puzzles.hard9.len()];
        line.extend_from_slice(format!("{c}-{n}:{puzzle} ").as_bytes());
        line.extend_from_slice(&padding);
        line.push(b'\n');
        if let Err(failure) = send_line(&mut writer, &line, &tally).await {
            tally.lost(failure);
            break;
        }
    }
    soak.held().await;
    if let Some(task) = reading {
        let _ = task.await;
    }
    tally.ended();
}

/// Reads [`SLOW_READ_BYTES`] a second until released or the server ends
/// the connection, counting the reply lines.
async fn read_slowly<R: AsyncRead + Unpin>(mut reader: R, soak: &Soak, tally: &Scenario) {
    let mut chunk = vec![0u8; SLOW_READ_BYTES];
    let mut partial = Vec::new();
    loop {
        let read = async {
            tokio::time::sleep(Duration::from_secs(1)).await;
            reader.read(&mut chunk).await
        };
        let n = tokio::select! {
            () = soak.released() => return,
            read = read => match read {
                Ok(0) => return tally.lost(Failure::Closed),
                Ok(n) => n,
                Err(error) => return tally.lost(Failure::of(&error)),
            },
        };
        partial.extend_from_slice(&chunk[..n]);
        count_lines(&mut partial, true, tally);
    }
}

/// Counts the complete reply lines at the front of `bytes` and drops them.
fn count_lines(bytes: &mut Vec<u8>, ids: bool, tally: &Scenario) {
    let mut start = 0;
    while let Some(offset) = bytes[start..].iter().position(|&b| b == b'\n') {
        let line = &bytes[start..start + offset];
        tally.reply(Reply::of(line.strip_suffix(b"\r").unwrap_or(line), ids));
        start += offset + 1;
    }
    bytes.drain(..start);
}

/// Scenarios 3 and 7, one connection: sends `batch(round)` and reads its
/// replies, round after round (pausing [`BUSY_BACK_OFF`] after a batch that
/// got `ServerTooBusy`), reconnecting after a failure, until sending time is
/// over or `rounds` are done.
async fn pipelined(
    soak: Arc<Soak>,
    tally: Arc<Scenario>,
    from: Ipv4Addr,
    rounds: usize,
    batch: impl Fn(&Soak, usize) -> Vec<u8>,
) {
    let mut stream: Option<TcpStream> = None;
    for round in 0..rounds {
        if !soak.sending() {
            break;
        }
        let mut open = match stream.take() {
            Some(open) => open,
            None => {
                let connected = connect(from, soak.addr).await;
                tally.connected(&connected);
                match connected {
                    Ok(open) => open,
                    Err(_) => {
                        tokio::time::sleep(RECONNECT_PAUSE).await;
                        continue;
                    }
                }
            }
        };
        match exchange(&mut open, &batch(&soak, round), &soak, &tally).await {
            Ok(busy) => {
                stream = Some(open);
                if busy {
                    tokio::time::sleep(BUSY_BACK_OFF).await;
                }
            }
            Err(failure) => {
                tally.lost(failure);
                tally.ended();
                tokio::time::sleep(RECONNECT_PAUSE).await;
            }
        }
    }
    if stream.is_some() {
        soak.held().await;
        tally.ended();
    }
}

/// Writes `batch` while reading its replies, until every reply came or
/// sending time is over; whether any reply was `ServerTooBusy`.
async fn exchange(
    stream: &mut TcpStream,
    batch: &[u8],
    soak: &Soak,
    tally: &Scenario,
) -> Result<bool, Failure> {
    let expected = lines_in(batch);
    let (reader, mut writer) = stream.split();
    let write = async {
        let result = write_progressing(&mut writer, batch).await;
        let written = result.as_ref().map_or_else(|&(n, _)| n, |()| batch.len());
        tally.sent(lines_in(&batch[..written]), written);
        result.map_err(|(_, f)| f)
    };
    let read = async {
        let mut lines = Lines::new(reader);
        let mut busy = false;
        for _ in 0..expected {
            match tokio::time::timeout_at(soak.end.into(), lines.next()).await {
                Err(_) => break,
                Ok(Ok(line)) => {
                    let kind = Reply::of(&line, true);
                    busy |= kind == Reply::Busy;
                    tally.reply(kind);
                }
                Ok(Err(failure)) => return Err(failure),
            }
        }
        Ok(busy)
    };
    let (written, read) = tokio::join!(write, read);
    written.and(read)
}

/// Scenario 4: every [`ABANDON_EVERY`], a connection pipelines
/// [`ABANDON_LINES`] hard 9×9 puzzles and disconnects without reading: work
/// nobody will take.
async fn abandoned(soak: Arc<Soak>, tally: Arc<Scenario>) {
    let set = &soak.puzzles.hard9;
    let batch = batch_of(ABANDON_LINES, |i| format!("a{i}:{}", set[i % set.len()]));
    let rounds = (soak.seconds / ABANDON_EVERY.as_secs_f64()).ceil() as usize;
    for round in 0..rounds {
        let started = Instant::now();
        if !soak.sending() {
            break;
        }
        let connected = connect(source(4, round), soak.addr).await;
        tally.connected(&connected);
        if let Ok(mut stream) = connected {
            let result = write_progressing(&mut stream, &batch).await;
            let written = result.as_ref().map_or_else(|&(n, _)| n, |()| batch.len());
            tally.sent(lines_in(&batch[..written]), written);
            tokio::time::sleep(ABANDON_AFTER).await;
            drop(stream);
            if let Err((_, failure)) = result {
                tally.lost(failure);
            }
            tally.ended();
        }
        tokio::time::sleep_until((started + ABANDON_EVERY).into()).await;
    }
}

/// Scenarios 5 and 6: `count` connections from [`FLOOD_HOSTS`] hosts,
/// opened as fast as the server accepts them (a failed attempt is tried
/// again a second later while sending time lasts), held until released;
/// with `drip`, each sends one byte a second of a line that never ends.
async fn flood(soak: Arc<Soak>, tally: Arc<Scenario>, scenario: u8, count: usize, drip: bool) {
    let connecting = Arc::new(Semaphore::new(FLOOD_CONNECTING));
    let mut held = JoinSet::new();
    for i in 0..count {
        if !soak.sending() {
            break;
        }
        let Ok(permit) = Arc::clone(&connecting).acquire_owned().await else {
            break;
        };
        let (soak, tally) = (Arc::clone(&soak), Arc::clone(&tally));
        held.spawn(async move {
            let mut permit = Some(permit);
            while soak.sending() {
                let connected = connect(source(scenario, i % FLOOD_HOSTS), soak.addr).await;
                permit.take();
                tally.connected(&connected);
                if let Ok(stream) = connected {
                    hold_open(stream, &soak, &tally, drip).await;
                    tally.ended();
                    return;
                }
                tokio::time::sleep(RECONNECT_PAUSE).await;
            }
        });
    }
    while held.join_next().await.is_some() {}
}

/// Holds one flood connection until released, reading whatever the server
/// sends and, with `drip`, sending a byte a second while sending time
/// lasts, until released or the server ends it.
async fn hold_open(stream: TcpStream, soak: &Soak, tally: &Scenario, drip: bool) {
    let (mut reader, mut writer) = stream.into_split();
    let mut received = Vec::new();
    let mut chunk = [0u8; 256];
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut dripping = drip;
    loop {
        tokio::select! {
            () = soak.released() => return,
            read = reader.read(&mut chunk) => match read {
                Ok(0) => return tally.lost(Failure::Closed),
                Ok(n) => {
                    received.extend_from_slice(&chunk[..n]);
                    count_lines(&mut received, false, tally);
                }
                Err(error) => return tally.lost(Failure::of(&error)),
            },
            _ = tick.tick(), if dripping => {
                if !soak.sending() {
                    dripping = false;
                    continue;
                }
                match tokio::time::timeout(STALL, writer.write_all(b"1")).await {
                    Ok(Ok(())) => tally.sent(0, 1),
                    Ok(Err(error)) => return tally.lost(Failure::of(&error)),
                    Err(_) => return tally.lost(Failure::TimedOut),
                }
            },
        }
    }
}
