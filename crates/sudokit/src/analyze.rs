//! The batch analyzer: a stream of puzzle lines in, one verdict per puzzle out,
//! in input order, computed on every core.
//!
//! Input is read in blocks of whole lines ([`BLOCK_BYTES_PER_THREAD`] per
//! worker thread, or more), so a file far larger than memory streams
//! through; a line longer than [`AnalyzeOptions::max_line`] is an invalid
//! line, skipped without being held (see [`crate::lines`]). Each block is cut
//! into pieces at line boundaries, and each piece's lines and puzzle lines
//! are counted first (a fast pass over its newlines), so that every piece
//! knows the numbers of its puzzles. Then rayon analyses the pieces in
//! parallel, each with a solver of its own (kept from block to block), and
//! the verdicts come back in order. The first puzzle line settles the
//! [`Format`] (SPEC §1); a later line of another length is invalid.
//!
//! Nothing here prints: the caller's sink gets each block's verdicts and the
//! format ([`analyze_stream`]), or the caller's [`Render`] turns each piece's
//! verdicts into output on the worker that made them, while they are in its
//! cache, and the sink gets the output ([`analyze_rendered`]).

use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::par::*;

use crate::budget::Budget;
use crate::grid::{count_givens, InputError};
use crate::lines::{LineReader, TooLong, DEFAULT_MAX_LINE};
use crate::parse::{classify, AlphabetError, Format, FormatError, FormatSpec, Line, ParseError};
use crate::shard::Stripes;
use crate::solver::choice::EngineChoice;
use crate::solver::{check_input, Outcome, Solver, Status};
use crate::variant::{text::apply_fields, text::has_layout_fields, Layout, LayoutError, Rules};

/// Bytes read per block and worker thread before the block is analysed.
///
/// A trade-off measured on 6×6 puzzles with 2 threads. The buffers of a
/// block's verdicts and output are reused from block to block, so a larger
/// block costs more page faults once (1 MiB blocks: 1,700 on 100,000
/// puzzles, 512 KiB: 980, 256 KiB: 640). A smaller one costs more often the
/// wait at the end of each block for its last piece (1,000,000 puzzles:
/// 256 KiB blocks took 4% longer than 512 KiB ones, 1 MiB no shorter).
pub const BLOCK_BYTES_PER_THREAD: usize = 256 << 10;

/// Lines analysed between updates of the progress counter.
const PROGRESS_LINES: u64 = 64;

/// Pieces per worker thread a block is cut into, so uneven pieces balance.
const PIECES_PER_THREAD: usize = 4;

/// What the analyzer computes besides the status, and how it reads.
#[derive(Clone, Debug)]
pub struct AnalyzeOptions {
    /// `--box` and `--symbols`.
    pub spec: FormatSpec,
    /// Also decide, for unique puzzles, whether every clue is needed.
    pub minimal: bool,
    /// Keep the first solution of every solvable puzzle.
    pub solutions: bool,
    /// The engine to solve with.
    pub engine: EngineChoice,
    /// Variant rules every puzzle keeps (`--variant`), besides the layout
    /// fields of its own line (see [`crate::variant::text`]).
    pub variant: Rules,
    /// Bytes of input analysed so far, kept up to date while blocks are being
    /// worked on, for a progress display.
    pub progress: Option<Arc<AtomicU64>>,
    /// The longest line read, in bytes (without its `\n`); a longer one is
    /// invalid ([`ParseError::TooLong`]).
    pub max_line: usize,
    /// Solutions counted per puzzle before the search stops: 2 (the
    /// default) is enough for the status; `count --limit N` asks for up to
    /// [`RESTART_LIMIT`](crate::solver::general::RESTART_LIMIT) this way.
    /// Values below 2 count as 2.
    pub limit: u64,
    /// Give up on a puzzle whose search takes longer than this (its
    /// [`Analysis::status`] is then `None`). The 9×9 engine, whose worst
    /// case is about a millisecond, never gives up; the engines of other
    /// shapes check their budget as they search.
    pub timeout: Option<Duration>,
    /// How puzzles are numbered and which of them are analysed: all of
    /// them, or one slice of a sharded run, or those after a resumed run's
    /// checkpoint.
    pub numbering: Numbering,
}

/// How a stream's puzzles are numbered, and which are analysed. Every
/// puzzle line (an invalid one too) takes the next number; those not
/// analysed get no verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbering {
    /// Puzzles of the run before this stream (in earlier sources): the
    /// stream's first puzzle is number `before + 1`.
    pub before: u64,
    /// The slice of the run analysed: puzzle `k` is when the stripes own
    /// item `k − 1` (see [`Stripes`]).
    pub stripes: Stripes,
    /// Puzzles `1..=skip` are passed over: a resumed run has their
    /// verdicts.
    pub skip: u64,
}

impl Numbering {
    /// Every puzzle, numbered from 1.
    pub fn all() -> Numbering {
        Numbering {
            before: 0,
            stripes: Stripes::whole(),
            skip: 0,
        }
    }

    /// Whether puzzle `number` (1-based, of the whole run) is analysed.
    pub fn wants(&self, number: u64) -> bool {
        number > self.skip && self.stripes.owns(number - 1)
    }

    /// Whether every puzzle is analysed.
    fn takes_all(&self) -> bool {
        self.skip <= self.before && self.stripes.shard().is_whole()
    }
}

impl Default for Numbering {
    /// [`Numbering::all`].
    fn default() -> Self {
        Numbering::all()
    }
}

impl Default for AnalyzeOptions {
    /// Status only, the automatic engine, no progress, lines of up to
    /// [`DEFAULT_MAX_LINE`] bytes.
    fn default() -> Self {
        AnalyzeOptions {
            spec: FormatSpec::default(),
            minimal: false,
            solutions: false,
            engine: EngineChoice::default(),
            variant: Rules::NONE,
            progress: None,
            max_line: DEFAULT_MAX_LINE,
            limit: 2,
            timeout: None,
            numbering: Numbering::all(),
        }
    }
}

/// The analysis of one valid puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Unique, none or multiple; `None` when the search was given up at
    /// [`AnalyzeOptions::timeout`].
    pub status: Option<Status>,
    /// Number of givens.
    pub clues: usize,
    /// Solutions found, up to [`AnalyzeOptions::limit`] (0 when given up).
    pub count: u64,
    /// For unique puzzles when asked: whether removing any clue loses
    /// uniqueness.
    pub minimal: Option<bool>,
    /// When asked and a solution exists: the first one found (`N²` digits;
    /// the only one when the status is unique).
    pub solution: Option<Vec<u8>>,
    /// Whether the line's regions are a jigsaw's rather than the shape's
    /// boxes (a drawing of the grid then has no box lines).
    pub jigsaw: bool,
}

/// The answer for one puzzle line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    /// The puzzle's number in the run (1-based, counting the puzzle lines
    /// of earlier sources, see [`Numbering::before`]).
    pub number: u64,
    /// Physical line number (1-based, counting skipped lines too).
    pub line: u64,
    /// The line's `id:`, if any.
    pub id: Option<&'a str>,
    /// The puzzle's cell text as read (empty for a line too long to read).
    pub cells: &'a [u8],
    /// The analysis, or why the line is invalid.
    pub result: Result<Analysis, ParseError>,
}

/// One block's verdicts in input order, kept as the runs the block's pieces
/// were analysed in (one per piece), so that no verdict is copied to join
/// them: a sink can format the runs in parallel or walk them in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdicts<'a> {
    runs: Vec<Vec<Verdict<'a>>>,
    /// Puzzle numbers handed out through the end of the block.
    passed: u64,
}

impl<'a> Verdicts<'a> {
    /// The number of the block's last puzzle line, analysed or not (that
    /// of an earlier block when it has none): every puzzle up to it has
    /// had its verdict, in this block or before. A resumed run goes on
    /// after it.
    pub fn passed(&self) -> u64 {
        self.passed
    }

    /// The runs, in input order.
    pub fn runs(&self) -> &[Vec<Verdict<'a>>] {
        &self.runs
    }

    /// Every verdict, in input order.
    pub fn iter(&self) -> impl Iterator<Item = &Verdict<'a>> {
        self.runs.iter().flatten()
    }

    /// Appends a run (an empty one is dropped).
    fn push_run(&mut self, run: Vec<Verdict<'a>>) {
        if !run.is_empty() {
            self.runs.push(run);
        }
    }
}

impl<'b, 'a> IntoIterator for &'b Verdicts<'a> {
    type Item = &'b Verdict<'a>;
    type IntoIter = std::iter::Flatten<std::slice::Iter<'b, Vec<Verdict<'a>>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.runs.iter().flatten()
    }
}

impl<'a> From<Vec<Verdict<'a>>> for Verdicts<'a> {
    /// One run.
    fn from(run: Vec<Verdict<'a>>) -> Self {
        let mut verdicts = Verdicts::default();
        verdicts.push_run(run);
        verdicts
    }
}

/// Totals of a finished run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Puzzles with exactly one solution.
    pub unique: u64,
    /// Puzzles with none.
    pub none: u64,
    /// Puzzles with two or more.
    pub multiple: u64,
    /// Invalid lines.
    pub invalid: u64,
    /// Puzzles given up at the timeout.
    pub timed_out: u64,
    /// Time spent reading input.
    pub read_time: Duration,
    /// Time spent parsing and solving.
    pub compute_time: Duration,
    /// Time spent in the caller's sink (writing output).
    pub write_time: Duration,
    /// The number of the stream's last puzzle line, analysed or not
    /// ([`Numbering::before`] when it has none).
    pub passed: u64,
}

impl Summary {
    /// Puzzle lines seen, valid or not.
    pub fn puzzles(&self) -> u64 {
        self.unique + self.none + self.multiple + self.invalid + self.timed_out
    }

    /// Adds `other`'s counts of verdicts by status (not its times).
    fn add_counts(&mut self, other: &Summary) {
        self.unique += other.unique;
        self.none += other.none;
        self.multiple += other.multiple;
        self.invalid += other.invalid;
        self.timed_out += other.timed_out;
    }

    /// Counts one verdict under its status.
    pub fn add(&mut self, verdict: &Verdict<'_>) {
        match &verdict.result {
            Ok(a) => match a.status {
                Some(Status::Unique) => self.unique += 1,
                Some(Status::None) => self.none += 1,
                Some(Status::Multiple) => self.multiple += 1,
                None => self.timed_out += 1,
            },
            Err(_) => self.invalid += 1,
        }
    }
}

/// Why a run stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// Reading the input failed.
    #[error("reading input")]
    Read(#[source] io::Error),
    /// The sink (writing output) failed.
    #[error("writing output")]
    Write(#[source] io::Error),
    /// `--symbols` does not fit the puzzles' size.
    #[error(transparent)]
    Alphabet(AlphabetError),
    /// `--box` does not fit the first puzzle: every line would be invalid.
    #[error("line {line}: {error}")]
    Format {
        /// The first puzzle's line.
        line: u64,
        /// The mismatch.
        error: FormatError,
    },
}

/// Whether every given of a puzzle with a unique solution is needed: removing
/// any one of them must leave several solutions. An error when `givens` do
/// not fit the solver's shape.
pub fn is_minimal(solver: &mut dyn Solver, givens: &[u8]) -> Result<bool, InputError> {
    check_input(solver.shape(), givens, None)?;
    Ok(is_minimal_raw(solver, givens))
}

/// [`is_minimal`] without the check, for callers whose givens fit the shape.
pub(crate) fn is_minimal_raw(solver: &mut dyn Solver, givens: &[u8]) -> bool {
    let mut probe = givens.to_vec();
    for cell in 0..givens.len() {
        if givens[cell] == 0 {
            continue;
        }
        probe[cell] = 0;
        let still_unique = solver.solve_raw(&probe, 2, None).solutions == 1;
        probe[cell] = givens[cell];
        if still_unique {
            return false;
        }
    }
    true
}

/// Analyses one parsed puzzle.
fn analyze_puzzle(
    solver: &mut dyn Solver,
    givens: &[u8],
    options: &AnalyzeOptions,
    scratch: &mut [u8],
) -> Analysis {
    let wanted = options.solutions.then_some(&mut *scratch);
    let limit = options.limit.max(2);
    let outcome = match options.timeout {
        None => Some(solver.solve_raw(givens, limit, wanted)),
        Some(time) => {
            let budget = Budget::until(Instant::now() + time);
            solver.solve_raw_until(givens, limit, wanted, &budget)
        }
    };
    analysis_of(solver, givens, outcome, scratch, options)
}

/// The analysis of `givens` from its search's `outcome` (`None`: given up
/// at the timeout) and its first `solution` (read when asked for).
#[inline]
fn analysis_of(
    solver: &mut dyn Solver,
    givens: &[u8],
    outcome: Option<Outcome>,
    solution: &[u8],
    options: &AnalyzeOptions,
) -> Analysis {
    let clues = count_givens(givens);
    let Some(outcome) = outcome else {
        return Analysis {
            status: None,
            clues,
            count: 0,
            minimal: None,
            solution: None,
            jigsaw: false,
        };
    };
    let status = Status::from_count(outcome.solutions);
    let unique = status == Status::Unique;
    Analysis {
        status: Some(status),
        clues,
        count: outcome.solutions,
        solution: (status != Status::None && options.solutions).then(|| solution.to_vec()),
        minimal: (unique && options.minimal).then(|| is_minimal_raw(solver, givens)),
        jigsaw: false,
    }
}

/// Puzzles of bare lines gathered for an engine that solves a batch faster
/// than one puzzle at a time
/// ([`RawSolver::batches`](crate::solver::raw::RawSolver::batches)): their
/// givens side by side, and what their verdicts need besides the analysis.
struct Gathered<'a> {
    cells: usize,
    givens: Vec<u8>,
    solutions: Vec<u8>,
    outcomes: Vec<Option<Outcome>>,
    /// Each puzzle's number, line number and cells.
    lines: Vec<(u64, u64, &'a [u8])>,
}

impl<'a> Gathered<'a> {
    /// Puzzles per batch: enough that the lanes of the small engine stay
    /// busy (they idle while a batch's last searches finish), few enough
    /// that the buffers stay in the first-level cache's neighbourhood.
    const BATCH: usize = 512;

    /// An empty gathering for puzzles of `cells` cells.
    fn new(cells: usize) -> Gathered<'a> {
        Gathered {
            cells,
            givens: Vec::with_capacity(Self::BATCH * cells),
            solutions: Vec::new(),
            outcomes: Vec::with_capacity(Self::BATCH),
            lines: Vec::with_capacity(Self::BATCH),
        }
    }

    /// Adds `givens`, puzzle `number` on line `line` (its text `cells`);
    /// `true` when the batch is full.
    fn add(&mut self, givens: &[u8], number: u64, line: u64, cells: &'a [u8]) -> bool {
        self.givens.extend_from_slice(givens);
        self.lines.push((number, line, cells));
        self.lines.len() == Self::BATCH
    }

    /// Solves the gathered puzzles and pushes their verdicts.
    fn settle(
        &mut self,
        solver: &mut dyn Solver,
        options: &AnalyzeOptions,
        verdicts: &mut Vec<Verdict<'a>>,
    ) {
        let count = self.lines.len();
        if count == 0 {
            return;
        }
        self.outcomes.clear();
        self.outcomes.resize(count, None);
        let solutions = options.solutions.then(|| {
            self.solutions.resize(count * self.cells, 0);
            &mut self.solutions[..]
        });
        let limit = options.limit.max(2);
        solver.solve_batch_raw(
            &self.givens,
            limit,
            solutions,
            options.timeout,
            &mut self.outcomes,
        );
        let puzzles = self.givens.chunks_exact(self.cells);
        for (i, ((&(number, line, cells), &outcome), givens)) in self
            .lines
            .iter()
            .zip(&self.outcomes)
            .zip(puzzles)
            .enumerate()
        {
            let solution = self
                .solutions
                .get(i * self.cells..(i + 1) * self.cells)
                .unwrap_or_default();
            verdicts.push(Verdict {
                number,
                line,
                id: None,
                cells,
                result: Ok(analysis_of(solver, givens, outcome, solution, options)),
            });
        }
        self.givens.clear();
        self.lines.clear();
    }
}

/// The engines one worker solves with: one for the layout every line shares
/// (the format's shape and `--variant`), and one for the last layout a
/// line's own fields gave, kept while the next lines repeat it.
struct Engines {
    choice: EngineChoice,
    base: Layout,
    base_solver: Box<dyn Solver>,
    last: Option<(Layout, Box<dyn Solver>)>,
}

impl Engines {
    /// The engines for puzzles of `format` under `options`; an error when
    /// the engine asked for does not handle `--variant`'s rules.
    fn new(format: &Format, options: &AnalyzeOptions) -> Result<Engines, LayoutError> {
        let base = Layout::classic(format.shape()).with_rules(options.variant);
        let base_solver = options
            .engine
            .build_for(&base)
            .map_err(|e| LayoutError::Syntax(e.to_string()))?;
        Ok(Engines {
            choice: options.engine,
            base,
            base_solver,
            last: None,
        })
    }

    /// The solver for a line whose text after the cells is `rest` (the
    /// shared one unless `rest` has layout fields), and whether the line's
    /// regions are a jigsaw's.
    fn for_line(&mut self, rest: &[u8]) -> Result<(&mut dyn Solver, bool), ParseError> {
        if !has_layout_fields(rest) {
            return Ok((self.base_solver.as_mut(), false));
        }
        let layout = apply_fields(self.base.clone(), &String::from_utf8_lossy(rest))?;
        if layout == self.base {
            return Ok((self.base_solver.as_mut(), false));
        }
        let jigsaw = layout.is_jigsaw();
        if self.last.as_ref().is_none_or(|(last, _)| *last != layout) {
            let solver = self
                .choice
                .build_for(&layout)
                .map_err(|e| LayoutError::Syntax(e.to_string()))?;
            self.last = Some((layout, solver));
        }
        Ok((self.last.as_mut().expect("set above").1.as_mut(), jigsaw))
    }
}

/// The text of `raw` after `cells`, a slice of it.
fn after<'a>(raw: &'a [u8], cells: &[u8]) -> &'a [u8] {
    let end = cells.as_ptr() as usize - raw.as_ptr() as usize + cells.len();
    &raw[end.min(raw.len())..]
}

/// The verdicts of one piece of a block, and the lines and puzzle lines it
/// went through (up to and with an `end` line), which its [`Survey`] had
/// counted before.
struct PieceResult<'a> {
    verdicts: Vec<Verdict<'a>>,
    lines: u64,
    /// Puzzle lines, analysed or not.
    puzzles: u64,
}

/// Where a piece starts in the run, and which of its puzzles are analysed.
#[derive(Clone, Copy)]
struct Start {
    /// Lines before the piece.
    lines: u64,
    /// Puzzle lines before the piece (those of earlier sources too).
    puzzles: u64,
    /// Which puzzles are analysed; `None` when every one is.
    numbering: Option<Numbering>,
}

impl Start {
    /// Whether the piece's `nth` puzzle (1-based) is analysed.
    fn wants(&self, nth: u64) -> bool {
        self.numbering.is_none_or(|n| n.wants(self.puzzles + nth))
    }
}

/// The lines and puzzle lines of a piece (a line over the cap counts as a
/// puzzle: it gets an invalid verdict), up to and with an `end` line if it
/// has one. Counted for every piece before any is analysed, so that each
/// knows its numbers and its verdicts are final as they are made.
#[derive(Clone, Debug, Default)]
struct Survey {
    lines: u64,
    puzzles: u64,
    /// Whether an `end` line stops the piece (and the stream).
    ended: bool,
    /// The piece's newlines, for its analysis to read the lines by.
    ends: LineEnds,
}

impl Survey {
    /// Counts the lines of `piece`, where lines over `max_line` bytes are
    /// puzzle lines too. A line whose first byte is not one that a blank
    /// line, a comment, a byte-order mark or `end` can start with is a
    /// puzzle line ([`classify`]): only the others (found with the
    /// newlines, [`LineEnds::odd`]) are classified, unless the piece is
    /// long enough to hold a line over the cap.
    fn of(piece: &[u8], max_line: usize) -> Survey {
        let ends = LineEnds::of(piece);
        let (lines, puzzles, ended) = if piece.len() > max_line {
            Survey::line_by_line(piece, &ends, max_line)
        } else {
            Survey::odd_lines(piece, &ends)
        };
        Survey {
            lines,
            puzzles,
            ended,
            ends,
        }
    }

    /// (lines, puzzle lines, ended) of a piece with no line over the cap:
    /// every line is a puzzle line but those of the odd ones that are
    /// blank or comments, up to an `end` line.
    fn odd_lines(piece: &[u8], ends: &LineEnds) -> (u64, u64, bool) {
        let mut skipped = 0;
        for &k in &ends.odd {
            match classify(ends.line(piece, k)) {
                Line::Skip => skipped += 1,
                Line::End => return (k as u64 + 1, k as u64 - skipped, true),
                Line::Puzzle { .. } => {}
            }
        }
        let lines = ends.count(piece) as u64;
        (lines, lines - skipped, false)
    }

    /// (lines, puzzle lines, ended), classifying every line that is not
    /// over the cap.
    fn line_by_line(piece: &[u8], ends: &LineEnds, max_line: usize) -> (u64, u64, bool) {
        let (mut lines, mut puzzles) = (0, 0);
        for raw in ends.lines(piece) {
            lines += 1;
            if raw.len() > max_line {
                puzzles += 1;
                continue;
            }
            match classify(raw) {
                Line::Skip => {}
                Line::End => return (lines, puzzles, true),
                Line::Puzzle { .. } => puzzles += 1,
            }
        }
        (lines, puzzles, false)
    }
}

/// Analyses every line of `piece`, which starts at `start`, pushing the
/// verdicts onto `verdicts` (empty, perhaps with room from an earlier
/// piece).
fn analyze_piece<'a>(
    piece: &'a [u8],
    ends: &LineEnds,
    format: &Format,
    options: &AnalyzeOptions,
    engines: &mut Engines,
    start: Start,
    mut verdicts: Vec<Verdict<'a>>,
) -> PieceResult<'a> {
    let cells = format.shape().cell_count();
    let mut givens = vec![0u8; cells];
    let mut scratch = vec![0u8; cells];
    verdicts.reserve(piece.len() / (cells + 1) + 1);
    let mut result = PieceResult {
        verdicts,
        lines: 0,
        puzzles: 0,
    };
    let mut unreported_bytes = 0u64;
    // A line of the cells alone (and a `\r`) is within the cap unless the
    // cap is tiny; only other lines need their length checked.
    let cells_fit = cells < options.max_line;
    let mut gathered = engines.base_solver.batches().then(|| Gathered::new(cells));
    for raw in ends.lines(piece) {
        result.lines += 1;
        if let Some(progress) = &options.progress {
            unreported_bytes += raw.len() as u64 + 1;
            if result.lines.is_multiple_of(PROGRESS_LINES) {
                progress.fetch_add(unreported_bytes, Ordering::Relaxed);
                unreported_bytes = 0;
            }
        }
        // The common line is the cells alone: if all of them read as cells
        // there is no id, comment or trailing field to look for (those need
        // characters no alphabet has).
        let bare = raw.strip_suffix(b"\r").unwrap_or(raw);
        if bare.len() == cells && cells_fit && format.parse_into(bare, &mut givens).is_ok() {
            result.puzzles += 1;
            if !start.wants(result.puzzles) {
                continue;
            }
            if let Some(gathered) = &mut gathered {
                if gathered.add(
                    &givens,
                    start.puzzles + result.puzzles,
                    start.lines + result.lines,
                    bare,
                ) {
                    let solver = engines.base_solver.as_mut();
                    gathered.settle(solver, options, &mut result.verdicts);
                }
                continue;
            }
            result.verdicts.push(Verdict {
                number: start.puzzles + result.puzzles,
                line: start.lines + result.lines,
                id: None,
                cells: bare,
                result: Ok(analyze_puzzle(
                    engines.base_solver.as_mut(),
                    &givens,
                    options,
                    &mut scratch,
                )),
            });
            continue;
        }
        // Verdicts go in line order: the gathered puzzles come first.
        if let Some(gathered) = &mut gathered {
            gathered.settle(engines.base_solver.as_mut(), options, &mut result.verdicts);
        }
        if raw.len() > options.max_line {
            result.puzzles += 1;
            if start.wants(result.puzzles) {
                let verdict = too_long(
                    start.puzzles + result.puzzles,
                    start.lines + result.lines,
                    options.max_line,
                );
                result.verdicts.push(verdict);
            }
            continue;
        }
        match classify(raw) {
            Line::Skip => {}
            Line::End => break,
            Line::Puzzle { id, cells } => {
                result.puzzles += 1;
                if !start.wants(result.puzzles) {
                    continue;
                }
                let analysis = format.parse_into(cells, &mut givens).and_then(|()| {
                    let (solver, jigsaw) = engines.for_line(after(raw, cells))?;
                    let analysis = analyze_puzzle(solver, &givens, options, &mut scratch);
                    Ok(Analysis { jigsaw, ..analysis })
                });
                result.verdicts.push(Verdict {
                    number: start.puzzles + result.puzzles,
                    line: start.lines + result.lines,
                    id,
                    cells,
                    result: analysis,
                });
            }
        }
    }
    if let Some(gathered) = &mut gathered {
        gathered.settle(engines.base_solver.as_mut(), options, &mut result.verdicts);
    }
    result
}

/// Every puzzle line of `piece` invalid for `error` (an engine that does
/// not handle the rules every line shares).
fn refuse_piece<'a>(
    piece: &'a [u8],
    ends: &LineEnds,
    error: &LayoutError,
    max_line: usize,
    start: Start,
    mut verdicts: Vec<Verdict<'a>>,
) -> PieceResult<'a> {
    let mut lines_seen = 0;
    let mut puzzles = 0;
    for raw in ends.lines(piece) {
        lines_seen += 1;
        if raw.len() > max_line {
            puzzles += 1;
            if start.wants(puzzles) {
                verdicts.push(too_long(puzzles, lines_seen, max_line));
            }
            continue;
        }
        match classify(raw) {
            Line::Skip => {}
            Line::End => break,
            Line::Puzzle { id, cells } => {
                puzzles += 1;
                if start.wants(puzzles) {
                    verdicts.push(Verdict {
                        number: puzzles,
                        line: lines_seen,
                        id,
                        cells,
                        result: Err(ParseError::Layout(error.clone())),
                    });
                }
            }
        }
    }
    PieceResult {
        verdicts,
        lines: lines_seen,
        puzzles,
    }
}

/// `run` emptied, its room kept for verdicts that borrow another block
/// (collecting an emptied vector into one of a same-sized type reuses its
/// allocation).
fn relabel<'b>(mut run: Vec<Verdict<'_>>) -> Vec<Verdict<'b>> {
    run.clear();
    run.into_iter()
        .map(|_| unreachable!("the run is empty"))
        .collect()
}

/// The verdict on puzzle `number`, line `line`, longer than `max` bytes.
fn too_long(number: u64, line: u64, max: usize) -> Verdict<'static> {
    Verdict {
        number,
        line,
        id: None,
        cells: b"",
        result: Err(ParseError::TooLong(TooLong { max })),
    }
}

/// Where the lines of a piece of whole lines end, and which lines start
/// oddly: the newlines found a 64-byte chunk at a time (a mask of the
/// chunk's newlines, then its set bits), which on lines of a few dozen
/// bytes is several times faster than a search per line.
#[derive(Clone, Debug, Default)]
struct LineEnds {
    /// The offset of every `\n`.
    ends: Vec<usize>,
    /// The lines (0-based) that are empty or start with a byte that a
    /// blank line, a comment, a byte-order mark or `end` can start with
    /// ([`is_odd`]): only these can be other than puzzle lines.
    odd: Vec<usize>,
}

impl LineEnds {
    /// The newlines and odd lines of `piece`.
    fn of(piece: &[u8]) -> LineEnds {
        let mut found = LineEnds {
            ends: Vec::with_capacity(piece.len() / 32 + 1),
            odd: Vec::new(),
        };
        if piece.first().is_some_and(|&b| is_odd(b)) {
            found.odd.push(0);
        }
        let mut chunks = piece.chunks_exact(64);
        let mut base = 0;
        for chunk in &mut chunks {
            found.add_chunk(piece, chunk.try_into().expect("64 bytes"), base);
            base += 64;
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // Padded with a byte that is not a newline.
            let mut padded = [0; 64];
            padded[..rest.len()].copy_from_slice(rest);
            found.add_chunk(piece, &padded, base);
        }
        found
    }

    /// Adds the newlines of `chunk`, the bytes of `piece` at offset `base`,
    /// and the odd lines they start.
    fn add_chunk(&mut self, piece: &[u8], chunk: &[u8; 64], base: usize) {
        let mut newline = newlines(chunk);
        while newline != 0 {
            let end = base + newline.trailing_zeros() as usize;
            self.ends.push(end);
            if piece.get(end + 1).is_some_and(|&b| is_odd(b)) {
                self.odd.push(self.ends.len());
            }
            newline &= newline - 1;
        }
    }

    /// How many lines `piece` (whose newlines these are) has: one per
    /// newline, and the text after the last one unless it is empty.
    fn count(&self, piece: &[u8]) -> usize {
        self.ends.len() + usize::from(self.tail(piece).is_some())
    }

    /// Where the last line of `piece` ends when it has no newline: the
    /// piece's end, if any text follows the last newline.
    fn tail(&self, piece: &[u8]) -> Option<usize> {
        let last = self.ends.last().map_or(0, |&end| end + 1);
        (last < piece.len()).then_some(piece.len())
    }

    /// Line `k` (0-based) of `piece`, without its `\n`.
    fn line<'p>(&self, piece: &'p [u8], k: usize) -> &'p [u8] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] + 1 };
        let end = self.ends.get(k).copied().unwrap_or(piece.len());
        &piece[start..end]
    }

    /// The lines of `piece`, whose newlines these are (each without its
    /// `\n`). An empty piece has no lines; "\n" alone is one empty line.
    fn lines<'p, 's>(&'s self, piece: &'p [u8]) -> impl Iterator<Item = &'p [u8]> + use<'p, 's> {
        let mut start = 0;
        self.ends
            .iter()
            .copied()
            .chain(self.tail(piece))
            .map(move |end| {
                let line = &piece[start..end];
                start = end + 1;
                line
            })
    }
}

/// Bit `i` set when byte `i` of `chunk` is a newline: four 16-byte
/// compares and mask moves (SSE2, which every x86-64 has).
#[cfg(target_arch = "x86_64")]
#[inline]
fn newlines(chunk: &[u8; 64]) -> u64 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    let mut mask = 0u64;
    for (k, part) in chunk.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of x86-64; the load reads the 16 bytes of
        // `part`, unaligned.
        let bits = unsafe {
            let bytes = _mm_loadu_si128(part.as_ptr().cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\n' as i8)))
        };
        mask |= u64::from(bits as u16) << (16 * k);
    }
    mask
}

/// Bit `i` set when byte `i` of `chunk` is a newline (other CPUs).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn newlines(chunk: &[u8; 64]) -> u64 {
    newlines_bytewise(chunk)
}

/// Bit `i` set when byte `i` of `chunk` is a newline, a byte at a time: the
/// portable path, and what the tests check the vector path against.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn newlines_bytewise(chunk: &[u8; 64]) -> u64 {
    chunk
        .iter()
        .enumerate()
        .fold(0u64, |mask, (i, &b)| mask | (u64::from(b == b'\n') << i))
}

/// Whether `b` can start a line that is not a puzzle line: ASCII white
/// space (a blank line), `#` (a comment), `e` (`end`) or 0xEF (a
/// byte-order mark).
fn is_odd(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'#' | b'e' | 0xEF)
}

/// Cuts `block` into about `parts` pieces at line boundaries.
fn pieces(block: &[u8], parts: usize) -> Vec<&[u8]> {
    let target = (block.len() / parts.max(1)).max(1);
    let mut out = Vec::with_capacity(parts + 1);
    let mut rest = block;
    while !rest.is_empty() {
        let cut = if rest.len() <= target {
            rest.len()
        } else {
            rest[target..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |p| target + p + 1)
        };
        out.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    out
}

/// Analyses every puzzle line of `input`, calling `sink` with each block's
/// verdicts in input order and the format (`None` until the first puzzle has
/// settled it). Returns the totals.
pub fn analyze_stream<R, S>(
    input: R,
    options: &AnalyzeOptions,
    mut sink: S,
) -> Result<Summary, AnalyzeError>
where
    R: Read,
    S: FnMut(Option<&Format>, &Verdicts<'_>) -> io::Result<()>,
{
    drive(input, options, &Keep, |format, block, pool| {
        let mut verdicts = Verdicts {
            runs: block.runs,
            passed: block.passed,
        };
        sink(format, &verdicts)?;
        pool.give_all(verdicts.runs.drain(..));
        Ok(())
    })
}

/// Turns runs of verdicts into output on the worker thread that analysed
/// them, while they are still in its cache: see [`analyze_rendered`].
pub trait Render: Sync {
    /// What a run of verdicts becomes (bytes of output, say).
    type Output: Send;

    /// Renders `run`, verdicts in input order and numbered as in the whole
    /// run; `format` is `None` before a puzzle has settled it.
    fn render(&self, format: Option<&Format>, run: &[Verdict<'_>]) -> Self::Output;
}

/// One block's output for [`analyze_rendered`]'s sink: its runs rendered,
/// in input order.
#[derive(Debug)]
pub struct Rendered<O> {
    /// The runs' outputs, in input order (a run without verdicts has none).
    pub outputs: Vec<O>,
    /// Verdicts rendered.
    pub verdicts: u64,
    /// As [`Verdicts::passed`]: every puzzle up to this number has had its
    /// verdict, in this block or before.
    pub passed: u64,
    /// The block's verdicts counted by status (its times are zero).
    pub counts: Summary,
}

/// Analyses every puzzle line of `input` as [`analyze_stream`] does, but
/// `render` turns each run of verdicts into output on the worker that
/// analysed it, and `sink` gets each block's outputs in order. Writing a
/// verdict while it is in the cache rather than after the whole block was
/// analysed took a tenth off the CPU time of 100,000 6×6 puzzles.
pub fn analyze_rendered<I, R, S>(
    input: I,
    options: &AnalyzeOptions,
    render: &R,
    mut sink: S,
) -> Result<Summary, AnalyzeError>
where
    I: Read,
    R: Render,
    S: FnMut(Rendered<R::Output>) -> io::Result<()>,
{
    drive(input, options, &Rendering(render), |_, block, _| {
        sink(Rendered {
            outputs: block.runs,
            verdicts: block.verdicts,
            passed: block.passed,
            counts: block.counts,
        })
    })
}

/// How a block's runs of verdicts are handed over: kept for a sink that
/// reads them, or rendered where they were made.
trait Handover: Sync {
    /// What a run becomes.
    type Run<'a>: Send;

    /// Hands over `run` (not empty); a vector it no longer needs goes back
    /// to `pool`.
    fn hand_over<'a>(
        &self,
        format: Option<&Format>,
        run: Vec<Verdict<'a>>,
        pool: &Pool,
    ) -> Self::Run<'a>;
}

/// Runs kept as they are ([`analyze_stream`]).
struct Keep;

impl Handover for Keep {
    type Run<'a> = Vec<Verdict<'a>>;

    fn hand_over<'a>(
        &self,
        _: Option<&Format>,
        run: Vec<Verdict<'a>>,
        _: &Pool,
    ) -> Vec<Verdict<'a>> {
        run
    }
}

/// Runs rendered ([`analyze_rendered`]).
struct Rendering<'r, R>(&'r R);

impl<R: Render> Handover for Rendering<'_, R> {
    type Run<'a> = R::Output;

    fn hand_over<'a>(
        &self,
        format: Option<&Format>,
        run: Vec<Verdict<'a>>,
        pool: &Pool,
    ) -> R::Output {
        let output = self.0.render(format, &run);
        pool.give(run);
        output
    }
}

/// Emptied vectors of verdicts, kept for the next runs: fresh ones would
/// make the kernel map and zero their pages anew. Rendered runs come back
/// as soon as they are rendered, so a few vectors serve a whole run.
#[derive(Default)]
struct Pool(Mutex<Vec<Vec<Verdict<'static>>>>);

impl Pool {
    /// An empty vector, with room if one came back.
    fn take<'a>(&self) -> Vec<Verdict<'a>> {
        let spare = self.0.lock().ok().and_then(|mut spare| spare.pop());
        spare.map_or_else(Vec::new, relabel)
    }

    /// Keeps `run`'s room.
    fn give(&self, run: Vec<Verdict<'_>>) {
        if let Ok(mut spare) = self.0.lock() {
            spare.push(relabel(run));
        }
    }

    /// Keeps the room of every one of `runs`.
    fn give_all<'a>(&self, runs: impl Iterator<Item = Vec<Verdict<'a>>>) {
        if let Ok(mut spare) = self.0.lock() {
            spare.extend(runs.map(relabel));
        }
    }
}

/// One block's runs, handed over, for [`drive`]'s sink.
struct Block<R> {
    runs: Vec<R>,
    verdicts: u64,
    passed: u64,
    counts: Summary,
}

impl<R> Block<R> {
    /// A block of no runs yet.
    fn new() -> Block<R> {
        Block {
            runs: Vec::new(),
            verdicts: 0,
            passed: 0,
            counts: Summary::default(),
        }
    }

    /// Counts `run` (not empty), hands it over on this thread and adds it.
    fn hand_in<'a, H>(
        &mut self,
        handover: &H,
        format: Option<&Format>,
        run: Vec<Verdict<'a>>,
        pool: &Pool,
    ) where
        H: Handover<Run<'a> = R>,
    {
        let (verdicts, counts) = (run.len(), counted(&run));
        self.push(handover.hand_over(format, run, pool), verdicts, &counts);
    }

    /// Adds a handed-over run of `verdicts` verdicts, counted in `counts`.
    fn push(&mut self, run: R, verdicts: usize, counts: &Summary) {
        self.runs.push(run);
        self.verdicts += verdicts as u64;
        self.counts.add_counts(counts);
    }
}

/// Counts `out` into `summary` and hands it to `sink`, timed as writing.
fn send<R, S>(
    sink: &mut S,
    format: Option<&Format>,
    out: Block<R>,
    pool: &Pool,
    summary: &mut Summary,
) -> Result<(), AnalyzeError>
where
    S: FnMut(Option<&Format>, Block<R>, &Pool) -> io::Result<()>,
{
    summary.add_counts(&out.counts);
    let started = Instant::now();
    sink(format, out, pool).map_err(AnalyzeError::Write)?;
    summary.write_time += started.elapsed();
    Ok(())
}

/// Tells the progress display that `bytes_done` bytes of input are analysed.
fn report(options: &AnalyzeOptions, bytes_done: u64) {
    if let Some(progress) = &options.progress {
        progress.store(bytes_done, Ordering::Relaxed);
    }
}

/// A run's verdicts counted by status.
fn counted(run: &[Verdict<'_>]) -> Summary {
    let mut counts = Summary::default();
    run.iter().for_each(|v| counts.add(v));
    counts
}

/// The analyzer's loop: reads `input` block by block, cuts each block into
/// pieces, numbers the pieces' lines (a [`Survey`] each, in parallel),
/// analyses them in parallel and hands each piece's verdicts over as they
/// are made; `sink` gets each block's runs in order.
fn drive<I, H, S>(
    input: I,
    options: &AnalyzeOptions,
    handover: &H,
    mut sink: S,
) -> Result<Summary, AnalyzeError>
where
    I: Read,
    H: Handover,
    S: for<'a> FnMut(Option<&Format>, Block<H::Run<'a>>, &Pool) -> io::Result<()>,
{
    let mut reader = LineReader::new(input, options.max_line);
    let mut summary = Summary::default();
    let mut format: Option<Format> = None;
    let numbering = options.numbering;
    let picked = (!numbering.takes_all()).then_some(numbering);
    let mut line_base = 0u64;
    let mut number_base = numbering.before;
    let mut bytes_done = 0u64;
    let threads = threads();
    let block_bytes = BLOCK_BYTES_PER_THREAD * threads;
    let pool = Pool::default();
    // The engines of finished pieces, for the next pieces (of this block or
    // a later one) to take rather than build their tables again. The format
    // never changes once settled, and the engines depend on nothing else.
    let idle_engines: Mutex<Vec<Result<Engines, LayoutError>>> = Mutex::new(Vec::new());
    loop {
        let started = Instant::now();
        let item = reader.next_block(block_bytes).map_err(AnalyzeError::Read)?;
        summary.read_time += started.elapsed();
        let Some(item) = item else { break };
        let block = match item {
            Ok(block) => block,
            Err(TooLong { max }) => {
                line_base += 1;
                number_base += 1;
                bytes_done = reader.consumed();
                let mut out = Block::new();
                if numbering.wants(number_base) {
                    let run = vec![too_long(number_base, line_base, max)];
                    out.hand_in(handover, format.as_ref(), run, &pool);
                }
                report(options, bytes_done);
                out.passed = number_base;
                send(&mut sink, format.as_ref(), out, &pool, &mut summary)?;
                continue;
            }
        };

        let started = Instant::now();
        // The verdicts on the lines read before the format is settled.
        let mut early = Vec::new();
        let mut pos = 0;
        let mut ended = false;
        // Until a puzzle settles the format, lines are taken one by one.
        while format.is_none() && pos < block.len() {
            let end = block[pos..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(block.len(), |p| pos + p);
            let next = (end + 1).min(block.len());
            if end - pos > options.max_line {
                number_base += 1;
                if numbering.wants(number_base) {
                    early.push(too_long(number_base, line_base + 1, options.max_line));
                }
                line_base += 1;
                pos = next;
                continue;
            }
            match classify(&block[pos..end]) {
                Line::Skip => {}
                Line::End => {
                    ended = true;
                    break;
                }
                Line::Puzzle { id, cells } => match options.spec.resolve(cells) {
                    // This line is read again below, with the settled format.
                    Ok(settled) => {
                        format = Some(settled);
                        break;
                    }
                    Err(FormatError::Alphabet(e)) => return Err(AnalyzeError::Alphabet(e)),
                    Err(e @ FormatError::BoxMismatch { .. }) => {
                        return Err(AnalyzeError::Format {
                            line: line_base + 1,
                            error: e,
                        })
                    }
                    Err(FormatError::Line(error)) => {
                        number_base += 1;
                        if numbering.wants(number_base) {
                            early.push(Verdict {
                                number: number_base,
                                line: line_base + 1,
                                id,
                                cells,
                                result: Err(error),
                            });
                        }
                    }
                },
            }
            line_base += 1;
            pos = next;
        }
        let rest = &block[pos..];
        let mut out = Block::new();
        if !early.is_empty() {
            out.hand_in(handover, format.as_ref(), early, &pool);
        }
        if let (Some(format), false) = (&format, ended) {
            let parts = pieces(rest, threads * PIECES_PER_THREAD);
            let max_line = options.max_line;
            let surveys: Vec<Survey> = parts
                .par_iter()
                .map(|piece| Survey::of(piece, max_line))
                .collect();
            // Each piece's numbers start where the pieces before it end;
            // the pieces after an `end` line are not analysed.
            let mut starts = Vec::with_capacity(parts.len());
            for survey in &surveys {
                starts.push(Start {
                    lines: line_base,
                    puzzles: number_base,
                    numbering: picked,
                });
                line_base += survey.lines;
                number_base += survey.puzzles;
                if survey.ended {
                    ended = true;
                    break;
                }
            }
            // The pieces after an `end` line drop out here (`starts` ends).
            let work: Vec<_> = parts.into_iter().zip(starts).zip(surveys).collect();
            let runs: Vec<Option<(H::Run<'_>, usize, Summary)>> = work
                .into_par_iter()
                .map(|((piece, start), survey)| {
                    let taken = idle_engines.lock().ok().and_then(|mut idle| idle.pop());
                    let mut engines = taken.unwrap_or_else(|| Engines::new(format, options));
                    let room = pool.take();
                    let result = match &mut engines {
                        Ok(engines) => analyze_piece(
                            piece,
                            &survey.ends,
                            format,
                            options,
                            engines,
                            start,
                            room,
                        ),
                        Err(e) => refuse_piece(piece, &survey.ends, e, max_line, start, room),
                    };
                    if let Ok(mut idle) = idle_engines.lock() {
                        idle.push(engines);
                    }
                    debug_assert_eq!(
                        (result.lines, result.puzzles),
                        (survey.lines, survey.puzzles)
                    );
                    if result.verdicts.is_empty() {
                        pool.give(result.verdicts);
                        return None;
                    }
                    let (verdicts, counts) = (result.verdicts.len(), counted(&result.verdicts));
                    Some((
                        handover.hand_over(Some(format), result.verdicts, &pool),
                        verdicts,
                        counts,
                    ))
                })
                .collect();
            for (run, verdicts, counts) in runs.into_iter().flatten() {
                out.push(run, verdicts, &counts);
            }
        }
        summary.compute_time += started.elapsed();
        bytes_done += block.len() as u64;
        report(options, bytes_done);
        out.passed = number_base;
        send(&mut sink, format.as_ref(), out, &pool, &mut summary)?;
        if ended {
            break;
        }
    }
    summary.passed = number_base;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::Shard;

    /// Hands out its data a few bytes per read, as a slow pipe does.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(self.0.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// (line, id, status or error text) of every verdict of a run.
    fn run(
        input: &[u8],
        step: usize,
        options: &AnalyzeOptions,
    ) -> Vec<(u64, Option<String>, String)> {
        let mut seen = Vec::new();
        let mut counted = Summary::default();
        let summary = analyze_stream(Trickle(input, step), options, |_, verdicts| {
            for v in verdicts {
                counted.add(v);
                let what = match &v.result {
                    Ok(a) => a.status.map_or("timeout".to_string(), |s| format!("{s:?}")),
                    Err(e) => e.to_string(),
                };
                seen.push((v.line, v.id.map(str::to_string), what));
            }
            Ok(())
        })
        .unwrap();
        // The totals count exactly the verdicts given (none after an `end`).
        let counts = |s: &Summary| [s.unique, s.none, s.multiple, s.invalid, s.timed_out];
        assert_eq!(counts(&summary), counts(&counted), "read size {step}");
        seen
    }

    const INPUT: &[u8] = b"# header\n\nfirst\na:*314*******1**356**621**3*******561*\r\n\n5******5******5******5******5******5\nend\n....................................\n";

    /// (number, line, what) of every verdict of `input` under `numbering`,
    /// with the passed count the last block reports.
    fn numbered(input: &[u8], numbering: Numbering) -> (Vec<(u64, u64, String)>, u64) {
        let options = AnalyzeOptions {
            numbering,
            max_line: 60,
            ..AnalyzeOptions::default()
        };
        let mut seen = Vec::new();
        let mut passed = 0;
        let summary = analyze_stream(input, &options, |_, verdicts| {
            for v in verdicts {
                let what = match &v.result {
                    Ok(a) => format!("{:?}", a.status),
                    Err(e) => e.to_string(),
                };
                seen.push((v.number, v.line, what));
            }
            passed = verdicts.passed();
            Ok(())
        })
        .unwrap();
        assert_eq!(summary.passed, passed);
        (seen, passed)
    }

    #[test]
    fn newline_masks_match_a_byte_at_a_time() {
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;

        let mut rng = ChaCha8Rng::seed_from_u64(31);
        // Every byte value in every position, and random chunks that mix
        // newlines with other bytes.
        let mut chunks: Vec<[u8; 64]> = (0..=255u8)
            .map(|b| std::array::from_fn(|i| b.wrapping_add(i as u8 * 4)))
            .collect();
        let wanted = [b'\n', b'\r', b'.', b'1'];
        chunks.extend((0..2000).map(|_| {
            std::array::from_fn(|_| match rng.gen_bool(0.5) {
                true => wanted[rng.gen_range(0..wanted.len())],
                false => rng.gen(),
            })
        }));
        for chunk in &chunks {
            assert_eq!(newlines(chunk), newlines_bytewise(chunk), "{chunk:?}");
        }
    }

    #[test]
    fn surveys_count_the_lines_and_puzzles_that_analysis_numbers() {
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;

        let caps = [40, 100_000].map(|max_line| AnalyzeOptions {
            max_line,
            ..AnalyzeOptions::default()
        });
        let format = caps[0].spec.resolve(b"1...............").expect("4x4");
        let mut engines = Engines::new(&format, &caps[0]).expect("engines");
        let too_long = [b'.'; 41];
        // Every kind of line: bare, led by blanks or a byte-order mark, with
        // an id, of the wrong length or symbols, too long, comments, blank
        // lines, `end` alone, padded, or starting a longer word.
        let kinds: [&[u8]; 20] = [
            b"1...............",
            b"2...............\r",
            b"\t1...............",
            b" 1...............",
            b"\xEF\xBB\xBF1...............",
            b"\xEF\xBB\xBF",
            b"x:1...............",
            b"1..",
            b"1..............z",
            &too_long,
            b"# comment",
            b"#",
            b"",
            b"  ",
            b"\r",
            b"end",
            b"  end\r",
            b"\xEF\xBB\xBFend",
            b"endless",
            b"e",
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        for trial in 0..800 {
            // A piece longer than the cap is counted line by line, a
            // shorter one by its odd lines.
            let options = &caps[trial % 2];
            let count = rng.gen_range(0..30);
            let lines: Vec<&[u8]> = (0..count)
                .map(|_| {
                    // Mostly lines that are not `end`, so that some pieces
                    // go on long before one stops them.
                    let kind = rng.gen_range(0..kinds.len() * 4);
                    kinds[if kind < 15 * 4 {
                        kind / 4
                    } else {
                        kind % kinds.len()
                    }]
                })
                .collect();
            let mut piece = lines.join(&b'\n');
            if rng.gen_bool(0.5) && !piece.is_empty() {
                piece.push(b'\n');
            }
            let survey = Survey::of(&piece, options.max_line);
            let start = Start {
                lines: 0,
                puzzles: 0,
                numbering: None,
            };
            let ends = &survey.ends;
            let result = analyze_piece(
                &piece,
                ends,
                &format,
                options,
                &mut engines,
                start,
                Vec::new(),
            );
            assert_eq!(
                (survey.lines, survey.puzzles),
                (result.lines, result.puzzles),
                "trial {trial}: {:?}",
                String::from_utf8_lossy(&piece)
            );
            let ends = lines
                .iter()
                .any(|l| l.len() <= options.max_line && matches!(classify(l), Line::End));
            assert_eq!(survey.ended, ends, "trial {trial}");
            // Every puzzle line has its verdict, numbered from the start.
            assert_eq!(result.verdicts.len() as u64, result.puzzles);
            for (k, verdict) in result.verdicts.iter().enumerate() {
                assert_eq!(verdict.number, k as u64 + 1);
            }
        }
    }

    #[test]
    fn gathered_puzzles_keep_line_order_among_other_lines_and_answer_right() {
        use crate::generate::random_puzzle;
        use crate::solver::reference::ReferenceSolver;
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;

        let shape = crate::grid::Shape::new(2, 3).expect("shape");
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let mut input = Vec::new();
        // (line, puzzle) of every bare or id line; other lines in between.
        let mut puzzles = Vec::new();
        let mut line = 0u64;
        for k in 0..(3 * Gathered::BATCH + 77) {
            line += 1;
            let puzzle = random_puzzle(shape, rng.gen_range(8..=24), 0.2, &mut rng);
            match k % 97 {
                13 => input.extend_from_slice(b"# a comment\n"),
                29 => input.extend_from_slice(format!("id{k}:{puzzle}\n").as_bytes()),
                41 => input.extend_from_slice(format!("{puzzle}\r\n").as_bytes()),
                59 => input.extend_from_slice(format!("{}\n", "x".repeat(70)).as_bytes()),
                _ => input.extend_from_slice(format!("{puzzle}\n").as_bytes()),
            }
            if ![13, 59].contains(&(k % 97)) {
                puzzles.push((line, puzzle));
            }
        }
        let options = AnalyzeOptions {
            solutions: true,
            max_line: 60,
            ..AnalyzeOptions::default()
        };
        let mut seen = Vec::new();
        analyze_stream(&input[..], &options, |_, verdicts| {
            seen.extend(verdicts.iter().map(|v| (v.line, v.result.clone())));
            Ok(())
        })
        .unwrap();
        let answered: Vec<_> = seen.iter().filter(|(_, r)| r.is_ok()).collect();
        assert_eq!(answered.len(), puzzles.len());
        assert_eq!(
            seen.len() - answered.len(),
            (3 * Gathered::BATCH + 77) / 97 + 1
        );
        let mut reference = ReferenceSolver::new(shape);
        for ((line, result), (want_line, puzzle)) in answered.into_iter().zip(&puzzles) {
            assert_eq!(line, want_line, "verdicts out of line order");
            let analysis = result.as_ref().expect("answered");
            let want = reference
                .solve(puzzle.cells(), 2, None)
                .expect("valid")
                .solutions;
            assert_eq!(analysis.count, want, "line {line}: {puzzle}");
            assert_eq!(analysis.clues, puzzle.clue_count());
            match &analysis.solution {
                None => assert_eq!(want, 0, "line {line}: no solution given"),
                Some(cells) => {
                    let grid = crate::grid::Puzzle::new(shape, cells.clone()).expect("grid");
                    assert!(grid.is_valid_solution(), "line {line}: {grid}");
                    let kept = puzzle
                        .cells()
                        .iter()
                        .zip(cells)
                        .all(|(&g, &s)| g == 0 || g == s);
                    assert!(kept, "line {line}: the solution drops a given");
                }
            }
        }
    }

    #[test]
    fn slices_and_resumes_number_every_puzzle_as_the_whole_run_does() {
        // Valid, invalid, too long, skipped lines and ids, then `end`.
        let mut input = b"# c\n".to_vec();
        for k in 0..40u8 {
            let line = match k % 7 {
                0 => "x".repeat(70),
                1 => "bad".to_string(),
                2 => String::new(),
                3 => format!("id{k}:{}", ".".repeat(16)),
                _ => format!("{}{}", (b'1' + k % 4) as char, ".".repeat(15)),
            };
            input.extend_from_slice(line.as_bytes());
            input.push(b'\n');
        }
        input.extend_from_slice(b"end\n1234............\n");
        let (whole, total) = numbered(&input, Numbering::all());
        let numbers: Vec<u64> = whole.iter().map(|v| v.0).collect();
        assert_eq!(numbers, (1..=total).collect::<Vec<_>>());
        for before in [0, 5] {
            for count in 1..4 {
                for width in 1..4 {
                    let mut union = Vec::new();
                    for index in 0..count {
                        let stripes = Stripes::new(Shard::new(index, count).unwrap(), width);
                        for skip in [0, 7] {
                            let numbering = Numbering {
                                before,
                                stripes,
                                skip: before + skip,
                            };
                            let (part, passed) = numbered(&input, numbering);
                            assert_eq!(passed, before + total);
                            for v in &part {
                                assert!(numbering.wants(v.0), "{v:?} not wanted");
                            }
                            if skip == 0 {
                                union.extend(part);
                            }
                        }
                    }
                    union.sort();
                    let shifted: Vec<_> = whole
                        .iter()
                        .map(|(n, line, what)| (n + before, *line, what.clone()))
                        .collect();
                    assert_eq!(union, shifted, "{count} slices of width {width}");
                }
            }
        }
    }

    #[test]
    fn lines_split_across_reads_keep_numbers_ids_and_the_end_marker() {
        let want = vec![
            (
                3,
                None,
                "5 cells is not a square grid of side 1 to 64".to_string(),
            ),
            (4, Some("a".to_string()), "Unique".to_string()),
            (6, None, "None".to_string()),
        ];
        for step in [1, 2, 7, 4096] {
            assert_eq!(
                run(INPUT, step, &AnalyzeOptions::default()),
                want,
                "read size {step}"
            );
        }
    }

    #[test]
    fn an_end_line_mid_block_stops_the_verdicts_and_the_totals() {
        // Enough lines that the pieces after the `end` line's are analysed
        // too, in parallel, before their verdicts are dropped; `run`
        // checks that the totals count only the verdicts given.
        let mut input = b"1...............\n".repeat(64);
        input.extend_from_slice(b"end\n");
        input.extend_from_slice(&b"1...............\n".repeat(256));
        for step in [7, 4096] {
            let seen = run(&input, step, &AnalyzeOptions::default());
            assert_eq!(seen.len(), 64, "read size {step}");
            assert!(seen.iter().all(|(_, _, what)| what == "Multiple"));
        }
    }

    #[test]
    fn lines_longer_than_the_cap_are_invalid_and_the_next_ones_answered() {
        let puzzle = "*314*******1**356**621**3*******561*";
        let input = [
            "# header\n".to_string(),
            format!("{}\n", ".".repeat(41)),
            format!("{puzzle}\n"),
            format!("{}\n", "0".repeat(3 << 20)),
            format!("a:{puzzle}\n"),
            format!("{puzzle}  ; rated 1.0\n"),
            ".".repeat(41),
        ]
        .concat();
        let options = AnalyzeOptions {
            max_line: 40,
            ..AnalyzeOptions::default()
        };
        let too_long = "longer than 40 bytes".to_string();
        let want = vec![
            (2, None, too_long.clone()),
            (3, None, "Unique".to_string()),
            (4, None, too_long.clone()),
            (5, Some("a".to_string()), "Unique".to_string()),
            (6, None, too_long.clone()),
            (7, None, too_long),
        ];
        for step in [1, 7, 4096, 1 << 20] {
            assert_eq!(
                run(input.as_bytes(), step, &options),
                want,
                "read size {step}"
            );
        }

        // A cap of exactly the cells: the `\r` of a CRLF line is one too many.
        let options = AnalyzeOptions {
            max_line: 36,
            ..AnalyzeOptions::default()
        };
        let input = format!("{puzzle}\n{puzzle}\r\n{puzzle}\n");
        let want = vec![
            (1, None, "Unique".to_string()),
            (2, None, "longer than 36 bytes".to_string()),
            (3, None, "Unique".to_string()),
        ];
        assert_eq!(run(input.as_bytes(), 4096, &options), want);
    }

    #[test]
    fn pieces_cut_only_at_line_ends() {
        let block = b"aa\nbbbb\nc\ndddddd\n";
        for parts in 1..6 {
            let cut = pieces(block, parts);
            assert_eq!(cut.concat(), block.to_vec());
            assert!(cut.iter().all(|p| p.ends_with(b"\n")), "{parts}: {cut:?}");
        }
        let lines = |piece: &[u8]| {
            let ends = LineEnds::of(piece);
            ends.lines(piece).map(<[u8]>::to_vec).collect::<Vec<_>>()
        };
        assert_eq!(lines(b"x\n\ny"), vec![b"x".to_vec(), vec![], b"y".to_vec()]);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n"), vec![Vec::<u8>::new()]);
        // Lines across and at the ends of 64-byte chunks, against a split.
        for len in [0, 1, 62, 63, 64, 65, 127, 128, 129, 300] {
            for period in [1, 2, 7, 63, 64, 65] {
                let piece: Vec<u8> = (0..len)
                    .map(|i| {
                        if i % period == period - 1 {
                            b'\n'
                        } else {
                            b'a' + (i % 26) as u8
                        }
                    })
                    .collect();
                let mut want: Vec<Vec<u8>> =
                    piece.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                // The text after the last newline is a line unless empty.
                if want.last().is_some_and(Vec::is_empty) {
                    want.pop();
                }
                assert_eq!(lines(&piece), want, "length {len}, period {period}");
            }
        }
    }

    #[test]
    fn symbols_that_do_not_fit_stop_the_run() {
        let options = AnalyzeOptions {
            spec: FormatSpec {
                shape: None,
                symbols: Some("ABC".into()),
            },
            ..AnalyzeOptions::default()
        };
        let result = analyze_stream(INPUT, &options, |_, _| Ok(()));
        assert!(matches!(result, Err(AnalyzeError::Alphabet(_))));
    }

    #[test]
    fn minimal_and_solutions_are_filled_only_for_unique_puzzles() {
        let options = AnalyzeOptions {
            minimal: true,
            solutions: true,
            ..AnalyzeOptions::default()
        };
        let mut analyses = Vec::new();
        analyze_stream(INPUT, &options, |_, verdicts| {
            analyses.extend(verdicts.iter().filter_map(|v| v.result.clone().ok()));
            Ok(())
        })
        .unwrap();
        assert_eq!(analyses.len(), 2);
        assert_eq!(analyses[0].minimal, Some(false));
        assert_eq!(analyses[0].clues, 14);
        assert!(analyses[0].solution.as_ref().is_some_and(|s| s.len() == 36));
        assert_eq!(analyses[1].minimal, None);
        assert_eq!(analyses[1].solution, None);
    }
}
