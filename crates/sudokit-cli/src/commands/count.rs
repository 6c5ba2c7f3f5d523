//! `sudokit count [FILE|PUZZLE…]`: the exact number of solutions of each
//! puzzle (SPEC §4), each count spread over every core.

use std::io::{self, Write};
use std::process::ExitCode;

use serde_json::Value;
use sudokit::solver::count::count_solutions;
use sudokit::solver::Status;

use super::input::{locate, InputArgs, PuzzleLines};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::{status_word, FormatArgs, LineArgs, ThreadArgs};

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
}

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
    let (mut number, mut invalid) = (0u64, false);
    for source in sources {
        let name = several.then(|| source.name.clone());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?;
        while let Some(entry) = puzzles.next_entry()? {
            number += 1;
            let counted = entry
                .puzzle
                .as_ref()
                .map(|p| count_solutions(p.shape(), p.cells(), limit));
            let mut record = match &counted {
                Err(error) => {
                    invalid = true;
                    let error = locate(name.as_deref(), entry.line, error);
                    Record::invalid(number, entry.id, Some(entry.cells), error)
                }
                Ok(count) => Record {
                    number,
                    id: entry.id,
                    puzzle: Some(String::from_utf8_lossy(entry.cells)),
                    status: status_word(Status::from_count(*count)),
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
                        Ok(count) if count >= limit => format!(">={count}"),
                        Ok(count) => count.to_string(),
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
    Ok(if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
