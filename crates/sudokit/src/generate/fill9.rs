//! Random complete 9×9 grids, fast: the generator needs one per puzzle.
//!
//! The three diagonal boxes are independent random permutations; then a
//! depth-first search fills the open cell with the fewest candidates (the
//! first such cell) with a candidate chosen uniformly at random,
//! backtracking on a dead end. Row, column and box
//! contents are 9-bit masks, so a step is a scan of 81 cells.

use rand::seq::SliceRandom;
use rand::Rng;

/// Row, column and box of each cell.
const UNITS: [[usize; 3]; 81] = {
    let mut out = [[0; 3]; 81];
    let mut k = 0;
    while k < 81 {
        let (r, c) = (k / 9, k % 9);
        out[k] = [r, 9 + c, 18 + r / 3 * 3 + c / 3];
        k += 1;
    }
    out
};

/// A random complete 9×9 grid (values 1–9).
pub fn random_grid9<R: Rng + ?Sized>(rng: &mut R) -> [u8; 81] {
    loop {
        let mut cells = [0u8; 81];
        let mut used = [0u16; 27];
        // The diagonal boxes share no row or column: each is an independent
        // random permutation, placed without search. Every such start can
        // be completed; should the search ever say otherwise, start afresh.
        for b in [0, 4, 8] {
            let mut digits: [u8; 9] = std::array::from_fn(|i| i as u8 + 1);
            digits.shuffle(rng);
            for (i, &d) in digits.iter().enumerate() {
                let k = (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3;
                cells[k] = d;
                for &u in &UNITS[k] {
                    used[u] |= 1 << (d - 1);
                }
            }
        }
        if fill(&mut cells, &mut used, rng) {
            return cells;
        }
    }
}

fn fill<R: Rng + ?Sized>(cells: &mut [u8; 81], used: &mut [u16; 27], rng: &mut R) -> bool {
    let mut best = (10u32, 81usize, 0u16);
    for (k, units) in UNITS.iter().enumerate() {
        if cells[k] != 0 {
            continue;
        }
        let free = !(used[units[0]] | used[units[1]] | used[units[2]]) & 0x1FF;
        let n = free.count_ones();
        if n < best.0 {
            best = (n, k, free);
            if n <= 1 {
                break;
            }
        }
    }
    let (_, k, mut free) = best;
    if k == 81 {
        return true;
    }
    while free != 0 {
        // A uniformly chosen candidate, then the rest in random order.
        let mut pick = rng.gen_range(0..free.count_ones());
        let mut set = free;
        while pick > 0 {
            set &= set - 1;
            pick -= 1;
        }
        let bit = set & set.wrapping_neg();
        free &= !bit;
        cells[k] = bit.trailing_zeros() as u8 + 1;
        for &u in &UNITS[k] {
            used[u] |= bit;
        }
        if fill(cells, used, rng) {
            return true;
        }
        for &u in &UNITS[k] {
            used[u] &= !bit;
        }
        cells[k] = 0;
    }
    false
}
