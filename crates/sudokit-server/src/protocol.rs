//! The request language (SPEC §5), free of any I/O: one line in, one reply out.
//!
//! A request is `[id:]body`. The id is everything before the first `:` and is
//! echoed in front of the answer. The body is
//!
//! - a **Sudoku** of N·N cells (SPEC §1: sized on its own, default symbols,
//!   trailing fields after whitespace, `;` or `,` ignored), answered with its
//!   solution or `NoSolution` (muduo's spelling);
//! - an **8-puzzle** (9 tiles, compact `23415x768` or spaced) or a
//!   **15-puzzle** (16 spaced tiles), answered with a shortest sequence of blank
//!   moves in `u d l r` (empty when already solved) or `unsolvable`;
//! - anything else, answered `Bad Request: <reason>`.
//!
//! A body is a sliding puzzle when it is made of spaced tiles or is a compact
//! line of 9 characters; every other body is read as a Sudoku. The 3×3 "Sudoku"
//! of 9 cells (boxes of 1×3) would be the only clash, and it is not a puzzle
//! anyone asks about.
//!
//! [`Workspace`] holds one solver per shape and the scratch buffers, so a worker
//! thread that keeps one answers every request without allocating per puzzle.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudokit::budget::Budget;
use sudokit::grid::Shape;
use sudokit::parse::{Alphabet, Format, FormatSpec, DEFAULT_SYMBOLS};
use sudokit::slide::{self, Board, Goal};
use sudokit::solver::{solver_for, Solver};
use sudokit::variant::text::{apply_fields, has_layout_fields};
use sudokit::variant::{Layout, VariantSolver};

/// Longest request line accepted, without its line ending (SPEC §5: 64 KiB).
pub const MAX_LINE: usize = 64 * 1024;

/// The answer to a Sudoku without a solution (muduo's spelling).
pub const NO_SOLUTION: &str = "NoSolution";

/// The answer when the server will not take more work (muduo's spelling).
pub const SERVER_TOO_BUSY: &str = "ServerTooBusy";

/// The answer when solving took longer than the server's solve timeout.
pub const TIMEOUT: &str = "Timeout";

/// The answer to a sliding puzzle whose goal cannot be reached.
pub const UNSOLVABLE: &str = "unsolvable";

/// The prefix of every answer to a malformed request.
pub const BAD_REQUEST: &str = "Bad Request: ";

/// Splits a request line (without its line ending) into its id and body: the
/// id is everything before the first `:`, `None` without a colon.
pub fn split_id(line: &[u8]) -> (Option<&[u8]>, &[u8]) {
    match line.iter().position(|&b| b == b':') {
        Some(colon) => (Some(&line[..colon]), &line[colon + 1..]),
        None => (None, line),
    }
}

/// Appends the reply `[id:]answer\r\n` to `out`.
pub fn write_reply(id: Option<&[u8]>, answer: &[u8], out: &mut Vec<u8>) {
    if let Some(id) = id {
        out.extend_from_slice(id);
        out.push(b':');
    }
    out.extend_from_slice(answer);
    out.extend_from_slice(b"\r\n");
}

/// What kind of puzzle a request body holds, decided from its layout alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Sudoku cell text.
    Sudoku,
    /// An 8- or 15-puzzle.
    Slide,
}

/// Whether `body` (already trimmed) is a sliding puzzle or Sudoku text; see the
/// module docs for the rule.
pub fn kind_of(body: &[u8]) -> Kind {
    let first_field = body
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b',' || b == b';')
        .unwrap_or(body.len());
    let spaced_tiles = first_field < body.len()
        && first_field <= 2
        && body[first_field] != b';'
        && body[..first_field]
            .iter()
            .all(|&b| b.is_ascii_digit() || b == b'x' || b == b'X');
    if spaced_tiles || first_field == 9 {
        Kind::Slide
    } else {
        Kind::Sudoku
    }
}

/// The outcome of one request body, before the id is put back in front.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A normal answer: a solution, `NoSolution`, moves or `unsolvable`.
    Solved(Vec<u8>),
    /// A malformed request, with the reason.
    Bad(String),
    /// The solve timeout passed before the answer was found.
    GaveUp,
}

impl Answer {
    /// What kind of reply this is, for the counters.
    pub fn kind(&self) -> ReplyKind {
        match self {
            Answer::Solved(_) => ReplyKind::Answered,
            Answer::Bad(_) => ReplyKind::Bad,
            Answer::GaveUp => ReplyKind::GaveUp,
        }
    }

    /// Appends the reply line for a request with id `id` to `out`.
    pub fn write(&self, id: Option<&[u8]>, out: &mut Vec<u8>) {
        match self {
            Answer::Solved(text) => write_reply(id, text, out),
            Answer::GaveUp => write_reply(id, TIMEOUT.as_bytes(), out),
            Answer::Bad(reason) => {
                let mut text = Vec::with_capacity(BAD_REQUEST.len() + reason.len());
                text.extend_from_slice(BAD_REQUEST.as_bytes());
                text.extend_from_slice(reason.as_bytes());
                write_reply(id, &text, out);
            }
        }
    }
}

/// What kind of reply a request got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// A solution, `NoSolution`, moves or `unsolvable`.
    Answered,
    /// `Bad Request: …`.
    Bad,
    /// `Timeout`.
    GaveUp,
}

/// A request body, parsed: only what a worker needs to answer it (the
/// givens, or the tiles), so that a queued request holds a few dozen bytes
/// whatever trailing text its line carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// A Sudoku of `shape`: `N²` cell values, 0 for a blank.
    Sudoku {
        /// The grid's shape (from the number of cells, SPEC §1).
        shape: Shape,
        /// The givens.
        givens: Box<[u8]>,
    },
    /// A Sudoku variant: givens and the layout fields that followed them
    /// (read by the worker, which answers `Bad Request` if they are wrong).
    Variant {
        /// The grid's shape.
        shape: Shape,
        /// The givens.
        givens: Box<[u8]>,
        /// The text after the cells (`regions=…`, `variant=…`, `cage=…`).
        fields: Box<[u8]>,
    },
    /// An 8- or 15-puzzle, solved for the goal with the blank last.
    Slide(Board),
}

/// How much CPU a request may need, for the scheduler: light requests take
/// at most about a millisecond, heavy ones up to the solve timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// 9×9 and grids of at most 64 cells (the band and small engines), and
    /// 8-puzzles (a table look-up per move).
    Light,
    /// Other grids (the general engine: 16×16, 25×25, 36×36 …) and
    /// 15-puzzles (IDA*, up to seconds or minutes for the hardest).
    Heavy,
}

/// Parsed work borrowed from wherever its cells are kept (a [`Work`], or a
/// job's packed buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkRef<'a> {
    /// A Sudoku of `shape` and its givens.
    Sudoku {
        /// The grid's shape.
        shape: Shape,
        /// `N²` cell values, 0 for a blank.
        givens: &'a [u8],
    },
    /// A Sudoku variant: shape, givens and layout fields.
    Variant {
        /// The grid's shape.
        shape: Shape,
        /// `N²` cell values, 0 for a blank.
        givens: &'a [u8],
        /// The layout fields' text.
        fields: &'a [u8],
    },
    /// An 8- or 15-puzzle.
    Slide(Board),
}

impl Work {
    /// The work, borrowed.
    pub fn as_work(&self) -> WorkRef<'_> {
        match self {
            Work::Sudoku { shape, givens } => WorkRef::Sudoku {
                shape: *shape,
                givens,
            },
            Work::Variant {
                shape,
                givens,
                fields,
            } => WorkRef::Variant {
                shape: *shape,
                givens,
                fields,
            },
            Work::Slide(board) => WorkRef::Slide(*board),
        }
    }

    /// Which lane the scheduler runs this in.
    pub fn class(&self) -> Class {
        self.as_work().class()
    }
}

impl WorkRef<'_> {
    /// Whether solving can take long enough to need a budget: everything
    /// but 9×9 grids with 3×3 boxes (the band engine, whose worst case is
    /// about a millisecond) and 8-puzzles (a look-up per move). Grids of at
    /// most 64 cells can be handed to the general engine, so they keep one.
    pub fn can_run_long(&self) -> bool {
        match self {
            WorkRef::Sudoku { shape, .. } => (shape.box_rows(), shape.box_cols()) != (3, 3),
            WorkRef::Variant { .. } => true,
            WorkRef::Slide(board) => board.width() != 3,
        }
    }

    /// Which lane the scheduler runs this in.
    pub fn class(&self) -> Class {
        match self {
            WorkRef::Sudoku { shape, .. } => {
                let cells = shape.cell_count();
                let nine = (shape.box_rows(), shape.box_cols()) == (3, 3);
                if cells <= 64 || nine {
                    Class::Light
                } else {
                    Class::Heavy
                }
            }
            // Building a layout's tables and searching a variant have no
            // millisecond bound.
            WorkRef::Variant { .. } => Class::Heavy,
            WorkRef::Slide(board) if board.width() == 3 => Class::Light,
            WorkRef::Slide(_) => Class::Heavy,
        }
    }
}

/// A parsed body whose givens were appended to a caller's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A Sudoku of `shape`; its `N²` givens end the buffer.
    Sudoku(Shape),
    /// A Sudoku variant of `shape`: its `N²` givens, then `fields` bytes of
    /// layout fields, end the buffer.
    Variant {
        /// The grid's shape.
        shape: Shape,
        /// Bytes of layout fields after the givens.
        fields: usize,
    },
    /// An 8- or 15-puzzle.
    Slide(Board),
}

/// Parses a request body (without its id): the work, or why it is a bad
/// request. A connection keeps a [`Parser`] instead, which reuses the grid
/// format of the previous request.
pub fn parse_body(body: &[u8]) -> Result<Work, String> {
    Parser::default().parse(body)
}

/// Parses request bodies, keeping the last grid format so that a stream of
/// same-sized Sudoku requests does not rebuild its alphabet every time.
#[derive(Default)]
pub struct Parser {
    /// The format of the last Sudoku parsed.
    format: Option<Format>,
}

impl Parser {
    /// The work in a request body (without its id), or why it is a bad
    /// request.
    pub fn parse(&mut self, body: &[u8]) -> Result<Work, String> {
        let mut givens = Vec::new();
        Ok(match self.parse_into(body, &mut givens)? {
            Parsed::Sudoku(shape) => Work::Sudoku {
                shape,
                givens: givens.into_boxed_slice(),
            },
            Parsed::Variant { shape, .. } => {
                let fields = givens.split_off(shape.cell_count());
                Work::Variant {
                    shape,
                    givens: givens.into_boxed_slice(),
                    fields: fields.into_boxed_slice(),
                }
            }
            Parsed::Slide(board) => Work::Slide(board),
        })
    }

    /// As [`Parser::parse`], but a Sudoku's givens are appended to `out`
    /// (which is left as it was on an error), so that many requests share
    /// one buffer.
    pub fn parse_into(&mut self, body: &[u8], out: &mut Vec<u8>) -> Result<Parsed, String> {
        let body = body.trim_ascii();
        if body.is_empty() {
            return Err("empty request".to_string());
        }
        match kind_of(body) {
            Kind::Slide => {
                let text = std::str::from_utf8(body).map_err(|_| "not UTF-8 text".to_string())?;
                slide::parse(text)
                    .map(Parsed::Slide)
                    .map_err(|error| error.to_string())
            }
            Kind::Sudoku => self.parse_sudoku(body, out),
        }
    }

    /// Sudoku cell text (trailing fields allowed, per SPEC §1): its shape,
    /// with its givens appended to `out`, and then its layout fields when
    /// it has any (a variant).
    fn parse_sudoku(&mut self, body: &[u8], out: &mut Vec<u8>) -> Result<Parsed, String> {
        let end = body
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b';' || b == b',')
            .unwrap_or(body.len());
        let cells = &body[..end];
        let most = DEFAULT_SYMBOLS.len();
        if cells.len() > most * most {
            return Err(format!(
                "{} cells, more than the largest grid served ({most}×{most}, one default symbol per digit)",
                cells.len()
            ));
        }
        let reusable = self
            .format
            .as_ref()
            .is_some_and(|f| cells.is_ascii() && f.shape().cell_count() == cells.len());
        if !reusable {
            let format = FormatSpec::default()
                .resolve(cells)
                .map_err(|error| error.to_string())?;
            self.format = Some(format);
        }
        let format = self.format.as_ref().expect("set just above");
        let shape = format.shape();
        let start = out.len();
        out.resize(start + shape.cell_count(), 0);
        if let Err(error) = format.parse_into(cells, &mut out[start..]) {
            out.truncate(start);
            return Err(error.to_string());
        }
        let rest = &body[end..];
        if has_layout_fields(rest) {
            out.extend_from_slice(rest);
            return Ok(Parsed::Variant {
                shape,
                fields: rest.len(),
            });
        }
        Ok(Parsed::Sudoku(shape))
    }
}

/// A worker's reusable state: one solver and one alphabet per Sudoku shape
/// met so far, the solution buffer, and how long one request may take.
#[derive(Default)]
pub struct Workspace {
    solvers: HashMap<Shape, (Box<dyn Solver>, Alphabet)>,
    /// The last variant layout met and its engine, kept while requests
    /// repeat it.
    variant: Option<(Layout, VariantSolver)>,
    solution: Vec<u8>,
    solve_timeout: Option<Duration>,
}

impl Workspace {
    /// An empty workspace without a solve timeout; solvers are made on first
    /// use of each shape.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// An empty workspace that answers `Timeout` to a request still
    /// unanswered after `timeout` (`None`: no limit): a Sudoku for the
    /// general engine or a 15-puzzle; the 9×9 and small-grid engines and the
    /// 8-puzzle always finish in about a millisecond or less.
    pub fn with_solve_timeout(timeout: Option<Duration>) -> Workspace {
        Workspace {
            solve_timeout: timeout,
            ..Workspace::default()
        }
    }

    /// A new workspace with this one's settings (after a solver failed).
    pub fn fresh(&self) -> Workspace {
        Workspace::with_solve_timeout(self.solve_timeout)
    }

    /// Answers one request line (without its line ending) and appends the
    /// reply, line ending included, to `out`. Returns what kind of reply it
    /// was.
    pub fn respond(&mut self, line: &[u8], out: &mut Vec<u8>) -> ReplyKind {
        let (id, body) = split_id(line);
        let answer = self.answer(body);
        answer.write(id, out);
        answer.kind()
    }

    /// The answer to one request body.
    pub fn answer(&mut self, body: &[u8]) -> Answer {
        match parse_body(body) {
            Ok(work) => self.answer_work(work.as_work(), None),
            Err(reason) => Answer::Bad(reason),
        }
    }

    /// The answer to parsed work, given up (`Timeout`) once the solve timeout
    /// passes or `cancel` is raised (its client has gone).
    pub fn answer_work(&mut self, work: WorkRef<'_>, cancel: Option<&Arc<AtomicBool>>) -> Answer {
        if !work.can_run_long() {
            // No clock read, no shared counter touched, for the requests
            // that always finish in about a millisecond.
            return self.answer_within(work, &Budget::unlimited());
        }
        let mut budget = match self.solve_timeout {
            Some(timeout) => Budget::until(Instant::now() + timeout),
            None => Budget::unlimited(),
        };
        if let Some(flag) = cancel {
            budget = budget.with_cancel(Arc::clone(flag));
        }
        self.answer_within(work, &budget)
    }

    /// The answer to parsed work within `budget`.
    fn answer_within(&mut self, work: WorkRef<'_>, budget: &Budget) -> Answer {
        match work {
            WorkRef::Sudoku { shape, givens } => self.answer_sudoku(shape, givens, budget),
            WorkRef::Variant {
                shape,
                givens,
                fields,
            } => self.answer_variant(shape, givens, fields, budget),
            WorkRef::Slide(board) => match slide::solve_within(&board, Goal::BlankLast, budget) {
                Some(outcome) => Answer::Solved(slide::describe(&outcome).into_bytes()),
                None => Answer::GaveUp,
            },
        }
    }

    /// Solves a Sudoku variant within `budget`; a layout whose fields do not
    /// parse or fit together is a bad request.
    fn answer_variant(
        &mut self,
        shape: Shape,
        givens: &[u8],
        fields: &[u8],
        budget: &Budget,
    ) -> Answer {
        let layout = match apply_fields(Layout::classic(shape), &String::from_utf8_lossy(fields)) {
            Ok(layout) => layout,
            Err(error) => return Answer::Bad(error.to_string()),
        };
        if self
            .variant
            .as_ref()
            .is_none_or(|(last, _)| *last != layout)
        {
            let solver = VariantSolver::new(&layout);
            self.variant = Some((layout, solver));
        }
        let (_, solver) = self.variant.as_mut().expect("set just above");
        let alphabet = Alphabet::default_for(shape.side())
            .expect("parse_body only accepts sides with default symbols");
        solve_to_answer(solver, &alphabet, givens, &mut self.solution, budget)
    }

    /// Solves a Sudoku within `budget`.
    fn answer_sudoku(&mut self, shape: Shape, givens: &[u8], budget: &Budget) -> Answer {
        let (solver, alphabet) = self.solvers.entry(shape).or_insert_with(|| {
            let alphabet = Alphabet::default_for(shape.side())
                .expect("parse_body only accepts sides with default symbols");
            (solver_for(shape), alphabet)
        });
        solve_to_answer(
            solver.as_mut(),
            alphabet,
            givens,
            &mut self.solution,
            budget,
        )
    }
}

/// The answer `solver` gives `givens` within `budget`: the first solution
/// in `alphabet`'s symbols (found into `solution`), `NoSolution`, or given
/// up.
fn solve_to_answer(
    solver: &mut dyn Solver,
    alphabet: &Alphabet,
    givens: &[u8],
    solution: &mut Vec<u8>,
    budget: &Budget,
) -> Answer {
    solution.resize(givens.len(), 0);
    let Some(outcome) = solver
        .solve_until(givens, 1, Some(solution), budget)
        .expect("parse_body yields N² in-range cells, and the buffer has N²")
    else {
        return Answer::GaveUp;
    };
    if outcome.solutions == 0 {
        return Answer::Solved(NO_SOLUTION.as_bytes().to_vec());
    }
    let mut text = Vec::with_capacity(givens.len());
    alphabet.write_cells(solution, &mut text);
    Answer::Solved(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
    const SOLUTION: &str =
        "693784512487512936125963874932651487568247391741398625319475268856129743274836159";

    fn reply(line: &str) -> String {
        let mut out = Vec::new();
        Workspace::new().respond(line.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn splits_ids_at_the_first_colon() {
        assert_eq!(split_id(b"a:b:c"), (Some(&b"a"[..]), &b"b:c"[..]));
        assert_eq!(split_id(b":x"), (Some(&b""[..]), &b"x"[..]));
        assert_eq!(split_id(b"abc"), (None, &b"abc"[..]));
    }

    #[test]
    fn answers_sudoku_with_and_without_id() {
        assert_eq!(reply(PUZZLE), format!("{SOLUTION}\r\n"));
        assert_eq!(reply(&format!("7:{PUZZLE}")), format!("7:{SOLUTION}\r\n"));
        assert_eq!(
            reply(&format!("a b:{PUZZLE} 17 clues")),
            format!("a b:{SOLUTION}\r\n")
        );
    }

    #[test]
    fn sizes_each_sudoku_on_its_own() {
        assert_eq!(reply("1...............").len(), 18);
        let six = reply("....................................");
        assert_eq!(six.trim_end().len(), 36);
    }

    #[test]
    fn contradicting_givens_have_no_solution() {
        let mut bad = PUZZLE.to_string();
        bad.replace_range(0..2, "11");
        assert_eq!(reply(&format!("9:{bad}")), "9:NoSolution\r\n");
    }

    #[test]
    fn answers_variants_from_the_layout_fields_of_the_request() {
        // Unique only with both diagonals; the plain puzzle has several solutions.
        let x = ".2.3.4.......... variant=x";
        let solved = reply(&format!("7:{x}"));
        let grid = solved.trim_end().strip_prefix("7:").unwrap();
        let puzzle: sudokit::variant::VariantPuzzle = x.parse().unwrap();
        let grid: sudokit::Puzzle = grid.parse().unwrap();
        assert!(puzzle.is_solved_by(&grid), "{solved}");
        let killer = "................ cage=4@r1c1r2c1 cage=9@r1c2r1c3r1c4 cage=7@r2c2r3c1r3c2 \
                      cage=2@r2c3 cage=7@r2c4r3c4r4c4 cage=4@r3c3r4c3 cage=7@r4c1r4c2";
        assert_eq!(reply(killer), "1243342121344312\r\n");
        let jigsaw = "...3..........24 regions=1233122311234444";
        assert_eq!(reply(jigsaw), "1243243143123124\r\n");
        // A layout that cannot hold: the worker says why.
        assert_eq!(
            reply("a:................ regions=1111122233334444"),
            "a:Bad Request: region '1' has 5 cells, every region needs 4\r\n"
        );
        assert_eq!(
            reply("................ cage=99@r1c1r1c2"),
            "Bad Request: cage 1 of 2 cells cannot sum to 99 with distinct digits 1 to 4\r\n"
        );
        // Givens against a diagonal: no solution.
        assert_eq!(reply("1....1.......... variant=x"), "NoSolution\r\n");
        // Other trailing fields are still ignored.
        assert_eq!(
            reply("...3..........24 rated 1.2"),
            reply("...3..........24")
        );
    }

    #[test]
    fn answers_sliding_puzzles() {
        assert_eq!(reply("q:123456780"), "q:\r\n");
        assert_eq!(reply("1 2 3 4 5 6 7 x 8"), "r\r\n");
        assert_eq!(reply("213456780"), "unsolvable\r\n");
        let moves = reply("2 3 4 1 5 x 7 6 8");
        assert_eq!(moves.trim_end().len(), 19);
        assert_eq!(reply("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"), "r\r\n");
    }

    #[test]
    fn reports_bad_requests_with_reasons() {
        assert_eq!(reply("7:"), "7:Bad Request: empty request\r\n");
        assert!(reply("7:12345").starts_with("7:Bad Request: "));
        assert!(reply("1 2 3").starts_with("Bad Request: 3 tiles"));
        assert!(reply(&format!("{}Z", &PUZZLE[..80]))
            .starts_with("Bad Request: unexpected 'Z' at cell 81"));
        assert!(reply("1 2 3 4 5 6 7 8 8").starts_with("Bad Request: tile 8 appears twice"));
    }

    #[test]
    fn refuses_grids_without_default_symbols() {
        let empty64 = format!("big:{}", ".".repeat(64 * 64));
        assert!(reply(&empty64).starts_with("big:Bad Request: 4096 cells, more than"));
    }

    #[test]
    fn never_panics_on_random_lines() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut workspace = Workspace::new();
        const PIECES: &[&str] = &[
            "0", "1", "9", "x", "X", ".", ":", " ", "\t", ";", ",", "15", "16", "A", "z", "é",
            "\u{feff}",
        ];
        for round in 0..20_000 {
            let line: Vec<u8> = if round % 2 == 0 {
                let len = rng.gen_range(0..300);
                (0..len).map(|_| rng.gen()).collect()
            } else {
                let len = rng.gen_range(0..120);
                (0..len)
                    .flat_map(|_| PIECES[rng.gen_range(0..PIECES.len())].bytes())
                    .collect()
            };
            // The framer never passes on a line ending.
            let line: Vec<u8> = line.into_iter().filter(|&b| b != b'\n').collect();
            let mut out = Vec::new();
            workspace.respond(&line, &mut out);
            assert!(out.ends_with(b"\r\n"));
            assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
        }
    }

    #[test]
    fn gives_up_after_the_solve_timeout() {
        // Solving the empty 25×25 grid takes thousands of guesses.
        let empty = ".".repeat(625);
        let mut out = Vec::new();
        let mut hurried = Workspace::with_solve_timeout(Some(Duration::ZERO));
        assert_eq!(
            hurried.respond(format!("t:{empty}").as_bytes(), &mut out),
            ReplyKind::GaveUp
        );
        assert_eq!(out, b"t:Timeout\r\n");
        // The 9×9 engine always finishes, whatever the timeout.
        out.clear();
        assert_eq!(
            hurried.respond(PUZZLE.as_bytes(), &mut out),
            ReplyKind::Answered
        );
        assert_eq!(out, format!("{SOLUTION}\r\n").as_bytes());
        out.clear();
        let patient = &mut Workspace::with_solve_timeout(Some(Duration::from_secs(600)));
        assert_eq!(
            patient.respond(empty.as_bytes(), &mut out),
            ReplyKind::Answered
        );
        assert_eq!(out.len(), 627);
    }

    #[test]
    fn a_reused_parser_reads_every_body_as_a_fresh_one_does() {
        let bodies = [
            PUZZLE.to_string(),
            "1...............".to_string(),
            PUZZLE.to_string(),
            format!("{}é", &PUZZLE[..80]),
            format!("{}Z", &PUZZLE[..80]),
            ".".repeat(36),
            PUZZLE.to_string(),
            "2 3 4 1 5 x 7 6 8".to_string(),
            ".".repeat(80),
        ];
        let mut parser = Parser::default();
        for body in &bodies {
            assert_eq!(
                parser.parse(body.as_bytes()),
                parse_body(body.as_bytes()),
                "{body}"
            );
        }
    }

    #[test]
    fn classifies_bodies_by_layout() {
        assert_eq!(kind_of(b"23415x768"), Kind::Slide);
        assert_eq!(kind_of(b"2 3 4 1 5 x 7 6 8"), Kind::Slide);
        assert_eq!(kind_of(b"10 2 3"), Kind::Slide);
        assert_eq!(kind_of(PUZZLE.as_bytes()), Kind::Sudoku);
        assert_eq!(kind_of(b"1..............."), Kind::Sudoku);
        assert_eq!(kind_of(b"1.2.;x"), Kind::Sudoku);
    }
}
