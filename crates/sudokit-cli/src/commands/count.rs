//! `sudokit count [FILE|PUZZLE…]`: the exact number of solutions of each
//! puzzle (SPEC §4), each count spread over every core.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use serde_json::Value;
use sudokit::analyze::AnalyzeOptions;
use sudokit::grid::{Puzzle, Shape};
use sudokit::parse::Format;
use sudokit::solver::count::{count_solutions_until, estimate_solutions, CountProgress};
use sudokit::solver::general::RESTART_LIMIT;
use sudokit::solver::{Solver, Status};
use sudokit::variant::{Layout, VariantSolver};

use super::input::{analyze_sources, locate, InputArgs, PuzzleLines};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::progress::{self, with_bar, Meter};
use super::{
    status_word, FormatArgs, LineArgs, ThreadArgs, TimeoutArgs, VariantArgs, TIMEOUT_TEXT,
};

/// Options of `sudokit count`.
#[derive(clap::Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub variant: VariantArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Stop counting at N and print `>=N`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    /// No warnings about hopeless counts and no progress bar on standard
    /// error.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Solutions beyond which an exact count is warned about: counting runs at
/// some tens of millions of solutions a second per core, so this is hours.
const HOPELESS_COUNT: f64 = 1e11;

/// Random descents behind the estimate of a puzzle's solutions.
const ESTIMATE_PROBES: u32 = 64;

/// The command's own fields, after the common ones: the count, and whether
/// counting stopped at `--limit` (the count is then a lower bound).
const FIELDS: [&str; 2] = ["count", "at_least"];

/// Runs `sudokit count`.
pub fn run(args: &CountArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut printer = Printer {
        format: args.output.format,
        columns: csv_columns(&FIELDS),
        limit,
        out: Vec::new(),
        number: 0,
        invalid: false,
        gave_up: false,
    };
    if printer.format == OutputFormat::Csv {
        write_csv_header(&printer.columns, &mut printer.out);
    }
    if limit <= RESTART_LIMIT {
        count_few(args, &mut printer)?;
    } else {
        count_exactly(args, &mut printer)?;
    }
    printer.flush()?;
    Ok(if printer.invalid || printer.gave_up {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Counts up to a small limit the way the analyzer decides a status: every
/// puzzle one restarting search, puzzles spread over the cores, answers in
/// input order (issue 20: as fast as `analyze` on the same file).
fn count_few(args: &CountArgs, printer: &mut Printer) -> anyhow::Result<()> {
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let options = AnalyzeOptions {
        spec,
        limit: printer.limit,
        max_line: args.lines.max_line,
        timeout: args.timeout.timeout,
        variant: args.variant.variant,
        ..AnalyzeOptions::default()
    };
    analyze_sources(
        sources,
        &options,
        |source, format, verdicts| {
            let shape = format.map(Format::shape);
            for verdict in verdicts {
                let counted = match &verdict.result {
                    Ok(analysis) => Ok(analysis.status.map(|_| analysis.count)),
                    Err(error) => Err(locate(source, verdict.line, error)),
                };
                printer.answer(verdict.id, verdict.cells, shape, counted);
            }
            printer.flush()
        },
        || {},
    )?;
    Ok(())
}

/// Counts every solution (or up to a large limit): one puzzle at a time,
/// each count split over every core, with a warning before a count that
/// cannot finish and a progress bar of its parts.
fn count_exactly(args: &CountArgs, printer: &mut Printer) -> anyhow::Result<()> {
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let several = sources.len() > 1;
    // One warning per run is enough to tell the user what to do.
    let mut warned = false;
    for source in sources {
        let name = several.then(|| source.name.clone());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?.with_variants();
        while let Some(entry) = puzzles.next_entry()? {
            let parsed = entry.puzzle.clone().and_then(|puzzle| {
                let layout = entry.layout(&puzzle, args.variant.variant)?;
                Ok((puzzle, layout))
            });
            let counted = match &parsed {
                Ok((puzzle, None)) => {
                    if !warned {
                        warned = warn_if_hopeless(args, puzzle, entry.line);
                    }
                    Ok(count(args, puzzle, printer.limit)?)
                }
                Ok((puzzle, Some(layout))) => {
                    Ok(count_variant(args, puzzle, layout, printer.limit))
                }
                Err(error) => Err(locate(name.as_deref(), entry.line, error)),
            };
            printer.answer(entry.id, entry.cells, entry.shape, counted);
            printer.flush()?;
        }
    }
    Ok(())
}

/// Prints counts as they come, numbering them across sources.
struct Printer {
    /// `--format`.
    format: OutputFormat,
    /// The CSV columns.
    columns: Vec<&'static str>,
    /// `--limit` (`u64::MAX` without one).
    limit: u64,
    /// Text not yet written.
    out: Vec<u8>,
    /// Records printed so far.
    number: u64,
    /// Whether a line was invalid.
    invalid: bool,
    /// Whether a count was given up at `--timeout`.
    gave_up: bool,
}

impl Printer {
    /// One answer: the count found (`None`: given up at the timeout), or
    /// the located reason a line is invalid.
    fn answer(
        &mut self,
        id: Option<&str>,
        cells: &[u8],
        shape: Option<Shape>,
        counted: Result<Option<u64>, String>,
    ) {
        self.number += 1;
        let limit = self.limit;
        let mut record = match &counted {
            Err(error) => {
                self.invalid = true;
                Record::invalid(self.number, id, Some(cells), error.clone())
            }
            Ok(None) => {
                self.gave_up = true;
                Record {
                    number: self.number,
                    id,
                    puzzle: Some(String::from_utf8_lossy(cells)),
                    status: status_word(None),
                    ..Record::default()
                }
            }
            Ok(Some(count)) => Record {
                number: self.number,
                id,
                puzzle: Some(String::from_utf8_lossy(cells)),
                status: status_word(Some(Status::from_count(*count))),
                fields: vec![
                    ("count", Value::from((*count).min(limit))),
                    ("at_least", Value::from(*count >= limit)),
                ],
                ..Record::default()
            },
        };
        record.shape = shape;
        match self.format {
            OutputFormat::Text => {
                push_id(&mut self.out, id);
                let text = match counted {
                    Ok(None) => TIMEOUT_TEXT.to_string(),
                    Ok(Some(count)) if count >= limit => format!(">={limit}"),
                    Ok(Some(count)) => count.to_string(),
                    Err(error) => escape_controls(&error).into_owned(),
                };
                self.out.extend_from_slice(text.as_bytes());
                self.out.push(b'\n');
            }
            OutputFormat::Jsonl => record.write_json(&mut self.out),
            OutputFormat::Csv => record.write_csv(&self.columns, &mut self.out),
        }
    }

    /// Writes what is printed so far.
    fn flush(&mut self) -> io::Result<()> {
        let mut stdout = io::stdout().lock();
        stdout.write_all(&self.out)?;
        self.out.clear();
        stdout.flush()
    }
}

/// Counts one puzzle's solutions up to `limit` under `--timeout` (`None`
/// when it ran out), with a bar of the parts counted on a terminal.
fn count(args: &CountArgs, puzzle: &Puzzle, limit: u64) -> anyhow::Result<Option<u64>> {
    let parts = CountProgress::default();
    let meter = Meter {
        with_total: "{bar:40} {pos}/{len} parts counted, {elapsed} elapsed, eta {eta}",
        without_total: "{spinner} splitting the search, {elapsed} elapsed",
        position: &|| parts.done.load(Ordering::Relaxed),
        total: &|| Some(parts.parts.load(Ordering::Relaxed)).filter(|&n| n > 0),
    };
    with_bar(progress::wanted(args.quiet), &meter, || {
        let budget = args.timeout.budget();
        let counted =
            count_solutions_until(puzzle.shape(), puzzle.cells(), limit, &budget, Some(&parts))?;
        Ok(counted)
    })
}

/// Counts one variant puzzle's solutions up to `limit` under `--timeout`
/// (`None` when it ran out), on one core.
fn count_variant(args: &CountArgs, puzzle: &Puzzle, layout: &Layout, limit: u64) -> Option<u64> {
    let mut solver = VariantSolver::new(layout);
    let budget = args.timeout.budget();
    // The puzzle was parsed for the layout's shape: its cells fit.
    solver
        .solve_until(puzzle.cells(), limit, None, &budget)
        .ok()
        .flatten()
        .map(|outcome| outcome.solutions)
}

/// Warns on standard error when an exact count (no `--limit`, no
/// `--timeout`) of `puzzle` cannot finish in any reasonable time, judged by
/// an estimate of its solutions; `true` when it warned.
fn warn_if_hopeless(args: &CountArgs, puzzle: &Puzzle, line: u64) -> bool {
    if args.quiet || args.limit.is_some() || args.timeout.timeout.is_some() {
        return false;
    }
    let Ok(estimate) = estimate_solutions(puzzle.shape(), puzzle.cells(), ESTIMATE_PROBES, line)
    else {
        return false;
    };
    if estimate < HOPELESS_COUNT {
        return false;
    }
    eprintln!(
        "sudokit count: warning: line {line} has about {estimate:.1e} solutions (estimated); \
         counting them all cannot finish in any reasonable time: give --limit N or --timeout SECONDS"
    );
    true
}
