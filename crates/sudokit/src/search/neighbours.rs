//! The {−R+A} neighbours of one seed for one removal: the heart of the hunt.
//!
//! # Method
//!
//! Removing the clues `S` from the seed leaves a puzzle `Q`; the unit's
//! finds are the unique, minimal puzzles `Q + X` for sets `X` of `A` new
//! clues. Which way to find them is chosen per puzzle by how many
//! solutions it has, since the two ways cost in opposite directions:
//!
//! - **From the solutions** (few of them): adding clues to `P` only ever
//!   keeps some of `P`'s solutions, so `P + X` is unique exactly when its
//!   clues agree with one solution `s` of `P` and rule out every other
//!   solution `t`. A clue at cell `c` (with digit `s[c]`) rules out `t` when
//!   `t[c] ≠ s[c]`, so with `D_t` the cells where `t` differs from `s`, the
//!   added cells must *hit* every `D_t`. The search lists `P`'s solutions
//!   once and, for each `s`, the hitting sets of exactly the clues still to
//!   add: branch on the cells of the unhit `D_t` with fewest choices,
//!   excluding each cell from its later siblings so that every set appears
//!   once. With one clue left no set is built: the cell `c` makes `s`
//!   unique exactly when no other solution has `s[c]` there, which one
//!   tally of digits per cell over all solutions tells.
//! - **Directly** (many solutions, where the hitting sets' work grows with
//!   the square of their number): each possible new clue (an empty cell
//!   that may still come after the clues added so far, and a digit its
//!   row, column and box allow) is added in turn, and the puzzle it makes
//!   is handled the same way, by its own number of solutions, with one
//!   clue fewer to add. The last clue is tested with the solver (from the
//!   puzzle propagated once, so a digit its propagation rules out costs
//!   nothing), unless the solutions known so far rule it out: when two known solutions have
//!   digit `d` at cell `c`, both survive that clue, which then cannot make
//!   the puzzle unique. The solutions listed while counting are known from
//!   the start, and every test that finds two solutions adds both, so the
//!   tests rule out more and more of the clues still to test.
//!
//! The solutions are listed (by the 9×9 engine) up to a bound that depends
//! on the clues left to add; reaching it means "many". Once a puzzle has no
//! solution or one, nothing is added to it (an added clue would be
//! redundant). Both ways give every
//! added set once, in increasing order of its cells, so the unit's finds
//! are the same whichever way each puzzle takes (they are returned sorted).
//!
//! A unique puzzle is minimal only if
//! - every added clue is needed: with the solutions, every added cell must
//!   be the only one to rule out some `t` (sets smaller than `A` that
//!   already hit everything are never extended, for the same reason);
//!   directly, the puzzle before the last clue had several solutions;
//! - no earlier clue became redundant: removing any clue of the puzzle the
//!   last step started from must leave several solutions. Most unique
//!   candidates fail here, and on the same few clues, so the clue that
//!   failed last is tried first (move to front). The solver checks it;
//!   where a puzzle worked from its solutions has many candidates, the
//!   solutions of that puzzle less the clue are listed once instead, and
//!   the clue is needed exactly when one of them other than the
//!   candidate's own agrees with it on the added cells (see
//!   `WithoutClue`).
//!
//! Re-adding a removed clue with its own digit is skipped: that puzzle lies
//! in the smaller {−(R−1)+(A−1)} neighbourhood.

use std::collections::HashSet;

use super::digest::Fnv1a;
use crate::grid::{check_cells, InputError, Shape};
use crate::solver::fast9::{Fast9Solver, ALWAYS_QUICK};
use crate::solver::raw::RawSolver;

/// Counts for one unit (seed × removal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnitCounts {
    /// Candidates examined: solutions of puzzles whose solutions were
    /// listed in full, plus puzzles tested directly with the solver.
    pub candidates: u64,
    /// Unique puzzles built (with exactly `A` clues added, each needed).
    pub unique: u64,
    /// Of those, minimal ones.
    pub minimal: u64,
}

/// An 81-cell set, bit `k` for cell `k`.
type Cells = u128;

/// The puzzles with up to this many solutions are worked from their
/// solutions, those with more directly, by the clues still to be added. Measured with `benches/hunt.rs` on 17-clue seeds and the 40-clue
/// one: with one clue left a short list is best, since the direct tests
/// learn more solutions as they go ({−1+1} and {−1+2} of 17-clue seeds
/// take 4× and 8× longer with 2048 than with 16 to 64, and the 40-clue
/// seed's neighbourhoods do not change); with more, 256 (the hitting sets'
/// pairwise differences grow with the square of the solutions, while
/// {−2+3} of the 40-clue seed takes 2× longer with 32 and 4× with 16).
const LISTING_BOUNDS: Bounds = Bounds {
    last: 32,
    more: 256,
};

/// How many solutions a puzzle may have to be worked from its solutions:
/// `last` when one clue is left to add, `more` when several are.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    last: u64,
    more: u64,
}

impl Bounds {
    /// The bound when `left` clues are still to be added.
    fn for_left(self, left: usize) -> u64 {
        if left <= 1 {
            self.last
        } else {
            self.more
        }
    }
}

/// The unique minimal puzzles `seed − removed + A clues` (see the module
/// docs), sorted, and the unit's counts. An error when a value of `seed`
/// exceeds 9 or a cell of `removed` is not below 81.
pub fn unit_neighbours(
    solver: &mut Fast9Solver,
    seed: &[u8; 81],
    removed: &[u8],
    add: usize,
) -> Result<(Vec<[u8; 81]>, UnitCounts), InputError> {
    check_seed(seed)?;
    if let Some(&k) = removed.iter().find(|&&k| k >= 81) {
        return Err(InputError::NoSuchCell {
            cell: k as usize + 1,
            count: 81,
        });
    }
    Ok(unit_neighbours_raw(solver, seed, removed, add))
}

/// Checks that a seed's values are 0–9.
pub(crate) fn check_seed(seed: &[u8; 81]) -> Result<(), InputError> {
    check_cells(Shape::new(3, 3).expect("3×3 boxes are a valid shape"), seed)
}

/// [`unit_neighbours`] for a checked seed and cells below 81.
pub(crate) fn unit_neighbours_raw(
    solver: &mut Fast9Solver,
    seed: &[u8; 81],
    removed: &[u8],
    add: usize,
) -> (Vec<[u8; 81]>, UnitCounts) {
    unit_with_bounds(solver, seed, removed, add, LISTING_BOUNDS)
}

/// [`unit_neighbours_raw`] with other listing bounds (the tests force each
/// way with them).
fn unit_with_bounds(
    solver: &mut Fast9Solver,
    seed: &[u8; 81],
    removed: &[u8],
    add: usize,
    bounds: Bounds,
) -> (Vec<[u8; 81]>, UnitCounts) {
    let mut reduced = *seed;
    let mut undo = [0u8; 81];
    for &k in removed {
        reduced[k as usize] = 0;
        undo[k as usize] = seed[k as usize];
    }
    let mut unit = Unit {
        solver,
        bounds,
        undo,
        order: std::array::from_fn(|k| k as u8),
        counts: UnitCounts::default(),
        finds: Vec::new(),
        lists: vec![Vec::new(); add + 1],
        diffs: Vec::new(),
        sets: Vec::new(),
        pair: Vec::new(),
        known: HashSet::new(),
        without: WithoutClue::default(),
    };
    let blank = (0..81)
        .filter(|&k| reduced[k] == 0)
        .fold(0, |m: Cells, k| m | 1 << k);
    let mode = unit.solver.set_quick_cells(ALWAYS_QUICK);
    unit.extend(&reduced, blank, add, 0);
    unit.solver.set_quick_cells(mode);
    let Unit {
        mut finds, counts, ..
    } = unit;
    finds.sort_unstable();
    (finds, counts)
}

/// One unit's search: the solver, what it found, and buffers reused by
/// every puzzle it looks at.
struct Unit<'s> {
    solver: &'s mut Fast9Solver,
    /// Up to how many solutions a puzzle is worked from its solutions.
    bounds: Bounds,
    /// The digit that may not be added at each cell (the seed's own, at a
    /// removed cell), or 0.
    undo: [u8; 81],
    /// Cells in the order their clues are tried for redundancy: the clue
    /// found redundant last comes first.
    order: [u8; 81],
    counts: UnitCounts,
    finds: Vec<[u8; 81]>,
    /// Solution lists, one per depth of added clues.
    lists: Vec<Vec<[u8; 81]>>,
    /// The differences `D_t` of the solution being extended.
    diffs: Vec<Cells>,
    /// Its hitting sets.
    sets: Vec<Cells>,
    /// The solutions a direct test found.
    pair: Vec<[u8; 81]>,
    /// Digests of the solutions known while testing the last clue directly.
    known: HashSet<u64>,
    /// Solutions of the puzzle worked from its solutions, less one clue.
    without: WithoutClue,
}

impl Unit<'_> {
    /// Finds the unique minimal puzzles `puzzle + X`, `X` being `left` new
    /// clues at cells of `allowed`, by the way `puzzle`'s number of
    /// solutions calls for; `depth` clues were added before.
    fn extend(&mut self, puzzle: &[u8; 81], allowed: Cells, left: usize, depth: usize) {
        if left == 0 {
            self.test(puzzle, puzzle);
            return;
        }
        // At least two are listed, to tell one solution from several.
        let bound = self.bounds.for_left(left).max(1);
        let mut list = std::mem::take(&mut self.lists[depth]);
        let n = self.solver.solutions_into(puzzle, bound + 1, &mut list);
        if n < 2 {
            // None, or already unique: any added clue would be redundant.
        } else if n <= bound {
            self.counts.candidates += n;
            if left == 1 {
                self.last_by_tally(puzzle, allowed, &list);
            } else {
                self.by_hitting_sets(puzzle, allowed, left, &list);
            }
        } else if left == 1 {
            self.last_by_tests(puzzle, allowed, &list);
        } else {
            self.clue_by_clue(puzzle, allowed, left, depth);
        }
        self.lists[depth] = list;
    }

    /// Counts `unique` and keeps it when it is unique and no clue it shares
    /// with `before` (the puzzle before its last added clues) is redundant.
    fn test(&mut self, unique: &[u8; 81], before: &[u8; 81]) {
        self.counts.candidates += 1;
        if self.solver.solve_raw(unique, 2, None).solutions != 1 {
            return;
        }
        self.counts.unique += 1;
        self.keep_if_minimal(unique, before, None);
    }
    /// Keeps `puzzle`, unique with every added clue needed, when each clue
    /// of `before` is needed too; a clue found redundant moves to the front
    /// of the order, to be tried first next time. With `added`, the cells
    /// added to `before` from the solution given to `self.without`, the
    /// listed solutions of `before` less a clue decide first (see
    /// [`WithoutClue`]).
    fn keep_if_minimal(&mut self, puzzle: &[u8; 81], before: &[u8; 81], added: Option<Cells>) {
        let mut probe = *puzzle;
        for i in 0..81 {
            let k = self.order[i] as usize;
            if before[k] == 0 {
                continue;
            }
            let listed = added.and_then(|added| self.without.needed(self.solver, before, k, added));
            let needed = listed.unwrap_or_else(|| {
                probe[k] = 0;
                let several = self.solver.solve_raw(&probe, 2, None).solutions >= 2;
                probe[k] = puzzle[k];
                several
            });
            if !needed {
                self.order[..=i].rotate_right(1);
                return;
            }
        }
        self.counts.minimal += 1;
        self.finds.push(*puzzle);
    }

    /// Cells of `allowed` where solution `s` may get a clue: not the seed's
    /// own digit back at a removed cell.
    fn open_for(&self, s: &[u8; 81], allowed: Cells) -> Cells {
        bits(allowed)
            .filter(|&k| self.undo[k] != 0 && s[k] == self.undo[k])
            .fold(allowed, |m, k| m & !(1 << k))
    }

    /// One clue left, all of `puzzle`'s solutions known: solution `s` with
    /// a clue at `c` is unique exactly when no other solution has `s[c]`
    /// at `c`.
    fn last_by_tally(&mut self, puzzle: &[u8; 81], allowed: Cells, solutions: &[[u8; 81]]) {
        self.without.start();
        let (once, twice) = digit_tally(solutions);
        for s in solutions {
            let masks = digit_masks(s);
            let sole: Cells = differ(&masks, &twice);
            debug_assert!(differ(&masks, &once) == 0);
            self.without.solution(&masks);
            for k in bits(sole & self.open_for(s, allowed)) {
                self.counts.unique += 1;
                let mut unique = *puzzle;
                unique[k] = s[k];
                self.keep_if_minimal(&unique, puzzle, Some(1 << k));
            }
        }
    }

    /// Several clues left, all of `puzzle`'s solutions known: the hitting
    /// sets of each solution's differences from the others.
    fn by_hitting_sets(
        &mut self,
        puzzle: &[u8; 81],
        allowed: Cells,
        left: usize,
        solutions: &[[u8; 81]],
    ) {
        self.without.start();
        // masks[i][d]: cells where solution i holds digit d + 1.
        let masks: Vec<[Cells; 9]> = solutions.iter().map(digit_masks).collect();
        let mut diffs = std::mem::take(&mut self.diffs);
        let mut sets = std::mem::take(&mut self.sets);
        for (i, s) in solutions.iter().enumerate() {
            diffs.clear();
            diffs.extend(
                masks
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, t)| differ(&masks[i], t)),
            );
            sets.clear();
            hitting_sets(&diffs, self.open_for(s, allowed), 0, 0, left, &mut sets);
            self.without.solution(&masks[i]);
            for &set in &sets {
                if !every_cell_needed(&diffs, set) {
                    continue;
                }
                self.counts.unique += 1;
                let mut unique = *puzzle;
                for k in bits(set) {
                    unique[k] = s[k];
                }
                self.keep_if_minimal(&unique, puzzle, Some(set));
            }
        }
        self.diffs = diffs;
        self.sets = sets;
    }

    /// One clue left and too many solutions to list: tests each possible
    /// clue with the solver, skipping those that two known solutions of
    /// `puzzle` share (both would survive it). `known` are some of its
    /// solutions, and every test that finds two adds them.
    fn last_by_tests(&mut self, puzzle: &[u8; 81], allowed: Cells, known: &[[u8; 81]]) {
        let (mut once, mut twice) = digit_tally(known);
        self.known.clear();
        self.known.extend(known.iter().map(|s| Fnv1a::of(s)));
        let mut pair = std::mem::take(&mut self.pair);
        // Every test starts from `puzzle` propagated once.
        let root = self.solver.root(puzzle);
        for (k, digit) in new_clues(puzzle, allowed, self.undo) {
            if twice[digit as usize - 1] >> k & 1 != 0 {
                continue;
            }
            let mut next = *puzzle;
            next[k] = digit;
            self.counts.candidates += 1;
            let found = match &root {
                Some(root) => self.solver.solutions_with(root, k, digit, 2, &mut pair),
                None => self.solver.solutions_into(&next, 2, &mut pair),
            };
            match found {
                0 => {}
                1 => {
                    self.counts.unique += 1;
                    self.keep_if_minimal(&next, puzzle, None);
                }
                _ => {
                    // A solution already known (by its digest) is not
                    // tallied twice; a digest collision only loses a skip,
                    // never a find.
                    for t in &pair {
                        if self.known.insert(Fnv1a::of(t)) {
                            tally(&mut once, &mut twice, t);
                        }
                    }
                }
            }
        }
        self.pair = pair;
    }

    /// Several clues left and too many solutions to list: adds each possible
    /// clue in turn and goes on from the puzzle it makes, at later cells.
    fn clue_by_clue(&mut self, puzzle: &[u8; 81], allowed: Cells, left: usize, depth: usize) {
        for (k, digit) in new_clues(puzzle, allowed, self.undo) {
            let mut next = *puzzle;
            next[k] = digit;
            let later = allowed & !((2 << k) - 1);
            self.extend(&next, later, left - 1, depth + 1);
        }
    }
}

/// The clues that may be added to `puzzle`, as (cell, digit): each cell of
/// `allowed` in increasing order with each digit its row, column and box
/// allow, except `undo[cell]` (the seed's own digit at a removed cell).
fn new_clues(
    puzzle: &[u8; 81],
    allowed: Cells,
    undo: [u8; 81],
) -> impl Iterator<Item = (usize, u8)> {
    let free = free_digits(puzzle);
    bits(allowed).flat_map(move |k| {
        (1..=9u8)
            .filter(move |&digit| free[k] >> (digit - 1) & 1 != 0 && undo[k] != digit)
            .map(move |digit| (k, digit))
    })
}

/// Up to this many solutions of a puzzle less one clue are listed to
/// decide, without the solver, whether that clue is needed (see
/// [`WithoutClue`]).
const WITHOUT_BOUND: u64 = 1024;

/// A clue's list is made once the solver has checked it this many times
/// for the same puzzle, so that puzzles with few candidates list nothing.
/// (With the bound, measured on the 40-clue seed: {−3+3} 1.7× faster,
/// {−2+2} and {−2+3} 2× faster; {−2+1} as fast as with no lists.)
const CHECKS_BEFORE_LISTING: u8 = 8;

/// The solutions of `before` (a puzzle worked from its solutions) less one
/// of its clues, listed once that clue has been checked a few times, up to
/// [`WITHOUT_BOUND`]: the clue at `c` is needed in `before + X` (with
/// solution `s`) exactly when some other solution `t` of `before − c`
/// agrees with `s` on the added cells `X`. Found among the listed ones, the
/// clue is needed; not found in a complete list, it is redundant; only
/// otherwise is the solver asked. Most candidates of many-clue seeds fail
/// on one such clue, so a few lists replace most of the solver's calls.
struct WithoutClue {
    /// Clues whose list was made for the current `before`.
    listed: Cells,
    /// Of those, the lists that hold every solution.
    complete: Cells,
    /// Per cell, the digit masks of the listed solutions.
    masks: Vec<Vec<[Cells; 9]>>,
    /// The solver's output.
    buffer: Vec<[u8; 81]>,
    /// Per cell, the solver's checks of its clue for the current `before`
    /// while it has no list.
    checks: [u8; 81],
    /// The digit masks of the solution whose candidates are being checked.
    solution: [Cells; 9],
    /// Per cell, where each listed solution differs from `solution`, for
    /// the cells of `fresh`.
    differ: Vec<Vec<Cells>>,
    /// Cells whose `differ` is up to date for `solution`.
    fresh: Cells,
}

impl Default for WithoutClue {
    fn default() -> Self {
        WithoutClue {
            listed: 0,
            complete: 0,
            masks: Vec::new(),
            buffer: Vec::new(),
            checks: [0; 81],
            solution: [0; 9],
            differ: Vec::new(),
            fresh: 0,
        }
    }
}

impl WithoutClue {
    /// Forgets the lists: a new `before` starts.
    fn start(&mut self) {
        self.listed = 0;
        self.fresh = 0;
        self.checks = [0; 81];
        if self.masks.is_empty() {
            self.masks = vec![Vec::new(); 81];
            self.differ = vec![Vec::new(); 81];
        }
    }

    /// The solution (by its digit masks) whose candidates are checked next.
    fn solution(&mut self, masks: &[Cells; 9]) {
        self.solution = *masks;
        self.fresh = 0;
    }

    /// Whether the clue at `c` is needed in `before` plus the clues at
    /// `added` from the current solution, when the listed solutions tell;
    /// `None` when the solver must.
    fn needed(
        &mut self,
        solver: &mut Fast9Solver,
        before: &[u8; 81],
        c: usize,
        added: Cells,
    ) -> Option<bool> {
        if self.listed >> c & 1 == 0 && self.checks[c] < CHECKS_BEFORE_LISTING {
            self.checks[c] += 1;
            return None;
        }
        if self.listed >> c & 1 == 0 {
            let mut less = *before;
            less[c] = 0;
            let n = solver.solutions_into(&less, WITHOUT_BOUND + 1, &mut self.buffer);
            self.masks[c].clear();
            self.masks[c].extend(self.buffer.iter().map(digit_masks));
            self.listed |= 1 << c;
            self.fresh &= !(1 << c);
            if n <= WITHOUT_BOUND {
                self.complete |= 1 << c;
            } else {
                self.complete &= !(1 << c);
            }
        }
        if self.fresh >> c & 1 == 0 {
            // The cells where each listed solution differs from this one
            // (itself, if listed, left out).
            self.differ[c].clear();
            self.differ[c].extend(
                self.masks[c]
                    .iter()
                    .map(|t| differ(&self.solution, t))
                    .filter(|&cells| cells != 0),
            );
            self.fresh |= 1 << c;
        }
        let agrees = self.differ[c].iter().any(|&cells| cells & added == 0);
        if agrees {
            Some(true)
        } else if self.complete >> c & 1 != 0 {
            Some(false)
        } else {
            None
        }
    }
}

/// Digits each cell of `puzzle` may take (bit `d` for digit `d + 1`): none
/// for a clue, else those its row, column and box do not hold.
fn free_digits(puzzle: &[u8; 81]) -> [u16; 81] {
    let mut used = [0u16; 27];
    for (k, &v) in puzzle.iter().enumerate() {
        if v != 0 {
            for u in units_of(k) {
                used[u] |= 1 << (v - 1);
            }
        }
    }
    std::array::from_fn(|k| {
        if puzzle[k] != 0 {
            return 0;
        }
        let [a, b, c] = units_of(k);
        !(used[a] | used[b] | used[c]) & 0x1FF
    })
}

/// Row, column and box of cell `k`.
fn units_of(k: usize) -> [usize; 3] {
    let (r, c) = (k / 9, k % 9);
    [r, 9 + c, 18 + r / 3 * 3 + c / 3]
}

/// For each digit, the cells where at least one, and where at least two,
/// of `solutions` hold it.
fn digit_tally(solutions: &[[u8; 81]]) -> ([Cells; 9], [Cells; 9]) {
    let (mut once, mut twice) = ([0; 9], [0; 9]);
    for s in solutions {
        tally(&mut once, &mut twice, s);
    }
    (once, twice)
}

/// Adds `solution` to a [`digit_tally`].
fn tally(once: &mut [Cells; 9], twice: &mut [Cells; 9], solution: &[u8; 81]) {
    let masks = digit_masks(solution);
    for d in 0..9 {
        twice[d] |= once[d] & masks[d];
        once[d] |= masks[d];
    }
}

/// The cells where two solutions, given by their digit masks, differ.
fn differ(s: &[Cells; 9], t: &[Cells; 9]) -> Cells {
    (0..9).fold(0, |m, d| m | (s[d] & !t[d]))
}

fn digit_masks(solution: &[u8; 81]) -> [Cells; 9] {
    let mut m = [0; 9];
    for (k, &d) in solution.iter().enumerate() {
        m[d as usize - 1] |= 1 << k;
    }
    m
}

fn bits(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let k = set.trailing_zeros() as usize;
            set &= set - 1;
            k
        })
    })
}

/// Pushes every set of exactly `left` more cells from `allowed & !excluded`
/// that, with `chosen`, hits every member of `diffs` (see the module docs).
fn hitting_sets(
    diffs: &[Cells],
    allowed: Cells,
    chosen: Cells,
    excluded: Cells,
    left: usize,
    out: &mut Vec<Cells>,
) {
    let open = allowed & !excluded;
    let mut branch: Option<Cells> = None;
    for &d in diffs {
        if d & chosen != 0 {
            continue;
        }
        let options = d & open;
        if left == 0 || options == 0 {
            return;
        }
        if branch.is_none_or(|b| options.count_ones() < b.count_ones()) {
            branch = Some(options);
        }
    }
    let Some(options) = branch else {
        if left == 0 {
            out.push(chosen);
        }
        return;
    };
    let mut excluded = excluded;
    for k in bits(options) {
        hitting_sets(diffs, allowed, chosen | 1 << k, excluded, left - 1, out);
        excluded |= 1 << k;
    }
}

/// Whether each cell of `set` is the only one of `set` in some `diffs` member.
fn every_cell_needed(diffs: &[Cells], set: Cells) -> bool {
    let mut private: Cells = 0;
    for &d in diffs {
        let hit = d & set;
        if hit.count_ones() == 1 {
            private |= hit;
        }
    }
    private == set
}

#[cfg(test)]
mod tests {
    use super::{unit_with_bounds, Bounds, LISTING_BOUNDS};
    use crate::generate::{GenerateOptions, Generator};
    use crate::grid::Shape;
    use crate::search::removals;
    use crate::solver::fast9::Fast9Solver;

    /// Every puzzle listed (up to a bound no unit here reaches), none
    /// (every clue added and tested), and the default mix.
    const WAYS: [Bounds; 3] = [
        Bounds {
            last: 1 << 20,
            more: 1 << 20,
        },
        Bounds { last: 0, more: 0 },
        LISTING_BOUNDS,
    ];

    #[test]
    fn every_way_finds_the_same_puzzles() {
        let mut options = GenerateOptions::new(Shape::new(3, 3).unwrap());
        options.minimal = true;
        let mut generator = Generator::new(options);
        let mut solver = Fast9Solver::new();
        let mut finds = 0;
        for (index, (remove, add, units)) in [(1, 1, 99), (1, 2, 3), (2, 1, 40), (2, 2, 2)]
            .into_iter()
            .enumerate()
        {
            let seed: [u8; 81] = generator
                .generate(11, index as u64)
                .unwrap()
                .puzzle
                .cells()
                .try_into()
                .unwrap();
            let clues: Vec<u8> = (0..81).filter(|&k| seed[k as usize] != 0).collect();
            for removed in removals(&clues, remove).take(units) {
                let [all, none, mixed] = WAYS
                    .map(|bounds| unit_with_bounds(&mut solver, &seed, &removed, add, bounds).0);
                assert_eq!(all, none, "{{-{remove}+{add}}} removing {removed:?}");
                assert_eq!(all, mixed, "{{-{remove}+{add}}} removing {removed:?}");
                finds += all.len();
            }
        }
        assert!(finds > 0, "the comparison saw some finds");
    }
}
