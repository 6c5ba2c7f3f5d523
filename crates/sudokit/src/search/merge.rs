//! Joining the out files of a hunt's shards (`sudokit merge`): every shard
//! `1/N` to `N/N` must be there, of the same hunt, and complete, and its out
//! file exactly what its checkpoint records; then the finds are joined,
//! deduplicated by canonical form, and sorted, so the result does not
//! depend on how the hunt was split. A shard missing, unfinished, of
//! another hunt, or with an out file that changed is an error naming it:
//! never a silently partial result.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::checkpoint::{Checkpoint, LoadError};
use super::out_file::{self, OutMismatch};
use crate::canon::canonical_raw;

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
        let mut checkpoint = out.as_os_str().to_owned();
        checkpoint.push(".checkpoint");
        ShardFiles {
            out: out.to_path_buf(),
            checkpoint: checkpoint.into(),
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
    #[error("{}: shard {shard} is not finished ({done} of {units} units done); resume it with --resume and merge again", out.display())]
    Unfinished {
        /// The out file.
        out: PathBuf,
        /// The shard, `I/N`.
        shard: String,
        /// Units done.
        done: u64,
        /// Units in all.
        units: u64,
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
    /// Shards of two different hunts.
    #[error("{} is shard {theirs}, not of the same hunt as {} ({ours})", path.display(), first.display())]
    OtherHunt {
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
}

/// Checks the shards `files` and joins their finds (see the module
/// documentation).
pub fn merge(files: &[ShardFiles]) -> Result<Merged, MergeError> {
    let first = files.first().ok_or(MergeError::NoShards)?;
    let mut shards: Vec<(Checkpoint, &ShardFiles)> = Vec::with_capacity(files.len());
    for f in files {
        let c = Checkpoint::load(&f.checkpoint)
            .map_err(|problem| MergeError::Checkpoint {
                path: f.checkpoint.clone(),
                problem,
            })?
            .ok_or_else(|| MergeError::NoCheckpoint {
                out: f.out.clone(),
                checkpoint: f.checkpoint.clone(),
            })?;
        if c.hunt.family == 0 {
            return Err(MergeError::Unlabelled {
                path: f.checkpoint.clone(),
            });
        }
        if !c.is_complete() {
            return Err(MergeError::Unfinished {
                out: f.out.clone(),
                shard: c.hunt.shard.clone(),
                done: c.done,
                units: c.hunt.units,
            });
        }
        if let Some((c0, _)) = shards.first() {
            if c0.hunt.family != c.hunt.family {
                return Err(MergeError::OtherHunt {
                    path: f.out.clone(),
                    theirs: c.hunt.to_string(),
                    first: first.out.clone(),
                    ours: c0.hunt.to_string(),
                });
            }
        }
        if let Some((_, other)) = shards.iter().find(|(o, _)| o.hunt.shard == c.hunt.shard) {
            return Err(MergeError::Twice {
                shard: c.hunt.shard.clone(),
                a: other.out.clone(),
                b: f.out.clone(),
            });
        }
        shards.push((c, f));
    }
    let count = shard_of(&shards[0].0).1;
    let missing: Vec<String> = (1..=count)
        .map(|i| format!("{i}/{count}"))
        .filter(|name| shards.iter().all(|(c, _)| &c.hunt.shard != name))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count });
    }
    shards.sort_by_key(|(c, _)| shard_of(c).0);
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

/// The `I` and `N` of a checkpoint's shard `I/N`.
fn shard_of(c: &Checkpoint) -> (u64, u64) {
    let (i, n) = c.hunt.shard.split_once('/').unwrap_or(("1", "1"));
    (i.parse().unwrap_or(0), n.parse().unwrap_or(1))
}
