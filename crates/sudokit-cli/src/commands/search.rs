//! `sudokit search [FILE|PUZZLE…]`: the {−R+A} neighbourhood hunt
//! (SPEC §8). Seeds are read like every command's puzzles (9×9 only). New
//! unique minimal puzzles are appended to `--out` as they are found; a
//! progress bar on standard error shows the rate and ETA, and when standard
//! error is not a terminal (a batch job's log) a progress line is printed
//! there every [`PROGRESS_EVERY`] instead. With `--format
//! text` standard output has the invalid seed lines and then the summary;
//! with `jsonl` or `csv` it has records: one per invalid seed line, then one
//! per find (status `unique`, fields `clues` and `seed_number`, the seed's
//! position among the puzzle lines read), printed batch by batch once the
//! hunt has checkpointed them, in the out file's order; `number` counts the
//! records printed, and the summary goes to standard error (not with
//! `--quiet`). Where the hunt starts (resumed, or a checkpoint discarded) is
//! said on standard error before it does.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;
use sudokit::parse::Format;
use sudokit::search::{Batch, Find, Hunt, HuntOptions, Progress, Shard, Start, Stats};
use sudokit::shard::checkpoint_beside;

use super::canon::{nine, nine_spec, require_nine};
use super::input::{locate, InputArgs, PuzzleLines, Source};
use super::output::{
    csv_columns, escape_controls, push_id, write_csv_header, OutputArgs, OutputFormat, Record,
};
use super::record_out::refuse_clobbering;
use super::{FormatArgs, LineArgs, ThreadArgs};

/// The fields of a find's record, after the common ones: its clue count and
/// the number of the seed it came from.
const FIELDS: [&str; 2] = ["clues", "seed_number"];

/// The status of a find: its solution is unique (and it is minimal).
const UNIQUE: &str = "unique";

/// How often a progress line is printed when standard error is not a
/// terminal (hunts shorter than this print none).
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Options of `sudokit search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub format: FormatArgs,
    /// Clues removed from each seed (R).
    #[arg(long, value_name = "R", default_value_t = 1)]
    pub remove: usize,
    /// Clues added (A).
    #[arg(long, value_name = "A", default_value_t = 1)]
    pub add: usize,
    /// File the new finds are appended to (one puzzle per line, digits 1-9
    /// and `.`, deduplicated by canonical form against its earlier content).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Run slice I of N (1 <= I <= N); the N slices make up the whole hunt.
    /// `slurm`: this task's slice of a Slurm array job (from
    /// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT); `sudokit merge`
    /// joins the slices' out files.
    #[arg(long, value_name = "I/N|slurm", default_value = "1/1", value_parser = super::parse_shard)]
    pub shard: Shard,
    /// Continue from the checkpoint of an interrupted run, after checking it
    /// and the out file agree (without it, a checkpoint there is discarded).
    #[arg(long)]
    pub resume: bool,
    /// Only puzzles with at least K clues.
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub min_clues: usize,
    /// Checkpoint file (default: the out file's name + `.checkpoint`).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Units (seed × removal) per checkpointed batch: `N` units, or `Ts`
    /// for as many as take about T seconds (the size follows the time the
    /// last batch took).
    #[arg(long, value_name = "N|Ts", default_value_t = Batch::DEFAULT)]
    pub batch: Batch,
    // text: invalid seed lines, then the summary; jsonl, csv: records of
    // invalid seed lines and of finds, the summary on standard error.
    #[command(flatten)]
    pub output: OutputArgs,
    /// No progress bar or progress lines, no note on resuming, and (jsonl,
    /// csv) no summary on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub threads: ThreadArgs,
    #[command(flatten)]
    pub lines: LineArgs,
}

/// Runs `sudokit search`.
pub fn run(args: &SearchArgs) -> anyhow::Result<ExitCode> {
    args.threads.install()?;
    let spec = nine_spec(&args.format, "search")?;
    let sources = args.input.open(&spec)?;
    let checkpoint = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| checkpoint_beside(&args.out));
    let inputs: Vec<&Path> = sources.iter().filter_map(Source::path).collect();
    refuse_clobbering(&args.out, &checkpoint, &inputs)?;
    let several = sources.len() > 1;
    let output = args.output.format;
    let columns = csv_columns(&FIELDS);
    let mut out = Vec::new();
    if output == OutputFormat::Csv {
        write_csv_header(&columns, &mut out);
    }
    let mut stdout = io::stdout().lock();
    // Seeds, and the number of each among the puzzle lines read.
    let (mut seeds, mut seed_numbers) = (Vec::new(), Vec::new());
    let (mut number, mut printed) = (0u64, 0u64);
    for source in sources {
        let name = source.name.clone();
        let shown = several.then_some(name.as_str());
        let mut puzzles = PuzzleLines::new(source, &spec, args.lines.max_line)?;
        while let Some(entry) = puzzles.next_entry()? {
            require_nine(&name, &entry, "search")?;
            number += 1;
            let error = match &entry.puzzle {
                Ok(puzzle) => {
                    seeds.push(<[u8; 81]>::try_from(puzzle.cells()).expect("a 9x9 puzzle"));
                    seed_numbers.push(number);
                    continue;
                }
                Err(error) => locate(shown, entry.line, error),
            };
            printed += 1;
            match output {
                OutputFormat::Text => {
                    push_id(&mut out, entry.id);
                    out.extend_from_slice(escape_controls(&error).as_bytes());
                    out.push(b'\n');
                }
                _ => {
                    let mut record = Record::invalid(printed, entry.id, Some(entry.cells), error);
                    record.shape = entry.shape;
                    emit(output, &record, &columns, &mut out);
                }
            }
            stdout.write_all(&out)?;
            out.clear();
        }
    }
    stdout.write_all(&out)?;
    stdout.flush()?;
    drop(stdout);
    let invalid = printed > 0;
    let options = HuntOptions {
        remove: args.remove,
        add: args.add,
        min_clues: args.min_clues,
        shard: args.shard,
        batch: args.batch,
    };
    let finds = FindPrinter {
        output,
        columns,
        seed_numbers,
        format: Format::new(nine(), None)?,
        state: Mutex::new(FindState {
            pending: Vec::new(),
            printed,
            error: None,
        }),
    };
    let bar = progress_bar(args.quiet);
    // Off a terminal: when the last progress line was printed.
    let lines = (!args.quiet && !io::stderr().is_terminal()).then(|| Mutex::new(Instant::now()));
    let report = |p: &Progress| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(format!("minimal {}  new {}", p.stats.minimal, p.stats.new));
        if p.checkpointed {
            finds.print();
        }
        if let Some(last) = &lines {
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= PROGRESS_EVERY {
                *last = Instant::now();
                eprintln!("sudokit search: {}", progress_line(p));
            }
        }
    };
    let start = Instant::now();
    let hunt = Hunt::open(&seeds, &options, &args.out, &checkpoint, args.resume)?;
    announce(hunt.start(), args, &checkpoint, args.quiet);
    let stats = hunt.run_with_finds(&report, &|find| finds.found(find))?;
    bar.finish_and_clear();
    finds.finish()?;
    let summary = summary(args, seeds.len(), &stats, start);
    if output == OutputFormat::Text {
        writeln!(io::stdout().lock(), "{summary}")?;
    } else if !args.quiet {
        eprintln!("{summary}");
    }
    Ok(if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the hunt stands, for a log: units done of all, the finds so far,
/// the rate of this run and the time left at that rate.
fn progress_line(p: &Progress) -> String {
    let rate = p.done_here as f64 / p.elapsed.as_secs_f64().max(1e-9);
    let left = if rate > 0.0 {
        let seconds = p.total.saturating_sub(p.done) as f64 / rate;
        format!(
            "{}",
            indicatif::HumanDuration(Duration::from_secs_f64(seconds))
        )
    } else {
        "unknown".to_string()
    };
    format!(
        "{}/{} units ({:.1}%), {} minimal, {} new, {:.0} units/s, {} left",
        p.done,
        p.total,
        100.0 * p.done as f64 / p.total.max(1) as f64,
        p.stats.minimal,
        p.stats.new,
        rate,
        left
    )
}

/// The run's counts in one line.
fn summary(args: &SearchArgs, seeds: usize, stats: &Stats, start: Instant) -> String {
    format!(
        "{{-{}+{}}} shard {}: {} seeds, {} units, {} candidates, {} unique, {} minimal, {} new, {:.3} s",
        args.remove,
        args.add,
        args.shard,
        seeds,
        stats.units,
        stats.candidates,
        stats.unique,
        stats.minimal,
        stats.new,
        start.elapsed().as_secs_f64()
    )
}

/// Appends a record in the JSON or CSV format (`output` is not text).
fn emit(output: OutputFormat, record: &Record<'_>, columns: &[&str], out: &mut Vec<u8>) {
    if output == OutputFormat::Csv {
        record.write_csv(columns, out);
    } else {
        record.write_json(out);
    }
}

/// Prints the finds as records on standard output (jsonl, csv), a batch at
/// a time once the hunt has checkpointed it, in the out file's order.
struct FindPrinter {
    /// `--format`; with text nothing is printed.
    output: OutputFormat,
    /// The CSV columns.
    columns: Vec<&'static str>,
    /// The number of each seed among the puzzle lines read.
    seed_numbers: Vec<u64>,
    /// The out file's format, for the puzzle's text.
    format: Format,
    /// What the hunt's threads and the printer share.
    state: Mutex<FindState>,
}

/// Finds not yet printed, and how printing goes.
struct FindState {
    /// Finds heard of since the last batch.
    pending: Vec<Find>,
    /// Records printed so far (the last one's number).
    printed: u64,
    /// The first failure to write standard output; nothing is printed after.
    error: Option<io::Error>,
}

impl FindPrinter {
    /// Keeps a find until its batch is checkpointed.
    fn found(&self, find: &Find) {
        if self.output != OutputFormat::Text {
            self.lock().pending.push(*find);
        }
    }

    /// The shared state, even after a panic elsewhere.
    fn lock(&self) -> std::sync::MutexGuard<'_, FindState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Prints the finds kept so far as records (a write failure is kept for
    /// [`finish`](Self::finish), since the hunt's callback cannot fail).
    fn print(&self) {
        let mut state = self.lock();
        let state = &mut *state;
        if state.pending.is_empty() || state.error.is_some() {
            state.pending.clear();
            return;
        }
        let mut out = Vec::new();
        for find in state.pending.drain(..) {
            state.printed += 1;
            let mut text = Vec::with_capacity(81);
            self.format.alphabet().write_cells(&find.puzzle, &mut text);
            let record = Record {
                number: state.printed,
                puzzle: Some(String::from_utf8_lossy(&text).into_owned().into()),
                shape: Some(nine()),
                status: UNIQUE,
                fields: vec![
                    (
                        "clues",
                        Value::from(find.puzzle.iter().filter(|&&v| v != 0).count()),
                    ),
                    ("seed_number", Value::from(self.seed_numbers[find.seed])),
                ],
                ..Record::default()
            };
            emit(self.output, &record, &self.columns, &mut out);
        }
        let mut stdout = io::stdout().lock();
        if let Err(error) = stdout.write_all(&out).and_then(|()| stdout.flush()) {
            state.error = Some(error);
        }
    }

    /// Prints what is left and reports a failure to write.
    fn finish(&self) -> anyhow::Result<()> {
        self.print();
        match self.lock().error.take() {
            Some(error) => Err(anyhow::Error::new(error).context("writing output")),
            None => Ok(()),
        }
    }
}

/// Says on standard error where the hunt starts: always when a checkpoint
/// is discarded or missing, unless `quiet` when it is resumed.
fn announce(start: &Start, args: &SearchArgs, checkpoint: &Path, quiet: bool) {
    let (out, checkpoint) = (args.out.display(), checkpoint.display());
    let kept = format!("finds already in {out} are kept and not repeated");
    match start {
        Start::Fresh => {}
        Start::Resume(c) if c.is_complete() => eprintln!(
            "sudokit: {checkpoint}: this shard is complete ({} units); nothing left to do",
            c.hunt.units
        ),
        Start::Resume(c) if !quiet => eprintln!(
            "sudokit: resuming from {checkpoint} at unit {} of {}",
            c.done, c.hunt.units
        ),
        Start::Resume(_) => {}
        Start::NoCheckpoint => eprintln!(
            "sudokit: warning: --resume: no checkpoint {checkpoint}; the hunt starts from the beginning ({kept})"
        ),
        Start::Discard(c) => eprintln!(
            "sudokit: warning: --resume not given: discarding checkpoint {checkpoint} ({c}); \
             the hunt starts from the beginning ({kept})"
        ),
        Start::DiscardUnreadable(why) => eprintln!(
            "sudokit: warning: --resume not given: discarding unreadable checkpoint {checkpoint} ({why}); \
             the hunt starts from the beginning ({kept})"
        ),
    }
}

/// A bar on standard error with units done, rate and ETA (hidden when quiet
/// or when standard error is not a terminal).
fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(0);
    let style =
        ProgressStyle::with_template("{bar:30} {pos}/{len} units  {per_sec}  ETA {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

#[cfg(test)]
mod tests {
    use super::{progress_line, Progress, Stats};
    use std::time::Duration;

    #[test]
    fn a_progress_line_says_where_the_hunt_stands_and_how_long_is_left() {
        let mut p = Progress {
            done: 300,
            total: 1000,
            stats: Stats {
                minimal: 7,
                new: 5,
                ..Stats::default()
            },
            elapsed: Duration::from_secs(20),
            done_here: 200,
            checkpointed: false,
        };
        assert_eq!(
            progress_line(&p),
            "300/1000 units (30.0%), 7 minimal, 5 new, 10 units/s, 70 seconds left"
        );
        p.done_here = 0;
        assert!(progress_line(&p).ends_with("0 units/s, unknown left"));
    }
}
