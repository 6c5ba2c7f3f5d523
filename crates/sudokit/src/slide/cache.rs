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
//! A file that is missing, truncated, for another pattern or whose checksum
//! does not match is rebuilt and replaced. Files are written under a temporary
//! name and renamed into place, so a reader never sees half a file, even when
//! several processes build the same database at once.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::pdb::{table_size, PatternDb};

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
/// The header is read first and the table straight into its final buffer, so
/// loading needs no more memory than the table itself.
pub fn load(path: &Path, tiles: &[u8]) -> Result<PatternDb, String> {
    let bad = |why: &dyn std::fmt::Display| format!("{}: {why}", path.display());
    let mut file = fs::File::open(path).map_err(|e| bad(&e))?;
    let mut header = vec![0u8; MAGIC.len() + 1 + tiles.len() + 16];
    file.read_exact(&mut header)
        .map_err(|_| bad(&"not a sudokit pattern database"))?;
    let (magic, rest) = header.split_at(MAGIC.len());
    if magic != MAGIC {
        return Err(bad(&"not a sudokit pattern database"));
    }
    if rest[0] as usize != tiles.len() || &rest[1..=tiles.len()] != tiles {
        return Err(bad(&"built for another pattern"));
    }
    let rest = &rest[1 + tiles.len()..];
    let word = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    let (length, sum) = (word(rest), word(&rest[8..]));
    let on_disk = file.metadata().map_err(|e| bad(&e))?.len();
    if on_disk != header.len() as u64 + length || length != table_size(tiles.len()) as u64 {
        return Err(bad(&"truncated or wrong size"));
    }
    let mut table = vec![0u8; length as usize];
    file.read_exact(&mut table).map_err(|e| bad(&e))?;
    if checksum(&table) != sum {
        return Err(bad(&"checksum mismatch"));
    }
    PatternDb::from_table(tiles, table).ok_or_else(|| bad(&"wrong table size"))
}

/// Writes `db` to `path` atomically (temporary file, then rename), creating
/// the directory if needed.
pub fn save(path: &Path, db: &PatternDb) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    // Unique per process and per call, so concurrent writers never share one.
    static WRITES: AtomicUsize = AtomicUsize::new(0);
    let serial = WRITES.fetch_add(1, Ordering::Relaxed);
    let temporary = path.with_extension(format!("tmp{}-{serial}", std::process::id()));
    let write = || -> io::Result<()> {
        let mut file = io::BufWriter::new(fs::File::create(&temporary)?);
        file.write_all(MAGIC)?;
        file.write_all(&[db.tiles().len() as u8])?;
        file.write_all(db.tiles())?;
        file.write_all(&(db.table().len() as u64).to_le_bytes())?;
        file.write_all(&checksum(db.table()).to_le_bytes())?;
        file.write_all(db.table())?;
        file.into_inner().map_err(|e| e.into_error())?.sync_all()
    };
    let result = write().and_then(|()| fs::rename(&temporary, path));
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
