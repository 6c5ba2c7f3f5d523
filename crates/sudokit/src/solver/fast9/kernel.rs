//! The two whole-board scans of the engine, in a portable form and an x86
//! SIMD form. Both see the board as nine 128-bit rows (one per digit, lanes
//! 0..3 = bands, lane 3 always zero), so the SIMD form handles a digit per
//! instruction where the portable one loops over bands.
//!
//! `SIMD = true` is only instantiated on x86-64, inside the search compiled
//! with `#[target_feature]` after runtime detection (see `Fast9Solver::new`).

/// Per band: the cells with at least one, two and three candidate digits.
#[derive(Clone, Copy)]
pub(super) struct Counts {
    pub one: [u32; 4],
    pub two: [u32; 4],
    pub three: [u32; 4],
}

/// Bit `3·d + b` set when `cand[d][b]` differs from `prev[d][b]`.
#[inline(always)]
pub(super) fn changed<const SIMD: bool>(cand: &[[u32; 4]; 9], prev: &[[u32; 4]; 9]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if SIMD {
        // SAFETY: the SIMD path only runs where AVX2 and BMI2 were detected.
        return unsafe { x86::changed(cand, prev) };
    }
    let mut dirty = 0;
    for d in 0..9 {
        for b in 0..3 {
            dirty |= u32::from(cand[d][b] != prev[d][b]) << (3 * d + b);
        }
    }
    dirty
}

/// `masks[v][b]`: the cells of band `b` holding value `v` in `cells` (81
/// values `0..=9`, then padding).
#[inline(always)]
pub(super) fn given_masks<const SIMD: bool>(cells: &[u8; 96]) -> [[u32; 4]; 10] {
    #[cfg(target_arch = "x86_64")]
    if SIMD {
        // SAFETY: the SIMD path only runs where AVX2 was detected.
        return unsafe { x86::given_masks(cells) };
    }
    let mut masks = [[0u32; 4]; 10];
    for (b, band) in cells[..81].chunks_exact(27).enumerate() {
        for (i, &v) in band.iter().enumerate() {
            // A value above 9 (outside the contract) matches no mask, as in
            // the SIMD form: the cell gets no candidate.
            if let Some(m) = masks.get_mut(usize::from(v)) {
                m[b] |= 1 << i;
            }
        }
    }
    masks
}

/// Bit-sliced candidate counts of every cell (saturating at three).
#[inline(always)]
pub(super) fn counts<const SIMD: bool>(cand: &[[u32; 4]; 9]) -> Counts {
    #[cfg(target_arch = "x86_64")]
    if SIMD {
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

    /// Needs AVX2 and BMI2 (the SIMD path's features).
    #[inline(always)]
    pub(super) unsafe fn changed(cand: &[[u32; 4]; 9], prev: &[[u32; 4]; 9]) -> u32 {
        // Two digits per 256-bit compare: bit 4·d + b of `same` (lane 3 of
        // each digit included, always equal), then the lane-3 bits dropped.
        let c = cand.as_ptr().cast::<u32>();
        let p = prev.as_ptr().cast::<u32>();
        let mut same = 0u64;
        for k in 0..4 {
            let x = _mm256_loadu_si256(c.add(8 * k).cast());
            let y = _mm256_loadu_si256(p.add(8 * k).cast());
            let eq = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(x, y))) as u32;
            same |= u64::from(eq) << (8 * k);
        }
        let x = _mm_loadu_si128(c.add(32).cast());
        let y = _mm_loadu_si128(p.add(32).cast());
        same |= u64::from(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, y))) as u32) << 32;
        _pext_u64(!same, 0x7_7777_7777) as u32
    }

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
