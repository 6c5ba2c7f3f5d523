//! [`Fast9Solver`]: the 9×9 engine, built on band bitboards.
//!
//! # How it works
//!
//! The board is kept as candidate sets, one 27-bit mask per digit per band
//! (a band is three rows). Propagation reasons about a digit inside a band or
//! a stack (three columns) as a whole: the digit occupies one cell per row
//! and per box of the band, so its placement there is one of six
//! permutations "row `r` uses box `σ(r)`". Looking up the row×box occupancy
//! matrix in a table removes every mini-row no permutation uses; that single
//! step covers hidden singles in boxes and both kinds of locked candidates
//! (pointing and claiming) along rows. The same step on the band×column
//! occupancy of a stack covers them along columns, and a row left with one
//! cell is a hidden single in a row. Naked singles and empty cells come from
//! a bit-sliced count of all nine digit masks at once.
//!
//! On the portable and AVX2 paths that is done along rows eagerly, in the
//! band update; along columns the band update only claims a column for a
//! box whose cells share it, and the full column step runs when nothing
//! else is left. The AVX-512 path updates every band and every stack of
//! every digit at once, with the board in registers, until nothing changes
//! (see `kernel`); it reaches the same fixpoint, and its quick search (below)
//! therefore has the column step too. Before each thorough guess comes the
//! triad rule: a mini-row (three cells of a row in one box) holds exactly
//! three digits, so one with exactly three possible digits takes them all
//! and one with three certain digits excludes the rest (same for
//! mini-columns).
//!
//! When nothing more follows, the engine branches like tdoku does: on the
//! digit-in-band (or digit-in-stack) with the fewest remaining permutations,
//! preferably two, trying each permutation in turn. One such guess fixes a
//! digit's three mini-rows (or mini-columns) at once, so hard puzzles take
//! far fewer guesses than branching on cells.
//!
//! That thorough search costs more per guess than it saves on easy puzzles,
//! so a puzzle that propagation leaves with fewer than 50 open cells is first
//! searched quickly, JCZSolve-style: branching on the first bivalue cell,
//! without the triad step (and, on the paths where it is a separate step,
//! without the column step). If that takes more than 16 guesses the
//! solver starts over with the thorough search. The search is a loop over an
//! explicit stack of saved boards allocated once per solver; nothing is
//! allocated per puzzle.
//!
//! # Bit layout and invariants
//!
//! - `cand[d][b]` (`d` = digit − 1, `b` = band 0..3): bit `9·r + c` is set
//!   when digit `d + 1` is still possible in row `3·b + r`, column `c`. Lane 3
//!   of every `[u32; 4]` is always zero, so a digit's three bands load as one
//!   128-bit vector.
//! - `unsolved[b]`: bit `9·r + c` is set until the cell is *placed*: a digit's
//!   row in the band was left with that single cell, at which point the cell
//!   was removed from every other digit. A placed cell never regains a
//!   candidate and its digit never loses it without the band update reporting
//!   a contradiction, so `unsolved == 0` at a propagation fixpoint is a
//!   complete, valid solution.
//! - A *dirty* word (in the search, not in the saved board) has bit
//!   `4·d + b` set when `cand[d][b]` changed since its band update last ran,
//!   so the band needs another update. Every step that narrows a mask sets
//!   the bits of the masks it changed, comparing old and new values it holds
//!   in registers: comparing the whole board against a copy instead read
//!   the board back as vectors right after scalar stores to it, a store
//!   forward that stalled. Saved boards are fixpoints, so a restored one is
//!   dirty only where the branch taken narrows it.
//! - Masks only ever shrink within a branch: every step is `&=`.

mod kernel;
mod path;
mod tables;

pub use path::{CodePath, UnknownCodePath};

use super::raw::RawSolver;
use super::{Outcome, Solver};
use crate::grid::Shape;
use kernel::{Counts, PORTABLE};
#[cfg(target_arch = "x86_64")]
use kernel::{AVX2, AVX512};
use tables::{
    columns, ALLOWED, BAND, BAND_KEEP, COL_LOCK, COVER, LINES, PEERS, PERMS, PERM_COUNT, PERM_ROWS,
    SHRINK, VALID,
};

/// Candidate masks of a position; see the module docs for the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
struct Board {
    cand: [[u32; 4]; 9],
    unsolved: [u32; 4],
}

/// What a guess decides: the permutation of `digit` in a band or in a stack.
#[derive(Clone, Copy)]
enum Branch {
    /// Which box each row of band `band` uses for `digit`.
    Band { digit: u8, band: u8 },
    /// Which column each band uses for `digit` inside stack `stack`.
    Stack { digit: u8, stack: u8 },
    /// Which digit goes in cell `pos` of band `band`.
    Cell { band: u8, pos: u8 },
}

/// Where a search starts.
enum Start<'a> {
    /// From the givens (81 cells, then padding).
    Givens(&'a [u8; 96]),
    /// From a board whose dirty bands (bit `4·d + b`) need an update.
    #[cfg(all(feature = "parallel", feature = "serde"))]
    Board(&'a Board, u64),
}

/// How [`Fast9Solver::settle`] left a board.
enum Settled {
    /// Every cell placed: a solution.
    Solved,
    /// A contradiction.
    Dead,
    /// The quick search reached its guess budget.
    Restart,
}

/// Puzzles left with fewer open cells than this at their first guess are
/// searched quickly first: branching on bivalue cells, without the triad
/// logic, which costs more per guess than it saves on such puzzles. (The
/// threshold comes from measurements: the forum's hardest puzzles leave 55
/// or more cells open, the multi-solution benchmark 30 to 49.)
const QUICK_CELLS: u32 = 50;

#[cfg(all(feature = "parallel", feature = "serde"))]
/// A [`Fast9Solver::set_quick_cells`] setting above any number of open
/// cells: every puzzle is searched quickly first.
pub(crate) const ALWAYS_QUICK: u32 = 82;

/// Guesses the quick search may take before the solver starts over with the
/// thorough one (guesses keep counting), so that a hard puzzle which
/// propagates well still gets the strong search.
const QUICK_GUESSES: u64 = 16;

/// A saved board and the permutations (bit `p` = `PERMS[p]`) not yet tried.
#[derive(Clone, Copy)]
struct Frame {
    board: Board,
    branch: Branch,
    untried: u32,
}

/// The fast 9×9 engine: band bitboards, permutation-table propagation along
/// rows and columns, and branching on a digit's placement within a band.
///
/// It chooses at construction the fastest [`CodePath`] the CPU runs: x86-64
/// code compiled for AVX-512, or for AVX2/BMI2, or the portable path. All
/// give identical results; `SUDOKIT_FORCE_SCALAR=1` in the environment (or
/// [`Fast9Solver::scalar`]) selects the portable one, and
/// [`Fast9Solver::with_path`] any available one.
///
/// [`Outcome::guesses`] counts branch points, including those of a quick
/// search that was abandoned for the thorough one.
#[derive(Clone)]
pub struct Fast9Solver {
    path: CodePath,
    stack: Vec<Frame>,
    limit: u64,
    outcome: Outcome,
    want_first: bool,
    first: Option<[u8; 81]>,
    /// Whether solutions are kept in `found` ([`Fast9Solver::solutions_into`]).
    collect: bool,
    /// The solutions found so far, when `collect`.
    found: Vec<[u8; 81]>,
    quick: bool,
    /// Puzzles left with fewer open cells than this at their first guess
    /// are searched quickly first ([`QUICK_CELLS`] unless changed with
    /// [`Fast9Solver::set_quick_cells`]).
    quick_cells: u32,
    /// Whether the quick search also applies the column logic of every
    /// stack: the AVX-512 path does, in its fixpoint; the others do not,
    /// since a separate step costs them more than it saves, except when a
    /// test compares the portable path with the AVX-512 one.
    quick_stacks: bool,
}

impl Default for Fast9Solver {
    fn default() -> Self {
        Fast9Solver::new()
    }
}

impl Fast9Solver {
    /// A solver using the fastest code path this CPU supports, unless the
    /// environment variable `SUDOKIT_FORCE_SCALAR` is set to `1`.
    pub fn new() -> Fast9Solver {
        let forced = std::env::var_os("SUDOKIT_FORCE_SCALAR").is_some_and(|v| v == "1");
        let path = if forced {
            CodePath::Portable
        } else {
            CodePath::best()
        };
        Fast9Solver::on(path)
    }

    /// A solver that always takes the portable (non-SIMD) code path.
    pub fn scalar() -> Fast9Solver {
        Fast9Solver::on(CodePath::Portable)
    }

    /// A solver on `path`, or `None` when this CPU cannot run it: tests and
    /// benchmarks compare the paths on one machine.
    pub fn with_path(path: CodePath) -> Option<Fast9Solver> {
        path.is_available().then(|| Fast9Solver::on(path))
    }

    /// The code path this solver runs.
    pub fn path(&self) -> CodePath {
        self.path
    }

    /// Whether this solver runs one of the x86-64 SIMD code paths.
    pub fn uses_simd(&self) -> bool {
        self.path != CodePath::Portable
    }

    /// A solver on `path`, which the caller has checked is available.
    fn on(path: CodePath) -> Fast9Solver {
        Fast9Solver {
            path,
            // A thorough guess fixes one of the 54 digit-in-band/stack
            // placements for good, so that search never goes deeper than 54;
            // the quick search stops at 16 guesses.
            stack: Vec::with_capacity(64),
            limit: 1,
            outcome: Outcome::default(),
            want_first: false,
            first: None,
            collect: false,
            found: Vec::new(),
            quick: true,
            quick_cells: QUICK_CELLS,
            quick_stacks: path == CodePath::Avx512,
        }
    }

    #[cfg(all(feature = "parallel", feature = "serde"))]
    /// Sets below how many open cells at the first guess a puzzle is
    /// searched quickly first, and returns the previous setting. The
    /// default suits puzzles with one solution; the neighbourhood hunt,
    /// whose puzzles mostly have many, sets [`ALWAYS_QUICK`] for a unit's
    /// duration, since there the quick search finds two solutions sooner
    /// (measured: {−1+1} of 5,000 17-clue seeds and {−2+2} of one 19%
    /// faster; the 40-clue seed's neighbourhoods unchanged).
    pub(crate) fn set_quick_cells(&mut self, cells: u32) -> u32 {
        std::mem::replace(&mut self.quick_cells, cells)
    }

    #[cfg(all(feature = "parallel", feature = "serde"))]
    /// Fills `out` with the solutions of `givens` (81 values, 0 = blank),
    /// up to `limit` of them, in the search's order, replacing what it held;
    /// returns how many. For the neighbourhood hunt, which needs a reduced
    /// puzzle's solutions themselves, not only their number. `out`'s
    /// capacity is reused: nothing is allocated once it is large enough.
    pub(crate) fn solutions_into(
        &mut self,
        givens: &[u8; 81],
        limit: u64,
        out: &mut Vec<[u8; 81]>,
    ) -> u64 {
        self.collecting(out, |solver| {
            solver.solve_raw(givens, limit, None).solutions
        })
    }

    #[cfg(all(feature = "parallel", feature = "serde"))]
    /// Runs `search` with every solution it finds kept in `out` (cleared
    /// first, its capacity reused); returns what `search` returns.
    fn collecting(
        &mut self,
        out: &mut Vec<[u8; 81]>,
        search: impl FnOnce(&mut Self) -> u64,
    ) -> u64 {
        out.clear();
        std::mem::swap(out, &mut self.found);
        self.collect = true;
        let n = search(self);
        self.collect = false;
        std::mem::swap(out, &mut self.found);
        n
    }

    /// Resets the outcome for a search counting up to `limit` solutions,
    /// keeping the first when `want_first`.
    fn begin(&mut self, limit: u64, want_first: bool) {
        self.limit = limit.max(1);
        self.outcome = Outcome::default();
        self.first = None;
        self.want_first = want_first;
    }

    #[cfg(all(feature = "parallel", feature = "serde"))]
    /// `givens` propagated as far as it goes without a guess, for
    /// [`Fast9Solver::solutions_with`]; `None` when that already shows it
    /// has no solution or one.
    pub(crate) fn root(&mut self, givens: &[u8; 81]) -> Option<Root> {
        let cells = padded(givens);
        match self.path {
            CodePath::Portable => root_of::<PORTABLE>(&cells),
            // SAFETY: a solver only gets a path its CPU has (`CodePath`).
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx2 => unsafe { root_avx2(&cells) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => unsafe { root_avx512(&cells) },
            #[cfg(not(target_arch = "x86_64"))]
            CodePath::Avx2 | CodePath::Avx512 => unreachable!("x86 paths are never available"),
        }
    }

    #[cfg(all(feature = "parallel", feature = "serde"))]
    /// [`Fast9Solver::solutions_into`] for the puzzle of `root` with `digit`
    /// (1–9) added at `cell`, searched from `root`'s board rather than from
    /// the givens: the hunt tests many one-clue additions to one puzzle.
    /// A digit `root` has already ruled out there gives no solution at once.
    pub(crate) fn solutions_with(
        &mut self,
        root: &Root,
        cell: usize,
        digit: u8,
        limit: u64,
        out: &mut Vec<[u8; 81]>,
    ) -> u64 {
        out.clear();
        let (band, bit) = (cell / 27, 1u32 << (cell % 27));
        let d = digit as usize - 1;
        if root.0.cand[d][band] & bit == 0 {
            return 0;
        }
        let mut board = root.0;
        let dirty = give_cells(&mut board, d, band, bit);
        self.begin(limit, false);
        self.collecting(out, |solver| {
            solver.run(Start::Board(&board, dirty));
            solver.outcome.solutions
        })
    }

    /// Runs the search from `start` on this solver's path.
    fn run(&mut self, start: Start) {
        match self.path {
            CodePath::Portable => self.run_on::<PORTABLE>(start),
            // SAFETY: a solver only gets a path its CPU has (`CodePath`).
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx2 => unsafe { self.run_avx2(start) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            CodePath::Avx512 => unsafe { self.run_avx512(start) },
            #[cfg(not(target_arch = "x86_64"))]
            CodePath::Avx2 | CodePath::Avx512 => unreachable!("x86 paths are never available"),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn run_avx2(&mut self, start: Start) {
        self.run_on::<AVX2>(start);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn run_avx512(&mut self, start: Start) {
        self.run_on::<AVX512>(start);
    }

    /// [`Fast9Solver::run`] on path `L`.
    #[inline(always)]
    fn run_on<const L: u8>(&mut self, start: Start) {
        match start {
            Start::Givens(cells) => self.search::<L>(initial_board::<L>(cells), ALL_DIRTY),
            #[cfg(all(feature = "parallel", feature = "serde"))]
            Start::Board(board, dirty) => self.search::<L>(*board, dirty),
        }
    }

    /// Depth-first search over an explicit stack from `start`, whose bands
    /// of `start_dirty` need an update; counts solutions into
    /// `self.outcome` and keeps the first in `self.first`.
    #[inline(always)]
    fn search<const L: u8>(&mut self, start: Board, start_dirty: u64) {
        let mut board = start;
        let mut dirty = start_dirty;
        self.stack.clear();
        self.quick = true;
        loop {
            match self.settle::<L>(&mut board, dirty) {
                Settled::Solved => {
                    self.outcome.solutions += 1;
                    if self.want_first && self.first.is_none() {
                        self.first = Some(grid_of(&board));
                    }
                    if self.collect {
                        self.found.push(grid_of(&board));
                    }
                    if self.outcome.solutions >= self.limit {
                        return;
                    }
                }
                Settled::Dead => {}
                Settled::Restart => {
                    // The quick search ran long: start over with the
                    // thorough one (guesses keep counting).
                    self.quick = false;
                    self.stack.clear();
                    self.outcome.solutions = 0;
                    self.first = None;
                    self.found.clear();
                    board = start;
                    dirty = start_dirty;
                    continue;
                }
            }
            // Backtrack to the most recent untried alternative.
            let Some(top) = self.stack.last_mut() else {
                return;
            };
            let p = top.untried.trailing_zeros();
            top.untried &= top.untried - 1;
            board = top.board;
            let branch = top.branch;
            if top.untried == 0 {
                self.stack.pop();
            }
            dirty = apply(&mut board, branch, p);
        }
    }

    /// Propagates from the `dirty` bands, places singles and guesses until
    /// `board` is solved or contradictory, or the quick search has used up
    /// its guesses. Guesses push frames onto the stack.
    #[inline(always)]
    fn settle<const L: u8>(&mut self, board: &mut Board, mut dirty: u64) -> Settled {
        loop {
            let Counts { two, three, .. } = match fixpoint::<L>(board, dirty) {
                Fixpoint::Dead => return Settled::Dead,
                Fixpoint::Solved => return Settled::Solved,
                Fixpoint::Open(counts) => counts,
            };
            if self.quick && self.quick_stacks && !kernel::stacks_in_fixpoint(L) {
                // The column logic, which the AVX-512 fixpoint includes:
                // the portable path searches like that one when tested
                // against it (and chooses the mode on the same board).
                match stack_logic::<L>(board, &matrices::<L>(board)) {
                    None => return Settled::Dead,
                    Some(0) => {}
                    Some(changed) => {
                        dirty = changed;
                        continue;
                    }
                }
            }
            let u = board.unsolved;
            if self.outcome.guesses == 0 && self.quick {
                // The first guess decides the mode: a puzzle that propagation
                // leaves with few open cells gets the quick search.
                let open = u[0].count_ones() + u[1].count_ones() + u[2].count_ones();
                self.quick = open < self.quick_cells;
            }
            let (branch, untried) = if self.quick {
                if self.outcome.guesses >= QUICK_GUESSES {
                    return Settled::Restart;
                }
                choose_cell(
                    board,
                    [two[0] & !three[0], two[1] & !three[1], two[2] & !three[2]],
                )
            } else {
                match examine::<L>(board) {
                    Next::Contradiction => return Settled::Dead,
                    Next::Changed(changed) => {
                        dirty = changed;
                        continue;
                    }
                    Next::Branch(branch, untried) => (branch, untried),
                }
            };
            self.outcome.guesses += 1;
            let p = untried.trailing_zeros();
            self.stack.push(Frame {
                board: *board,
                branch,
                untried: untried & (untried - 1),
            });
            dirty = apply(board, branch, p);
        }
    }
}

impl Solver for Fast9Solver {
    fn shape(&self) -> Shape {
        Shape::new(3, 3).expect("3×3 boxes are a valid shape")
    }
}

impl RawSolver for Fast9Solver {
    fn solve_raw(&mut self, givens: &[u8], limit: u64, solution: Option<&mut [u8]>) -> Outcome {
        debug_assert_eq!(givens.len(), 81, "a 9×9 puzzle has 81 cells");
        self.begin(limit, solution.is_some());
        self.run(Start::Givens(&padded(givens)));
        if let (Some(out), Some(first)) = (solution, self.first) {
            out.copy_from_slice(&first);
        }
        self.outcome
    }
}

/// The 81 `givens` padded to the 96 bytes the kernels load.
fn padded(givens: &[u8]) -> [u8; 96] {
    let mut cells = [0u8; 96];
    cells[..81].copy_from_slice(givens);
    cells
}

/// Every band of every digit needs an update (bits `4·d + b`, `b < 3`).
const ALL_DIRTY: u64 = 0x7_7777_7777;

#[cfg(all(feature = "parallel", feature = "serde"))]
/// A puzzle propagated to its fixpoint without a guess, and still open
/// ([`Fast9Solver::root`]).
#[derive(Clone, Copy)]
pub(crate) struct Root(Board);

#[cfg(all(feature = "parallel", feature = "serde"))]
/// [`Fast9Solver::root`] on the given path.
#[inline(always)]
fn root_of<const L: u8>(cells: &[u8; 96]) -> Option<Root> {
    let mut board = initial_board::<L>(cells);
    match fixpoint::<L>(&mut board, ALL_DIRTY) {
        Fixpoint::Open(_) => Some(Root(board)),
        Fixpoint::Dead | Fixpoint::Solved => None,
    }
}

#[cfg(all(feature = "parallel", feature = "serde"))]
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
unsafe fn root_avx2(cells: &[u8; 96]) -> Option<Root> {
    root_of::<AVX2>(cells)
}

#[cfg(all(feature = "parallel", feature = "serde"))]
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,popcnt,lzcnt")]
unsafe fn root_avx512(cells: &[u8; 96]) -> Option<Root> {
    root_of::<AVX512>(cells)
}

/// Where propagation and naked singles leave a board.
enum Fixpoint {
    /// A contradiction.
    Dead,
    /// Every cell placed: a solution.
    Solved,
    /// Open cells remain; their candidate counts.
    Open(Counts),
}

/// Propagates from the `dirty` bands and places naked singles until neither
/// changes `board`. (The AVX-512 form updates every band, and every stack
/// too, each time: see `kernel`.)
#[inline(always)]
fn fixpoint<const L: u8>(board: &mut Board, mut dirty: u64) -> Fixpoint {
    #[cfg(target_arch = "x86_64")]
    if L == AVX512 {
        // SAFETY: this level only runs where AVX-512 F/VL was detected.
        return unsafe { kernel::fixpoint_512(&mut board.cand, &mut board.unsolved) };
    }
    loop {
        if !propagate::<L>(board, dirty) {
            return Fixpoint::Dead;
        }
        let u = board.unsolved;
        if u[0] | u[1] | u[2] == 0 {
            return Fixpoint::Solved;
        }
        let counts = kernel::counts::<L>(&board.cand);
        let mut singles = [0u32; 3];
        for b in 0..3 {
            if u[b] & !counts.one[b] != 0 {
                return Fixpoint::Dead;
            }
            singles[b] = u[b] & !counts.two[b];
        }
        if singles[0] | singles[1] | singles[2] == 0 {
            return Fixpoint::Open(counts);
        }
        dirty = place_singles(board, singles);
    }
}

/// The board of a puzzle (81 cells, then padding) before any propagation.
#[inline(always)]
fn initial_board<const L: u8>(cells: &[u8; 96]) -> Board {
    // own[v][b]: the cells of band b given as v (row 0: the blanks).
    let own = kernel::given_masks::<L>(cells);
    // Each given keeps only its digit and takes that digit from its row,
    // box and column. Clashing givens keep their digit too, but both are
    // then naked singles in one unit, and placing them empties a cell.
    let mut board = Board {
        cand: [[0; 4]; 9],
        unsolved: [BAND, BAND, BAND, 0],
    };
    for (row, g) in board.cand.iter_mut().zip(&own[1..]) {
        let w = column_word(g);
        let cols = columns((w | w >> 9 | w >> 18) & 0x1FF);
        for b in 0..3 {
            let taken = LINES[band_matrix::<L>(g[b])] | cols;
            row[b] = (own[0][b] & !taken) | g[b];
        }
    }
    board
}

/// Narrows `cand[d][b]` to `keep`; returns the band's dirty bit if that
/// changed it.
#[inline(always)]
fn narrow(board: &mut Board, d: usize, b: usize, keep: u32) -> u64 {
    let old = board.cand[d][b];
    let new = old & keep;
    board.cand[d][b] = new;
    u64::from(new != old) << (4 * d + b)
}

/// Removes digit `d` from the row, box and column peers of cell `i` in band
/// `b` (the cell itself keeps whatever it has); returns the dirty bits.
#[inline(always)]
fn eliminate_peers(board: &mut Board, d: usize, b: usize, i: usize) -> u64 {
    let col = !columns(1 << (i % 9));
    narrow(board, d, b, !PEERS[i])
        | narrow(board, d, (b + 1) % 3, col)
        | narrow(board, d, (b + 2) % 3, col)
}

/// Places every naked single: each cell of `singles` gets its only digit.
/// Returns the dirty bits.
#[inline(always)]
fn place_singles(board: &mut Board, singles: [u32; 3]) -> u64 {
    let mut dirty = 0;
    for (b, &s) in singles.iter().enumerate() {
        if s == 0 {
            continue;
        }
        for d in 0..9 {
            let mut mine = board.cand[d][b] & s;
            while mine != 0 {
                let i = mine.trailing_zeros() as usize;
                mine &= mine - 1;
                dirty |= eliminate_peers(board, d, b, i);
            }
        }
    }
    dirty
}

/// A bivalue cell if there is one, else the first unsolved cell, with its
/// candidate digits as a bit set.
#[inline(always)]
fn choose_cell(board: &Board, bivalue: [u32; 3]) -> (Branch, u32) {
    let mut b = 0;
    while b < 2 && bivalue[b] & board.unsolved[b] == 0 {
        b += 1;
    }
    let mut m = bivalue[b] & board.unsolved[b];
    if m == 0 {
        b = 0;
        while b < 2 && board.unsolved[b] == 0 {
            b += 1;
        }
        m = board.unsolved[b];
    }
    let i = m.trailing_zeros() as usize;
    let mut digits = 0;
    for (d, row) in board.cand.iter().enumerate() {
        digits |= ((row[b] >> i) & 1) << d;
    }
    (
        Branch::Cell {
            band: b as u8,
            pos: i as u8,
        },
        digits,
    )
}

/// Restricts the board to the alternative `p` of `branch`: permutation `p`
/// of a band or stack, or digit `p + 1` in a cell. Returns the dirty bits.
#[inline(always)]
fn apply(board: &mut Board, branch: Branch, p: u32) -> u64 {
    match branch {
        Branch::Band { digit, band } => narrow(
            board,
            usize::from(digit),
            usize::from(band),
            PERM_ROWS[p as usize],
        ),
        Branch::Stack { digit, stack } => {
            let d = usize::from(digit);
            let s = 3 * u32::from(stack);
            let others = !columns(7 << s);
            let perm = PERMS[p as usize];
            (0..3).fold(0, |dirty, b| {
                dirty | narrow(board, d, b, others | columns(1 << (s + perm[b])))
            })
        }
        Branch::Cell { band, pos } => {
            let (b, i, d) = (usize::from(band), usize::from(pos), p as usize);
            give_cells(board, d, b, 1 << i) | eliminate_peers(board, d, b, i)
        }
    }
}

/// The row×box occupancy matrix of a band mask (bit `3·r + k`: row `r` has
/// the digit in box `k`).
#[inline(always)]
fn band_matrix<const L: u8>(a: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if L >= AVX2 {
        // SAFETY: the x86 levels only run where BMI2 was detected.
        return unsafe { std::arch::x86_64::_pext_u32(a | a >> 1 | a >> 2, 0x124_9249) } as usize;
    }
    (SHRINK[(a & 0x1FF) as usize]
        | SHRINK[((a >> 9) & 0x1FF) as usize] << 3
        | SHRINK[(a >> 18) as usize] << 6) as usize
}

/// The columns of a digit's three band masks: bit `9·b + c` is set when band
/// `b` still has the digit in column `c`.
#[inline(always)]
fn column_word(row: &[u32; 4]) -> u32 {
    let col = |a: u32| (a | a >> 9 | a >> 18) & 0x1FF;
    col(row[0]) | col(row[1]) << 9 | col(row[2]) << 18
}

/// The band×column occupancy matrix of stack `s` (bit `3·b + j`: band `b`
/// has the digit in column `3·s + j`) from a column word.
#[inline(always)]
fn stack_matrix<const L: u8>(w: u32, s: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if L >= AVX2 {
        // SAFETY: the x86 levels only run where BMI2 was detected.
        return unsafe { std::arch::x86_64::_pext_u32(w, columns(7 << (3 * s))) } as usize;
    }
    let w = w >> (3 * s);
    ((w & 7) | (w >> 6) & 0o70 | (w >> 12) & 0o700) as usize
}

/// The inverse of [`stack_matrix`]: a stack matrix spread back into a
/// column word.
#[inline(always)]
fn stack_deposit<const L: u8>(m: u32, s: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if L >= AVX2 {
        // SAFETY: the x86 levels only run where BMI2 was detected.
        return unsafe { std::arch::x86_64::_pdep_u32(m, columns(7 << (3 * s))) };
    }
    ((m & 7) | (m & 0o70) << 6 | (m & 0o700) << 12) << (3 * s)
}

/// Runs band updates, from the `dirty` bands, until no mask changes; false
/// on a contradiction.
///
/// It works in rounds: each round updates the bands dirty when it began,
/// and the bands they make dirty wait for the next round unless the round
/// has yet to reach them. Taking each next band from the running dirty word
/// instead made every update wait for the one before it to finish (the
/// index depends on its result).
#[inline(always)]
fn propagate<const L: u8>(board: &mut Board, mut dirty: u64) -> bool {
    while dirty != 0 {
        let mut round = dirty;
        while round != 0 {
            let i = round.trailing_zeros() as usize;
            round &= round - 1;
            match band_update::<L>(board, i / 4, i % 4) {
                Some(more) => dirty = (dirty & !(1 << i)) | more,
                None => return false,
            }
        }
    }
    true
}

/// The two bands other than band `b`.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// The cells of band mask `a` alone in their row; every row is non-empty.
#[inline(always)]
fn lone_in_row<const L: u8>(a: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if L >= AVX2 {
        use std::arch::x86_64::{_pdep_u64, _pext_u64};
        // Rows spread to 21-bit fields, so per-field arithmetic never
        // carries into the next row.
        const FIELDS: u64 = 0x1FF | 0x1FF << 21 | 0x1FF << 42;
        const ONES: u64 = 1 | 1 << 21 | 1 << 42;
        const HIGH: u64 = ONES << 9;
        // SAFETY: the x86 levels only run where BMI2 was detected.
        unsafe {
            let x = _pdep_u64(u64::from(a), FIELDS);
            // A field is zero after clearing its lowest bit iff it had one
            // bit; adding 0x1FF sets bit 9 of the fields that are not.
            let rest = x & (x - ONES);
            let single = HIGH ^ ((rest + FIELDS) & HIGH);
            let keep = single - (single >> 9);
            return _pext_u64(x & keep, FIELDS) as u32;
        }
    }
    let lone = |x: u32| if x & (x - 1) == 0 { x } else { 0 };
    lone(a & 0x1FF) | lone((a >> 9) & 0x1FF) << 9 | lone(a >> 18) << 18
}

/// The row logic of digit `d` in band `b`: keep the mini-rows some
/// permutation uses, then place the cells left alone in their row. Returns
/// the bands it made dirty, or `None` on a contradiction. (The band itself
/// is left clean: the update is idempotent.)
#[inline(always)]
fn band_update<const L: u8>(board: &mut Board, d: usize, b: usize) -> Option<u64> {
    let a = board.cand[d][b];
    let a = a & BAND_KEEP[band_matrix::<L>(a)];
    if a == 0 {
        return None;
    }
    // A box whose cells for the digit share one column claims that column
    // in the other bands.
    let lock = COL_LOCK[((a | a >> 9 | a >> 18) & 0x1FF) as usize];
    let (b1, b2) = OTHER_BANDS[b];
    let row = &mut board.cand[d];
    let (o1, o2) = (row[b1], row[b2]);
    row[b1] = o1 & lock;
    row[b2] = o2 & lock;
    let locked = u64::from(o1 & !lock != 0) << b1 | u64::from(o2 & !lock != 0) << b2;
    let mut dirty = locked << (4 * d);
    let placed = lone_in_row::<L>(a) & board.unsolved[b];
    if placed != 0 {
        board.unsolved[b] &= !placed;
        dirty |= give_cells(board, d, b, placed);
    }
    // Written after the placements, which leave the band as they find it.
    board.cand[d][b] = a;
    Some(dirty)
}

/// Gives `cells` of band `b`, which digit `d` has, to `d`: every other
/// digit loses them. Returns the dirty bits.
#[inline(always)]
fn give_cells(board: &mut Board, d: usize, b: usize, cells: u32) -> u64 {
    let keep = board.cand[d][b];
    // Bit 4·e: digit e had one of the cells. (One word for all nine
    // digits: a `narrow` per digit, each setting its own bit, measured
    // slower in the band update.)
    let mut lost = 0u64;
    for (e, row) in board.cand.iter_mut().enumerate() {
        lost |= u64::from(row[b] & cells != 0) << (4 * e);
        row[b] &= !cells;
    }
    board.cand[d][b] = keep;
    (lost & !(1 << (4 * d))) << b
}

/// Keeps, in stack `s` of digit `d`'s masks, only the mini-columns of
/// matrix `m`; returns the dirty bits.
#[inline(always)]
fn restrict_stack<const L: u8>(board: &mut Board, d: usize, s: u32, m: u32) -> u64 {
    let w = stack_deposit::<L>(m, s);
    let others = !columns(7 << (3 * s));
    (0..3).fold(0, |dirty, b| {
        dirty | narrow(board, d, b, others | columns((w >> (9 * b)) & 0x1FF))
    })
}

/// The occupancy matrices of every digit in the six units: `mats[d]` holds
/// unit `u` (bands 0..3, stacks 3..6) in bits `10·u .. 10·u + 9` (bit 9 of
/// each lane stays clear, so shifts by one or two within a lane never cross
/// lanes).
#[inline(always)]
fn matrices<const L: u8>(board: &Board) -> [u64; 9] {
    let mut mats = [0u64; 9];
    for (m, row) in mats.iter_mut().zip(&board.cand) {
        let w = column_word(row);
        for (u, &a) in row.iter().enumerate().take(3) {
            *m |= (band_matrix::<L>(a) as u64) << (10 * u);
            *m |= (stack_matrix::<L>(w, u as u32) as u64) << (10 * (u + 3));
        }
    }
    mats
}

/// The column logic: in every stack, keep only the mini-columns of each
/// digit that some permutation uses, by the stack matrices of `mats`
/// ([`matrices`] of `board`). Returns the dirty bits, or `None` on a
/// contradiction.
#[inline(always)]
fn stack_logic<const L: u8>(board: &mut Board, mats: &[u64; 9]) -> Option<u64> {
    let mut changed = 0;
    for (d, &m) in mats.iter().enumerate() {
        for s in 0..3 {
            let x = ((m >> (10 * (s + 3))) & 0x1FF) as usize;
            let allowed = ALLOWED[x];
            if allowed == 0 {
                return None;
            }
            if usize::from(allowed) != x {
                changed |= restrict_stack::<L>(board, d, s as u32, allowed.into());
            }
        }
    }
    Some(changed)
}

/// What [`examine`] found.
enum Next {
    /// Some mini-line needs more or fewer digits than it can take.
    Contradiction,
    /// Triad reasoning removed candidates (the dirty bits): propagate
    /// again.
    Changed(u64),
    /// Nothing more follows: branch on these permutations.
    Branch(Branch, u32),
}

/// The triad logic, then the choice of a branch.
///
/// A mini-row (three cells of a row in one box) holds exactly three digits,
/// as does a mini-column. Per band, the occupancy matrices of the nine digits
/// say which mini-rows each digit may use (`possible`) and which it must use
/// (`certain`: the only one left in its row); a mini-row with fewer than
/// three possible or more than three certain digits is a contradiction, one
/// with exactly three possible digits takes all three, one with exactly three
/// certain digits excludes the rest. Stacks and mini-columns likewise.
///
/// With nothing to remove, the branch is the one tdoku picks: in the band
/// or stack with the fewest permutations summed over its digits (among those
/// not yet fixed), the digit with the fewest permutations left.
#[inline(always)]
fn examine<const L: u8>(board: &mut Board) -> Next {
    let mats = matrices::<L>(board);
    if !kernel::stacks_in_fixpoint(L) {
        match stack_logic::<L>(board, &mats) {
            None => return Next::Contradiction,
            Some(0) => {}
            Some(changed) => return Next::Changed(changed),
        }
    }
    let mut changed = 0;
    // Bit-sliced counts over the digits, all six units at once: p_k / c_k =
    // mini-lines with at least k possible / certain digits. An entry is
    // certain when it is alone in its line (row of the matrix).
    let (mut p1, mut p2, mut p3, mut p4) = (0u64, 0u64, 0u64, 0u64);
    let (mut c1, mut c2, mut c3, mut c4) = (0u64, 0u64, 0u64, 0u64);
    let mut certain = [0u64; 9];
    for (&x, c) in mats.iter().zip(certain.iter_mut()) {
        let (b0, b1, b2) = (x & LANES_0, (x >> 1) & LANES_0, (x >> 2) & LANES_0);
        let multi = (b0 & b1) | (b0 & b2) | (b1 & b2);
        let y = x & !(multi | multi << 1 | multi << 2);
        *c = y;
        p4 |= p3 & x;
        p3 |= p2 & x;
        p2 |= p1 & x;
        p1 |= x;
        c4 |= c3 & y;
        c3 |= c2 & y;
        c2 |= c1 & y;
        c1 |= y;
    }
    if (!p3 | c4) & LANES_ALL != 0 {
        return Next::Contradiction;
    }
    let take = p3 & !p4;
    let full = c3 & !c4;
    // A mini-line with exactly three possible and three certain digits is
    // settled; any other with three of either still has work to do.
    if take ^ full != 0 {
        for (d, (&x, &c)) in mats.iter().zip(&certain).enumerate() {
            let gain = x & take & !c;
            let lose = x & full & !c;
            let mut lanes = gain | lose;
            while lanes != 0 {
                let u = lanes.trailing_zeros() / 10;
                let at = 10 * u;
                lanes &= !(0x3FF << at);
                let lane = |v: u64| ((v >> at) & 0x1FF) as u32;
                let g = lane(gain);
                let next = (lane(x) & !lane(lose) & !u32::from(COVER[g as usize])) | g;
                changed |= if u < 3 {
                    narrow(board, d, u as usize, BAND_KEEP[next as usize])
                } else {
                    restrict_stack::<L>(board, d, u - 3, next)
                };
            }
        }
        if changed != 0 {
            return Next::Changed(changed);
        }
    }
    let count =
        |d: usize, u: usize| u32::from(PERM_COUNT[((mats[d] >> (10 * u)) & 0x1FF) as usize]);
    let mut best_u = 0;
    let mut best_total = u32::MAX;
    for u in 0..6 {
        let t: u32 = (0..9).map(|d| count(d, u)).sum();
        if t > 9 && t < best_total {
            best_total = t;
            best_u = u;
        }
    }
    let mut best_d = 0;
    let mut best_n = u32::MAX;
    for d in 0..9 {
        let n = count(d, best_u);
        if n >= 2 && n < best_n {
            best_n = n;
            best_d = d;
        }
    }
    let digit = best_d as u8;
    let branch = if best_u < 3 {
        Branch::Band {
            digit,
            band: best_u as u8,
        }
    } else {
        Branch::Stack {
            digit,
            stack: best_u as u8 - 3,
        }
    };
    let untried = if best_n == u32::MAX {
        0
    } else {
        u32::from(VALID[((mats[best_d] >> (10 * best_u)) & 0x1FF) as usize])
    };
    Next::Branch(branch, untried)
}

/// Bits 0, 3 and 6 (the first entry of each line) of the six 10-bit lanes.
const LANES_0: u64 = 0o111 * LANE_ONES;
/// All nine entries of the six 10-bit lanes.
const LANES_ALL: u64 = 0x1FF * LANE_ONES;
/// Bit 0 of each of the six 10-bit lanes.
const LANE_ONES: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40 | 1 << 50;

/// The digits of a solved board, row-major.
fn grid_of(board: &Board) -> [u8; 81] {
    let mut grid = [0u8; 81];
    for (d, row) in board.cand.iter().enumerate() {
        for b in 0..3 {
            let mut m = row[b];
            while m != 0 {
                grid[27 * b + m.trailing_zeros() as usize] = d as u8 + 1;
                m &= m - 1;
            }
        }
    }
    grid
}

/// A random grid with all but `clues` random cells blanked: the puzzles
/// the engine's unit tests search.
#[cfg(test)]
fn random_puzzle(rng: &mut rand_chacha::ChaCha8Rng, clues: usize) -> [u8; 81] {
    use rand::seq::SliceRandom;
    let shape = Shape::new(3, 3).expect("3×3 boxes are a valid shape");
    let mut puzzle: [u8; 81] = crate::generate::random_grid(shape, rng)
        .cells()
        .try_into()
        .expect("a 9×9 grid has 81 cells");
    let mut cells: Vec<usize> = (0..81).collect();
    cells.shuffle(rng);
    for &k in &cells[clues..] {
        puzzle[k] = 0;
    }
    puzzle
}

/// The dirty bits: every step that narrows a mask must report it, or
/// propagation stops short of its fixpoint.
#[cfg(test)]
mod dirty_tests {
    use super::*;
    use crate::generate::puzzle_rng;

    /// `fixpoint` from `board` with the `dirty` bands; `None` on a
    /// contradiction.
    fn settle(board: &Board, dirty: u64) -> Option<Board> {
        let mut b = *board;
        match fixpoint::<PORTABLE>(&mut b, dirty) {
            Fixpoint::Dead => None,
            Fixpoint::Solved | Fixpoint::Open(_) => Some(b),
        }
    }

    /// What `fixpoint` gives from `board` when told which bands are dirty,
    /// and the closure found without trusting any dirty bits: every band
    /// updated, again and again until nothing changes.
    fn both_ways(board: &Board, dirty: u64) -> (Option<Board>, Option<Board>) {
        let mut closure = settle(board, ALL_DIRTY);
        while let Some(b) = closure {
            let again = settle(&b, ALL_DIRTY);
            if again == Some(b) {
                break;
            }
            closure = again;
        }
        (settle(board, dirty), closure)
    }

    /// From givens, after each branch and after each triad step, the
    /// fixpoint reached from the reported dirty bands is the one reached by
    /// updating every band: the same board, or a contradiction both ways.
    #[test]
    fn propagation_from_the_dirty_bands_reaches_the_full_fixpoint() {
        let mut rng = puzzle_rng(41, 0);
        let (mut branches, mut triads) = (0, 0);
        for i in 0..400 {
            let puzzle = random_puzzle(&mut rng, 17 + i % 20);
            let mut board = initial_board::<PORTABLE>(&padded(&puzzle));
            let (Some(mut settled), Some(full)) = both_ways(&board, ALL_DIRTY) else {
                panic!("puzzle {i} has a solution");
            };
            assert_eq!(settled, full);
            // Walk down one branch at a time, checking every alternative.
            for depth in 0..60 {
                if settled.unsolved[..3] == [0; 3] {
                    break;
                }
                board = settled;
                let next = match examine::<PORTABLE>(&mut board) {
                    Next::Contradiction => break,
                    Next::Changed(dirty) => {
                        triads += 1;
                        let (from_dirty, from_all) = both_ways(&board, dirty);
                        assert_eq!(from_dirty, from_all, "puzzle {i}, triads at depth {depth}");
                        from_dirty
                    }
                    Next::Branch(branch, untried) => {
                        // Offered every open cell, `choose_cell` takes the
                        // first: a cell branch, the quick search's kind, to
                        // check beside the band or stack one.
                        let open = [board.unsolved[0], board.unsolved[1], board.unsolved[2]];
                        let cell = choose_cell(&board, open);
                        let mut reached = None;
                        for (branch, untried) in [(branch, untried), cell] {
                            let mut alternatives = untried;
                            while alternatives != 0 {
                                let p = alternatives.trailing_zeros();
                                alternatives &= alternatives - 1;
                                let mut child = board;
                                let dirty = apply(&mut child, branch, p);
                                let (from_dirty, from_all) = both_ways(&child, dirty);
                                assert_eq!(from_dirty, from_all, "puzzle {i}, depth {depth}");
                                reached = reached.or(from_dirty);
                                branches += 1;
                            }
                        }
                        reached
                    }
                };
                match next {
                    Some(b) => settled = b,
                    None => break,
                }
            }
        }
        assert!(
            branches > 5_000 && triads > 100,
            "{branches} branches, {triads} triad steps"
        );
    }
}

/// The AVX-512 fixpoint (every band and stack updated at once, in rounds,
/// with the board in registers) against the portable one.
#[cfg(all(test, target_arch = "x86_64"))]
mod vector_tests {
    use super::*;
    use crate::generate::puzzle_rng;
    use crate::grid::{Puzzle, Shape};
    use rand::Rng;

    /// How a fixpoint ended, with the board it left when still open.
    #[derive(Debug, PartialEq)]
    enum Reached {
        Dead,
        Solved,
        Open(Board, [u32; 3], [u32; 3], [u32; 3]),
    }

    /// The AVX-512 fixpoint from `board`.
    fn vector(board: &Board) -> Reached {
        let mut b = *board;
        // SAFETY: only called after the CPU was found to have AVX-512.
        match unsafe { vector_fixpoint(&mut b) } {
            Fixpoint::Dead => Reached::Dead,
            Fixpoint::Solved => Reached::Solved,
            Fixpoint::Open(c) => Reached::Open(b, head(c.one), head(c.two), head(c.three)),
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn vector_fixpoint(board: &mut Board) -> Fixpoint {
        fixpoint::<AVX512>(board, ALL_DIRTY)
    }

    fn head(x: [u32; 4]) -> [u32; 3] {
        [x[0], x[1], x[2]]
    }

    /// The portable fixpoint and column logic, repeated until neither
    /// changes the board: the closure the AVX-512 rounds must reach.
    fn portable(board: &Board) -> Reached {
        let mut b = *board;
        let mut dirty = ALL_DIRTY;
        loop {
            match fixpoint::<PORTABLE>(&mut b, dirty) {
                Fixpoint::Dead => return Reached::Dead,
                Fixpoint::Solved => return Reached::Solved,
                Fixpoint::Open(c) => {
                    let mats = matrices::<PORTABLE>(&b);
                    match stack_logic::<PORTABLE>(&mut b, &mats) {
                        None => return Reached::Dead,
                        Some(0) => {
                            return Reached::Open(b, head(c.one), head(c.two), head(c.three))
                        }
                        Some(changed) => dirty = changed,
                    }
                }
            }
        }
    }

    /// [`random_puzzle`], with one cell overwritten with a random digit
    /// when `corrupt`.
    fn corrupted_puzzle(
        rng: &mut rand_chacha::ChaCha8Rng,
        clues: usize,
        corrupt: bool,
    ) -> [u8; 81] {
        let mut puzzle = random_puzzle(rng, clues);
        if corrupt {
            puzzle[rng.gen_range(0..81)] = rng.gen_range(1..=9);
        }
        puzzle
    }

    /// From the givens and from every board a search meets (after each
    /// alternative of each branch, band, stack and cell), the AVX-512 rounds
    /// reach the portable closure: the same board and counts, or the same
    /// contradiction or solution.
    #[test]
    fn the_vector_fixpoint_is_the_portable_closure() {
        if !CodePath::Avx512.is_available() {
            eprintln!("no AVX-512 on this CPU: the vector fixpoint is not tested here");
            return;
        }
        let mut rng = puzzle_rng(43, 0);
        let (mut boards, mut dead, mut solved) = (0, 0, 0);
        let mut check = |board: &Board, what: &str| {
            let expected = portable(board);
            assert_eq!(vector(board), expected, "{what}");
            boards += 1;
            dead += usize::from(expected == Reached::Dead);
            solved += usize::from(expected == Reached::Solved);
            expected
        };
        for i in 0..300 {
            let puzzle = corrupted_puzzle(&mut rng, 17 + i % 20, i % 5 == 0);
            let mut board = initial_board::<PORTABLE>(&padded(&puzzle));
            for depth in 0..60 {
                let Reached::Open(settled, ..) =
                    check(&board, &format!("puzzle {i}, depth {depth}"))
                else {
                    break;
                };
                let mut examined = settled;
                let Next::Branch(branch, untried) = examine::<PORTABLE>(&mut examined) else {
                    // Triads changed the board (or found a contradiction):
                    // go on from there.
                    board = examined;
                    continue;
                };
                let open = [
                    settled.unsolved[0],
                    settled.unsolved[1],
                    settled.unsolved[2],
                ];
                let mut next = None;
                for (branch, untried) in [(branch, untried), choose_cell(&settled, open)] {
                    let mut alternatives = untried;
                    while alternatives != 0 {
                        let p = alternatives.trailing_zeros();
                        alternatives &= alternatives - 1;
                        let mut child = settled;
                        apply(&mut child, branch, p);
                        let reached = check(&child, &format!("puzzle {i}, child at {depth}"));
                        if next.is_none() && matches!(reached, Reached::Open(..)) {
                            next = Some(child);
                        }
                    }
                }
                match next {
                    Some(child) => board = child,
                    None => break,
                }
            }
        }
        assert!(
            boards > 10_000 && dead > 150 && solved > 1_000,
            "{boards} boards, {dead} dead, {solved} solved"
        );
    }

    /// Two naked singles of one digit in one row, box or column (in one
    /// band or two) are a contradiction both ways; one alone is placed.
    #[test]
    fn clashing_naked_singles_are_contradictions() {
        if !CodePath::Avx512.is_available() {
            eprintln!("no AVX-512 on this CPU: the vector fixpoint is not tested here");
            return;
        }
        let empty = initial_board::<PORTABLE>(&[0; 96]);
        // Cells as (row, column): the clashing pairs, then a lone single.
        let cases: [&[(usize, usize)]; 5] = [
            &[(0, 0), (0, 5)],
            &[(0, 0), (2, 2)],
            &[(1, 4), (7, 4)],
            &[(3, 8), (5, 8)],
            &[(4, 4)],
        ];
        for (k, cells) in cases.iter().enumerate() {
            let mut board = empty;
            for &(r, c) in *cells {
                let (b, bit) = (r / 3, 1u32 << (9 * (r % 3) + c));
                for row in board.cand.iter_mut().skip(1) {
                    row[b] &= !bit;
                }
            }
            let expected = portable(&board);
            assert_eq!(vector(&board), expected, "case {k}");
            assert_eq!(expected == Reached::Dead, cells.len() == 2, "case {k}");
        }
    }

    /// The AVX-512 path searches exactly like the portable path told to
    /// apply the column logic in its quick search too: the same count,
    /// guesses and first solution, on unique, multi-solution and
    /// contradictory puzzles.
    #[test]
    fn the_avx512_path_searches_like_the_portable_path_with_quick_stacks() {
        let Some(mut vector) = Fast9Solver::with_path(CodePath::Avx512) else {
            eprintln!("no AVX-512 on this CPU: the vector search is not tested here");
            return;
        };
        let mut portable = Fast9Solver::scalar();
        portable.quick_stacks = true;
        let shape = Shape::new(3, 3).unwrap();
        let mut rng = puzzle_rng(47, 0);
        let mut guesses = 0;
        for i in 0..3000 {
            let puzzle = corrupted_puzzle(&mut rng, 17 + i % 24, i % 4 == 0);
            let givens = Puzzle::new(shape, puzzle.to_vec()).unwrap();
            let limit = [1, 2, 7][i % 3];
            let (mut a, mut b) = ([0u8; 81], [0u8; 81]);
            let expected = portable.solve_raw(&puzzle, limit, Some(&mut a));
            let outcome = vector.solve_raw(&puzzle, limit, Some(&mut b));
            assert_eq!(outcome, expected, "puzzle {i}");
            assert_eq!(a, b, "puzzle {i}");
            if outcome.solutions > 0 {
                let solution = Puzzle::new(shape, b.to_vec()).unwrap();
                assert!(givens.is_solved_by(&solution), "puzzle {i}");
            }
            guesses += outcome.guesses;
        }
        assert!(guesses > 10_000, "{guesses} guesses");
    }
}

/// The hunt's entry points (built with the `search` module's features).
#[cfg(all(test, feature = "parallel", feature = "serde"))]
mod tests {
    #[cfg(all(feature = "parallel", feature = "serde"))]
    use super::ALWAYS_QUICK;
    use super::{random_puzzle, CodePath, Fast9Solver};
    use crate::generate::puzzle_rng;
    use crate::grid::{Puzzle, Shape};

    /// A solver on every code path this CPU runs.
    fn every_path() -> Vec<Fast9Solver> {
        CodePath::available()
            .into_iter()
            .filter_map(Fast9Solver::with_path)
            .collect()
    }

    /// The hunt's setting changes how solutions are found, not what is
    /// found: the same counts, and complete lists hold the same solutions,
    /// each solving its puzzle; on both code paths.
    #[test]
    fn always_quick_counts_and_lists_the_same_solutions() {
        let shape = Shape::new(3, 3).unwrap();
        let mut rng = puzzle_rng(19, 0);
        for engine in every_path() {
            let mut default = engine.clone();
            let mut quick = engine;
            quick.set_quick_cells(ALWAYS_QUICK);
            for i in 0..120 {
                let puzzle = random_puzzle(&mut rng, 17 + i % 24);
                let givens = Puzzle::new(shape, puzzle.to_vec()).unwrap();
                for limit in [1, 2, 40] {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    let n = default.solutions_into(&puzzle, limit, &mut a);
                    assert_eq!(n, quick.solutions_into(&puzzle, limit, &mut b));
                    assert_eq!((a.len() as u64, b.len() as u64), (n, n));
                    for s in a.iter().chain(&b) {
                        let solution = Puzzle::new(shape, s.to_vec()).unwrap();
                        assert!(givens.is_solved_by(&solution));
                    }
                    if n < limit {
                        a.sort_unstable();
                        b.sort_unstable();
                        assert_eq!(a, b, "puzzle {i}, limit {limit}");
                    }
                }
            }
        }
    }

    /// A clue added to a propagated puzzle gives what the same clue added
    /// to the givens gives: the same count, and the same solutions when the
    /// list is complete.
    #[test]
    fn solutions_with_a_clue_match_solving_from_the_givens() {
        let mut rng = puzzle_rng(23, 0);
        for mut engine in every_path() {
            let mut tested = 0;
            for i in 0..40 {
                let puzzle = random_puzzle(&mut rng, 16 + i % 12);
                let Some(root) = engine.root(&puzzle) else {
                    continue;
                };
                for k in (0..81).filter(|&k| puzzle[k] == 0).step_by(3) {
                    for digit in 1..=9 {
                        let mut with = puzzle;
                        with[k] = digit;
                        for limit in [2, 12] {
                            let (mut a, mut b) = (Vec::new(), Vec::new());
                            let n = engine.solutions_into(&with, limit, &mut a);
                            let m = engine.solutions_with(&root, k, digit, limit, &mut b);
                            assert_eq!(n, m, "puzzle {i}, {digit} at {k}, limit {limit}");
                            assert_eq!(b.len() as u64, m);
                            if n < limit {
                                a.sort_unstable();
                                b.sort_unstable();
                                assert_eq!(a, b);
                            }
                            tested += 1;
                        }
                    }
                }
            }
            assert!(tested > 1000);
        }
    }
}
