//! Byte kernels that every puzzle line goes through: reading cell text by
//! an alphabet's table, and counting the givens.
//!
//! Each kernel has a portable form and, on x86-64 CPUs with AVX-512 (F, BW
//! and VBMI: Ice Lake, Zen 4 and later), a form that takes 64 bytes per
//! step: one `vpermi2b` looks up 64 bytes in a 128-entry table, one
//! `vptestmb` finds 64 non-zero cells. The form is chosen at run time
//! ([`Path::best`]); both give the same answers, and the tests run both.
//! On random 6×6 puzzles the portable forms took about 300 of the
//! analyzer's 2,400 instructions a puzzle.

use std::sync::OnceLock;

/// A compiled form of the byte kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// Plain Rust: any CPU.
    Portable,
    /// AVX-512 F, BW and VBMI.
    Avx512,
}

impl Path {
    /// The fastest form this CPU runs, detected once.
    pub(crate) fn best() -> Path {
        static BEST: OnceLock<Path> = OnceLock::new();
        *BEST.get_or_init(|| {
            if avx512_available() {
                Path::Avx512
            } else {
                Path::Portable
            }
        })
    }
}

/// Whether this CPU has AVX-512 F, BW and VBMI.
fn avx512_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Writes `table[b]` into `out` for each byte `b` of `text`; returns
/// whether no value written has its top bit set (a table marks the bytes it
/// does not know with that bit). Every byte from 128 up must be unknown: the
/// AVX-512 form looks up only the low half of the table and writes `0x80`
/// for those bytes.
///
/// # Panics
/// If `text` and `out` differ in length.
pub(crate) fn look_up(path: Path, table: &[u8; 256], text: &[u8], out: &mut [u8]) -> bool {
    assert_eq!(text.len(), out.len(), "look_up needs one slot a byte");
    match path {
        // SAFETY: the path is `Avx512` only when the CPU has its features.
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => unsafe { look_up_avx512(table, text, out) },
        _ => look_up_portable(table, text, out),
    }
}

/// [`look_up`], a byte at a time.
fn look_up_portable(table: &[u8; 256], text: &[u8], out: &mut [u8]) -> bool {
    let mut seen = 0u8;
    for (&b, slot) in text.iter().zip(out.iter_mut()) {
        let v = table[b as usize];
        *slot = v;
        seen |= v;
    }
    seen & 0x80 == 0
}

/// [`look_up`], 64 bytes per `vpermi2b`.
///
/// # Safety
/// The CPU must have AVX-512 F, BW and VBMI.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn look_up_avx512(table: &[u8; 256], text: &[u8], out: &mut [u8]) -> bool {
    use std::arch::x86_64::*;
    // SAFETY: `table` is 256 bytes; its low 128 are two 64-byte loads.
    let (low, high) = unsafe {
        (
            _mm512_loadu_si512(table.as_ptr().cast()),
            _mm512_loadu_si512(table.as_ptr().add(64).cast()),
        )
    };
    let top = _mm512_set1_epi8(i8::MIN);
    let mut unknown = 0u64;
    for (start, chunk) in (0..text.len()).step_by(64).zip(text.chunks(64)) {
        let keep = u64::MAX >> (64 - chunk.len());
        // SAFETY: lanes past the chunk are masked off: no byte beyond
        // `text` is read and none beyond `out` is written.
        unsafe {
            let bytes = _mm512_maskz_loadu_epi8(keep, chunk.as_ptr().cast());
            let values = _mm512_permutex2var_epi8(low, bytes, high);
            // `vpermi2b` reads the low seven bits of an index: bytes from
            // 128 up are marked here instead.
            let values = _mm512_mask_mov_epi8(values, _mm512_movepi8_mask(bytes), top);
            _mm512_mask_storeu_epi8(out.as_mut_ptr().add(start).cast(), keep, values);
            unknown |= _mm512_movepi8_mask(values) & keep;
        }
    }
    unknown == 0
}

/// The number of non-zero bytes of `cells`.
pub(crate) fn count_nonzero(path: Path, cells: &[u8]) -> usize {
    match path {
        // SAFETY: the path is `Avx512` only when the CPU has its features.
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => unsafe { count_nonzero_avx512(cells) },
        _ => count_nonzero_portable(cells),
    }
}

/// [`count_nonzero`] eight bytes per step.
/// (A plain filtered count compiles to vector code only for slices of 64
/// bytes or more, and a 6×6 or 9×9 grid then goes through its scalar tail.)
fn count_nonzero_portable(cells: &[u8]) -> usize {
    // Adding 0x7f to a byte's low seven bits sets its top bit exactly when
    // they are not zero, with no carry into the next byte; the byte's own
    // top bit is ORed in.
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const TOP: u64 = 0x8080_8080_8080_8080;
    let nonzero = |word: u64| ((((word & LOW) + LOW) | word) & TOP).count_ones() as usize;
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
    if cells.len() < 8 {
        return cells.iter().filter(|&&v| v != 0).count();
    }
    let mut chunks = cells.chunks_exact(8);
    let count: usize = (&mut chunks).map(|chunk| nonzero(word(chunk))).sum();
    // The tail is the top bytes of the last eight cells (little-endian: the
    // bytes counted already are the low ones, shifted out).
    match chunks.remainder().len() {
        0 => count,
        rest => count + nonzero(word(&cells[cells.len() - 8..]) >> (8 * (8 - rest))),
    }
}

/// [`count_nonzero`], 64 bytes per `vptestmb`.
///
/// # Safety
/// The CPU must have AVX-512 F and BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
unsafe fn count_nonzero_avx512(cells: &[u8]) -> usize {
    use std::arch::x86_64::*;
    cells
        .chunks(64)
        .map(|chunk| {
            let keep = u64::MAX >> (64 - chunk.len());
            // SAFETY: lanes past the chunk are masked off.
            let bytes = unsafe { _mm512_maskz_loadu_epi8(keep, chunk.as_ptr().cast()) };
            _mm512_test_epi8_mask(bytes, bytes).count_ones() as usize
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Every form this CPU runs.
    fn paths() -> Vec<Path> {
        let mut paths = vec![Path::Portable];
        if avx512_available() {
            paths.push(Path::Avx512);
        }
        paths
    }

    #[test]
    fn look_up_reads_every_byte_by_the_table_on_every_path() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(61);
        // Mostly known values, a few marked unknown, so that texts of every
        // length come with and without an unknown byte. Bytes from 128 up
        // are unknown, as `look_up` requires, and `0x80`, what the AVX-512
        // form writes for them, so that the forms agree byte for byte.
        let mut table = [0x80u8; 256];
        for v in table[..128].iter_mut() {
            *v = if rng.gen_bool(0.02) {
                0xff
            } else {
                rng.gen_range(0..=64)
            };
        }
        let naive = |text: &[u8]| -> Vec<u8> { text.iter().map(|&b| table[b as usize]).collect() };
        for len in (0..=200).chain([255, 256, 257, 1000]) {
            for _ in 0..8 {
                // Bytes from 128 up in one text in four.
                let high = rng.gen_bool(0.25);
                let text: Vec<u8> = (0..len)
                    .map(|_| {
                        rng.gen::<u8>()
                            & if high && rng.gen_bool(0.01) {
                                0xff
                            } else {
                                0x7f
                            }
                    })
                    .collect();
                let want = naive(&text);
                let want_known = want.iter().all(|&v| v & 0x80 == 0);
                for path in paths() {
                    // A sentinel after the slot checks that nothing is written
                    // beyond `out`.
                    let mut out = vec![0x55u8; len + 1];
                    let known = look_up(path, &table, &text, &mut out[..len]);
                    assert_eq!(&out[..len], &want[..], "{path:?}, {len} bytes");
                    assert_eq!(out[len], 0x55, "{path:?} wrote past the end");
                    assert_eq!(known, want_known, "{path:?}, {len} bytes");
                }
            }
        }
    }

    #[test]
    fn count_nonzero_counts_as_one_by_one_on_every_path() {
        let naive = |cells: &[u8]| cells.iter().filter(|&&v| v != 0).count();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(62);
        // Every value a cell can hold (0 to 64) at every position of the
        // words and of the tail, alone and among other givens.
        for len in 1..=24usize {
            for at in 0..len {
                for value in 0..=64u8 {
                    let mut cells = vec![0u8; len];
                    cells[at] = value;
                    for path in paths() {
                        assert_eq!(count_nonzero(path, &cells), naive(&cells));
                    }
                    cells.iter_mut().for_each(|c| *c = 1);
                    cells[at] = value;
                    for path in paths() {
                        assert_eq!(count_nonzero(path, &cells), naive(&cells));
                    }
                }
            }
        }
        for _ in 0..2000 {
            let len = rng.gen_range(0..700);
            let cells: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.gen_bool(0.4) {
                        rng.gen_range(1..=255)
                    } else {
                        0
                    }
                })
                .collect();
            for path in paths() {
                assert_eq!(count_nonzero(path, &cells), naive(&cells), "{path:?}");
            }
        }
    }
}
