//! Checkpoints of a hunt: how far it got, so `--resume` after a kill neither
//! loses nor repeats a find.
//!
//! After each batch of units the hunt records the number of this shard's
//! units finished, the out file's length at that moment and the counts so
//! far. It writes the record to a temporary file and renames it over the
//! old one, so a kill leaves either the old or the new checkpoint, never a
//! torn one. Finds are appended to the out file as they are found, so after
//! a kill the file may hold finds of the unfinished batch: resuming cuts the
//! file back to the recorded length and redoes the batch, which finds them
//! again.

use std::fs;
use std::io;
use std::path::Path;

use super::Stats;

/// What a checkpoint records.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    /// A digest of the seeds and options, so a checkpoint is never resumed
    /// with other ones.
    pub fingerprint: u64,
    /// Units of this shard finished.
    pub done: u64,
    /// Length of the out file when they were.
    pub out_len: u64,
    /// Counts of the finished units.
    pub stats: Stats,
}

impl Checkpoint {
    /// Reads a checkpoint; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> io::Result<Option<Checkpoint>> {
        match fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Writes the checkpoint atomically: a temporary file, synced, renamed.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let bytes = serde_json::to_vec(self).map_err(io::Error::other)?;
        {
            let file = fs::File::create(&tmp)?;
            io::Write::write_all(&mut &file, &bytes)?;
            file.sync_all()?;
        }
        fs::rename(&tmp, path)
    }
}
