//! `sudokit slide [FILE|PUZZLE…]`: shortest solutions of 8- and 15-puzzles
//! (SPEC §6).
//!
//! Operands are read as by every command ([`InputArgs`]): files in order,
//! `-` for standard input, and an operand that names no file but reads as
//! one sliding puzzle (`sudokit slide 23415x768`) is that puzzle. Answers
//! come one per puzzle line in input order: in text, the blank's moves
//! (`u d l r`), `unsolvable`, or `line N: reason` (N the physical line,
//! blank and comment lines counted) for a line that is not a puzzle; with
//! `--format jsonl|csv`, the shared [`Record`]: `puzzle` is the tiles as
//! read, `box` is empty (a sliding puzzle has no boxes), `status` is
//! `solved`, `unsolvable` or `invalid`, then `moves` and `length` (and
//! `nodes` and `time_ms` with `--stats`). Lines are solved in parallel in
//! batches; when standard input is a terminal each line is answered as soon
//! as it is typed.
//!
//! Standard error tells what happens to the 15-puzzle databases: which are
//! built and why, how far a build has come (a bar per database on a
//! terminal, else a line every [`PROGRESS_EVERY`]), cache files ignored, and
//! a cache that cannot be written. `--quiet` keeps only the warnings.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::Value;
use sudokit::lines::TooLong;
use sudokit::parse::{classify, Line};
use sudokit::slide::{
    self, cache, moves_to_string, tiles_text, Databases, DbEvent, Goal, Outcome, SlideSolver,
};

use super::input::{locate, InputArgs, SourceLines};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::{LineArgs, ThreadArgs};

/// Lines solved together (in parallel) before their answers are written.
const BATCH: usize = 256;

/// How often a database build's progress is printed when standard error is
/// not a terminal: builds shorter than this (the 6-tile ones) print none.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// The command's own fields, after the common ones: the blank's moves and
/// their number, then (with `--stats`) nodes expanded and solving time.
const FIELDS: [&str; 4] = ["moves", "length", "nodes", "time_ms"];

/// How many of [`FIELDS`] a run prints without `--stats`.
const PLAIN_FIELDS: usize = 2;

/// Options of `sudokit slide`.
#[derive(clap::Args, Debug)]
pub struct SlideArgs {
    /// Puzzles, one per line (`2 3 4 1 5 x 7 6 8`, `23415x768`, or 16 numbers).
    #[command(flatten)]
    pub input: InputArgs,
    /// The goal has the blank first (`0 1 2 … 15`, as in Korf's 100 instances)
    /// instead of last (`1 2 … 8 x`, as in HDU 1043).
    #[arg(long)]
    pub blank_first: bool,
    /// Append the solution length, nodes expanded and solving time to every
    /// answer (tab-separated in text; `nodes` and `time_ms` fields in
    /// records), and print a summary on standard error.
    #[arg(long)]
    pub stats: bool,
    /// 15-puzzle heuristic: `7-8` pattern databases (the strongest; about
    /// 580 MB, built once in minutes and cached), `6-6-3` (11 MB, built in a
    /// second or two), or `manhattan` (no databases, slow on hard puzzles).
    /// Default: `7-8` if already cached, else `6-6-3`.
    #[arg(long, value_parser = parse_databases)]
    pub databases: Option<Databases>,
    /// Directory for cached pattern databases. Default: `$SUDOKIT_CACHE_DIR`,
    /// else `$XDG_CACHE_HOME/sudokit`, else `~/.cache/sudokit`.
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Build the pattern databases in memory, never reading or writing a cache.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,
    /// Worker threads.
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// No summary and no database build announcements or progress on
    /// standard error (warnings are still printed).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Reads a `--databases` value.
fn parse_databases(name: &str) -> Result<Databases, String> {
    [
        Databases::SevenEight,
        Databases::SixSixThree,
        Databases::Manhattan,
    ]
    .into_iter()
    .find(|d| d.name() == name)
    .ok_or_else(|| format!("unknown databases '{name}' (expected 7-8, 6-6-3 or manhattan)"))
}

/// Whether an operand that names no file is a sliding puzzle of its own: one
/// line (an optional `id:`, then tiles) that parses.
fn reads_as_puzzle(text: &str) -> bool {
    match classify(text.as_bytes()) {
        Line::Puzzle { cells, .. } => {
            !text.contains('\n') && slide::parse(&body(text.as_bytes(), cells)).is_ok()
        }
        Line::Skip | Line::End => false,
    }
}

/// A puzzle line's body: the line from where [`classify`] found its cells
/// (after any BOM, blanks and `id:`) to its end. A sliding puzzle's tiles
/// are spaced, so they run past the first field `classify` takes as cells.
fn body<'a>(raw: &'a [u8], cells: &'a [u8]) -> Cow<'a, str> {
    // `cells` lies within `raw`: its offset there is where the body starts.
    let start = cells.as_ptr() as usize - raw.as_ptr() as usize;
    String::from_utf8_lossy(&raw[start..])
}

/// One input line that holds a puzzle (or fails to).
struct Request {
    /// Its physical line number in its source (every line counted).
    line: u64,
    /// The `id:` prefix, echoed in the answer.
    id: Option<String>,
    /// The puzzle text after the id, or why the line was not read.
    body: Result<String, TooLong>,
}

/// What became of one request.
enum Answer {
    /// Solved or found unsolvable, with the time it took.
    Done(Outcome, Duration),
    /// Not a puzzle: why (the parser's message).
    Invalid(String),
}

/// Totals for `--stats`.
#[derive(Default)]
struct Totals {
    solved: usize,
    unsolvable: usize,
    invalid: usize,
    moves: usize,
    nodes: u64,
    solving: Duration,
}

/// What a run solves with and how it prints, shared by all its batches.
struct Run<'a> {
    /// The flags (`--stats`, `--format`).
    args: &'a SlideArgs,
    /// The solver, its tables built on first need.
    solver: SlideSolver,
    /// Where database events go (standard error).
    reporter: Reporter,
    /// The goal every puzzle is solved to.
    goal: Goal,
    /// The CSV header's columns.
    columns: Vec<&'static str>,
    /// Records printed so far (the last one's number).
    number: u64,
    totals: Totals,
    /// Answers not yet written.
    out: Vec<u8>,
}

/// Runs the command; exit status 0 if every line was a puzzle, 1 otherwise.
pub fn run(args: &SlideArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let sources = args.input.open_with(reads_as_puzzle)?;
    let several = sources.len() > 1;
    let fields = if args.stats {
        &FIELDS[..]
    } else {
        &FIELDS[..PLAIN_FIELDS]
    };
    let mut run = Run {
        args,
        solver: make_solver(args),
        reporter: Reporter::new(args.quiet),
        goal: if args.blank_first {
            Goal::BlankFirst
        } else {
            Goal::BlankLast
        },
        columns: csv_columns(fields),
        number: 0,
        totals: Totals::default(),
        out: Vec::new(),
    };
    if args.output.format == OutputFormat::Csv {
        write_csv_header(&run.columns, &mut run.out);
    }
    let started = Instant::now();
    for source in sources {
        let name = several.then(|| source.name.clone());
        // `-` is standard input; typed at a terminal, each line is answered
        // at once.
        let interactive = source.name == "-" && io::stdin().is_terminal();
        let batch_size = if interactive { 1 } else { BATCH };
        let mut lines = SourceLines::new(source.into_raw(), args.lines.max_line);
        let mut batch = Vec::with_capacity(batch_size);
        // Lines are read as bytes: a line that is not UTF-8 is one bad line
        // (reported with its replacement characters), not the end of the input.
        while let Some((line, item)) = lines.next_line()? {
            let (id, body) = match item {
                Ok(raw) => match classify(raw) {
                    Line::Puzzle { id, cells } => {
                        (id.map(str::to_string), Ok(body(raw, cells).into_owned()))
                    }
                    Line::Skip | Line::End => continue,
                },
                Err(too_long) => (None, Err(too_long)),
            };
            batch.push(Request { line, id, body });
            if batch.len() == batch_size {
                run.answer(name.as_deref(), &batch)?;
                batch.clear();
            }
        }
        run.answer(name.as_deref(), &batch)?;
    }
    if args.stats && !args.quiet {
        report(&run.solver, &run.totals, started.elapsed());
    }
    Ok(if run.totals.invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The solver the flags ask for.
fn make_solver(args: &SlideArgs) -> SlideSolver {
    let cache_dir = match (&args.cache_dir, args.no_cache) {
        (_, true) => None,
        (Some(dir), false) => Some(dir.clone()),
        (None, false) => cache::default_dir(),
    };
    match args.databases {
        Some(databases) => SlideSolver::new(databases, cache_dir),
        None => SlideSolver::preferred(cache_dir),
    }
}

/// Shows the library's [`DbEvent`]s on standard error, so that a build of
/// minutes does not look hung and a cache problem is not silent.
struct Reporter {
    /// The bars, when standard error is a terminal.
    bars: Option<MultiProgress>,
    /// Per database being built (by its tiles): its bar, or when its progress
    /// was last printed.
    builds: Mutex<HashMap<Vec<u8>, Build>>,
    /// `--quiet`: warnings only, no announcements or progress.
    quiet: bool,
}

/// How one database build is being shown.
enum Build {
    /// A bar on the terminal.
    Bar(ProgressBar),
    /// Lines: the time of the last one.
    Lines(Instant),
}

impl Reporter {
    /// A reporter with bars if standard error is a terminal, lines otherwise;
    /// when `quiet`, one that shows only warnings.
    fn new(quiet: bool) -> Reporter {
        Reporter {
            bars: (!quiet && io::stderr().is_terminal()).then(MultiProgress::new),
            builds: Mutex::new(HashMap::new()),
            quiet,
        }
    }

    /// Shows one event (called from the threads building databases).
    fn observe(&self, event: &DbEvent) {
        if self.quiet && !event.is_warning() {
            return;
        }
        let mut builds = self.builds.lock().unwrap_or_else(PoisonError::into_inner);
        match event {
            DbEvent::Building {
                tiles, table_bytes, ..
            } => {
                self.line(&format!("sudokit slide: {event}"));
                let build = match &self.bars {
                    Some(bars) => {
                        let style = ProgressStyle::with_template(
                            "{prefix} {bar:30} {percent:>3}%  {elapsed}",
                        )
                        .unwrap_or_else(|_| ProgressStyle::default_bar());
                        let bar = bars.add(ProgressBar::new(*table_bytes));
                        bar.set_style(style);
                        let name: Vec<String> = tiles.iter().map(u8::to_string).collect();
                        bar.set_prefix(format!("database {}", name.join("-")));
                        Build::Bar(bar)
                    }
                    None => Build::Lines(Instant::now()),
                };
                builds.insert(tiles.clone(), build);
            }
            DbEvent::Progress { tiles, done, total } => match builds.get_mut(tiles) {
                Some(Build::Bar(bar)) if done == total => {
                    bar.finish_and_clear();
                    builds.remove(tiles);
                }
                Some(Build::Bar(bar)) => bar.set_position(*done),
                Some(Build::Lines(last)) if last.elapsed() >= PROGRESS_EVERY => {
                    *last = Instant::now();
                    eprintln!("sudokit slide: {event}");
                }
                _ => {}
            },
            DbEvent::Ignored { .. } | DbEvent::Unwritable(_) => {
                self.line(&format!("sudokit slide: warning: {event}"));
            }
        }
    }

    /// Prints a line on standard error, above the bars if there are any.
    fn line(&self, text: &str) {
        match &self.bars {
            Some(bars) => bars.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }

    /// Takes any bars left (of builds that ended without a last progress
    /// report) off the terminal.
    fn finish(&self) {
        let mut builds = self.builds.lock().unwrap_or_else(PoisonError::into_inner);
        for (_, build) in builds.drain() {
            if let Build::Bar(bar) = build {
                bar.finish_and_clear();
            }
        }
    }
}

impl Run<'_> {
    /// Solves a batch of `source`'s lines in parallel and writes their
    /// answers in input order (`source`: its name when the run reads
    /// several).
    fn answer(&mut self, source: Option<&str>, batch: &[Request]) -> anyhow::Result<()> {
        let boards: Vec<Result<_, String>> = batch
            .par_iter()
            .map(|r| match &r.body {
                Ok(text) => slide::parse(text).map_err(|e| e.to_string()),
                Err(too_long) => Err(too_long.to_string()),
            })
            .collect();
        // Build or load the tables first, so that the time reported for each
        // puzzle is the time spent solving it.
        let (solver, goal) = (&self.solver, self.goal);
        let solvable = |width: usize| {
            let mut valid = boards.iter().flatten();
            valid.any(|b| b.width() == width && b.is_solvable(goal))
        };
        if solvable(3) {
            slide::eight::table();
        }
        if solvable(4) && solver.built_fifteen().is_none() {
            solver.fifteen_with(&|event| self.reporter.observe(event));
            self.reporter.finish();
        }
        let answers: Vec<Answer> = boards
            .into_par_iter()
            .map(|board| match board {
                Ok(board) => {
                    let started = Instant::now();
                    let outcome = solver.solve(&board, goal);
                    Answer::Done(outcome, started.elapsed())
                }
                Err(e) => Answer::Invalid(e),
            })
            .collect();
        for (request, answer) in batch.iter().zip(answers) {
            self.number += 1;
            self.tally(&answer);
            let record = self.record(source, request, &answer);
            match self.args.output.format {
                OutputFormat::Text => self.text(request, &answer, &record),
                OutputFormat::Jsonl => record.write_json(&mut self.out),
                OutputFormat::Csv => record.write_csv(&self.columns, &mut self.out),
            }
        }
        let mut stdout = io::stdout().lock();
        stdout.write_all(&self.out)?;
        stdout.flush()?;
        self.out.clear();
        Ok(())
    }

    /// Counts one answer in the `--stats` totals.
    fn tally(&mut self, answer: &Answer) {
        let totals = &mut self.totals;
        match answer {
            Answer::Done(Outcome::Solved(solution), elapsed) => {
                totals.solved += 1;
                totals.moves += solution.moves.len();
                totals.nodes += solution.nodes;
                totals.solving += *elapsed;
            }
            Answer::Done(Outcome::Unsolvable, _) => totals.unsolvable += 1,
            Answer::Invalid(_) => totals.invalid += 1,
        }
    }

    /// One answer as a record (`error` located by line, and by source when
    /// the run reads several).
    fn record<'a>(
        &self,
        source: Option<&str>,
        request: &'a Request,
        answer: &Answer,
    ) -> Record<'a> {
        let id = request.id.as_deref();
        let tiles = request.body.as_deref().map(tiles_text).ok();
        let (status, solution, elapsed) = match answer {
            Answer::Invalid(error) => {
                let error = locate(source, request.line, error);
                return Record::invalid(self.number, id, tiles.map(str::as_bytes), error);
            }
            Answer::Done(Outcome::Solved(solution), elapsed) => ("solved", Some(solution), elapsed),
            Answer::Done(Outcome::Unsolvable, elapsed) => ("unsolvable", None, elapsed),
        };
        let mut fields = vec![
            (
                "moves",
                solution.map_or(Value::Null, |s| moves_to_string(&s.moves).into()),
            ),
            (
                "length",
                solution.map_or(Value::Null, |s| s.moves.len().into()),
            ),
        ];
        if self.args.stats {
            fields.push(("nodes", solution.map_or(Value::Null, |s| s.nodes.into())));
            fields.push(("time_ms", Value::from(elapsed.as_secs_f64() * 1e3)));
        }
        Record {
            number: self.number,
            id,
            puzzle: tiles.map(Cow::Borrowed),
            status,
            fields,
            ..Record::default()
        }
    }

    /// One answer as text: `[id:]moves` (with `--stats`, tab-separated
    /// `length=`, `nodes=`, `time=`), `[id:]unsolvable`, or `[id:]line N:
    /// reason`, control bytes escaped.
    fn text(&mut self, request: &Request, answer: &Answer, record: &Record<'_>) {
        let out = &mut self.out;
        push_id(out, request.id.as_deref());
        match answer {
            Answer::Done(Outcome::Solved(solution), elapsed) => {
                out.extend_from_slice(moves_to_string(&solution.moves).as_bytes());
                if self.args.stats {
                    let stats = format!(
                        "\tlength={}\tnodes={}\ttime={:.3}ms",
                        solution.moves.len(),
                        solution.nodes,
                        elapsed.as_secs_f64() * 1e3
                    );
                    out.extend_from_slice(stats.as_bytes());
                }
            }
            Answer::Done(Outcome::Unsolvable, _) => out.extend_from_slice(b"unsolvable"),
            Answer::Invalid(_) => {
                let error = record.error.as_deref().unwrap_or_default();
                out.extend_from_slice(escape_controls(error).as_bytes());
            }
        }
        out.push(b'\n');
    }
}

/// The `--stats` summary on standard error.
fn report(solver: &SlideSolver, totals: &Totals, wall: Duration) {
    eprintln!(
        "slide: {} solved ({} moves, {} nodes, {:.3} s solving), {} unsolvable, {} invalid; {:.3} s wall",
        totals.solved,
        totals.moves,
        totals.nodes,
        totals.solving.as_secs_f64(),
        totals.unsolvable,
        totals.invalid,
        wall.as_secs_f64()
    );
    if let Some(fifteen) = solver.built_fifteen() {
        for db in fifteen.reports() {
            eprintln!(
                "slide: {} database {:?}: {} in {:.3} s",
                fifteen.databases().name(),
                db.tiles,
                db.origin,
                db.elapsed.as_secs_f64()
            );
        }
    }
}
