//! Pattern databases cached on disk, so the large ones are built only once.
//!
//! One file per pattern, `pdb15-<tiles>.bin` (e.g. `pdb15-1-2-3-4-5-6-7.bin`):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `SKPDB15\x01` (format version in the last byte) |
//! | 1 + k | pattern size k, then the k tiles |
//! | 8 | table length, little-endian |
//! | 8 | checksum of the table, little-endian (see [`checksum`]) |
//! | … | the table |
//!
//! Before anything is read, a file's metadata must show a regular file of
//! exactly the size its pattern needs (header plus table): anything else — a
//! FIFO (opening one for reading would block forever), a directory, a device,
//! a file of garbage — is rejected without being opened, with the reason
//! ([`Unusable`]). Only then is the header read, and the table checked against
//! its checksum; [`check`] stops after the header, for choosing databases
//! without reading hundreds of megabytes.
//!
//! A file that cannot be used is rebuilt and replaced. Files are written under
//! a temporary name and renamed into place, so a reader never sees half a
//! file, even when several processes build the same database at once. A
//! place that cannot be written (a read-only directory, a directory where the
//! file should be) is remembered for the life of the process: it is reported
//! once ([`Unwritable::first`]) and not tried again.

use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use super::pdb::{check_pattern, table_size, PatternDb, PatternError};

/// File magic; the last byte is the format version.
const MAGIC: &[u8; 8] = b"SKPDB15\x01";

/// Where pattern databases are cached by default: `$SUDOKIT_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/sudokit`, else `$HOME/.cache/sudokit`; `None` when none of
/// these is set (the databases are then built in memory only).
pub fn default_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    var("SUDOKIT_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("sudokit")))
        .or_else(|| var("HOME").map(|d| PathBuf::from(d).join(".cache").join("sudokit")))
}

/// The cache file of a pattern inside `dir`.
pub fn file_for(dir: &Path, tiles: &[u8]) -> PathBuf {
    let name: Vec<String> = tiles.iter().map(u8::to_string).collect();
    dir.join(format!("pdb15-{}.bin", name.join("-")))
}

/// Bytes of the header of a k-tile database: magic, pattern, length, checksum.
fn header_size(k: usize) -> usize {
    MAGIC.len() + 1 + k + 16
}

/// The exact size of the cache file of a k-tile database.
pub fn file_size(k: usize) -> u64 {
    (header_size(k) + table_size(k)) as u64
}

/// Why a cache file cannot be used. Its `Display` reads after the file's
/// name: "`pdb15-1-4-5.bin` is a FIFO, not a regular file".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unusable {
    /// There is no file (nor anything else) at that path, or a parent of it
    /// is not a directory.
    Missing,
    /// Something other than a regular file is there (named by kind: "a FIFO",
    /// "a directory", …); it was not opened.
    NotAFile(&'static str),
    /// A regular file of the wrong size; it was not opened.
    WrongSize {
        /// Its size in bytes.
        found: u64,
        /// The size of a database of this pattern ([`file_size`]).
        expected: u64,
    },
    /// The header is not that of a sudokit pattern database (of this format
    /// version).
    NotADatabase,
    /// A sudokit database, but of another pattern.
    OtherPattern,
    /// The table does not match the checksum in the header: corrupt.
    ChecksumMismatch,
    /// The operating system could not read it.
    Unreadable(String),
    /// The pattern asked for is not one a database can exist for.
    Pattern(PatternError),
}

impl fmt::Display for Unusable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unusable::Missing => write!(f, "does not exist"),
            Unusable::NotAFile(kind) => write!(f, "is {kind}, not a regular file"),
            Unusable::WrongSize { found, expected } => write!(
                f,
                "has the wrong size ({found} bytes; a database of this pattern has {expected})"
            ),
            Unusable::NotADatabase => write!(f, "is not a sudokit pattern database"),
            Unusable::OtherPattern => write!(f, "holds the database of another pattern"),
            Unusable::ChecksumMismatch => write!(f, "is corrupt (checksum mismatch)"),
            Unusable::Unreadable(error) => write!(f, "cannot be read: {error}"),
            Unusable::Pattern(error) => write!(f, "is not looked at: {error}"),
        }
    }
}

/// What kind of file `file_type` is, for a message ("a FIFO", "a directory").
fn kind(file_type: fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
    }
    "a special file"
}

/// Accepts `metadata` only for a regular file of `expected` bytes.
fn check_metadata(metadata: &fs::Metadata, expected: u64) -> Result<(), Unusable> {
    if !metadata.is_file() {
        return Err(Unusable::NotAFile(kind(metadata.file_type())));
    }
    if metadata.len() != expected {
        return Err(Unusable::WrongSize {
            found: metadata.len(),
            expected,
        });
    }
    Ok(())
}

/// Opens `path` for reading without ever blocking in `open`: on Unix with
/// `O_NONBLOCK`, so that a FIFO put there after the metadata was checked
/// cannot hang the reader (it is rejected by the check of what was opened).
/// The flag changes nothing for regular files.
fn open_for_reading(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Opens the cache file of `tiles` after checking its kind and size, and
/// reads and checks its header; returns the file, positioned at the table,
/// and the table's checksum.
fn open(path: &Path, tiles: &[u8]) -> Result<(fs::File, u64), Unusable> {
    let unreadable = |e: io::Error| Unusable::Unreadable(e.to_string());
    let expected = file_size(tiles.len());
    // A path under something that is not a directory holds no file either;
    // the cache directory's own problem shows when a save fails.
    let metadata = fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => Unusable::Missing,
        _ => unreadable(e),
    })?;
    check_metadata(&metadata, expected)?;
    let mut file = open_for_reading(path).map_err(unreadable)?;
    // The path may have been replaced since it was looked at: check what is open.
    check_metadata(&file.metadata().map_err(unreadable)?, expected)?;
    let mut header = vec![0u8; header_size(tiles.len())];
    file.read_exact(&mut header).map_err(unreadable)?;
    let (magic, rest) = header.split_at(MAGIC.len());
    if magic != MAGIC {
        return Err(Unusable::NotADatabase);
    }
    if rest[0] as usize != tiles.len() || &rest[1..=tiles.len()] != tiles {
        return Err(Unusable::OtherPattern);
    }
    let rest = &rest[1 + tiles.len()..];
    let word = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    if word(rest) != table_size(tiles.len()) as u64 {
        return Err(Unusable::NotADatabase);
    }
    Ok((file, word(&rest[8..])))
}

/// Whether `path` looks like the database of `tiles` — a regular file of the
/// right size whose header names this pattern — without reading its table
/// (so the checksum is not verified: [`load`] does that).
pub fn check(path: &Path, tiles: &[u8]) -> Result<(), Unusable> {
    open(path, tiles).map(|_| ())
}

/// A 64-bit checksum of `data`: FxHash-style mixing of little-endian words,
/// then the length. Every step is a bijection of the running state for a
/// fixed input word, so any change confined to one word always changes the
/// result; it guards against corruption, not against tampering.
pub fn checksum(data: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let mut words = data.chunks_exact(8);
    let mut h = words.by_ref().fold(0, |h, w| {
        mix(h, u64::from_le_bytes(w.try_into().expect("8 bytes")))
    });
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = mix(h, u64::from_le_bytes(tail));
    mix(h, data.len() as u64)
}

/// Reads the database of `tiles` from `path`, or says why it cannot be used.
///
/// Kind, size and header are checked first (see the module documentation)
/// and the table is read straight into its final buffer, so loading needs no
/// more memory than the table itself.
pub fn load(path: &Path, tiles: &[u8]) -> Result<PatternDb, Unusable> {
    check_pattern(tiles).map_err(Unusable::Pattern)?;
    let (mut file, sum) = open(path, tiles)?;
    let mut table = vec![0u8; table_size(tiles.len())];
    file.read_exact(&mut table)
        .map_err(|e| Unusable::Unreadable(e.to_string()))?;
    if checksum(&table) != sum {
        return Err(Unusable::ChecksumMismatch);
    }
    PatternDb::from_table(tiles, table).ok_or(Unusable::NotADatabase)
}

/// A database that could not be written to the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwritable {
    /// What refused: the cache directory (it cannot be created or written),
    /// or the one file that could not be put in place.
    pub place: PathBuf,
    /// The operating system's error.
    pub error: String,
    /// Whether this process meets this failure for the first time (report
    /// it); `false` when an earlier save already failed there, in which case
    /// this one was not even tried.
    pub first: bool,
}

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}: {}", self.place.display(), self.error)
    }
}

/// Places this process failed to write to, each with its error.
static UNWRITABLE: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());

/// Writes `db` to `path` atomically (temporary file, then rename), creating
/// the directory if needed — unless a save in this process already failed
/// for this directory or this file, which is then not tried again.
pub fn save(path: &Path, db: &PatternDb) -> Result<(), Unwritable> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut known = UNWRITABLE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((place, error)) = known.iter().find(|(p, _)| p == dir || p == path) {
        return Err(Unwritable {
            place: place.clone(),
            error: error.clone(),
            first: false,
        });
    }
    drop(known);
    let Err((place, error)) = write(path, dir, db) else {
        return Ok(());
    };
    let error = error.to_string();
    known = UNWRITABLE.lock().unwrap_or_else(PoisonError::into_inner);
    // Databases are saved side by side: another may have just failed there.
    let first = !known.iter().any(|(p, _)| *p == place);
    if first {
        known.push((place.clone(), error.clone()));
    }
    Err(Unwritable {
        place,
        error,
        first,
    })
}

/// Writes `db` to `path` in `dir` through a temporary file; on failure, says
/// which place refused: `dir` for anything up to the rename, `path` for the
/// rename itself (e.g. a directory stands there).
fn write(path: &Path, dir: &Path, db: &PatternDb) -> Result<(), (PathBuf, io::Error)> {
    // Unique per process and per call, so concurrent writers never share one.
    static WRITES: AtomicUsize = AtomicUsize::new(0);
    let serial = WRITES.fetch_add(1, Ordering::Relaxed);
    let temporary = path.with_extension(format!("tmp{}-{serial}", std::process::id()));
    let contents = || -> io::Result<()> {
        fs::create_dir_all(dir)?;
        let mut file = io::BufWriter::new(fs::File::create(&temporary)?);
        file.write_all(MAGIC)?;
        file.write_all(&[db.tiles().len() as u8])?;
        file.write_all(db.tiles())?;
        file.write_all(&(db.table().len() as u64).to_le_bytes())?;
        file.write_all(&checksum(db.table()).to_le_bytes())?;
        file.write_all(db.table())?;
        file.into_inner().map_err(|e| e.into_error())?.sync_all()
    };
    let result = contents()
        .map_err(|e| (dir.to_path_buf(), e))
        .and_then(|()| fs::rename(&temporary, path).map_err(|e| (path.to_path_buf(), e)));
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_sees_every_byte_and_the_length() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let base = checksum(&data);
        for i in [0, 1, 7, 8, 500, 999] {
            let mut changed = data.clone();
            changed[i] ^= 0x10;
            assert_ne!(checksum(&changed), base, "byte {i}");
        }
        assert_ne!(checksum(&data[..999]), base);
        assert_ne!(checksum(&[0]), checksum(&[0, 0]));
    }
}
