//! The hunt over many seeds: units, shards, batches, the out file and the
//! checkpoint (see the [module docs](super)).

use std::collections::HashSet;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::checkpoint::Checkpoint;
use super::{removal_count, removals, unit_neighbours, UnitCounts};
use crate::canon::canonical_form;
use crate::solver::fast9::Fast9Solver;

/// One of `count` deterministic slices of a hunt: units `u` with
/// `u mod count == index`. Written `I/N` with `I` from 1 to `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Zero-based slice number.
    pub index: u64,
    /// Number of slices.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `I/N` with `1 ≤ I ≤ N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{text}' is not I/N with 1 <= I <= N");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// What to hunt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HuntOptions {
    /// Clues removed from a seed (`R`).
    pub remove: usize,
    /// Clues added (`A`).
    pub add: usize,
    /// Only puzzles with at least this many clues (seeds that cannot reach
    /// it are skipped whole).
    pub min_clues: usize,
    /// The slice of the hunt to run.
    pub shard: Shard,
    /// Units per batch: finds are checkpointed batch by batch.
    pub batch: usize,
}

/// Counts of a hunt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Units (seed × removal) done.
    pub units: u64,
    /// Candidate targets examined (solutions of reduced puzzles).
    pub candidates: u64,
    /// Unique puzzles built.
    pub unique: u64,
    /// Unique and minimal.
    pub minimal: u64,
    /// Minimal and new: no equivalent puzzle was in the out file, among the
    /// seeds, or found before.
    pub new: u64,
    /// Units skipped for too many solutions.
    pub skipped: u64,
}

impl Stats {
    fn add(&mut self, c: &UnitCounts) {
        self.units += 1;
        self.candidates += c.candidates;
        self.unique += c.unique;
        self.minimal += c.minimal;
        self.skipped += c.skipped;
    }
}

/// Where a hunt stands, reported after each batch.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Units of this shard done (including those of a resumed checkpoint).
    pub done: u64,
    /// Units of this shard in all.
    pub total: u64,
    /// Counts so far.
    pub stats: Stats,
    /// Time since this run started.
    pub elapsed: Duration,
    /// Units done by this run (not restored from a checkpoint).
    pub done_here: u64,
}

/// Why a hunt stopped.
#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        #[source]
        source: io::Error,
    },
    /// The checkpoint belongs to other seeds or options.
    #[error("{0}: checkpoint of another hunt (other seeds or options)")]
    Mismatch(PathBuf),
}

fn io_at(path: &Path) -> impl Fn(io::Error) -> HuntError + '_ {
    move |source| HuntError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// FNV-1a over the seeds and options: identifies a hunt in its checkpoint.
fn fingerprint(seeds: &[[u8; 81]], o: &HuntOptions) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let header = [
        o.remove as u64,
        o.add as u64,
        o.min_clues as u64,
        o.shard.index,
        o.shard.count,
    ];
    let bytes = seeds
        .iter()
        .flatten()
        .copied()
        .chain(header.iter().flat_map(|v| v.to_le_bytes()));
    for b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The clue cells of a seed.
fn clue_cells(seed: &[u8; 81]) -> Vec<u8> {
    (0..81u8).filter(|&k| seed[k as usize] != 0).collect()
}

/// This shard's units in order: (seed number, removed cells).
fn shard_units<'a>(
    seeds: &'a [[u8; 81]],
    o: &'a HuntOptions,
) -> impl Iterator<Item = (usize, Vec<u8>)> + 'a {
    seeds
        .iter()
        .enumerate()
        .filter(|(_, s)| clue_cells(s).len() + o.add >= o.min_clues + o.remove)
        .flat_map(move |(i, s)| {
            let clues = clue_cells(s);
            let all: Vec<_> = removals(&clues, o.remove).map(|r| (i, r)).collect();
            all
        })
        .enumerate()
        .filter(|(u, _)| *u as u64 % o.shard.count == o.shard.index)
        .map(|(_, unit)| unit)
}

/// The out file and the canonical forms seen so far.
struct Sink {
    file: File,
    seen: HashSet<[u8; 81]>,
}

impl Sink {
    /// Records a find; `true` when it is new (and then written and flushed).
    fn offer(&mut self, puzzle: &[u8; 81]) -> io::Result<bool> {
        if !self.seen.insert(canonical_form(puzzle)) {
            return Ok(false);
        }
        let mut line: Vec<u8> = puzzle
            .iter()
            .map(|&v| if v == 0 { b'.' } else { b'0' + v })
            .collect();
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.flush()?;
        Ok(true)
    }
}

/// Opens the out file for appending after cutting it to `keep` bytes (when
/// resuming), and reads the canonical forms of the puzzles already in it.
fn open_sink(out: &Path, keep: Option<u64>) -> io::Result<Sink> {
    let mut file = OpenOptions::new()
        .read(true)
        .create(true)
        .append(true)
        .open(out)?;
    if let Some(len) = keep {
        file.set_len(len)?;
    }
    let mut text = Vec::new();
    file.read_to_end(&mut text)?;
    let seen = text
        .split(|&b| b == b'\n')
        .filter_map(|line| {
            let cells: Vec<u8> = line
                .iter()
                .take(81)
                .map(|&b| match b {
                    b'1'..=b'9' => b - b'0',
                    _ => 0,
                })
                .collect();
            <[u8; 81]>::try_from(cells).ok().map(|c| canonical_form(&c))
        })
        .collect();
    Ok(Sink { file, seen })
}

/// Runs (or, with `resume`, continues) a hunt over `seeds`, appending new
/// finds to `out` and checkpointing to `checkpoint`; `progress` hears after
/// every batch. Returns the counts of the whole shard.
pub fn run(
    seeds: &[[u8; 81]],
    options: &HuntOptions,
    out: &Path,
    checkpoint: &Path,
    resume: bool,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<Stats, HuntError> {
    let start = Instant::now();
    let print = fingerprint(seeds, options);
    let restored = if resume {
        Checkpoint::load(checkpoint).map_err(io_at(checkpoint))?
    } else {
        None
    };
    if restored.as_ref().is_some_and(|c| c.fingerprint != print) {
        return Err(HuntError::Mismatch(checkpoint.to_path_buf()));
    }
    let (mut done, mut stats) = restored
        .as_ref()
        .map_or((0, Stats::default()), |c| (c.done, c.stats));
    let mut sink = open_sink(out, restored.as_ref().map(|c| c.out_len)).map_err(io_at(out))?;
    for seed in seeds {
        sink.seen.insert(canonical_form(seed));
    }
    let total = shard_units(seeds, options).count() as u64;
    let units: Vec<(usize, Vec<u8>)> = shard_units(seeds, options).skip(done as usize).collect();
    let sink = Mutex::new(sink);
    let first = done;
    for batch in units.chunks(options.batch.max(1)) {
        let results: Vec<io::Result<(UnitCounts, u64)>> = batch
            .par_iter()
            .map_init(Fast9Solver::new, |solver, (i, removed)| {
                let (finds, counts) = unit_neighbours(solver, &seeds[*i], removed, options.add);
                let mut new = 0;
                for find in &finds {
                    let mut sink = sink.lock().unwrap_or_else(|e| e.into_inner());
                    new += sink.offer(find)? as u64;
                }
                Ok((counts, new))
            })
            .collect();
        for result in results {
            let (counts, new) = result.map_err(io_at(out))?;
            stats.add(&counts);
            stats.new += new;
        }
        done += batch.len() as u64;
        let out_len = {
            let sink = sink.lock().unwrap_or_else(|e| e.into_inner());
            sink.file.metadata().map_err(io_at(out))?.len()
        };
        let record = Checkpoint {
            fingerprint: print,
            done,
            out_len,
            stats,
        };
        record.save(checkpoint).map_err(io_at(checkpoint))?;
        progress(&Progress {
            done,
            total,
            stats,
            elapsed: start.elapsed(),
            done_here: done - first,
        });
    }
    Ok(stats)
}

/// The whole {−R+A} neighbourhood of one seed in memory, on every core:
/// the minimal finds (in unit order, equivalent ones kept) and the counts,
/// `new` counting distinct canonical forms other than the seed's.
pub fn neighbourhood(seed: &[u8; 81], remove: usize, add: usize) -> (Vec<[u8; 81]>, Stats) {
    let clues = clue_cells(seed);
    let units: Vec<Vec<u8>> = removals(&clues, remove).collect();
    debug_assert_eq!(units.len() as u64, removal_count(clues.len(), remove));
    let results: Vec<_> = units
        .par_iter()
        .map_init(Fast9Solver::new, |solver, removed| {
            unit_neighbours(solver, seed, removed, add)
        })
        .collect();
    let mut stats = Stats::default();
    let mut finds = Vec::new();
    for (f, c) in results {
        stats.add(&c);
        finds.extend(f);
    }
    let mut seen: HashSet<[u8; 81]> = finds.par_iter().map(canonical_form).collect();
    seen.remove(&canonical_form(seed));
    stats.new = seen.len() as u64;
    (finds, stats)
}
