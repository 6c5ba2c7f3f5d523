//! `sudokit generate`: puzzles with a unique solution (SPEC §7), minimal,
//! of a clue count, with a symmetry or rated in a range (`--rating`,
//! `--level`) when asked, made on every core and printed in index order, the
//! same for the same `--seed`.
//!
//! Text output starts with a `#` comment line, the command that makes the
//! same puzzles again (box shape and seed included), which every reader
//! skips; records carry `box` and `seed` instead. A puzzle that cannot be
//! made is a `# puzzle N: reason` comment in text and an `invalid` record in
//! JSON and CSV, so every output stays readable; options that no puzzle can
//! meet are refused before anything is made.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;
use sudokit::generate::{
    generate_range, GenerateError, GenerateOptions, Generated, Level, RatingRange, Symmetry,
};
use sudokit::grid::Shape;
use sudokit::parse::Format;
use sudokit::shard::records::RecordsOut;
use sudokit::variant::generate::{
    generate_variant_range, VariantGenerateError, VariantGenerated, VariantOptions,
};
use sudokit::variant::text::layout_fields;

use super::output::{
    csv_columns, escape_controls, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::rate::{rating_fields, rating_text};
use super::record_out::{progress_line, LogLines, RecordOutArgs};
use super::{ThreadArgs, VariantArgs};

/// Puzzles made per thread before a batch is printed.
const BATCH_PER_THREAD: u64 = 64;

/// `--attempts` unless given.
const DEFAULT_ATTEMPTS: u32 = 1000;

/// The command's own fields, after the common ones.
const FIELDS: [&str; 6] = [
    "solution", "clues", "symmetry", "minimal", "guesses", "seed",
];

/// The fields of variant puzzles: their layout fields, then the usual ones
/// (a random fill makes no guesses worth counting).
const VARIANT_FIELDS: [&str; 6] = ["layout", "solution", "clues", "symmetry", "minimal", "seed"];

/// The fields added with a rating target: the rating, named as `sudokit
/// rate` names it (its `solved` is left out: every puzzle made is solved),
/// and the grids tried to find the puzzle.
const RATING_FIELDS: [&str; 6] = ["er", "ep", "ed", "hardest", "steps", "attempts"];

/// The status of a generated puzzle: its solution is unique.
const UNIQUE: &str = "unique";

/// Options of `sudokit generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Number of puzzles.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    pub count: u64,
    /// Box shape RxC (rows x columns per box) of the grids made: 2x2 makes
    /// 4x4 grids, 2x3 6x6, 3x3 9x9, 4x4 16x16.
    #[arg(long = "box", value_name = "RxC", default_value = "3x3")]
    pub shape: Shape,
    /// The N symbols in digit order, e.g. ABCDEFGHIJKLMNOP or 0123456789ABCDEF.
    /// Default: the first N of 1-9, A-Z, a-z; blanks are `.`.
    #[arg(long, value_name = "STRING")]
    pub symbols: Option<String>,
    /// Random seed: the same seed and options print the same puzzles.
    /// Default: from the clock (printed in the output).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Exactly K clues (a K no puzzle can have is refused up front; one not
    /// reached for a puzzle within --attempts is reported for it).
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
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ATTEMPTS)]
    pub attempts: u32,
    /// Only puzzles whose Sudoku Explainer rating (ER) lies in A..B (both
    /// included; also A.., ..B, or A alone), e.g. 4.1..6.0. Each carved
    /// puzzle is rated by a solver that stops at its first step above B; one
    /// out of range is retried on a new grid (up to --attempts). Puzzles
    /// the logic engine cannot finish are never in range. Other shapes than 9x9 use the
    /// engine's ER with SE's techniques. Text lines gain `ER/EP/ED hardest`
    /// after the puzzle; records gain er, ep, ed, hardest, steps and
    /// attempts.
    #[arg(long, value_name = "A..B", conflicts_with = "level")]
    pub rating: Option<RatingRange>,
    /// A named rating range: easy (ER 1.0-2.5), medium (2.6-4.0), hard
    /// (4.1-6.0), expert (6.1-7.9), extreme (8.0 and up); as --rating.
    #[arg(long, value_name = "NAME")]
    pub level: Option<Level>,
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Jigsaw: random irregular regions (orthogonally connected, N cells
    /// each) instead of boxes; each puzzle line carries its regions=MAP.
    #[arg(long)]
    pub jigsaw: bool,
    /// Killer: no givens, cages with sums (cage=SUM:CELLS fields) whose
    /// only solution is the puzzle's.
    #[arg(long)]
    pub killer: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub record: RecordOutArgs,
    /// No progress bar and no summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub threads: ThreadArgs,
}

impl GenerateArgs {
    /// The variant options, when `--variant`, `--jigsaw` or `--killer` asks
    /// for one; options that only plain Sudoku has are refused.
    fn variant_options(&self) -> anyhow::Result<Option<VariantOptions>> {
        if self.variant.variant.is_empty() && !self.jigsaw && !self.killer {
            return Ok(None);
        }
        let plain_only = [
            ("--clues", self.clues.is_some()),
            ("--rating", self.rating.is_some()),
            ("--level", self.level.is_some()),
        ];
        if let Some((flag, _)) = plain_only.iter().find(|(_, given)| *given) {
            anyhow::bail!(
                "{flag} is for plain Sudoku; variant puzzles are made minimal (--symmetry applies)"
            );
        }
        if self.killer && self.symmetry != Symmetry::None {
            anyhow::bail!("--symmetry is for puzzles with givens; --killer puzzles have none");
        }
        Ok(Some(VariantOptions {
            shape: self.shape,
            rules: self.variant.variant,
            jigsaw: self.jigsaw,
            killer: self.killer,
            symmetry: self.symmetry,
        }))
    }
}

/// Runs `sudokit generate`.
pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let variant = args.variant_options()?;
    let threads = args.threads.install()? as u64;
    let started = Instant::now();
    let format = Format::new(args.shape, args.symbols.as_deref()).context("--symbols")?;
    if args.seed.is_none() && args.record.needs_replay() {
        anyhow::bail!(
            "--shard and --resume need --seed: every slice, and a resumed run, must make the same puzzles"
        );
    }
    let seed = match args.seed {
        Some(seed) => seed,
        None => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    let options = GenerateOptions {
        shape: args.shape,
        clues: args.clues,
        minimal: args.minimal,
        symmetry: args.symmetry,
        attempts: args.attempts.max(1),
        rating: args.rating.or(args.level.map(Level::range)),
    };
    if variant.is_none() {
        options.check().context("--clues")?;
    }
    let printer = Printer {
        args,
        format,
        seed,
        columns: csv_columns(&if options.rating.is_some() {
            [&FIELDS[..], &RATING_FIELDS[..]].concat()
        } else if variant.is_some() {
            VARIANT_FIELDS.to_vec()
        } else {
            FIELDS.to_vec()
        }),
    };
    let mut text = Vec::new();
    match args.output.format {
        OutputFormat::Text => printer.header(&mut text),
        OutputFormat::Jsonl => {}
        OutputFormat::Csv => write_csv_header(&printer.columns, &mut text),
    }
    let identity = format!(
        "{} format={:?}",
        String::from_utf8_lossy(&text),
        args.output.format
    );
    let what = format!("{} puzzles of seed {seed}", args.count);
    let mut out = match args
        .record
        .open("generate", what, identity.as_bytes(), args.quiet)?
    {
        Some(records) => Out::Records(Box::new(records)),
        None => Out::Stdout(io::stdout().lock()),
    };
    let first = match &mut out {
        Out::Stdout(stdout) => {
            stdout.write_all(&text)?;
            stdout.flush()?;
            0
        }
        Out::Records(records) => {
            records.header(&text)?;
            records.items_passed()
        }
    };
    let stripes = args.record.stripes();
    let mut log = LogLines::new("generate", matches!(out, Out::Records(_)), args.quiet);
    let bar = ProgressBar::with_draw_target(Some(args.count), ProgressDrawTarget::hidden())
        .with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles  {per_sec}  eta {eta}")
                .expect("valid template"),
        );
    bar.set_position(first);
    let show_progress = !args.quiet && io::stderr().is_terminal();
    let finished = AtomicBool::new(false);
    let (made, failed) = std::thread::scope(|scope| {
        if show_progress {
            scope.spawn(|| reveal_after_a_second(&bar, &finished, started));
        }
        let result = (|| {
            let (mut made, mut failed) = (0u64, 0u64);
            // About this many of the slice's puzzles per batch.
            let batch = BATCH_PER_THREAD * threads * stripes.shard().count();
            let mut start = first;
            while start < args.count {
                let end = (start + batch).min(args.count);
                text.clear();
                let (mut lines, mut failed_now) = (0u64, 0u64);
                for run in stripes.runs_in(start..end) {
                    lines += run.end - run.start;
                    match &variant {
                        None => {
                            let puzzles = generate_range(options, seed, run.clone());
                            for (number, made) in (run.start + 1..).zip(puzzles) {
                                failed_now += u64::from(made.is_err());
                                printer.write(number, &made, &mut text);
                            }
                        }
                        Some(variant) => {
                            let puzzles = generate_variant_range(variant, seed, run.clone());
                            for (number, made) in (run.start + 1..).zip(puzzles) {
                                failed_now += u64::from(made.is_err());
                                printer.write_variant(number, &made, &mut text);
                            }
                        }
                    }
                }
                match &mut out {
                    Out::Stdout(stdout) => {
                        stdout.write_all(&text)?;
                        stdout.flush()?;
                    }
                    Out::Records(records) => {
                        records.append(
                            &text,
                            lines,
                            end,
                            &[("made", lines - failed_now), ("failed", failed_now)],
                        )?;
                        let written = records.lines();
                        log.tick(|elapsed| {
                            let here = end - first;
                            progress_line("puzzles", end, Some(args.count), written, here, elapsed)
                        });
                    }
                }
                made += lines - failed_now;
                failed += failed_now;
                bar.set_position(end);
                start = end;
            }
            if let Out::Records(records) = out {
                // The whole slice's counts, those before a resume included.
                let counts = records.finish(args.count)?.counts;
                let count = |name: &str| counts.get(name).copied().unwrap_or(0);
                return anyhow::Ok((count("made"), count("failed")));
            }
            anyhow::Ok((made, failed))
        })();
        finished.store(true, Ordering::Relaxed);
        result
    })?;
    bar.finish_and_clear();
    if !args.quiet {
        eprintln!(
            "{} puzzles: {made} made, {failed} not made, {:.3} s",
            made + failed,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the puzzles go: standard output, or the out file of `--out`.
enum Out<'a> {
    /// Standard output, locked for the run.
    Stdout(io::StdoutLock<'a>),
    /// The checkpointed out file.
    Records(Box<RecordsOut>),
}

/// Shows `bar` on standard error once the run has taken a second (a quick
/// run never flashes one), ticking until it is finished.
fn reveal_after_a_second(bar: &ProgressBar, finished: &AtomicBool, started: Instant) {
    const DELAY: Duration = Duration::from_secs(1);
    const TICK: Duration = Duration::from_millis(100);
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(TICK);
        if bar.is_hidden() && started.elapsed() > DELAY {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.tick();
    }
}

/// What printing a generated puzzle needs besides the puzzle.
struct Printer<'a> {
    /// The options, for the header and the records.
    args: &'a GenerateArgs,
    /// The shape's format, for writing cells in its symbols.
    format: Format,
    /// The seed in use (given or from the clock).
    seed: u64,
    /// The CSV columns.
    columns: Vec<&'static str>,
}

impl Printer<'_> {
    /// The text header: a comment line holding the command that makes these
    /// puzzles again.
    fn header(&self, out: &mut Vec<u8>) {
        let args = self.args;
        let mut line = format!(
            "# sudokit generate --box {} --seed {} --count {}",
            args.shape, self.seed, args.count
        );
        if let Some(symbols) = &args.symbols {
            line += &format!(" --symbols {symbols}");
        }
        if let Some(clues) = args.clues {
            line += &format!(" --clues {clues}");
        }
        if args.minimal {
            line += " --minimal";
        }
        if args.symmetry != Symmetry::None {
            line += &format!(" --symmetry {}", args.symmetry);
        }
        if let Some(level) = args.level {
            line += &format!(" --level {level}");
        }
        if let Some(range) = args.rating {
            line += &format!(" --rating {range}");
        }
        if !args.variant.variant.is_empty() {
            line += &format!(" --variant {}", args.variant.variant);
        }
        if args.jigsaw {
            line += " --jigsaw";
        }
        if args.killer {
            line += " --killer";
        }
        if args.attempts != DEFAULT_ATTEMPTS {
            line += &format!(" --attempts {}", args.attempts);
        }
        out.extend_from_slice(escape_controls(&line).as_bytes());
        out.push(b'\n');
    }

    /// Puzzle `number` of the run: its line in text (or, when it could not
    /// be made, a `# puzzle N: reason` comment every reader skips), else its
    /// record.
    fn write(&self, number: u64, made: &Result<Generated, GenerateError>, out: &mut Vec<u8>) {
        match (self.args.output.format, made) {
            (OutputFormat::Text, Ok(g)) => {
                self.format.alphabet().write_cells(g.puzzle.cells(), out);
                if let Some(rating) = &g.rating {
                    out.push(b' ');
                    out.extend_from_slice(escape_controls(&rating_text(rating)).as_bytes());
                }
                out.push(b'\n');
            }
            (OutputFormat::Text, Err(error)) => {
                out.extend_from_slice(format!("# puzzle {number}: {error}\n").as_bytes());
            }
            (OutputFormat::Jsonl, made) => self.record(number, made).write_json(out),
            (OutputFormat::Csv, made) => self.record(number, made).write_csv(&self.columns, out),
        }
    }

    /// Cells in the run's symbols, `.` for blanks.
    fn cells_text(&self, cells: &[u8]) -> String {
        let mut text = Vec::with_capacity(cells.len());
        self.format.alphabet().write_cells(cells, &mut text);
        String::from_utf8_lossy(&text).into_owned()
    }

    /// Variant puzzle `number`: its line (cells, then layout fields) in
    /// text, else its record, whose `layout` field holds those fields.
    fn write_variant(
        &self,
        number: u64,
        made: &Result<VariantGenerated, VariantGenerateError>,
        out: &mut Vec<u8>,
    ) {
        let symmetry = ("symmetry", Value::from(self.args.symmetry.to_string()));
        let seed = ("seed", Value::from(self.seed));
        let mut record = match made {
            Ok(g) => {
                let layout = layout_fields(g.puzzle.layout());
                if self.args.output.format == OutputFormat::Text {
                    out.extend_from_slice(self.cells_text(g.puzzle.givens().cells()).as_bytes());
                    out.extend_from_slice(escape_controls(&layout).as_bytes());
                    out.push(b'\n');
                    return;
                }
                Record {
                    number,
                    puzzle: Some(self.cells_text(g.puzzle.givens().cells()).into()),
                    status: UNIQUE,
                    fields: vec![
                        ("layout", Value::from(layout.trim_start())),
                        ("solution", self.cells_text(g.solution.cells()).into()),
                        ("clues", Value::from(g.puzzle.givens().clue_count())),
                        symmetry,
                        ("minimal", Value::from(self.args.symmetry == Symmetry::None)),
                        seed,
                    ],
                    ..Record::default()
                }
            }
            Err(error) => {
                if self.args.output.format == OutputFormat::Text {
                    out.extend_from_slice(format!("# puzzle {number}: {error}\n").as_bytes());
                    return;
                }
                let mut record = Record::invalid(number, None, None, error.to_string());
                record.fields = vec![symmetry, seed];
                record
            }
        };
        record.shape = Some(self.args.shape);
        match self.args.output.format {
            OutputFormat::Csv => record.write_csv(&self.columns, out),
            _ => record.write_json(out),
        }
    }

    /// Puzzle `number` as a record: `unique` with its fields, or `invalid`
    /// with the reason (and the symmetry and seed that were asked for).
    fn record(&self, number: u64, made: &Result<Generated, GenerateError>) -> Record<'static> {
        let symmetry = ("symmetry", Value::from(self.args.symmetry.to_string()));
        let seed = ("seed", Value::from(self.seed));
        let mut record = match made {
            Ok(g) => {
                let mut fields = vec![
                    ("solution", self.cells_text(g.solution.cells()).into()),
                    ("clues", Value::from(g.clues)),
                    symmetry,
                    ("minimal", Value::from(g.minimal)),
                    ("guesses", Value::from(g.guesses)),
                    seed,
                ];
                if let Some(rating) = &g.rating {
                    fields.extend(
                        rating_fields(rating)
                            .into_iter()
                            .filter(|(name, _)| RATING_FIELDS.contains(name)),
                    );
                    fields.push(("attempts", Value::from(g.attempts)));
                }
                Record {
                    number,
                    puzzle: Some(self.cells_text(g.puzzle.cells()).into()),
                    status: UNIQUE,
                    fields,
                    ..Record::default()
                }
            }
            Err(error) => {
                let mut record = Record::invalid(number, None, None, error.to_string());
                record.fields = vec![symmetry, seed];
                record
            }
        };
        record.shape = Some(self.args.shape);
        record
    }
}
