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
//! it (cost 1), leaving the blank on the tile's old cell. The first level that
//! reaches a placement (with any blank region) is its database value.
//!
//! Each placement keeps three 16-bit masks of blank cells: reached so far, in
//! this level's frontier, in the next level's. Regions are claimed with an
//! atomic OR, so a level is expanded in parallel with rayon. Rather than a
//! queue, each level scans the frontier masks in index order (skipping blocks
//! with nothing in them): the successors of consecutive placements then land in
//! a few dozen regions of the table that advance together, which caches and
//! prefetchers follow far better than successors of a queue in discovery order.
//! The 6-tile databases take about a second each; the 8-tile one (half a
//! billion placements, about 4 GB of masks while building) takes minutes,
//! which is why [`super::cache`] keeps it on disk.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU8, Ordering::Relaxed};

use crate::par::*;

/// Cells of the 15-puzzle.
const CELLS: usize = 16;
/// Largest pattern supported (the 8 tiles of the 7-8 partition).
pub const MAX_TILES: usize = 8;
/// Table value not yet reached during the build.
const UNSEEN: u8 = u8::MAX;
/// Placements per block of the frontier's "anything here?" flags.
const BLOCK: usize = 1 << 10;
/// Blocks scanned per parallel task.
const BLOCKS_PER_TASK: usize = 16;

/// One pattern database: its tiles and a distance per placement.
pub struct PatternDb {
    /// The pattern's tiles; a placement lists their cells in this order.
    tiles: Vec<u8>,
    /// Moves of pattern tiles to the goal, by placement index ([`rank`]).
    table: Vec<u8>,
}

impl PatternDb {
    /// Builds the database of `tiles` (distinct, `1..=15`, at most
    /// [`MAX_TILES`]) by breadth-first search; see the module documentation.
    /// An error when `tiles` breaks those rules.
    pub fn build(tiles: &[u8]) -> Result<PatternDb, PatternError> {
        PatternDb::build_reporting(tiles, &|_| {})
    }

    /// [`PatternDb::build`], calling `progress` after each level of the
    /// search with the number of placements whose value is known so far (out
    /// of [`table_size`]), so that a front end can show how far a build of
    /// minutes has come. An error as for [`PatternDb::build`].
    pub fn build_reporting(
        tiles: &[u8],
        progress: &dyn Fn(usize),
    ) -> Result<PatternDb, PatternError> {
        check_pattern(tiles)?;
        Ok(PatternDb {
            tiles: tiles.to_vec(),
            table: build_table(tiles, progress),
        })
    }

    /// A database from a table read back from disk, or `None` if the
    /// pattern is invalid or the table length does not fit it.
    pub(crate) fn from_table(tiles: &[u8], table: Vec<u8>) -> Option<PatternDb> {
        check_pattern(tiles).ok()?;
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
    /// cell of the pattern's i-th tile: distinct cells, one per tile, which
    /// the search guarantees; the hot path of IDA*, so unchecked and
    /// crate-private).
    #[inline]
    pub(crate) fn lookup(&self, cells: &[u8]) -> u8 {
        self.table[rank(cells)]
    }
}

/// Why a set of tiles is not a pattern a database can be built for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// No tiles, or more than [`MAX_TILES`].
    #[error("a pattern has 1 to {max} tiles, not {0}", max = MAX_TILES)]
    Size(usize),
    /// A tile that is not 1 to 15.
    #[error("tile {0} is not a tile of the 15-puzzle (1 to 15)")]
    NoSuchTile(u8),
    /// The same tile twice.
    #[error("tile {0} appears twice in the pattern")]
    Repeated(u8),
}

/// Whether `tiles` is a valid pattern: 1 to [`MAX_TILES`] distinct tiles of
/// `1..=15`.
pub(crate) fn check_pattern(tiles: &[u8]) -> Result<(), PatternError> {
    if tiles.is_empty() || tiles.len() > MAX_TILES {
        return Err(PatternError::Size(tiles.len()));
    }
    let mut seen = 0u32;
    for &t in tiles {
        if !(1..CELLS as u8).contains(&t) {
            return Err(PatternError::NoSuchTile(t));
        }
        if seen & (1 << t) != 0 {
            return Err(PatternError::Repeated(t));
        }
        seen |= 1 << t;
    }
    Ok(())
}

/// Entries of a k-tile database: 16 · 15 · … · (16 − k + 1) (0 beyond 16
/// tiles, where there is no placement).
pub fn table_size(k: usize) -> usize {
    (0..k).map(|i| CELLS.saturating_sub(i)).product()
}

/// Bytes of memory a build of a k-tile database holds at its peak: per
/// placement three 16-bit blank masks and a distance byte (`Levels`), the
/// finished table reusing the distance bytes. About 3.6 GB for 8 tiles, 400 MB
/// for 7, 40 MB for 6.
pub fn build_bytes(k: usize) -> u64 {
    7 * table_size(k) as u64
}

/// `ABOVE[c]` has a 1 in the 4-bit field of every cell above `c`. Adding it to
/// a word of 16 such fields counts, in each field, the placed cells below that
/// field's cell: a popcount-free rank (the baseline x86-64 target has no
/// popcount instruction, and this is the hottest loop of both the build and
/// the search).
const ABOVE: [u64; CELLS] = {
    let mut table = [0u64; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut higher = cell + 1;
        while higher < CELLS {
            table[cell] |= 1 << (4 * higher);
            higher += 1;
        }
        cell += 1;
    }
    table
};

/// Index of a placement of distinct cells `0..16` (see the module
/// documentation); unchecked, for the search's inner loop.
#[inline]
pub(crate) fn rank(cells: &[u8]) -> usize {
    let mut index = 0;
    let mut below = 0u64;
    for (i, &cell) in cells.iter().enumerate() {
        let smaller = (below >> (4 * cell)) & 15;
        index = index * (CELLS - i) + cell as usize - smaller as usize;
        below += ABOVE[cell as usize];
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

/// The placement with index `index` (inverse of [`rank`]) for `k` tiles.
fn unrank(mut index: usize, k: usize) -> [u8; MAX_TILES] {
    let mut digits = [0u8; MAX_TILES];
    for i in (0..k).rev() {
        digits[i] = (index % (CELLS - i)) as u8;
        index /= CELLS - i;
    }
    let mut cells = [0u8; MAX_TILES];
    let mut used = 0u32;
    for i in 0..k {
        // The digit counts free cells below this tile's cell.
        let mut free = !used & 0xFFFF;
        for _ in 0..digits[i] {
            free &= free - 1;
        }
        cells[i] = free.trailing_zeros() as u8;
        used |= 1 << cells[i];
    }
    cells
}

/// The masks of one breadth-first search (see the module documentation).
struct Levels {
    /// Per placement: blank cells reached at any level so far.
    reached: Vec<AtomicU16>,
    /// Per placement: blank cells first reached at the level being expanded.
    frontier: Vec<AtomicU16>,
    /// Per placement: blank cells first reached at the next level.
    next: Vec<AtomicU16>,
    /// Per block of [`BLOCK`] placements: whether `frontier` has any there.
    frontier_blocks: Vec<AtomicBool>,
    /// Per block: whether `next` has any there.
    next_blocks: Vec<AtomicBool>,
    /// Per placement: its level, or [`UNSEEN`].
    distance: Vec<AtomicU8>,
}

/// `n` zeroed atomics.
fn zeroed<T>(n: usize, zero: impl Fn() -> T) -> Vec<T> {
    (0..n).map(|_| zero()).collect()
}

/// The level-by-level breadth-first search described in the module docs;
/// `progress` hears the number of placements reached after each level.
fn build_table(tiles: &[u8], progress: &dyn Fn(usize)) -> Vec<u8> {
    let k = tiles.len();
    let size = table_size(k);
    let blocks = size.div_ceil(BLOCK);
    let mut levels = Levels {
        reached: zeroed(size, || AtomicU16::new(0)),
        frontier: zeroed(size, || AtomicU16::new(0)),
        next: zeroed(size, || AtomicU16::new(0)),
        frontier_blocks: zeroed(blocks, || AtomicBool::new(false)),
        next_blocks: zeroed(blocks, || AtomicBool::new(false)),
        distance: zeroed(size, || AtomicU8::new(UNSEEN)),
    };
    let start = rank(tiles);
    let region = flood(0, tiles.iter().fold(0, |m, &t| m | 1 << t)) as u16;
    levels.distance[start].store(0, Relaxed);
    levels.reached[start].store(region, Relaxed);
    levels.frontier[start].store(region, Relaxed);
    levels.frontier_blocks[start / BLOCK].store(true, Relaxed);
    let mut depth = 0u8;
    let mut reached = 1;
    loop {
        depth += 1;
        let (expanded, discovered) = (0..blocks)
            .into_par_iter()
            .step_by(BLOCKS_PER_TASK)
            .map(|first| {
                let (mut count, mut discovered) = (0, 0);
                for block in first..(first + BLOCKS_PER_TASK).min(blocks) {
                    // Nothing writes the frontier during its level, so plain
                    // loads and stores (no locked swaps) are enough here.
                    if levels.frontier_blocks[block].load(Relaxed) {
                        levels.frontier_blocks[block].store(false, Relaxed);
                        let end = ((block + 1) * BLOCK).min(size);
                        for index in block * BLOCK..end {
                            let mask = levels.frontier[index].load(Relaxed);
                            if mask != 0 {
                                levels.frontier[index].store(0, Relaxed);
                                discovered += levels.expand(index, mask, k, depth);
                                count += 1;
                            }
                        }
                    }
                }
                (count, discovered)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        if expanded == 0 {
            break;
        }
        if discovered > 0 {
            reached += discovered;
            progress(reached);
        }
        std::mem::swap(&mut levels.frontier, &mut levels.next);
        std::mem::swap(&mut levels.frontier_blocks, &mut levels.next_blocks);
    }
    levels
        .distance
        .into_iter()
        .map(AtomicU8::into_inner)
        .collect()
}

impl Levels {
    /// Expands every blank region in `mask` of placement `index`, putting the
    /// unclaimed successors in the next level at `depth`; returns how many
    /// placements it reached for the first time.
    fn expand(&self, index: usize, mut mask: u16, k: usize, depth: u8) -> usize {
        let mut discovered = 0;
        let mut cells = unrank(index, k);
        let occupied = cells[..k].iter().fold(0, |m, &c| m | 1 << c);
        while mask != 0 {
            let region = flood(mask.trailing_zeros() as u8, occupied);
            mask &= !(region as u16);
            for i in 0..k {
                let from = cells[i];
                let mut targets = spread(1 << from) & region;
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    cells[i] = to;
                    let first = self.claim(
                        rank(&cells[..k]),
                        from,
                        occupied ^ 1 << from ^ 1 << to,
                        depth,
                    );
                    discovered += usize::from(first);
                }
                cells[i] = from;
            }
        }
        discovered
    }

    /// Records that placement `index` is reached with the blank on `blank`
    /// (pattern tiles on `occupied`) at `depth`, unless that region already
    /// was; true if this is the first region of the placement reached.
    #[inline]
    fn claim(&self, index: usize, blank: u8, occupied: u32, depth: u8) -> bool {
        let bit = 1u16 << blank;
        if self.reached[index].load(Relaxed) & bit != 0 {
            return false;
        }
        let region = flood(blank, occupied) as u16;
        let before = self.reached[index].fetch_or(region, Relaxed);
        if before & bit != 0 {
            return false;
        }
        if before == 0 {
            self.distance[index].store(depth, Relaxed);
        }
        self.next[index].fetch_or(region, Relaxed);
        let block = &self.next_blocks[index / BLOCK];
        if !block.load(Relaxed) {
            block.store(true, Relaxed);
        }
        before == 0
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
    fn unrank_inverts_rank() {
        let cells = [3, 15, 0, 7, 9, 1, 2, 14];
        assert_eq!(unrank(rank(&cells), 8), cells);
        for index in [0, 1, 17, 5_000_000, table_size(6) - 1] {
            assert_eq!(rank(&unrank(index, 6)[..6]), index);
        }
    }

    #[test]
    fn flood_stops_at_pattern_tiles() {
        // Tiles on cells 1 and 4 wall the blank into the corner cell 0.
        assert_eq!(flood(0, 1 << 1 | 1 << 4), 1);
        assert_eq!(flood(0, 0).count_ones(), 16);
    }

    /// The plain definition, for comparison: a 0-1 breadth-first search over
    /// (pattern cells, blank cell) from the goal, where the blank moving onto
    /// a non-pattern cell costs 0 and onto a pattern tile costs 1; a
    /// placement's value is its least cost over all blank cells.
    fn reference_table(tiles: &[u8]) -> Vec<u8> {
        use std::collections::{HashMap, VecDeque};
        let start: (Vec<u8>, u8) = (tiles.to_vec(), 0);
        let mut cost = HashMap::from([(start.clone(), 0u8)]);
        let mut queue = VecDeque::from([start]);
        let mut table = vec![UNSEEN; table_size(tiles.len())];
        while let Some(state) = queue.pop_front() {
            let c = cost[&state];
            let (cells, blank) = &state;
            let slot = &mut table[rank(cells)];
            *slot = (*slot).min(c);
            for to in (0..16u8).filter(|&to| spread(1 << blank) & 1 << to != 0) {
                let mut next_cells = cells.clone();
                let step = match cells.iter().position(|&p| p == to) {
                    Some(i) => {
                        next_cells[i] = *blank;
                        1
                    }
                    None => 0,
                };
                let next = (next_cells, to);
                if cost.get(&next).is_none_or(|&old| old > c + step) {
                    cost.insert(next.clone(), c + step);
                    if step == 0 {
                        queue.push_front(next);
                    } else {
                        queue.push_back(next);
                    }
                }
            }
        }
        table
    }

    #[test]
    fn build_matches_the_plain_definition() {
        for tiles in [&[1, 4, 5][..], &[2, 3], &[15, 10, 11], &[6, 9]] {
            assert_eq!(
                build_table(tiles, &|_| {}),
                reference_table(tiles),
                "{tiles:?}"
            );
        }
    }

    /// Progress grows with every level that reaches new placements and ends
    /// with all of them reached (every placement is reachable), each counted
    /// once: the counts are those of the finished table's levels.
    #[test]
    fn progress_counts_every_placement_once() {
        let seen = std::sync::Mutex::new(Vec::new());
        let db = PatternDb::build_reporting(&[1, 4, 5], &|n| seen.lock().unwrap().push(n)).unwrap();
        let seen = seen.into_inner().unwrap();
        let mut levels = vec![0; 1 + *db.table().iter().max().unwrap() as usize];
        for &value in db.table() {
            levels[value as usize] += 1;
        }
        let mut cumulative: Vec<usize> = levels
            .iter()
            .scan(0, |sum, &n| {
                *sum += n;
                Some(*sum)
            })
            .collect();
        cumulative.dedup();
        assert_eq!(seen, cumulative[1..], "{levels:?}");
        assert_eq!(seen.last(), Some(&table_size(3)));
    }

    #[test]
    fn one_tile_database_is_manhattan_distance() {
        let db = PatternDb::build(&[6]).unwrap();
        for cell in 0..16u8 {
            let manhattan = (cell / 4).abs_diff(1) + (cell % 4).abs_diff(2);
            assert_eq!(db.lookup(&[cell]), manhattan, "cell {cell}");
        }
    }
}
