//! `sudokit rate [FILE|PUZZLE…]`: each puzzle's difficulty on Sudoku
//! Explainer's scale (ER/EP/ED) by the logic engine, with the hardest
//! technique it needed. Lines are read in batches and rated on every core;
//! answers come out in input order.

use std::io::{self, Write};
use std::process::ExitCode;

use rayon::prelude::*;
use serde_json::Value;
use sudokit::logic::{LogicError, Rating, Solver, TechniqueSet};
use sudokit::solver::Status;

use super::input::{locate, InputArgs, PuzzleLines};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::{
    status_word, FormatArgs, LineArgs, TechniqueArgs, ThreadArgs, TimeoutArgs, TIMEOUT_TEXT,
};

/// Lines rated together in parallel before their answers print.
const BATCH_LINES: usize = 256;

/// The command's own fields, after the common ones.
const FIELDS: [&str; 6] = ["er", "ep", "ed", "hardest", "steps", "solved"];

/// The status of a puzzle rated.
const RATED: &str = "rated";

/// Options of `sudokit rate`.
#[derive(clap::Args, Debug)]
pub struct RateArgs {
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
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    #[command(flatten)]
    pub techniques: TechniqueArgs,
}

/// One input line waiting for its rating.
struct Pending {
    /// Its number in the run.
    number: u64,
    /// Its id, if any.
    id: Option<String>,
    /// Its cell text as read.
    cells: String,
    /// Its puzzle, or where and why it is invalid.
    parsed: Result<sudokit::Puzzle, String>,
}

/// Runs `sudokit rate`.
pub fn run(args: &RateArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let several = sources.len() > 1;
    let solver = Solver::new(args.techniques.set(TechniqueSet::Explainer));
    let columns = csv_columns(&FIELDS);
    let mut stdout = io::stdout().lock();
    if args.output.format == OutputFormat::Csv {
        let mut header = Vec::new();
        write_csv_header(&columns, &mut header);
        stdout.write_all(&header)?;
    }
    let printer = Printer {
        solver,
        timeout: &args.timeout,
        output: args.output.format,
        columns,
    };
    let (mut number, mut failed) = (0u64, false);
    let mut batch = Vec::with_capacity(BATCH_LINES);
    for source in sources {
        let shown = several.then(|| source.name.clone());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?;
        while let Some(entry) = puzzles.next_entry()? {
            number += 1;
            batch.push(Pending {
                number,
                id: entry.id.map(str::to_string),
                cells: String::from_utf8_lossy(entry.cells).into_owned(),
                parsed: entry
                    .puzzle
                    .map_err(|error| locate(shown.as_deref(), entry.line, &error)),
            });
            if batch.len() == BATCH_LINES {
                failed |= printer.answer(&mut batch, &mut stdout)?;
            }
        }
    }
    failed |= printer.answer(&mut batch, &mut stdout)?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// How ratings are made and printed.
struct Printer<'a> {
    /// The logic solver.
    solver: Solver,
    /// `--timeout`.
    timeout: &'a TimeoutArgs,
    /// `--format`.
    output: OutputFormat,
    /// The CSV columns.
    columns: Vec<&'static str>,
}

impl Printer<'_> {
    /// Rates a batch in parallel and prints its answers in order; returns
    /// whether any line was invalid, not unique or timed out.
    fn answer(&self, batch: &mut Vec<Pending>, out: &mut impl Write) -> io::Result<bool> {
        let ratings: Vec<Option<Result<Rating, LogicError>>> = batch
            .par_iter()
            .map(|p| {
                let puzzle = p.parsed.as_ref().ok()?;
                Some(self.solver.rate_within(puzzle, &self.timeout.budget()))
            })
            .collect();
        let mut failed = false;
        let mut text = Vec::new();
        for (pending, rating) in batch.iter().zip(ratings) {
            let id = pending.id.as_deref();
            let (status, line, fields, error) = match (&pending.parsed, rating) {
                (Err(error), _) => (
                    "invalid",
                    escape_controls(error).into_owned(),
                    Vec::new(),
                    Some(error.clone()),
                ),
                (Ok(_), Some(Ok(r))) => (RATED, rating_text(&r), rating_fields(&r), None),
                (Ok(_), Some(Err(LogicError::Timeout)) | None) => (
                    status_word(None),
                    TIMEOUT_TEXT.to_string(),
                    Vec::new(),
                    None,
                ),
                (Ok(_), Some(Err(LogicError::NotUnique(s)))) => {
                    let why = format!("cannot rate: {}", LogicError::NotUnique(s));
                    (status_word(Some(s)), why.clone(), Vec::new(), Some(why))
                }
                (Ok(_), Some(Err(e @ LogicError::Contradiction(_)))) => {
                    let why = format!("cannot rate: {e}");
                    (
                        status_word(Some(Status::None)),
                        why.clone(),
                        Vec::new(),
                        Some(why),
                    )
                }
            };
            failed |= status != RATED;
            match self.output {
                OutputFormat::Text => {
                    push_id(&mut text, id);
                    text.extend_from_slice(line.as_bytes());
                    text.push(b'\n');
                }
                format => {
                    let record = Record {
                        number: pending.number,
                        id,
                        puzzle: Some(pending.cells.as_str().into()),
                        shape: pending.parsed.as_ref().ok().map(|p| p.shape()),
                        status,
                        fields,
                        error,
                    };
                    if format == OutputFormat::Jsonl {
                        record.write_json(&mut text);
                    } else {
                        record.write_csv(&self.columns, &mut text);
                    }
                }
            }
        }
        batch.clear();
        out.write_all(&text)?;
        out.flush()?;
        Ok(failed)
    }
}

/// The text answer: `ER/EP/ED hardest`, e.g. `7.3/1.5/1.2 Forcing Chain`,
/// with `(stuck)` when the techniques ran out before the end.
pub(super) fn rating_text(r: &Rating) -> String {
    let mut text = format!("{}/{}/{}", r.er, r.ep, r.ed);
    if let Some(hardest) = &r.hardest {
        text.push(' ');
        text.push_str(hardest);
    }
    if !r.solved {
        text.push_str(" (stuck)");
    }
    text
}

/// The record fields of a rating, in [`FIELDS`] order (shared with
/// `sudokit generate`).
pub(super) fn rating_fields(r: &Rating) -> Vec<(&'static str, Value)> {
    let number = |d: sudokit::logic::Difficulty| {
        serde_json::Number::from_f64(d.as_f64()).map_or(Value::Null, Value::Number)
    };
    vec![
        ("er", number(r.er)),
        ("ep", number(r.ep)),
        ("ed", number(r.ed)),
        (
            "hardest",
            r.hardest.clone().map_or(Value::Null, Value::String),
        ),
        ("steps", Value::from(r.steps)),
        ("solved", Value::Bool(r.solved)),
    ]
}
