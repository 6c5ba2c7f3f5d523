//! Additive pattern databases for the 15-puzzle (Korf & Felner, 2002).
//!
//! A pattern is a set of k tiles. Its database stores, for every placement of
//! those k tiles on the 16 cells, the fewest moves *of pattern tiles* needed to
//! bring them home, the other tiles being indistinguishable and moving for free.
//! Because each move moves exactly one tile, the values of databases over
//! disjoint patterns can be added and the sum never overestimates: an admissible
//! heuristic for IDA*, far stronger than Manhattan distance.
//!
//! Goal: the blank-first goal of Korf's instances (tile `t` on cell `t`).
//!
//! Index: a placement is the list of the pattern tiles' cells `p0 … p(k-1)`, in
//! the pattern's tile order; its index is the mixed-radix number whose i-th
//! digit is `pi` minus the number of earlier cells below it (`0..16-i`), so the
//! table has exactly 16!/(16-k)! entries, one byte each (values stay below 64).
//!
//! Build: a breadth-first search over abstract states (placement, blank region).
//! Moves of non-pattern tiles cost nothing, so the blank roams freely within its
//! connected region of non-pattern cells; one state stands for the whole
//! region. Expanding a state moves a pattern tile adjacent to the region into
//! it (cost 1), leaving the blank on the tile's old cell. Each placement keeps a
//! 16-bit mask of blank cells already reached, claimed region by region with an
//! atomic OR, so the levels are expanded in parallel with rayon. The first level
//! that reaches a placement (with any blank region) is its database value.

use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

/// Cells of the 15-puzzle.
const CELLS: usize = 16;
/// Largest pattern supported (the 8 tiles of the 7-8 partition).
pub const MAX_TILES: usize = 8;
/// Table value not yet reached during the build.
const UNSEEN: u8 = u8::MAX;
/// Frontier states expanded per parallel task.
const CHUNK: usize = 1 << 14;

/// One pattern database: its tiles and a distance per placement.
pub struct PatternDb {
    tiles: Vec<u8>,
    table: Vec<u8>,
}

impl PatternDb {
    /// Builds the database of `tiles` (distinct, `1..=15`, at most
    /// [`MAX_TILES`]) by breadth-first search; see the module documentation.
    ///
    /// # Panics
    /// If `tiles` breaks those rules (the patterns are fixed in code).
    pub fn build(tiles: &[u8]) -> PatternDb {
        check_pattern(tiles);
        PatternDb {
            tiles: tiles.to_vec(),
            table: build_table(tiles),
        }
    }

    /// A database from a table read back from disk, or `None` if the table
    /// length does not fit the pattern.
    pub(crate) fn from_table(tiles: &[u8], table: Vec<u8>) -> Option<PatternDb> {
        check_pattern(tiles);
        (table.len() == table_size(tiles.len())).then(|| PatternDb {
            tiles: tiles.to_vec(),
            table,
        })
    }

    /// The pattern's tiles, in index order.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// The raw table, one byte per placement index.
    pub fn table(&self) -> &[u8] {
        &self.table
    }

    /// Moves of pattern tiles needed from this placement (`cells[i]` is the
    /// cell of the pattern's i-th tile).
    #[inline]
    pub fn lookup(&self, cells: &[u8]) -> u8 {
        self.table[rank(cells)]
    }
}

/// Asserts that `tiles` is a valid fixed pattern.
fn check_pattern(tiles: &[u8]) {
    assert!(
        !tiles.is_empty() && tiles.len() <= MAX_TILES,
        "pattern size 1 to {MAX_TILES}"
    );
    let mut seen = 0u32;
    for &t in tiles {
        assert!((1..CELLS as u8).contains(&t) && seen & (1 << t) == 0);
        seen |= 1 << t;
    }
}

/// Entries of a k-tile database: 16 · 15 · … · (16 − k + 1).
pub fn table_size(k: usize) -> usize {
    (0..k).map(|i| CELLS - i).product()
}

/// Index of a placement of distinct cells (see the module documentation).
#[inline]
pub fn rank(cells: &[u8]) -> usize {
    let mut index = 0;
    let mut used = 0u32;
    for (i, &cell) in cells.iter().enumerate() {
        let below = (used & ((1 << cell) - 1)).count_ones() as usize;
        index = index * (CELLS - i) + cell as usize - below;
        used |= 1 << cell;
    }
    index
}

/// Cells one step from any cell of `mask` (a 4×4 bitboard, bit = cell).
#[inline]
fn spread(mask: u32) -> u32 {
    ((mask << 1) & 0xEEEE) | ((mask >> 1) & 0x7777) | ((mask << 4) & 0xFFFF) | (mask >> 4)
}

/// The cells the blank can reach from `cell` without crossing `occupied`.
#[inline]
fn flood(cell: u8, occupied: u32) -> u32 {
    let free = !occupied & 0xFFFF;
    let mut region = 1 << cell;
    loop {
        let next = (region | spread(region)) & free;
        if next == region {
            return region;
        }
        region = next;
    }
}

/// A frontier state: pattern cells in 4-bit fields, blank cell above them.
fn pack(cells: &[u8], blank: u8) -> u64 {
    let fields = cells
        .iter()
        .rev()
        .fold(0u64, |acc, &c| acc << 4 | u64::from(c));
    fields | u64::from(blank) << (4 * MAX_TILES)
}

/// Inverse of [`pack`] for a pattern of `k` tiles.
fn unpack(state: u64, k: usize) -> ([u8; MAX_TILES], u8) {
    let mut cells = [0u8; MAX_TILES];
    for (i, cell) in cells.iter_mut().take(k).enumerate() {
        *cell = (state >> (4 * i) & 15) as u8;
    }
    (cells, (state >> (4 * MAX_TILES) & 15) as u8)
}

/// The level-by-level breadth-first search described in the module docs.
fn build_table(tiles: &[u8]) -> Vec<u8> {
    let k = tiles.len();
    let size = table_size(k);
    let distance: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNSEEN)).collect();
    let reached: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(0)).collect();
    let start = rank(tiles);
    let occupied = tiles.iter().fold(0, |m, &t| m | 1 << t);
    distance[start].store(0, Relaxed);
    reached[start].store(flood(0, occupied) as u16, Relaxed);
    let mut frontier = vec![pack(tiles, 0)];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        let parts: Vec<Vec<u64>> = frontier
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut next = Vec::new();
                for &state in chunk {
                    expand(state, k, depth, &distance, &reached, &mut next);
                }
                next
            })
            .collect();
        frontier = parts.concat();
    }
    distance.into_iter().map(AtomicU8::into_inner).collect()
}

/// Pushes onto `next` every unclaimed successor of `state`, recording `depth`
/// for placements reached for the first time.
fn expand(
    state: u64,
    k: usize,
    depth: u8,
    distance: &[AtomicU8],
    reached: &[AtomicU16],
    next: &mut Vec<u64>,
) {
    let (mut cells, blank) = unpack(state, k);
    let occupied = cells[..k].iter().fold(0, |m, &c| m | 1 << c);
    let region = flood(blank, occupied);
    for i in 0..k {
        let from = cells[i];
        let mut targets = spread(1 << from) & region;
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            cells[i] = to;
            let index = rank(&cells[..k]);
            let blank_bit = 1u16 << from;
            if reached[index].load(Relaxed) & blank_bit == 0 {
                let new_region = flood(from, occupied ^ 1 << from ^ 1 << to) as u16;
                if reached[index].fetch_or(new_region, Relaxed) & blank_bit == 0 {
                    if distance[index].load(Relaxed) == UNSEEN {
                        distance[index].store(depth, Relaxed);
                    }
                    next.push(pack(&cells[..k], from));
                }
            }
        }
        cells[i] = from;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_distinct() {
        let mut seen = vec![false; table_size(2)];
        for a in 0..16u8 {
            for b in (0..16u8).filter(|&b| b != a) {
                let index = rank(&[a, b]);
                assert!(!seen[index]);
                seen[index] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn packing_round_trips() {
        let cells = [3, 15, 0, 7, 9, 1, 2, 14];
        assert_eq!(unpack(pack(&cells, 11), 8), (cells, 11));
    }

    #[test]
    fn flood_stops_at_pattern_tiles() {
        // Tiles on cells 1 and 4 wall the blank into the corner cell 0.
        assert_eq!(flood(0, 1 << 1 | 1 << 4), 1);
        assert_eq!(flood(0, 0).count_ones(), 16);
    }

    #[test]
    fn one_tile_database_is_manhattan_distance() {
        let db = PatternDb::build(&[6]);
        for cell in 0..16u8 {
            let manhattan = (cell / 4).abs_diff(1) + (cell % 4).abs_diff(2);
            assert_eq!(db.lookup(&[cell]), manhattan, "cell {cell}");
        }
    }
}
