//! Checkpoints of a hunt: how far it got, so `--resume` after a kill neither
//! loses nor repeats a find, and refuses rather than guesses when the
//! checkpoint or the out file is not what it was.
//!
//! After each batch of units the hunt records which hunt it is (a digest of
//! the seeds and options, and the options in words), the number of this
//! shard's units finished, the out file's length at that moment and a
//! digest of those bytes, and the counts so far. It writes the record to a
//! temporary file and renames it over the old one, so a kill leaves either
//! the old or the new checkpoint, never a torn one.
//!
//! The file is sealed (see [`crate::shard::sealed`]): three lines,
//! `sudokit hunt checkpoint 3`, the record as JSON
//! (`{"hunt":{…},"done":…,"out_len":…,"out_digest":…,"stats":{…}}`), and
//! the FNV-1a digest of the first two, so a flipped bit anywhere is found.

use std::fmt;
use std::io;
use std::path::Path;

use super::Stats;
use crate::shard::sealed;

/// The checkpoint format this code writes and reads. Format 3 came when
/// the hunt stopped skipping units with over 200,000 solutions: a format 2
/// checkpoint may count such units as done without their finds, so it is
/// refused rather than resumed into a silently partial hunt.
pub const VERSION: u32 = 3;

/// The first line's words before the version.
pub const MAGIC: &str = "sudokit hunt checkpoint";

/// Which hunt a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HuntId {
    /// A digest of the seeds and options (`R`, `A`, minimum clues, shard):
    /// a checkpoint is only resumed by the same hunt.
    pub fingerprint: u64,
    /// Clues removed (`R`).
    pub remove: usize,
    /// Clues added (`A`).
    pub add: usize,
    /// The minimum number of clues.
    pub min_clues: usize,
    /// The shard, as `I/N`.
    pub shard: String,
    /// Number of seeds.
    pub seeds: u64,
    /// Units of this shard in all.
    pub units: u64,
    /// A digest of the seeds and options without the shard's number (`R`,
    /// `A`, minimum clues, number of shards): equal in every shard of one
    /// hunt, so `sudokit merge` can tell its shards from another hunt's.
    /// 0 in a checkpoint written before it was recorded.
    #[serde(default)]
    pub family: u64,
}

impl fmt::Display for HuntId {
    /// The options in words, e.g. `{-2+1} shard 1/4 on 3 seeds, at least 0 clues`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{{-{}+{}}} shard {} on {} seeds, at least {} clues",
            self.remove, self.add, self.shard, self.seeds, self.min_clues
        )
    }
}

/// What a checkpoint records.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    /// The hunt it belongs to.
    pub hunt: HuntId,
    /// Units of this shard finished.
    pub done: u64,
    /// Length of the out file when they were.
    pub out_len: u64,
    /// FNV-1a digest of those `out_len` bytes.
    pub out_digest: u64,
    /// Counts of the finished units.
    pub stats: Stats,
}

impl Checkpoint {
    /// Whether every unit of the shard is done: the checkpoint a finished
    /// hunt leaves, which says the out file holds all of the shard's finds.
    pub fn is_complete(&self) -> bool {
        self.done == self.hunt.units
    }
}

impl fmt::Display for Checkpoint {
    /// What the checkpoint holds, in words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} of {} units done, {} new finds, {} bytes of the out file",
            self.hunt, self.done, self.hunt.units, self.stats.new, self.out_len
        )
    }
}

pub use crate::shard::sealed::LoadError;

/// How a checkpoint that is not one is described in an error.
const DESCRIBED: &str = "sudokit hunt checkpoint (one written before checkpoint format 2 has no checksum and cannot be verified)";

impl Checkpoint {
    /// The file's bytes: name and version, JSON, checksum.
    fn encode(&self) -> Vec<u8> {
        sealed::encode(MAGIC, VERSION, self)
    }

    /// Reads the file's bytes back, checking name, checksum and version.
    fn decode(bytes: &[u8]) -> Result<Checkpoint, LoadError> {
        sealed::decode(MAGIC, VERSION, DESCRIBED, bytes)
    }

    /// Reads and checks a checkpoint; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, LoadError> {
        sealed::read(path)?
            .map(|bytes| Checkpoint::decode(&bytes))
            .transpose()
    }

    /// Writes the checkpoint atomically: a temporary file, synced, renamed.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        sealed::save(path, &self.encode())
    }

    /// Removes the checkpoint at `path` and its temporary file, if there.
    pub fn remove(path: &Path) -> io::Result<()> {
        sealed::remove(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            hunt: HuntId {
                fingerprint: 0x0123_4567_89ab_cdef,
                remove: 2,
                add: 1,
                min_clues: 0,
                shard: "1/1".into(),
                seeds: 3,
                units: 300,
                family: 7,
            },
            done: 120,
            out_len: 820,
            out_digest: 42,
            stats: Stats::default(),
        }
    }

    #[test]
    fn reads_back_what_it_writes() {
        let c = sample();
        assert_eq!(Checkpoint::decode(&c.encode()).unwrap(), c);
    }

    #[test]
    fn every_flipped_bit_is_found() {
        let bytes = sample().encode();
        for i in 0..bytes.len() * 8 {
            let mut bad = bytes.clone();
            bad[i / 8] ^= 1 << (i % 8);
            assert!(Checkpoint::decode(&bad).is_err(), "bit {i} flipped");
        }
    }

    #[test]
    fn other_versions_and_old_checkpoints_are_named() {
        let bytes = sample().encode();
        let text = String::from_utf8(bytes).unwrap();
        let body = text.replacen(&format!(" {VERSION}\n"), " 2\n", 1);
        let body = &body[..body.rfind("fnv1a64").unwrap()];
        let sum = crate::search::digest::Fnv1a::of(body.as_bytes());
        let v2 = format!("{body}fnv1a64 {sum:016x}\n");
        assert!(matches!(
            Checkpoint::decode(v2.as_bytes()),
            Err(LoadError::Version(v, VERSION)) if v == "2"
        ));
        let old = br#"{"fingerprint":1,"done":2,"out_len":3,"stats":{}}"#;
        assert!(matches!(
            Checkpoint::decode(old),
            Err(LoadError::Foreign(_))
        ));
    }
}
