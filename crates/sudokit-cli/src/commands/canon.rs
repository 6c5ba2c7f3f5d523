//! `sudokit canon [FILE|PUZZLE…]`: the canonical (minimum-lexicographic)
//! form of each 9×9 puzzle or grid (SPEC §8), the same for every puzzle of an
//! equivalence class. Lines are read in batches and canonicalised on every
//! core; answers come out in input order.

use std::io::{self, Write};
use std::process::ExitCode;

use rayon::prelude::*;
use sudokit::canon::canonical_form;
use sudokit::grid::Shape;
use sudokit::parse::{Format, FormatSpec};

use super::input::{locate, Entry, InputArgs, PuzzleLines};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::{FormatArgs, LineArgs, ThreadArgs};

/// Lines canonicalised together in parallel before their answers print.
const BATCH_LINES: usize = 4096;

/// The command's own field, after the common ones.
const FIELDS: [&str; 1] = ["canonical"];

/// The status of a line canonicalised.
const CANONICAL: &str = "canonical";

/// Options of `sudokit canon`.
#[derive(clap::Args, Debug)]
pub struct CanonArgs {
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
}

/// The only shape `canon` and `search` read: 9×9 with 3×3 boxes.
pub(super) fn nine() -> Shape {
    Shape::new(3, 3).expect("3x3 is a shape")
}

/// The format spec of a 9×9-only command (`command` names it in messages):
/// `--box` may only say 3x3, and the size is left to each source's first
/// puzzle, so that a source of another size is refused by
/// [`require_nine`] as a whole rather than line by line.
pub(super) fn nine_spec(format: &FormatArgs, command: &str) -> anyhow::Result<FormatSpec> {
    if let Some(shape) = format.shape.filter(|&s| s != nine()) {
        anyhow::bail!("--box {shape}: {command} reads 9x9 puzzles with 3x3 boxes only");
    }
    Ok(FormatSpec {
        shape: None,
        symbols: format.symbols.clone(),
    })
}

/// Refuses a source whose puzzles are not 9×9 (its first puzzle settled
/// another size): a usage error naming the source, not one invalid line per
/// puzzle.
pub(super) fn require_nine(source: &str, entry: &Entry<'_>, command: &str) -> anyhow::Result<()> {
    match entry.shape {
        Some(shape) if shape != nine() => {
            let side = shape.side();
            anyhow::bail!(
                "{source}: line {}: a {side}x{side} grid; {command} reads 9x9 puzzles only",
                entry.line
            )
        }
        _ => Ok(()),
    }
}

/// One input line waiting for its answer.
struct Pending {
    /// Its number in the run.
    number: u64,
    /// Its id, if any.
    id: Option<String>,
    /// Its cell text as read.
    cells: String,
    /// Its cells, or where and why it is invalid.
    parsed: Result<[u8; 81], String>,
}

/// Runs `sudokit canon`.
pub fn run(args: &CanonArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let spec = nine_spec(&args.format, "canon")?;
    let format = Format::new(nine(), spec.symbols.as_deref())?;
    let sources = args.input.open(&spec)?;
    let several = sources.len() > 1;
    let printer = Printer {
        format,
        output: args.output.format,
        columns: csv_columns(&FIELDS),
    };
    let mut stdout = io::stdout().lock();
    if printer.output == OutputFormat::Csv {
        let mut header = Vec::new();
        write_csv_header(&printer.columns, &mut header);
        stdout.write_all(&header)?;
    }
    let (mut number, mut invalid) = (0u64, false);
    let mut batch: Vec<Pending> = Vec::with_capacity(BATCH_LINES);
    for source in sources {
        let name = source.name.clone();
        let shown = several.then_some(name.as_str());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?;
        while let Some(entry) = puzzles.next_entry()? {
            if let Err(error) = require_nine(&name, &entry, "canon") {
                // The answers of the lines before it are printed first.
                printer.answer(&mut batch, &mut stdout)?;
                return Err(error);
            }
            number += 1;
            let parsed = match &entry.puzzle {
                Ok(puzzle) => Ok(puzzle.cells().try_into().expect("a 9x9 puzzle")),
                Err(error) => Err(locate(shown, entry.line, error)),
            };
            invalid |= parsed.is_err();
            batch.push(Pending {
                number,
                id: entry.id.map(str::to_string),
                cells: String::from_utf8_lossy(entry.cells).into_owned(),
                parsed,
            });
            if batch.len() == BATCH_LINES {
                printer.answer(&mut batch, &mut stdout)?;
            }
        }
    }
    printer.answer(&mut batch, &mut stdout)?;
    Ok(if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// How answers are printed.
struct Printer {
    /// The 9×9 format, for writing forms in the input's symbols.
    format: Format,
    /// `--format`.
    output: OutputFormat,
    /// The CSV columns.
    columns: Vec<&'static str>,
}

impl Printer {
    /// Canonicalises a batch in parallel and prints its answers in order:
    /// `[id:]form` or `[id:]line N: reason` as text, or records.
    fn answer(&self, batch: &mut Vec<Pending>, out: &mut impl Write) -> io::Result<()> {
        let forms: Vec<Option<[u8; 81]>> = batch
            .par_iter()
            .map(|p| {
                let cells = p.parsed.as_ref().ok()?;
                Some(canonical_form(cells).expect("parsed 9x9 cells are 0 to 9"))
            })
            .collect();
        let mut text = Vec::with_capacity(batch.len() * 84);
        for (pending, form) in batch.iter().zip(forms) {
            let mut canonical = Vec::with_capacity(81);
            if let Some(form) = form {
                self.format.alphabet().write_cells(&form, &mut canonical);
            }
            let id = pending.id.as_deref();
            let record = || {
                let mut record = match &pending.parsed {
                    Err(error) => Record::invalid(
                        pending.number,
                        id,
                        Some(pending.cells.as_bytes()),
                        error.clone(),
                    ),
                    Ok(_) => Record {
                        number: pending.number,
                        id,
                        puzzle: Some(pending.cells.as_str().into()),
                        status: CANONICAL,
                        fields: vec![("canonical", String::from_utf8_lossy(&canonical).into())],
                        ..Record::default()
                    },
                };
                record.shape = Some(nine());
                record
            };
            match self.output {
                OutputFormat::Text => {
                    push_id(&mut text, id);
                    match &pending.parsed {
                        Err(error) => text.extend_from_slice(escape_controls(error).as_bytes()),
                        Ok(_) => text.extend_from_slice(&canonical),
                    }
                    text.push(b'\n');
                }
                OutputFormat::Jsonl => record().write_json(&mut text),
                OutputFormat::Csv => record().write_csv(&self.columns, &mut text),
            }
        }
        batch.clear();
        out.write_all(&text)?;
        out.flush()
    }
}
