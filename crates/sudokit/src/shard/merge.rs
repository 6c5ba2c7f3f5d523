//! Joining the out files of a run's slices (`sudokit merge`): every slice
//! `1/N` to `N/N` must be there, of the same run, finished, and its out
//! file exactly what its checkpoint records. Then
//!
//! - a hunt's finds (`sudokit search --shard`) are joined, deduplicated by
//!   canonical form and sorted, so the result does not depend on how the
//!   hunt was split ([`merge`]);
//! - the records of `sudokit analyze` and `sudokit generate` (one line per
//!   item, see [`super::records`]) are dealt back into item order,
//!   the header once, so the result is byte for byte what one unsharded run
//!   writes ([`merge_records`]).
//!
//! A slice missing, unfinished, of another run, or with an out file that
//! changed is an error naming it: never a silently partial result.

use std::collections::{BTreeMap, HashSet};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::records::{self, RecordsCheckpoint};
use super::sealed::LoadError;
use crate::canon::canonical_raw;
use crate::search::checkpoint::{self as hunt_checkpoint, Checkpoint};
use crate::search::out_file::{self, OutMismatch};

/// One shard's files: its out file and its checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardFiles {
    /// The out file.
    pub out: PathBuf,
    /// Its checkpoint (`OUT.checkpoint` unless the hunt named another).
    pub checkpoint: PathBuf,
}

impl ShardFiles {
    /// The out file `out` with its default checkpoint, `OUT.checkpoint`.
    pub fn new(out: &Path) -> ShardFiles {
        ShardFiles {
            out: out.to_path_buf(),
            checkpoint: super::checkpoint_beside(out),
        }
    }
}

/// The joined hunt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The hunt, in words (`{-3+3} … on 2 seeds, at least 40 clues`), and
    /// its number of shards.
    pub hunt: String,
    /// Number of shards.
    pub shards: u64,
    /// Finds read, over all shards.
    pub read: usize,
    /// The distinct finds (one per canonical form, as the first shard with
    /// it wrote it), sorted: 81 cells and a newline each.
    pub finds: Vec<Vec<u8>>,
    /// Units of the whole hunt.
    pub units: u64,
}

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No out file was given.
    #[error("no shard to merge")]
    NoShards,
    /// A file could not be read.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: io::Error,
    },
    /// A shard has no checkpoint: it never ran, or not through a batch.
    #[error("{}: no checkpoint {} — this shard has not run (or not through its first batch); run it (with --resume) and merge again", out.display(), checkpoint.display())]
    NoCheckpoint {
        /// The out file.
        out: PathBuf,
        /// The checkpoint looked for.
        checkpoint: PathBuf,
    },
    /// A checkpoint cannot be read.
    #[error("{}: {problem}", path.display())]
    Checkpoint {
        /// The checkpoint.
        path: PathBuf,
        /// Why.
        problem: LoadError,
    },
    /// A checkpoint written before shards recorded their hunt.
    #[error("{}: written by an older sudokit that does not record which hunt its shards belong to; run the shard again with --resume (it finishes at once) and merge again", path.display())]
    Unlabelled {
        /// The checkpoint.
        path: PathBuf,
    },
    /// A shard has not finished.
    #[error("{}: shard {shard} is not finished ({progress}); resume it with --resume and merge again", out.display())]
    Unfinished {
        /// The out file.
        out: PathBuf,
        /// The shard, `I/N`.
        shard: String,
        /// How far it got, in words.
        progress: String,
    },
    /// An out file is not what its checkpoint records.
    #[error("{}: {problem} (checkpoint {})", out.display(), checkpoint.display())]
    OutFile {
        /// The out file.
        out: PathBuf,
        /// Its checkpoint.
        checkpoint: PathBuf,
        /// How it differs.
        problem: OutMismatch,
    },
    /// Shards of two different runs.
    #[error("{} is shard {theirs}, not of the same run as {} ({ours})", path.display(), first.display())]
    OtherRun {
        /// The shard that differs.
        path: PathBuf,
        /// Its hunt in words.
        theirs: String,
        /// The first shard.
        first: PathBuf,
        /// The first shard's hunt in words.
        ours: String,
    },
    /// The same shard given twice.
    #[error("shard {shard} given twice: {} and {}", a.display(), b.display())]
    Twice {
        /// The shard.
        shard: String,
        /// One out file.
        a: PathBuf,
        /// The other.
        b: PathBuf,
    },
    /// Shards of the hunt not given.
    #[error("shards {} of {count} missing: every shard is needed for a complete result", missing.join(", "))]
    Missing {
        /// The missing shards, `I/N`.
        missing: Vec<String>,
        /// The number of shards.
        count: u64,
    },
    /// A checkpoint of a kind `sudokit merge` does not join.
    #[error("{}: neither a hunt's nor a record run's checkpoint", path.display())]
    Foreign {
        /// The checkpoint.
        path: PathBuf,
    },
    /// A slice's header is not the first slice's.
    #[error("{}: its header differs from that of {}: not slices of one run", out.display(), first.display())]
    Header {
        /// The out file.
        out: PathBuf,
        /// The first slice's out file.
        first: PathBuf,
    },
    /// Writing the merged output failed.
    #[error("writing the merged output: {0}")]
    Write(io::Error),
}

/// What a slice's checkpoint tells the checks common to every kind of run.
trait Part: Sized {
    /// Reads the checkpoint at `path` (`None` when there is none).
    fn load(path: &Path) -> Result<Option<Self>, LoadError>;
    /// The slice, `I/N`.
    fn shard(&self) -> &str;
    /// The digest shared by every slice of one run (0: not recorded).
    fn family(&self) -> u64;
    /// The run and slice in words.
    fn what(&self) -> String;
    /// How far an unfinished slice got, in words; `None` when finished.
    fn unfinished(&self) -> Option<String>;
}

impl Part for Checkpoint {
    fn load(path: &Path) -> Result<Option<Self>, LoadError> {
        Checkpoint::load(path)
    }
    fn shard(&self) -> &str {
        &self.hunt.shard
    }
    fn family(&self) -> u64 {
        self.hunt.family
    }
    fn what(&self) -> String {
        self.hunt.to_string()
    }
    fn unfinished(&self) -> Option<String> {
        (!self.is_complete()).then(|| format!("{} of {} units done", self.done, self.hunt.units))
    }
}

impl Part for RecordsCheckpoint {
    fn load(path: &Path) -> Result<Option<Self>, LoadError> {
        RecordsCheckpoint::load(path)
    }
    fn shard(&self) -> &str {
        &self.run.shard
    }
    fn family(&self) -> u64 {
        self.run.family
    }
    fn what(&self) -> String {
        self.run.to_string()
    }
    fn unfinished(&self) -> Option<String> {
        (!self.is_complete()).then(|| format!("stopped after item {} of the input", self.items))
    }
}

/// The kinds of run `sudokit merge` joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A hunt's shards (`sudokit search`): see [`merge`].
    Hunt,
    /// A record run's shards (`sudokit analyze`, `sudokit generate`): see
    /// [`merge_records`].
    Records,
}

/// The kind of run the first of `files` is a slice of, from the first line
/// of its checkpoint.
pub fn kind(files: &[ShardFiles]) -> Result<Kind, MergeError> {
    let first = files.first().ok_or(MergeError::NoShards)?;
    let path = &first.checkpoint;
    let mut head = Vec::new();
    match File::open(path) {
        Ok(file) => file.take(64).read_to_end(&mut head),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(MergeError::NoCheckpoint {
                out: first.out.clone(),
                checkpoint: path.clone(),
            })
        }
        Err(e) => Err(e),
    }
    .map_err(|error| MergeError::Io {
        path: path.clone(),
        error,
    })?;
    if head.starts_with(hunt_checkpoint::MAGIC.as_bytes()) {
        Ok(Kind::Hunt)
    } else if head.starts_with(records::KIND.as_bytes()) {
        Ok(Kind::Records)
    } else {
        Err(MergeError::Foreign { path: path.clone() })
    }
}

/// Loads every slice's checkpoint and checks that together they are one
/// whole, finished run: each readable, of the same run, finished, none
/// twice, none missing. Returns them in slice order.
fn whole_run<C: Part>(files: &[ShardFiles]) -> Result<Vec<(C, &ShardFiles)>, MergeError> {
    let first = files.first().ok_or(MergeError::NoShards)?;
    let mut shards: Vec<(C, &ShardFiles)> = Vec::with_capacity(files.len());
    for f in files {
        let c = C::load(&f.checkpoint)
            .map_err(|problem| MergeError::Checkpoint {
                path: f.checkpoint.clone(),
                problem,
            })?
            .ok_or_else(|| MergeError::NoCheckpoint {
                out: f.out.clone(),
                checkpoint: f.checkpoint.clone(),
            })?;
        if c.family() == 0 {
            return Err(MergeError::Unlabelled {
                path: f.checkpoint.clone(),
            });
        }
        if let Some(progress) = c.unfinished() {
            return Err(MergeError::Unfinished {
                out: f.out.clone(),
                shard: c.shard().to_string(),
                progress,
            });
        }
        if let Some((c0, _)) = shards.first() {
            if c0.family() != c.family() {
                return Err(MergeError::OtherRun {
                    path: f.out.clone(),
                    theirs: c.what(),
                    first: first.out.clone(),
                    ours: c0.what(),
                });
            }
        }
        if let Some((_, other)) = shards.iter().find(|(o, _)| o.shard() == c.shard()) {
            return Err(MergeError::Twice {
                shard: c.shard().to_string(),
                a: other.out.clone(),
                b: f.out.clone(),
            });
        }
        shards.push((c, f));
    }
    let count = shard_of(shards[0].0.shard()).1;
    let missing: Vec<String> = (1..=count)
        .map(|i| format!("{i}/{count}"))
        .filter(|name| shards.iter().all(|(c, _)| c.shard() != name))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count });
    }
    shards.sort_by_key(|(c, _)| shard_of(c.shard()).0);
    Ok(shards)
}

/// Checks the shards `files` of a hunt and joins their finds (see the
/// module documentation).
pub fn merge(files: &[ShardFiles]) -> Result<Merged, MergeError> {
    let shards = whole_run::<Checkpoint>(files)?;
    let count = shards.len() as u64;
    let mut seen = HashSet::new();
    let mut finds = Vec::new();
    let mut read = 0;
    for (c, f) in &shards {
        let text = fs::read(&f.out).map_err(|error| MergeError::Io {
            path: f.out.clone(),
            error,
        })?;
        let mismatch = |problem| MergeError::OutFile {
            out: f.out.clone(),
            checkpoint: f.checkpoint.clone(),
            problem,
        };
        out_file::verify(&text, c).map_err(mismatch)?;
        if text.len() as u64 != c.out_len {
            // A finished shard writes nothing after its last checkpoint.
            return Err(mismatch(OutMismatch::ForeignTail {
                expected: c.out_len,
                at: c.out_len,
            }));
        }
        // Canonical forms on every core, then kept in file order.
        let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
        let forms: Vec<Option<[u8; 81]>> = lines
            .par_iter()
            .map(|line| out_file::find_of(line).map(|p| canonical_raw(&p)))
            .collect();
        for (line, form) in lines.into_iter().zip(forms) {
            let Some(form) = form else {
                continue;
            };
            read += 1;
            if seen.insert(form) {
                finds.push(line.to_vec());
            }
        }
    }
    finds.sort_unstable();
    let units = shards.iter().map(|(c, _)| c.hunt.units).sum();
    let hunt = shards[0].0.hunt.to_string();
    Ok(Merged {
        hunt,
        shards: count,
        read,
        finds,
        units,
    })
}

/// The `I` and `N` of a shard `I/N`.
fn shard_of(shard: &str) -> (u64, u64) {
    let (i, n) = shard.split_once('/').unwrap_or(("1", "1"));
    (i.parse().unwrap_or(0), n.parse().unwrap_or(1))
}

/// A record run joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergedRecords {
    /// The run, in words (of its first slice).
    pub run: String,
    /// The command (`analyze`, `generate`).
    pub command: String,
    /// Number of slices.
    pub shards: u64,
    /// Items of the whole run (lines written after the header).
    pub items: u64,
    /// The slices' counts, added up.
    pub counts: BTreeMap<String, u64>,
}

/// Checks the slices `files` of a record run and writes their lines to
/// `out` in item order, the header once (see the module documentation).
/// Every check is made before the first byte is written.
pub fn merge_records(
    files: &[ShardFiles],
    out: &mut dyn Write,
) -> Result<MergedRecords, MergeError> {
    let shards = whole_run::<RecordsCheckpoint>(files)?;
    let (c0, f0) = &shards[0];
    let total = c0.total.unwrap_or(0);
    let mut counts = BTreeMap::new();
    let mut headers = Vec::with_capacity(shards.len());
    for (c, f) in &shards {
        if !c.is_consistent() || c.total != Some(total) {
            return Err(MergeError::Checkpoint {
                path: f.checkpoint.clone(),
                problem: LoadError::Damaged,
            });
        }
        headers.push(verified_records(c, f)?);
        if headers[headers.len() - 1] != headers[0] {
            return Err(MergeError::Header {
                out: f.out.clone(),
                first: f0.out.clone(),
            });
        }
        for (name, n) in &c.counts {
            *counts.entry(name.clone()).or_insert(0) += n;
        }
    }
    let failed = |f: &ShardFiles| {
        let path = f.out.clone();
        move |error| MergeError::Io { path, error }
    };
    let mut readers = Vec::with_capacity(shards.len());
    for (c, f) in &shards {
        let mut reader = BufReader::with_capacity(1 << 16, File::open(&f.out).map_err(failed(f))?);
        io::copy(&mut (&mut reader).take(c.header_len), &mut io::sink()).map_err(failed(f))?;
        readers.push(reader);
    }
    out.write_all(&headers[0]).map_err(MergeError::Write)?;
    let width = c0.run.stripes().map_or(1, |s| s.width());
    let mut line = Vec::new();
    let mut item = 0;
    let mut stripe = 0usize;
    while item < total {
        let slice = stripe % shards.len();
        let (_, f) = &shards[slice];
        let lines = width.min(total - item);
        for _ in 0..lines {
            line.clear();
            let n = readers[slice]
                .read_until(b'\n', &mut line)
                .map_err(failed(f))?;
            if n == 0 || line.last() != Some(&b'\n') {
                return Err(MergeError::OutFile {
                    out: f.out.clone(),
                    checkpoint: f.checkpoint.clone(),
                    problem: OutMismatch::Differs {
                        expected: shards[slice].0.out_len,
                    },
                });
            }
            out.write_all(&line).map_err(MergeError::Write)?;
        }
        item += lines;
        stripe += 1;
    }
    out.flush().map_err(MergeError::Write)?;
    Ok(MergedRecords {
        run: c0.run.to_string(),
        command: c0.run.command.clone(),
        shards: shards.len() as u64,
        items: total,
        counts,
    })
}

/// Checks that a record slice's out file is exactly what its checkpoint
/// records (its length and digest, and as many lines after the header as
/// it counts); returns the header.
fn verified_records(c: &RecordsCheckpoint, f: &ShardFiles) -> Result<Vec<u8>, MergeError> {
    let io_error = |error| MergeError::Io {
        path: f.out.clone(),
        error,
    };
    let mismatch = |problem| MergeError::OutFile {
        out: f.out.clone(),
        checkpoint: f.checkpoint.clone(),
        problem,
    };
    let mut file = File::open(&f.out).map_err(|error| match error.kind() {
        io::ErrorKind::NotFound => mismatch(OutMismatch::Missing {
            expected: c.out_len,
        }),
        _ => io_error(error),
    })?;
    let len = file.metadata().map_err(io_error)?.len();
    if len < c.out_len {
        return Err(mismatch(OutMismatch::Shorter {
            len,
            expected: c.out_len,
        }));
    }
    if len > c.out_len {
        // A finished slice writes nothing after its last checkpoint.
        return Err(mismatch(OutMismatch::ForeignTail {
            expected: c.out_len,
            at: c.out_len,
        }));
    }
    let mut header = vec![0; c.header_len as usize];
    file.read_exact(&mut header).map_err(io_error)?;
    let mut digest = crate::search::digest::Fnv1a::new();
    digest.update(&header);
    let mut lines = 0u64;
    digest
        .update_from(&mut file, u64::MAX, |chunk| {
            lines += memchr::memchr_iter(b'\n', chunk).count() as u64;
        })
        .map_err(io_error)?;
    if digest.value() != c.out_digest || lines != c.records {
        return Err(mismatch(OutMismatch::Differs {
            expected: c.out_len,
        }));
    }
    Ok(header)
}
