//! `sudokit rate [FILE|PUZZLE…]`: each puzzle's difficulty on Sudoku
//! Explainer's scale (ER/EP/ED) by the logic engine, with the hardest
//! technique it needed. Lines are read in batches and rated on every core
//! (the loop `hint` and `explain` share); answers come out in input order.

use std::process::ExitCode;

use serde_json::Value;
use sudokit::logic::{LogicError, Rating, Solver, TechniqueSet};
use sudokit::solver::Status;

use super::batch::{each_line, BatchArgs, Line};
use super::output::{csv_columns, escape_controls, push_id, write_csv_header, OutputFormat};
use super::{status_word, TimeoutArgs, TIMEOUT_TEXT};

/// The command's own fields, after the common ones.
const FIELDS: [&str; 6] = ["er", "ep", "ed", "hardest", "steps", "solved"];

/// The status of a puzzle rated.
const RATED: &str = "rated";

/// Options of `sudokit rate`.
#[derive(clap::Args, Debug)]
pub struct RateArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
}

/// Runs `sudokit rate`.
pub fn run(args: &RateArgs) -> anyhow::Result<ExitCode> {
    let set = args.batch.techniques.set(TechniqueSet::Explainer);
    let solver = Solver::new(set.clone());
    let columns = csv_columns(&FIELDS);
    let format = args.batch.output.format;
    let mut header = Vec::new();
    if format == OutputFormat::Csv {
        write_csv_header(&columns, &mut header);
    }
    each_line(
        &args.batch,
        &header,
        |job| match job.variant_logic(&set) {
            Some(logic) => logic.rate_within(&job.puzzle, &args.timeout.budget()),
            None => solver.rate_within(&job.puzzle, &args.timeout.budget()),
        },
        |line, rating, out| answer(line, rating, format, &columns, out),
    )
}

/// Prints one line's answer; whether it failed (invalid, not unique or
/// timed out).
fn answer(
    line: &Line,
    rating: Result<Result<Rating, LogicError>, &str>,
    format: OutputFormat,
    columns: &[&'static str],
    out: &mut Vec<u8>,
) -> bool {
    let (status, text, fields, error) = match rating {
        Err(error) => (
            "invalid",
            escape_controls(error).into_owned(),
            Vec::new(),
            Some(error.to_string()),
        ),
        Ok(Ok(r)) => (RATED, rating_text(&r), rating_fields(&r), None),
        Ok(Err(LogicError::Timeout)) => (
            status_word(None),
            TIMEOUT_TEXT.to_string(),
            Vec::new(),
            None,
        ),
        Ok(Err(LogicError::NotUnique(s))) => {
            let why = format!("cannot rate: {}", LogicError::NotUnique(s));
            (status_word(Some(s)), why.clone(), Vec::new(), Some(why))
        }
        Ok(Err(e @ LogicError::Contradiction(_))) => {
            let why = format!("cannot rate: {e}");
            (
                status_word(Some(Status::None)),
                why.clone(),
                Vec::new(),
                Some(why),
            )
        }
    };
    match format {
        OutputFormat::Text => {
            push_id(out, line.id.as_deref());
            out.extend_from_slice(text.as_bytes());
            out.push(b'\n');
        }
        format => {
            let mut record = line.record();
            record.status = status;
            record.fields = fields;
            record.error = error;
            if format == OutputFormat::Jsonl {
                record.write_json(out);
            } else {
                record.write_csv(columns, out);
            }
        }
    }
    status != RATED
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
