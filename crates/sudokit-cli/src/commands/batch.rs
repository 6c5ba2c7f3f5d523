//! The loop of the commands that take the logic engine through each puzzle
//! line (`rate`, `hint`, `explain`): lines are read in batches, each batch is
//! worked on every core (`--threads`), and the answers print in input
//! order, a batch at a time. Lines may carry a variant layout (and
//! `--variant` adds rules to every line): those go to the variant logic
//! engine.

use std::io::{self, Write};
use std::process::ExitCode;

use rayon::prelude::*;
use sudokit::grid::Shape;
use sudokit::logic::TechniqueSet;
use sudokit::variant::{Layout, VariantLogic};
use sudokit::Puzzle;

use super::input::{locate, InputArgs, PuzzleLines};
use super::output::{OutputArgs, Record};
use super::{FormatArgs, LineArgs, TechniqueArgs, ThreadArgs, VariantArgs};

/// Lines worked on together before their answers print.
const BATCH_LINES: usize = 256;

/// One puzzle line read, waiting for its answer.
pub struct Line {
    /// Its number in the run (1-based).
    pub number: u64,
    /// Its id, if any.
    pub id: Option<String>,
    /// Its cell text as read.
    pub cells: String,
    /// Its source's box shape, once known.
    pub shape: Option<Shape>,
    /// Its puzzle, or where and why it is invalid.
    pub puzzle: Result<Job, String>,
}

/// A valid puzzle line's work: the givens, and the variant layout when the
/// line (or `--variant`) has one.
pub struct Job {
    /// The givens.
    pub puzzle: Puzzle,
    /// The layout; `None` for plain Sudoku.
    pub layout: Option<Layout>,
}

impl Job {
    /// The variant logic engine for this job's layout with the techniques
    /// of `set`; `None` for plain Sudoku (the plain engine's job).
    pub fn variant_logic(&self, set: &TechniqueSet) -> Option<VariantLogic> {
        let layout = self.layout.as_ref()?;
        Some(VariantLogic::new(layout).with_techniques(set))
    }
}

impl Line {
    /// The line's record with the common fields filled in; the status, the
    /// command's fields and the error are the command's to set.
    pub fn record(&self) -> Record<'_> {
        Record {
            number: self.number,
            id: self.id.as_deref(),
            puzzle: Some(self.cells.as_str().into()),
            shape: self.shape,
            ..Record::default()
        }
    }
}

/// The options every command run through [`each_line`] shares: where the
/// puzzles come from, how the work is spread, how answers print and which
/// techniques the engine uses.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
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
    #[command(flatten)]
    pub techniques: TechniqueArgs,
    #[command(flatten)]
    pub variant: VariantArgs,
}

/// Reads every puzzle line of the input, runs `work` on each valid puzzle
/// (a batch at a time, on every core) and prints what `answer` writes for
/// each line, in input order. `answer` gets the line and `work`'s result,
/// or where and why the line is invalid, and says whether the line failed.
/// `header` prints once the input is open, before any answer (a CSV
/// header). Exits with 1 when any line failed.
pub fn each_line<T: Send>(
    reading: &BatchArgs,
    header: &[u8],
    work: impl Fn(&Job) -> T + Sync,
    mut answer: impl FnMut(&Line, Result<T, &str>, &mut Vec<u8>) -> bool,
) -> anyhow::Result<ExitCode> {
    reading.threads.install()?;
    let spec = reading.format.spec();
    let sources = reading.input.open(&spec)?;
    let several = sources.len() > 1;
    let mut stdout = io::stdout().lock();
    stdout.write_all(header)?;
    let (mut number, mut failed) = (0u64, false);
    let mut batch = Vec::with_capacity(BATCH_LINES);
    let mut flush = |batch: &mut Vec<Line>, failed: &mut bool| -> io::Result<()> {
        let results: Vec<Result<T, &str>> = batch
            .par_iter()
            .map(|line| line.puzzle.as_ref().map(&work).map_err(String::as_str))
            .collect();
        let mut out = Vec::new();
        for (line, result) in batch.iter().zip(results) {
            *failed |= answer(line, result, &mut out);
        }
        batch.clear();
        stdout.write_all(&out)?;
        stdout.flush()
    };
    for source in sources {
        let shown = several.then(|| source.name.clone());
        let mut puzzles = PuzzleLines::new(source, &spec, reading.lines.max_line)?.with_variants();
        while let Some(entry) = puzzles.next_entry()? {
            number += 1;
            let job = entry
                .puzzle
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|puzzle| {
                    let layout = entry.layout(puzzle, reading.variant.variant)?;
                    Ok(Job {
                        puzzle: puzzle.clone(),
                        layout,
                    })
                });
            batch.push(Line {
                number,
                id: entry.id.map(str::to_string),
                cells: String::from_utf8_lossy(entry.cells).into_owned(),
                shape: entry.shape,
                puzzle: job.map_err(|error| locate(shown.as_deref(), entry.line, &error)),
            });
            if batch.len() == BATCH_LINES {
                flush(&mut batch, &mut failed)?;
            }
        }
    }
    flush(&mut batch, &mut failed)?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
