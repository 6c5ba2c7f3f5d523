//! The whole-board scans of the engine (reading the givens, counting
//! candidates), in a portable form and two x86 SIMD forms. The board is nine
//! 128-bit rows (one per digit, lanes 0..3 = bands, lane 3 always zero): the
//! AVX2 form handles a whole row or 32 cells per instruction where the
//! portable one loops over bands and cells, and the AVX-512 form compares 64
//! cells at once into mask registers and folds two bitwise steps into one
//! ternary-logic instruction.
//!
//! The engine's functions take the code path as a const parameter `L`
//! ([`PORTABLE`], [`AVX2`], [`AVX512`]); the x86 levels are only instantiated
//! on x86-64, inside searches compiled with `#[target_feature]` after runtime
//! detection (see `CodePath`). [`AVX512`] includes every [`AVX2`] feature, so
//! code that needs only those tests `L >= AVX2`.

/// The portable code path: plain Rust, any CPU.
pub(super) const PORTABLE: u8 = 0;
/// The x86-64 path for CPUs with AVX2, BMI1/2, POPCNT and LZCNT.
#[cfg(target_arch = "x86_64")]
pub(super) const AVX2: u8 = 1;
/// The x86-64 path for CPUs that also have AVX-512 F, BW and VL.
#[cfg(target_arch = "x86_64")]
pub(super) const AVX512: u8 = 2;

/// Per band: the cells with at least one, two and three candidate digits.
#[derive(Clone, Copy)]
pub(super) struct Counts {
    pub one: [u32; 4],
    pub two: [u32; 4],
    pub three: [u32; 4],
}

/// `masks[v][b]`: the cells of band `b` holding value `v` in `cells` (81
/// values `0..=9`, then padding).
#[inline(always)]
pub(super) fn given_masks<const L: u8>(cells: &[u8; 96]) -> [[u32; 4]; 10] {
    #[cfg(target_arch = "x86_64")]
    if L == AVX512 {
        // SAFETY: this level only runs where AVX-512 BW was detected.
        return unsafe { x86_512::given_masks(cells) };
    }
    #[cfg(target_arch = "x86_64")]
    if L >= AVX2 {
        // SAFETY: the x86 levels only run where AVX2 was detected.
        return unsafe { x86::given_masks(cells) };
    }
    let mut masks = [[0u32; 4]; 10];
    for (b, band) in cells[..81].chunks_exact(27).enumerate() {
        for (i, &v) in band.iter().enumerate() {
            // A value above 9 (outside the contract) matches no mask, as in
            // the SIMD forms: the cell gets no candidate.
            if let Some(m) = masks.get_mut(usize::from(v)) {
                m[b] |= 1 << i;
            }
        }
    }
    masks
}

/// Bit-sliced candidate counts of every cell (saturating at three).
#[inline(always)]
pub(super) fn counts<const L: u8>(cand: &[[u32; 4]; 9]) -> Counts {
    #[cfg(target_arch = "x86_64")]
    if L == AVX512 {
        // SAFETY: this level only runs where AVX-512 F/VL was detected.
        return unsafe { x86_512::counts(cand) };
    }
    #[cfg(target_arch = "x86_64")]
    if L >= AVX2 {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        return unsafe { x86::counts(cand) };
    }
    let mut c = Counts {
        one: [0; 4],
        two: [0; 4],
        three: [0; 4],
    };
    for row in cand {
        for (b, &x) in row.iter().enumerate().take(3) {
            c.three[b] |= c.two[b] & x;
            c.two[b] |= c.one[b] & x;
            c.one[b] |= x;
        }
    }
    c
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Counts;
    use std::arch::x86_64::*;

    /// Needs AVX2.
    #[inline(always)]
    pub(super) unsafe fn given_masks(cells: &[u8; 96]) -> [[u32; 4]; 10] {
        let mut masks = [[0u32; 4]; 10];
        for b in 0..3 {
            // Bytes 27·b .. 27·b + 32 lie within the 96-byte buffer.
            let x = _mm256_loadu_si256(cells.as_ptr().add(27 * b).cast());
            for (v, m) in masks.iter_mut().enumerate() {
                let eq = _mm256_cmpeq_epi8(x, _mm256_set1_epi8(v as i8));
                m[b] = _mm256_movemask_epi8(eq) as u32 & 0x7FF_FFFF;
            }
        }
        masks
    }

    #[inline(always)]
    pub(super) unsafe fn counts(cand: &[[u32; 4]; 9]) -> Counts {
        let mut one = _mm_setzero_si128();
        let mut two = _mm_setzero_si128();
        let mut three = _mm_setzero_si128();
        for row in cand {
            let x = _mm_loadu_si128(row.as_ptr().cast());
            three = _mm_or_si128(three, _mm_and_si128(two, x));
            two = _mm_or_si128(two, _mm_and_si128(one, x));
            one = _mm_or_si128(one, x);
        }
        counts_of(one, two, three)
    }

    /// The three count registers as [`Counts`].
    #[inline(always)]
    pub(super) unsafe fn counts_of(one: __m128i, two: __m128i, three: __m128i) -> Counts {
        let mut c = Counts {
            one: [0; 4],
            two: [0; 4],
            three: [0; 4],
        };
        _mm_storeu_si128(c.one.as_mut_ptr().cast(), one);
        _mm_storeu_si128(c.two.as_mut_ptr().cast(), two);
        _mm_storeu_si128(c.three.as_mut_ptr().cast(), three);
        c
    }
}

#[cfg(target_arch = "x86_64")]
mod x86_512 {
    use super::Counts;
    use std::arch::x86_64::*;

    /// Needs AVX-512 BW.
    #[inline(always)]
    pub(super) unsafe fn given_masks(cells: &[u8; 96]) -> [[u32; 4]; 10] {
        // Cells 0..64 and 32..96 in two registers: one byte compare per
        // value and half gives a 64-bit mask; bands 0 and 1 are bits 0..27
        // and 27..54 of the first, band 2 (cells 54..81) bits 22..49 of the
        // second.
        let low = _mm512_loadu_si512(cells.as_ptr().cast());
        let high = _mm512_loadu_si512(cells.as_ptr().add(32).cast());
        let mut masks = [[0u32; 4]; 10];
        for (v, m) in masks.iter_mut().enumerate() {
            let value = _mm512_set1_epi8(v as i8);
            let a = _mm512_cmpeq_epi8_mask(low, value);
            let b = _mm512_cmpeq_epi8_mask(high, value);
            m[0] = (a & 0x7FF_FFFF) as u32;
            m[1] = ((a >> 27) & 0x7FF_FFFF) as u32;
            m[2] = ((b >> 22) & 0x7FF_FFFF) as u32;
        }
        masks
    }

    /// Needs AVX-512 F and VL.
    #[inline(always)]
    pub(super) unsafe fn counts(cand: &[[u32; 4]; 9]) -> Counts {
        // `a | (b & c)` is ternary-logic table 0xF8 (a = 0xF0, b = 0xCC,
        // c = 0xAA): one instruction per count level and digit.
        let mut one = _mm_setzero_si128();
        let mut two = _mm_setzero_si128();
        let mut three = _mm_setzero_si128();
        for row in cand {
            let x = _mm_loadu_si128(row.as_ptr().cast());
            three = _mm_ternarylogic_epi32::<0xF8>(three, two, x);
            two = _mm_ternarylogic_epi32::<0xF8>(two, one, x);
            one = _mm_or_si128(one, x);
        }
        super::x86::counts_of(one, two, three)
    }
}
