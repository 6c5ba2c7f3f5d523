//! The 15-puzzle, solved optimally by IDA* (iterative-deepening A*).
//!
//! The heuristic is the sum of additive pattern databases ([`super::pdb`]),
//! looked up twice: on the position itself and on its reflection about the main
//! diagonal. Reflection maps the blank-first goal to itself and a tile `t` to
//! the tile whose goal cell is `t` transposed, so the same databases give a
//! second admissible estimate and the search uses the larger of the two
//! (Korf & Felner's "reflected lookup"). Manhattan distance plus linear
//! conflict remains as the database-free fallback ([`Databases::Manhattan`]).
//!
//! Both estimates are updated incrementally: a move changes one tile, so only
//! the database holding that tile (and, reflected, the one holding its mirror)
//! is looked up again.
//!
//! Search works on the blank-first goal; the blank-last goal is answered
//! by turning the board half a turn (see `Board::turned`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::par::*;

use super::board::{Board, Move};
use super::cache::{self, Unusable, Unwritable};
use super::pdb::{build_bytes, table_size, PatternDb, MAX_TILES};
use crate::budget::Budget;

/// Cells of the 15-puzzle.
const CELLS: usize = 16;

/// The heuristic a [`Fifteen`] solver searches with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Databases {
    /// No databases: Manhattan distance plus linear conflict. Nothing to build,
    /// but hard instances take minutes.
    Manhattan,
    /// Tiles {1,4,5}, {2,3,6,7,10,11}, {8,9,12,13,14,15}: about 11 MB, built
    /// in a second or two. (Of the 6-6-3 partitions tried, this one expanded
    /// the fewest nodes on Korf's instances.)
    #[default]
    SixSixThree,
    /// Tiles {1…7} and {8…15}: about 580 MB and a build of minutes, so cached
    /// on disk; the strongest (about 25 times fewer nodes than 6-6-3).
    SevenEight,
}

impl Databases {
    /// What to use when nobody says: 7-8 if valid files of it are already in
    /// `cache` (built once by an explicit request), else 6-6-3, whose build
    /// takes a second or two, so that a run never starts a build of minutes
    /// and gigabytes unasked.
    ///
    /// "Valid" is checked without reading the tables ([`cache::check`]): a
    /// regular file of the exact size with the right header. A 7-8 file that
    /// is there but fails the check (garbage, a FIFO, a directory, …) is
    /// ignored and reported to `observer` as [`DbEvent::Ignored`]; it stays
    /// where it is until 7-8 is asked for explicitly, which replaces it.
    pub fn preferred(cache: Option<&Path>, observer: &dyn Fn(&DbEvent)) -> Databases {
        let Some(dir) = cache else {
            return Databases::SixSixThree;
        };
        let mut valid = true;
        for tiles in Databases::SevenEight.patterns() {
            let path = cache::file_for(dir, tiles);
            match cache::check(&path, tiles) {
                Ok(()) => {}
                Err(Unusable::Missing) => valid = false,
                Err(why) => {
                    valid = false;
                    observer(&DbEvent::Ignored { path, why });
                }
            }
        }
        if valid {
            Databases::SevenEight
        } else {
            Databases::SixSixThree
        }
    }

    /// The disjoint tile groups of this partition (blank-first goal).
    pub fn patterns(self) -> &'static [&'static [u8]] {
        match self {
            Databases::Manhattan => &[],
            Databases::SixSixThree => &[&[1, 4, 5], &[2, 3, 6, 7, 10, 11], &[8, 9, 12, 13, 14, 15]],
            Databases::SevenEight => &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
        }
    }

    /// The short name used on the command line: `manhattan`, `6-6-3`, `7-8`.
    pub fn name(self) -> &'static str {
        match self {
            Databases::Manhattan => "manhattan",
            Databases::SixSixThree => "6-6-3",
            Databases::SevenEight => "7-8",
        }
    }
}

/// Where one pattern database of a [`Fifteen`] solver came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from the cache file, checksum verified.
    Loaded,
    /// Built in memory, no cache directory given.
    Built,
    /// Built and written to the cache; `replaced` says why an existing file
    /// was not used (corrupt, wrong size, a FIFO, …), `None` if there was none.
    Saved {
        /// Why the file already there was rejected.
        replaced: Option<Unusable>,
    },
    /// Built, but the cache could not be written (the solver works anyway).
    Unsaved {
        /// What refused, and why.
        error: Unwritable,
    },
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Loaded => write!(f, "loaded from cache"),
            Origin::Built => write!(f, "built in memory"),
            Origin::Saved { replaced: None } => write!(f, "built and cached"),
            Origin::Saved {
                replaced: Some(why),
            } => write!(f, "built and cached, replacing a file that {why}"),
            Origin::Unsaved { error } => write!(f, "built, not cached: {error}"),
        }
    }
}

/// Why a database is built rather than loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildReason {
    /// There is no cache directory: built in memory on every run.
    NoCache,
    /// The cache has no file for it yet; it is saved at `path` once built.
    NotCached {
        /// Where it will be saved.
        path: PathBuf,
    },
    /// The cache file cannot be used; it is replaced once the database is
    /// built (if the cache can be written).
    Unusable {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: Unusable,
    },
}

impl fmt::Display for BuildReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildReason::NoCache => write!(f, "no cache directory"),
            BuildReason::NotCached { path } => write!(f, "not cached yet in {}", path.display()),
            BuildReason::Unusable { path, why } => write!(f, "{} {why}", path.display()),
        }
    }
}

/// What happens while a solver's databases are chosen, loaded and built, as
/// it happens, for a front end to show (the library prints nothing). Heard by
/// the observer given to [`Fifteen::with_observer`] and
/// [`Databases::preferred`]; `Display` gives the sentence to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbEvent {
    /// A 7-8 cache file is there but fails [`cache::check`], so
    /// [`Databases::preferred`] falls back to 6-6-3 and leaves it alone.
    Ignored {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: Unusable,
    },
    /// A database is about to be built: a second for 6 tiles, many seconds
    /// for 7, minutes for 8.
    Building {
        /// The pattern's tiles.
        tiles: Vec<u8>,
        /// Why it is built.
        reason: BuildReason,
        /// The size of its table ([`table_size`]).
        table_bytes: u64,
        /// Memory the build holds at its peak ([`build_bytes`]).
        build_bytes: u64,
    },
    /// One level of that build's breadth-first search is done.
    Progress {
        /// The pattern's tiles.
        tiles: Vec<u8>,
        /// Placements whose value is known so far.
        done: u64,
        /// All placements (the table's entries).
        total: u64,
    },
    /// A built database could not be saved. Heard once per place per process
    /// ([`Unwritable::first`]): later databases for the same place are kept
    /// in memory without trying again, and without another event.
    Unwritable(Unwritable),
}

impl DbEvent {
    /// Whether this is something the user should fix (an ignored file, a
    /// cache that cannot be written) rather than news of progress.
    pub fn is_warning(&self) -> bool {
        matches!(self, DbEvent::Ignored { .. } | DbEvent::Unwritable(_))
    }
}

/// Tiles as the cache names them: `1-2-3-4-5-6-7`.
fn pattern_name(tiles: &[u8]) -> String {
    let names: Vec<String> = tiles.iter().map(u8::to_string).collect();
    names.join("-")
}

/// A size in bytes for people: `3.4 kB`, `58 MB`, `3.6 GB`.
fn human_bytes(bytes: u64) -> String {
    let (value, unit) = match bytes {
        0..1_000_000 => (bytes as f64 / 1e3, "kB"),
        1_000_000..1_000_000_000 => (bytes as f64 / 1e6, "MB"),
        _ => (bytes as f64 / 1e9, "GB"),
    };
    if value < 10.0 {
        format!("{value:.1} {unit}")
    } else {
        format!("{value:.0} {unit}")
    }
}

impl fmt::Display for DbEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbEvent::Ignored { path, why } => write!(
                f,
                "{} {why}: not a valid 7-8 database, ignored (using 6-6-3; \
                 asking for 7-8 rebuilds and replaces it)",
                path.display()
            ),
            DbEvent::Building {
                tiles,
                reason,
                table_bytes,
                build_bytes,
            } => write!(
                f,
                "building 15-puzzle pattern database {} ({reason}): {}, about {} of memory while building",
                pattern_name(tiles),
                human_bytes(*table_bytes),
                human_bytes(*build_bytes)
            ),
            DbEvent::Progress { tiles, done, total } => write!(
                f,
                "pattern database {}: {:.0}% built",
                pattern_name(tiles),
                100.0 * *done as f64 / (*total).max(1) as f64
            ),
            DbEvent::Unwritable(error) => write!(
                f,
                "the pattern database cache cannot be written ({error}); \
                 databases are built in memory and not saved"
            ),
        }
    }
}

/// How one database of a solver was obtained, for `--stats` and tests.
#[derive(Clone, Debug)]
pub struct DbReport {
    /// The pattern's tiles.
    pub tiles: Vec<u8>,
    /// Loaded or built, and whether the cache was written.
    pub origin: Origin,
    /// Time to load or build (and save) it.
    pub elapsed: Duration,
}

/// An optimal 15-puzzle solver: its databases, shared read-only by any number
/// of threads.
pub struct Fifteen {
    /// Which partition `dbs` holds.
    databases: Databases,
    /// One database per tile group of the partition (none for Manhattan).
    dbs: Vec<PatternDb>,
    /// For each tile, its database and its slot in that database's pattern.
    group: [(u8, u8); CELLS],
    /// How each of `dbs` was obtained.
    reports: Vec<DbReport>,
}

impl Fifteen {
    /// A solver using `databases`, loading each from `cache` (a directory) when
    /// a valid file is there, else building it and trying to save it there.
    /// With `cache` = `None` everything is built in memory. Cache problems are
    /// never fatal; [`Fifteen::reports`] says what happened.
    pub fn new(databases: Databases, cache: Option<&Path>) -> Fifteen {
        Fifteen::with_observer(databases, cache, &|_| {})
    }

    /// [`Fifteen::new`], telling `observer` what is built and why, how far
    /// each build has come, and when the cache cannot be written (see
    /// [`DbEvent`]). The databases are obtained in parallel, so `observer`
    /// hears events from several threads, those of different databases
    /// interleaved.
    pub fn with_observer(
        databases: Databases,
        cache: Option<&Path>,
        observer: &(dyn Fn(&DbEvent) + Sync),
    ) -> Fifteen {
        // The databases are independent: build (or load) them side by side.
        let (dbs, reports): (Vec<PatternDb>, Vec<DbReport>) = databases
            .patterns()
            .par_iter()
            .map(|tiles| {
                let started = Instant::now();
                let (db, origin) = obtain(tiles, cache, observer);
                let report = DbReport {
                    tiles: tiles.to_vec(),
                    origin,
                    elapsed: started.elapsed(),
                };
                (db, report)
            })
            .unzip();
        let mut group = [(0, 0); CELLS];
        for (g, tiles) in databases.patterns().iter().enumerate() {
            for (slot, &tile) in tiles.iter().enumerate() {
                group[tile as usize] = (g as u8, slot as u8);
            }
        }
        Fifteen {
            databases,
            dbs,
            group,
            reports,
        }
    }

    /// The heuristic this solver uses.
    pub fn databases(&self) -> Databases {
        self.databases
    }

    /// How each database was obtained.
    pub fn reports(&self) -> &[DbReport] {
        &self.reports
    }

    /// A shortest solution to the blank-first goal from `board` (a 4×4 board
    /// whose goal is reachable), and the number of nodes expanded; `None` if
    /// `budget` was spent first (it is checked every
    /// [`NODES_PER_CHECK`] nodes).
    pub(crate) fn solve_blank_first(
        &self,
        board: &Board,
        budget: &Budget,
    ) -> Option<(Vec<Move>, u64)> {
        let search = Search::new(board, budget);
        if self.dbs.is_empty() {
            let mut estimate = Manhattan::new(&search.cells);
            search.run(&mut estimate)
        } else {
            let mut estimate = Reflected::new(self, &search.cells);
            search.run(&mut estimate)
        }
    }
}

/// Loads the database of `tiles` from the cache, or builds (and caches) it,
/// telling `observer` what is built, why, and how far it has come.
fn obtain(
    tiles: &[u8],
    cache: Option<&Path>,
    observer: &(dyn Fn(&DbEvent) + Sync),
) -> (PatternDb, Origin) {
    let build = |reason| {
        let total = table_size(tiles.len()) as u64;
        observer(&DbEvent::Building {
            tiles: tiles.to_vec(),
            reason,
            table_bytes: total,
            build_bytes: build_bytes(tiles.len()),
        });
        PatternDb::build_reporting(tiles, &|done| {
            observer(&DbEvent::Progress {
                tiles: tiles.to_vec(),
                done: done as u64,
                total,
            });
        })
        .expect("the patterns of `Databases` are valid")
    };
    let Some(dir) = cache else {
        return (build(BuildReason::NoCache), Origin::Built);
    };
    let path = cache::file_for(dir, tiles);
    let (reason, replaced) = match cache::load(&path, tiles) {
        Ok(db) => return (db, Origin::Loaded),
        Err(Unusable::Missing) => (BuildReason::NotCached { path: path.clone() }, None),
        Err(why) => (
            BuildReason::Unusable {
                path: path.clone(),
                why: why.clone(),
            },
            Some(why),
        ),
    };
    let db = build(reason);
    let origin = match cache::save(&path, &db) {
        Ok(()) => Origin::Saved { replaced },
        Err(error) => {
            if error.first {
                observer(&DbEvent::Unwritable(error.clone()));
            }
            Origin::Unsaved { error }
        }
    };
    (db, origin)
}

/// An admissible estimate of the moves left, kept up to date move by move.
trait Estimate {
    /// What [`Estimate::undo`] needs to restore the estimate before a slide
    /// without looking anything up again.
    type Undo: Copy;
    /// The current estimate, or any admissible value above `limit` if the
    /// estimate exceeds it (so a node about to be pruned costs less).
    fn value(&mut self, limit: u32) -> u32;
    /// `tile` has slid from cell `from` to cell `to`.
    fn slide(&mut self, tile: u8, from: u8, to: u8) -> Self::Undo;
    /// Takes back the slide of `tile` from `from` to `to`.
    fn undo(&mut self, tile: u8, from: u8, to: u8, undo: Self::Undo);
}

/// The cell mirrored about the main diagonal.
const fn transpose(cell: u8) -> u8 {
    (cell % 4) * 4 + cell / 4
}

/// The pattern-database estimate, direct and reflected.
///
/// The reflected value is only needed when the direct one does not already
/// prune a node, so it is looked up lazily: a slide leaves the reflected
/// database it touches `stale`, and [`Estimate::value`] refreshes it only when
/// the direct sum is within the limit. At most one database is stale at a
/// time, because a node either refreshes it before its children slide, or is
/// pruned and undone.
struct Reflected<'a> {
    solver: &'a Fifteen,
    /// Per database, the cells of its tiles (direct position).
    direct: [[u8; MAX_TILES]; 3],
    /// Per database, the cells of its tiles in the reflected position.
    mirror: [[u8; MAX_TILES]; 3],
    /// Per database, its current value (direct, then reflected).
    values: [[u8; 3]; 2],
    /// Sums of `values` (direct, then reflected).
    sums: [u32; 2],
    /// The reflected database whose value is out of date, if any.
    stale: Option<usize>,
}

impl<'a> Reflected<'a> {
    fn new(solver: &'a Fifteen, cells: &[u8; CELLS]) -> Self {
        let mut estimate = Reflected {
            solver,
            direct: [[0; MAX_TILES]; 3],
            mirror: [[0; MAX_TILES]; 3],
            values: [[0; 3]; 2],
            sums: [0; 2],
            stale: None,
        };
        for (cell, &tile) in cells.iter().enumerate().filter(|&(_, &t)| t != 0) {
            let (g, slot) = solver.group[tile as usize];
            estimate.direct[g as usize][slot as usize] = cell as u8;
            let (g, slot) = solver.group[transpose(tile) as usize];
            estimate.mirror[g as usize][slot as usize] = transpose(cell as u8);
        }
        for (g, db) in solver.dbs.iter().enumerate() {
            let k = db.tiles().len();
            estimate.values[0][g] = db.lookup(&estimate.direct[g][..k]);
            estimate.values[1][g] = db.lookup(&estimate.mirror[g][..k]);
        }
        for side in 0..2 {
            estimate.sums[side] = estimate.values[side].iter().map(|&v| u32::from(v)).sum();
        }
        estimate
    }

    /// Sets the value of database `g` in view `side` (0 direct, 1 reflected)
    /// and returns the old one.
    #[inline]
    fn set(&mut self, side: usize, g: usize, new: u8) -> u8 {
        let old = std::mem::replace(&mut self.values[side][g], new);
        self.sums[side] = self.sums[side] + u32::from(new) - u32::from(old);
        old
    }
}

impl Estimate for Reflected<'_> {
    type Undo = [u8; 2];

    #[inline]
    fn value(&mut self, limit: u32) -> u32 {
        if self.sums[0] > limit {
            return self.sums[0];
        }
        if let Some(g) = self.stale.take() {
            let db = &self.solver.dbs[g];
            let new = db.lookup(&self.mirror[g][..db.tiles().len()]);
            self.set(1, g, new);
        }
        self.sums[0].max(self.sums[1])
    }

    #[inline]
    fn slide(&mut self, tile: u8, _from: u8, to: u8) -> [u8; 2] {
        let (g, slot) = self.solver.group[tile as usize];
        let (g, slot) = (g as usize, slot as usize);
        let db = &self.solver.dbs[g];
        self.direct[g][slot] = to;
        let new = db.lookup(&self.direct[g][..db.tiles().len()]);
        let old_direct = self.set(0, g, new);
        let (g, slot) = self.solver.group[transpose(tile) as usize];
        self.mirror[g as usize][slot as usize] = transpose(to);
        self.stale = Some(g as usize);
        [old_direct, self.values[1][g as usize]]
    }

    #[inline]
    fn undo(&mut self, tile: u8, from: u8, _to: u8, [old_direct, old_mirror]: [u8; 2]) {
        let (g, slot) = self.solver.group[tile as usize];
        self.direct[g as usize][slot as usize] = from;
        self.set(0, g as usize, old_direct);
        let (g, slot) = self.solver.group[transpose(tile) as usize];
        let g = g as usize;
        self.mirror[g][slot as usize] = transpose(from);
        if self.stale.take() != Some(g) {
            self.set(1, g, old_mirror);
        }
    }
}

/// Manhattan distance plus linear conflict (the fallback heuristic).
struct Manhattan {
    cells: [u8; CELLS],
    distance: u32,
}

impl Manhattan {
    fn new(cells: &[u8; CELLS]) -> Self {
        let distance = (0..CELLS as u8)
            .filter(|&c| cells[c as usize] != 0)
            .map(|c| taxicab(c, cells[c as usize]))
            .sum();
        Manhattan {
            cells: *cells,
            distance,
        }
    }

    /// Two moves for every tile that must leave its goal row or column to let
    /// another tile of that line pass: twice the line length minus its longest
    /// run of tiles already in goal order, summed over rows and columns.
    fn linear_conflict(&self) -> u32 {
        let mut extra = 0;
        for line in 0..4u8 {
            let row = (0..4).map(|i| line * 4 + i);
            let column = (0..4).map(|i| i * 4 + line);
            let in_row = row
                .map(|c| self.cells[c as usize])
                .filter(|&t| t != 0 && t / 4 == line)
                .map(|t| t % 4);
            let in_column = column
                .map(|c| self.cells[c as usize])
                .filter(|&t| t != 0 && t % 4 == line)
                .map(|t| t / 4);
            extra += out_of_order(in_row) + out_of_order(in_column);
        }
        2 * extra
    }
}

/// Items to remove from a short sequence so that the rest increases
/// (its length minus its longest increasing subsequence).
fn out_of_order(goals: impl Iterator<Item = u8>) -> u32 {
    let mut items = [0u8; 4];
    let mut longest_ending = [0u32; 4];
    let mut n = 0;
    for goal in goals {
        items[n] = goal;
        longest_ending[n] = 1
            + (0..n)
                .filter(|&j| items[j] < goal)
                .map(|j| longest_ending[j])
                .max()
                .unwrap_or(0);
        n += 1;
    }
    n as u32 - longest_ending[..n].iter().copied().max().unwrap_or(0)
}

/// Moves a tile needs on an empty board to reach its goal cell (tile = cell).
fn taxicab(cell: u8, tile: u8) -> u32 {
    ((cell / 4).abs_diff(tile / 4) + (cell % 4).abs_diff(tile % 4)).into()
}

impl Estimate for Manhattan {
    type Undo = ();

    fn value(&mut self, _limit: u32) -> u32 {
        self.distance + self.linear_conflict()
    }

    fn slide(&mut self, tile: u8, from: u8, to: u8) {
        self.distance = self.distance + taxicab(to, tile) - taxicab(from, tile);
        self.cells.swap(from as usize, to as usize);
    }

    fn undo(&mut self, tile: u8, from: u8, to: u8, (): ()) {
        self.slide(tile, to, from);
    }
}

/// How many nodes an IDA* search expands between looks at its [`Budget`]:
/// a node costs tens of nanoseconds, so the check is cheap and the overshoot
/// well under a millisecond.
pub const NODES_PER_CHECK: u64 = 4096;

/// The state of one IDA* search.
struct Search<'b> {
    /// Tile on each cell.
    cells: [u8; CELLS],
    /// Moves from the start to the current node.
    path: Vec<Move>,
    /// Nodes expanded so far, over all iterations.
    nodes: u64,
    /// When to give up.
    budget: &'b Budget,
    /// Set once the budget was found spent: the search unwinds.
    gave_up: bool,
}

/// Where the blank goes from each cell with each move (`u8::MAX`: off the board).
const TARGETS: [[u8; 4]; CELLS] = {
    let mut table = [[u8::MAX; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = (cell / 4, cell % 4);
        if row > 0 {
            table[cell][0] = (cell - 4) as u8;
        }
        if row < 3 {
            table[cell][1] = (cell + 4) as u8;
        }
        if col > 0 {
            table[cell][2] = (cell - 1) as u8;
        }
        if col < 3 {
            table[cell][3] = (cell + 1) as u8;
        }
        cell += 1;
    }
    table
};

impl<'b> Search<'b> {
    fn new(board: &Board, budget: &'b Budget) -> Search<'b> {
        let mut cells = [0; CELLS];
        cells.copy_from_slice(board.tiles());
        Search {
            cells,
            path: Vec::new(),
            nodes: 0,
            budget,
            gave_up: false,
        }
    }

    /// Deepens the cost bound until a solution is found, or the budget is
    /// spent (`None`).
    fn run<E: Estimate>(mut self, estimate: &mut E) -> Option<(Vec<Move>, u64)> {
        let blank = self.cells.iter().position(|&t| t == 0).expect("a blank") as u8;
        let mut bound = estimate.value(u32::MAX);
        loop {
            match self.dfs(estimate, blank, 0, bound, None) {
                Ok(()) => return Some((self.path, self.nodes)),
                Err(_) if self.gave_up => return None,
                Err(next) => bound = next,
            }
        }
    }

    /// Depth-first search below `bound`: `Ok` with the solution in `path`, or
    /// the smallest cost bound that would go further.
    fn dfs<E: Estimate>(
        &mut self,
        estimate: &mut E,
        blank: u8,
        cost: u32,
        bound: u32,
        last: Option<Move>,
    ) -> Result<(), u32> {
        let h = estimate.value(bound - cost);
        if cost + h > bound {
            return Err(cost + h);
        }
        if h == 0 {
            return Ok(());
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(NODES_PER_CHECK) && self.budget.is_spent() {
            self.gave_up = true;
        }
        if self.gave_up {
            return Err(u32::MAX);
        }
        let mut next = u32::MAX;
        for (i, step) in Move::ALL.into_iter().enumerate() {
            let to = TARGETS[blank as usize][i];
            if to == u8::MAX || last == Some(step.opposite()) {
                continue;
            }
            let tile = self.cells[to as usize];
            self.cells.swap(blank as usize, to as usize);
            let undo = estimate.slide(tile, to, blank);
            self.path.push(step);
            match self.dfs(estimate, to, cost + 1, bound, Some(step)) {
                Ok(()) => return Ok(()),
                Err(f) => next = next.min(f),
            }
            self.path.pop();
            estimate.undo(tile, to, blank, undo);
            self.cells.swap(blank as usize, to as usize);
        }
        Err(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_is_an_involution_fixing_the_diagonal() {
        for cell in 0..16 {
            assert_eq!(transpose(transpose(cell)), cell);
        }
        assert_eq!(transpose(5), 5);
        assert_eq!(transpose(1), 4);
    }

    #[test]
    fn linear_conflict_counts_reversed_pairs() {
        assert_eq!(out_of_order([0, 1, 2, 3].into_iter()), 0);
        assert_eq!(out_of_order([1, 0].into_iter()), 1);
        assert_eq!(out_of_order([3, 2, 1, 0].into_iter()), 3);
        assert_eq!(out_of_order(std::iter::empty()), 0);
    }
}
