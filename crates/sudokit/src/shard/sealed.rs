//! Files sealed with a checksum, replaced atomically: the checkpoints of
//! the hunt and of record runs.
//!
//! A sealed file is three lines of text:
//!
//! ```text
//! <kind> <version>
//! {…the record as JSON…}
//! fnv1a64 0123456789abcdef
//! ```
//!
//! its kind and format version, the record, and the FNV-1a digest of the
//! first two lines (see [`digest`](crate::search::digest)): a flipped bit
//! anywhere in the file is found. It is written to a temporary file, synced
//! and renamed over the old one, so a kill leaves either the old or the new
//! file, never a torn one.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::search::digest::Fnv1a;

/// The checksum line's word before the digest.
const CHECKSUM: &str = "fnv1a64";

/// Why a sealed file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Reading the file failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The file does not start with the kind expected (named here).
    #[error("not a {0}")]
    Foreign(&'static str),
    /// The checksum does not match the content.
    #[error("damaged: its checksum does not match its content")]
    Damaged,
    /// A file of another format version: (found, the one read).
    #[error("checkpoint format {0}, but this sudokit reads format {1}")]
    Version(String, u32),
}

/// The file's bytes: kind and version, `value` as JSON, checksum.
pub(crate) fn encode<T: Serialize>(kind: &str, version: u32, value: &T) -> Vec<u8> {
    let json = serde_json::to_string(value).expect("a checkpoint serializes");
    let body = format!("{kind} {version}\n{json}\n");
    let sum = Fnv1a::of(body.as_bytes());
    format!("{body}{CHECKSUM} {sum:016x}\n").into_bytes()
}

/// Reads a file's bytes back, checking kind, checksum and version;
/// `described` names the kind in an error (e.g. `sudokit hunt checkpoint`).
pub(crate) fn decode<T: DeserializeOwned>(
    kind: &str,
    version: u32,
    described: &'static str,
    bytes: &[u8],
) -> Result<T, LoadError> {
    if !bytes.starts_with(kind.as_bytes()) {
        return Err(LoadError::Foreign(described));
    }
    // body (ending in '\n') + checksum line (ending in '\n').
    let text = bytes.strip_suffix(b"\n").ok_or(LoadError::Damaged)?;
    let split = text
        .iter()
        .rposition(|&b| b == b'\n')
        .ok_or(LoadError::Damaged)?;
    let (body, sum_line) = (&bytes[..=split], &text[split + 1..]);
    let expected = format!("{CHECKSUM} {:016x}", Fnv1a::of(body));
    if sum_line != expected.as_bytes() {
        return Err(LoadError::Damaged);
    }
    // The checksum holds, so the body is what was written: valid UTF-8,
    // two lines.
    let body = std::str::from_utf8(body).map_err(|_| LoadError::Damaged)?;
    let (head, json) = body.split_once('\n').ok_or(LoadError::Damaged)?;
    let found = head[kind.len()..].trim();
    if found != version.to_string() {
        return Err(LoadError::Version(found.to_string(), version));
    }
    serde_json::from_str(json.trim_end()).map_err(|_| LoadError::Damaged)
}

/// Reads `path` whole; `Ok(None)` when there is no such file.
pub(crate) fn read(path: &Path) -> Result<Option<Vec<u8>>, LoadError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file, synced, renamed.
pub(crate) fn save(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temporary(path);
    {
        let file = fs::File::create(&tmp)?;
        io::Write::write_all(&mut &file, bytes)?;
        file.sync_all()?;
    }
    fs::rename(&tmp, path)
}

/// Removes the file at `path` and its temporary file, if there.
pub(crate) fn remove(path: &Path) -> io::Result<()> {
    for file in [path.to_path_buf(), temporary(path)] {
        match fs::remove_file(&file) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// The temporary file a sealed file is written to before the rename.
fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}
