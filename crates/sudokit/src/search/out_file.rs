//! The out file of a hunt: locked for the whole run, checked against the
//! checkpoint before a resume changes it, appended to find by find.
//!
//! The lock is an exclusive advisory lock (`flock` on Unix) on the out file
//! itself, taken before anything is read or written and held until the run
//! ends: a second hunt on the same file, under whatever name, is refused at
//! once instead of interleaving its finds and checkpoints with the first's.

use std::collections::HashSet;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::Path;

use super::checkpoint::Checkpoint;
use super::digest::Fnv1a;
use crate::canon::canonical_raw;

/// Why an out file does not match its checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutMismatch {
    /// The file is gone but the checkpoint records finds in it.
    #[error("is missing, but the checkpoint records {expected} bytes of finds in it")]
    Missing {
        /// Length recorded by the checkpoint.
        expected: u64,
    },
    /// The file is shorter than the checkpoint's prefix.
    #[error("is {len} bytes, shorter than the {expected} bytes the checkpoint records")]
    Shorter {
        /// Length of the file.
        len: u64,
        /// Length recorded by the checkpoint.
        expected: u64,
    },
    /// The checkpointed prefix has other bytes than when it was recorded.
    #[error("differs in its first {expected} bytes from what the checkpoint records")]
    Differs {
        /// Length recorded by the checkpoint.
        expected: u64,
    },
    /// After the prefix comes text a hunt does not write.
    #[error("has unexpected text at byte {at}, after the {expected} bytes the checkpoint records")]
    ForeignTail {
        /// Length recorded by the checkpoint.
        expected: u64,
        /// Offset of the first line that is not a find.
        at: u64,
    },
}

/// Why the out file could not be opened and locked.
#[derive(Debug)]
pub(crate) enum LockError {
    /// Another run holds the lock.
    Held,
    /// Opening or locking failed.
    Io(io::Error),
}

/// Opens `path` for reading and appending (creating it when `create`) and
/// takes its lock without waiting.
pub(crate) fn open_locked(path: &Path, create: bool) -> Result<File, LockError> {
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(create)
        .open(path)
        .map_err(LockError::Io)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(LockError::Held),
        Err(TryLockError::Error(e)) => Err(LockError::Io(e)),
    }
}

/// The whole content of an open file, read from its start.
pub(super) fn read_all(mut file: &File) -> io::Result<Vec<u8>> {
    let mut text = Vec::new();
    io::Seek::rewind(&mut file)?;
    file.read_to_end(&mut text)?;
    Ok(text)
}

/// Checks `text`, an out file's content, against checkpoint `c`: its first
/// `out_len` bytes must have the recorded digest, and what follows them must
/// be finds (whole lines of 81 cells, the last perhaps torn by a kill) — the
/// unfinished batch that resuming cuts off and redoes.
pub(crate) fn verify(text: &[u8], c: &Checkpoint) -> Result<(), OutMismatch> {
    let expected = c.out_len;
    let len = text.len() as u64;
    if len < expected {
        return Err(OutMismatch::Shorter { len, expected });
    }
    let (prefix, tail) = text.split_at(expected as usize);
    if Fnv1a::of(prefix) != c.out_digest {
        return Err(OutMismatch::Differs { expected });
    }
    match first_non_find(tail) {
        Some(at) => Err(OutMismatch::ForeignTail {
            expected,
            at: expected + at,
        }),
        None => Ok(()),
    }
}

/// Offset of the first line of `tail` that is not a find as the hunt writes
/// them (81 of `.1-9` and a newline; the last line may stop short).
fn first_non_find(tail: &[u8]) -> Option<u64> {
    let mut at = 0;
    let mut lines = tail.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let last = lines.peek().is_none();
        let cells_ok = line
            .iter()
            .all(|&b| b == b'.' || (b'1'..=b'9').contains(&b));
        let len_ok = if last {
            line.len() <= 81
        } else {
            line.len() == 81
        };
        if !(cells_ok && len_ok) {
            return Some(at as u64);
        }
        at += line.len() + 1;
    }
    None
}

/// The locked out file being appended to, its length and digest so far, and
/// the canonical forms seen.
pub(super) struct Sink {
    /// The out file, locked.
    file: File,
    /// Its length.
    len: u64,
    /// The digest of its content.
    digest: Fnv1a,
    /// Canonical forms of the puzzles in it and of the seeds.
    seen: HashSet<[u8; 81]>,
}

impl Sink {
    /// Takes over the locked `file` whose content is `text` (already cut to
    /// what is kept), ending a torn last line so the next find starts on a
    /// line of its own.
    pub(super) fn new(mut file: File, text: &[u8]) -> io::Result<Sink> {
        let mut digest = Fnv1a::new();
        digest.update(text);
        let mut len = text.len() as u64;
        if text.last().is_some_and(|&b| b != b'\n') {
            file.write_all(b"\n")?;
            digest.update(b"\n");
            len += 1;
        }
        let seen = text.split(|&b| b == b'\n').filter_map(puzzle_of).collect();
        Ok(Sink {
            file,
            len,
            digest,
            seen,
        })
    }

    /// Counts `puzzle` as seen without writing it (a seed).
    pub(super) fn see(&mut self, puzzle: &[u8; 81]) {
        self.seen.insert(canonical_raw(puzzle));
    }

    /// Records a find; `true` when it is new (and then written and flushed).
    pub(super) fn offer(&mut self, puzzle: &[u8; 81]) -> io::Result<bool> {
        if !self.seen.insert(canonical_raw(puzzle)) {
            return Ok(false);
        }
        let mut line: Vec<u8> = puzzle
            .iter()
            .map(|&v| if v == 0 { b'.' } else { b'0' + v })
            .collect();
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.flush()?;
        self.digest.update(&line);
        self.len += line.len() as u64;
        Ok(true)
    }

    /// Makes everything written durable and returns the length and digest
    /// a checkpoint records.
    pub(super) fn settle(&self) -> io::Result<(u64, u64)> {
        self.file.sync_data()?;
        Ok((self.len, self.digest.value()))
    }
}

/// The canonical form of the puzzle a line of the out file starts with.
fn puzzle_of(line: &[u8]) -> Option<[u8; 81]> {
    find_of(line).map(|p| canonical_raw(&p))
}

/// The puzzle a line of the out file starts with (81 cells), if it is one.
pub(crate) fn find_of(line: &[u8]) -> Option<[u8; 81]> {
    let cells: Vec<u8> = line
        .iter()
        .take(81)
        .map(|&b| match b {
            b'1'..=b'9' => b - b'0',
            _ => 0,
        })
        .collect();
    <[u8; 81]>::try_from(cells).ok()
}

#[cfg(test)]
mod tests {
    use super::first_non_find;

    #[test]
    fn finds_and_a_torn_last_line_pass() {
        let line = format!("{}\n", "1.".repeat(40) + "9");
        assert_eq!(first_non_find(b""), None);
        assert_eq!(first_non_find(line.as_bytes()), None);
        let torn = format!("{line}{}", &line[..30]);
        assert_eq!(first_non_find(torn.as_bytes()), None);
    }

    #[test]
    fn other_text_is_found_where_it_starts() {
        let line = format!("{}\n", ".".repeat(81));
        let text = format!("{line}# a note\n{line}");
        assert_eq!(first_non_find(text.as_bytes()), Some(82));
        let short = format!("{}\n{line}", ".".repeat(80));
        assert_eq!(first_non_find(short.as_bytes()), Some(0));
    }
}
