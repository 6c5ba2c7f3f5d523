//! `sudokit canon [FILE|-|PUZZLE…]`: the canonical (minimum-lexicographic)
//! form of each 9×9 puzzle or grid (SPEC §8), the same for every puzzle of an
//! equivalence class. Lines are read in batches and canonicalised on every
//! core; answers come out in input order.

use std::io::{self, Write};
use std::process::ExitCode;

use rayon::prelude::*;
use sudokit::canon::canonical_form;
use sudokit::grid::Shape;
use sudokit::parse::{classify, Format, Line, LineError, ParseError};

use super::{inputs_from_args, LineArgs, ThreadArgs};

/// Lines canonicalised together in parallel before their answers print.
const BATCH_LINES: usize = 4096;

/// Options of `sudokit canon`.
#[derive(clap::Args, Debug)]
pub struct CanonArgs {
    /// A file of 9×9 puzzles (one per line), `-` for standard input, or
    /// puzzles themselves. Nothing: standard input.
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub lines: LineArgs,
}

/// One input line waiting for its answer.
struct Pending {
    line: u64,
    id: Option<String>,
    cells: Result<[u8; 81], ParseError>,
}

/// Runs `sudokit canon`.
pub fn run(args: &CanonArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let mut input = args.lines.reader(inputs_from_args(&args.inputs)?);
    let format = Format::new(Shape::new(3, 3)?, None)?;
    let mut stdout = io::stdout().lock();
    let mut invalid = false;
    let mut batch: Vec<Pending> = Vec::with_capacity(BATCH_LINES);
    let mut line = 0;
    while let Some(raw) = input.next_line()? {
        line += 1;
        let (id, parsed) = match raw.map(classify) {
            Ok(Line::Skip) => continue,
            Ok(Line::End) => break,
            Ok(Line::Puzzle { id, cells: text }) => {
                let mut cells = [0u8; 81];
                let parsed = format.parse_into(text, &mut cells).map(|()| cells);
                (id.map(str::to_string), parsed)
            }
            Err(too_long) => (None, Err(ParseError::from(too_long))),
        };
        invalid |= parsed.is_err();
        batch.push(Pending {
            line,
            id,
            cells: parsed,
        });
        if batch.len() == BATCH_LINES {
            answer(&mut batch, &format, &mut stdout)?;
        }
    }
    answer(&mut batch, &format, &mut stdout)?;
    Ok(if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Canonicalises a batch in parallel and prints its answers in order.
fn answer(batch: &mut Vec<Pending>, format: &Format, out: &mut impl Write) -> io::Result<()> {
    let forms: Vec<Result<[u8; 81], ParseError>> = batch
        .par_iter()
        .map(|p| {
            p.cells
                .as_ref()
                .map(|c| canonical_form(c).expect("parsed cells are 0 to 9"))
                .map_err(Clone::clone)
        })
        .collect();
    let mut text = Vec::with_capacity(batch.len() * 84);
    for (pending, form) in batch.iter().zip(forms) {
        match form {
            Err(error) => {
                let error = LineError {
                    line: pending.line,
                    error,
                };
                text.extend_from_slice(error.to_string().as_bytes());
            }
            Ok(form) => {
                if let Some(id) = &pending.id {
                    text.extend_from_slice(id.as_bytes());
                    text.push(b':');
                }
                format.alphabet().write_cells(&form, &mut text);
            }
        }
        text.push(b'\n');
    }
    batch.clear();
    out.write_all(&text)?;
    out.flush()
}
