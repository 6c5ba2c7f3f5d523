//! `sudokit count [FILE|PUZZLE…]`: the exact number of solutions of each
//! puzzle (SPEC §4), each count spread over every core.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use serde_json::Value;
use sudokit::grid::Puzzle;
use sudokit::solver::count::{count_solutions_until, estimate_solutions, CountProgress};
use sudokit::solver::Status;

use super::input::{locate, InputArgs, PuzzleLines};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::progress::{self, with_bar, Meter};
use super::{status_word, FormatArgs, LineArgs, ThreadArgs, TimeoutArgs, TIMEOUT_TEXT};

/// Options of `sudokit count`.
#[derive(clap::Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub format: FormatArgs,
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
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let several = sources.len() > 1;
    let limit = args.limit.unwrap_or(u64::MAX);
    let format = args.output.format;
    let columns = csv_columns(&FIELDS);
    let mut out = Vec::new();
    if format == OutputFormat::Csv {
        write_csv_header(&columns, &mut out);
    }
    let mut stdout = io::stdout().lock();
    let (mut number, mut invalid, mut gave_up) = (0u64, false, false);
    // One warning per run is enough to tell the user what to do.
    let mut exact_warned = false;
    for source in sources {
        let name = several.then(|| source.name.clone());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?;
        while let Some(entry) = puzzles.next_entry()? {
            number += 1;
            if let (Ok(puzzle), false) = (&entry.puzzle, exact_warned) {
                exact_warned = warn_if_hopeless(args, puzzle, entry.line);
            }
            let counted = match &entry.puzzle {
                Ok(puzzle) => Ok(count(args, puzzle, limit)?),
                Err(error) => Err(error),
            };
            let mut record = match &counted {
                Err(error) => {
                    invalid = true;
                    let error = locate(name.as_deref(), entry.line, error);
                    Record::invalid(number, entry.id, Some(entry.cells), error)
                }
                Ok(None) => {
                    gave_up = true;
                    Record {
                        number,
                        id: entry.id,
                        puzzle: Some(String::from_utf8_lossy(entry.cells)),
                        status: status_word(None),
                        ..Record::default()
                    }
                }
                Ok(Some(count)) => Record {
                    number,
                    id: entry.id,
                    puzzle: Some(String::from_utf8_lossy(entry.cells)),
                    status: status_word(Some(Status::from_count(*count))),
                    fields: vec![
                        ("count", Value::from(*count)),
                        ("at_least", Value::from(*count >= limit)),
                    ],
                    ..Record::default()
                },
            };
            record.shape = entry.shape;
            match format {
                OutputFormat::Text => {
                    push_id(&mut out, entry.id);
                    let text = match counted {
                        Ok(None) => TIMEOUT_TEXT.to_string(),
                        Ok(Some(count)) if count >= limit => format!(">={count}"),
                        Ok(Some(count)) => count.to_string(),
                        Err(_) => escape_controls(record.error.as_deref().unwrap_or_default())
                            .into_owned(),
                    };
                    out.extend_from_slice(text.as_bytes());
                    out.push(b'\n');
                }
                OutputFormat::Jsonl => record.write_json(&mut out),
                OutputFormat::Csv => record.write_csv(&columns, &mut out),
            }
            stdout.write_all(&out)?;
            stdout.flush()?;
            out.clear();
        }
    }
    stdout.write_all(&out)?;
    Ok(if invalid || gave_up {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
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
