//! `sudokit generate`: puzzles with a unique solution (SPEC §7), minimal,
//! of a clue count or with a symmetry when asked, made on every core and
//! printed in index order, the same for the same `--seed`.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use sudokit::generate::{generate_range, GenerateOptions, Generated, Symmetry};
use sudokit::grid::Shape;
use sudokit::parse::Format;

use super::{FormatArgs, ThreadArgs};

/// Puzzles made per thread before a batch is printed.
const BATCH_PER_THREAD: u64 = 64;

/// Output format of `sudokit generate`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// One puzzle per line.
    #[default]
    Text,
    /// One JSON object per line: puzzle, solution, clues, symmetry,
    /// minimal, guesses, seed, index.
    Jsonl,
}

/// Options of `sudokit generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Number of puzzles.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    pub count: u64,
    #[command(flatten)]
    pub format: FormatArgs,
    /// Random seed: the same seed and options print the same puzzles.
    /// Default: from the clock (printed in jsonl output).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Exactly K clues (reported per puzzle when no attempt reaches K).
    #[arg(long, value_name = "K")]
    pub clues: Option<usize>,
    /// Every clue needed: removing any one loses uniqueness.
    #[arg(long)]
    pub minimal: bool,
    /// Symmetry of the clue pattern: none, rot180, rot90, diagonal
    /// (transpose), antidiagonal, mirror.
    #[arg(long, value_name = "NAME", default_value_t = Symmetry::None)]
    pub symmetry: Symmetry,
    /// Grids tried per puzzle before reporting that a target is not met.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub attempts: u32,
    /// Output format.
    #[arg(long = "format", value_enum, default_value_t = OutputFormat::Text)]
    pub output: OutputFormat,
    #[command(flatten)]
    pub threads: ThreadArgs,
}

/// One jsonl record.
#[derive(serde::Serialize)]
struct Record<'a> {
    index: u64,
    puzzle: &'a str,
    solution: &'a str,
    clues: usize,
    symmetry: Symmetry,
    minimal: bool,
    guesses: u64,
    seed: u64,
}

/// Runs `sudokit generate`.
pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.install()? as u64;
    let shape = match args.format.shape {
        Some(shape) => shape,
        None => Shape::new(3, 3)?,
    };
    let format = Format::new(shape, args.format.symbols.as_deref()).context("--symbols")?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    let options = GenerateOptions {
        shape,
        clues: args.clues,
        minimal: args.minimal,
        symmetry: args.symmetry,
        attempts: args.attempts.max(1),
    };
    let mut stdout = io::stdout().lock();
    let mut failed = false;
    let batch = BATCH_PER_THREAD * threads;
    let mut start = 0;
    while start < args.count {
        let end = (start + batch).min(args.count);
        let mut text = Vec::new();
        for result in generate_range(options, seed, start..end) {
            match result {
                Ok(g) => write_one(&g, args, &format, seed, &mut text)?,
                Err(error) => {
                    failed = true;
                    writeln!(text, "{error}")?;
                }
            }
        }
        stdout.write_all(&text)?;
        stdout.flush()?;
        start = end;
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn write_one(
    g: &Generated,
    args: &GenerateArgs,
    format: &Format,
    seed: u64,
    out: &mut Vec<u8>,
) -> anyhow::Result<()> {
    let mut puzzle = Vec::new();
    format.alphabet().write_cells(g.puzzle.cells(), &mut puzzle);
    if args.output == OutputFormat::Text {
        out.extend_from_slice(&puzzle);
        out.push(b'\n');
        return Ok(());
    }
    let mut solution = Vec::new();
    format
        .alphabet()
        .write_cells(g.solution.cells(), &mut solution);
    let record = Record {
        index: g.index,
        puzzle: std::str::from_utf8(&puzzle)?,
        solution: std::str::from_utf8(&solution)?,
        clues: g.clues,
        symmetry: args.symmetry,
        minimal: g.minimal,
        guesses: g.guesses,
        seed,
    };
    serde_json::to_writer(&mut *out, &record)?;
    out.push(b'\n');
    Ok(())
}
