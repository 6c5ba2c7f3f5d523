//! `sudokit import [FILE|LINK…]`: puzzles from f-puzzles (links, their
//! compressed data, or the JSON) as sudokit's own lines, cells then layout
//! fields, for every other command to read.
//!
//! Lines that are not f-puzzles pass through unchanged, so a file can mix
//! both; comments and blank lines are kept. A line that cannot be converted
//! (a constraint sudokit does not model, corrupt data) is reported on
//! standard error as `line N: reason`, and every other line is still
//! converted.

use std::io::{self, Write};
use std::process::ExitCode;

use sudokit::variant::fpuzzles::{looks_like_fpuzzles, parse};

use super::input::{locate, InputArgs};
use super::LineArgs;
use sudokit::lines::LineReader;

/// Options of `sudokit import`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// Files of f-puzzles links (or their data, or JSON), one per line, or
    /// links given as operands; `-` or none: standard input.
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lines: LineArgs,
}

/// Runs `sudokit import`.
pub fn run(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    let sources = args.input.open_with(looks_like_fpuzzles)?;
    let several = sources.len() > 1;
    let mut stdout = io::stdout().lock();
    let mut failed = false;
    for source in sources {
        let name = several.then(|| source.name.clone());
        let mut lines = LineReader::new(source.into_raw(), args.lines.max_line);
        let mut number = 0u64;
        while let Some(item) = lines.next_line()? {
            number += 1;
            let converted = match item {
                Err(too_long) => Err(too_long.to_string()),
                Ok(raw) => {
                    let text = String::from_utf8_lossy(raw);
                    let text = text.trim_end_matches('\r');
                    if looks_like_fpuzzles(text) {
                        parse(text.trim())
                            .map(|p| p.to_string())
                            .map_err(|e| e.to_string())
                    } else {
                        Ok(text.to_string())
                    }
                }
            };
            match converted {
                Ok(line) => writeln!(stdout, "{line}")?,
                Err(reason) => {
                    failed = true;
                    eprintln!(
                        "sudokit import: {}",
                        locate(name.as_deref(), number, &reason)
                    );
                }
            }
        }
    }
    stdout.flush()?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
