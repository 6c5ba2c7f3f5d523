//! `sudokit hint [FILE|PUZZLE…]`: the next step a person would take on each
//! puzzle, in words and as a record.

use std::io::{self, Write};
use std::process::ExitCode;

use sudokit::logic::{Solver, TechniqueSet};

use super::explain::{refusal, step_json};
use super::input::{locate, InputArgs, PuzzleLines};
use super::output::{escape_controls, push_id, OutputArgs, OutputFormat, Record};
use super::{FormatArgs, LineArgs, TechniqueArgs};

/// Options of `sudokit hint`.
#[derive(clap::Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub techniques: TechniqueArgs,
}

/// What `hint` says when no technique applies (or the grid is full).
const NO_HINT: &str = "No step found";

/// Runs `sudokit hint`.
pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let several = sources.len() > 1;
    let solver = Solver::new(args.techniques.set(TechniqueSet::Human));
    let mut stdout = io::stdout().lock();
    let (mut number, mut failed) = (0u64, false);
    for source in sources {
        let shown = several.then(|| source.name.clone());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?;
        while let Some(entry) = puzzles.next_entry()? {
            number += 1;
            let cells = String::from_utf8_lossy(entry.cells).into_owned();
            let mut record = Record {
                number,
                id: entry.id,
                puzzle: Some(cells.as_str().into()),
                shape: entry.shape,
                ..Record::default()
            };
            let (status, text) = match &entry.puzzle {
                Err(error) => {
                    let why = locate(shown.as_deref(), entry.line, error);
                    record.error = Some(why.clone());
                    ("invalid", why)
                }
                Ok(puzzle) => match solver.hint(puzzle) {
                    Ok(Some(step)) => {
                        record.fields = vec![("step", step_json(&step))];
                        ("hint", step.to_string())
                    }
                    Ok(None) => ("stuck", NO_HINT.to_string()),
                    Err(error) => {
                        let (status, why) = refusal(&error);
                        record.error = Some(why.clone());
                        (status, why)
                    }
                },
            };
            failed |= status != "hint";
            record.status = status;
            let mut out = Vec::new();
            match args.output.format {
                OutputFormat::Text => {
                    push_id(&mut out, record.id);
                    out.extend_from_slice(escape_controls(&text).as_bytes());
                    out.push(b'\n');
                }
                OutputFormat::Jsonl => record.write_json(&mut out),
                OutputFormat::Csv => record.write_csv(&[], &mut out),
            }
            stdout.write_all(&out)?;
            stdout.flush()?;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
