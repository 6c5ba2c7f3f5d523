//! [`DlxSolver`]: dancing links (Knuth's Algorithm X) over the exact-cover
//! model of a [`Layout`].
//!
//! A layout is, almost, an exact-cover problem. Its rows are one *cell row*
//! per (cell, digit) pair, "the digit is in the cell", and one *set row* per
//! digit set of each cage handled as exact cover (below), "the cage holds
//! these digits", which places nothing in the grid. A solution chooses rows
//! so that
//!
//! - every *primary column* is covered exactly once: one per cell ("the
//!   cell is filled"), one per complete house and digit ("the digit is once
//!   in the house"), and for each cage with a sum made by at most
//!   [`MAX_COMBOS_SCANNED`] digit sets, one "a digit set is chosen" and one
//!   per digit ("the digit is in the cage, or not in its set");
//! - every *secondary column* is covered at most once: one per partial house
//!   (an extra group or cage of fewer than `N` cells) and digit, and one per
//!   pair of cells that see each other without sharing a house (anti-knight,
//!   anti-king) and digit.
//!
//! A cage is exact cover this way: each cell row of a cell of the cage also
//! covers the cage's column of its digit, and the set row of a digit set
//! `S` making the sum covers "a digit set is chosen" and the cage's columns
//! of the digits *not* in `S`. So exactly one set is chosen, and each digit
//! column of the cage is covered once, by a cell of the cage when the digit
//! is in `S` and by the set row otherwise: the cage's digits are `S`, and
//! make its sum.
//!
//! Cages with more digit sets (large cages on large grids) would take too
//! many set rows; the search checks them as it chooses cell rows instead:
//! each keeps the total and the set of its digits placed so far, and a row
//! is skipped when the sum left would not lie between the smallest and the
//! largest totals the cage's other open cells can reach with the digits not
//! in it yet.
//!
//! The search is Algorithm X with the links as index vectors (no pointers):
//! the givens' rows are chosen first, then it branches on the primary column
//! with the fewest rows left (often a cage's "a digit set is chosen"), with
//! an explicit stack of levels, so its depth is no concern on large grids.
//! Everything it changes is undone at the end of each puzzle, so the links
//! are built once per layout.
//!
//! It is the second engine over the [`Constraints`] tables, deliberately
//! unlike [`VariantSolver`](super::VariantSolver) (no propagation beyond what
//! covering columns does), so that the two check each other.

use std::sync::Arc;

use super::tables::{CageTable, Constraints};
use super::Layout;
use crate::budget::Budget;
use crate::grid::Shape;
use crate::solver::raw::RawSolver;
use crate::solver::{Outcome, Solver};

/// How many search nodes (column choices) pass between looks at a [`Budget`].
const NODES_PER_CHECK: u64 = 64;

/// Cages with at most this many digit sets making their sum are exact
/// cover, with a set row per digit set; larger ones are checked by bounds on
/// their totals as cell rows are chosen. (The docs of [`DlxSolver`] give
/// the value.)
const MAX_COMBOS_SCANNED: usize = 64;

/// The `row` of a column header, which belongs to no row.
const NO_ROW: u32 = u32::MAX;

/// One node of the links: a column header, the root, or a (row, column) entry.
#[derive(Clone, Copy, Debug)]
struct Node {
    left: u32,
    right: u32,
    up: u32,
    down: u32,
    /// The column's header node (itself for a header).
    column: u32,
    /// The row's number (see [`Row`]); [`NO_ROW`] for headers and the root.
    row: u32,
}

/// What a row of the links stands for, by its number: the cell rows first,
/// row `cell · N + digit − 1` for `digit` in `cell` (rows `0..N³`), then
/// the set rows of the cages that are exact cover, cage by cage and set by
/// set in [`CageTable::combos`] order (rows `N³..`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    /// `digit` in `cell`.
    Cell { cell: usize, digit: u32 },
    /// A digit set of a cage: nothing in the grid.
    DigitSet,
}

impl Row {
    /// Row `number` on a grid of side `n`.
    #[inline]
    fn from_number(number: u32, n: usize) -> Row {
        let number = number as usize;
        if number < n * n * n {
            Row::Cell {
                cell: number / n,
                digit: (number % n) as u32 + 1,
            }
        } else {
            Row::DigitSet
        }
    }
}

/// The dancing links: column headers `0..columns` (primary ones first, then
/// secondary ones), the root at `columns`, then the rows' nodes, each row's
/// nodes consecutive, a cell row's first in its cell's column and a set
/// row's first in its cage's "a digit set is chosen" column.
///
/// Primary headers are linked in a ring with the root, in increasing order;
/// secondary headers link only to themselves, so no column choice sees them.
#[derive(Clone, Debug)]
struct Links {
    nodes: Vec<Node>,
    /// Rows left in each column.
    size: Vec<u32>,
    root: u32,
}

impl Links {
    /// Empty columns: `primary` of them that must be covered, `secondary`
    /// that may be.
    fn new(primary: usize, secondary: usize) -> Links {
        let columns = primary + secondary;
        let root = columns as u32;
        let mut nodes: Vec<Node> = (0..=root)
            .map(|c| Node {
                left: c,
                right: c,
                up: c,
                down: c,
                column: c,
                row: NO_ROW,
            })
            .collect();
        let ring: Vec<u32> = (0..primary as u32).chain([root]).collect();
        for (k, &c) in ring.iter().enumerate() {
            nodes[c as usize].left = ring[(k + ring.len() - 1) % ring.len()];
            nodes[c as usize].right = ring[(k + 1) % ring.len()];
        }
        Links {
            nodes,
            size: vec![0; columns],
            root,
        }
    }

    /// Appends row `row` with a node in each of `columns`; returns its first
    /// node.
    fn add_row(&mut self, row: u32, columns: &[u32]) -> u32 {
        let first = self.nodes.len() as u32;
        let last = first + columns.len() as u32 - 1;
        for (k, &column) in columns.iter().enumerate() {
            let index = first + k as u32;
            let up = self.nodes[column as usize].up;
            self.nodes.push(Node {
                left: if index == first { last } else { index - 1 },
                right: if index == last { first } else { index + 1 },
                up,
                down: column,
                column,
                row,
            });
            self.nodes[up as usize].down = index;
            self.nodes[column as usize].up = index;
            self.size[column as usize] += 1;
        }
        first
    }

    /// A copy of node `index`.
    #[inline]
    fn node(&self, index: u32) -> Node {
        self.nodes[index as usize]
    }

    /// Whether `index`, a row's node, is still in its column's list. (The
    /// links change last in, first out, so no node points at one taken out
    /// until it is put back.)
    fn is_linked(&self, index: u32) -> bool {
        self.node(self.node(index).up).down == index
    }

    /// Removes `column` from the header ring and every row crossing it from
    /// the other columns.
    fn cover(&mut self, column: u32) {
        let Node { left, right, .. } = self.node(column);
        self.nodes[left as usize].right = right;
        self.nodes[right as usize].left = left;
        let mut i = self.node(column).down;
        while i != column {
            let mut j = self.node(i).right;
            while j != i {
                let Node {
                    up, down, column, ..
                } = self.node(j);
                self.nodes[up as usize].down = down;
                self.nodes[down as usize].up = up;
                self.size[column as usize] -= 1;
                j = self.node(j).right;
            }
            i = self.node(i).down;
        }
    }

    /// Undoes [`Links::cover`] of `column`, in the reverse order.
    fn uncover(&mut self, column: u32) {
        let mut i = self.node(column).up;
        while i != column {
            let mut j = self.node(i).left;
            while j != i {
                let Node {
                    up, down, column, ..
                } = self.node(j);
                self.nodes[up as usize].down = j;
                self.nodes[down as usize].up = j;
                self.size[column as usize] += 1;
                j = self.node(j).left;
            }
            i = self.node(i).up;
        }
        let Node { left, right, .. } = self.node(column);
        self.nodes[left as usize].right = column;
        self.nodes[right as usize].left = column;
    }

    /// The uncovered primary column with the fewest rows (the lowest such
    /// column on ties), `None` when every primary column is covered.
    fn fewest_rows(&self) -> Option<u32> {
        let mut best = None;
        let mut fewest = u32::MAX;
        let mut column = self.node(self.root).right;
        while column != self.root {
            let size = self.size[column as usize];
            if size < fewest {
                best = Some(column);
                fewest = size;
                if size == 0 {
                    break;
                }
            }
            column = self.node(column).right;
        }
        best
    }
}

/// The digits placed so far in one cage with a sum checked by bounds (one
/// with more than [`MAX_COMBOS_SCANNED`] digit sets).
#[derive(Clone, Copy, Debug, Default)]
struct CageState {
    /// Their total.
    total: u32,
    /// Their set, bit `d − 1` for digit `d`.
    digits: u64,
    /// How many there are.
    placed: u32,
}

/// Whether a cage in `state` can still make its sum once `digit` joins
/// it, judged by the smallest and the largest totals its other open cells
/// can reach with the digits not in it yet.
fn within_bounds(table: &CageTable, state: CageState, digit: u32, all_digits: u64) -> bool {
    let Some(remainder) = table.sum.checked_sub(state.total + digit) else {
        return false;
    };
    let left = table.cells.len() - state.placed as usize - 1;
    let free = all_digits & !(state.digits | 1 << (digit - 1));
    let lowest = extreme_total(free, left, |set| set.trailing_zeros());
    let highest = extreme_total(free, left, |set| 63 - set.leading_zeros());
    matches!((lowest, highest), (Some(low), Some(high)) if low <= remainder && remainder <= high)
}

/// The total of `count` digits of `set` taken one by one with `pick` (the
/// lowest or the highest bit); `None` when `set` has fewer.
fn extreme_total(mut set: u64, count: usize, pick: impl Fn(u64) -> u32) -> Option<u32> {
    let mut total = 0;
    for _ in 0..count {
        if set == 0 {
            return None;
        }
        let bit = pick(set);
        set &= !(1 << bit);
        total += bit + 1;
    }
    Some(total)
}

/// A column being branched on and the row of it chosen at the moment (the
/// column's header before the first).
#[derive(Clone, Copy, Debug)]
struct Level {
    column: u32,
    node: u32,
}

/// Dancing links (Knuth's Algorithm X) for any [`Layout`]: one row per
/// (cell, digit) and one per digit set making the sum of each cage with at
/// most 64 such sets; exact cover of the cells, of every digit in each
/// complete house and of those cages' digits (one set chosen per cage, and
/// the cage's digits are that set); secondary columns (covered at most
/// once) for the partial houses and the "sees" relations; and the sums of
/// cages with more digit sets checked by bounds as rows are chosen. Build
/// once per layout, call for many puzzles: the links are restored after
/// each one and the scratch stacks kept.
///
/// [`Outcome::guesses`] counts branch points: columns chosen with two or
/// more rows left.
#[derive(Clone, Debug)]
pub struct DlxSolver {
    tables: Arc<Constraints>,
    shape: Shape,
    links: Links,
    /// The first node (in the cell's column) of each cell row.
    row_node: Vec<u32>,
    /// Every digit of the side, bit `d − 1` for digit `d`.
    all_digits: u64,
    /// The cage of each cell when its sum is checked by bounds (not exact
    /// cover).
    bounded_cage: Vec<Option<usize>>,
    /// The digits placed in each cage, kept for those checked by bounds.
    cages: Vec<CageState>,
    /// The givens' rows chosen, by their first nodes.
    given_nodes: Vec<u32>,
    /// The search's stack.
    levels: Vec<Level>,
}

impl DlxSolver {
    /// An engine for `layout`.
    pub fn new(layout: &Layout) -> DlxSolver {
        DlxSolver::from_tables(Arc::new(Constraints::new(layout)), layout.shape())
    }

    /// An engine over tables already built (shared, for one engine per
    /// thread); `shape` is the layout's.
    pub fn from_tables(tables: Arc<Constraints>, shape: Shape) -> DlxSolver {
        let n = tables.side();
        let (links, row_node) = build_links(&tables);
        let bounded_cage = (0..tables.cell_count())
            .map(|cell| {
                tables
                    .cage_of(cell)
                    .filter(|&cage| !is_exact_cover(&tables.cages()[cage]))
            })
            .collect();
        DlxSolver {
            links,
            row_node,
            all_digits: if n == 64 { u64::MAX } else { (1 << n) - 1 },
            bounded_cage,
            cages: vec![CageState::default(); tables.cages().len()],
            given_nodes: Vec::with_capacity(tables.cell_count()),
            levels: Vec::with_capacity(tables.cell_count()),
            tables,
            shape,
        }
    }

    /// What the row of `node` stands for.
    #[inline]
    fn row(&self, node: u32) -> Row {
        Row::from_number(self.links.node(node).row, self.tables.side())
    }

    /// The cage and the digit of the row of `node` when it is a cell row of
    /// a cage checked by bounds.
    #[inline]
    fn bounded_placement(&self, node: u32) -> Option<(usize, u32)> {
        match self.row(node) {
            Row::Cell { cell, digit } => self.bounded_cage[cell].map(|cage| (cage, digit)),
            Row::DigitSet => None,
        }
    }

    /// Whether the row of `node` keeps its cage able to make its sum, for a
    /// cell row of a cage checked by bounds (see [`within_bounds`]); other
    /// rows need no check.
    fn admits(&self, node: u32) -> bool {
        match self.bounded_placement(node) {
            Some((cage, digit)) => within_bounds(
                &self.tables.cages()[cage],
                self.cages[cage],
                digit,
                self.all_digits,
            ),
            None => true,
        }
    }

    /// Adds the digit of `node`'s row to its cage when that is checked by
    /// bounds, or takes it back when not `added`.
    fn count_in_cage(&mut self, node: u32, added: bool) {
        if let Some((cage, digit)) = self.bounded_placement(node) {
            let state = &mut self.cages[cage];
            if added {
                state.total += digit;
                state.placed += 1;
            } else {
                state.total -= digit;
                state.placed -= 1;
            }
            state.digits ^= 1 << (digit - 1);
        }
    }

    /// Chooses the row of `node`, whose own column is already covered:
    /// covers its other columns.
    fn select(&mut self, node: u32) {
        let mut j = self.links.node(node).right;
        while j != node {
            self.links.cover(self.links.node(j).column);
            j = self.links.node(j).right;
        }
        self.count_in_cage(node, true);
    }

    /// Undoes [`DlxSolver::select`] of `node`.
    fn deselect(&mut self, node: u32) {
        self.count_in_cage(node, false);
        let mut j = self.links.node(node).left;
        while j != node {
            self.links.uncover(self.links.node(j).column);
            j = self.links.node(j).left;
        }
    }

    /// Chooses the givens' rows; `false` when one of them is no longer
    /// there (it clashes with an earlier given) or breaks a cage sum.
    ///
    /// A given's cell column is uncovered when its turn comes (one given per
    /// cell), so its row is still there exactly when its node in that
    /// column is still linked.
    fn place_givens(&mut self, givens: &[u8]) -> bool {
        let n = self.tables.side();
        for (cell, &value) in givens.iter().enumerate() {
            if value == 0 {
                continue;
            }
            let node = self.row_node[cell * n + value as usize - 1];
            if !self.links.is_linked(node) || !self.admits(node) {
                return false;
            }
            self.links.cover(self.links.node(node).column);
            self.select(node);
            self.given_nodes.push(node);
        }
        true
    }

    /// The next row below `level`'s current one that keeps its cage able to
    /// make its sum, if any.
    fn next_row(&self, level: Level) -> Option<u32> {
        let mut node = self.links.node(level.node).down;
        while node != level.column {
            if self.admits(node) {
                return Some(node);
            }
            node = self.links.node(node).down;
        }
        None
    }

    /// Moves to the next row of the deepest level that has one, dropping
    /// the exhausted levels; `false` when the search is over.
    fn advance(&mut self) -> bool {
        while let Some(level) = self.levels.pop() {
            if level.node != level.column {
                self.deselect(level.node);
            }
            if let Some(node) = self.next_row(level) {
                self.select(node);
                self.levels.push(Level { node, ..level });
                return true;
            }
            self.links.uncover(level.column);
        }
        false
    }

    /// Writes the grid of the cell rows chosen (a complete cover) into
    /// `out`; the set rows chosen place nothing.
    fn write_solution(&self, out: &mut [u8]) {
        let levels = self.levels.iter().map(|level| level.node);
        for node in self.given_nodes.iter().copied().chain(levels) {
            match self.row(node) {
                Row::Cell { cell, digit } => out[cell] = digit as u8,
                Row::DigitSet => {}
            }
        }
    }

    /// Algorithm X from the givens' cover: counts solutions up to `limit`,
    /// writing the first into `solution`; `None` when `give_up` says so
    /// (asked every [`NODES_PER_CHECK`] nodes). Leaves its levels for
    /// [`DlxSolver::unwind`].
    fn explore(
        &mut self,
        limit: u64,
        mut solution: Option<&mut [u8]>,
        mut give_up: impl FnMut() -> bool,
    ) -> Option<Outcome> {
        let mut outcome = Outcome::default();
        let mut nodes = 0u64;
        loop {
            nodes += 1;
            if nodes.is_multiple_of(NODES_PER_CHECK) && give_up() {
                return None;
            }
            match self.links.fewest_rows() {
                None => {
                    if outcome.solutions == 0 {
                        if let Some(out) = solution.as_deref_mut() {
                            self.write_solution(out);
                        }
                    }
                    outcome.solutions += 1;
                    if outcome.solutions >= limit {
                        return Some(outcome);
                    }
                }
                Some(column) => {
                    let rows = self.links.size[column as usize];
                    if rows >= 2 {
                        outcome.guesses += 1;
                    }
                    if rows > 0 {
                        self.links.cover(column);
                        self.levels.push(Level {
                            column,
                            node: column,
                        });
                    }
                }
            }
            if !self.advance() {
                return Some(outcome);
            }
        }
    }

    /// Undoes every choice, search levels then givens, so that the links
    /// are as built.
    fn unwind(&mut self) {
        while let Some(level) = self.levels.pop() {
            if level.node != level.column {
                self.deselect(level.node);
            }
            self.links.uncover(level.column);
        }
        while let Some(node) = self.given_nodes.pop() {
            self.deselect(node);
            self.links.uncover(self.links.node(node).column);
        }
    }

    /// One puzzle, start to finish: givens, search, undo.
    fn search(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        give_up: impl FnMut() -> bool,
    ) -> Option<Outcome> {
        let outcome = if self.place_givens(givens) {
            self.explore(limit.max(1), solution, give_up)
        } else {
            Some(Outcome::default())
        };
        self.unwind();
        outcome
    }
}

/// Whether the sum of `cage` is exact cover (a set row per digit set), not
/// checked by bounds as rows are chosen.
fn is_exact_cover(cage: &CageTable) -> bool {
    cage.combos.len() <= MAX_COMBOS_SCANNED
}

/// The primary columns of a cage that is exact cover: `chosen`, "a digit
/// set is chosen", then one per digit.
#[derive(Clone, Copy, Debug)]
struct CageColumns {
    chosen: u32,
}

impl CageColumns {
    /// The column of digit `index + 1`: covered by the cage's cell with that
    /// digit, or by the set row of a set without it.
    fn digit(self, index: usize) -> u32 {
        self.chosen + 1 + index as u32
    }
}

/// The links of `tables` and the first node of each cell row (rows are
/// numbered as [`Row`] says).
///
/// Primary columns: the cells, `0..N²`; each complete house `h` and digit
/// index `d`, `N² + h·N + d`; then `N + 1` per cage that is exact cover (see
/// [`CageColumns`]), in cage order. Secondary columns: each partial house
/// and digit, then each pair of [`unshared_peer_pairs`] and digit.
fn build_links(tables: &Constraints) -> (Links, Vec<u32>) {
    let n = tables.side();
    let cells = tables.cell_count();
    let complete = tables.complete_count();
    let partial = tables.house_count() - complete;
    let pairs = unshared_peer_pairs(tables);
    let mut pairs_of_cell: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (pair, &(a, b)) in pairs.iter().enumerate() {
        pairs_of_cell[a].push(pair);
        pairs_of_cell[b].push(pair);
    }
    let mut next_cage_column = (cells + complete * n) as u32;
    let cage_columns: Vec<Option<CageColumns>> = tables
        .cages()
        .iter()
        .map(|cage| {
            is_exact_cover(cage).then(|| {
                let columns = CageColumns {
                    chosen: next_cage_column,
                };
                next_cage_column += n as u32 + 1;
                columns
            })
        })
        .collect();
    let primary = next_cage_column as usize;
    let partial_base = primary;
    let pair_base = partial_base + partial * n;
    let mut links = Links::new(primary, (partial + pairs.len()) * n);
    let mut row_node = Vec::with_capacity(cells * n);
    let mut columns: Vec<u32> = Vec::new();
    for (cell, pairs) in pairs_of_cell.iter().enumerate() {
        let cage = tables.cage_of(cell).and_then(|cage| cage_columns[cage]);
        for d in 0..n {
            columns.clear();
            columns.push(cell as u32);
            for &house in tables.houses_of(cell) {
                let h = house as usize;
                let column = if h < complete {
                    cells + h * n + d
                } else {
                    partial_base + (h - complete) * n + d
                };
                columns.push(column as u32);
            }
            if let Some(cage) = cage {
                columns.push(cage.digit(d));
            }
            for &pair in pairs {
                columns.push((pair_base + pair * n + d) as u32);
            }
            row_node.push(links.add_row((cell * n + d) as u32, &columns));
        }
    }
    let mut row = (cells * n) as u32;
    for (table, cage) in tables.cages().iter().zip(&cage_columns) {
        let Some(cage) = *cage else { continue };
        for &set in &table.combos {
            columns.clear();
            columns.push(cage.chosen);
            columns.extend(
                (0..n)
                    .filter(|&d| set & (1 << d) == 0)
                    .map(|d| cage.digit(d)),
            );
            links.add_row(row, &columns);
            row += 1;
        }
    }
    (links, row_node)
}

/// The pairs of cells `(a, b)`, `a < b`, that must differ without sharing
/// a house: the "sees" relations (anti-knight, anti-king).
fn unshared_peer_pairs(tables: &Constraints) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for a in 0..tables.cell_count() {
        let houses = tables.houses_of(a);
        for &b in tables.peers(a) {
            let b = b as usize;
            if b > a && !tables.houses_of(b).iter().any(|h| houses.contains(h)) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

impl RawSolver for DlxSolver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        self.search(givens, limit, solution, || false)
            .unwrap_or_default()
    }

    fn solve_raw_until(
        &mut self,
        givens: &[u8],
        limit: u64,
        solution: Option<&mut [u8]>,
        budget: &Budget,
    ) -> Option<Outcome> {
        self.search(givens, limit, solution, || budget.is_spent())
    }
}

impl Solver for DlxSolver {
    fn shape(&self) -> Shape {
        self.shape
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::reference::ReferenceSolver;
    use crate::variant::{Cage, Rule, Rules, VariantSolver};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::ops::RangeInclusive;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    fn classic(box_rows: usize, box_cols: usize) -> Layout {
        Layout::classic(Shape::new(box_rows, box_cols).expect("a valid box shape"))
    }

    fn with_rule(layout: Layout, rule: Rule) -> Layout {
        layout.with_rules(Rules::NONE.with(rule))
    }

    /// A solution of `solver`'s layout, its digits renamed at random when
    /// no cage sum pins them; `None` when the layout has none.
    fn random_solution(solver: &mut VariantSolver, rng: &mut ChaCha8Rng) -> Option<Vec<u8>> {
        let n = solver.shape().side();
        let mut solution = vec![0; n * n];
        if solver
            .solve_raw(&vec![0; n * n], 1, Some(&mut solution))
            .solutions
            == 0
        {
            return None;
        }
        let mut names: Vec<u8> = (1..=n as u8).collect();
        if solver.tables().cages().is_empty() {
            names.shuffle(rng);
        }
        for digit in &mut solution {
            *digit = names[*digit as usize - 1];
        }
        Some(solution)
    }

    /// `clues` random cells of `solution`, and one time in five a random
    /// digit somewhere, which may contradict them.
    fn random_givens(solution: &[u8], clues: usize, rng: &mut ChaCha8Rng) -> Vec<u8> {
        let mut order: Vec<usize> = (0..solution.len()).collect();
        order.shuffle(rng);
        let mut givens = vec![0; solution.len()];
        for &cell in &order[..clues] {
            givens[cell] = solution[cell];
        }
        if rng.gen_bool(0.2) {
            let n = (solution.len() as f64).sqrt() as usize;
            givens[rng.gen_range(0..solution.len())] = rng.gen_range(1..=n) as u8;
        }
        givens
    }

    /// `layout` with killer cages of one to four orthogonally adjacent cells
    /// of distinct digits in `solution`, summing to their digits there.
    fn killer(layout: &Layout, solution: &[u8], rng: &mut ChaCha8Rng) -> Layout {
        let n = layout.side();
        let mut caged = vec![false; n * n];
        let mut killer = layout.clone();
        for start in 0..n * n {
            if caged[start] {
                continue;
            }
            let size = rng.gen_range(1..=4);
            let mut cells = vec![start];
            caged[start] = true;
            while cells.len() < size {
                let mut fits: Vec<usize> = cells
                    .iter()
                    .flat_map(|&c| neighbours(c, n))
                    .filter(|&c| !caged[c] && cells.iter().all(|&d| solution[d] != solution[c]))
                    .collect();
                fits.dedup();
                let Some(&next) = fits.choose(rng) else { break };
                caged[next] = true;
                cells.push(next);
            }
            let sum = cells.iter().map(|&c| solution[c] as u32).sum();
            let cage = Cage {
                sum: Some(sum),
                cells: cells.iter().map(|&c| c as u16).collect(),
            };
            killer = killer
                .with_cage(cage)
                .expect("a cage of distinct digits of a solution");
        }
        killer
    }

    fn neighbours(cell: usize, n: usize) -> impl Iterator<Item = usize> {
        let (r, c) = (cell / n, cell % n);
        [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ]
        .into_iter()
        .filter(move |&(r, c)| r < n && c < n)
        .map(move |(r, c)| r * n + c)
    }

    /// [`check_puzzles`] on a random solution of `layout`, with the random
    /// generator `seed`; 0 when the layout has no solution.
    fn check_agreement(
        layout: &Layout,
        count: usize,
        clues: RangeInclusive<usize>,
        limit: u64,
        seed: u64,
    ) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match random_solution(&mut VariantSolver::new(layout), &mut rng) {
            Some(solution) => check_puzzles(layout, &solution, count, clues, limit, &mut rng),
            None => 0,
        }
    }

    /// Solves `count` random puzzles of `layout`, each `clues` cells of
    /// `solution` (see [`random_givens`]), with the dancing links, the
    /// variant engine and, for classic layouts up to 6×6, the reference
    /// engine (plain backtracking takes seconds on sparse 9×9 grids): counts
    /// with `limit` agree, and the first solution keeps the givens and the
    /// layout. Returns how many had a solution.
    fn check_puzzles(
        layout: &Layout,
        solution: &[u8],
        count: usize,
        clues: RangeInclusive<usize>,
        limit: u64,
        rng: &mut ChaCha8Rng,
    ) -> usize {
        let tables = Arc::new(Constraints::new(layout));
        let mut dlx = DlxSolver::from_tables(Arc::clone(&tables), layout.shape());
        let mut variant = VariantSolver::from_tables(Arc::clone(&tables), layout.shape());
        let mut reference = (layout.is_classic() && layout.side() <= 6)
            .then(|| ReferenceSolver::new(layout.shape()));
        let mut out = vec![0; solution.len()];
        let mut solved = 0;
        for _ in 0..count {
            let givens = random_givens(solution, rng.gen_range(clues.clone()), rng);
            let found = dlx.solve_raw(&givens, limit, Some(&mut out)).solutions;
            let want = variant.solve_raw(&givens, limit, None).solutions;
            assert_eq!(found, want, "{layout:?} {givens:?}");
            if let Some(reference) = reference.as_mut() {
                assert_eq!(found, reference.solve_raw(&givens, limit, None).solutions);
            }
            if found > 0 {
                solved += 1;
                assert!(tables.is_solution(&out), "{layout:?} {givens:?} {out:?}");
                assert!(givens.iter().zip(&out).all(|(&g, &v)| g == 0 || g == v));
            }
        }
        solved
    }

    #[test]
    fn the_empty_4x4_grid_has_288_solutions() {
        let mut dlx = DlxSolver::new(&classic(2, 2));
        let outcome = dlx.solve_raw(&[0; 16], u64::MAX, None);
        assert_eq!(outcome.solutions, 288);
        assert!(outcome.guesses > 0);
        // The links are restored: the same answer again, and after a stop at
        // the limit.
        assert_eq!(dlx.solve_raw(&[0; 16], 5, None).solutions, 5);
        assert_eq!(dlx.solve_raw(&[0; 16], 0, None).solutions, 1);
        assert_eq!(dlx.solve_raw(&[0; 16], u64::MAX, None), outcome);
    }

    #[test]
    fn sparse_6x6_counts_match_the_variant_engine() {
        let layout = classic(2, 3);
        check_agreement(&layout, 20, 8..=8, u64::MAX, 6);
        let jigsaw = layout.with_region_map(JIGSAW_6).expect("a valid map");
        check_agreement(&jigsaw, 20, 8..=10, u64::MAX, 7);
    }

    /// Six regions of six cells, not the boxes.
    const JIGSAW_6: &str = "AAABBBAACCBBDACCCBDDCEEFDDEEEFDEFFFF";

    /// A published 9×9 jigsaw map (janko.at, Chaos Sudoku 249).
    const JIGSAW_9: &str =
        "ABCCDDDDDABBCCCCCDAEBBBBBCDAEEEEFBCDAAAGEFFFDHHAGEEEFFIHAGGGGGFIHHHHHHGFIIIIIIIGF";

    /// Every variant the tables know, on one shape.
    fn variants(box_rows: usize, box_cols: usize) -> Vec<Layout> {
        let base = classic(box_rows, box_cols);
        let mut layouts = vec![base.clone()];
        layouts.extend(
            [
                Rule::Diagonals,
                Rule::Windoku,
                Rule::AntiKnight,
                Rule::AntiKing,
                Rule::Disjoint,
            ]
            .map(|rule| with_rule(base.clone(), rule)),
        );
        layouts.push(with_rule(
            with_rule(base.clone(), Rule::Diagonals),
            Rule::AntiKnight,
        ));
        layouts.push(
            base.clone()
                .with_group(vec![0, 1, (box_cols * box_rows + 2) as u16])
                .expect("a valid group"),
        );
        layouts
    }

    #[test]
    fn random_puzzles_agree_with_the_other_engines() {
        let cases = [(2, 2, 2..=8, 60), (2, 3, 6..=16, 40), (3, 3, 22..=40, 30)];
        for (seed, (box_rows, box_cols, clues, count)) in cases.into_iter().enumerate() {
            let mut solved = 0;
            for (k, layout) in variants(box_rows, box_cols).iter().enumerate() {
                solved += check_agreement(layout, count, clues.clone(), 2, (seed * 100 + k) as u64);
            }
            assert!(
                solved > count,
                "too few puzzles with a solution on {box_rows}×{box_cols}"
            );
        }
        let jigsaw_4 = classic(2, 2)
            .with_region_map("AAABABBBCCCDCDDD")
            .expect("a valid map");
        assert!(check_agreement(&jigsaw_4, 60, 2..=8, 2, 11) > 0);
        let jigsaw_6 = classic(2, 3)
            .with_region_map(JIGSAW_6)
            .expect("a valid map");
        assert!(check_agreement(&jigsaw_6, 60, 6..=16, 2, 12) > 0);
        let jigsaw_9 = classic(3, 3)
            .with_region_map(JIGSAW_9)
            .expect("a valid map");
        assert!(check_agreement(&jigsaw_9, 60, 22..=40, 2, 13) > 0);
    }

    #[test]
    fn exact_counts_agree_on_sparse_4x4_puzzles() {
        for (k, layout) in variants(2, 2).iter().enumerate() {
            check_agreement(layout, 40, 0..=5, u64::MAX, 200 + k as u64);
        }
    }

    #[test]
    fn killer_puzzles_agree_with_the_variant_engine() {
        let mut rng = ChaCha8Rng::seed_from_u64(300);
        let cases = [
            (2, 2, 0..=4, u64::MAX),
            (2, 3, 0..=8, u64::MAX),
            // Sparse 9×9 puzzles have far too many solutions to count all.
            (3, 3, 0..=30, 2),
        ];
        for (box_rows, box_cols, clues, limit) in cases {
            for base in [
                classic(box_rows, box_cols),
                with_rule(classic(box_rows, box_cols), Rule::Diagonals),
            ] {
                for _ in 0..4 {
                    let mut variant = VariantSolver::new(&base);
                    let Some(solution) = random_solution(&mut variant, &mut rng) else {
                        continue;
                    };
                    let layout = killer(&base, &solution, &mut rng);
                    let solved =
                        check_puzzles(&layout, &solution, 25, clues.clone(), limit, &mut rng);
                    assert!(solved > 0);
                }
            }
        }
    }

    #[test]
    fn given_less_9x9_killers_agree_with_the_variant_engine() {
        // Cages of one to four cells are exact cover (a set row per digit
        // set), which takes dancing links through these in milliseconds.
        let mut rng = ChaCha8Rng::seed_from_u64(400);
        let base = classic(3, 3);
        let mut variant = VariantSolver::new(&base);
        let empty = [0u8; 81];
        let mut out = [0u8; 81];
        let mut unique = 0;
        for _ in 0..30 {
            let solution = random_solution(&mut variant, &mut rng).expect("9×9 Sudoku exists");
            let layout = killer(&base, &solution, &mut rng);
            let tables = Arc::new(Constraints::new(&layout));
            assert!(tables.cages().iter().all(is_exact_cover));
            let mut dlx = DlxSolver::from_tables(Arc::clone(&tables), layout.shape());
            let found = dlx.solve_raw(&empty, 2, Some(&mut out));
            let want = VariantSolver::from_tables(Arc::clone(&tables), layout.shape())
                .solve_raw(&empty, 2, None);
            assert_eq!(found.solutions, want.solutions, "{layout:?}");
            assert!(found.solutions > 0, "{layout:?}");
            assert!(tables.is_solution(&out), "{layout:?} {out:?}");
            if found.solutions == 1 {
                assert_eq!(out[..], solution[..]);
                unique += 1;
            }
            // The links are restored, set rows included.
            assert_eq!(dlx.solve_raw(&empty, 2, None), found);
        }
        assert!(unique > 0);
    }

    /// `layout` (16×16) with a cage of the eight cells of `row` that hold
    /// 1 to 4 and 13 to 16 in `solution`: sum 68, which hundreds of digit
    /// sets make.
    fn with_large_cage(layout: Layout, solution: &[u8], row: usize) -> Layout {
        let cells: Vec<u16> = (row * 16..row * 16 + 16)
            .filter(|&c| !(5..=12).contains(&solution[c]))
            .map(|c| c as u16)
            .collect();
        layout
            .with_cage(Cage {
                sum: Some(68),
                cells,
            })
            .expect("a valid cage")
    }

    #[test]
    fn large_cages_are_checked_by_bounds() {
        // A 16×16 grid with cages of the eight cells of a row holding 1 to 4
        // and 13 to 16: sum 68, which hundreds of digit sets make.
        let mut rng = ChaCha8Rng::seed_from_u64(500);
        let base = classic(4, 4);
        let solution =
            random_solution(&mut VariantSolver::new(&base), &mut rng).expect("16×16 Sudoku exists");
        let mut layout = base;
        for row in 0..8 {
            layout = with_large_cage(layout, &solution, row);
        }
        let tables = Constraints::new(&layout);
        assert!(tables
            .cages()
            .iter()
            .all(|cage| cage.combos.len() > MAX_COMBOS_SCANNED));
        assert!(check_puzzles(&layout, &solution, 20, 120..=180, 2, &mut rng) > 0);
    }

    #[test]
    fn exact_cover_and_bounded_cages_mix() {
        // The large cages above, each followed by the pairs of cells of a
        // row of the lower half as cages, which are exact cover: the set
        // rows of the pairs skip the large cages.
        let mut rng = ChaCha8Rng::seed_from_u64(600);
        let base = classic(4, 4);
        let solution =
            random_solution(&mut VariantSolver::new(&base), &mut rng).expect("16×16 Sudoku exists");
        let mut layout = base;
        for row in 0..8 {
            layout = with_large_cage(layout, &solution, row);
            for first in ((row + 8) * 16..(row + 9) * 16).step_by(2) {
                let sum = u32::from(solution[first]) + u32::from(solution[first + 1]);
                layout = layout
                    .with_cage(Cage {
                        sum: Some(sum),
                        cells: vec![first as u16, first as u16 + 1],
                    })
                    .expect("a valid cage");
            }
        }
        let tables = Constraints::new(&layout);
        let exact = tables.cages().iter().filter(|c| is_exact_cover(c)).count();
        assert_eq!((exact, tables.cages().len()), (64, 72));
        assert!(check_puzzles(&layout, &solution, 20, 110..=180, 2, &mut rng) > 0);
    }

    #[test]
    fn contradictions_give_no_solution_and_keep_the_links() {
        let layout = classic(2, 2);
        let mut dlx = DlxSolver::new(&layout);
        let mut givens = [0u8; 16];
        givens[0] = 1;
        givens[5] = 1; // the same box
        assert_eq!(dlx.solve_raw(&givens, 2, None), Outcome::default());
        assert_eq!(dlx.solve_raw(&[0; 16], u64::MAX, None).solutions, 288);

        // Cells a knight's move apart share no house: a secondary column.
        let mut anti_knight = DlxSolver::new(&with_rule(layout.clone(), Rule::AntiKnight));
        let mut givens = [0u8; 16];
        givens[0] = 2;
        givens[6] = 2; // r2c3
        assert_eq!(anti_knight.solve_raw(&givens, 2, None).solutions, 0);

        // A given that breaks a cage sum, and a search that cannot make one.
        let caged = layout
            .with_cage(Cage {
                sum: Some(3),
                cells: vec![0, 1],
            })
            .expect("a valid cage");
        let mut dlx = DlxSolver::new(&caged);
        let mut givens = [0u8; 16];
        givens[0] = 3;
        assert_eq!(dlx.solve_raw(&givens, 2, None).solutions, 0);
        givens[0] = 0;
        givens[2] = 1;
        givens[3] = 2; // the cage needs 1 and 2, which its row already has
        assert_eq!(dlx.solve_raw(&givens, 2, None).solutions, 0);
        let total = dlx.solve_raw(&[0; 16], u64::MAX, None).solutions;
        assert_eq!(
            total,
            VariantSolver::new(&caged)
                .solve_raw(&[0; 16], u64::MAX, None)
                .solutions
        );
        assert!(total > 0);
    }

    #[test]
    fn a_spent_budget_gives_up() {
        let mut dlx = DlxSolver::new(&classic(3, 3));
        let empty = [0u8; 81];
        let past = Budget::until(Instant::now());
        assert_eq!(dlx.solve_raw_until(&empty, u64::MAX, None, &past), None);
        let flag = Arc::new(AtomicBool::new(true));
        let cancelled = Budget::unlimited().with_cancel(flag);
        assert_eq!(
            dlx.solve_raw_until(&empty, u64::MAX, None, &cancelled),
            None
        );
        // An unlimited budget finds solutions on the restored links.
        let mut out = [0u8; 81];
        let found = dlx.solve_raw_until(&empty, 3, Some(&mut out), &Budget::unlimited());
        assert_eq!(found.map(|o| o.solutions), Some(3));
        assert!(Constraints::new(&classic(3, 3)).is_solution(&out));
    }
}
