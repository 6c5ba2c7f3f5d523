//! `sudokit count [FILE|-|PUZZLE…]`: the exact number of solutions of each
//! puzzle (SPEC §4), each count spread over every core.

use std::io::{self, Write};
use std::process::ExitCode;

use sudokit::parse::{classify, Format, FormatError, Line, LineError, ParseError};
use sudokit::solver::count::count_solutions;

use super::{inputs_from_args, FormatArgs, LineArgs, ThreadArgs};

/// Options of `sudokit count`.
#[derive(clap::Args, Debug)]
pub struct CountArgs {
    /// A file of puzzles (one per line), `-` for standard input, or puzzles
    /// themselves. Nothing: standard input.
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    /// Stop counting at N and print `>=N`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
}

/// Runs `sudokit count`.
pub fn run(args: &CountArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let mut input = args.lines.reader(inputs_from_args(&args.inputs)?);
    let spec = args.format.spec();
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut format: Option<Format> = None;
    let mut invalid = false;
    let mut stdout = io::stdout().lock();
    let mut line = 0;
    while let Some(raw) = input.next_line()? {
        line += 1;
        let raw = match raw {
            Ok(raw) => raw,
            Err(too_long) => {
                invalid = true;
                let error = ParseError::from(too_long);
                writeln!(stdout, "{}", LineError { line, error })?;
                continue;
            }
        };
        let (id, cells) = match classify(raw) {
            Line::Skip => continue,
            Line::End => break,
            Line::Puzzle { id, cells } => (id, cells),
        };
        if format.is_none() {
            match spec.resolve(cells) {
                Ok(settled) => format = Some(settled),
                Err(FormatError::Alphabet(e)) => anyhow::bail!("--symbols: {e}"),
                Err(FormatError::Line(error)) => {
                    invalid = true;
                    writeln!(stdout, "{}", LineError { line, error })?;
                    continue;
                }
            }
        }
        let format = format.as_ref().expect("settled above");
        let puzzle = match format.parse(cells) {
            Ok(puzzle) => puzzle,
            Err(error) => {
                invalid = true;
                writeln!(stdout, "{}", LineError { line, error })?;
                continue;
            }
        };
        if let Some(id) = id {
            write!(stdout, "{id}:")?;
        }
        let count = count_solutions(format.shape(), puzzle.cells(), limit)?;
        if count >= limit {
            writeln!(stdout, ">={limit}")?;
        } else {
            writeln!(stdout, "{count}")?;
        }
        stdout.flush()?;
    }
    Ok(if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
