//! `sudokit solve [FILE|-|PUZZLE…]`: a solution for every puzzle (SPEC §3).

use std::io::{self, Write};
use std::process::ExitCode;

use sudokit::analyze::{analyze_stream, AnalyzeOptions, Verdict};
use sudokit::grid::Shape;
use sudokit::parse::Format;

use super::{inputs_from_args, EngineArgs, FormatArgs, LineArgs, ThreadArgs};

/// Options of `sudokit solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// A file of puzzles (one per line), `-` for standard input, or puzzles
    /// themselves. Nothing: standard input.
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub lines: LineArgs,
    /// Print each solution as a grid, with `|` and `-` between boxes.
    #[arg(long)]
    pub pretty: bool,
}

/// Runs `sudokit solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let input = inputs_from_args(&args.inputs)?;
    let options = AnalyzeOptions {
        spec: args.format.spec(),
        minimal: false,
        solutions: true,
        engine: args.engine.engine,
        progress: None,
        max_line: args.lines.max_line,
    };
    let mut out = Vec::new();
    let summary = analyze_stream(input, &options, |format, verdicts| {
        out.clear();
        for verdict in verdicts {
            write_verdict(&mut out, format, verdict, args.pretty);
        }
        let mut stdout = io::stdout().lock();
        stdout.write_all(&out)?;
        stdout.flush()
    })?;
    Ok(if summary.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn write_verdict(out: &mut Vec<u8>, format: Option<&Format>, verdict: &Verdict<'_>, pretty: bool) {
    let analysis = match &verdict.result {
        Ok(analysis) => analysis,
        Err(error) => {
            out.extend_from_slice(format!("line {}: {error}\n", verdict.line).as_bytes());
            return;
        }
    };
    if let Some(id) = verdict.id {
        out.extend_from_slice(id.as_bytes());
        out.push(b':');
        if pretty && analysis.solution.is_some() {
            out.push(b'\n');
        }
    }
    match (&analysis.solution, format) {
        (Some(grid), Some(format)) if pretty => {
            write_pretty(out, format, grid);
            out.push(b'\n');
        }
        (Some(grid), Some(format)) => {
            format.alphabet().write_cells(grid, out);
            out.push(b'\n');
        }
        _ => out.extend_from_slice(b"No solution\n"),
    }
}

/// A grid over `N` lines, boxes set apart by `|` and a `-+-` rule.
fn write_pretty(out: &mut Vec<u8>, format: &Format, grid: &[u8]) {
    let shape: Shape = format.shape();
    let (n, cols) = (shape.side(), shape.box_cols());
    let boxes_across = n / cols;
    // Each box's segment is its symbols and the spaces between them, padded by
    // one space on every side that meets a `|`.
    let rule = (0..boxes_across)
        .map(|b| "-".repeat(2 * cols - 1 + usize::from(b > 0) + usize::from(b + 1 < boxes_across)))
        .collect::<Vec<_>>()
        .join("+");
    for row in 0..n {
        if row > 0 && row % shape.box_rows() == 0 {
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
