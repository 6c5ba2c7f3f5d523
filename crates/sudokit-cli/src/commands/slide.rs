//! `sudokit slide [FILE|-]`: shortest solutions of 8- and 15-puzzles (SPEC §6).
//!
//! Reads one puzzle per line, answers one line per puzzle in input order:
//! the blank's moves (`u d l r`), `unsolvable`, or `line N: reason` for a line
//! that is not a puzzle. Lines are solved in parallel in batches; when the input
//! is a terminal each line is answered as soon as it is typed.
//!
//! Standard error tells what happens to the 15-puzzle databases: which are
//! built and why, how far a build has come (a bar per database on a
//! terminal, else a line every [`PROGRESS_EVERY`]), cache files ignored, and
//! a cache that cannot be written.

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sudokit::lines::TooLong;
use sudokit::slide::{
    self, cache, moves_to_string, Databases, DbEvent, Goal, Outcome, SlideSolver,
};

use super::{open_input, LineArgs, ThreadArgs};

/// Lines solved together (in parallel) before their answers are written.
const BATCH: usize = 256;

/// How often a database build's progress is printed when standard error is
/// not a terminal: builds shorter than this (the 6-tile ones) print none.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Options of `sudokit slide`.
#[derive(clap::Args, Debug)]
pub struct SlideArgs {
    /// Puzzles, one per line (`2 3 4 1 5 x 7 6 8`, `23415x768`, or 16 numbers);
    /// `-` or nothing for standard input.
    pub input: Option<PathBuf>,
    /// The goal has the blank first (`0 1 2 … 15`, as in Korf's 100 instances)
    /// instead of last (`1 2 … 8 x`, as in HDU 1043).
    #[arg(long)]
    pub blank_first: bool,
    /// Append the solution length, nodes expanded and solving time to every
    /// answer (tab-separated), and print a summary on standard error.
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

/// One input line that holds a puzzle (or fails to).
struct Request {
    /// 1-based number among puzzle lines (comments and blank lines not counted).
    number: usize,
    /// The `id:` prefix, echoed in the answer.
    id: Option<String>,
    /// The puzzle text after the id, or why the line was not read.
    body: Result<String, TooLong>,
}

/// What became of one request.
enum Answer {
    /// Solved or found unsolvable, with the time it took.
    Done(Outcome, Duration),
    /// Not a puzzle: the message to print.
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

/// Runs the command; exit status 0 if every line was a puzzle, 1 otherwise.
pub fn run(args: &SlideArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let from_file = args.input.as_ref().filter(|path| path.as_os_str() != "-");
    let mut input = args
        .lines
        .reader(open_input(from_file.map(PathBuf::as_path))?);
    let interactive = from_file.is_none() && io::stdin().is_terminal();
    let batch_size = if interactive { 1 } else { BATCH };
    let solver = make_solver(args);
    let reporter = Reporter::new();
    let goal = if args.blank_first {
        Goal::BlankFirst
    } else {
        Goal::BlankLast
    };
    let started = Instant::now();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut totals = Totals::default();
    let mut batch = Vec::with_capacity(batch_size);
    let mut number = 0;
    // Lines are read as bytes: a line that is not UTF-8 is one bad line
    // (reported with its replacement characters), not the end of the input.
    while let Some(line) = input.next_line().context("cannot read input")? {
        let (id, body) = match line {
            Ok(line) => {
                let line = String::from_utf8_lossy(line);
                let text = line.trim();
                if text == "end" {
                    break;
                }
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                match text.split_once(':') {
                    Some((id, body)) => (Some(id.to_string()), Ok(body.to_string())),
                    None => (None, Ok(text.to_string())),
                }
            }
            Err(too_long) => (None, Err(too_long)),
        };
        number += 1;
        batch.push(Request { number, id, body });
        if batch.len() == batch_size {
            answer(
                &solver,
                &reporter,
                goal,
                args.stats,
                &batch,
                &mut out,
                &mut totals,
            )?;
            batch.clear();
        }
    }
    answer(
        &solver,
        &reporter,
        goal,
        args.stats,
        &batch,
        &mut out,
        &mut totals,
    )?;
    out.flush().context("cannot write output")?;
    if args.stats {
        report(&solver, &totals, started.elapsed());
    }
    Ok(if totals.invalid == 0 {
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
}

/// How one database build is being shown.
enum Build {
    /// A bar on the terminal.
    Bar(ProgressBar),
    /// Lines: the time of the last one.
    Lines(Instant),
}

impl Reporter {
    /// A reporter with bars if standard error is a terminal, lines otherwise.
    fn new() -> Reporter {
        Reporter {
            bars: io::stderr().is_terminal().then(MultiProgress::new),
            builds: Mutex::new(HashMap::new()),
        }
    }

    /// Shows one event (called from the threads building databases).
    fn observe(&self, event: &DbEvent) {
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

/// Solves a batch in parallel and writes its answers in input order.
fn answer(
    solver: &SlideSolver,
    reporter: &Reporter,
    goal: Goal,
    stats: bool,
    batch: &[Request],
    out: &mut impl Write,
    totals: &mut Totals,
) -> anyhow::Result<()> {
    let boards: Vec<Result<_, String>> = batch
        .par_iter()
        .map(|r| match &r.body {
            Ok(text) => slide::parse(text).map_err(|e| e.to_string()),
            Err(too_long) => Err(too_long.to_string()),
        })
        .collect();
    // Build or load the tables first, so that the time reported for each
    // puzzle is the time spent solving it.
    let solvable = |width: usize| {
        let mut valid = boards.iter().flatten();
        valid.any(|b| b.width() == width && b.is_solvable(goal))
    };
    if solvable(3) {
        slide::eight::table();
    }
    if solvable(4) && solver.built_fifteen().is_none() {
        solver.fifteen_with(&|event| reporter.observe(event));
        reporter.finish();
    }
    let answers: Vec<Answer> = boards
        .into_par_iter()
        .zip(batch)
        .map(|(board, request)| match board {
            Ok(board) => {
                let started = Instant::now();
                let outcome = solver.solve(&board, goal);
                Answer::Done(outcome, started.elapsed())
            }
            Err(e) => Answer::Invalid(format!("line {}: {e}", request.number)),
        })
        .collect();
    for (request, answer) in batch.iter().zip(answers) {
        if let Some(id) = &request.id {
            write!(out, "{id}:")?;
        }
        match answer {
            Answer::Done(Outcome::Solved(solution), elapsed) => {
                write!(out, "{}", moves_to_string(&solution.moves))?;
                if stats {
                    write!(
                        out,
                        "\tlength={}\tnodes={}\ttime={:.3}ms",
                        solution.moves.len(),
                        solution.nodes,
                        elapsed.as_secs_f64() * 1e3
                    )?;
                }
                totals.solved += 1;
                totals.moves += solution.moves.len();
                totals.nodes += solution.nodes;
                totals.solving += elapsed;
            }
            Answer::Done(Outcome::Unsolvable, _) => {
                write!(out, "unsolvable")?;
                totals.unsolvable += 1;
            }
            Answer::Invalid(message) => {
                write!(out, "{message}")?;
                totals.invalid += 1;
            }
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(())
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
