//! The hunt over many seeds: units, shards, batches, the out file and the
//! checkpoint (see the [module docs](super)).

use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::checkpoint::{Checkpoint, HuntId, LoadError};
use super::digest::Fnv1a;
use super::neighbours::{check_seed, unit_neighbours_raw};
use super::out_file::{self, LockError, OutMismatch, Sink};
use super::{removal_count, removals, UnitCounts};
use crate::canon::canonical_raw;
use crate::grid::InputError;
pub use crate::shard::Shard;
use crate::solver::fast9::Fast9Solver;

/// How many units a hunt does between two checkpoints. Written `N` for
/// that many units, or `Ts` (e.g. `2s`, `0.5s`) for as many as take about
/// `T` seconds: the size then follows the time the last batch took, so that
/// checkpoints neither dominate a hunt of quick units nor leave minutes of
/// work to redo after a kill in a hunt of slow ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batch {
    /// This many units (0 counts as 1).
    Units(usize),
    /// As many units as take about this long.
    Every(Duration),
}

impl Batch {
    /// The default: about two seconds of work between checkpoints.
    pub const DEFAULT: Batch = Batch::Every(Duration::from_secs(2));

    /// The size of the first batch.
    fn first(self) -> usize {
        match self {
            Batch::Units(n) => n.max(1),
            Batch::Every(_) => 2 * rayon::current_num_threads(),
        }
    }

    /// The size of the batch after one of `size` units that took `took`:
    /// scaled toward the target time, growing at most fourfold at a time
    /// and never below one unit per thread.
    fn next(self, size: usize, took: Duration) -> usize {
        match self {
            Batch::Units(n) => n.max(1),
            Batch::Every(target) => {
                let grown = size.saturating_mul(4);
                let scaled = if took.is_zero() {
                    grown
                } else {
                    (size as f64 * target.as_secs_f64() / took.as_secs_f64()) as usize
                };
                scaled.clamp(rayon::current_num_threads(), grown.max(1))
            }
        }
    }
}

impl Default for Batch {
    fn default() -> Self {
        Batch::DEFAULT
    }
}

impl FromStr for Batch {
    type Err = String;

    /// Parses `N` (units, at least 1) or `Ts` (seconds, above 0).
    fn from_str(text: &str) -> Result<Batch, String> {
        let bad =
            || format!("batch '{text}' is neither a number of units (64) nor of seconds (2s)");
        match text.trim().strip_suffix('s') {
            Some(seconds) => match seconds.parse::<f64>() {
                Ok(s) if s > 0.0 && s.is_finite() && s < 1e9 => {
                    Ok(Batch::Every(Duration::from_secs_f64(s)))
                }
                _ => Err(bad()),
            },
            None => match text.trim().parse::<usize>() {
                Ok(n) if n > 0 => Ok(Batch::Units(n)),
                _ => Err(bad()),
            },
        }
    }
}

impl fmt::Display for Batch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Batch::Units(n) => write!(f, "{n}"),
            Batch::Every(t) => write!(f, "{}s", t.as_secs_f64()),
        }
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
    /// How many units make a batch: finds are checkpointed batch by batch.
    pub batch: Batch,
}

/// Counts of a hunt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Units (seed × removal) done.
    pub units: u64,
    /// Candidates examined (see [`UnitCounts::candidates`]).
    pub candidates: u64,
    /// Unique puzzles built.
    pub unique: u64,
    /// Unique and minimal.
    pub minimal: u64,
    /// Minimal and new: no equivalent puzzle was in the out file, among the
    /// seeds, or found before.
    pub new: u64,
}

impl Stats {
    fn add(&mut self, c: &UnitCounts) {
        self.units += 1;
        self.candidates += c.candidates;
        self.unique += c.unique;
        self.minimal += c.minimal;
    }
}

/// Where a hunt stands, reported after each unit and after each batch's
/// checkpoint.
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
    /// Whether this report follows a checkpoint (one per batch, in order,
    /// from the thread that called the run); the others follow a unit, from
    /// the thread that did it, while the batch goes on.
    pub checkpointed: bool,
}

/// A new find, as a hunt appends it to its out file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Find {
    /// The position (0-based) of the seed it was found from, among the seeds.
    pub seed: usize,
    /// The puzzle (0 for a blank).
    pub puzzle: [u8; 81],
}

/// Why a hunt stopped or would not start. Every refusal to resume leaves
/// the out file and the checkpoint as they were.
#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    /// A seed is not a 9×9 puzzle (a value above 9).
    #[error("seed {seed}: {error}")]
    Seed {
        /// 1-based position of the seed.
        seed: usize,
        /// What is wrong with it.
        error: InputError,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        error: io::Error,
    },
    /// Another run holds the out file's lock.
    #[error(
        "{0}: in use by another hunt (it holds the out file's lock); nothing was changed. \
         Wait for that run to end, or write this hunt's finds to another out file"
    )]
    Locked(PathBuf),
    /// The checkpoint cannot be read or trusted.
    #[error(
        "cannot resume: checkpoint {path} is unusable: {problem}; nothing was changed. \
         Remove it to start the hunt over (finds already in the out file are kept and not repeated)"
    )]
    Checkpoint {
        /// The checkpoint.
        path: PathBuf,
        /// What is wrong with it.
        problem: LoadError,
    },
    /// The checkpoint belongs to other seeds or options.
    #[error(
        "cannot resume: checkpoint {path} belongs to another hunt ({theirs}{}), not to this one ({ours}); \
         nothing was changed. Resume with the seeds and options it was written with, or remove it \
         to start this hunt over",
        if theirs == ours { ", other seeds" } else { "" }
    )]
    Mismatch {
        /// The checkpoint.
        path: PathBuf,
        /// Its hunt, in words.
        theirs: String,
        /// This hunt, in words.
        ours: String,
    },
    /// The out file is not the one the checkpoint was written with.
    #[error(
        "cannot resume from checkpoint {checkpoint}: out file {out} {problem}; nothing was changed. \
         Restore the out file as it was, or remove the checkpoint to start the hunt over \
         (finds already in the out file are kept and not repeated)"
    )]
    OutFile {
        /// The out file.
        out: PathBuf,
        /// The checkpoint.
        checkpoint: PathBuf,
        /// What disagrees.
        problem: OutMismatch,
    },
}

fn io_at(path: &Path) -> impl Fn(io::Error) -> HuntError + '_ {
    move |error| HuntError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// FNV-1a over the seeds and options: identifies a hunt's shard in its
/// checkpoint.
fn fingerprint(seeds: &[[u8; 81]], o: &HuntOptions) -> u64 {
    digest_of(seeds, o, Some(o.shard.index()))
}

/// FNV-1a over the seeds and options but the shard's number: the same for
/// every shard of one hunt.
fn family(seeds: &[[u8; 81]], o: &HuntOptions) -> u64 {
    digest_of(seeds, o, None)
}

/// FNV-1a over the seeds, `R`, `A`, the minimum clues, the shard's number
/// when given (the historical fingerprint layout) and the number of shards.
fn digest_of(seeds: &[[u8; 81]], o: &HuntOptions, index: Option<u64>) -> u64 {
    let header = [
        o.remove as u64,
        o.add as u64,
        o.min_clues as u64,
        index.unwrap_or(u64::MAX),
        o.shard.count(),
    ];
    let mut h = Fnv1a::new();
    for seed in seeds {
        h.update(seed);
    }
    for v in header {
        h.update(&v.to_le_bytes());
    }
    h.value()
}

/// The clue cells of a seed.
fn clue_cells(seed: &[u8; 81]) -> Vec<u8> {
    (0..81u8).filter(|&k| seed[k as usize] != 0).collect()
}

/// Whether a seed can reach the minimum number of clues.
fn eligible(seed: &[u8; 81], o: &HuntOptions) -> bool {
    clue_cells(seed).len() + o.add >= o.min_clues + o.remove
}

/// This shard's units in order: (seed number, removed cells).
fn shard_units<'a>(
    seeds: &'a [[u8; 81]],
    o: &'a HuntOptions,
) -> impl Iterator<Item = (usize, Vec<u8>)> + 'a {
    seeds
        .iter()
        .enumerate()
        .filter(|(_, s)| eligible(s, o))
        .flat_map(move |(i, s)| {
            let clues = clue_cells(s);
            let all: Vec<_> = removals(&clues, o.remove).map(|r| (i, r)).collect();
            all
        })
        .enumerate()
        .filter(|(u, _)| *u as u64 % o.shard.count() == o.shard.index())
        .map(|(_, unit)| unit)
}

/// Number of this shard's units, without listing them.
fn shard_total(seeds: &[[u8; 81]], o: &HuntOptions) -> u64 {
    let all: u64 = seeds
        .iter()
        .filter(|s| eligible(s, o))
        .map(|s| removal_count(clue_cells(s).len(), o.remove))
        .sum();
    (all + o.shard.count() - 1 - o.shard.index()) / o.shard.count()
}

/// The hunt's identity as a checkpoint records it.
fn hunt_id(seeds: &[[u8; 81]], o: &HuntOptions) -> HuntId {
    HuntId {
        fingerprint: fingerprint(seeds, o),
        remove: o.remove,
        add: o.add,
        min_clues: o.min_clues,
        shard: o.shard.to_string(),
        seeds: seeds.len() as u64,
        units: shard_total(seeds, o),
        family: family(seeds, o),
    }
}

/// Where an opened hunt starts: what it found of an earlier run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// No checkpoint: from the first unit.
    Fresh,
    /// Resuming was asked for but there is no checkpoint (the hunt never
    /// got through its first batch): from the first unit, adding only
    /// finds the out file does not hold yet.
    NoCheckpoint,
    /// From this checkpoint, which was checked against the out file.
    Resume(Checkpoint),
    /// Resuming was not asked for, so this checkpoint is discarded when
    /// the run starts: from the first unit.
    Discard(Checkpoint),
    /// Resuming was not asked for and the checkpoint there is unreadable (the
    /// reason); it is discarded when the run starts: from the first unit.
    DiscardUnreadable(String),
}

/// A hunt ready to run: its out file locked, the checkpoint read and, when
/// resuming, checked against the out file. Nothing has been changed yet.
pub struct Hunt<'a> {
    /// The seeds.
    seeds: &'a [[u8; 81]],
    /// What to hunt.
    options: HuntOptions,
    /// Its identity.
    id: HuntId,
    /// The out file's name.
    out: PathBuf,
    /// The checkpoint's name.
    checkpoint: PathBuf,
    /// The out file, locked.
    file: File,
    /// The out file's content that is kept (when resuming: the verified
    /// prefix).
    text: Vec<u8>,
    /// Where it starts.
    start: Start,
}

impl<'a> Hunt<'a> {
    /// Prepares the hunt over `seeds` that appends new finds to `out` and
    /// checkpoints to `checkpoint`, continuing from the checkpoint when
    /// `resume`. Takes the out file's lock (refused when another run holds
    /// it) and, when resuming, refuses a checkpoint that is damaged, of
    /// another hunt, or that the out file does not match, changing nothing.
    pub fn open(
        seeds: &'a [[u8; 81]],
        options: &HuntOptions,
        out: &Path,
        checkpoint: &Path,
        resume: bool,
    ) -> Result<Hunt<'a>, HuntError> {
        for (index, seed) in seeds.iter().enumerate() {
            check_seed(seed).map_err(|error| HuntError::Seed {
                seed: index + 1,
                error,
            })?;
        }
        let id = hunt_id(seeds, options);
        let file = Self::lock(&id, out, checkpoint, resume)?;
        let start = Self::start_from(&id, checkpoint, resume)?;
        let mut text = out_file::read_all(&file).map_err(io_at(out))?;
        if let Start::Resume(c) = &start {
            out_file::verify(&text, c).map_err(|problem| HuntError::OutFile {
                out: out.to_path_buf(),
                checkpoint: checkpoint.to_path_buf(),
                problem,
            })?;
            text.truncate(c.out_len as usize);
        }
        Ok(Hunt {
            seeds,
            options: *options,
            id,
            out: out.to_path_buf(),
            checkpoint: checkpoint.to_path_buf(),
            file,
            text,
            start,
        })
    }

    /// Opens and locks the out file. When resuming it is not created if
    /// missing, unless the checkpoint records no finds in it (or there is
    /// no checkpoint).
    fn lock(id: &HuntId, out: &Path, checkpoint: &Path, resume: bool) -> Result<File, HuntError> {
        let locked = |create| match out_file::open_locked(out, create) {
            Ok(file) => Ok(file),
            Err(LockError::Held) => Err(HuntError::Locked(out.to_path_buf())),
            Err(LockError::Io(e)) => Err(io_at(out)(e)),
        };
        match locked(!resume) {
            Err(HuntError::Io { error, .. })
                if resume && error.kind() == io::ErrorKind::NotFound =>
            {
                if let Some(c) = Self::load(id, checkpoint)? {
                    if c.out_len > 0 {
                        return Err(HuntError::OutFile {
                            out: out.to_path_buf(),
                            checkpoint: checkpoint.to_path_buf(),
                            problem: OutMismatch::Missing {
                                expected: c.out_len,
                            },
                        });
                    }
                }
                locked(true)
            }
            other => other,
        }
    }

    /// Reads the checkpoint to resume from and checks it is this hunt's.
    fn load(id: &HuntId, checkpoint: &Path) -> Result<Option<Checkpoint>, HuntError> {
        let c = Checkpoint::load(checkpoint).map_err(|problem| HuntError::Checkpoint {
            path: checkpoint.to_path_buf(),
            problem,
        })?;
        match c {
            Some(c) if c.hunt.fingerprint != id.fingerprint => Err(HuntError::Mismatch {
                path: checkpoint.to_path_buf(),
                theirs: c.hunt.to_string(),
                ours: id.to_string(),
            }),
            Some(c) if c.done > id.units => Err(HuntError::Checkpoint {
                path: checkpoint.to_path_buf(),
                problem: LoadError::Damaged,
            }),
            c => Ok(c),
        }
    }

    /// What the checkpoint says about where to start (read under the lock).
    fn start_from(id: &HuntId, checkpoint: &Path, resume: bool) -> Result<Start, HuntError> {
        if resume {
            return Ok(Self::load(id, checkpoint)?.map_or(Start::NoCheckpoint, Start::Resume));
        }
        Ok(match Checkpoint::load(checkpoint) {
            Ok(None) => Start::Fresh,
            Ok(Some(c)) => Start::Discard(c),
            Err(e) => Start::DiscardUnreadable(e.to_string()),
        })
    }

    /// Where the hunt starts.
    pub fn start(&self) -> &Start {
        &self.start
    }

    /// Runs the hunt: discards a checkpoint not resumed, cuts the out file
    /// back to its verified prefix when resuming (the finds after it are
    /// redone), appends new finds, checkpoints after every batch and leaves
    /// a complete checkpoint (every unit done) when the shard is finished:
    /// resuming it then does nothing more, and `sudokit merge` reads it. `progress` hears after
    /// every unit and every checkpoint (see [`Progress::checkpointed`]).
    /// Returns the counts of the whole shard.
    pub fn run(self, progress: &(dyn Fn(&Progress) + Sync)) -> Result<Stats, HuntError> {
        self.run_with_finds(progress, &|_| {})
    }

    /// [`run`](Self::run), telling `found` of each new find as it is
    /// appended to the out file (under the file's lock, so in the file's
    /// order), for a caller that also shows the finds elsewhere.
    pub fn run_with_finds(
        self,
        progress: &(dyn Fn(&Progress) + Sync),
        found: &(dyn Fn(&Find) + Sync),
    ) -> Result<Stats, HuntError> {
        let started = Instant::now();
        let (out, checkpoint, options) = (&self.out, &self.checkpoint, &self.options);
        let (mut done, mut stats) = match &self.start {
            Start::Resume(c) => {
                self.file.set_len(c.out_len).map_err(io_at(out))?;
                (c.done, c.stats)
            }
            Start::Discard(_) | Start::DiscardUnreadable(_) => {
                Checkpoint::remove(checkpoint).map_err(io_at(checkpoint))?;
                (0, Stats::default())
            }
            Start::Fresh | Start::NoCheckpoint => (0, Stats::default()),
        };
        let mut sink = Sink::new(self.file, &self.text).map_err(io_at(out))?;
        for seed in self.seeds {
            sink.see(seed);
        }
        let units: Vec<(usize, Vec<u8>)> = shard_units(self.seeds, options)
            .skip(done as usize)
            .collect();
        let sink = Mutex::new(sink);
        let first = done;
        let total = self.id.units;
        // Units done and counts so far, batches under way included.
        let live = Mutex::new((done, stats));
        let mut size = options.batch.first();
        let mut rest = &units[..];
        while !rest.is_empty() {
            let (batch, later) = rest.split_at(size.min(rest.len()));
            rest = later;
            let batch_started = Instant::now();
            let results: Vec<io::Result<(UnitCounts, u64)>> = batch
                .par_iter()
                .map_init(Fast9Solver::new, |solver, (i, removed)| {
                    let seed = &self.seeds[*i];
                    let (finds, counts) = unit_neighbours_raw(solver, seed, removed, options.add);
                    let mut new = 0;
                    for find in &finds {
                        let mut sink = sink.lock().unwrap_or_else(|e| e.into_inner());
                        if sink.offer(find)? {
                            new += 1;
                            found(&Find {
                                seed: *i,
                                puzzle: *find,
                            });
                        }
                    }
                    let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
                    live.0 += 1;
                    live.1.add(&counts);
                    live.1.new += new;
                    progress(&Progress {
                        done: live.0,
                        total,
                        stats: live.1,
                        elapsed: started.elapsed(),
                        done_here: live.0 - first,
                        checkpointed: false,
                    });
                    Ok((counts, new))
                })
                .collect();
            for result in results {
                let (counts, new) = result.map_err(io_at(out))?;
                stats.add(&counts);
                stats.new += new;
            }
            done += batch.len() as u64;
            size = options.batch.next(batch.len(), batch_started.elapsed());
            save_checkpoint(&self.id, out, checkpoint, &sink, done, stats)?;
            *live.lock().unwrap_or_else(|e| e.into_inner()) = (done, stats);
            progress(&Progress {
                done,
                total,
                stats,
                elapsed: started.elapsed(),
                done_here: done - first,
                checkpointed: true,
            });
        }
        // Complete: the checkpoint says so (every unit done), written under
        // the lock (the sink owns the file) even when no batch ran, as for
        // a shard without units or one resumed complete.
        save_checkpoint(&self.id, out, checkpoint, &sink, done, stats)?;
        drop(sink);
        Ok(stats)
    }
}

/// Makes the out file `out` durable and records, in `checkpoint`, that
/// hunt `id` has done `done` units with `stats`, with the out file's length
/// and digest.
fn save_checkpoint(
    id: &HuntId,
    out: &Path,
    checkpoint: &Path,
    sink: &Mutex<Sink>,
    done: u64,
    stats: Stats,
) -> Result<(), HuntError> {
    let (out_len, out_digest) = {
        let sink = sink.lock().unwrap_or_else(|e| e.into_inner());
        sink.settle().map_err(io_at(out))?
    };
    let record = Checkpoint {
        hunt: id.clone(),
        done,
        out_len,
        out_digest,
        stats,
    };
    record.save(checkpoint).map_err(io_at(checkpoint))
}

/// Runs (or, with `resume`, continues) a hunt over `seeds`, appending new
/// finds to `out` and checkpointing to `checkpoint`; `progress` hears after
/// every unit and every checkpoint. Returns the counts of the whole shard. [`Hunt::open`] then
/// [`Hunt::run`], for callers with nothing to say about where it starts.
pub fn run(
    seeds: &[[u8; 81]],
    options: &HuntOptions,
    out: &Path,
    checkpoint: &Path,
    resume: bool,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<Stats, HuntError> {
    Hunt::open(seeds, options, out, checkpoint, resume)?.run(progress)
}

/// The whole {−R+A} neighbourhood of one seed in memory, on every core:
/// the minimal finds (in unit order, equivalent ones kept) and the counts,
/// `new` counting distinct canonical forms other than the seed's.
///
/// An error when a value of `seed` exceeds 9.
pub fn neighbourhood(
    seed: &[u8; 81],
    remove: usize,
    add: usize,
) -> Result<(Vec<[u8; 81]>, Stats), InputError> {
    check_seed(seed)?;
    let clues = clue_cells(seed);
    let units: Vec<Vec<u8>> = removals(&clues, remove).collect();
    debug_assert_eq!(units.len() as u64, removal_count(clues.len(), remove));
    let results: Vec<_> = units
        .par_iter()
        .map_init(Fast9Solver::new, |solver, removed| {
            unit_neighbours_raw(solver, seed, removed, add)
        })
        .collect();
    let mut stats = Stats::default();
    let mut finds = Vec::new();
    for (f, c) in results {
        stats.add(&c);
        finds.extend(f);
    }
    let mut seen: HashSet<[u8; 81]> = finds.par_iter().map(canonical_raw).collect();
    seen.remove(&canonical_raw(seed));
    stats.new = seen.len() as u64;
    Ok((finds, stats))
}
