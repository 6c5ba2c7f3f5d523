//! The out file of a run whose output is one line per item in item order —
//! `sudokit analyze --out` (an item is a puzzle of the input) and `sudokit
//! generate --out` (an item is a puzzle index) — with a checkpoint that
//! lets a killed run, or one slice of a sharded run, resume exactly.
//!
//! The file is a header (a CSV header, a comment line; perhaps empty) and
//! then one line per item of this slice, in item order. Every few seconds
//! and at the end the run records, in a sealed checkpoint (see
//! [`super::sealed`]): which run it is (a digest of its input and
//! options, see [`RunId`]), how many items of the whole run it has passed,
//! how many lines it has written, the out file's length and the digest of
//! those bytes, and its counts so far. The out file is synced before the
//! checkpoint is replaced, so the checkpoint never claims bytes a crash
//! could lose. A finished run's checkpoint also records the total number of
//! items, which [`merge`](super::merge) needs to restore item order.
//!
//! Resuming reads the checkpoint, refuses one of another run or one the out
//! file no longer matches, cuts off the lines written after it (the work
//! being redone), and continues from the first item not passed.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::sealed::{self, LoadError};
use super::{Shard, Stripes};
use crate::search::digest::Fnv1a;
use crate::search::out_file::{self, LockError, OutMismatch};

/// The checkpoint format this code writes and reads.
pub const VERSION: u32 = 1;

/// The checkpoint's first line, before the version.
pub const KIND: &str = "sudokit records checkpoint";

/// How often a running job writes a checkpoint.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(2);

/// Which run (and which slice of it) an out file and checkpoint belong to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunId {
    /// The command: `analyze` or `generate`.
    pub command: String,
    /// The run in words, for messages (input, options that matter).
    pub what: String,
    /// The slice, `I/N`.
    pub shard: String,
    /// Items per stripe (see [`Stripes`]).
    pub stripe: u64,
    /// A digest of the command, its input and options, the number of
    /// slices and the stripe width: equal in every slice of one run, so
    /// that merging can tell its slices from another run's.
    pub family: u64,
    /// The family digest and the slice's number: a checkpoint is resumed
    /// only by the same slice of the same run.
    pub fingerprint: u64,
}

impl RunId {
    /// The run of `command` described by `what`, whose input and options
    /// are summed up by `identity` (bytes that differ whenever the output
    /// would), sliced by `stripes`.
    pub fn new(command: &str, what: String, identity: &[u8], stripes: Stripes) -> RunId {
        let shard = stripes.shard();
        let mut family = Fnv1a::new();
        for part in [
            command.as_bytes(),
            identity,
            &shard.count().to_le_bytes(),
            &stripes.width().to_le_bytes(),
        ] {
            family.update(&(part.len() as u64).to_le_bytes());
            family.update(part);
        }
        let mut fingerprint = family;
        fingerprint.update(&shard.index().to_le_bytes());
        RunId {
            command: command.to_string(),
            what,
            shard: shard.to_string(),
            stripe: stripes.width(),
            family: family.value(),
            fingerprint: fingerprint.value(),
        }
    }

    /// The slice's stripes, `None` when the recorded shard does not parse
    /// (a damaged checkpoint).
    pub fn stripes(&self) -> Option<Stripes> {
        let shard: Shard = self.shard.parse().ok()?;
        Some(Stripes::new(shard, self.stripe))
    }
}

impl fmt::Display for RunId {
    /// E.g. `analyze of puzzles.txt, shard 2/4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {}, shard {}", self.command, self.what, self.shard)
    }
}

/// What a record run's checkpoint holds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecordsCheckpoint {
    /// The run.
    pub run: RunId,
    /// Items of the whole run passed: this slice's lines for every one of
    /// them are in the out file.
    pub items: u64,
    /// The run's items in all, once it has finished.
    pub total: Option<u64>,
    /// Lines written after the header.
    pub records: u64,
    /// Length of the header.
    pub header_len: u64,
    /// Length of the out file.
    pub out_len: u64,
    /// FNV-1a digest of those `out_len` bytes.
    pub out_digest: u64,
    /// The command's counts over this slice's items passed (e.g. `unique`,
    /// `invalid`), so that a resumed run reports the whole slice.
    pub counts: BTreeMap<String, u64>,
}

impl RecordsCheckpoint {
    /// Whether the slice is finished: every item of the run passed.
    pub fn is_complete(&self) -> bool {
        self.total.is_some()
    }

    /// Reads and checks a checkpoint; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<RecordsCheckpoint>, LoadError> {
        sealed::read(path)?
            .map(|bytes| sealed::decode(KIND, VERSION, KIND, &bytes))
            .transpose()
    }

    /// Writes the checkpoint atomically.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        sealed::save(path, &sealed::encode(KIND, VERSION, self))
    }

    /// Whether the counts agree with each other: a checkpoint whose line
    /// count is not its stripes' share of the items it passed, or whose
    /// header is longer than the file, is damaged.
    pub fn is_consistent(&self) -> bool {
        let Some(stripes) = self.run.stripes() else {
            return false;
        };
        let passed = self.total.unwrap_or(self.items);
        self.total.is_none_or(|t| t == self.items)
            && self.records == stripes.owned_below(passed)
            && self.header_len <= self.out_len
    }
}

impl fmt::Display for RecordsCheckpoint {
    /// What the checkpoint holds, in words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.total {
            Some(total) => write!(f, "{}: finished, {total} items", self.run)?,
            None => write!(f, "{}: {} items passed", self.run, self.items)?,
        }
        write!(f, ", {} lines in {} bytes", self.records, self.out_len)
    }
}

/// Where a run starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// From the first item: no checkpoint, none asked for.
    Fresh,
    /// Resuming was asked for but there is no checkpoint: from the first
    /// item, the out file emptied.
    NoCheckpoint,
    /// From this checkpoint, checked against the out file.
    Resume(RecordsCheckpoint),
    /// Resuming was not asked for: this checkpoint is discarded and the
    /// run starts from the first item.
    Discard(RecordsCheckpoint),
    /// Resuming was not asked for and the checkpoint there is unreadable
    /// (the reason); it is discarded.
    DiscardUnreadable(String),
}

/// Why a record run cannot start.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    /// Another run holds the out file.
    #[error("{}: another run is writing to it (it is locked)", .0.display())]
    Locked(PathBuf),
    /// Opening, reading or writing a file failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: io::Error,
    },
    /// The checkpoint cannot be read.
    #[error("{}: {problem}; remove it (and the out file) to start again without --resume", path.display())]
    Checkpoint {
        /// The checkpoint.
        path: PathBuf,
        /// Why.
        problem: LoadError,
    },
    /// The checkpoint is another run's (or another slice's).
    #[error("{}: a checkpoint of {theirs}, not of this run ({ours}); run without --resume to start again", path.display())]
    Mismatch {
        /// The checkpoint.
        path: PathBuf,
        /// Its run in words.
        theirs: String,
        /// This run in words.
        ours: String,
    },
    /// The out file is not what the checkpoint records.
    #[error("{}: {problem} (checkpoint {}); run without --resume to start again", out.display(), checkpoint.display())]
    OutFile {
        /// The out file.
        out: PathBuf,
        /// The checkpoint.
        checkpoint: PathBuf,
        /// How it differs.
        problem: OutMismatch,
    },
}

/// A record run's out file, locked, being written line by line.
pub struct RecordsOut {
    /// The out file, locked for the whole run.
    file: File,
    /// Its name.
    path: PathBuf,
    /// The checkpoint's name.
    checkpoint: PathBuf,
    /// Where the run starts.
    start: Start,
    /// The state the next checkpoint records.
    state: RecordsCheckpoint,
    /// The digest of the out file so far.
    digest: Fnv1a,
    /// When the last checkpoint was written.
    saved: Instant,
}

impl RecordsOut {
    /// Opens and locks `out` for run `run`, resuming from `checkpoint` when
    /// `resume` (after checking it is this run's and matches the out file),
    /// else starting with an empty out file. Nothing is changed when the
    /// run is refused.
    pub fn open(
        out: &Path,
        checkpoint: &Path,
        run: RunId,
        resume: bool,
    ) -> Result<RecordsOut, RecordsError> {
        let at = |path: &Path| {
            let path = path.to_path_buf();
            move |error| RecordsError::Io { path, error }
        };
        let loaded = RecordsCheckpoint::load(checkpoint);
        let start = match (resume, loaded) {
            (true, Err(problem)) => {
                return Err(RecordsError::Checkpoint {
                    path: checkpoint.to_path_buf(),
                    problem,
                })
            }
            (true, Ok(None)) => Start::NoCheckpoint,
            (true, Ok(Some(c))) if c.run.fingerprint != run.fingerprint => {
                return Err(RecordsError::Mismatch {
                    path: checkpoint.to_path_buf(),
                    theirs: c.run.to_string(),
                    ours: run.to_string(),
                })
            }
            (true, Ok(Some(c))) if !c.is_consistent() => {
                return Err(RecordsError::Checkpoint {
                    path: checkpoint.to_path_buf(),
                    problem: LoadError::Damaged,
                })
            }
            (true, Ok(Some(c))) => Start::Resume(c),
            (false, Ok(None)) => Start::Fresh,
            (false, Ok(Some(c))) => Start::Discard(c),
            (false, Err(e)) => Start::DiscardUnreadable(e.to_string()),
        };
        let resumed = match &start {
            Start::Resume(c) => Some(c.clone()),
            _ => None,
        };
        let create = resumed.as_ref().is_none_or(|c| c.out_len == 0);
        let file = match out_file::open_locked(out, create) {
            Ok(file) => file,
            Err(LockError::Held) => return Err(RecordsError::Locked(out.to_path_buf())),
            Err(LockError::Io(error)) => {
                return Err(match (&resumed, error.kind()) {
                    (Some(c), io::ErrorKind::NotFound) => RecordsError::OutFile {
                        out: out.to_path_buf(),
                        checkpoint: checkpoint.to_path_buf(),
                        problem: OutMismatch::Missing {
                            expected: c.out_len,
                        },
                    },
                    _ => at(out)(error),
                })
            }
        };
        let (state, digest) = match resumed {
            Some(c) => {
                let digest = verified_prefix(&file, &c).map_err(|problem| match problem {
                    Verify::Io(e) => at(out)(e),
                    Verify::Mismatch(problem) => RecordsError::OutFile {
                        out: out.to_path_buf(),
                        checkpoint: checkpoint.to_path_buf(),
                        problem,
                    },
                })?;
                (c, digest)
            }
            None => (
                RecordsCheckpoint {
                    run,
                    items: 0,
                    total: None,
                    records: 0,
                    header_len: 0,
                    out_len: 0,
                    out_digest: Fnv1a::new().value(),
                    counts: BTreeMap::new(),
                },
                Fnv1a::new(),
            ),
        };
        // Cut what follows the checkpointed prefix (all of it when fresh):
        // the lines of work that is redone. The file appends, so writes go
        // on from the cut.
        file.set_len(state.out_len).map_err(at(out))?;
        let records = RecordsOut {
            file,
            path: out.to_path_buf(),
            checkpoint: checkpoint.to_path_buf(),
            start,
            state,
            digest,
            saved: Instant::now(),
        };
        if !matches!(records.start, Start::Resume(_)) {
            sealed::remove(checkpoint).map_err(at(checkpoint))?;
        }
        Ok(records)
    }

    /// Where the run starts.
    pub fn start(&self) -> &Start {
        &self.start
    }

    /// Items of the whole run already passed (0 unless resuming): the run
    /// goes on from this item.
    pub fn items_passed(&self) -> u64 {
        self.state.items
    }

    /// Whether the resumed slice had already finished.
    pub fn is_complete(&self) -> bool {
        self.state.is_complete()
    }

    /// Lines written after the header, the resumed checkpoint's included.
    pub fn lines(&self) -> u64 {
        self.state.records
    }

    /// The counts so far, the resumed checkpoint's included.
    pub fn counts(&self) -> &BTreeMap<String, u64> {
        &self.state.counts
    }

    /// The out file's name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the header, unless the run resumed (its out file has it) —
    /// then checks it is the same. Then records a first checkpoint, so that
    /// a slice that has started is told from one that never ran.
    pub fn header(&mut self, header: &[u8]) -> io::Result<()> {
        if matches!(self.start, Start::Resume(_)) {
            return Ok(());
        }
        self.write(header)?;
        self.state.header_len = header.len() as u64;
        self.checkpoint()
    }

    /// Appends `lines` (`records` whole lines, those of this slice's items
    /// among the items passed up to `items`), adds `counts` to the counts,
    /// and writes a checkpoint when the last is [`CHECKPOINT_EVERY`] old.
    pub fn append(
        &mut self,
        lines: &[u8],
        records: u64,
        items: u64,
        counts: &[(&str, u64)],
    ) -> io::Result<()> {
        self.write(lines)?;
        self.state.records += records;
        self.state.items = self.state.items.max(items);
        for &(name, n) in counts {
            *self.state.counts.entry(name.to_string()).or_default() += n;
        }
        if self.saved.elapsed() >= CHECKPOINT_EVERY {
            self.checkpoint()?;
        }
        Ok(())
    }

    /// Records that the run has passed all `total` of its items: the last
    /// checkpoint, which says the out file is complete. Returns it.
    pub fn finish(mut self, total: u64) -> io::Result<RecordsCheckpoint> {
        self.state.items = total;
        self.state.total = Some(total);
        if !self.state.is_consistent() {
            return Err(io::Error::other(format!(
                "{} lines written for {} items of shard {}: not the shard's share (a bug)",
                self.state.records, total, self.state.run.shard
            )));
        }
        self.checkpoint()?;
        Ok(self.state)
    }

    /// Writes bytes to the out file, keeping its length and digest.
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all(bytes)?;
        self.digest.update(bytes);
        self.state.out_len += bytes.len() as u64;
        Ok(())
    }

    /// Makes the out file durable, then replaces the checkpoint.
    fn checkpoint(&mut self) -> io::Result<()> {
        self.file.sync_data()?;
        self.state.out_digest = self.digest.value();
        self.state.save(&self.checkpoint)?;
        self.saved = Instant::now();
        Ok(())
    }
}

/// Why an out file's prefix could not be verified.
enum Verify {
    /// Reading failed.
    Io(io::Error),
    /// It is not what the checkpoint records.
    Mismatch(OutMismatch),
}

/// Checks that the out file's first `out_len` bytes have the checkpoint's
/// digest, reading them in chunks; returns the digest state after them.
fn verified_prefix(mut file: &File, c: &RecordsCheckpoint) -> Result<Fnv1a, Verify> {
    let expected = c.out_len;
    let len = file.metadata().map_err(Verify::Io)?.len();
    if len < expected {
        return Err(Verify::Mismatch(OutMismatch::Shorter { len, expected }));
    }
    file.rewind().map_err(Verify::Io)?;
    let mut digest = Fnv1a::new();
    digest
        .update_from(&mut file, expected, |_| {})
        .map_err(Verify::Io)?;
    if digest.value() != c.out_digest {
        return Err(Verify::Mismatch(OutMismatch::Differs { expected }));
    }
    Ok(digest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory for one test's files.
    fn dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sudokit-records-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The run of slice `index` of 2 over input `input`.
    fn run(input: &[u8], index: u64) -> RunId {
        let stripes = Stripes::new(Shard::new(index, 2).unwrap(), 2);
        RunId::new("test", "a test".into(), input, stripes)
    }

    #[test]
    fn a_run_resumes_from_its_checkpoint_and_refuses_what_does_not_match() {
        let dir = dir("resume");
        let (out, checkpoint) = (dir.join("out"), dir.join("out.checkpoint"));
        let mut records = RecordsOut::open(&out, &checkpoint, run(b"in", 0), false).unwrap();
        assert_eq!(records.start(), &Start::Fresh);
        records.header(b"head\n").unwrap();
        // Slice 1 of 2 in stripes of 2 owns items 0, 1, 4, 5, …
        records.append(b"a\nb\n", 2, 4, &[("ok", 2)]).unwrap();
        // A second run on the same out file is refused while the first holds it.
        let second = RecordsOut::open(&out, &checkpoint, run(b"in", 0), true);
        assert!(matches!(second, Err(RecordsError::Locked(_))));
        records.checkpoint().unwrap();
        records.append(b"c\n", 1, 5, &[("ok", 1)]).unwrap();
        drop(records); // killed before its next checkpoint

        let other = RecordsOut::open(&out, &checkpoint, run(b"changed", 0), true);
        assert!(matches!(other, Err(RecordsError::Mismatch { .. })));
        let slice = RecordsOut::open(&out, &checkpoint, run(b"in", 1), true);
        assert!(matches!(slice, Err(RecordsError::Mismatch { .. })));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            b"head\na\nb\nc\n",
            "refusals change nothing"
        );

        let mut resumed = RecordsOut::open(&out, &checkpoint, run(b"in", 0), true).unwrap();
        assert_eq!(resumed.items_passed(), 4);
        assert_eq!(resumed.lines(), 2);
        resumed.header(b"head\n").unwrap();
        resumed.append(b"c\nd\n", 2, 6, &[("ok", 2)]).unwrap();
        let done = resumed.finish(6).unwrap();
        assert!(done.is_complete() && done.is_consistent());
        assert_eq!(done.counts["ok"], 4);
        assert_eq!(std::fs::read(&out).unwrap(), b"head\na\nb\nc\nd\n");

        // An out file changed after its checkpoint is refused.
        std::fs::write(&out, b"head\na\nX\nc\nd\n").unwrap();
        let altered = RecordsOut::open(&out, &checkpoint, run(b"in", 0), true);
        assert!(matches!(altered, Err(RecordsError::OutFile { .. })));
    }

    #[test]
    fn a_slice_that_wrote_more_or_fewer_lines_than_its_share_is_not_finished() {
        let dir = dir("share");
        let (out, checkpoint) = (dir.join("out"), dir.join("out.checkpoint"));
        let mut records = RecordsOut::open(&out, &checkpoint, run(b"in", 0), false).unwrap();
        records.header(b"").unwrap();
        records.append(b"a\n", 1, 3, &[]).unwrap();
        assert!(
            records.finish(3).is_err(),
            "items 0 and 1 are this slice's: two lines"
        );
    }
}
