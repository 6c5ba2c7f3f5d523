//! The whole-board scans of the engine (reading the givens, counting
//! candidates), in a portable form and two x86 SIMD forms, and the AVX-512
//! form of the whole propagation. The board is nine 128-bit rows (one per
//! digit, lanes 0..3 = bands, lane 3 always zero): the AVX2 form handles a
//! whole row or 32 cells per instruction where the portable one loops over
//! bands and cells, and the AVX-512 form compares 64 cells at once into mask
//! registers and folds two bitwise steps into one ternary-logic instruction.
//!
//! On the AVX-512 path the fixpoint itself runs here, with the whole board
//! in two registers: every band update of every digit at once, the band and
//! stack permutation logic computed with shifts and lane rotations instead
//! of table lookups, in rounds until nothing changes. That does more work
//! per round than the band-by-band updates of the other paths, but a round
//! is a few dozen vector instructions with no loads or stores, where the
//! band updates are a chain of dependent scalar loads and stores.
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

/// Whether the engine's fixpoint on path `l` includes the column logic of
/// every stack (the AVX-512 rounds do; the other paths run it as a separate
/// step before each guess).
pub(super) const fn stacks_in_fixpoint(l: u8) -> bool {
    #[cfg(target_arch = "x86_64")]
    if l == AVX512 {
        return true;
    }
    let _ = l;
    false
}

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
pub(super) use x86_512::fixpoint as fixpoint_512;

#[cfg(target_arch = "x86_64")]
mod x86_512 {
    use super::super::Fixpoint;
    use super::{x86, Counts};
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
        let (one, two, three) = count_rows(cand.map(|row| _mm_loadu_si128(row.as_ptr().cast())));
        super::x86::counts_of(one, two, three)
    }

    /// The cells with at least one, two and three candidates, per band, of
    /// the nine digit rows. `a | (b & c)` is ternary-logic table 0xF8
    /// (a = 0xF0, b = 0xCC, c = 0xAA): one instruction per count level and
    /// digit.
    #[inline(always)]
    unsafe fn count_rows(rows: [__m128i; 9]) -> (__m128i, __m128i, __m128i) {
        let mut one = _mm_setzero_si128();
        let mut two = _mm_setzero_si128();
        let mut three = _mm_setzero_si128();
        for x in rows {
            three = _mm_ternarylogic_epi32::<0xF8>(three, two, x);
            two = _mm_ternarylogic_epi32::<0xF8>(two, one, x);
            one = _mm_or_si128(one, x);
        }
        (one, two, three)
    }

    /// Lane indices for `_mm512_permutexvar_epi32` on the packed register
    /// (see [`fixpoint`]).
    #[repr(align(64))]
    struct Lanes([u32; 16]);

    /// Band `b` of every digit takes band `b + 1`'s value (mod 3).
    static NEXT_BAND: Lanes = Lanes([1, 2, 0, 7, 5, 6, 4, 11, 9, 10, 8, 3, 13, 14, 12, 15]);
    /// Band `b` of every digit takes band `b + 2`'s value (mod 3).
    static LAST_BAND: Lanes = Lanes([2, 0, 1, 11, 6, 4, 5, 3, 10, 8, 9, 7, 14, 12, 13, 15]);
    /// A per-band value (lanes 0..3) spread to the bands of the packed
    /// register; lane 15 stays zero.
    static SPREAD: Lanes = Lanes([0, 1, 2, 0, 0, 1, 2, 1, 0, 1, 2, 2, 0, 1, 2, 3]);
    /// Digit 9's bands out of the packed register into lanes 0..3.
    static NINTH: Lanes = Lanes([3, 7, 11, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15]);
    /// Digit 9's bands (lanes 0..3) into the packed register.
    static PACK: Lanes = Lanes([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0]);

    /// The lanes of the packed register that hold band masks.
    const PACKED_LANES: u16 = 0x7FFF;
    /// The lanes of a plain register (four digits) that hold band masks.
    const PLAIN_LANES: u16 = 0x7777;

    /// The lane indices as a register.
    #[inline(always)]
    unsafe fn lanes(l: &Lanes) -> __m512i {
        _mm512_load_si512(l.0.as_ptr().cast())
    }

    /// `x` in every lane.
    #[inline(always)]
    unsafe fn splat(x: u32) -> __m512i {
        _mm512_set1_epi32(x as i32)
    }

    /// Per bit, `a` where `mask` is set, else `b`.
    #[inline(always)]
    unsafe fn select(mask: u32, a: __m512i, b: __m512i) -> __m512i {
        _mm512_ternarylogic_epi32::<0xCA>(splat(mask), a, b)
    }

    /// Needs AVX-512 F and VL. The engine's `fixpoint` with the board in
    /// two registers: band and stack updates of every digit at once, in
    /// rounds, until a round changes nothing; then naked singles, and
    /// rounds again while they remove candidates.
    ///
    /// Lane `4·d + b` of the first (packed) register holds band `b` of
    /// digit `d` (0..4), lane `4·b + 3` band `b` of digit 8; the second
    /// (plain) register holds digits 4..8 like the first, its lanes
    /// `4·d + 3` zero. Per-band values (the unsolved cells, the cells
    /// placed in a round) are kept in lanes `b` and `4·d + b` of a register
    /// and spread to the packed layout with [`SPREAD`].
    #[inline(always)]
    pub(in super::super) unsafe fn fixpoint(
        cand: &mut [[u32; 4]; 9],
        unsolved: &mut [u32; 4],
    ) -> Fixpoint {
        let p = cand.as_mut_ptr().cast::<u32>();
        let ninth = _mm512_zextsi128_si512(_mm_loadu_si128(p.add(32).cast()));
        let mut v = [
            _mm512_mask_permutexvar_epi32(
                _mm512_loadu_si512(p.cast()),
                !PLAIN_LANES & PACKED_LANES,
                lanes(&PACK),
                ninth,
            ),
            _mm512_loadu_si512(p.add(16).cast()),
        ];
        let mut u = _mm512_broadcast_i32x4(_mm_loadu_si128(unsolved.as_ptr().cast()));
        let reached = loop {
            match round(&mut v, &mut u) {
                None => break Fixpoint::Dead,
                Some(true) => continue,
                Some(false) => {}
            }
            // The unsolved cells of each band (lanes 0..3).
            let open = _mm512_castsi512_si128(u);
            if _mm_test_all_ones(_mm_cmpeq_epi32(open, _mm_setzero_si128())) == 1 {
                break Fixpoint::Solved;
            }
            let (one, two, three) = counts_in(&v);
            if _mm_test_all_zeros(_mm_andnot_si128(one, open), open) == 0 {
                break Fixpoint::Dead;
            }
            let singles = _mm_andnot_si128(two, open);
            if _mm_test_all_zeros(singles, singles) == 1 {
                break Fixpoint::Open(x86::counts_of(one, two, three));
            }
            // Removing the digits of the singles from their peers always
            // changes something: a single whose peers had already lost its
            // digit was alone in its row and placed by the band update,
            // unless it shares a unit with another single of its digit, and
            // then the band and stack updates find that contradiction. The
            // check only guarantees that the loop ends.
            if !place_singles(&mut v, _mm512_broadcast_i32x4(singles)) {
                break Fixpoint::Dead;
            }
        };
        _mm512_storeu_si512(p.cast(), _mm512_maskz_mov_epi32(PLAIN_LANES, v[0]));
        _mm512_storeu_si512(p.add(16).cast(), v[1]);
        let ninth = _mm512_permutexvar_epi32(lanes(&NINTH), v[0]);
        _mm_storeu_si128(p.add(32).cast(), _mm512_castsi512_si128(ninth));
        _mm_storeu_si128(unsolved.as_mut_ptr().cast(), _mm512_castsi512_si128(u));
        reached
    }

    /// One round of band and stack updates on every mask; `None` on a
    /// contradiction, else whether a mask changed. `u`: the unsolved cells
    /// of band `b` in lanes `4·d + b`.
    #[inline(always)]
    unsafe fn round(v: &mut [__m512i; 2], u: &mut __m512i) -> Option<bool> {
        let (a0, l0) = step::<true>(v[0]);
        let (a1, l1) = step::<false>(v[1]);
        let empty = _mm512_mask_testn_epi32_mask(PACKED_LANES, a0, a0)
            | _mm512_mask_testn_epi32_mask(PLAIN_LANES, a1, a1);
        if empty != 0 {
            return None;
        }
        let spread = lanes(&SPREAD);
        let p0 = _mm512_and_si512(l0, _mm512_permutexvar_epi32(spread, *u));
        let p1 = _mm512_and_si512(l1, *u);
        let p8 = _mm512_permutexvar_epi32(lanes(&NINTH), p0);
        // Cells placed by any digit (`any`) and by two or more (`dup`).
        let (any, dup) = fold(
            _mm512_maskz_ternarylogic_epi32::<0xFE>(PLAIN_LANES, p0, p1, p8),
            _mm512_maskz_ternarylogic_epi32::<0xE8>(PLAIN_LANES, p0, p1, p8),
        );
        *u = _mm512_andnot_si512(any, *u);
        let n0 = settle(
            a0,
            p0,
            _mm512_permutexvar_epi32(spread, any),
            _mm512_permutexvar_epi32(spread, dup),
        );
        let n1 = settle(a1, p1, any, dup);
        let same = _mm512_cmpeq_epi32_mask(n0, v[0]) & _mm512_cmpeq_epi32_mask(n1, v[1]);
        *v = [n0, n1];
        Some(same != 0xFFFF)
    }

    /// Per-lane "at least one" and "at least two" over the four 128-bit
    /// lanes, folded so that every lane holds the total.
    #[inline(always)]
    unsafe fn fold(mut any: __m512i, mut dup: __m512i) -> (__m512i, __m512i) {
        let s = _mm512_shuffle_i32x4::<0b01_00_11_10>(any, any);
        let t = _mm512_shuffle_i32x4::<0b01_00_11_10>(dup, dup);
        dup = _mm512_ternarylogic_epi32::<0xFE>(dup, t, _mm512_and_si512(any, s));
        any = _mm512_or_si512(any, s);
        let s = _mm512_shuffle_i32x4::<0b10_11_00_01>(any, any);
        let t = _mm512_shuffle_i32x4::<0b10_11_00_01>(dup, dup);
        dup = _mm512_ternarylogic_epi32::<0xFE>(dup, t, _mm512_and_si512(any, s));
        any = _mm512_or_si512(any, s);
        (any, dup)
    }

    /// The cells with at least one, two and three candidates, per band.
    #[inline(always)]
    unsafe fn counts_in(v: &[__m512i; 2]) -> (__m128i, __m128i, __m128i) {
        let first = _mm512_maskz_mov_epi32(PLAIN_LANES, v[0]);
        let rows = [
            _mm512_castsi512_si128(first),
            _mm512_extracti32x4_epi32::<1>(first),
            _mm512_extracti32x4_epi32::<2>(first),
            _mm512_extracti32x4_epi32::<3>(first),
            _mm512_castsi512_si128(v[1]),
            _mm512_extracti32x4_epi32::<1>(v[1]),
            _mm512_extracti32x4_epi32::<2>(v[1]),
            _mm512_extracti32x4_epi32::<3>(v[1]),
            _mm512_castsi512_si128(_mm512_permutexvar_epi32(lanes(&NINTH), v[0])),
        ];
        count_rows(rows)
    }

    /// Removes the digit of every naked single of `singles` (the cells of
    /// band `b` in lanes `4·d + b`) from the single's row, box and column
    /// peers; false when that removes nothing.
    #[inline(always)]
    unsafe fn place_singles(v: &mut [__m512i; 2], singles: __m512i) -> bool {
        let packed = _mm512_permutexvar_epi32(lanes(&SPREAD), singles);
        let (n0, c0) = clear_peers::<true>(v[0], packed);
        let (n1, c1) = clear_peers::<false>(v[1], singles);
        *v = [n0, n1];
        c0 | c1
    }

    /// [`place_singles`] on one register; `PACKED` says which.
    #[inline(always)]
    unsafe fn clear_peers<const PACKED: bool>(x: __m512i, singles: __m512i) -> (__m512i, bool) {
        let s = _mm512_and_si512(x, singles);
        let rows = rows_with_cells(s);
        // Boxes and columns holding a single.
        let cols = columns_of(s);
        let boxes = _mm512_and_si512(
            _mm512_ternarylogic_epi32::<0xFE>(
                cols,
                _mm512_srli_epi32::<1>(cols),
                _mm512_srli_epi32::<2>(cols),
            ),
            splat(0o111),
        );
        let boxes = _mm512_ternarylogic_epi32::<0xFE>(
            boxes,
            _mm512_slli_epi32::<1>(boxes),
            _mm512_slli_epi32::<2>(boxes),
        );
        let lines = _mm512_ternarylogic_epi32::<0xFE>(
            next_band::<PACKED>(cols),
            last_band::<PACKED>(cols),
            boxes,
        );
        let lines = _mm512_ternarylogic_epi32::<0xFE>(
            lines,
            _mm512_slli_epi32::<9>(lines),
            _mm512_slli_epi32::<18>(lines),
        );
        // x & !((rows | lines) & !s)
        let n = _mm512_and_si512(x, _mm512_ternarylogic_epi32::<0xAB>(rows, lines, s));
        (n, _mm512_cmpneq_epi32_mask(n, x) != 0)
    }

    /// Every lane's rows (nine bits each) that hold a cell, all nine bits
    /// set: even and odd rows apart, each row plus all ones carries into
    /// the gap above it when not empty.
    #[inline(always)]
    unsafe fn rows_with_cells(x: __m512i) -> __m512i {
        let even = _mm512_add_epi32(_mm512_and_si512(x, splat(0x7FC_01FF)), splat(0x7FC_01FF));
        let odd = _mm512_add_epi32(_mm512_and_si512(x, splat(0x3_FE00)), splat(0x3_FE00));
        let flags = _mm512_ternarylogic_epi32::<0xF8>(
            _mm512_and_si512(even, splat(1 << 9 | 1 << 27)),
            odd,
            splat(1 << 18),
        );
        _mm512_sub_epi32(flags, _mm512_srli_epi32::<9>(flags))
    }

    /// Every band mask takes the value of the digit's next band.
    #[inline(always)]
    unsafe fn next_band<const PACKED: bool>(x: __m512i) -> __m512i {
        if PACKED {
            _mm512_permutexvar_epi32(lanes(&NEXT_BAND), x)
        } else {
            _mm512_shuffle_epi32::<0xC9>(x)
        }
    }

    /// Every band mask takes the value of the digit's band after next.
    #[inline(always)]
    unsafe fn last_band<const PACKED: bool>(x: __m512i) -> __m512i {
        if PACKED {
            _mm512_permutexvar_epi32(lanes(&LAST_BAND), x)
        } else {
            _mm512_shuffle_epi32::<0xD2>(x)
        }
    }

    /// One update of sixteen band masks: each narrowed to the mini-rows
    /// some permutation of its band uses, then to the mini-columns some
    /// permutation of each stack uses; and the cells then alone in their
    /// row.
    #[inline(always)]
    unsafe fn step<const PACKED: bool>(x: __m512i) -> (__m512i, __m512i) {
        let a = keep_stacks::<PACKED>(keep_rows(x));
        // Rows with two or more cells: clear each row's lowest cell, then
        // look for a rest. (A mask with an empty row borrows from the next
        // row and gives nonsense, but it is a contradiction that the next
        // round's row logic reports, and placing cells only removes
        // candidates.)
        let rest = _mm512_and_si512(a, _mm512_sub_epi32(a, splat(1 | 1 << 9 | 1 << 18)));
        (a, _mm512_andnot_si512(rows_with_cells(rest), a))
    }

    /// Sixteen band masks narrowed to the mini-rows some permutation of
    /// their band uses.
    #[inline(always)]
    unsafe fn keep_rows(x: __m512i) -> __m512i {
        // Bit 9·r + 3·k + 2: row r has a cell in box k (a mini-row's low
        // two bits plus 0b11 carry into its high bit unless both are
        // clear).
        let m = _mm512_ternarylogic_epi32::<0xA8>(
            _mm512_add_epi32(_mm512_and_si512(x, splat(0x36D_B6DB)), splat(0x36D_B6DB)),
            x,
            splat(0x492_4924),
        );
        // An entry (r, k) is used by a permutation when the 2×2 minor of
        // the other rows and boxes has one: with A and B the rows r + 1 and
        // r + 2 and C the box rotation k ← k + 1, that is C(A & C(B) |
        // C(A) & B) at (r, k).
        let rows_a = select(
            0x2_4924,
            _mm512_srli_epi32::<9>(m),
            _mm512_slli_epi32::<18>(m),
        );
        let rows_b = select(0x124, _mm512_srli_epi32::<18>(m), _mm512_slli_epi32::<9>(m));
        let either = _mm512_ternarylogic_epi32::<0xEA>(
            next_box(rows_a),
            rows_b,
            _mm512_and_si512(rows_a, next_box(rows_b)),
        );
        let k = _mm512_and_si512(m, next_box(either));
        // The kept mini-rows' three cells: bit p and the two below it.
        _mm512_ternarylogic_epi32::<0xE0>(x, k, _mm512_sub_epi32(k, _mm512_srli_epi32::<2>(k)))
    }

    /// Every row×box flag of `keep_rows` takes the value of the next box's
    /// flag in its row (box 2 the value of box 0).
    #[inline(always)]
    unsafe fn next_box(y: __m512i) -> __m512i {
        select(
            0x90_4824,
            _mm512_srli_epi32::<3>(y),
            _mm512_slli_epi32::<6>(y),
        )
    }

    /// Bit `c` of each band mask: the band has a cell in column `c`.
    #[inline(always)]
    unsafe fn columns_of(x: __m512i) -> __m512i {
        _mm512_and_si512(
            _mm512_ternarylogic_epi32::<0xFE>(
                x,
                _mm512_srli_epi32::<9>(x),
                _mm512_srli_epi32::<18>(x),
            ),
            splat(0x1FF),
        )
    }

    /// Sixteen band masks narrowed to the mini-columns some permutation of
    /// each stack uses.
    #[inline(always)]
    unsafe fn keep_stacks<const PACKED: bool>(a: __m512i) -> __m512i {
        // The same along each stack: bit 3·s + j of `cols` says the band
        // has the digit in column j of stack s; rotating columns within
        // stacks and bands within the digit's lanes lines up the minors.
        let cols = columns_of(a);
        let col1 = select(
            0o333,
            _mm512_srli_epi32::<1>(cols),
            _mm512_slli_epi32::<2>(cols),
        );
        let col2 = select(
            0o111,
            _mm512_srli_epi32::<2>(cols),
            _mm512_slli_epi32::<1>(cols),
        );
        let first = _mm512_and_si512(next_band::<PACKED>(col1), last_band::<PACKED>(col2));
        let minor = _mm512_ternarylogic_epi32::<0xF8>(
            first,
            next_band::<PACKED>(col2),
            last_band::<PACKED>(col1),
        );
        let kept = _mm512_and_si512(cols, minor);
        let kept = _mm512_ternarylogic_epi32::<0xFE>(
            kept,
            _mm512_slli_epi32::<9>(kept),
            _mm512_slli_epi32::<18>(kept),
        );
        _mm512_and_si512(a, kept)
    }

    /// The masks `a` of a round without the cells placed for another digit
    /// (and without all of `dup`, the cells placed for two).
    #[inline(always)]
    unsafe fn settle(a: __m512i, placed: __m512i, any: __m512i, dup: __m512i) -> __m512i {
        let remove = _mm512_ternarylogic_epi32::<0xB0>(any, placed, dup);
        _mm512_andnot_si512(remove, a)
    }
}
