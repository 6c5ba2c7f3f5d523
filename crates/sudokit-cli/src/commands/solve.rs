//! `sudokit solve [FILE|PUZZLE…]`: the solution of every puzzle (SPEC §3),
//! as lines, grids (`--pretty`) or records.

use std::io::{self, Write};
use std::process::ExitCode;

use serde_json::Value;
use sudokit::analyze::{AnalyzeOptions, Numbering, Verdict};
use sudokit::grid::Shape;
use sudokit::parse::Format;
use sudokit::solver::Status;
use sudokit::variant::VariantPuzzle;

use super::input::{analyze_sources, locate, InputArgs, PuzzleLines};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::{
    status_word, EngineArgs, FormatArgs, LineArgs, ThreadArgs, TimeoutArgs, VariantArgs,
    TIMEOUT_TEXT,
};

/// Options of `sudokit solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub variant: VariantArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    /// Print each solution as a grid, with `|` and `-` between boxes (text
    /// output; such grids can be read back by every command).
    #[arg(long)]
    pub pretty: bool,
    /// Print up to N solutions of each puzzle (one per line in text; a
    /// `solutions` list in records) instead of saying `Multiple solutions`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "all")]
    pub limit: Option<u64>,
    /// Print every solution of each puzzle (see --limit).
    #[arg(long)]
    pub all: bool,
}

/// The command's own field, after the common ones.
const FIELDS: [&str; 1] = ["solution"];

/// What `solve` prints for a puzzle without a solution.
const NO_SOLUTION: &str = "No solution";

/// What `solve` prints for a puzzle with several solutions.
const MULTIPLE_SOLUTIONS: &str = "Multiple solutions";

/// Runs `sudokit solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    args.variant.check(args.engine.engine)?;
    args.threads.install()?;
    if let Some(limit) = args.limit.or(args.all.then_some(u64::MAX)) {
        return list_solutions(args, usize::try_from(limit).unwrap_or(usize::MAX));
    }
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let options = AnalyzeOptions {
        spec,
        minimal: false,
        solutions: true,
        engine: args.engine.engine,
        variant: args.variant.variant,
        progress: None,
        max_line: args.lines.max_line,
        timeout: args.timeout.timeout,
        limit: 2,
        numbering: Numbering::all(),
    };
    let columns = csv_columns(&FIELDS);
    let mut out = Vec::new();
    if args.output.format == OutputFormat::Csv {
        write_csv_header(&columns, &mut out);
    }
    let mut number = 0u64;
    let summary = analyze_sources(
        sources,
        &options,
        |source, format, verdicts| {
            for verdict in verdicts {
                number += 1;
                let printing = Printing {
                    format,
                    number,
                    source,
                };
                match args.output.format {
                    OutputFormat::Text => printing.text(&mut out, verdict, args.pretty),
                    OutputFormat::Jsonl => printing.record(verdict).write_json(&mut out),
                    OutputFormat::Csv => printing.record(verdict).write_csv(&columns, &mut out),
                }
            }
            let mut stdout = io::stdout().lock();
            stdout.write_all(&out)?;
            out.clear();
            stdout.flush()
        },
        || {},
    )?;
    let invalid = summary.invalid + summary.timed_out;
    io::stdout().lock().write_all(&out)?;
    Ok(if invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// What printing one verdict needs to know besides the verdict.
struct Printing<'s> {
    /// The source's format, once settled.
    format: Option<&'s Format>,
    /// The record's number in the run.
    number: u64,
    /// The source's name, when the run reads several.
    source: Option<&'s str>,
}

impl Printing<'_> {
    /// The solution in the source's alphabet, when there is exactly one.
    fn solution(&self, verdict: &Verdict<'_>) -> Option<Vec<u8>> {
        let analysis = verdict.result.as_ref().ok()?;
        let (grid, format) = (analysis.solution.as_ref()?, self.format?);
        (analysis.status == Some(Status::Unique)).then(|| {
            let mut text = Vec::with_capacity(grid.len());
            format.alphabet().write_cells(grid, &mut text);
            text
        })
    }

    /// One answer as text: `[id:]solution`, a grid, `No solution`, `Multiple
    /// solutions`, or `line N: reason`.
    fn text(&self, out: &mut Vec<u8>, verdict: &Verdict<'_>, pretty: bool) {
        push_id(out, verdict.id);
        let analysis = match &verdict.result {
            Ok(analysis) => analysis,
            Err(error) => {
                let error = locate(self.source, verdict.line, error);
                out.extend_from_slice(escape_controls(&error).as_bytes());
                out.push(b'\n');
                return;
            }
        };
        match (&analysis.solution, self.format, analysis.status) {
            (Some(grid), Some(format), Some(Status::Unique)) if pretty => {
                if verdict.id.is_some() {
                    out.push(b'\n');
                }
                write_pretty(out, format, grid, !analysis.jigsaw);
            }
            (Some(grid), Some(format), Some(Status::Unique)) => {
                format.alphabet().write_cells(grid, out)
            }
            (_, _, Some(Status::Multiple)) => out.extend_from_slice(MULTIPLE_SOLUTIONS.as_bytes()),
            (_, _, None) => out.extend_from_slice(TIMEOUT_TEXT.as_bytes()),
            _ => out.extend_from_slice(NO_SOLUTION.as_bytes()),
        }
        out.push(b'\n');
    }

    /// One answer as a record.
    fn record<'a>(&self, verdict: &Verdict<'a>) -> Record<'a> {
        let shape: Option<Shape> = self.format.map(Format::shape);
        let mut record = match &verdict.result {
            Ok(analysis) => Record {
                number: self.number,
                id: verdict.id,
                puzzle: Some(String::from_utf8_lossy(verdict.cells)),
                status: status_word(analysis.status),
                fields: vec![(
                    "solution",
                    self.solution(verdict)
                        .map_or(Value::Null, |s| String::from_utf8_lossy(&s).into()),
                )],
                ..Record::default()
            },
            Err(error) => {
                let error = locate(self.source, verdict.line, error);
                Record::invalid(self.number, verdict.id, Some(verdict.cells), error)
            }
        };
        record.shape = shape;
        record
    }
}

/// A grid over `N` lines, with `boxes` set apart by `|` and a `-+-` rule
/// (a jigsaw's regions are not boxes: it has none).
fn write_pretty(out: &mut Vec<u8>, format: &Format, grid: &[u8], boxes: bool) {
    let shape: Shape = format.shape();
    let n = shape.side();
    let (rows, cols) = match boxes {
        true => (shape.box_rows(), shape.box_cols()),
        false => (n, n),
    };
    let boxes_across = n / cols;
    // Each box's segment is its symbols and the spaces between them, padded by
    // one space on every side that meets a `|`.
    let rule = (0..boxes_across)
        .map(|b| "-".repeat(2 * cols - 1 + usize::from(b > 0) + usize::from(b + 1 < boxes_across)))
        .collect::<Vec<_>>()
        .join("+");
    for row in 0..n {
        if row > 0 && row % rows == 0 {
            out.extend_from_slice(rule.as_bytes());
            out.push(b'\n');
        }
        for col in 0..n {
            if col > 0 {
                out.push(b' ');
                if col % cols == 0 {
                    out.extend_from_slice(b"| ");
                }
            }
            out.push(format.alphabet().symbol(grid[row * n + col]));
        }
        out.push(b'\n');
    }
}

/// The fields of `--limit`/`--all` records: the solutions and how many.
const LIST_FIELDS: [&str; 2] = ["count", "solutions"];

/// `solve --limit N` / `--all`: up to `limit` solutions of every puzzle, one
/// puzzle at a time.
fn list_solutions(args: &SolveArgs, limit: usize) -> anyhow::Result<ExitCode> {
    let spec = args.format.spec();
    let sources = args.input.open(&spec)?;
    let several = sources.len() > 1;
    let columns = csv_columns(&LIST_FIELDS);
    let mut out = Vec::new();
    if args.output.format == OutputFormat::Csv {
        write_csv_header(&columns, &mut out);
    }
    let mut stdout = io::stdout().lock();
    let (mut number, mut invalid) = (0u64, false);
    for source in sources {
        let name = several.then(|| source.name.clone());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?.with_variants();
        while let Some(entry) = puzzles.next_entry()? {
            number += 1;
            let format = entry
                .shape
                .and_then(|shape| Format::new(shape, spec.symbols.as_deref()).ok());
            let parsed = entry.puzzle.clone().and_then(|puzzle| {
                let layout = entry.layout(&puzzle, args.variant.variant)?;
                Ok((puzzle, layout))
            });
            let ((puzzle, layout), format) = match (parsed, format) {
                (Ok(parsed), Some(format)) => (parsed, format),
                (result, _) => {
                    invalid = true;
                    let reason = result
                        .err()
                        .map_or("no format".to_string(), |e| e.to_string());
                    let error = locate(name.as_deref(), entry.line, &reason);
                    let mut record = Record::invalid(number, entry.id, Some(entry.cells), error);
                    record.shape = entry.shape;
                    write_listed(args, &columns, &record, &[], &mut out);
                    continue;
                }
            };
            let found = match layout {
                Some(layout) => VariantPuzzle::new(layout, puzzle)
                    .expect("the layout is built on the puzzle's shape")
                    .solutions(limit),
                None => puzzle.solutions(limit),
            };
            let solutions: Vec<String> = found
                .iter()
                .map(|solution| {
                    let mut text = Vec::new();
                    format.alphabet().write_cells(solution.cells(), &mut text);
                    String::from_utf8_lossy(&text).into_owned()
                })
                .collect();
            let record = Record {
                number,
                id: entry.id,
                puzzle: Some(String::from_utf8_lossy(entry.cells)),
                shape: entry.shape,
                status: status_word(Some(Status::from_count(solutions.len() as u64))),
                fields: vec![
                    ("count", Value::from(solutions.len())),
                    ("solutions", Value::from(solutions.clone())),
                ],
                error: None,
            };
            write_listed(args, &columns, &record, &solutions, &mut out);
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

/// One puzzle's listed solutions: text lines `[id:]solution` (or `No
/// solution`, or `[id:]line N: reason`), or its record.
fn write_listed(
    args: &SolveArgs,
    columns: &[&str],
    record: &Record<'_>,
    solutions: &[String],
    out: &mut Vec<u8>,
) {
    match args.output.format {
        OutputFormat::Jsonl => record.write_json(out),
        OutputFormat::Csv => record.write_csv(columns, out),
        OutputFormat::Text => {
            let lines: Vec<&str> = match &record.error {
                Some(error) => vec![error.as_str()],
                None if solutions.is_empty() => vec![NO_SOLUTION],
                None => solutions.iter().map(String::as_str).collect(),
            };
            for line in lines {
                push_id(out, record.id);
                out.extend_from_slice(escape_controls(line).as_bytes());
                out.push(b'\n');
            }
        }
    }
}
