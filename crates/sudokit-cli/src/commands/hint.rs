//! `sudokit hint [FILE|PUZZLE…]`: the next step a person would take on each
//! puzzle, in words and as a record. Puzzles are worked on every core;
//! answers come out in input order.

use std::process::ExitCode;

use sudokit::logic::{Solver, TechniqueSet};

use super::batch::{each_line, BatchArgs};
use super::explain::{refusal, step_json};
use super::output::{escape_controls, push_id, OutputFormat};

/// Options of `sudokit hint`.
#[derive(clap::Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// What `hint` says when no technique applies (or the grid is full).
const NO_HINT: &str = "No step found";

/// Runs `sudokit hint`.
pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let set = args.batch.techniques.set(TechniqueSet::Human);
    let solver = Solver::new(set.clone());
    let format = args.batch.output.format;
    each_line(
        &args.batch,
        &[],
        |job| match job.variant_logic(&set) {
            Some(logic) => logic.hint(&job.puzzle),
            None => solver.hint(&job.puzzle),
        },
        |line, hint, out| {
            let mut record = line.record();
            let (status, text) = match hint {
                Err(why) => {
                    record.error = Some(why.to_string());
                    ("invalid", why.to_string())
                }
                Ok(Ok(Some(step))) => {
                    record.fields = vec![("step", step_json(&step))];
                    ("hint", step.to_string())
                }
                Ok(Ok(None)) => ("stuck", NO_HINT.to_string()),
                Ok(Err(error)) => {
                    let (status, why) = refusal(&error);
                    record.error = Some(why.clone());
                    (status, why)
                }
            };
            record.status = status;
            match format {
                OutputFormat::Text => {
                    push_id(out, record.id);
                    out.extend_from_slice(escape_controls(&text).as_bytes());
                    out.push(b'\n');
                }
                OutputFormat::Jsonl => record.write_json(out),
                OutputFormat::Csv => record.write_csv(&[], out),
            }
            status != "hint"
        },
    )
}
