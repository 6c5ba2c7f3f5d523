//! `sudokit slide [FILE|-]`: shortest solutions of 8- and 15-puzzles (SPEC §6).
//!
//! Reads one puzzle per line, answers one line per puzzle in input order:
//! the blank's moves (`u d l r`), `unsolvable`, or `line N: reason` for a line
//! that is not a puzzle. Lines are solved in parallel in batches; when the input
//! is a terminal each line is answered as soon as it is typed.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use rayon::prelude::*;
use sudokit::lines::TooLong;
use sudokit::slide::{self, cache, moves_to_string, Databases, Goal, Outcome, SlideSolver};

use super::{open_input, LineArgs, ThreadArgs};

/// Lines solved together (in parallel) before their answers are written.
const BATCH: usize = 256;

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
            answer(&solver, goal, args.stats, &batch, &mut out, &mut totals)?;
            batch.clear();
        }
    }
    answer(&solver, goal, args.stats, &batch, &mut out, &mut totals)?;
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
    let databases = args
        .databases
        .unwrap_or_else(|| Databases::preferred(cache_dir.as_deref()));
    SlideSolver::new(databases, cache_dir)
}

/// Says on standard error that the 7-8 databases are about to be built: the
/// one wait of minutes this command can make, so it should not look hung.
fn warn_if_slow_build(solver: &SlideSolver) {
    let cache = solver.cache_dir();
    if solver.built_fifteen().is_none()
        && solver.databases() == Databases::SevenEight
        && Databases::preferred(cache) != Databases::SevenEight
    {
        let place = cache.map_or("in memory only".to_string(), |dir| {
            format!("cached in {}", dir.display())
        });
        eprintln!("sudokit slide: building the 7-8 pattern databases: minutes, once ({place})");
    }
}

/// Solves a batch in parallel and writes its answers in input order.
fn answer(
    solver: &SlideSolver,
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
    if solvable(4) {
        warn_if_slow_build(solver);
        solver.fifteen();
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
