//! `sudokit explain [FILE|PUZZLE…]`: the whole logical solution of each
//! puzzle, step by step, each with its technique, difficulty and reason,
//! then the grid reached and the rating. Puzzles are worked on every core;
//! answers come out in input order.

use std::process::ExitCode;

use serde_json::{json, Value};
use sudokit::logic::{LogicError, Solver, Step, TechniqueSet};
use sudokit::solver::Status;

use super::batch::{each_line, BatchArgs};
use super::output::{escape_controls, push_id, OutputFormat, Record};
use super::{status_word, TimeoutArgs, TIMEOUT_TEXT};

/// Options of `sudokit explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    /// Print the pencil marks before each step: the grid it applies to,
    /// each empty cell with the digits still possible (text output).
    #[arg(long)]
    pub pretty: bool,
}

/// A step as a record field: its technique, pattern name, difficulty,
/// placements (`r3c5=7`), eliminations (`r1c2<>4`), pattern cells, reason
/// and the whole sentence.
pub fn step_json(step: &Step) -> Value {
    let side = step.side;
    let name = |c: usize| sudokit::logic::cell_name(side, c);
    json!({
        "technique": step.technique.name(),
        "name": step.name,
        "difficulty": step.difficulty.as_f64(),
        "placements": step.placements.iter().map(|p| format!("{}={}", name(p.cell), p.digit)).collect::<Vec<_>>(),
        "eliminations": step.eliminations.iter().map(|e| format!("{}<>{}", name(e.cell), e.digit)).collect::<Vec<_>>(),
        "cells": step.cells.iter().map(|&c| name(c)).collect::<Vec<_>>(),
        "reason": step.reason,
        "text": step.to_string(),
    })
}

/// Why a puzzle cannot be explained, as a status word and a sentence.
pub fn refusal(error: &LogicError) -> (&'static str, String) {
    match error {
        LogicError::Timeout => (status_word(None), TIMEOUT_TEXT.to_string()),
        LogicError::NotUnique(status) => (
            status_word(Some(*status)),
            format!("cannot explain: {error}"),
        ),
        LogicError::Contradiction(_) => (
            status_word(Some(Status::None)),
            format!("cannot explain: {error}"),
        ),
    }
}

/// Runs `sudokit explain`.
pub fn run(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let set = args.batch.techniques.set(TechniqueSet::Human);
    let solver = Solver::new(set.clone());
    let format = args.batch.output.format;
    let pencil = args.pretty && format == OutputFormat::Text;
    each_line(
        &args.batch,
        &[],
        |job| {
            let mut steps = Vec::new();
            let budget = args.timeout.budget();
            let mut visit = |marks: &dyn Fn() -> String, step: &Step| {
                steps.push((pencil.then(marks), step.clone()))
            };
            let end = match job.variant_logic(&set) {
                Some(logic) => logic
                    .walk(&job.puzzle, &budget, |grid, step| {
                        visit(&|| grid.to_string(), step)
                    })
                    .map(|end| Ending {
                        grid: end.to_puzzle().to_string(),
                        solved: end.is_solved(),
                    }),
                None => solver
                    .walk(&job.puzzle, &budget, |grid, step| {
                        visit(&|| grid.to_string(), step)
                    })
                    .map(|end| Ending {
                        grid: end.to_puzzle().to_string(),
                        solved: end.is_solved(),
                    }),
            };
            end.map(|end| (steps, end))
        },
        |line, path, out| {
            let record = line.record();
            match path {
                Err(why) => {
                    write_refusal(format, record, "invalid", why, out);
                    true
                }
                Ok(Ok((steps, end))) => {
                    write_path(format, record, &steps, &end, out);
                    !end.solved
                }
                Ok(Err(error)) => {
                    let (status, why) = refusal(&error);
                    write_refusal(format, record, status, &why, out);
                    true
                }
            }
        },
    )
}

/// Where the steps of a puzzle lead: the grid reached, and whether it is full.
struct Ending {
    grid: String,
    solved: bool,
}

/// Writes a puzzle that could not be explained.
fn write_refusal(
    format: OutputFormat,
    mut record: Record<'_>,
    status: &'static str,
    why: &str,
    out: &mut Vec<u8>,
) {
    if format == OutputFormat::Text {
        push_id(out, record.id);
        out.extend_from_slice(escape_controls(why).as_bytes());
        out.push(b'\n');
        return;
    }
    record.status = status;
    record.error = Some(why.to_string());
    write_record(format, &record, out);
}

/// Writes a record as JSON or CSV (CSV has the common columns only).
fn write_record(format: OutputFormat, record: &Record<'_>, out: &mut Vec<u8>) {
    if format == OutputFormat::Jsonl {
        record.write_json(out);
    } else {
        record.write_csv(&[], out);
    }
}

/// Writes the steps of a puzzle and where they lead: numbered lines
/// `3. [2.6] Pointing: … => r1c2<>4` (each after its pencil marks with
/// `--pretty`) then `solved: <grid>` (or `stuck:` with the grid reached)
/// as text; one record with the `steps` list, the `grid` and ER/EP/ED
/// otherwise.
fn write_path(
    format: OutputFormat,
    mut record: Record<'_>,
    steps: &[(Option<String>, Step)],
    end: &Ending,
    out: &mut Vec<u8>,
) {
    let grid = &end.grid;
    let status = if end.solved { "solved" } else { "stuck" };
    if format == OutputFormat::Text {
        for (index, (marks, step)) in steps.iter().enumerate() {
            if let Some(marks) = marks {
                out.push(b'\n');
                out.extend_from_slice(marks.as_bytes());
            }
            push_id(out, record.id);
            let line = format!("{}. [{}] {step}\n", index + 1, step.difficulty);
            out.extend_from_slice(line.as_bytes());
        }
        push_id(out, record.id);
        out.extend_from_slice(format!("{status}: {grid}\n").as_bytes());
        return;
    }
    let hardest = steps
        .iter()
        .map(|(_, s)| s.difficulty)
        .max()
        .unwrap_or_default();
    record.status = status;
    record.fields = vec![
        (
            "steps",
            Value::Array(steps.iter().map(|(_, s)| step_json(s)).collect()),
        ),
        ("grid", Value::String(grid.clone())),
        ("hardest", json!(hardest.as_f64())),
    ];
    write_record(format, &record, out);
}
